"""A fast reader for games whose turns are on lines of their own, for checking big files.

A game is read here when its body holds numbered turn lines, one turn a line (``12. Ana d:Ma3
Ben:Wi7 Ma3@0,1 /Oa5``), then reveal lines and a result line, as `arbo simulate` and `arbo fmt`
write them; the parts of a turn may be spaced by any run of spaces and tabs, as a record typed by
hand often is, a turn's line may end in glyphs and comments, a line may hold comments alone, and a
variation of one turn may stand on a line of its own. Such a game is decoded without building
records; any other game gets None, and the caller reads it with the fast reader or the full parser
(grammar/arbo.lark). The patterns below accept only text the grammar accepts, and decode it the
same way (tests/test_notation_plain.py and tests/test_notation_fastread.py check both).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine.cards import Card, Coord
from ..engine.state import KnownDraw, KnownTurn
from ..errors import ArboError
from ..lexicon import (CARD_SHAPE, DECK_WORD, GLYPH, LINE_COMMENT, NAME_SHAPE, NOT_RESERVED, RESULT_WORD, REVEAL_WORD,
                       SKIP_DRAW)
from .header import read_header
from .record import Header

_NAME = NOT_RESERVED + NAME_SHAPE
_CARD = CARD_SHAPE
_DRAW = rf"(?:{DECK_WORD}(?::{_CARD})?|{SKIP_DRAW}|{_NAME}(?::{_CARD})?)"
# A turn line is six tokens; each one met for the first time must match its pattern whole.
_NUMBER_TOKEN = re.compile(r"([0-9]+)\.")
_NAME_TOKEN = re.compile(_NAME)
_DRAW_TOKEN = re.compile(_DRAW)
_PLANT_TOKEN = re.compile(rf"({_CARD})@(-?[0-9]+),(-?[0-9]+)")
_DISCARD_TOKEN = re.compile(rf"/({_CARD})")
_TURN_LINES = re.compile(r"(?:[0-9][^\n]*\n)*")  # the run of lines that start as turn lines do
_REVEAL = re.compile(rf"{REVEAL_WORD} ({_NAME})((?: {_CARD})*)")
_RESULT = re.compile(rf"{RESULT_WORD} (?:\*|{_NAME} [0-9]+(?:, {_NAME} [0-9]+)*)")
_SCORE = re.compile(rf"({_NAME}) ([0-9]+)")

#: A variation: its turns (engine.state.KnownTurn: their number is never None in the plain form,
#: and None where fastread.read_moves finds it left out), and the variations of its own turns, as
#: PlainGame.branches.
PlainLine = tuple[list[KnownTurn], tuple[tuple[int, tuple["PlainLine", ...]], ...]]


@dataclass(frozen=True, slots=True)
class PlainGame:
    """A game's moves: its header, turns, revealed hands, and scores (None: ``result *`` or no
    result line). ``branches`` holds the variations, (index of the turn they replace, lines), in
    the order of the turns; a game in the plain form has none."""

    header: Header
    turns: list[KnownTurn]
    reveals: list[tuple[str, tuple[Card, ...]]]
    scores: dict[str, int] | None
    branches: tuple[tuple[int, tuple[PlainLine, ...]], ...] = ()


# Each token is decoded once and then looked up: a file repeats the same few thousand of them.
_NUMBERS: dict[str, int] = {}
_NAMES: dict[str, str] = {}
_DRAWS: dict[str, KnownDraw] = {}
_PLANTS: dict[str, tuple[Card, Coord]] = {}
_DISCARDS: dict[str, Card] = {}
_CARDS: dict[str, Card] = {}
_MAX_TOKENS = 100_000  # per kind: past this the caches start again, so odd input cannot fill memory


def _card(text: str) -> Card:
    card = _CARDS.get(text)
    if card is None:
        card = _CARDS[text] = Card(text[:-1], int(text[-1]))
    return card


def _draw(text: str) -> KnownDraw:
    if text == "-":
        return None
    owner, _, card = text.partition(":")
    return (None if owner == "d" else owner, _card(card) if card else None)


def _learn(rows: list[list[str]]) -> bool:
    """Decode the tokens of these turn lines not met before; False when one is not a turn line."""
    caches = (_NUMBERS, _NAMES, _DRAWS, _PLANTS, _DISCARDS, _CARDS)
    if any(len(cache) > _MAX_TOKENS for cache in caches):
        for cache in caches:
            cache.clear()
    for row in rows:
        if len(row) != 6:
            return False
        number, name, first, second, plant, discard = row
        if number not in _NUMBERS:
            if not (match := _NUMBER_TOKEN.fullmatch(number)):
                return False
            _NUMBERS[number] = int(match[1])
        if name not in _NAMES:
            if not _NAME_TOKEN.fullmatch(name):
                return False
            _NAMES[name] = name
        for draw in (first, second):
            if draw not in _DRAWS:
                if not _DRAW_TOKEN.fullmatch(draw):
                    return False
                _DRAWS[draw] = _draw(draw)
        if plant not in _PLANTS:
            if not (match := _PLANT_TOKEN.fullmatch(plant)):
                return False
            _PLANTS[plant] = (_card(match[1]), Coord(int(match[2]), int(match[3])))
        if discard not in _DISCARDS:
            if not (match := _DISCARD_TOKEN.fullmatch(discard)):
                return False
            _DISCARDS[discard] = _card(match[1])
    return True


#: Characters of annotations (glyphs, comments, variations): a block of turn lines without any
#: of them is decoded without looking for annotations.
_NOT_PLAIN = ("{", ";", "(", ")", "!", "?", "$")
#: A run of spaces and tabs, which the grammar takes between the parts of a turn as one space.
_GAP = re.compile(r"[ \t]{2,}|\t")
#: What the grammar lets follow a turn on its line: glyphs, comments in braces, a comment to the end
#: of the line (a brace comment over several lines, a variation on the line: the fast reader's).
_BRACE_ON_LINE = r"\{[^}\n]*\}"  # (a brace comment over several lines is the fast reader's)
_TAIL = re.compile(rf"(?:[ \t]*{GLYPH})*(?:[ \t]*{_BRACE_ON_LINE})*(?:[ \t]*{LINE_COMMENT})?[ \t]*")
#: The same in a variation, where a comment to the end of the line would swallow its ')'.
_VARIATION_TAIL = re.compile(rf"(?:[ \t]*{GLYPH})*(?:[ \t]*{_BRACE_ON_LINE})*[ \t]*")
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
    line's annotations are not ones this reader knows the grammar takes."""
    separator = _separator(block)
    if separator == "":  # spaced by hand, and other white space in it: one space for each gap
        block, separator = _GAP.sub(" ", block), " "
    lines = block.split("\n")
    lines.pop()
    for text in _NOT_PLAIN:
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
    for _ in range(2):  # a token met for the first time is learnt, then the turns decoded again
        try:
            return [
                (numbers[n], names[p], draws[a], draws[b], *plants[c], discards[d]) for n, p, a, b, c, d in rows
            ]
        except (KeyError, ValueError):
            try:
                if not _learn(rows):
                    return None
            except ValueError:  # a number too long for int(): the parser says where
                return None
    return None


