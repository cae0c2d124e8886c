"""Checking the games of a record one at a time: the fast ways first, the full replay for a game
with something to report, so that the findings are the same either way.

A game's moves are read by the scanner's moves sink (notation/reading/scanner.py, no records built) and
go through the engine's fast path (plays_cleanly, below), with the table and end checks of
check/facts.py. A game that does not play cleanly, or that the scanner is not sure of, is read
into records (by the scanner, else by the grammar's parser, which names a syntax error) and
replayed by replay_game, which says what is wrong (the replayer is loaded only then).
FileCheck is what a check of a text finds.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, overload

from arbo_notation.engine.state import Game
from arbo_notation.engine.actions import KnownTurn
from arbo_notation.errors import Diagnostic, RuleError
from arbo_notation.engine.lexicon import ENGINE_MARK
from arbo_notation.notation.reading import scanner
from arbo_notation.notation.reading.split import GameText, SourceLines, stream_games
from arbo_notation.game.facts import end_faults, game_for, result_faults, result_line_faults, table_faults
from arbo_notation.runtime.sources import normalise

if TYPE_CHECKING:
    from arbo_notation.game.replay import GameReplay


#: A line's variations: (index of the turn they replace, the lines), in the order of the turns.
_Branches = tuple[tuple[int, tuple[scanner.MovesLine, ...]], ...]


def plays_cleanly(plain: scanner.GameMoves) -> bool:
    """Whether a plain game replays with no diagnostic at all, as replay_game would find: every
    turn legal and numbered right, and no fault of its table or its end. Anything else is for
    replay_game to report.

    The table and the end are checked by the same checks as replay_game's (table_faults,
    end_faults, result_faults); the turns by the engine's fast path. tests/checking/test_gamecheck.py
    holds the two ways equal on games wrong in each way, and on every sample and invalid file."""
    header = plain.header
    for _ in table_faults(header):
        return False
    try:
        game = game_for(header)
        if not _play_cleanly(game, plain.turns, plain.branches):
            return False
    except RuleError:
        return False
    claimed = plain.scores
    if claimed is not None:
        for _ in result_line_faults(header.players, claimed.items()):
            return False
    for _ in end_faults(game, plain.reveals, claimed):
        return False
    if game.is_over and not game.hidden_players():
        totals = game.final_totals()
        # A true claim (or none) has no fault, as result_faults says first: its generator and the
        # explanation's partial are made only for a claim to look at (3.2M fewer instructions of
        # 1,000 greedy games' 1,303M, one a file; bench/README.md, "Issue 49, point 3, fifth branch").
        if claimed in (None, totals) and header.result in (None, totals):
            return True
        explain = functools.partial(_explain_score, game)
        for _ in result_faults(totals, claimed, header.result, explain):
            return False
    return True


def _may_hold_note_faults(text: str) -> bool:
    """engine_notes.may_hold_note_faults, its module loaded only for a text with an engine's note."""
    if ENGINE_MARK not in text:
        return False
    # deferred: the notes' class and patterns (~8M instructions, some 2 ms of a check's start-up)
    from arbo_notation.notation.engine_notes import may_hold_note_faults

    return may_hold_note_faults(text)


def _explain_score(game: Game, player: str) -> str:
    # deferred: the replayer and the records' model (~14 ms) are loaded only for a wrong claim
    from arbo_notation.game.replay import score_game, score_parts

    return score_parts(score_game(game), player)


def _play_cleanly(game: Game, turns: list[KnownTurn], branches: _Branches = ()) -> bool:
    """Play a line's turns for good, each of its variations from the position before the turn it
    replaces (as replay_line): False at the first turn numbered wrong (replay_line's warning),
    RuleError at the first that is illegal."""
    done = 0
    for index, lines in branches + ((len(turns), ()),):
        segment = turns[done:index]
        if not _numbered_from(game.turn_number, segment):
            return False
        played = game.play_known_turns(segment)
        for turn in segment[played:]:
            game.play_turn(turn)
        for line_turns, line_branches in lines:
            if not _plays_and_takes_back(game, line_turns, line_branches):
                return False
        done = index
    return True


def _plays_and_takes_back(game: Game, turns: list[KnownTurn], branches: _Branches) -> bool:
    """Play a variation's turns with Game.push_known_turn (its own variations on the way), then take
    them all back with Game.pop_known_turn: the game is left as it was, with no copy made. As
    _play_cleanly.

    The line's last turn, which nothing is played after, is only judged (Game.is_plainly_legal)
    when it is plainly legal: a variation of one turn, the common one, is then pushed not at all."""
    pushed = 0
    try:
        done = 0
        for index, lines in branches + ((len(turns), ()),):
            segment = turns[done:index]
            if not _numbered_from(game.turn_number, segment):
                return False
            last = segment.pop() if index == len(turns) and segment else None  # (a slice: its own list)
            for turn in segment:
                game.push_known_turn(turn)
                pushed += 1
            if last is not None and not game.is_plainly_legal(last):
                game.push_known_turn(last)  # (RuleError when illegal; else a turn not plain, as a skipped draw)
                pushed += 1
            for line_turns, line_branches in lines:
                if not _plays_and_takes_back(game, line_turns, line_branches):
                    return False
            done = index
        return True
    finally:
        for _ in range(pushed):
            game.pop_known_turn()


def _numbered_from(first: int, turns: Sequence[KnownTurn]) -> bool:
    """Whether turns played in a row from turn ``first`` are numbered as replay_line wants them
    (a number left out is right). Past the game's end no number is asked: such a turn is illegal."""
    numbers = list(map(_NUMBER, turns))
    if numbers == list(range(first, first + len(numbers))):
        return True
    return all(number is None or number == first + i for i, number in enumerate(numbers))


