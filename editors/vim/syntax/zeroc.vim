" Vim syntax file
" Language:    the .0c compact form of 0-memory (docs/0c-format.md in zerolang)
" Maintainer:  zerolang developers
"
" One entity per line, told apart by how the line starts (zerolang/syntax/grammars/zeroc.lark):
" the `0M:1.0` header, `#` comments, declarations (exactly `!SETTING VALUE @TIME`, or
" `!-SETTING ...`), `X:` contexts, `@` times, relations (`S predicateO CONF; ...`) and concepts
" (any other line, `!important` included: `label|alias|=CONF|@T|^T`).
" The Pygments lexer (zerolang/tools/highlight.py) and the VS Code grammar colour the same parts.

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match

" A JSON string, wherever a value is quoted; its escapes, and the ones JSON does not have.
syn region zerocString contained start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ oneline contains=zerocEscape,zerocBadEscape
syn match zerocBadEscape contained +\\.\=+
syn match zerocEscape contained +\\\%(["\\/bfnrt]\|u\x\{4}\)+

" Concepts: any line the others do not claim (defined first: later items win).
syn match zerocConcept "^.*$" contains=zerocLabel,zerocQuotedLabel
syn match zerocLabel contained "^[^|"]\+" nextgroup=zerocItems
syn match zerocQuotedLabel contained +^"\%([^"\\]\|\\.\)*"+ contains=zerocEscape,zerocBadEscape nextgroup=zerocItems
syn match zerocItems contained "|.*$" contains=zerocBar,zerocAlias,zerocString,zerocConceptConfidence,zerocConceptTime
syn match zerocBar contained "|"
syn match zerocAlias contained "\%(|\)\@1<=[^|"=@^][^|]*"
syn match zerocConceptConfidence contained "\%(|\)\@1<==\%(\d\{1,3}\|\d*\.\d\+\%([eE][-+]\=\d\+\)\=\|\d\+[eE][-+]\=\d\+\)\ze\%(|\|$\)"
      \ contains=zerocOperator
syn match zerocConceptTime contained "\%(|\)\@1<=[@^]\%([^|"][^|]*\)\=" contains=zerocOperator
syn match zerocOperator contained "\%(|\)\@1<=[=@^]"

