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
syn region zerolangcString contained start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ oneline contains=zerolangcEscape,zerolangcBadEscape
syn match zerolangcBadEscape contained +\\.\=+
syn match zerolangcEscape contained +\\\%(["\\/bfnrt]\|u\x\{4}\)+

" Concepts: any line the others do not claim (defined first: later items win).
syn match zerolangcConcept "^.*$" contains=zerolangcLabel,zerolangcQuotedLabel
syn match zerolangcLabel contained "^[^|"]\+" nextgroup=zerolangcItems
syn match zerolangcQuotedLabel contained +^"\%([^"\\]\|\\.\)*"+ contains=zerolangcEscape,zerolangcBadEscape nextgroup=zerolangcItems
syn match zerolangcItems contained "|.*$" contains=zerolangcBar,zerolangcAlias,zerolangcString,zerolangcConceptConfidence,zerolangcConceptTime
syn match zerolangcBar contained "|"
syn match zerolangcAlias contained "\%(|\)\@1<=[^|"=@^][^|]*"
syn match zerolangcConceptConfidence contained "\%(|\)\@1<==\%(\d\{1,3}\|\d*\.\d\+\%([eE][-+]\=\d\+\)\=\|\d\+[eE][-+]\=\d\+\)\ze\%(|\|$\)"
      \ contains=zerolangcOperator
syn match zerolangcConceptTime contained "\%(|\)\@1<=[@^]\%([^|"][^|]*\)\=" contains=zerolangcOperator
syn match zerolangcOperator contained "\%(|\)\@1<=[=@^]"

