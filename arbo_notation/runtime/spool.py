"""Output written a piece at a time, kept out of memory: held in a temporary file until the command
knows it succeeded, or written to a new copy that replaces a file whole."""

from __future__ import annotations

import tempfile
from typing import Iterable, Iterator


class Spool:
    """Text written a piece at a time into an unnamed temporary file, then given back piece by
    piece (so a command prints nothing when it fails half-way, and holds no more than a piece)."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")
        self._sizes: list[int] = []

    def write(self, text: str) -> None:
        if text:
            self._file.write(text)
            self._sizes.append(len(text))

    def __bool__(self) -> bool:
        return bool(self._sizes)

    def pieces(self) -> Iterator[str]:
        """The pieces written, in order (characters, not bytes: the file is read as text)."""
        self._file.flush()
        self._file.seek(0)
        for size in self._sizes:
            yield self._file.read(size)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> "Spool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def same_text(pieces: Iterable[str], blocks: Iterable[str]) -> bool:
    """Whether two texts, each given in pieces of any sizes, are the same text."""
    mine, theirs = iter(pieces), iter(blocks)
    left: str | None = ""
    right: str | None = ""
    i = j = 0  # how far into ``left`` and ``right`` the texts agree
    while True:
        while left is not None and i == len(left):
            left, i = next(mine, None), 0
        while right is not None and j == len(right):
            right, j = next(theirs, None), 0
        if left is None or right is None:
            return left is None and right is None
        size = min(len(left) - i, len(right) - j)
        if left[i : i + size] != right[j : j + size]:
            return False
        i += size
        j += size