" Declarations: exactly `!SETTING VALUE @TIME` (`!-`: undeclared), the whole line; any other
" line starting with `!` is a concept (defined after concepts, so a declaration wins).
syn match zerocDeclaration +^!-\=[a-z][a-z0-9]*\%(-[a-z0-9]\+\)* \%([^[:space:]"]\S*\|"\%([^"\\]\|\\.\)*"\) @\%([^[:space:]"]\S*\|"\%([^"\\]\|\\.\)*"\)$+
      \ contains=zerocDeclarationMark
syn match zerocDeclarationMark contained "^!-\=" nextgroup=zerocSetting
syn match zerocSetting contained "[a-z][a-z0-9]*\%(-[a-z0-9]\+\)*" nextgroup=zerocSettingValue,zerocSettingQuotedValue skipwhite
syn match zerocSettingValue contained +[^[:space:]"]\S*+ nextgroup=zerocDeclarationTimeMark skipwhite
syn match zerocSettingQuotedValue contained +"\%([^"\\]\|\\.\)*"+ contains=zerocEscape,zerocBadEscape
      \ nextgroup=zerocDeclarationTimeMark skipwhite
syn match zerocDeclarationTimeMark contained "@" nextgroup=zerocTime,zerocString

" Relations: `S predicateO[ CONF][; predicateO[ CONF]]...`
syn match zerocRelations "^\d\+ .*$" contains=zerocSubject,zerocRelation,zerocQuotedPredicate,zerocConfidence,zerocSeparator,zerocIllegal
syn match zerocIllegal contained "[^ ]"
syn match zerocSubject contained "^\d\+\ze "
syn match zerocRelation contained "[^[:space:];"0-9]\%([^[:space:];"]*[^[:space:];"0-9]\)\=\d\+" contains=zerocObject
syn match zerocQuotedPredicate contained +"\%([^"\\]\|\\.\)*"\d\++ contains=zerocEscape,zerocBadEscape,zerocObject
syn match zerocObject contained "\d\+$\|\d\+\ze[ ;]"
syn match zerocConfidence contained " \zs\%(\d\{1,3}\|\d*\.\d\+\%([eE][-+]\=\d\+\)\=\|\d\+[eE][-+]\=\d\+\)\ze\%(;\|$\)"
syn match zerocSeparator contained "; "

" Times: `@TIME`, the creation time of the relations below.
syn match zerocTimeLine "^@.*$" contains=zerocTimeMark
syn match zerocTimeMark contained "^@" nextgroup=zerocTime,zerocString
syn match zerocTime contained "[^[:space:]"]\S*"

" Contexts: `X:EVENT_TIME SOURCE SCOPE[ a=AGENT][ s=SESSION][ m={JSON}][ c=CREATED]`
syn match zerocContext "^X:.*$" contains=zerocContextMark
syn match zerocContextMark contained "^X:" nextgroup=zerocEvent,zerocEventString
syn match zerocEvent contained "[^[:space:]"]\S*" nextgroup=zerocSource skipwhite
syn region zerocEventString contained start=+"+ skip=+\\\\\|\\"+ end=+"+ oneline contains=zerocEscape nextgroup=zerocSource skipwhite
syn match zerocSource contained +\%([^[:space:]"]\S*\|"\%([^"\\]\|\\.\)*"\)+ contains=zerocEscape nextgroup=zerocScope skipwhite
syn match zerocScope contained +\%([^[:space:]"]\S*\|"\%([^"\\]\|\\.\)*"\)+ contains=zerocEscape nextgroup=zerocField skipwhite
syn match zerocField contained "\<[asc]=" nextgroup=zerocFieldValue,zerocFieldString,zerocNone
syn match zerocField contained "\<m=" nextgroup=zerocMetadata
syn match zerocFieldValue contained "[^[:space:]"]\S*" nextgroup=zerocField skipwhite
syn region zerocFieldString contained start=+"+ skip=+\\\\\|\\"+ end=+"+ oneline
      \ contains=zerocEscape,zerocBadEscape nextgroup=zerocField skipwhite
syn match zerocNone contained "-\ze\%(\s\|$\)" nextgroup=zerocField skipwhite
syn region zerocMetadata contained matchgroup=zerocBrace start="{" end="}" end="$" oneline
      \ contains=zerocKey,zerocString nextgroup=zerocField skipwhite
syn match zerocKey contained +"\%([^"\\]\|\\.\)*"\ze\s*:+ contains=zerocEscape,zerocBadEscape

" The header, and the short ids of an L0 document.
syn match zerocHeader "^0M:.*$" contains=zerocHeaderMark,zerocLevel,zerocHeaderField
syn match zerocHeaderMark contained "^0M:\%(\d\+\.\d\+\)\="
syn match zerocLevel contained "\s\zs\%(L\d\|delta\)\ze\%(\s\|$\)"
syn match zerocHeaderField contained "\s\zs\w\+=\S*" contains=zerocHeaderValue
syn match zerocHeaderValue contained "=\zs\S*"
syn region zerocL0 start="^\%(0M:\d\+\.\d\+[ \t]\+L0\%(\s\|$\)\)\@=" end="\%$" contains=zerocHeader,zerocComment,zerocShortIds
syn match zerocShortIds contained "^\x\+:.*$" contains=zerocShortId,zerocColon
syn match zerocShortId contained "\<\x\+\>"
syn match zerocColon contained ":"

syn keyword zerocTodo contained TODO FIXME XXX NOTE
syn match zerocComment "^#.*$" contains=zerocTodo,@Spell

syn sync fromstart

hi def link zerocComment           Comment
hi def link zerocTodo              Todo
hi def link zerocString            String
hi def link zerocEscape            SpecialChar
hi def link zerocBadEscape         Error
hi def link zerocHeaderMark        PreProc
hi def link zerocLevel             Keyword
hi def link zerocHeaderField       Identifier
hi def link zerocHeaderValue       Number
hi def link zerocLabel             Type
hi def link zerocQuotedLabel       String
hi def link zerocAlias             Identifier
hi def link zerocBar               Delimiter
hi def link zerocOperator          Operator
hi def link zerocConceptConfidence Number
hi def link zerocConceptTime       Constant
hi def link zerocSubject           Label
hi def link zerocRelation          Function
hi def link zerocQuotedPredicate   String
hi def link zerocObject            Label
hi def link zerocConfidence        Number
hi def link zerocSeparator         Delimiter
hi def link zerocIllegal           Error
hi def link zerocTimeMark          Keyword
hi def link zerocDeclarationMark   Keyword
hi def link zerocSetting           Identifier
hi def link zerocSettingValue      Function
hi def link zerocSettingQuotedValue String
hi def link zerocDeclarationTimeMark Keyword
hi def link zerocTime              Constant
hi def link zerocContextMark       Keyword
hi def link zerocEvent             Constant
hi def link zerocEventString       String
hi def link zerocSource            Tag
hi def link zerocScope             Structure
hi def link zerocField             Identifier
hi def link zerocFieldValue        Special
hi def link zerocFieldString       String
hi def link zerocNone              Constant
hi def link zerocBrace             Delimiter
hi def link zerocKey               Identifier
hi def link zerocShortId           Number
hi def link zerocColon             Delimiter

let b:current_syntax = "zeroc"

let &cpo = s:cpo_save
unlet s:cpo_save
