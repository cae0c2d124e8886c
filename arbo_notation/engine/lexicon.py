"""The lexical rules of the .arb notation, each written once as regular-expression text.

grammar/arbo.lark spells these rules out in its terminals (a lark regular expression cannot name
another terminal); every module of arbo that matches names, cards, draws or glyphs builds its
expressions from the strings here, and tests/engine/test_lexicon.py holds the grammar's terminals equal
to them, so a rule changes in the grammar and here together or a test fails.

Pure standard library, and nothing of arbo is imported: the engine may use it. Possessive
quantifiers (``*+``, ``++``, ``{1,3}+``) and lookaheads are part of the rules: they keep the
meaning the grammar gives them (a name is taken whole) and spare the scanner backtracking.
"""

from __future__ import annotations


ENGINE_MARK = "arbo:"
"""How the analysis engine's comment opens (``{arbo: +1.3 (48 samples)}``): the text that tells its
comments apart from a person's (notation/engine_notes.py reads them)."""

# -- Names ---------------------------------------------------------------------------------------

NAME_START = r"[A-Za-z]"
"""The first character of a player's name: a letter."""

NAME_CHAR = r"[A-Za-z0-9_'-]"
"""A character of a player's name after the first: a letter, a digit, _ ' or -."""

MAX_NAME_LENGTH = 100
"""The longest player's name, far longer than any real one: a name is drawn in pictures and pages,
whose work grows with it (docs/NOTATION.md, "Limits")."""

NAME_SHAPE = rf"{NAME_START}{NAME_CHAR}{{0,{MAX_NAME_LENGTH - 1}}}"
"""A word shaped as a player's name, at most MAX_NAME_LENGTH characters (the reserved words not
excluded, nothing checked after it)."""

RESERVED_WORDS = ("d", "reveal", "result")
"""The words the notation gives a meaning to, which no player may be named."""

RESERVED_NAMES = frozenset(RESERVED_WORDS)
"""The same, as a set: the names no player may have."""

NOT_RESERVED = rf"(?!(?:{'|'.join(RESERVED_WORDS)})(?!{NAME_CHAR}))"
"""A lookahead: what follows is not a reserved word standing alone (``dd`` or ``results`` may be names)."""

NAME = rf"{NOT_RESERVED}{NAME_START}{NAME_CHAR}{{0,{MAX_NAME_LENGTH - 1}}}+(?!{NAME_CHAR})"
"""A player's name, taken whole, of at most MAX_NAME_LENGTH characters (the grammar's NAME)."""

# -- Cards ---------------------------------------------------------------------------------------

SPECIES = r"[A-Za-z]{1,3}"
"""A species code: one to three letters (case matters)."""

VALUE = r"[1-8]"
"""A card's value: one digit from 1 to 8."""

CARD_SHAPE = rf"{SPECIES}{VALUE}"
"""A species code and a value (nothing checked after them)."""

CARD_END = r"(?![A-Za-z0-9_])"
"""A lookahead: no letter, digit or _ follows a card (``Ma3x`` and ``Ma34`` are no cards)."""

CARD = rf"{SPECIES}+{VALUE}{CARD_END}"
"""A card such as Ma3, taken whole (the grammar's CARD)."""

# -- The words and pieces of a turn --------------------------------------------------------------

DECK_WORD = RESERVED_WORDS[0]
"""The word of a draw from the deck."""

REVEAL_WORD = RESERVED_WORDS[1]
"""The word that opens a reveal line."""

RESULT_WORD = RESERVED_WORDS[2]
"""The word that opens the result line."""

DECK_DRAW = rf"{DECK_WORD}(?::{CARD})?(?![^ \t])"
"""A draw from the deck, 'd' or 'd:Ma3', followed by white space (the grammar's DECK_DRAW)."""

SKIP_DRAW = "-"
"""The draw of a player who could draw no card."""

# The numbers of a record are bounded, far past what a game reaches (docs/NOTATION.md, "Limits"),
# in digits: a longer one is refused where it stands, before any work is done with it.

MAX_COORDINATE_DIGITS = 3
"""A coordinate is -999 to 999: a deck of 10 species holds 80 cards, so no tree stands 80 cells
from the first."""

