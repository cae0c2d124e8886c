"""`arbo check`: replay records against the rules and report compiler-style diagnostics."""

from __future__ import annotations

import gc
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Callable, Iterator, List

import typer

from ..errors import ArboError, Code, Diagnostic, NotationErrors, Severity
from .common import EXIT_INVALID, EXIT_OK, read_input
from .usage import whole_number


@dataclass(slots=True)
class FileSummary:
    """What a check of one file found, small enough to send back from a worker process."""

    file: str
    games: int = 0
    valid: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warned(self) -> int:
        """Valid games with a warning (a game with an error is invalid, whatever else it has)."""
        faulty = {d.game for d in self.diagnostics if d.severity is Severity.ERROR}
        return len({d.game for d in self.diagnostics if d.severity is Severity.WARNING and d.game is not None} - faulty)

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "games": self.games,
            "valid": self.valid,
            "valid_with_warnings": self.warned,
            "invalid": self.games - self.valid,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def _unreadable(path: str, error: ArboError) -> FileSummary:
    if isinstance(error, NotationErrors):  # text that is not UTF-8: where the bad byte is
        diagnostics = [Diagnostic.from_notation_error(e) for e in error.errors]
    else:
        diagnostics = [Diagnostic(Code.FILE, str(error).removeprefix(f"{path}: "), path)]
    return FileSummary(path, diagnostics=diagnostics, unreadable=True)


def check_part(name: str, text: str, games_before: int) -> FileSummary:
    """Check a run of whole games of a file, ``games_before`` games into it."""
    from dataclasses import replace

    from ..replayer import check_text

    check = check_text(text, name, keep_games=False)
    diagnostics = check.diagnostics
    if games_before:
        diagnostics = [d if d.game is None else replace(d, game=d.game + games_before) for d in diagnostics]
    return FileSummary(name, check.game_count, check.valid_count, diagnostics)


def _check_unit(unit: tuple[str, str, int]) -> FileSummary:
    return check_part(*unit)


def _merge(name: str, parts: list[FileSummary]) -> FileSummary:
    merged = FileSummary(name)
    for part in parts:
        merged.games += part.games
        merged.valid += part.valid
        merged.diagnostics += part.diagnostics
    return merged


#: Below this many bytes of input, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 1 << 20


def _auto_jobs(files: list[str]) -> int:
    """Every core when the files are big enough to be worth sharing out, else 1."""
    total = 0
    for path in files:
        try:
            total += os.path.getsize(path) if path != "-" else 0
        except OSError:
            continue
    return min(os.cpu_count() or 1, 8) if total >= PARALLEL_THRESHOLD else 1


