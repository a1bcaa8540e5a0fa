" Vim filetype plugin for the .0c compact memory format: `#` comments, one entity per line.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=#\ %s
setlocal comments=:#
setlocal formatoptions-=t formatoptions+=croql
setlocal nowrap

let b:undo_ftplugin = "setlocal commentstring< comments< formatoptions< wrap<"
