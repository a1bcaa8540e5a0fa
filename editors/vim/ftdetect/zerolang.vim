" 0-lang graphs (.0); the .0c compact memory format is ftdetect/zerolangc.vim.
" vercel-labs/zerolang, another language, also names its files .0: a file whose first line that is
" not blank or a `#` comment starts like theirs (fn, pub, let, use, import, ...) is left to its plugin.
autocmd BufRead,BufNewFile *.0 call s:ZerolangDetect()

function! s:ZerolangDetect() abort
  for l:line in getline(1, 200)
    if l:line =~# '^\s*\%(#.*\)\=$'
      continue
    endif
    if l:line =~# '^\s*\%(//\|/\*\|\%(pub\|export\|async\)\s\|\%(fn\|let\|const\|use\|import\|struct\|enum\|impl\|trait\|mod\|module\|interface\)\>\%(\s*:\)\@!\)'
      return
    endif
    break
  endfor
  setfiletype zerolang
endfunction
