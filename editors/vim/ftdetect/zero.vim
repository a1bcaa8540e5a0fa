" 0-lang graphs (.0) and the .0c compact memory format.
autocmd BufRead,BufNewFile *.0,*.0c setfiletype zero
