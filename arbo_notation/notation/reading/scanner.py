"""The one fast scanner of a game, without lark, with sinks: the records the grammar's parser
builds (read_game, for read_games, fmt, convert, replay, record and export) or the moves the
engine's fast path plays (read_moves, for check and score of clean games); None whenever it is
not sure the grammar accepts the text, and the grammar's parser (syntax.py) reads the game then,
and judges it.

The grammar (grammar/arbo.lark) defines the notation; the scanner's structure is the table
LINE_KINDS below: the kinds of thing a body holds (turns, variations, comments, reveal lines, a
result line), each recognised by patterns of the lexicon's terminals, and the phases of the body
(the moves, the reveals, after the result) each may stand in and leaves the body in. Two loops
read by it, and keep the fastest code each kind of text has:

- the line loop (read_turn_lines, moves only): a body whose turns are on lines of their own, as
  `arbo simulate` and `arbo fmt` write them (or spaced by hand, glyphs and comments on the line,
  a variation of one turn on a line of its own, with brace comments before its turn): each run of
  turn lines split at its spaces and each part looked up among those decoded before;
- the token loop (_Body, either sink): anything else the grammar takes that the whole-turn
  pattern (_token_patterns) reads (turns over several lines, variations of several turns, nested ones),
  token by token, handing the pieces to build.py as the parser does, so the records are the same.

tests/notation/test_notation_differential.py holds both sinks and both loops to the grammar over thousands
of mutated games: nothing the grammar refuses is read, and what it accepts is read as it reads it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from re import Pattern
from typing import TYPE_CHECKING, Generic, NamedTuple, Protocol, TypeVar, cast

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.actions import KnownDraw, KnownTurn
from arbo_notation.errors import ArboError
from arbo_notation.engine.lexicon import (
    CARD,
    CARD_SHAPE,
    COORDINATE,
    DECK_DRAW,
    DECK_WORD,
    GLYPH,
    LINE_COMMENT,
    LINE_END,
    MAX_GLYPHS,
    NAME,
    NAME_SHAPE,
    NOT_RESERVED,
    POINTS,
    RESULT_WORD,
    REVEAL_WORD,
    SCORE_SEP,
    SKIP_DRAW,
    TURN_DIGITS,
    TURN_END,
)
from arbo_notation.notation.header.read import read_header
from arbo_notation.notation.reading.parts import MAX_VARIATION_DEPTH, Cards, Run, TooLong

if TYPE_CHECKING:
    from arbo_notation.notation.model import Comment, GameRecord, Header, Result, Reveal, Turn, Variation
    from arbo_notation.notation.reading import build
else:
    #: build.py, which makes the records (and loads their classes), imported by read_game (the records
    #: sink) when first called: a check of clean games reads their moves alone and never needs it.
    build = None

# ------------------------------------------------------------------------------------------------
# The structure: what a body holds, and in which phase of it


#: The phases of a body: its moves (turns, their comments and variations), its reveal lines, and
#: what follows its result line (comments alone).
MOVES, REVEALS, RESULT = "moves", "reveals", "result"


class LineKind(NamedTuple):
    """A kind of thing in a body (``name``): the phases it may stand in (``may_follow``, a frozenset),
    the phase it leaves the body in (``enters``; None: the phase stays), and whether it stands on
    the main line only, never inside a variation (``main_line_only``). (A named tuple: see
    arbo_notation/__init__.py on a check's start-up.)"""

    name: str
    may_follow: frozenset[str]
    enters: str | None
    main_line_only: bool = False


LINE_KINDS: dict[str, LineKind] = {
    kind.name: kind
    for kind in (
        LineKind("turn", frozenset({MOVES}), MOVES),
        LineKind("variation", frozenset({MOVES}), None),  # after a turn of the line it hangs on
        LineKind("comment", frozenset({MOVES, REVEALS, RESULT}), None),
        LineKind("reveal", frozenset({MOVES, REVEALS}), REVEALS, main_line_only=True),
        LineKind("result", frozenset({MOVES, REVEALS}), RESULT, main_line_only=True),
    )
}
_TURN_KIND, _VARIATION_KIND = LINE_KINDS["turn"], LINE_KINDS["variation"]
_REVEAL_KIND, _RESULT_KIND = LINE_KINDS["reveal"], LINE_KINDS["result"]
# The phases each kind may stand in, as the loops ask them (a set, no call, in the hot loops).
_TURN_MAY, _VARIATION_MAY = _TURN_KIND.may_follow, _VARIATION_KIND.may_follow
_REVEAL_MAY, _RESULT_MAY = _REVEAL_KIND.may_follow, _RESULT_KIND.may_follow
# The phases a reveal line and the result line leave the body in (the casts: the table gives both one).
_REVEAL_ENTERS, _RESULT_ENTERS = cast(str, _REVEAL_KIND.enters), cast(str, _RESULT_KIND.enters)


def may_stand(kind: LineKind, phase: str, in_variation: bool = False) -> bool:
    """Whether a thing of this kind may stand in this phase of a body (and inside a variation)."""
    return phase in kind.may_follow and not (in_variation and kind.main_line_only)


# ------------------------------------------------------------------------------------------------
# The moves sink's values


#: A variation: its turns (engine.actions.KnownTurn: the number None where the text leaves it out),
#: and the variations of its own turns, as GameMoves.branches.
MovesLine = tuple[list[KnownTurn], tuple[tuple[int, tuple["MovesLine", ...]], ...]]


#: A run of turns as the moves sink has it: KnownTurn tuples, then its variations' moves (a
#: comment: None).
MovesRun = Run[KnownTurn, MovesLine | None]


_Hand = tuple[Card, ...]
#: tuple.__new__, which makes a named tuple without its own __new__, a Python function (as engine/state.py's).
_tuple = tuple.__new__


class GameMoves(NamedTuple):
    """A game's moves: its ``header``, ``turns`` (a list of KnownTurn), revealed hands
    (``reveals``: a list of (player, cards)), and ``scores`` (a dict; None: ``result *`` or no
    result line). ``branches`` holds the variations, (index of the turn they replace, lines), in
    the order of the turns. (A named tuple: see arbo_notation/__init__.py on a check's start-up.)"""

    header: Header
    turns: list[KnownTurn]
    reveals: list[tuple[str, tuple[Card, ...]]]
    scores: dict[str, int] | None
    branches: tuple[tuple[int, tuple[MovesLine, ...]], ...] = ()


# ------------------------------------------------------------------------------------------------
# The header

_OPEN = re.compile(r"---[ \t]*\n")
_CLOSE = re.compile(r"\n---[ \t]*(?=\n|\Z)")


class _Unsure(Exception):
    """The text is not one the scanner is sure the grammar accepts: the parser must read it."""


def split_header(text: str) -> tuple[str, int] | None:
    """A game text's header: the YAML between its two '---' lines, and where the body starts
    (at the end of the closing '---' line); None when the text does not open with a header."""
    opening = _OPEN.match(text)
    if opening is None:
        return None
    closing = _CLOSE.search(text, opening.end() - 1)
    if closing is None:
        return None
    first, last = opening.end(), closing.start()
    return (text[first:last] if last >= first else ""), closing.end()


def read_header_of(text: str, file: str = "<string>", first_line: int = 1) -> tuple[Header, int] | None:
    """The header of a game text, read as the parser reads it, and where its body starts; None
    when it has no header or one with a fault (the parser reports it)."""
    split = split_header(text)
    if split is None:
        return None
    try:
        return read_header(split[0], file=file, line=first_line + 1, header_line=first_line), split[1]
    except ArboError:
        return None


# ------------------------------------------------------------------------------------------------
# The line loop: runs of turn lines, split and looked up (the moves sink)

_PLAIN_NAME = NOT_RESERVED + NAME_SHAPE
_PLAIN_DRAW = rf"(?:{DECK_WORD}(?::{CARD_SHAPE})?|{SKIP_DRAW}|{_PLAIN_NAME}(?::{CARD_SHAPE})?)"
# A turn line is six tokens; each one met for the first time must match its pattern whole.
_NUMBER_TOKEN = re.compile(rf"({TURN_DIGITS})\.")
_NAME_TOKEN = re.compile(_PLAIN_NAME)
_DRAW_TOKEN = re.compile(_PLAIN_DRAW)
_PLANT_TOKEN = re.compile(rf"({CARD_SHAPE})@({COORDINATE}),({COORDINATE})")
_DISCARD_TOKEN = re.compile(rf"/({CARD_SHAPE})")
_TURN_LINES = re.compile(r"(?:[0-9][^\n]*\n)*")  # the run of lines that start as turn lines do
_PLAIN_REVEAL = re.compile(rf"{REVEAL_WORD} ({_PLAIN_NAME})((?: {CARD_SHAPE})*)")
_PLAIN_RESULT = re.compile(rf"{RESULT_WORD} (?:\*|{_PLAIN_NAME} {POINTS}(?:, {_PLAIN_NAME} {POINTS})*)")
_PLAIN_SCORE = re.compile(rf"({_PLAIN_NAME}) ([0-9]+)")

# Each token is decoded once and then looked up: a file repeats the same few thousand of them.
_NUMBERS: dict[str, int] = {}
_NAMES: dict[str, str] = {}
_DRAWS: dict[str, KnownDraw] = {}
_PLANTS: dict[str, tuple[Card, Coord]] = {}
_DISCARDS: dict[str, Card] = {}
_CARDS: dict[str, Card] = {}  # (a card's text, checked)
_CELLS: dict[str, Coord] = {}  # a planting's 'x,y', checked
_MAX_TOKENS = 100_000  # per kind: past this the caches start again, so odd input cannot fill memory


def _card(text: str) -> Card:
    card = _CARDS.get(text)
    if card is None:
        card = Card(text[:-1], int(text[-1]))
        if len(_CARDS) < _MAX_TOKENS:
            _CARDS[text] = card
    return card


def _draw(text: str) -> KnownDraw:
    if text == "-":
        return None
    owner, _, card = text.partition(":")
    return (None if owner == "d" else owner, _card(card) if card else None)


def _learnt(rows: list[list[str]]) -> list[KnownTurn] | None:
    """The turns of these turn lines, each token looked up or, in a line holding one met for the
    first time, checked whole and decoded (and remembered); None when a line is not a turn line."""
    caches = (_NUMBERS, _NAMES, _DRAWS, _PLANTS, _DISCARDS, _CARDS, _CELLS)
    if any(len(cache) > _MAX_TOKENS for cache in caches):
        for cache in caches:
            cache.clear()
    numbers, names, draws, plants, discards = _NUMBERS, _NAMES, _DRAWS, _PLANTS, _DISCARDS
    turns: list[KnownTurn] = []
    append = turns.append
    for row in rows:
        if len(row) != 6:
            return None
        number, name, first, second, plant, discard = row
        try:  # most lines of a game hold no new token, even when one of them does
            append((numbers[number], names[name], draws[first], draws[second], *plants[plant], discards[discard]))
        except KeyError:
            turn = _learnt_line(number, name, first, second, plant, discard)
            if turn is None:
                return None
            append(turn)
    return turns


def _learnt_line(number: str, name: str, first: str, second: str, plant: str, discard: str) -> KnownTurn | None:
    """The turn of a line holding a token met for the first time: each new one checked whole,
    decoded and remembered; None when the line is not a turn line.

    A planting met for the first time is most often a card and a cell met before, each already
    checked: it is then decoded from the two without its pattern."""
    try:
        if (n := _NUMBERS.get(number)) is None:
            if not (match := _NUMBER_TOKEN.fullmatch(number)):
                return None
            n = _NUMBERS[number] = int(match[1])
        if name not in _NAMES:
            if not _NAME_TOKEN.fullmatch(name):
                return None
            _NAMES[name] = name
        for draw in (first, second):
            if draw not in _DRAWS:
                if not _DRAW_TOKEN.fullmatch(draw):
                    return None
                _DRAWS[draw] = _draw(draw)
        planting = _PLANTS.get(plant) or _planting(plant)
        if planting is None:
            return None
        if (card := _DISCARDS.get(discard)) is None:
            if not (match := _DISCARD_TOKEN.fullmatch(discard)):
                return None
            card = _DISCARDS[discard] = _card(match[1])
    except ValueError:  # a number too long for int(): the parser says where
        return None
    return (n, name, _DRAWS[first], _DRAWS[second], *planting, card)


def _planting(token: str) -> tuple[Card, Coord] | None:
    """A planting token met for the first time, decoded and remembered; None when it is not one."""
    card_text, at, cell_text = token.partition("@")
    card, cell = _CARDS.get(card_text), _CELLS.get(cell_text)
    if card is None or cell is None:
        if not (match := _PLANT_TOKEN.fullmatch(token)):
            return None
        card = _card(match[1])
        cell = Coord(int(match[2]), int(match[3]))
        if len(_CELLS) < _MAX_TOKENS:
            _CELLS[cell_text] = cell
    planting = _PLANTS[token] = (card, cell)
    return planting


#: Characters of annotations (glyphs, comments, variations): a block of turn lines without any
#: of them is decoded without looking for annotations.
_NOT_PLAIN = ("{", ";", "(", ")", "!", "?", "$")
#: A run of spaces and tabs, which the grammar takes between the parts of a turn as one space.
_GAP = re.compile(r"[ \t]{2,}|\t")
#: What the grammar lets follow a turn on its line: glyphs, comments in braces, a comment to the end
#: of the line (a brace comment over several lines, a variation on the line: the token loop's).
_BRACE_ON_LINE = r"\{[^}\n]*\}"  # (a brace comment over several lines is the token loop's)
_TAIL = re.compile(rf"(?:[ \t]*{GLYPH}){{0,{MAX_GLYPHS}}}(?:[ \t]*{_BRACE_ON_LINE})*(?:[ \t]*{LINE_COMMENT})?[ \t]*")
#: The same in a variation, where a comment to the end of the line would swallow its ')'.
_VARIATION_TAIL = re.compile(rf"(?:[ \t]*{GLYPH}){{0,{MAX_GLYPHS}}}(?:[ \t]*{_BRACE_ON_LINE})*[ \t]*")
#: Brace comments before the turn of a variation (a ';' comment would swallow its ')').
_LEADING_COMMENTS = re.compile(rf"[ \t]*(?:{_BRACE_ON_LINE}[ \t]*)*")
#: A line of comments alone: they belong to the turn that follows, or to the run before.
_COMMENT_LINE = re.compile(rf"[ \t]*(?:{LINE_COMMENT}|(?:{_BRACE_ON_LINE}[ \t]*)+(?:{LINE_COMMENT})?)")
_COMMENT_STARTS = ("", " ", "\t", ";", "{")  # how a blank line or a line of comments starts


#: White space str.split() takes and the grammar does not, in ASCII text.
_ODD_SPACE = re.compile(r"[\x0b\x0c\r\x1c-\x1f]")


def _separator(text: str) -> str | None:
    """How to split the parts of turns in this text: at single spaces, or at any run of spaces and
    tabs, as the grammar takes them (the text typed by hand: ``None``, what str.split takes)."""
    if "\t" not in text and "  " not in text:
        return " "
    return None if text.isascii() and _ODD_SPACE.search(text) is None else ""


def _rows(block: str) -> list[list[str]] | None:
    """The six parts of each turn line of a block (each line ending in a newline); None when a
    line's annotations are not ones the scanner knows the grammar takes."""
    separator = _separator(block)
    if separator == "":  # spaced by hand, and other white space in it: one space for each gap
        block, separator = _GAP.sub(" ", block), " "
    lines = block.split("\n")
    lines.pop()
    for text in _NOT_PLAIN:  # (seven searches for a character: quicker than one regular expression)
        if text in block:
            break
    else:
        return [line.split(separator) for line in lines]
    rows = [line.split(separator, 6) for line in lines]
    tails = [row.pop() for row in rows if len(row) == 7]
    return None if None in map(_TAIL.fullmatch, tails) else rows


def _decode_rows(rows: list[list[str]]) -> list[KnownTurn] | None:
    """The turns of the parts of turn lines; None when one is not a turn."""
    numbers, names, draws, plants, discards = _NUMBERS, _NAMES, _DRAWS, _PLANTS, _DISCARDS
    try:  # every token met before: look-ups alone
        # The planting's card and cell taken from its pair by index, not unpacked with a star
        # (which builds a list and then the tuple): 1,000 greedy games, one a file, 4.8M fewer
        # instructions of 1,308M (bench/README.md, "Issue 49, point 3, fifth branch").
        return [
            (numbers[n], names[p], draws[a], draws[b], (pc := plants[c])[0], pc[1], discards[d])
            for n, p, a, b, c, d in rows
        ]
    except (KeyError, ValueError):  # (ValueError: a row of another length)
        return _learnt(rows)


def _decode_turns(block: str) -> list[KnownTurn] | None:
    """The turns of a run of turn lines, each ending in a newline; None when one is not a turn."""
    rows = _rows(block)
    return None if rows is None else _decode_rows(rows)


def _variation(inner: str) -> MovesLine | None:
    """The variation a line holds alone (``inner``: the line without the blanks around it): '('
    brace comments, one turn, its glyphs and brace comments ')' (``({a note} 12. Ana d d Ma3@0,1
    /Oa5 !)``); None for any other line (a longer variation, one within another: the token loop's).

    Written out, its turn looked up as _decode_rows does (no list of one row, no comprehension):
    a check of games with variations reads one every eight turns (bench/README.md, "Issue 49,
    point 3, third branch")."""
    if inner[:1] != "(" or inner[-1:] != ")":
        return None
    inner = inner[1:-1]
    if "(" in inner or ")" in inner:
        return None
    if inner.lstrip(" \t")[:1] == "{":  # comments before the turn (no comment holds a brace)
        inner = inner[_LEADING_COMMENTS.match(inner).end() :]  # type: ignore[union-attr]  # it matches ''
    if "\t" in inner or "  " in inner:  # spaced by hand: as _separator, which may refuse it
        separator = _separator(inner)
        if separator == "":
            return None
    else:
        separator = " "
    parts = inner.strip(" \t").split(separator, 6)
    if len(parts) == 7 and _VARIATION_TAIL.fullmatch(parts.pop()) is None:
        return None
    try:  # every token met before: look-ups alone
        number, name, first, second, plant, discard = parts
        turn = (_NUMBERS[number], _NAMES[name], _DRAWS[first], _DRAWS[second], *_PLANTS[plant], _DISCARDS[discard])
    except (KeyError, ValueError):  # (ValueError: a row of another length)
        turns = _learnt([parts])
        return None if turns is None else (turns, ())
    return [turn], ()


def read_turn_lines(
    text: str, file: str = "<string>", first_line: int = 1, header: tuple[Header, int] | None = None
) -> GameMoves | None:
    """The moves of one game's text by the line loop alone: turn lines, with their annotations
    on the line (see _TAIL), lines of comments, variations of one turn on a line of their own,
    then reveal lines and a result line; None for any other text (read_moves then tries the token
    loop). ``header`` as read_header_of gives it, when the caller has read it."""
    if header is None:
        header = read_header_of(text, file, first_line)
        if header is None:
            return None
    return _lines_body(header[0], text[header[1] + 1 :])  # after the closing '---' line's end


def _lines_body(header: Header, body: str) -> GameMoves | None:
    turns: list[KnownTurn] = []
    branches: list[tuple[int, tuple[MovesLine, ...]]] = []
    lines: list[MovesLine] = []  # the variations of the last turn read, until the next turn
    reveals: list[tuple[str, tuple[Card, ...]]] = []
    scores: dict[str, int] | None = None
    phase = MOVES
    pos, size = 0, len(body)
    while pos < size:
        split = _TURN_LINES.match(body, pos).end()  # type: ignore[union-attr]  # it matches ''
        if split > pos:
            run = _decode_turns(body[pos:split]) if phase in _TURN_MAY else None
            if run is None:
                return None
            if lines:
                branches.append((len(turns) - 1, tuple(lines)))
                lines = []
            turns += run
            pos = split
            continue
        end = body.find("\n", pos)
        if end < 0:
            end = size
        line = body[pos:end]
        pos = end + 1
        if line[:1] in _COMMENT_STARTS:  # a blank line, comments, or a variation (indented, as written)
            inner = line.strip(" \t")
            if inner[:1] == "(":  # (no line of comments opens so: it is a variation's, or the token loop's)
                if not turns or phase not in _VARIATION_MAY or (variation := _variation(inner)) is None:
                    return None
                lines.append(variation)
                continue
            if not inner or _COMMENT_LINE.fullmatch(line):
                continue  # (the grammar takes comments anywhere between the lines of a body)
        if line.startswith("reveal ") and _PLAIN_REVEAL.fullmatch(line):
            if phase not in _REVEAL_MAY:  # (the line loop reads no variation: the main line's)
                return None
            phase = _REVEAL_ENTERS
            player, *cards = line[7:].split(" ")
            hand = tuple(map(_CARDS.get, cards))  # look-ups; all(), not 'None in', which calls Card.__eq__
            # (the cast: all() found no None in the look-ups; its type a name, not made on every line)
            reveals.append((player, cast(_Hand, hand) if all(hand) else tuple(map(_card, cards))))
        elif line.startswith("result ") and _PLAIN_RESULT.fullmatch(line):
            if phase not in _RESULT_MAY:
                return None
            phase = _RESULT_ENTERS
            if line != "result *":
                scores = {}
                for name, points in _PLAIN_SCORE.findall(line[7:]):
                    if name in scores:
                        return None
                    try:
                        scores[name] = int(points)
                    except ValueError:  # a number too long for int(): the parser says where
                        return None
        elif not turns or phase not in _VARIATION_MAY or (variation := _variation(line.strip(" \t"))) is None:
            return None
        else:
            lines.append(variation)
    if phase is not RESULT:
        return None
    if lines:
        branches.append((len(turns) - 1, tuple(lines)))
    return _tuple(GameMoves, (header, turns, reveals, scores, tuple(branches)))  # (see _tuple)


# ------------------------------------------------------------------------------------------------
# The token loop: the whole-turn pattern and the tokens between turns (either sink)

# The grammar's terminals (grammar/arbo.lark), from the lexicon. A game text holds no '---' line
# past its header, so a {comment} is any text without '}'.
_NAME = NAME
_CARD = CARD
_DRAW = rf"(?:{DECK_DRAW}|{SKIP_DRAW}|{_NAME}(?::{_CARD})?)"
_COMMENT = rf"(?:\{{[^}}]*\}}|{LINE_COMMENT})"
_GLYPH = GLYPH
_LINE_END = LINE_END


@functools.cache
def _token_patterns() -> tuple[Pattern[str], Pattern[str], Pattern[str], Pattern[str], Pattern[str], Pattern[str]]:
    """The token loop's patterns, compiled on first use: a game the line loop reads whole, as
    every game arbo writes, never needs them, and compiling them is 13.3M instructions of a
    one-game check's 259M (bench/README.md, "Issue 49, point 3").

    In order: one whole turn after white space, in the groups build.TURN_GROUPS names; white
    space; a reveal line; a result line; a run of comments, as the turn's pattern takes them
    before a turn (where it ends, no turn follows it); a brace comment."""
    turn = re.compile(
        r"[ \t\n]*+"
        rf"((?:{_COMMENT}[ \t\n]*+)*+)"
        rf"(?:({TURN_DIGITS})\.[ \t]*+)?"
        rf"({_NAME})[ \t]++({_DRAW})[ \t]++({_DRAW})[ \t]++({_CARD}@{COORDINATE},{COORDINATE})[ \t]++"
        rf"/({_CARD}){TURN_END}"
        rf"((?:[ \t]*+{_GLYPH}){{0,{MAX_GLYPHS}}}+)"
        r"((?:[ \t]*+\{[^}]*\})*+)"
        r"(?:[ \t]*+;([^\n]*+))?"
    )
    space = re.compile(r"[ \t\n]*+")
    reveal = re.compile(rf"{REVEAL_WORD}[ \t]+{_NAME}(?:[ \t]+{_CARD})*{_LINE_END}")
    score = rf"{_NAME}[ \t]+{POINTS}"
    result = re.compile(rf"{RESULT_WORD}[ \t]+(?:\*|{score}(?:{SCORE_SEP}{score})*){_LINE_END}")
    comment_run = re.compile(rf"(?:{_COMMENT}[ \t\n]*+)*+")
    brace = re.compile(r"\{[^}]*\}")
    return turn, space, reveal, result, comment_run, brace


_LINE_COMMENT = re.compile(LINE_COMMENT)
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_'-")

#: Decoded cards, draws and plantings, shared by every game read (values: they can be shared).
_pieces: build.Pieces | None = None
_MAX_PIECES = 100_000  # past this the cache starts again, so odd input cannot fill memory


def read_game(
    text: str, file: str = "<string>", first_line: int = 1, header: tuple[Header, int] | None = None, index: int = 1
) -> GameRecord | None:
    """The record of one game's text (``first_line``: the line of its opening '---' in its file;
    ``index``: the game's place in its file), as syntax.parse_all would read it; None when this
    scanner is not sure (the parser must read it).

    ``header`` is the game's header and where its body starts, when the caller has read it
    (read_header_of).
    """
    global _pieces, build
    if header is None:
        header = read_header_of(text, file, first_line)
        if header is None:
            return None
    if _pieces is None or _full(_pieces):
        if build is None:
            # deferred: build.py and the records' classes (~18 ms) are loaded by the records sink only
            from arbo_notation.notation.reading import build
        _pieces = build.Pieces()
    try:
        return _Body(text, header[1], first_line).read(header[0], file, _Records(_pieces, index))
    except (_Unsure, TooLong):
        return None


def read_moves(
    text: str, file: str = "<string>", first_line: int = 1, header: tuple[Header, int] | None = None, lines: bool = True
) -> GameMoves | None:
    """The moves of one game's text, for a check: its turns and variations as the engine's fast
    path takes them, the reveals and the scores (no comments, glyphs or positions); None when
    the scanner is not sure of the text (as read_game). The line loop reads it if it can, else
    the token loop (the token loop alone if not ``lines``: the tests hold the two loops equal)."""
    global _move_pieces
    if header is None:
        header = read_header_of(text, file, first_line)
        if header is None:
            return None
    if lines:
        moves = _lines_body(header[0], text[header[1] + 1 :])
        if moves is not None:
            return moves
    if _full(_move_pieces):
        _move_pieces = _MovePieces()
    try:
        return _Body(text, header[1], first_line).read(header[0], file, _Moves(_move_pieces))
    except _Unsure:
        return None


def _full(pieces: "build.Pieces | _MovePieces") -> bool:
    """Whether a cache of decoded pieces has grown past its bound (cards, draws or plantings)."""
    return max(len(pieces.cards), len(pieces.draws), len(pieces.plantings)) > _MAX_PIECES


_Turn = TypeVar("_Turn")  # what a sink makes of a turn
_Comment = TypeVar("_Comment")  # of a comment
_Variation = TypeVar("_Variation")  # of a variation
_Reveal = TypeVar("_Reveal")  # of a reveal line
_End = TypeVar("_End")  # of the result line
_Game = TypeVar("_Game", covariant=True)  # of the whole game


class _Sink(Protocol[_Turn, _Comment, _Variation, _Reveal, _End, _Game]):
    """What _Body hands the pieces it reads to: _Records or _Moves."""

    @property
    def positions(self) -> bool:
        """Whether every piece's line and column are wanted."""
        ...

    def turns(
        self, first: re.Match[str], text: str, at: int, line: int, line_start: int
    ) -> tuple[list[_Turn], int]: ...

    def comment(self, token: str) -> _Comment: ...

    def variation(
        self, runs: list[Run[_Turn, _Comment | _Variation]], comments: list[_Comment], at: tuple[int, int]
    ) -> _Variation: ...

    def reveals(self, text: str, line: int, column: int, comments: list[_Comment]) -> list[_Reveal]: ...

    def result(self, text: str, line: int, column: int, comments: list[_Comment]) -> _End: ...

    def game(
        self,
        header: Header,
        comments: list[_Comment],
        runs: list[Run[_Turn, _Comment | _Variation]],
        reveals: list[_Reveal],
        end: _End | None,
        file: str,
    ) -> _Game: ...


class _Frame(Generic[_Turn, _Comment, _Variation]):
    """The runs being read at one level: the game's main line, or a variation."""

    __slots__ = ("runs", "comments", "at")

    def __init__(self, at: tuple[int, int] | None = None) -> None:
        self.runs: list[Run[_Turn, _Comment | _Variation]] = []
        self.comments: list[_Comment] = []  # before the first run: the game's, or the variation's
        self.at = at  # the line and column of a variation's '(' (None: the game's main line)


def _matches(first: re.Match[str], text: str) -> Iterator[re.Match[str]]:
    """A run of turns: the first one's match, then each one that follows."""
    match = _token_patterns()[0].match
    m: re.Match[str] | None = first
    while m is not None:
        yield m
        m = match(text, m.end())


class _Body:
    """Reads a game body token by token, building its records as it goes."""

    __slots__ = ("text", "pos", "line", "line_start", "at")

    def __init__(self, text: str, pos: int, first_line: int) -> None:
        self.text = text
        self.pos = pos
        self.at = 0  # the index up to which ``line`` and ``line_start`` are known
        self.line = first_line
        self.line_start = 0

    def locate(self, index: int) -> None:
        """Bring ``line`` and ``line_start`` to the line of ``index`` (never backwards)."""
        text = self.text
        breaks = text.count("\n", self.at, index)
        if breaks:
            self.line += breaks
            self.line_start = text.rindex("\n", self.at, index) + 1
        self.at = index

    def read(self, header: Header, file: str, make: _Sink[_Turn, _Comment, _Variation, _Reveal, _End, _Game]) -> _Game:
        text = self.text
        size = len(text)
        game: _Frame[_Turn, _Comment, _Variation] = _Frame()
        stack = [game]
        phase = MOVES
        reveals: list[_Reveal] = []
        reveal: tuple[str, int, int] | None = None  # the last reveal line, until its comments are known
        reveal_comments: list[_Comment] = []
        result: tuple[str, int, int] | None = None
        result_comments: list[_Comment] = []
        pos = self.pos
        # The end of a run of comments that no turn follows: inside it no turn is looked for
        # again (each comment of 200,000 after the last turn would look over all that follow it).
        no_turn_before = 0
        turn_at, space_at, reveal_at, result_at, comment_run_at, brace_at = _token_patterns()
        while True:
            pos = space_at.match(text, pos).end()  # type: ignore[union-attr]  # it matches ''
            if pos >= size:
                break
            c = text[pos]
            frame = stack[-1]
            if phase in _TURN_MAY and c not in "()" and pos >= no_turn_before:
                turn = turn_at.match(text, pos)
                if turn is not None:
                    if make.positions:
                        self.locate(pos)
                    turns, pos = make.turns(turn, text, pos, self.line, self.line_start)
                    frame.runs.append(Run(turns))
                    continue
                if c == "{" or c == ";":
                    no_turn_before = comment_run_at.match(text, pos).end()  # type: ignore[union-attr]  # it matches ''
            if c == "{" or c == ";":
                m = (brace_at if c == "{" else _LINE_COMMENT).match(text, pos)
                if m is None:
                    raise _Unsure
                comment = make.comment(m.group())
                pos = m.end()
                if phase is RESULT:
                    result_comments.append(comment)
                elif phase is REVEALS:
                    reveal_comments.append(comment)
                elif frame.runs:
                    frame.runs[-1].annotations.append(comment)
                elif frame is game:
                    game.comments.append(comment)
                else:
                    raise _Unsure  # a comment that no turn follows, right after '('
            elif c == "(":
                if not may_stand(_VARIATION_KIND, phase) or not frame.runs or len(stack) > MAX_VARIATION_DEPTH:
                    raise _Unsure
                if make.positions:
                    self.locate(pos)
                stack.append(_Frame((self.line, pos - self.line_start + 1)))
                pos += 1
            elif c == ")":
                at = frame.at
                if at is None or not frame.runs:  # (None: the game's main line, no '(' to close)
                    raise _Unsure
                stack.pop()
                stack[-1].runs[-1].annotations.append(make.variation(frame.runs, frame.comments, at))
                pos += 1
            elif text.startswith("reveal", pos) and _keyword_at(text, pos):
                m = reveal_at.match(text, pos)
                if m is None or not may_stand(_REVEAL_KIND, phase, frame is not game):
                    raise _Unsure
                if reveal is not None:
                    reveals += make.reveals(*reveal, reveal_comments)
                    reveal_comments = []
                self.locate(pos)
                reveal = (m.group(), self.line, pos - self.line_start + 1)
                phase = _REVEAL_ENTERS
                pos = m.end()
            elif text.startswith("result", pos) and _keyword_at(text, pos):
                m = result_at.match(text, pos)
                if m is None or not may_stand(_RESULT_KIND, phase, frame is not game):
                    raise _Unsure
                self.locate(pos)
                result = (m.group(), self.line, pos - self.line_start + 1)
                phase = _RESULT_ENTERS
                pos = m.end()
            else:
                raise _Unsure
        if len(stack) > 1:
            raise _Unsure
        if reveal is not None:
            reveals += make.reveals(*reveal, reveal_comments)
        end = make.result(*result, result_comments) if result is not None else None
        return make.game(header, game.comments, game.runs, reveals, end, file)


class _Records:
    """What _Body makes of the pieces it reads: the records, by build.py (of the game of that
    ``index`` in its file)."""

    __slots__ = ("pieces", "index")
    positions = True  # every piece's line and column are wanted

    def __init__(self, pieces: build.Pieces, index: int = 1) -> None:
        self.pieces = pieces
        self.index = index

    def turns(self, first: re.Match[str], text: str, at: int, line: int, line_start: int) -> tuple[list[Turn], int]:
        """The run of turns that ``first`` starts, and where it ends."""
        return build.turns_of(_matches(first, text), text, at, line, line_start, self.pieces)

    @staticmethod
    def comment(token: str) -> Comment:
        return build.comment_of(token)

    @staticmethod
    def variation(runs: list[build.RecordRun], comments: list[Comment], at: tuple[int, int]) -> Variation:
        return build.variation(runs, comments, build.Pos(*at))

    def reveals(self, text: str, line: int, column: int, comments: list[Comment]) -> list[Reveal]:
        return build.reveals(text, line, 1 - column, comments, self.pieces)

    @staticmethod
    def result(text: str, line: int, column: int, comments: list[Comment]) -> Result:
        return build.result(text, build.Pos(line, column), comments)

    def game(
        self,
        header: Header,
        comments: list[Comment],
        runs: list[build.RecordRun],
        reveals: list[Reveal],
        end: Result | None,
        file: str,
    ) -> GameRecord:
        return build.game(header, comments, runs, reveals, end, file, self.index)


class _MovePieces:
    """Cards, draws and plantings decoded as the engine's fast path takes them, each once."""

    __slots__ = ("cards", "draws", "plantings")

    def __init__(self) -> None:
        self.cards = Cards()
        self.draws = _KnownDraws(self.cards)
        self.plantings = _KnownPlantings(self.cards)


class _KnownDraws(dict[str, KnownDraw]):
    """Draw text -> (owner: None for the deck, card or None), or None for '-'."""

    def __init__(self, cards: Cards) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, text: str) -> KnownDraw:
        if text == "-":
            draw: KnownDraw = None
        else:
            owner, _, card = text.partition(":")
            draw = (None if owner == "d" else owner, self.cards[card] if card else None)
        self[text] = draw
        return draw


