"""The typed records a parsed .arb file yields: header, turns, annotations, variations, end (the
Header is defined with the table of its keys, header/keys.py, and is one of these names). A turn's
draws and planting are the engine's actions (engine/actions.py): one vocabulary, the record's and
the engine's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from arbo_notation.engine.actions import Discard, Draw, DrawAction, Plant, TurnActions, known_draw
from arbo_notation.engine.cards import Card
from arbo_notation.errors import Pos
from arbo_notation.engine.lexicon import RESERVED_NAMES
from arbo_notation.notation.header.keys import Header  # the header's record, beside the table of its keys

if TYPE_CHECKING:
    from arbo_notation.engine.actions import KnownTurn

#: Glyphs a turn may carry, as in PGN ($n numeric annotation glyphs are allowed too).
GLYPHS = ("!!", "??", "!?", "?!", "!", "?")


def draw_kind(draw: DrawAction) -> str:
    """Where a draw takes its card, as the data forms name it (JSON, YAML, the tables): 'deck',
    'discard' (a player's pile) or 'skip'."""
    if isinstance(draw, Draw):
        return "deck" if draw.owner is None else "discard"
    return "skip"


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment: ``{text}`` or, when ``line`` is true, ``; text`` to the end of the line."""

    text: str
    line: bool = False

    def __str__(self) -> str:
        return f"; {self.text}" if self.line else "{" + self.text + "}"


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn: two draws (``engine.actions.Draw`` or ``Skip``), one planting
    (``engine.actions.Plant``), the card discarded, plus its annotations.

    ``Turn.of(actions)`` makes one of the engine's ``TurnActions``, ``actions`` gives back its four
    actions. ``variations`` are alternative lines that replace this turn and continue from there.
    ``pos`` is where the turn is written (its number, or its player when it has none); a turn
    stands on one line, and ``columns`` says where on it its parts are: its first and second draw,
    its planting and the '/' of its discard (``draw_pos``, ``plant_pos``, ``discard_pos``). A
    draw is a value, as a card is: one object may stand for every draw written alike.
    """

    player: str
    draws: tuple[DrawAction, ...]  # two (a record built by a program is checked when written)
    plant: Plant
    discard: Card
    number: int | None = None  # as written; None when the record left it out
    glyphs: tuple[str, ...] = ()
    comments_before: tuple[Comment, ...] = ()
    comments_after: tuple[Comment, ...] = ()
    variations: tuple["Variation", ...] = ()
    pos: Pos | None = field(default=None, compare=False)
    columns: tuple[int, int, int, int] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(
        cls,
        turn: TurnActions,
        *,
        comments_before: tuple[Comment, ...] = (),
        comments_after: tuple[Comment, ...] = (),
        variations: tuple["Variation", ...] = (),
    ) -> Turn:
        """The record of a turn the engine played (its player, four actions, number and glyphs),
        with these annotations: the one way from the engine's actions to a record's turn."""
        first, second, plant, discard = turn.actions
        return cls(
            turn.player,
            (first, second),
            plant,
            discard.card,
            turn.number,
            turn.glyphs,
            comments_before,
            comments_after,
            variations,
        )

    @property
    def actions(self) -> tuple[DrawAction, DrawAction, Plant, Discard]:
        """The turn's four actions, as Game.push plays them: two draws, the planting, the discard."""
        first, second = self.draws
        return (first, second, self.plant, Discard(self.discard))

    @property
    def turn_actions(self) -> TurnActions:
        """The turn as the engine's value (Turn.of's inverse): player, four actions, number, glyphs."""
        return TurnActions(self.player, self.actions, self.number, self.glyphs)

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
        """The turn in the check's fast-path form (engine.actions.KnownTurn, for Game.push_known_turn)."""
        first, second = self.draws
        plant = self.plant
        return (self.number, self.player, known_draw(first), known_draw(second), plant.card, plant.coord, self.discard)

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
    "GameRecord",
    "Header",
    "Pos",
    "Result",
    "Reveal",
    "Turn",
    "Variation",
    "draw_kind",
]
