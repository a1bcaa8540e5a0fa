" The .0c compact form of 0-memory (docs/0c-format.md in zerolang).
autocmd BufRead,BufNewFile *.0c setfiletype zerolangc