class _KnownPlantings(dict[str, tuple[Card, Coord]]):
    """Planting text -> (card, cell)."""

    def __init__(self, cards: Cards) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, text: str) -> tuple[Card, Coord]:
        card, _, cell = text.partition("@")
        x, _, y = cell.partition(",")
        planting = self[text] = (self.cards[card], Coord(int(x), int(y)))
        return planting


_REVEAL_PARTS = re.compile(rf"{REVEAL_WORD}[ \t]+(\S+)((?:[ \t]+{CARD_SHAPE})*)")
_SCORES = re.compile(rf"({NAME_SHAPE})[ \t]+([0-9]+)")


class _Moves:
    """What _Body makes of the pieces it reads for a check: the moves alone, as a GameMoves (no
    comments, glyphs or positions: a game that plays cleanly needs none of them)."""

    __slots__ = ("pieces",)
    positions = False  # a game that plays cleanly needs no positions

    def __init__(self, pieces: _MovePieces) -> None:
        self.pieces = pieces

    def turns(
        self, first: re.Match[str], text: str, at: int, line: int, line_start: int
    ) -> tuple[list[KnownTurn], int]:
        """The run of turns that ``first`` starts, and where it ends (the hot loop of a check
        off the line loop: one match and a few look-ups a turn)."""
        draws, plantings, cards = self.pieces.draws, self.pieces.plantings, self.pieces.cards
        match = _token_patterns()[0].match
        turns: list[KnownTurn] = []
        append = turns.append
        m: re.Match[str] | None = first
        end = at
        try:
            while m is not None:
                number, player, one, two, plant, discard = m.group(2, 3, 4, 5, 6, 7)
                card, cell = plantings[plant]
                append((int(number) if number else None, player, draws[one], draws[two], card, cell, cards[discard]))
                end = m.end()
                m = match(text, end)
        except ValueError:  # a number too long for int(): the parser says where
            raise _Unsure from None
        return turns, end

    @staticmethod
    def comment(token: str) -> None:
        return None

    @staticmethod
    def variation(runs: list[MovesRun], comments: list[None], at: tuple[int, int]) -> MovesLine:
        return _line(runs)

    def reveals(self, text: str, line: int, column: int, comments: list[None]) -> list[tuple[str, tuple[Card, ...]]]:
        cards = self.pieces.cards
        return [(m.group(1), tuple([cards[w] for w in m.group(2).split()])) for m in _REVEAL_PARTS.finditer(text)]

    @staticmethod
    def result(text: str, line: int, column: int, comments: list[None]) -> dict[str, int] | None:
        rest = text[6:].strip()
        if rest == "*":
            return None
        try:
            scores = [(name, int(points)) for name, points in _SCORES.findall(rest)]
        except ValueError:  # a number too long for int(): the parser says where
            raise _Unsure from None
        if len({name for name, _ in scores}) < len(scores):  # a name twice: the full replay says where
            raise _Unsure
        return dict(scores)

    @staticmethod
    def game(
        header: Header,
        comments: list[None],
        runs: list[MovesRun],
        reveals: list[tuple[str, tuple[Card, ...]]],
        scores: dict[str, int] | None,
        file: str,
    ) -> GameMoves:
        turns, branches = _line(runs)
        return GameMoves(header, turns, reveals, scores, branches)


_move_pieces = _MovePieces()


def _line(runs: list[MovesRun]) -> MovesLine:
    """A line's turns, and its variations by the index of the turn they replace."""
    turns: list[KnownTurn] = []
    branches: list[tuple[int, tuple[MovesLine, ...]]] = []
    for run in runs:
        turns += run.turns
        lines = tuple(item for item in run.annotations if item is not None)
        if lines:
            branches.append((len(turns) - 1, lines))
    return turns, tuple(branches)


def _keyword_at(text: str, pos: int) -> bool:
    """Whether the word 'reveal' or 'result' stands at ``pos`` (not a longer name)."""
    if not (text.startswith("re", pos) and (text.startswith("reveal", pos) or text.startswith("result", pos))):
        return False
    end = pos + 6
    return end >= len(text) or text[end] not in _WORD_CHARS