" Declarations: exactly `!SETTING VALUE @TIME` (`!-`: undeclared), the whole line; any other
" line starting with `!` is a concept (defined after concepts, so a declaration wins).
syn match zerolangcDeclaration +^!-\=[a-z][a-z0-9]*\%(-[a-z0-9]\+\)* \%([^[:space:]"]\S*\|"\%([^"\\]\|\\.\)*"\) @\%([^[:space:]"]\S*\|"\%([^"\\]\|\\.\)*"\)$+
      \ contains=zerolangcDeclarationMark
syn match zerolangcDeclarationMark contained "^!-\=" nextgroup=zerolangcSetting
syn match zerolangcSetting contained "[a-z][a-z0-9]*\%(-[a-z0-9]\+\)*" nextgroup=zerolangcSettingValue,zerolangcSettingQuotedValue skipwhite
syn match zerolangcSettingValue contained +[^[:space:]"]\S*+ nextgroup=zerolangcDeclarationTimeMark skipwhite
syn match zerolangcSettingQuotedValue contained +"\%([^"\\]\|\\.\)*"+ contains=zerolangcEscape,zerolangcBadEscape
      \ nextgroup=zerolangcDeclarationTimeMark skipwhite
syn match zerolangcDeclarationTimeMark contained "@" nextgroup=zerolangcTime,zerolangcString

" Relations: `S predicateO[ CONF][; predicateO[ CONF]]...`
syn match zerolangcRelations "^\d\+ .*$" contains=zerolangcSubject,zerolangcRelation,zerolangcQuotedPredicate,zerolangcConfidence,zerolangcSeparator,zerolangcIllegal
syn match zerolangcIllegal contained "[^ ]"
syn match zerolangcSubject contained "^\d\+\ze "
syn match zerolangcRelation contained "[^[:space:];"0-9]\%([^[:space:];"]*[^[:space:];"0-9]\)\=\d\+" contains=zerolangcObject
syn match zerolangcQuotedPredicate contained +"\%([^"\\]\|\\.\)*"\d\++ contains=zerolangcEscape,zerolangcBadEscape,zerolangcObject
syn match zerolangcObject contained "\d\+$\|\d\+\ze[ ;]"
syn match zerolangcConfidence contained " \zs\%(\d\{1,3}\|\d*\.\d\+\%([eE][-+]\=\d\+\)\=\|\d\+[eE][-+]\=\d\+\)\ze\%(;\|$\)"
syn match zerolangcSeparator contained "; "

" Times: `@TIME`, the creation time of the relations below.
syn match zerolangcTimeLine "^@.*$" contains=zerolangcTimeMark
syn match zerolangcTimeMark contained "^@" nextgroup=zerolangcTime,zerolangcString
syn match zerolangcTime contained "[^[:space:]"]\S*"

" Contexts: `X:EVENT_TIME SOURCE SCOPE[ a=AGENT][ s=SESSION][ m={JSON}][ c=CREATED]`
syn match zerolangcContext "^X:.*$" contains=zerolangcContextMark
syn match zerolangcContextMark contained "^X:" nextgroup=zerolangcEvent,zerolangcEventString
syn match zerolangcEvent contained "[^[:space:]"]\S*" nextgroup=zerolangcSource skipwhite
syn region zerolangcEventString contained start=+"+ skip=+\\\\\|\\"+ end=+"+ oneline contains=zerolangcEscape nextgroup=zerolangcSource skipwhite
syn match zerolangcSource contained +\%([^[:space:]"]\S*\|"\%([^"\\]\|\\.\)*"\)+ contains=zerolangcEscape nextgroup=zerolangcScope skipwhite
syn match zerolangcScope contained +\%([^[:space:]"]\S*\|"\%([^"\\]\|\\.\)*"\)+ contains=zerolangcEscape nextgroup=zerolangcField skipwhite
syn match zerolangcField contained "\<[asc]=" nextgroup=zerolangcFieldValue,zerolangcFieldString,zerolangcNone
syn match zerolangcField contained "\<m=" nextgroup=zerolangcMetadata
syn match zerolangcFieldValue contained "[^[:space:]"]\S*" nextgroup=zerolangcField skipwhite
syn region zerolangcFieldString contained start=+"+ skip=+\\\\\|\\"+ end=+"+ oneline
      \ contains=zerolangcEscape,zerolangcBadEscape nextgroup=zerolangcField skipwhite
syn match zerolangcNone contained "-\ze\%(\s\|$\)" nextgroup=zerolangcField skipwhite
syn region zerolangcMetadata contained matchgroup=zerolangcBrace start="{" end="}" end="$" oneline
      \ contains=zerolangcKey,zerolangcString nextgroup=zerolangcField skipwhite
syn match zerolangcKey contained +"\%([^"\\]\|\\.\)*"\ze\s*:+ contains=zerolangcEscape,zerolangcBadEscape

" The header, and the short ids of an L0 document.
syn match zerolangcHeader "^0M:.*$" contains=zerolangcHeaderMark,zerolangcLevel,zerolangcHeaderField
syn match zerolangcHeaderMark contained "^0M:\%(\d\+\.\d\+\)\="
syn match zerolangcLevel contained "\s\zs\%(L\d\|delta\)\ze\%(\s\|$\)"
syn match zerolangcHeaderField contained "\s\zs\w\+=\S*" contains=zerolangcHeaderValue
syn match zerolangcHeaderValue contained "=\zs\S*"
syn region zerolangcL0 start="^\%(0M:\d\+\.\d\+[ \t]\+L0\%(\s\|$\)\)\@=" end="\%$" contains=zerolangcHeader,zerolangcComment,zerolangcShortIds
syn match zerolangcShortIds contained "^\x\+:.*$" contains=zerolangcShortId,zerolangcColon
syn match zerolangcShortId contained "\<\x\+\>"
syn match zerolangcColon contained ":"

syn keyword zerolangcTodo contained TODO FIXME XXX NOTE
syn match zerolangcComment "^#.*$" contains=zerolangcTodo,@Spell

syn sync fromstart

hi def link zerolangcComment           Comment
hi def link zerolangcTodo              Todo
hi def link zerolangcString            String
hi def link zerolangcEscape            SpecialChar
hi def link zerolangcBadEscape         Error
hi def link zerolangcHeaderMark        PreProc
hi def link zerolangcLevel             Keyword
hi def link zerolangcHeaderField       Identifier
hi def link zerolangcHeaderValue       Number
hi def link zerolangcLabel             Type
hi def link zerolangcQuotedLabel       String
hi def link zerolangcAlias             Identifier
hi def link zerolangcBar               Delimiter
hi def link zerolangcOperator          Operator
hi def link zerolangcConceptConfidence Number
hi def link zerolangcConceptTime       Constant
hi def link zerolangcSubject           Label
hi def link zerolangcRelation          Function
hi def link zerolangcQuotedPredicate   String
hi def link zerolangcObject            Label
hi def link zerolangcConfidence        Number
hi def link zerolangcSeparator         Delimiter
hi def link zerolangcIllegal           Error
hi def link zerolangcTimeMark          Keyword
hi def link zerolangcDeclarationMark   Keyword
hi def link zerolangcSetting           Identifier
hi def link zerolangcSettingValue      Function
hi def link zerolangcSettingQuotedValue String
hi def link zerolangcDeclarationTimeMark Keyword
hi def link zerolangcTime              Constant
hi def link zerolangcContextMark       Keyword
hi def link zerolangcEvent             Constant
hi def link zerolangcEventString       String
hi def link zerolangcSource            Tag
hi def link zerolangcScope             Structure
hi def link zerolangcField             Identifier
hi def link zerolangcFieldValue        Special
hi def link zerolangcFieldString       String
hi def link zerolangcNone              Constant
hi def link zerolangcBrace             Delimiter
hi def link zerolangcKey               Identifier
hi def link zerolangcShortId           Number
hi def link zerolangcColon             Delimiter

let b:current_syntax = "zerolangc"

let &cpo = s:cpo_save
unlet s:cpo_save
