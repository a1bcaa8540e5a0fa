" Write Vim's syntax group for every run of text in the current buffer to $ZERO_VIM_OUT:
" a first line with the filetype and commentstring, then `line<TAB>group<TAB>text` per run
" (blank runs left out). Used by tests/editors/test_vscode_grammar.py through `vim -es`.
let s:out = ['filetype=' . &filetype . ' commentstring=' . &commentstring]
for lnum in range(1, line('$'))
  let line = getline(lnum)
  let start = 1
  let prev = ''
  for col in range(1, len(line) + 1)
    let name = col <= len(line) ? synIDattr(synID(lnum, col, 1), 'name') : '<eol>'
    if name !=# prev
      let text = line[start - 1 : col - 2]
      if col > start && text !~# '^\s*$'
        call add(s:out, lnum . "\t" . prev . "\t" . text)
      endif
      let start = col
      let prev = name
    endif
  endfor
endfor
call writefile(s:out, $ZERO_VIM_OUT)
