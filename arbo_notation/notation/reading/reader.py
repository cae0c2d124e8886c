"""Reading the games of a text: each by the scanner, or by the grammar's parser when it is not sure.

Every game is cut from its text (games.py) and read by the scanner (scanner.py); a game it is not sure of
goes to the grammar's parser (syntax.py), and a game the parser rejects to the checker that names
its syntax errors (faults.py). The parser, and lark with it, is loaded only when a game
needs it.

The library's readers (arbo_notation/api.py: read_games, parse_games, read_games_from,
iter_games) are built on these; a file is read there, never here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arbo_notation.errors import ArboError, NotationError, NotationErrors
from arbo_notation.notation.reading import scanner
from arbo_notation.notation.reading.split import GameText, SourceLines, normalise, stream_games

if TYPE_CHECKING:  # named in signatures only: a clean check never loads the records (measured ~7 ms)
    from arbo_notation.notation.model import GameRecord, Header

__all__ = ["GameSpan", "ParseOutcome", "parse", "parse_all", "read_game_text", "read_pieces"]


@dataclass(frozen=True, slots=True)
class GameSpan:
    """Where one game stands in its file, and whether it could be read: its syntax errors, in order."""

    index: int  # 1-based position of the game in the file
    first_line: int
    last_line: int
    errors: tuple[NotationError, ...] = ()

    @property
    def error(self) -> NotationError | None:
        """The game's first syntax error (None when it could be read)."""
        return self.errors[0] if self.errors else None


@dataclass(slots=True)
class ParseOutcome:
    """Every game that could be read, every syntax error (a game may have several), and which
    game each error belongs to."""

    games: list[GameRecord] = field(default_factory=list)
    errors: list[NotationError] = field(default_factory=list)
    game_spans: list[GameSpan] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def game_of(self, error: NotationError) -> int | None:
        """The 1-based index of the game an error belongs to (None: text before the first header)."""
        for span in self.game_spans:
            if any(e is error for e in span.errors):
                return span.index
        return None

    @property
    def unreadable(self) -> int:
        """How many games could not be read (text before the first header counts as one)."""
        return sum(1 for span in self.game_spans if span.errors)

    def raise_errors(self) -> None:
        if self.errors:
            raise NotationErrors(list(self.errors))


def read_game_text(
    part: str,
    file: str,
    line: int,
    source_line: Callable[[int], str],
    header: tuple[Header, int] | None = None,
    fast: bool = True,
    index: int = 1,
) -> tuple[list[GameRecord], list[NotationError]]:
    """Read one game's text (its opening '---' at ``line`` of the file, ``index`` its place in
    the file): its record, or its syntax errors (every fault of its lines, in order).
    ``source_line(n)`` gives line ``n`` of the file, for an error message; ``header`` the game's
    header and where its body starts, when already read; ``fast`` false when the scanner is
    known to be unsure of the text."""
    record = scanner.read_game(part, file, line, header, index) if fast else None
    if record is not None:
        return [record], []
    # deferred: the grammar and lark (~60 ms) load only for a game the scanner cannot read
    from arbo_notation.notation.reading.syntax import parse_game

    return parse_game(part, file, line, source_line, index)


def read_pieces(
    pieces: Iterable[str | GameText], file: str, first_line: int = 1
) -> Iterator[tuple[GameSpan, GameRecord | None]]:
    """Read games as games.stream_games cuts them (the text before the first header first): for
    each, where it stands and its record, or None when its span names a syntax error. A game at a
    time: memory for one game, whatever the size of the file. ``first_line`` is the line of the
    file where the text starts."""
    shift = first_line - 1
    for piece in pieces:
        if isinstance(piece, str):
            if piece.strip():
                # deferred: the faults and the records' classes (~7 ms) load only for a faulty file
                from arbo_notation.notation.reading.faults import preamble_error

                lines = SourceLines(piece, first_line)
                error, line, last = preamble_error(piece, len(piece), file, lines, first_line)
                yield GameSpan(0, line, last, (error,)), None
            continue
        line = piece.first_line + shift
        lines = SourceLines(piece.text, line)
        if piece.closed:
            games, errors = read_game_text(piece.text, file, line, lines, index=piece.index)
        else:
            # deferred: the faults and the records' classes (~7 ms) load only for a faulty file
            from arbo_notation.notation.reading.faults import unclosed_error

            games, errors = [], [unclosed_error(line, file, lines)]
        span = GameSpan(piece.index, line, piece.last_line + shift, tuple(errors))
        if not games:
            yield span, None
        for game in games:
            yield span, game


def parse_all(text: str, file: str = "<string>", *, first_line: int = 1) -> ParseOutcome:
    """Read every game of a text; a game with a syntax error is reported and the next games read.

    Never raises for a syntax error: see ``ParseOutcome.errors`` and ``ParseOutcome.game_spans``.
    ``first_line`` is the line of the file where the text starts (1: the text is the whole file).
    """
    if not isinstance(text, str):
        raise ArboError(f"expected the text of a record, not {type(text).__name__}")
    # The collector is left as the host set it: a library does not change process-wide state
    # (a program that reads whole files may pause it around the call: gcpause.gc_paused).
    outcome = ParseOutcome()
    for span, game in read_pieces(stream_games([normalise(text)]), file, first_line):
        if game is not None:
            outcome.games.append(game)
        if not outcome.game_spans or outcome.game_spans[-1] is not span:
            outcome.errors.extend(span.errors)
            outcome.game_spans.append(span)
    return outcome


def parse(text: str, file: str = "<string>") -> list[GameRecord]:
    """Read every game of a text; raise NotationErrors (all of them) if any game has a syntax error.
    (api.parse_games is this, for the library's users.)"""
    outcome = parse_all(text, file)
    outcome.raise_errors()
    return outcome.games
