"""An open record as the server keeps it: its text cut into games, and each game's diagnostics
kept by its text, so that an edit re-checks only the games it touched.

Nothing here knows the protocol: lines are 0-based, columns count characters (code points); the
server turns them into the client's units.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections import OrderedDict
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import overload

from arbo_notation.checking.games import check_games
from arbo_notation.errors import Code, Diagnostic, Severity
from arbo_notation.notation.reading.split import GameChunk, GameText, cut_games
from arbo_notation.runtime.sources import normalise

#: The diagnostics are those of the file's first MAX_CHECKED_GAMES games and MAX_CHECKED_BYTES
#: characters: past them one note says what was left unchecked (`arbo check` checks the rest).
#: A record people edit by hand is far smaller; these hold a server's work and memory bounded.
MAX_CHECKED_GAMES = 2000
MAX_CHECKED_CHARS = 4 << 20
#: Games whose diagnostics are kept by their text, beyond those of the open files: enough for an
#: undo to find a game's diagnostics again.
MAX_CACHED_GAMES = 4 * MAX_CHECKED_GAMES
#: And the characters of the games kept, together (the texts are the keys).
MAX_CACHED_CHARS = 4 * MAX_CHECKED_CHARS


@dataclass(frozen=True, slots=True)
class Found:
    """A diagnostic of a record, placed: 0-based ``line``, ``start`` and ``end`` columns."""

    line: int
    start: int
    end: int
    diagnostic: Diagnostic


class Cut:
    """A record's text cut into games: the text before the first (``preamble``), each game
    (``games``, its text taken from the whole when asked for: a file of 100,000 games is not
    held twice), and the text's ``lines`` by number. ``bom``: whether the text began with a byte
    order mark, which the reading drops and an editor counts on line 1."""

    __slots__ = ("text", "bom", "preamble", "games", "lines", "_firsts")

    def __init__(self, text: str) -> None:
        self.bom = text.startswith("\ufeff")
        self.text = text = normalise(text)
        preamble_end, chunks = cut_games(text)
        self.preamble = text[:preamble_end]
        self.games = Games(text, chunks)
        self._firsts = [chunk.first_line for chunk in chunks]
        self.lines = Lines(text)

    def game_at(self, line: int) -> GameText | None:
        """The game that holds 0-based ``line`` of the text (None before the first)."""
        number = line + 1
        found = bisect.bisect_right(self._firsts, number)  # the games are in order of their lines
        if found == 0:
            return None
        game = self.games[found - 1]
        return game if number <= game.last_line or found == len(self.games) else None


class Games(Sequence[GameText]):
    """The games of a text, each cut from it when asked for."""

    __slots__ = ("_text", "_chunks")

    def __init__(self, text: str, chunks: list[GameChunk]) -> None:
        self._text = text
        self._chunks = chunks

    def __len__(self) -> int:
        return len(self._chunks)

    @overload
    def __getitem__(self, index: int) -> GameText: ...
    @overload
    def __getitem__(self, index: slice) -> list[GameText]: ...
    def __getitem__(self, index: int | slice) -> GameText | list[GameText]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self._chunks)
        chunk = self._chunks[index]
        return GameText(self._text[chunk.start : chunk.end], chunk.first_line, chunk.last_line, chunk.closed, index + 1)


_HEADER_LINE = re.compile(r"---[ \t]*")


def header_end(lines: Sequence[str]) -> int | None:
    """The index of the '---' line that closes the header of a game's ``lines`` (its first line
    opens it), None when it is not closed."""
    return next((i for i in range(1, len(lines)) if _HEADER_LINE.fullmatch(lines[i])), None)


class DiagnosticsCache:
    """Each game's diagnostics, kept by its text (the oldest dropped past ``size``): a game's
    findings depend on its text alone, so a game an edit did not touch is not checked again,
    its findings moved to where it now stands."""

    def __init__(self, size: int = MAX_CACHED_GAMES, chars: int = MAX_CACHED_CHARS) -> None:
        self.size = size
        self.chars = chars
        self._kept_chars = 0
        self._kept: OrderedDict[tuple[str, bool], tuple[int, tuple[Diagnostic, ...]]] = OrderedDict()
        self.checked = 0  # games checked (not found here), for the tests and the benchmark

    def __len__(self) -> int:
        return len(self._kept)

    def diagnostics(self, game: GameText, file: str) -> tuple[Diagnostic, ...]:
        key = (game.text, game.closed)
        kept = self._kept.get(key)
        if kept is not None and (kept[0] == game.first_line or _movable(kept[1])):
            self._kept.move_to_end(key)
            first_line, found = kept
            shift = game.first_line - first_line
            if not shift:
                return found
            return tuple(
                dataclasses.replace(d, line=None if d.line is None else d.line + shift, game=game.index) for d in found
            )
        found = tuple(check_games([game], file, keep_games=False).diagnostics)
        self.checked += 1
        self._kept[key] = (game.first_line, found)
        self._kept.move_to_end(key)
        self._kept_chars += len(game.text)
        while len(self._kept) > self.size or (self._kept_chars > self.chars and len(self._kept) > 1):
            (text, _), _ = self._kept.popitem(last=False)
            self._kept_chars -= len(text)
        return found


#: A message that names a line of the file ("'(' at line 209 column 3 has no ')'").
_NAMES_A_LINE = re.compile(r"\bline [0-9]")


def _movable(found: tuple[Diagnostic, ...]) -> bool:
    """Whether a game's diagnostics may be moved to new lines: not when a message names a line
    (a game cut short, a variation left open), for the message would name the old one."""
    return not any(_NAMES_A_LINE.search(d.message) for d in found)


def check_cut(cut: Cut, file: str, cache: DiagnosticsCache) -> list[Found]:
    """Every diagnostic `arbo check` gives the text, placed, for its first games (see
    MAX_CHECKED_GAMES); past them, one note at the first game left unchecked."""
    steps = check_steps(cut, file, cache)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            found: list[Found] = done.value
            return found


def check_steps(cut: Cut, file: str, cache: DiagnosticsCache) -> Generator[None, None, list[Found]]:
    """check_cut a game at a time: it yields after each game, and returns what check_cut returns
    (the server checks the workspace's files so, answering the editor between two games)."""
    found: list[Diagnostic] = []
    if cut.preamble.strip():
        found += check_games([cut.preamble], file, keep_games=False).diagnostics
    checked = 0
    for game in cut.games:
        checked += len(game.text)
        if game.index > MAX_CHECKED_GAMES or checked > MAX_CHECKED_CHARS:
            found.append(_left_unchecked(cut, game, file))
            break
        found += cache.diagnostics(game, file)
        yield
    return [placed(d, cut.lines) for d in found]


def _left_unchecked(cut: Cut, game: GameText, file: str) -> Diagnostic:
    left = len(cut.games) - game.index + 1
    return Diagnostic(
        Code.FILE,
        f"the editor checks the first {MAX_CHECKED_GAMES} games and {MAX_CHECKED_CHARS >> 20} MB of a file: "
        f"{left} game{'s' if left != 1 else ''} from here on not checked (run arbo check on the file)",
        file,
        game.first_line,
        1,
        game.index,
        severity=Severity.WARNING,
    )


class Lines:
    """The lines of a text by their 1-based numbers ('' past its end), found as far as asked for."""

    __slots__ = ("text", "_starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = [0]

    def __call__(self, number: int) -> str:
        starts, find = self._starts, self.text.find
        while len(starts) < number and starts[-1] >= 0:
            at = find("\n", starts[-1])
            starts.append(at + 1 if at >= 0 else -1)
        if number < 1 or len(starts) < number or starts[number - 1] < 0:
            return ""
        start = starts[number - 1]
        end = find("\n", start)
        return self.text[start : end if end >= 0 else len(self.text)]


def placed(diagnostic: Diagnostic, lines: Lines) -> Found:
    """A diagnostic's range: from its column to the end of the word there (one character at least)."""
    line = (diagnostic.line or 1) - 1
    start = (diagnostic.column or 1) - 1
    text = diagnostic.source_line if diagnostic.source_line is not None else lines(line + 1)
    return Found(line, start, word_end(text, start), diagnostic)


def word_end(text: str, start: int) -> int:
    """Where the word at ``start`` of a line ends: at the next space, one character at least."""
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    return max(end, start + 1)
