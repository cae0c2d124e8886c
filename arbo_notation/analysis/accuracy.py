"""Points lost and accuracy: a player's judged turns summed up by one rule (docs/ANALYSIS.md).

A turn's accuracy is ``100 * exp(-loss / SCALE)``, its loss in points of expected final margin;
a player's accuracy is the mean of their judged turns' accuracies. The figures are read from
the engine's notes of an analysed record (``{arbo: ...}``), so `arbo analyse`, the replayer,
the page and `arbo stats` give the same ones for the same record.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from arbo_notation.notation.engine_notes import EngineNote, note_of
from arbo_notation.notation.model import GameRecord

#: Points lost for which a turn's accuracy falls by a factor e: 3.5 puts the glyphs' thresholds
#: near lichess's (an inaccuracy of 1.5 points 65%, a mistake of 3 points 42%, a blunder of 6
#: points 18%; lichess gives about 64%, 40% and 25% at its thresholds of 10, 20 and 30% of win chance).
SCALE = 3.5
#: The rule in a few words, as the replayer and the page say it beside the figures.
ACCURACY_RULE = "a turn's accuracy is 100·exp(-points lost / 3.5), a player's the mean of their turns'"


def turn_accuracy(loss: float) -> float:
    """A turn's accuracy in percent: 100 with no loss, falling toward 0 as the loss grows."""
    return 100.0 * math.exp(-max(0.0, loss) / SCALE)


@dataclass(frozen=True, slots=True)
class Accuracy:
    """One player's judged turns summed up; two summaries of a player add (over games)."""

    player: str
    turns: int = 0  # judged
    points_lost: float = 0.0  # over those turns
    accuracy_total: float = 0.0  # the sum of the turns' accuracies (so that summaries add)
    inaccuracies: int = 0  # ?!
    mistakes: int = 0  # ?
    blunders: int = 0  # ??

    @classmethod
    def of_turn(cls, player: str, loss: float, glyph: str | None) -> Accuracy:
        return cls(
            player,
            turns=1,
            points_lost=loss,
            accuracy_total=turn_accuracy(loss),
            inaccuracies=int(glyph == "?!"),
            mistakes=int(glyph == "?"),
            blunders=int(glyph == "??"),
        )

    def __add__(self, other: Accuracy) -> Accuracy:
        return Accuracy(
            self.player,
            self.turns + other.turns,
            self.points_lost + other.points_lost,
            self.accuracy_total + other.accuracy_total,
            self.inaccuracies + other.inaccuracies,
            self.mistakes + other.mistakes,
            self.blunders + other.blunders,
        )

    @property
    def mean_points_lost(self) -> float:
        """Points lost a judged turn (0 with none judged)."""
        return self.points_lost / self.turns if self.turns else 0.0

    @property
    def accuracy(self) -> float:
        """The mean of the judged turns' accuracies, in percent (100 with none judged)."""
        return self.accuracy_total / self.turns if self.turns else 100.0

    def glyphs(self) -> dict[str, int]:
        return {"?!": self.inaccuracies, "?": self.mistakes, "??": self.blunders}

    def __str__(self) -> str:
        turns = f"{self.turns} turn{'s' if self.turns != 1 else ''}"
        glyphs = ", ".join(f"{glyph} {count}" for glyph, count in self.glyphs().items())
        return (
            f"{self.player}: accuracy {self.accuracy:.1f}%, {self.mean_points_lost:.2f} points lost a turn "
            f"over {turns} judged ({glyphs})"
        )

    def to_json(self) -> dict[str, Any]:
        """The figures as `arbo analyse --json` gives them: points to hundredths, accuracy to tenths."""
        return {
            "player": self.player,
            "turns": self.turns,
            "points_lost": round(self.points_lost, 2),
            "mean_points_lost": round(self.mean_points_lost, 2),
            "accuracy": round(self.accuracy, 1),
            **self.glyphs(),
        }


def note_loss(note: EngineNote) -> float:
    """The points a noted turn lost, as its note says them (to tenths)."""
    return note.gain


def summarise(turns: Iterable[tuple[str, float, str | None]], players: Iterable[str]) -> list[Accuracy]:
    """Per player (in the order given, those with a judged turn only): their turns summed up;
    ``turns`` gives each judged turn's mover, loss and glyph."""
    found: dict[str, Accuracy] = {}
    for player, loss, glyph in turns:
        one = Accuracy.of_turn(player, loss, glyph)
        found[player] = found[player] + one if player in found else one
    return [found[player] for player in players if player in found]


def noted_turns(record: GameRecord) -> Iterator[tuple[str, float, str | None]]:
    """The main line's turns the engine judged: mover, loss and glyph, from the notes."""
    for turn in record.turns:
        note = note_of(turn)
        if note is not None:
            yield turn.player, note_loss(note), note.glyph


def of_record(record: GameRecord) -> list[Accuracy]:
    """Per player of an analysed record, their judged turns summed up (empty when none is judged)."""
    return summarise(noted_turns(record), record.header.players)
