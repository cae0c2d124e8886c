"""The inlay hints of a record: after each turn the running score (when every hand is known)
and the points an analysed turn lost (its engine's note; the server runs no analysis)."""

from __future__ import annotations

from dataclasses import dataclass

from arbo_notation.lsp.documents import Cut
from arbo_notation.lsp.hover import running_score
from arbo_notation.lsp.outline import outlined_games
from arbo_notation.lsp.tables import Replays, played_turns
from arbo_notation.notation.engine_notes import note_of


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint written at the end of 0-based ``line`` (``column``, in characters)."""

    line: int
    column: int
    label: str
    tooltip: str


def hints(cut: Cut, first: int, last: int, replays: Replays) -> list[Hint]:
    """The hints of the turns written on 0-based lines ``first`` to ``last``."""
    found = []
    for game in outlined_games(cut):
        if game.last_line - 1 < first or game.first_line - 1 > last:
            continue
        replay = replays.replay(game)
        if replay is None:
            continue
        for played in played_turns(replay):
            pos = played.turn.pos
            if pos is None or not first <= pos.line - 1 <= last:
                continue
            parts, tips = [], []
            after = played.after
            totals = running_score(after) if after is not None else None
            if totals is not None:
                parts.append(" ".join(f"{player} {points}" for player, points in totals.items()))
                tips.append("each player's score if the game ended after this turn")
            note = note_of(played.turn)
            if note is not None and note.gain > 0:
                parts.append(f"-{note.gain:.1f} pts")
                tips.append("the points this turn lost, by the engine's note")
            if parts:
                end = len(cut.lines(pos.line))
                found.append(Hint(pos.line - 1, end, "  " + " · ".join(parts), "; ".join(tips)))
    return found
