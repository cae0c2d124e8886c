"""The parts of a game's body that the scanner's two sinks (scanner.py) and the records' builder
(build.py) share: runs of turns, card texts decoded once, how deep variations may nest, a number
too long to read. No record is built here, so that a check of clean games (the moves sink) never
loads the records' classes."""

from __future__ import annotations

from typing import Generic, TypeVar

from arbo_notation.engine.cards import Card

#: Variations may nest this deep (deeper is a syntax error: no record needs it, and tools recurse).
MAX_VARIATION_DEPTH = 100


class TooLong(Exception):
    """A number of more digits than int() reads, at a 1-based line and column."""

    def __init__(self, what: str, line: int, column: int) -> None:
        super().__init__(what)
        self.message = f"a number of this {what} has too many digits to be read"
        self.line = line
        self.column = column


def _card_of(text: str) -> Card:
    return Card(text[:-1], int(text[-1]))


class Cards(dict[str, Card]):
    """Card text -> Card, made once per reading (cards are values: they can be shared)."""

    def __missing__(self, text: str) -> Card:
        card = self[text] = _card_of(text)
        return card


_Turn = TypeVar("_Turn")
_Note = TypeVar("_Note")


class Run(Generic[_Turn, _Note]):
    """Turns in a row, then the comments on lines of their own and the variations that follow
    the last of them (``annotations``, in order). The turns are records (Turn) for the records,
    the engine's KnownTurn tuples for the moves sink; the annotations Comment and Variation
    records for the records, the variations' moves (comments: None) for the moves sink."""

    __slots__ = ("turns", "annotations")

    def __init__(self, turns: list[_Turn]) -> None:
        self.turns = turns
        self.annotations: list[_Note] = []