def _worker_cap(jobs: int, runs: int | None) -> int:
    """No more workers than the cores this process may use, nor than runs of games to check: more
    only cost their start (-j 1000 was sixteen times slower than -j 1)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(jobs, cores, jobs if runs is None else runs))


#: Games per run of work: small enough for a progress bar to move, big enough to cost nothing.
GAMES_PER_UNIT = 200


def _plan(files: list[str], jobs: int) -> tuple[list, list[tuple[str, str, int]]]:
    """Read the files and cut them into runs of whole games: the plan (per file, an unreadable
    file's summary or its name and number of runs) and the runs to check."""
    from ..notation.games import normalise, split_games

    plan: list[FileSummary | tuple[str, int]] = []
    units: list[tuple[str, str, int]] = []
    for path in files:
        try:
            text, name = read_input(path)
        except ArboError as error:
            plan.append(_unreadable(path, error))
            continue
        text = normalise(text)
        parts = max(jobs * 4 if jobs > 1 else 1, text.count("\n---") // (2 * GAMES_PER_UNIT))
        runs = split_games(text, parts)
        plan.append((name, len(runs)))
        units += [(name, part, before) for before, part in runs]
    return plan, units


def _summaries(plan: list, units: list[tuple[str, str, int]], jobs: int,
               advance: Callable[[int], None]) -> Iterator[FileSummary]:
    """Each file's summary, in order: the runs checked in this process or, with ``jobs`` > 1, in
    worker processes; ``advance(1)`` after each run."""
    if jobs <= 1:
        yield from _collect(plan, map(_check_unit, units), advance)
        return
    from concurrent.futures import ProcessPoolExecutor

    # Import the check's modules once, before the workers fork. Not the parser's: lark takes a
    # tenth of a second to load, and only a game that is not in the plain form needs it.
    from .. import replayer  # noqa: F401
    from ..notation import games  # noqa: F401

    # Frozen objects are left alone by the collector, so forked workers do not copy the pages
    # of everything the parent holds just by collecting garbage.
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done = pool.map(_check_unit, units, chunksize=max(1, len(units) // (jobs * 8)))
            yield from _collect(plan, done, advance)
    finally:
        gc.unfreeze()


def _collect(plan: list, done: Iterator[FileSummary], advance: Callable[[int], None]) -> Iterator[FileSummary]:
    """Merge the runs' summaries back into one summary a file, in the files' order."""
    for entry in plan:
        if isinstance(entry, FileSummary):
            yield entry
            continue
        name, count = entry
        parts = []
        for _ in range(count):
            parts.append(next(done))
            advance(1)
        yield _merge(name, parts)


#: A progress bar is shown from this many runs of games on (a few seconds of work).
PROGRESS_FROM = 10


def check_files(files: list[str], jobs: int = 0, *, progress: bool = False) -> list[FileSummary]:
    """Check the files (``jobs`` 0: every core for a big input); never raises for bad input."""
    jobs = _worker_cap(jobs or _auto_jobs(files), None)
    plan, units = _plan(files, jobs)
    jobs = _worker_cap(jobs, len(units))
    if progress and len(units) >= PROGRESS_FROM:
        with typer.progressbar(length=len(units), label="checking", file=sys.stderr) as bar:
            return list(_summaries(plan, units, jobs, bar.update))
    return list(_summaries(plan, units, jobs, lambda done: None))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_counts(valid: int, warned: int, invalid: int) -> str:
    """'9 valid, 2 valid with warnings, 1 invalid': the games with warnings apart from the clean."""
    if not warned:
        return f"{valid} valid, {invalid} invalid"
    return f"{valid - warned} valid, {warned} valid with warnings, {invalid} invalid"


def check(
    files: List[str] = typer.Argument(..., help="Record files to check ('-' reads standard input).", metavar="FILE..."),
    as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON on stdout."),
    jobs: int = typer.Option(
        0, "--jobs", "-j", metavar="N", parser=whole_number("--jobs", 0),
        help="Worker processes: 1 checks in this process; 0 (the default) uses every core for big inputs.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print errors only, no warnings or summary."),
) -> None:
    """Check every game of the record files against the rules of Arboretum.

    Each finding is printed on stderr as FILE:LINE:COLUMN: error: MESSAGE, with the source line
    and a caret; a summary closes the run, such as "12 games: 9 valid, 2 valid with warnings,
    1 invalid". In --json, "valid" counts every valid game and "valid_with_warnings" those of them
    with a warning. The exit status is 1 when any game is invalid or a file cannot be read.

    Big inputs (a megabyte and more) are shared out among worker processes, one per core, whole games at a time; -j sets their number, -j 1 checks in this process.

    Examples:

        arbo check samples/two-player-omniscient.arb

        arbo check games/*.arb -j 2

        arbo check --json game.arb | jq '.files[].diagnostics'
    """
    summaries = check_files(files, jobs, progress=sys.stderr.isatty())
    games = sum(s.games for s in summaries)
    valid = sum(s.valid for s in summaries)
    warned = sum(s.warned for s in summaries)
    failed = any(s.errors or s.unreadable for s in summaries)
    if as_json:
        payload = {
            "files": [s.to_json() for s in summaries],
            "games": games,
            "valid": valid,
            "valid_with_warnings": warned,
            "invalid": games - valid,
        }
        typer.echo(json.dumps(payload, indent=2))
    else:
        for summary in summaries:
            for diagnostic in summary.diagnostics:
                if quiet and diagnostic.severity is not Severity.ERROR:
                    continue
                typer.echo(diagnostic.show(), err=True)
        if not quiet:
            unreadable = sum(1 for s in summaries if s.unreadable)
            line = f"{_plural(games, 'game')}: {summary_counts(valid, warned, games - valid)}"
            if unreadable:
                line += f"; {_plural(unreadable, 'file')} could not be read"
            typer.echo(line)
    raise typer.Exit(EXIT_INVALID if failed else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(check)

