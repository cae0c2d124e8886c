"""The typed records a parsed .arb file yields: header, turns, draws, annotations, variations, end
(the Header is defined with the table of its keys, header/keys.py, and is one of these names)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Iterator

from arbo_notation.engine.cards import Card, Planting
from arbo_notation.errors import Pos
from arbo_notation.engine.lexicon import RESERVED_NAMES
from arbo_notation.notation.header.keys import Header  # the header's record, beside the table of its keys

if TYPE_CHECKING:
    from arbo_notation.engine.actions import KnownDraw, KnownTurn

#: Glyphs a turn may carry, as in PGN ($n numeric annotation glyphs are allowed too).
GLYPHS = ("!!", "??", "!?", "?!", "!", "?")


class DrawKind(Enum):
    DECK = "deck"
    DISCARD = "discard"
    SKIP = "skip"  # no card could be drawn at all (house ruling); written '-'


@dataclass(frozen=True, slots=True)
class Draw:
    """One draw: from the deck (``d``, ``d:Ma3``), a discard pile (``Ana``, ``Ana:Ja2``), or skipped (``-``).

    ``card`` is None when the record does not say which card was drawn. A draw is a value, as a
    card is (one object may stand for every draw written alike): where it is written is its
    turn's to say (``Turn.draw_pos``).
    """

    kind: DrawKind
    owner: str | None = None  # whose discard pile, for DrawKind.DISCARD
    card: Card | None = None

    def __str__(self) -> str:
        if self.kind is DrawKind.SKIP:
            return "-"
        base = "d" if self.kind is DrawKind.DECK else str(self.owner)
        return f"{base}:{self.card}" if self.card is not None else base

    def known(self) -> KnownDraw:
        """The draw as the engine takes it (engine.actions.KnownDraw): None for '-', else whose pile
        (None: the deck) and the card named (None: not written)."""
        if self.kind is DrawKind.SKIP:
            return None
        return (None if self.kind is DrawKind.DECK else self.owner, self.card)


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment: ``{text}`` or, when ``line`` is true, ``; text`` to the end of the line."""

    text: str
    line: bool = False

    def __str__(self) -> str:
        return f"; {self.text}" if self.line else "{" + self.text + "}"


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn: two draws, one planting, one discard, plus its annotations.

    ``variations`` are alternative lines that replace this turn and continue from there. ``pos``
    is where the turn is written (its number, or its player when it has none); a turn stands on
    one line, and ``columns`` says where on it its parts are: its first and second draw, its
    planting and the '/' of its discard (``draw_pos``, ``plant_pos``, ``discard_pos``).
    """

    player: str
    draws: tuple[Draw, ...]
    plant: Planting
    discard: Card
    number: int | None = None  # as written; None when the record left it out
    glyphs: tuple[str, ...] = ()
    comments_before: tuple[Comment, ...] = ()
    comments_after: tuple[Comment, ...] = ()
    variations: tuple["Variation", ...] = ()
    pos: Pos | None = field(default=None, compare=False)
    columns: tuple[int, int, int, int] | None = field(default=None, compare=False, repr=False)

    def draw_pos(self, index: int) -> Pos | None:
        """Where draw ``index`` (0: the first, 1: the second) is written, when the record was read
        from a text."""
        if index not in (0, 1):
            raise IndexError(f"a turn has draws 0 and 1; there is no draw {index!r}")
        return self._part_pos(index)

    @property
    def plant_pos(self) -> Pos | None:
        """Where the planting is written, when the record was read from a text."""
        return self._part_pos(2)

    @property
    def discard_pos(self) -> Pos | None:
        """Where the '/' of the discard is written, when the record was read from a text."""
        return self._part_pos(3)

    def _part_pos(self, part: int) -> Pos | None:
        pos, columns = self.pos, self.columns
        return Pos(pos.line, columns[part]) if pos is not None and columns is not None else None

    def notation(self) -> str:
        """The turn's moves alone, e.g. ``Ana d d Ma3@0,0 /Oa5`` (no number, glyphs or comments)."""
        draws = " ".join(str(d) for d in self.draws)
        return f"{self.player} {draws} {self.plant} /{self.discard}"

    def known(self) -> KnownTurn:
        """The turn as the engine plays it (engine.state.KnownTurn, for Game.push_known_turn): its number,
        player, two draws, the card planted and its cell, the discard."""
        first, second = self.draws
        return (
            self.number,
            self.player,
            first.known(),
            second.known(),
            self.plant.card,
            self.plant.coord,
            self.discard,
        )

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Variation:
    """An alternative line: turns that replace the turn it hangs on, then continue."""

    turns: tuple[Turn, ...]
    comments_before: tuple[Comment, ...] = ()  # after '(' and before the first turn
    comments_after: tuple[Comment, ...] = ()  # after the last turn, before ')'
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Reveal:
    """The hand a player shows at scoring: ``reveal Ana Ja2 Oa6 ...``."""

    player: str
    cards: tuple[Card, ...]
    pos: Pos | None = field(default=None, compare=False)
    comments: tuple[Comment, ...] = ()  # comments after the line, up to the next reveal/result line


@dataclass(frozen=True, slots=True)
class Result:
    """The result line: each player's score (``result Ana 24, Ben 19``), or unfinished (``result *``)."""

    scores: tuple[tuple[str, int], ...] = ()
    unfinished: bool = False
    pos: Pos | None = field(default=None, compare=False)
    comments: tuple[Comment, ...] = ()  # comments after the result line, up to the next game

    def as_dict(self) -> dict[str, int]:
        return dict(self.scores)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a record file: header, main line of turns, revealed hands and result.

    ``comments`` are those standing before the first turn; comments after the last turn hang on it.
    """

    header: Header
    turns: tuple[Turn, ...] = ()
    comments: tuple[Comment, ...] = ()
    reveals: tuple[Reveal, ...] = ()
    result: Result | None = None
    file: str = field(default="<string>", compare=False)
    index: int = field(default=1, compare=False)  # 1-based position of the game in its file

    def all_turns(self) -> Iterator[Turn]:
        """Every turn of the record, the main line's and every variation's, depth first."""
        stack = list(reversed(self.turns))
        while stack:
            turn = stack.pop()
            yield turn
            for variation in reversed(turn.variations):
                stack.extend(reversed(variation.turns))

    @property
    def finished(self) -> bool:
        return self.result is not None and not self.result.unfinished


__all__ = [
    "GLYPHS",
    "RESERVED_NAMES",
    "Comment",
    "Draw",
    "DrawKind",
    "GameRecord",
    "Header",
    "Pos",
    "Result",
    "Reveal",
    "Turn",
    "Variation",
]
