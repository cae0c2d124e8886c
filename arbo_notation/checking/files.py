"""Checking record files for `arbo check`: a game at a time, in this process or shared out among
worker processes, with memory for a few games whatever the size of the files.

A file is read block by block and cut into games as it is read (sources.text_blocks,
notation.games.stream_games); each game is checked and dropped (check/games.py). With workers, small
files go to them in batches, by name, and a big file is cut here into runs of games that go to
them as text; the results come back in order and are merged into one summary per file, the same
summaries as a check in this process.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from arbo_notation.checking.games import check_games  # with its modules, loaded before any worker forks
from arbo_notation.errors import ArboError, Code, Diagnostic, NotationErrors, Severity
from arbo_notation.notation.reading.split import GameText, stream_games
from arbo_notation.runtime.sources import decode, normalise, refuse_endless, text_blocks
from arbo_notation.runtime.workers import WorkerPool, usable_cores, worker_pool

if TYPE_CHECKING:
    from concurrent.futures import Future  # the futures module only with the workers


@dataclass(slots=True)
class FileSummary:
    """What a check of one file found, small enough to send back from a worker process."""

    file: str
    games: int = 0
    valid: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False

    # Both counts answer at once for a file with no diagnostic, as most are: `arbo check` asks
    # them of every file (1,000 one-game files: the summary's sums 9.8M -> 3.3M instructions).

    @property
    def errors(self) -> int:
        if not self.diagnostics:
            return 0
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warned(self) -> int:
        """Valid games with a warning (a game with an error is invalid, whatever else it has)."""
        if not self.diagnostics:
            return 0
        faulty = {d.game for d in self.diagnostics if d.severity is Severity.ERROR}
        return len({d.game for d in self.diagnostics if d.severity is Severity.WARNING and d.game is not None} - faulty)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "games": self.games,
            "valid": self.valid,
            "valid_with_warnings": self.warned,
            "invalid": self.games - self.valid,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def unreadable(path: str, error: ArboError) -> FileSummary:
    """The summary of a file that cannot be read, or is not UTF-8 text (with where the bad byte is)."""
    if isinstance(error, NotationErrors):
        diagnostics = [Diagnostic.from_notation_error(e) for e in error.errors]
    else:
        said = str(error).removeprefix(f"{path}: ").removeprefix(f"{_name(path)}: ")
        diagnostics = [Diagnostic(Code.FILE, said, path)]
    return FileSummary(path, diagnostics=diagnostics, unreadable=True)


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def game_pieces(path: str) -> Iterator[str | GameText]:
    """The games of a file as stream_games cuts them, read block by block ('-': standard input,
    read whole). Raises ArboError (NotationErrors for text that is not UTF-8) as read_input does."""
    if path == "-":
        import sys

        refuse_endless(sys.stdin.buffer, "<stdin>")
        return stream_games([normalise(decode(sys.stdin.buffer.read(), "<stdin>"))])
    return stream_games(text_blocks(path))


def check_pieces(name: str, pieces: Iterable[str | GameText]) -> FileSummary:
    """Check games (and the text before the first one) of the file ``name``."""
    check = check_games(pieces, name, keep_games=False)
    return FileSummary(name, check.game_count, check.valid_count, check.diagnostics)


def check_path(path: str) -> FileSummary:
    """Check one file in this process; never raises for bad input."""
    try:
        return check_pieces(_name(path), game_pieces(path))
    except ArboError as error:
        return unreadable(path, error)


def _check_batch(paths: list[str]) -> list[FileSummary]:
    return [check_path(path) for path in paths]


def _check_run(unit: tuple[str, list[str | GameText]]) -> FileSummary:
    return check_pieces(*unit)


# -- how many workers ----------------------------------------------------------------------------

#: What a check costs here, roughly: seconds per byte of records and per file opened.
SECONDS_PER_BYTE = 1 / 8e6
SECONDS_PER_FILE = 2e-4
#: Below this much work, workers cost more than they save: forking and feeding them, and a fifth
#: more work in all than in one process. Measured on two cores, -j 2 against -j 1: 1,000 games
#: (about 0.3 s of work), one file or one per file, 10-25% quicker on a quiet machine and as quick
#: on a busy one; 500 games in one file (0.16 s) as quick; 250 (0.08 s) 15% slower. A spectator's
#: record says less per turn: 1,000 of its games are 1.9 MB (0.23 s by this count).
PARALLEL_FROM_SECONDS = 0.2
#: A file from this size on is cut into runs of games here; smaller files go to workers by name.
SPLIT_FROM = 1 << 20
#: A run of games of a big file, or a batch of small files, holds about this many bytes ...
UNIT_BYTES = 256 << 10
#: ... or this many files.
BATCH_FILES = 64


def _sizes(files: list[str]) -> list[int]:
    sizes = []
    for path in files:
        try:
            sizes.append(os.path.getsize(path) if path != "-" else 0)
        except OSError:
            sizes.append(0)
    return sizes


def idle_cores() -> int:
    """The cores this process may use now: those it may run on, less those other processes keep
    busy (the machine's load over the last minute), and at least one.

    A worker on a core another process keeps busy gets half of it, and pays its start, its
    imports and the shipping of results besides: with one of two cores busy the default once
    ran up to 1.54 times slower than -j 1 (bench_kinds.py). So the default only counts a core
    that is free."""
    usable = usable_cores()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this system: count every core
        return usable
    free = (os.cpu_count() or usable) - load
    return max(1, min(usable, int(free + 0.5)))


def auto_jobs(files: list[str], sizes: list[int] | None = None) -> int:
    """Worker processes for the default -j: none (1, this process) unless the work, by bytes and
    by files, is worth starting them, and unless at least two cores are idle now (a worker on a
    busy core makes a run slower than -j 1); never more than the idle cores or the runs of work."""
    sizes = _sizes(files) if sizes is None else sizes
    work = sum(sizes) * SECONDS_PER_BYTE + len(files) * SECONDS_PER_FILE
    if work < PARALLEL_FROM_SECONDS:
        return 1
    units = sum(max(1, size // UNIT_BYTES) if size >= SPLIT_FROM else 0 for size in sizes)
    small = sum(1 for size in sizes if size < SPLIT_FROM)
    units += -(-small // BATCH_FILES)
    return max(1, min(idle_cores(), 8, units))


# -- checking ------------------------------------------------------------------------------------


def check_files(files: list[str], jobs: int = 0, advance: Callable[[int], None] | None = None) -> list[FileSummary]:
    """Check the files (``jobs`` 0: as auto_jobs chooses); never raises for bad input.
    ``advance(n)`` is called as each ``n`` bytes of input are checked."""
    if jobs == 1 and advance is None:  # (the sizes are for sharing the work, and a progress bar)
        return [check_path(path) for path in files]
    sizes = _sizes(files)
    # No more workers than cores, nor than runs of work: more only cost their start (-j 1000 was
    # 16 times slower than -j 1).
    most = sum(max(1, -(-size // UNIT_BYTES)) for size in sizes)
    jobs = min(jobs, usable_cores(), most) if jobs else auto_jobs(files, sizes)
    advance = advance or (lambda done: None)
    if jobs <= 1:
        summaries = []
        for path, size in zip(files, sizes, strict=True):
            summaries.append(check_path(path))
            advance(size)
        return summaries
    return list(_in_workers(files, sizes, jobs, advance))


#: The work of a check with workers: a batch of small files (their paths, bytes), a run of a big
#: file's games (the file's index, its name, the games, bytes), and the end of a big file (its
#: index, name, and its summary when it could not be read).
_Batch = tuple[Literal["batch"], list[str], int]
_Run = tuple[Literal["run"], int, str, list[str | GameText], int]
_End = tuple[Literal["end"], int, str, FileSummary | None]
_Unit = _Batch | _Run | _End

#: A unit handed out: its kind, its future (a batch's summaries, a run's summary), and as its unit.
_Pending = (
    tuple[Literal["batch"], "Future[list[FileSummary]]", int]
    | tuple[Literal["run"], "Future[FileSummary]", int, str, int]
    | tuple[Literal["end"], None, int, str, FileSummary | None]
)


def _units(files: list[str], sizes: list[int]) -> Iterator[_Unit]:
    """The work, in order: ("batch", paths, bytes), ("run", index of the file, name, pieces, bytes),
    ("end", index of the file, name, summary of an unreadable file or None)."""
    batch: list[str] = []
    batch_bytes = 0
    for number, (path, size) in enumerate(zip(files, sizes, strict=True)):
        if size < SPLIT_FROM and path != "-":  # standard input is read here, never in a worker
            batch.append(path)
            batch_bytes += size
            if len(batch) >= BATCH_FILES or batch_bytes >= UNIT_BYTES:
                yield ("batch", batch, batch_bytes)
                batch, batch_bytes = [], 0
            continue
        if batch:
            yield ("batch", batch, batch_bytes)
            batch, batch_bytes = [], 0
        name = _name(path)
        run: list[str | GameText] = []
        run_bytes = 0
        try:
            for piece in game_pieces(path):
                run.append(piece)
                run_bytes += len(piece if isinstance(piece, str) else piece.text)
                if run_bytes >= UNIT_BYTES:
                    yield ("run", number, name, run, run_bytes)
                    run, run_bytes = [], 0
        except ArboError as error:
            yield ("end", number, name, unreadable(path, error))
            continue
        if run:
            yield ("run", number, name, run, run_bytes)
        yield ("end", number, name, None)
    if batch:
        yield ("batch", batch, batch_bytes)


def _in_workers(files: list[str], sizes: list[int], jobs: int, advance: Callable[[int], None]) -> Iterator[FileSummary]:
    """Each file's summary, in order, the work shared out among ``jobs`` worker processes; at
    most a few runs of games are in flight at a time, so memory stays that of a few runs."""
    window = jobs * 4
    pending: deque[_Pending] = deque()
    parts: dict[int, list[FileSummary]] = {}
    counted: dict[int, int] = {}  # characters of a big file's runs checked so far

    def settle(item: _Pending) -> Iterator[FileSummary]:
        if item[0] == "batch":
            yield from item[1].result()
            advance(item[2])
        elif item[0] == "run":
            parts.setdefault(item[2], []).append(item[1].result())
            counted[item[2]] = counted.get(item[2], 0) + item[4]
            advance(item[4])
        else:
            runs = parts.pop(item[2], [])
            advance(max(0, sizes[item[2]] - counted.pop(item[2], 0)))  # the rest: line ends, a bad tail
            yield item[4] if item[4] is not None else _merge(item[3], runs)

    with worker_pool(jobs, "check") as pool:
        yield from _shared_out(pool, settle, pending, window, files, sizes)


def _shared_out(
    pool: WorkerPool,
    settle: Callable[[_Pending], Iterator[FileSummary]],
    pending: deque[_Pending],
    window: int,
    files: list[str],
    sizes: list[int],
) -> Iterator[FileSummary]:
    """The units handed to the pool's workers, at most ``window`` in flight; summaries in order."""
    for unit in _units(files, sizes):
        if unit[0] == "batch":
            future = pool.submit(_check_batch, unit[1])
            pending.append(("batch", future, unit[2]))
        elif unit[0] == "run":
            pending.append(("run", pool.submit(_check_run, (unit[2], unit[3])), unit[1], unit[2], unit[4]))
        else:
            pending.append(("end", None, unit[1], unit[2], unit[3]))
        while sum(1 for item in pending if item[0] != "end") > window or (pending and pending[0][0] == "end"):
            yield from settle(pending.popleft())
    while pending:
        yield from settle(pending.popleft())


def _merge(name: str, parts: list[FileSummary]) -> FileSummary:
    merged = FileSummary(name)
    for part in parts:
        merged.games += part.games
        merged.valid += part.valid
        merged.diagnostics += part.diagnostics
    return merged
