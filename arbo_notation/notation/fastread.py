"""A fast reader of games, without lark: the records the grammar's parser builds, or None when unsure.

Lark's parser (syntax.py, from grammar/arbo.lark) stays the normative reader and the one that
reports errors. This reader takes a game's text (one game, as notation/games.py cuts it), reads
it with hand-written regular expressions that mirror the grammar's terminals, and hands the pieces
to build.py as the parser does, so that the records are the same. Whenever the text is not one it
is sure the grammar accepts (a fault, a number too long to read, anything odd) it answers None, and
the caller reads the game with the parser, whose error message is then the one shown.
tests/test_notation_fastread.py holds the two readers equal.

The grammar, as read here: a game is its header, then turns (with their comments, glyphs and
variations), reveal lines, a result line. Turns in a row form a run; comments and variations
after a run belong to it; a comment followed (through white space and more comments) by a turn
is that turn's; nothing else is a token, and white space is free between tokens.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ..engine.cards import Card, Coord
from ..engine.state import KnownDraw, KnownTurn
from ..errors import ArboError
from ..lexicon import (CARD, CARD_SHAPE, COORDINATE, DECK_DRAW, GLYPH, LINE_COMMENT, LINE_END, NAME, NAME_SHAPE,
                       POINTS, RESULT_WORD, REVEAL_WORD, SCORE_SEP, SKIP_DRAW, TURN_END)
from . import build
from .header import read_header
from .plain import PlainGame, PlainLine
from .record import Comment, GameRecord, Header, Result, Reveal, Turn, Variation

# The grammar's terminals (grammar/arbo.lark), from the lexicon. A game text holds no '---' line
# past its header, so a {comment} is any text without '}'.
_NAME = NAME
_CARD = CARD
_DRAW = rf"(?:{DECK_DRAW}|{SKIP_DRAW}|{_NAME}(?::{_CARD})?)"
_COMMENT = rf"(?:\{{[^}}]*\}}|{LINE_COMMENT})"
_GLYPH = GLYPH
_LINE_END = LINE_END

#: One whole turn after white space, in the groups build.TURN_GROUPS names.
_TURN = re.compile(
    r"[ \t\n]*+"
    rf"((?:{_COMMENT}[ \t\n]*+)*+)"
    r"(?:([0-9]++)\.[ \t]*+)?"
    rf"({_NAME})[ \t]++({_DRAW})[ \t]++({_DRAW})[ \t]++({_CARD}@{COORDINATE},{COORDINATE})[ \t]++"
    rf"/({_CARD}){TURN_END}"
    rf"((?:[ \t]*+{_GLYPH})*+)"
    r"((?:[ \t]*+\{[^}]*\})*+)"
    r"(?:[ \t]*+;([^\n]*+))?"
)
_REVEAL = re.compile(rf"{REVEAL_WORD}[ \t]+{_NAME}(?:[ \t]+{_CARD})*{_LINE_END}")
_SCORE = rf"{_NAME}[ \t]+{POINTS}"
_RESULT = re.compile(rf"{RESULT_WORD}[ \t]+(?:\*|{_SCORE}(?:{SCORE_SEP}{_SCORE})*){_LINE_END}")
_SPACE = re.compile(r"[ \t\n]*+")
#: A run of comments, as _TURN takes them before a turn: where it ends, no turn follows it.
_COMMENT_RUN = re.compile(rf"(?:{_COMMENT}[ \t\n]*+)*+")
_BRACE = re.compile(r"\{[^}]*\}")
_LINE_COMMENT = re.compile(LINE_COMMENT)
_OPEN = re.compile(r"---[ \t]*\n")
_CLOSE = re.compile(r"\n---[ \t]*(?=\n|\Z)")
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_'-")

_MOVES, _REVEALS, _RESULT_LINE = range(3)  # where a game's body stands

#: Decoded cards, draws and plantings, shared by every game read (values: they can be shared).
_pieces = build.Pieces()
_MAX_PIECES = 100_000  # past this the cache starts again, so odd input cannot fill memory


class _Unsure(Exception):
    """The text is not one this reader is sure the grammar accepts: the parser must read it."""


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


def read_game(text: str, file: str = "<string>", first_line: int = 1,
              header: tuple[Header, int] | None = None, index: int = 1) -> GameRecord | None:
    """The record of one game's text (``first_line``: the line of its opening '---' in its file;
    ``index``: the game's place in its file), as syntax.parse_all would read it; None when this
    reader is not sure (the parser must read it).

    ``header`` is the game's header and where its body starts, when the caller has read it
    (read_header_of).
    """
    global _pieces
    if header is None:
        header = read_header_of(text, file, first_line)
        if header is None:
            return None
    if _full(_pieces):
        _pieces = build.Pieces()
    try:
        return _Body(text, header[1], first_line).read(header[0], file, _Records(_pieces, index))
    except (_Unsure, build.TooLong):
        return None


def read_moves(text: str, file: str = "<string>", first_line: int = 1,
               header: tuple[Header, int] | None = None) -> PlainGame | None:
    """The moves of one game's text, for a check: its turns and variations as the engine's fast
    path takes them, the reveals and the scores (no comments, glyphs or positions); None when
    this reader is not sure of the text (as read_game)."""
    global _move_pieces
    if header is None:
        header = read_header_of(text, file, first_line)
        if header is None:
            return None
    if _full(_move_pieces):
        _move_pieces = _MovePieces()
    try:
        return _Body(text, header[1], first_line).read(header[0], file, _Moves(_move_pieces))
    except _Unsure:
        return None


def _full(pieces: "build.Pieces | _MovePieces") -> bool:
    """Whether a cache of decoded pieces has grown past its bound (cards, draws or plantings)."""
    return max(len(pieces.cards), len(pieces.draws), len(pieces.plantings)) > _MAX_PIECES


class _Frame:
    """The runs being read at one level: the game's main line, or a variation."""

    __slots__ = ("runs", "comments", "at")

    def __init__(self, at: object = None) -> None:
        self.runs: list[build.Run] = []
        self.comments: list[Comment] = []  # before the first run: the game's, or the variation's
        self.at = at  # the Pos of a variation's '('


