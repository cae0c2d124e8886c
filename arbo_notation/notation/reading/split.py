"""Cutting a source text into games at its '---' header lines, without reading them.

A line that is '---' can only open or close a header, so the cut is exact; every reader starts
here, and none needs lark for it. stream_games cuts a text given block by block, holding one game
at a time, as cut_games cuts a whole text. SourceLines gives a game's lines by their numbers in
its file, for the messages that quote one.
"""

from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Iterable, Iterator
from itertools import chain

# The readers import normalise from here, beside the cutting: exported as such.
from arbo_notation.runtime.sources import normalise as normalise

_HEADER_LINE = re.compile(r"\n---[ \t]*(?=\n|\Z)")


class GameChunk(namedtuple("GameChunk", "start end first_line last_line closed")):
    """Where one game stands in its text: ``start``, the offset of its opening '---'; ``end``, that of
    the next game's '---' (or the end of the text); its ``first_line`` and ``last_line``;
    ``closed``, whether its header has its closing '---'. (A named tuple: see
    arbo_notation/__init__.py on a check's start-up.)"""

    __slots__ = ()


def cut_games(text: str) -> tuple[int, list[GameChunk]]:
    """Cut a text into games at its '---' lines: (end of the text before the first game, games)."""
    marks = [m.start() + 1 for m in _HEADER_LINE.finditer(text)]
    if re.match(r"---[ \t]*(?:\n|\Z)", text):
        marks.insert(0, 0)
    chunks: list[GameChunk] = []
    if not marks:
        return len(text), chunks
    line = text.count("\n", 0, marks[0]) + 1
    for i in range(0, len(marks), 2):
        start = marks[i]
        end = marks[i + 2] if i + 2 < len(marks) else len(text)
        next_line = line + text.count("\n", start, end)
        last_line = next_line - 1 if end < len(text) or text.endswith("\n") else next_line
        chunks.append(GameChunk(start, end, line, max(last_line, line), i + 1 < len(marks)))
        line = next_line
    return marks[0], chunks


#: GameText's counted_last_line of a game whose lines were not counted.
UNCOUNTED = -1


class GameText(namedtuple("GameText", "text first_line counted_last_line closed index")):
    """One game cut from a stream of text: its ``text``, the line of its opening '---' in the file
    (``first_line``), its ``last_line``, whether its header is ``closed``, and its 1-based
    ``index`` in the file. (A named tuple: see arbo_notation/__init__.py on a check's start-up.)

    ``counted_last_line`` is the last line as the cut counted it, or UNCOUNTED for a file's last
    game, whose lines nothing else needs counted: a check never asks (a greedy-2p game's check,
    one game a file, 1,107k -> 1,093k instructions, cachegrind), the outline and the records'
    reader do."""

    __slots__ = ()

    @property
    def last_line(self) -> int:
        """The line of the game's last character (its opening line for a game of one line)."""
        counted: int = self.counted_last_line
        if counted != UNCOUNTED:
            return counted
        text: str = self.text
        first_line: int = self.first_line
        return max(first_line + text.count("\n") - (1 if text.endswith("\n") else 0), first_line)


# A '---' line: after a line end (a pattern that opens with a literal text is searched for
# fast; one that opens with '^' is tried at every character), or at the start of the text.
_MARK = re.compile(r"\n---[ \t]*(?=\n|\Z)")
_MARK_AT_START = re.compile(r"---[ \t]*(?=\n|\Z)")


def _marks(lines: str) -> Iterator[int]:
    """Where the '---' lines of a text that starts at a line's start begin.

    Each candidate is found by str.find and matched where it stands, quicker than the pattern's
    own search of the text (17.1k -> 13.8k instructions for a game of 1 KB)."""
    if lines.startswith("---") and _MARK_AT_START.match(lines):
        yield 0
    at = lines.find("\n---")
    while at >= 0:
        if _MARK.match(lines, at):
            yield at + 1
        at = lines.find("\n---", at + 4)


def stream_games(blocks: Iterable[str]) -> Iterator[str | GameText]:
    """Cut a (normalised) text given block by block into games, holding one game at a time.

    Yields the text before the first header first (a str, often empty), then each game as
    cut_games would cut the whole text: the same texts, lines and closed headers.
    """
    ended = iter(blocks)
    first = next(ended, None)
    second = None if first is None else next(ended, None)
    if second is None:  # the whole text in one block, as a small file is read
        yield from _games_of_whole(first or "")
        return
    carry = ""  # the last line of the blocks so far, not yet ended
    parts: list[str] = []  # the text of the game (or preamble) being read, so far
    start_line = 1
    marks = 0
    index = 0
    rest = chain((first, second), ended)
    while True:
        block = next(rest, None)
        if block is None:
            lines, carry = carry, ""
        else:
            lines = carry + block
            cut = lines.rfind("\n") + 1
            lines, carry = lines[:cut], lines[cut:]
        taken = 0
        for mark in _marks(lines):
            marks += 1
            if marks % 2 == 0:
                continue  # a closing '---'
            parts.append(lines[taken:mark])
            text = "".join(parts)
            line = start_line + text.count("\n")
            yield _piece(text, start_line, line, marks > 1, index)
            start_line = line
            parts, taken, index = [], mark, index + 1
        parts.append(lines[taken:])
        if block is None:
            break
    if marks == 0:
        yield "".join(parts)
        return
    yield GameText("".join(parts), start_line, UNCOUNTED, marks % 2 == 0, index)


def _games_of_whole(text: str) -> Iterator[str | GameText]:
    """stream_games of a text given in one block: cut where it stands, with no line carried from
    block to block and no parts joined (a check of 1,000 one-game files, 1,262.7M -> 1,257.4M
    instructions; bench/README.md, "Issue 49, point 3, fifth branch")."""
    start, line, index, marks = 0, 1, 0, 0
    for mark in _marks(text):
        marks += 1
        if marks % 2 == 0:
            continue  # a closing '---'
        piece = text[start:mark]
        next_line = line + piece.count("\n")
        yield _piece(piece, line, next_line, marks > 1, index)
        start, line, index = mark, next_line, index + 1
    if marks == 0:
        yield text
        return
    yield GameText(text[start:], line, UNCOUNTED, marks % 2 == 0, index)


def _piece(text: str, first_line: int, next_line: int, game: bool, index: int) -> str | GameText:
    """``text``, which runs from line ``first_line`` to the start of ``next_line``, as a game when
    ``game`` (a game followed by another: its header closed)."""
    if not game:
        return text
    last_line = next_line - (1 if text.endswith("\n") else 0)
    return GameText(text, first_line, max(last_line, first_line), True, index)


class SourceLines:
    """Lines of a text that starts at line ``first_line`` of its file, split only when asked for."""

    __slots__ = ("text", "first_line", "lines")

    def __init__(self, text: str, first_line: int = 1) -> None:
        self.text = text
        self.first_line = first_line
        self.lines: list[str] | None = None

    def __call__(self, number: int) -> str:
        """Line ``number`` of the file ('' when it is not in this text)."""
        if self.lines is None:
            self.lines = self.text.split("\n")
        index = number - self.first_line
        return self.lines[index] if 0 <= index < len(self.lines) else ""