def _decode_turns(block: str) -> list[KnownTurn] | None:
    """The turns of a run of turn lines, each ending in a newline; None when one is not a turn."""
    rows = _rows(block)
    return None if rows is None else _decode_rows(rows)


def _variation(line: str) -> PlainLine | None:
    """The variation a line holds alone: '(' brace comments, one turn, its glyphs and brace
    comments ')' (``({a note} 12. Ana d d Ma3@0,1 /Oa5 !)``); None for any other line (a longer
    variation, one within another: the fast reader's)."""
    inner = line.strip(" \t")
    if not (inner.startswith("(") and inner.endswith(")")):
        return None
    inner = inner[1:-1]
    if "(" in inner or ")" in inner:
        return None
    if inner.lstrip(" \t").startswith("{"):  # comments before the turn (no comment holds a brace)
        inner = inner[_LEADING_COMMENTS.match(inner).end():]  # type: ignore[union-attr]  (matches '')
    separator = _separator(inner)
    if separator == "":
        return None
    parts = inner.strip(" \t").split(separator, 6)
    if len(parts) == 7 and _VARIATION_TAIL.fullmatch(parts.pop()) is None:
        return None
    turns = _decode_rows([parts])
    return None if turns is None else (turns, ())


def read_plain_game(text: str, file: str = "<string>", first_line: int = 1) -> PlainGame | None:
    """The game of ``text`` (one game: header and body) if it is plain, else None.

    ``first_line`` is the line of the opening '---' in its file, for the header's own errors;
    a header with an error is not plain either (the full parser reports it).
    """
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end < 0:
        return None
    try:
        header = read_header(text[4:end + 1], file=file, line=first_line + 1, header_line=first_line)
    except ArboError:
        return None
    return read_plain_body(header, text[end + 5:])


def read_plain_body(header: Header, body: str) -> PlainGame | None:
    """The game of a header and the text after its closing '---' line, if this reader is sure of
    it: turn lines, with their annotations on the line (see _TAIL), lines of comments, variations
    of one turn on a line of their own, then reveal lines and a result line."""
    turns: list[KnownTurn] = []
    branches: list[tuple[int, tuple[PlainLine, ...]]] = []
    lines: list[PlainLine] = []  # the variations of the last turn read, until the next turn
    reveals: list[tuple[str, tuple[Card, ...]]] = []
    scores: dict[str, int] | None = None
    finished = False
    pos, size = 0, len(body)
    while pos < size:
        split = _TURN_LINES.match(body, pos).end()  # type: ignore[union-attr]  (it matches the empty string)
        if split > pos:
            run = _decode_turns(body[pos:split]) if not reveals and not finished else None
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
        if line[:1] in _COMMENT_STARTS and (not line.strip(" \t") or _COMMENT_LINE.fullmatch(line)):
            continue  # (the grammar takes comments anywhere between the lines of a body)
        if finished:
            return None
        if line.startswith("reveal ") and _REVEAL.fullmatch(line):
            player, *cards = line[7:].split(" ")
            hand = tuple(map(_CARDS.get, cards))  # look-ups; all(), not 'None in', which calls Card.__eq__
            reveals.append((player, hand if all(hand) else tuple(map(_card, cards))))
        elif line.startswith("result ") and _RESULT.fullmatch(line):
            finished = True
            if line != "result *":
                scores = {}
                for name, points in _SCORE.findall(line[7:]):
                    if name in scores:
                        return None
                    try:
                        scores[name] = int(points)
                    except ValueError:  # a number too long for int(): the parser says where
                        return None
        elif not turns or reveals or (variation := _variation(line)) is None:
            return None
        else:
            lines.append(variation)
    if not finished:
        return None
    if lines:
        branches.append((len(turns) - 1, tuple(lines)))
    return PlainGame(header, turns, reveals, scores, tuple(branches))
