"""A fast reader for games in the plain canonical form, for checking big files.

A game is plain when its body holds only canonical turn lines (``12. Ana d:Ma3 Ben:Wi7 Ma3@0,1
/Oa5``: numbered, single spaces, no glyph or comment), then reveal lines and a result line, as
`arbo simulate` and `arbo fmt` write them. Such a game is decoded without building records; any
other game gets None, and the caller reads it with the full parser (grammar/arbo.lark). The
patterns below accept only text the grammar accepts, and decode it the same way
(tests/test_notation_plain.py checks both).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine.cards import Card, Coord
from ..errors import ArboError
from .header import read_header
from .record import Header

_NAME = r"(?!(?:d|reveal|result)(?![A-Za-z0-9_'-]))[A-Za-z][A-Za-z0-9_'-]*"
_CARD = r"[A-Za-z]{1,3}[1-8]"
_DRAW = rf"(?:d(?::{_CARD})?|-|{_NAME}(?::{_CARD})?)"
_TURN = re.compile(rf"([0-9]+)\. ({_NAME}) ({_DRAW}) ({_DRAW}) ({_CARD})@(-?[0-9]+),(-?[0-9]+) /({_CARD})")
_REVEAL = re.compile(rf"reveal ({_NAME})((?: {_CARD})*)")
_RESULT = re.compile(rf"result (?:\*|{_NAME} [0-9]+(?:, {_NAME} [0-9]+)*)")
_SCORE = re.compile(rf"({_NAME}) ([0-9]+)")

#: A draw: None for a skipped draw, else (owner, card): owner None for the deck, card None unknown.
PlainDraw = tuple[str | None, Card | None] | None


#: A turn: (number, player, first draw, second draw, card planted, its cell, card discarded).
#: A plain tuple, not a record: building records is the cost this reader exists to avoid.
PlainTurn = tuple[int, str, PlainDraw, PlainDraw, Card, Coord, Card]


@dataclass(frozen=True, slots=True)
class PlainGame:
    """A plain game: its header, turns, revealed hands, and scores (None: ``result *``)."""

    header: Header
    turns: list[PlainTurn]
    reveals: list[tuple[str, tuple[Card, ...]]]
    scores: dict[str, int] | None


_CARDS: dict[str, Card] = {}
_DRAWS: dict[str, PlainDraw] = {}


def _card(text: str) -> Card:
    card = _CARDS.get(text)
    if card is None:
        card = _CARDS[text] = Card(text[:-1], int(text[-1]))
    return card


def _draw(text: str) -> PlainDraw:
    if text in _DRAWS:
        return _DRAWS[text]
    if text == "-":
        draw: PlainDraw = None
    else:
        owner, _, card = text.partition(":")
        draw = (None if owner == "d" else owner, _card(card) if card else None)
    _DRAWS[text] = draw
    return draw


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
    turns: list[PlainTurn] = []
    reveals: list[tuple[str, tuple[Card, ...]]] = []
    scores: dict[str, int] | None = None
    finished = False
    match_turn = _TURN.fullmatch
    for line in text[end + 5:].split("\n"):
        if not line:
            continue
        if finished:
            return None
        m = match_turn(line) if not reveals else None
        if m is not None:
            number, player, first, second, card, x, y, discard = m.groups()
            turns.append((int(number), player, _draw(first), _draw(second), _card(card),
                          Coord(int(x), int(y)), _card(discard)))
        elif line.startswith("reveal ") and _REVEAL.fullmatch(line):
            player, *cards = line[7:].split(" ")
            reveals.append((player, tuple(_card(c) for c in cards)))
        elif line.startswith("result ") and _RESULT.fullmatch(line):
            finished = True
            if line != "result *":
                scores = {}
                for name, points in _SCORE.findall(line[7:]):
                    if name in scores:
                        return None
                    scores[name] = int(points)
        else:
            return None
    return PlainGame(header, turns, reveals, scores) if finished else None
