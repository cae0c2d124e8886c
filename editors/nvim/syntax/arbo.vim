" Vim syntax file
" Language: arbo, the notation of Arboretum game records (.arb)
" The syntax is grammar/arbo.lark of the arbo repository; docs/NOTATION.md explains it. This file
" colours it as editors/vscode/syntaxes/arbo.tmLanguage.json does; arbo lsp checks the rules.

if exists("b:current_syntax")
  finish
endif

syntax case match
syntax sync fromstart

" The header: YAML between two lines that are '---'.
syntax region arboHeader matchgroup=arboHeaderDelimiter start=/^---[ \t]*$/ end=/^---[ \t]*$/ contains=arboHeaderKey,arboHeaderComment,arboHeaderString,arboCard,arboHeaderNumber,arboHeaderPlayers,arboHeaderSpecies,arboPosition keepend
syntax match arboHeaderKey /^[ \t]*\(-[ \t]\+\)\=\zs[A-Za-z_][A-Za-z0-9_'\- ]\{-}\ze[ \t]*:\([ \t]\|$\)/ contained
syntax match arboHeaderComment /\(^\|[ \t]\)\zs#.*$/ contained
syntax match arboHeaderString /"\([^"\\]\|\\.\)*"/ contained
syntax match arboHeaderString /'\([^']\|''\)*'/ contained
syntax match arboHeaderNumber /\<[0-9]\+\(-[0-9]\{2}\)\{0,2}\>/ contained
syntax match arboHeaderPlayers /^players[ \t]*:.*$/ contained contains=arboHeaderKey,arboPlayerInList,arboHeaderComment
syntax match arboPlayerInList /\(\[\|,\)[ \t]*\zs[A-Za-z][A-Za-z0-9_'\-]*/ contained
syntax match arboHeaderSpecies /^species[ \t]*:.*$/ contained contains=arboHeaderKey,arboSpecies,arboHeaderComment
syntax match arboSpecies /\(\[\|,\)[ \t]*\zs[A-Za-z]\{1,3}\>/ contained
" position: the table the record starts from, one line (docs/NOTATION.md, Positions).
syntax match arboPosition /^position[ \t]*:.*$/ contained contains=arboHeaderKey,arboPositionSeparator,arboSeat,arboPlanting,arboCard,arboDeckField,arboDue,arboHidden
syntax match arboPositionSeparator /|/ contained
syntax match arboSeat /\<[A-Za-z][A-Za-z0-9_'\-]*\ze:[ \t]/ contained
syntax match arboDeckField /\<deck[ \t]\+[0-9]\+/ contained
syntax match arboDue /[0-9]\+\.[ \t]\+[A-Za-z][A-Za-z0-9_'\-]*[ \t]\+\(draw1\|draw2\|plant\|discard\|over\)\>/ contained contains=arboTurnNumber,arboDueWord
syntax match arboDueWord /\<\(draw1\|draw2\|plant\|discard\|over\)\>/ contained
syntax match arboHidden /?[0-9]\{1,2}\>/ contained

" Comments: {...} may span lines; ; runs to the line's end. The engine's notes start with arbo:.
syntax region arboComment start=/{/ end=/}/ contains=arboEngineNote
syntax match arboEngineNote /\%({[ \t\n]*\)\@<=arbo:/ contained
syntax match arboLineComment /;.*$/

" Variations: ( ... ), nested.
syntax region arboVariation matchgroup=arboVariationParen start=/(/ end=/)/ contains=TOP,arboHeader transparent

" Turns: [N.] PLAYER DRAW DRAW CARD@X,Y /CARD, glyphs.
syntax match arboTurnNumber /\<[0-9]\{1,4}\./ nextgroup=arboPlayer skipwhite
syntax match arboPlayer /\<\(\(d\|reveal\|result\)\>\)\@![A-Za-z][A-Za-z0-9_'\-]*\ze[ \t]\+\S\+[ \t]\+\S\+[ \t]\+[A-Za-z]\{1,3}[1-8]@/
syntax match arboPileDraw /\<[A-Za-z][A-Za-z0-9_'\-]*:\ze[A-Za-z]\{1,3}[1-8]\>/
syntax match arboDeckDraw /\%(^\|[ \t]\)\@<=d\(:[A-Za-z]\{1,3}[1-8]\)\=\ze\([ \t]\|$\)/ contains=arboCard
syntax match arboNoDraw /\%([ \t]\)\@<=-\ze[ \t]/
syntax match arboCard /\<[A-Za-z]\{1,3}[1-8]\>/
syntax match arboPlanting /\<[A-Za-z]\{1,3}[1-8]@-\=[0-9]\{1,3},-\=[0-9]\{1,3}\>/ contains=arboCard,arboCell
syntax match arboCell /@\zs-\=[0-9]\{1,3},-\=[0-9]\{1,3}/ contained
syntax match arboDiscard /\/\ze[A-Za-z]\{1,3}[1-8]\>/
syntax match arboGlyph /\%([ \t1-8)]\)\@<=\(!!\|??\|!?\|?!\|!\|?\|\$[0-9]\{1,3}\)\ze\([ \t{;()]\|$\)/

" Reveal and result lines.
syntax match arboReveal /\<reveal\>/ nextgroup=arboRevealPlayer skipwhite
syntax match arboRevealPlayer /[A-Za-z][A-Za-z0-9_'\-]*/ contained
syntax match arboResult /\<result\>.*$/ contains=arboResultWord,arboScore,arboUnfinished,arboComment,arboLineComment
syntax match arboResultWord /\<result\>/ contained
syntax match arboScore /\<[A-Za-z][A-Za-z0-9_'\-]*[ \t]\+[0-9]\{1,4}\>/ contained contains=arboScorePoints
syntax match arboScorePoints /[0-9]\+/ contained
syntax match arboUnfinished /\*/ contained

highlight default link arboHeaderDelimiter PreProc
highlight default link arboHeaderKey Identifier
highlight default link arboHeaderComment Comment
highlight default link arboHeaderString String
highlight default link arboHeaderNumber Number
highlight default link arboPlayerInList arboPlayerName
highlight default link arboSpecies Type
highlight default link arboPositionSeparator Delimiter
highlight default link arboSeat arboPlayerName
highlight default link arboDeckField Keyword
highlight default link arboDueWord Keyword
highlight default link arboHidden Number
highlight default link arboComment Comment
highlight default link arboEngineNote SpecialComment
highlight default link arboLineComment Comment
highlight default link arboVariationParen Delimiter
highlight default link arboTurnNumber Number
highlight default link arboPlayerName Function
highlight default link arboPlayer arboPlayerName
highlight default link arboRevealPlayer arboPlayerName
highlight default link arboPileDraw arboPlayerName
highlight default link arboDeckDraw Keyword
highlight default link arboNoDraw Keyword
highlight default link arboCard Type
highlight default link arboCell Number
highlight default link arboDiscard Operator
highlight default link arboGlyph Special
highlight default link arboReveal Statement
highlight default link arboResultWord Statement
highlight default link arboScorePoints Number
highlight default link arboUnfinished Constant

let b:current_syntax = "arbo"
