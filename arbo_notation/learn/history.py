"""A player's puzzle history in a small SQLite file: every attempt, and each puzzle's Leitner box.

A puzzle answered right goes up a box (at most :data:`BOXES`) and is due again after its box's
interval (:data:`INTERVALS`); answered wrong, it goes back to box 1 and is due at once, so the
next session asks it first (docs/ANALYSIS.md, "Puzzles"). Each change is one SQLite transaction:
a kill at any moment leaves the history as it was before the answer or after it.

The file may have been edited by hand: a puzzle's row whose box or due time is not one this module
writes is read as no row (the puzzle is new again, and said so through ``warn``); the next answer
writes it whole (docs/COMMANDS.md, "Puzzles and training").
"""

from __future__ import annotations

import math
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from arbo_notation.errors import ArboError

#: The Leitner boxes, and the days after which a puzzle of each box is due again.
BOXES = 5
INTERVALS = (0.0, 1.0, 3.0, 7.0, 21.0)
DAY = 86400.0
#: The latest due time a row may hold: the end of year 9999, the last a date can show.
LAST_DUE = 253402300799.0
#: How long to wait for another program that has the history locked (another `arbo train`).
WAIT_SECONDS = 5.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,      -- the puzzle's hash (analysis/puzzles.py, Puzzle.id)
    box INTEGER NOT NULL,     -- 1 to 5
    due REAL NOT NULL         -- when it is asked again (seconds since the epoch)
);
CREATE TABLE IF NOT EXISTS attempts (
    puzzle TEXT NOT NULL REFERENCES puzzles(id),
    at REAL NOT NULL,
    answer TEXT NOT NULL,
    right INTEGER NOT NULL
);
"""


class HistoryError(ArboError):
    """The history file cannot be opened or is no history."""


class NoHistory(HistoryError):
    """There is no history file yet (when opened for reading only: reading never makes one)."""


def default_path() -> Path:
    """$XDG_DATA_HOME/arbo/train.sqlite (~/.local/share when the variable is not set)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "arbo" / "train.sqlite"


@dataclass(frozen=True, slots=True)
class Card:
    """Where a puzzle stands: its box and when it is due."""

    box: int
    due: float


@dataclass(frozen=True, slots=True)
class Stats:
    """Progress over a set of puzzles."""

    puzzles: int
    tried: int
    due: int
    attempts: int
    right: int
    boxes: tuple[int, ...]  # puzzles per box, box 1 first

    def lines(self) -> list[str]:
        share = f"{100 * self.right / self.attempts:.1f}%" if self.attempts else "-"
        out = [
            f"puzzles: {self.puzzles}, tried {self.tried}, new {self.puzzles - self.tried}, due now {self.due}",
            f"attempts: {self.attempts}, right {self.right} ({share})",
        ]
        out += [f"box {box}: {count}" for box, count in enumerate(self.boxes, 1)]
        return out