def _matches(first: re.Match[str], text: str) -> Iterator[re.Match[str]]:
    """A run of turns: the first one's match, then each one that follows."""
    match = _TURN.match
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

    def read(self, header: Header, file: str, make: "_Records | _Moves") -> Any:
        text = self.text
        size = len(text)
        game = _Frame()
        stack: list[_Frame] = [game]
        phase = _MOVES
        reveals: list = []
        reveal: tuple[str, int, int] | None = None  # the last reveal line, until its comments are known
        reveal_comments: list = []
        result: tuple[str, int, int] | None = None
        result_comments: list = []
        pos = self.pos
        # The end of a run of comments that no turn follows: inside it no turn is looked for
        # again (each comment of 200,000 after the last turn would look over all that follow it).
        no_turn_before = 0
        while True:
            pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]  (it matches the empty string)
            if pos >= size:
                break
            c = text[pos]
            frame = stack[-1]
            if phase == _MOVES and c not in "()" and pos >= no_turn_before:
                turn = _TURN.match(text, pos)
                if turn is not None:
                    if make.positions:
                        self.locate(pos)
                    turns, pos = make.turns(turn, text, pos, self.line, self.line_start)
                    frame.runs.append(build.Run(turns))
                    continue
                if c == "{" or c == ";":
                    no_turn_before = _COMMENT_RUN.match(text, pos).end()  # type: ignore[union-attr]
            if c == "{" or c == ";":
                m = (_BRACE if c == "{" else _LINE_COMMENT).match(text, pos)
                if m is None:
                    raise _Unsure
                comment = make.comment(m.group())
                pos = m.end()
                if phase == _RESULT_LINE:
                    result_comments.append(comment)
                elif phase == _REVEALS:
                    reveal_comments.append(comment)
                elif frame.runs:
                    frame.runs[-1].annotations.append(comment)
                elif frame is game:
                    game.comments.append(comment)
                else:
                    raise _Unsure  # a comment that no turn follows, right after '('
            elif c == "(":
                if phase != _MOVES or not frame.runs or len(stack) > build.MAX_VARIATION_DEPTH:
                    raise _Unsure
                if make.positions:
                    self.locate(pos)
                stack.append(_Frame((self.line, pos - self.line_start + 1)))
                pos += 1
            elif c == ")":
                if frame is game or not frame.runs:
                    raise _Unsure
                stack.pop()
                stack[-1].runs[-1].annotations.append(make.variation(frame.runs, frame.comments, frame.at))
                pos += 1
            elif text.startswith("reveal", pos) and _keyword_at(text, pos):
                m = _REVEAL.match(text, pos)
                if m is None or frame is not game or phase == _RESULT_LINE:
                    raise _Unsure
                if reveal is not None:
                    reveals += make.reveals(*reveal, reveal_comments)
                    reveal_comments = []
                self.locate(pos)
                reveal = (m.group(), self.line, pos - self.line_start + 1)
                phase = _REVEALS
                pos = m.end()
            elif text.startswith("result", pos) and _keyword_at(text, pos):
                m = _RESULT.match(text, pos)
                if m is None or frame is not game or phase == _RESULT_LINE:
                    raise _Unsure
                self.locate(pos)
                result = (m.group(), self.line, pos - self.line_start + 1)
                phase = _RESULT_LINE
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

    comment = staticmethod(build.comment_of)

    @staticmethod
    def variation(runs: list[build.Run], comments: list[Comment], at: tuple[int, int]) -> Variation:
        return build.variation(runs, comments, build.pos(*at))

    def reveals(self, text: str, line: int, column: int, comments: list[Comment]) -> list[Reveal]:
        return build.reveals(text, line, 1 - column, comments, self.pieces)

    @staticmethod
    def result(text: str, line: int, column: int, comments: list[Comment]) -> Result:
        return build.result(text, build.pos(line, column), comments)

    def game(self, header: Header, comments: list[Comment], runs: list[build.Run], reveals: list[Reveal],
             end: Result | None, file: str) -> GameRecord:
        return build.game(header, comments, runs, reveals, end, file, self.index)