MAX_TURN_NUMBER_DIGITS = 4
"""A turn is numbered 0 to 9999: a game has at most half its deck's turns."""

MAX_POINTS_DIGITS = 4
"""A score is 0 to 9999: a game of 80 cards scores a few hundred points at most."""

MAX_GLYPH_DIGITS = 3
"""A numeric glyph is $0 to $999 (PGN's go to $255)."""

MAX_GLYPHS = 8
"""A turn has at most 8 glyphs."""

COORDINATE = rf"-?[0-9]{{1,{MAX_COORDINATE_DIGITS}}}+(?![0-9])"
"""One coordinate of a cell: a whole number, maybe negative, of at most MAX_COORDINATE_DIGITS digits."""

TURN_DIGITS = rf"[0-9]{{1,{MAX_TURN_NUMBER_DIGITS}}}+"
"""A turn's number, of at most MAX_TURN_NUMBER_DIGITS digits."""

TURN_NUMBER = rf"{TURN_DIGITS}\."
"""A turn's number and its dot."""

POINTS = rf"[0-9]{{1,{MAX_POINTS_DIGITS}}}+(?![0-9])"
"""A player's score on the result line, of at most MAX_POINTS_DIGITS digits."""

SCORE_SEP = r"(?:[ \t]*,[ \t]*|[ \t]+)"
"""Between two scores of the result line: a comma or white space."""

GLYPH = rf"(?:!!|\?\?|!\?|\?!|!|\?|\$[0-9]{{1,{MAX_GLYPH_DIGITS}}}+)(?![^ \t\n{{;()])"
"""A glyph, ! ? !! ?? !? ?! or $n, followed by white space, a comment, a parenthesis or the end."""

TURN_END = r"(?![^ \t\n{;()!?$])"
"""A lookahead: what may follow a turn's moves (white space, a comment, a glyph, a parenthesis)."""

LINE_END = r"(?![^ \t\n{;])"
"""A lookahead: what may follow a reveal or result line (white space, a comment, the end)."""

# -- Comments and headers ------------------------------------------------------------------------

BRACE_COMMENT = r"\{[^}\n]*(?:\n(?!---[ \t]*(?:\n|\Z))[^}\n]*)*\}"
"""A {comment}: any text but '}' and a '---' line (which always opens or closes a header)."""

LINE_COMMENT = r";[^\n]*+"
"""A ; comment, to the end of its line."""

HEADER_BLOCK = r"---[ \t]*\n(?:(?!---[ \t]*(?:\n|\Z))[^\n]*\n)*---[ \t]*(?=\n|\Z)"
"""A header from its opening '---' line to its closing one, both whole lines."""

HEADER = rf"(?<![^\n]){HEADER_BLOCK}"
"""A header, its opening '---' at the start of a line (the grammar's HEADER)."""

# -- A position's line (grammar/arbo.lark, "A position") -----------------------------------------

FIELD_SEP = r"[ \t]*\|[ \t]*"
"""Between two fields of a position: '|', spaces and tabs free around it."""

PART_SEP = r"[ \t]+\/[ \t]+"
"""Between two parts of a player's field (trees, pile, hand): '/' with spaces or tabs on both sides."""

WORD_SEP = r"[ \t]+"
"""Between two words of a field: spaces and tabs (the grammar's SPACE)."""

HIDDEN_CARDS = r"\?[0-9]{1,2}+(?![0-9])"
"""The cards of a hand that are not known, ?N: the hand's last word."""

DECK_SIZE = r"[0-9]{1,3}+(?![0-9])"
"""How many cards the deck holds."""

POSITION_TURN = rf"(?!0++\.){TURN_DIGITS}\."
"""The number of the turn a position stands in, from 1, and its dot."""

DUE_WORDS = ("draw1", "draw2", "plant", "discard", "over")
"""What a position says is due: a first or second draw, a planting, a discard, or nothing (over)."""

DUE_WORD = rf"(?:{'|'.join(DUE_WORDS)})(?![^ \t\n])"
"""What is due, the last word of a position."""
