" 0-lang graphs (.0); the .0c compact memory format is ftdetect/zeroc.vim.
autocmd BufRead,BufNewFile *.0 setfiletype zero