class _MovePieces:
    """Cards, draws and plantings decoded as the engine's fast path takes them, each once."""

    __slots__ = ("cards", "draws", "plantings")

    def __init__(self) -> None:
        self.cards = build.Cards()
        self.draws = _KnownDraws(self.cards)
        self.plantings = _KnownPlantings(self.cards)


class _KnownDraws(dict):
    """Draw text -> (owner: None for the deck, card or None), or None for '-'."""

    def __init__(self, cards: build.Cards) -> None:
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


class _KnownPlantings(dict):
    """Planting text -> (card, cell)."""

    def __init__(self, cards: build.Cards) -> None:
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
    """What _Body makes of the pieces it reads for a check: the moves alone, as a PlainGame (no
    comments, glyphs or positions: a game that plays cleanly needs none of them)."""

    __slots__ = ("pieces",)
    positions = False  # a game that plays cleanly needs no positions

    def __init__(self, pieces: _MovePieces) -> None:
        self.pieces = pieces

    def turns(self, first: re.Match[str], text: str, at: int, line: int,
              line_start: int) -> tuple[list[KnownTurn], int]:
        """The run of turns that ``first`` starts, and where it ends (the hot loop of a check
        off the plain form: one match and a few look-ups a turn)."""
        draws, plantings, cards = self.pieces.draws, self.pieces.plantings, self.pieces.cards
        match = _TURN.match
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
    def comment(text: str) -> None:
        return None

    @staticmethod
    def variation(runs: list[build.Run], comments: list, at: tuple[int, int]) -> PlainLine:
        return _line(runs)

    def reveals(self, text: str, line: int, column: int, comments: list) -> list[tuple[str, tuple[Card, ...]]]:
        cards = self.pieces.cards
        return [(m.group(1), tuple([cards[w] for w in m.group(2).split()])) for m in _REVEAL_PARTS.finditer(text)]

    @staticmethod
    def result(text: str, line: int, column: int, comments: list) -> dict[str, int] | None:
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
    def game(header: Header, comments: list, runs: list[build.Run], reveals: list, scores: dict[str, int] | None,
             file: str) -> PlainGame:
        turns, branches = _line(runs)
        return PlainGame(header, turns, reveals, scores, branches)


_move_pieces = _MovePieces()


def _line(runs: list[build.Run]) -> PlainLine:
    """A line's turns, and its variations by the index of the turn they replace."""
    turns: list[KnownTurn] = []
    branches = []
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
