"""Checking the games of a record one at a time: the fast ways first, the full replay for a game
with something to report, so that the findings are the same either way.

A game in the plain canonical form is decoded by notation/plain.py, any other by the fast reader's
moves (notation/fastread.py, no records built); either goes through the engine's fast path
(replayer.plays_cleanly). A game that does not play cleanly, or that the fast readers are not sure
of, is read into records (by the fast reader, else by the grammar's parser, which names a syntax
error) and replayed by replay_game, which says what is wrong.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from .errors import Diagnostic
from .notation import fastread
from .notation.games import GameText, normalise, stream_games
from .notation.plain import read_plain_body
from .notation.reading import SourceLines, read_game_text
from .replayer import FileCheck, GameReplay, plays_cleanly, replay_game


class GameLines(SourceLines, Sequence[str]):
    """The lines of one game's text, indexed as the lines of its whole file (``lines[n - 1]`` is
    line ``n``; '' outside the game), for the replayer's diagnostics."""

    __slots__ = ()

    def __len__(self) -> int:
        if self.lines is None:
            self.lines = self.text.split("\n")
        return self.first_line - 1 + len(self.lines)

    def __getitem__(self, index):  # type: ignore[override]
        return self(index + 1)


def check_game(check: FileCheck, game: GameText, *, keep_states: bool = False,
               quick: bool = True) -> tuple[GameReplay | None, list[Diagnostic]]:
    """Check one game of ``check.file``, count it in ``check``, and return its replay (None when
    it could not be read, or played cleanly the quick way) and its diagnostics, in order.

    With ``quick``, a game that plays cleanly is checked without building its records.
    """
    file = check.file
    text, line, index = game.text, game.first_line, game.index
    lines = GameLines(text, line)
    if not game.closed:
        from .notation.syntaxfaults import unclosed_error

        check.invalid_games += 1
        return None, [Diagnostic.from_notation_error(unclosed_error(line, file, lines), game=index)]
    header = fastread.read_header_of(text, file, line)
    sure = True
    if quick and header is not None:
        body = text[header[1] + 1:]  # after the closing '---' line's end
        moves = read_plain_body(header[0], body) or fastread.read_moves(text, file, line, header)
        if moves is not None and plays_cleanly(moves):
            check.replayed += 1
            check.replayed_valid += 1
            return None, []
        sure = moves is not None
    records, errors = read_game_text(text, file, line, lines, header, fast=sure, index=index)
    if errors:
        check.invalid_games += 1
        return None, [Diagnostic.from_notation_error(error, game=index) for error in errors]
    replay = replay_game(records[0], source_lines=lines, keep_states=keep_states)
    check.replayed += 1
    check.replayed_valid += replay.valid
    return replay, sorted(replay.diagnostics, key=_where)


def _where(diagnostic: Diagnostic) -> tuple[int, int]:
    return diagnostic.line or 0, diagnostic.column or 0


def check_games(pieces: Iterable[str | GameText], file: str, *, keep_states: bool = False,
                keep_games: bool = True,
                each: Callable[[GameReplay | None, list[Diagnostic]], None] | None = None) -> FileCheck:
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
    from .notation.syntaxfaults import preamble_error

    error, _, _ = preamble_error(text, len(text), check.file, SourceLines(text))
    check.invalid_games += 1
    return [Diagnostic.from_notation_error(error)]


def check_text(text: str, file: str = "<string>", *, keep_states: bool = False,
               keep_games: bool = True) -> FileCheck:
    """Read and replay every game of a source text (see replayer.check_text)."""
    return check_games(stream_games([normalise(text)]), file, keep_states=keep_states, keep_games=keep_games)

