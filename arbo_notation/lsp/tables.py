"""A game of an open record read and replayed for the features that need its tables (completion,
hover, hints, navigation): each kept by its text, a few at a time."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from arbo_notation.engine.state import Game
from arbo_notation.errors import RuleError
from arbo_notation.game.replay import GameReplay, Line, replay_game
from arbo_notation.notation.model import GameRecord, Turn
from arbo_notation.notation.reading.reader import read_game_text
from arbo_notation.notation.reading.split import GameText, SourceLines

#: Replays kept: one a game being edited or read at a time, and a few more to go back to.
MAX_KEPT_REPLAYS = 16


def read_record(text: str, first_line: int, index: int = 1) -> GameRecord | None:
    """A game's record read from its text (its '---' on line ``first_line``), None on a syntax error."""
    records, errors = read_game_text(text, "<editor>", first_line, SourceLines(text, first_line), index=index)
    return None if errors or not records else records[0]


@dataclass(frozen=True, slots=True)
class Played:
    """One turn of a replayed game: the turn, its line, and the tables before and after it (None
    after a turn the line stopped at)."""

    turn: Turn
    line: Line
    index: int  # in its line

    @property
    def before(self) -> Game:
        return self.line.states[self.index]

    @property
    def after(self) -> Game | None:
        states = self.line.states
        return states[self.index + 1] if self.index + 1 < len(states) else None


class Replays:
    """Replays of games by their text, the positions of every line kept (the last few games)."""

    def __init__(self, size: int = MAX_KEPT_REPLAYS) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, int], GameReplay | None] = OrderedDict()

    def replay(self, game: GameText) -> GameReplay | None:
        """The game replayed with its positions kept; None when it cannot be read."""
        key = (game.text, game.first_line)  # the records carry their lines
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        record = read_record(game.text, game.first_line, game.index)
        replay = None
        if record is not None:
            try:
                replay = replay_game(record, keep_states=True)
            except RuleError:  # a table the header cannot set: no positions
                replay = None
        self._kept[key] = replay
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return replay


def played_turns(replay: GameReplay) -> list[Played]:
    """Every turn the replay played, of every line, in the order they are written."""
    turns = [
        Played(turn, line, index)
        for line in replay.lines.values()
        for index, turn in enumerate(line.turns[: line.legal + 1])
        if turn.pos is not None
    ]
    return sorted(turns, key=lambda p: (p.turn.pos.line, p.turn.pos.column) if p.turn.pos else (0, 0))


def turn_on(replay: GameReplay, line: int) -> Played | None:
    """The turn written on 1-based ``line``, when one is."""
    for played in played_turns(replay):
        if played.turn.pos is not None and played.turn.pos.line == line:
            return played
    return None