class History:
    """The history file, open. Use as a context manager (closes it)."""

    def __init__(
        self, path: str | os.PathLike[str], *, create: bool = True, warn: Callable[[str], None] | None = None
    ) -> None:
        """Open the history at ``path``, made when missing with ``create``; else opened for reading
        only (NoHistory when there is none). ``warn`` hears of each corrupt row met, once."""
        self.path = Path(path)
        self._warn = warn
        self._warned: set[str] = set()
        if not create and not self.path.exists():
            raise NoHistory(f"{self.path}: there is no puzzle history yet")
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, timeout=WAIT_SECONDS)
                with self._db:
                    self._db.executescript(SCHEMA)
                    # a write that changes nothing: a history that is read-only or locked by
                    # another program is said now, not after the first answer
                    [(version,)] = self._db.execute("PRAGMA user_version").fetchall()
                    self._db.execute(f"PRAGMA user_version = {int(version)}")
            else:
                self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=WAIT_SECONDS)
                self._db.execute("SELECT id, box, due FROM puzzles LIMIT 0").fetchall()
        except (sqlite3.Error, OSError) as error:
            raise HistoryError(f"{self.path}: cannot be used as the puzzle history: {error}") from None

    def __enter__(self) -> "History":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def _query(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows, as SQLite gives them (Any: the file is outside arbo's hands, so a value read
        for a puzzle's box and due time is checked, by _row_fault)."""
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise HistoryError(f"{self.path}: {error}") from None

    def card(self, puzzle: str) -> Card | None:
        """Where the puzzle stands; None when it is new, or its row is corrupt (said to ``warn``)."""
        rows = self._query("SELECT box, due FROM puzzles WHERE id = ?", (puzzle,))
        if not rows:
            return None
        box, due = rows[0]
        fault = _row_fault(box, due)
        if fault is None:
            return Card(box, float(due))
        if self._warn is not None and puzzle not in self._warned:
            self._warned.add(puzzle)
            self._warn(f"{self.path}: puzzle {puzzle}'s row is corrupt ({fault}): it is asked as new")
        return None

    def record(self, puzzle: str, answer: str, right: bool, now: float) -> Card:
        """An attempt: the puzzle moves up a box when right (a new one stands in box 1), back to box
        1, due now, when wrong."""
        old = self.card(puzzle)
        box = min(BOXES, (old.box if old else 1) + 1) if right else 1  # a new puzzle stands in box 1
        card = Card(box, now + INTERVALS[box - 1] * DAY if right else now)
        try:
            with self._db:  # one transaction: the attempt and the box together
                self._db.execute(
                    "INSERT INTO puzzles VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET box = excluded.box, due = excluded.due",
                    (puzzle, card.box, card.due),
                )
                self._db.execute("INSERT INTO attempts VALUES (?, ?, ?, ?)", (puzzle, now, answer, int(right)))
        except sqlite3.Error as error:
            raise HistoryError(f"{self.path}: {error}") from None
        return card

    def order(self, puzzles: Iterable[str], now: float) -> list[str]:
        """The puzzles to ask now, first first: those due (the lowest box first, then the longest
        due: a missed one is in box 1), then the new ones in their order. Others wait."""
        due, new = [], []
        for index, puzzle in enumerate(puzzles):
            card = self.card(puzzle)
            if card is None:
                new.append(puzzle)
            elif card.due <= now:
                due.append((card.box, card.due, index, puzzle))
        return [p for *_, p in sorted(due)] + new

    def next_due(self, puzzles: Iterable[str]) -> float | None:
        dues = [card.due for p in puzzles if (card := self.card(p)) is not None]
        return min(dues) if dues else None

    def stats(self, puzzles: Sequence[str] | None, now: float) -> Stats:
        """Progress over ``puzzles`` (None: every puzzle of the history)."""
        ids = [row[0] for row in self._query("SELECT id FROM puzzles")] if puzzles is None else list(puzzles)
        cards = {p: c for p in ids if (c := self.card(p)) is not None}
        attempts = right = 0
        for puzzle in ids:
            [(count, good)] = self._query(
                "SELECT COUNT(*), COALESCE(SUM(right IS 1), 0) FROM attempts WHERE puzzle = ?", (puzzle,)
            )
            attempts += count
            right += good
        boxes = tuple(sum(c.box == box for c in cards.values()) for box in range(1, BOXES + 1))
        return Stats(len(ids), len(cards), sum(c.due <= now for c in cards.values()), attempts, right, boxes)


def _row_fault(box: object, due: object) -> str | None:
    """What is wrong with a puzzle's row as read (None: nothing): a box 1 to BOXES, a due time in
    seconds since the epoch that a date can show."""
    if type(box) is not int or not 1 <= box <= BOXES:
        return f"box {box!r:.40}, not 1 to {BOXES}"
    if isinstance(due, bool) or not isinstance(due, (int, float)) or not (math.isfinite(due) and 0 <= due <= LAST_DUE):
        return f"due {due!r:.40}, not a time"
    return None


def empty_stats(puzzles: int) -> Stats:
    """The progress over ``puzzles`` puzzles when nothing is tried."""
    return Stats(puzzles, 0, 0, 0, 0, (0,) * BOXES)
