" .arb files are Arboretum game records (the arbo notation).
autocmd BufRead,BufNewFile *.arb setfiletype arbo