_NUMBER = operator.itemgetter(0)


@dataclass(slots=True)
class FileCheck:
    """The check of one source text: every game's replay (unless not kept), the counts, and the
    diagnostics met on the way, syntax errors included."""

    file: str
    games: list[GameReplay] = field(default_factory=list)
    syntax: list[Diagnostic] = field(default_factory=list)
    invalid_games: int = 0  # games that could not be read at all
    replayed: int = 0
    replayed_valid: int = 0
    findings: list[Diagnostic] = field(default_factory=list)  # the replays' diagnostics

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return sorted(self.syntax + self.findings, key=lambda d: (d.line or 0, d.column or 0))

    @property
    def game_count(self) -> int:
        return self.replayed + self.invalid_games

    @property
    def valid_count(self) -> int:
        return self.replayed_valid

    @property
    def valid(self) -> bool:
        return not self.invalid_games and self.replayed_valid == self.replayed


class GameLines(SourceLines, Sequence[str]):
    """The lines of one game's text, indexed as the lines of its whole file (``lines[n - 1]`` is
    line ``n``; '' outside the game), for the replayer's diagnostics."""

    __slots__ = ()

    def __len__(self) -> int:
        if self.lines is None:
            self.lines = self.text.split("\n")
        return self.first_line - 1 + len(self.lines)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self(i + 1) for i in range(*index.indices(len(self)))]
        return self(index + 1)


def check_game(
    check: FileCheck, game: GameText, *, keep_states: bool = False, quick: bool = True
) -> tuple[GameReplay | None, list[Diagnostic]]:
    """Check one game of ``check.file``, count it in ``check``, and return its replay (None when
    it could not be read, or played cleanly the quick way) and its diagnostics, in order.

    With ``quick``, a game that plays cleanly is checked without building its records.
    """
    file = check.file
    text, line, index = game.text, game.first_line, game.index
    lines = GameLines(text, line)
    if not game.closed:
        # deferred: the faults' messages and the records' model (~13 ms) are loaded only for a game cut short
        from arbo_notation.notation.reading.faults import unclosed_error

        check.invalid_games += 1
        return None, [Diagnostic.from_notation_error(unclosed_error(line, file, lines), game=index)]
    header = scanner.read_header_of(text, file, line)
    sure = True
    if quick and header is not None:
        moves = scanner.read_moves(text, file, line, header)
        # the moves hold no comments: a game that may hold a faulty engine's note is replayed
        if moves is not None and plays_cleanly(moves) and not _may_hold_note_faults(text):
            check.replayed += 1
            check.replayed_valid += 1
            return None, []
        sure = moves is not None
    # deferred: the records' reader (~1.5 ms, its model more when first used) only for a game with something to report
    from arbo_notation.notation.reading.reader import read_game_text

    records, errors = read_game_text(text, file, line, lines, header, fast=sure, index=index)
    if errors:
        check.invalid_games += 1
        return None, [Diagnostic.from_notation_error(error, game=index) for error in errors]
    # deferred: the replayer (~14 ms, the records' model included) only for a game with something to report
    from arbo_notation.game.replay import replay_game

    replay = replay_game(records[0], source_lines=lines, keep_states=keep_states)
    check.replayed += 1
    check.replayed_valid += replay.valid
    return replay, sorted(replay.diagnostics, key=_where)


def _where(diagnostic: Diagnostic) -> tuple[int, int]:
    return diagnostic.line or 0, diagnostic.column or 0


def check_games(
    pieces: Iterable[str | GameText],
    file: str,
    *,
    keep_states: bool = False,
    keep_games: bool = True,
    each: Callable[[GameReplay | None, list[Diagnostic]], None] | None = None,
) -> FileCheck:
    """Check the games of a file as stream_games cuts them (the text before the first header
    first), a game at a time.

    Without ``each``, the check keeps every diagnostic and, with ``keep_games``, every game's
    replay (else a game that plays cleanly is checked without building its records). With
    ``each``, it keeps only the counts and hands each game's replay and diagnostics to ``each``
    as it goes (the replay None when the game could not be read).
    """
    check = FileCheck(file)
    for piece in pieces:
        if isinstance(piece, str):
            found = _check_preamble(check, piece)
            replay = None
        else:
            replay, found = check_game(check, piece, keep_states=keep_states, quick=not keep_games and each is None)
        if each is not None:
            each(replay, found)
            continue
        (check.findings if replay is not None else check.syntax).extend(found)
        if keep_games and replay is not None:
            check.games.append(replay)
    return check


def _check_preamble(check: FileCheck, text: str) -> list[Diagnostic]:
    if not text.strip():
        return []
    # deferred: the faults' messages and the records' model (~13 ms) are loaded only for text that is no game
    from arbo_notation.notation.reading.faults import preamble_error

    error, _, _ = preamble_error(text, len(text), check.file, SourceLines(text))
    check.invalid_games += 1
    return [Diagnostic.from_notation_error(error)]


def check_text(text: str, file: str = "<string>", *, keep_states: bool = False, keep_games: bool = True) -> FileCheck:
    """Read and replay every game of a source text, a game at a time.

    With ``keep_games`` false only the counts and diagnostics are kept, not each game's replay,
    and a game that replays cleanly is checked without building its records; any other game is
    read into records and replayed by replay_game.
    """
    return check_games(stream_games([normalise(text)]), file, keep_states=keep_states, keep_games=keep_games)
