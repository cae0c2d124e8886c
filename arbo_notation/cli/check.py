"""`arbo check`: replay records against the rules and report compiler-style diagnostics."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Iterator, List

import typer

from ..errors import ArboError, Diagnostic, Severity
from .common import EXIT_INVALID, EXIT_OK, read_input


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

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "games": self.games,
            "valid": self.valid,
            "invalid": self.games - self.valid,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def check_path(path: str) -> FileSummary:
    """Check one file (or '-' for standard input); never raises for bad input."""
    from ..replay import check_text

    try:
        text, name = read_input(path)
    except ArboError as error:
        return FileSummary(path, diagnostics=[Diagnostic("file", str(error).removeprefix(f"{path}: "), path)],
                           unreadable=True)
    check = check_text(text, name)
    return FileSummary(name, check.game_count, check.valid_count, check.diagnostics)


def _summaries(files: list[str], jobs: int) -> Iterator[FileSummary]:
    if jobs <= 1 or len(files) < 2:
        yield from map(check_path, files)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(check_path, files, chunksize=max(1, len(files) // (jobs * 8)))


def _with_progress(summaries: Iterator[FileSummary], total: int) -> Iterator[FileSummary]:
    """Show a progress bar on stderr for long runs in a terminal."""
    if total < 20 or not sys.stderr.isatty():
        yield from summaries
        return
    with typer.progressbar(length=total, label="checking", file=sys.stderr) as bar:
        for summary in summaries:
            bar.update(1)
            yield summary


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def check(
    files: List[str] = typer.Argument(..., help="Record files to check ('-' reads standard input).", metavar="FILE..."),
    as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON on stdout."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Check this many files in parallel."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print errors only, no warnings or summary."),
) -> None:
    """Check every game of the record files against the rules of Arboretum.

    Each finding is printed on stderr as FILE:LINE:COLUMN: error: MESSAGE, with the source line
    and a caret; a summary closes the run. The exit status is 1 when any game is invalid.

    Examples:

        arbo check samples/two-player-omniscient.arb

        arbo check -j 2 games/*.arb

        arbo check --json game.arb | jq '.files[].diagnostics'
    """
    summaries = list(_with_progress(_summaries(files, jobs), len(files)))
    games = sum(s.games for s in summaries)
    valid = sum(s.valid for s in summaries)
    failed = any(s.errors or s.unreadable for s in summaries)
    if as_json:
        payload = {
            "files": [s.to_json() for s in summaries],
            "games": games,
            "valid": valid,
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
            line = f"{_plural(games, 'game')}: {valid} valid, {games - valid} invalid"
            if unreadable:
                line += f"; {_plural(unreadable, 'file')} could not be read"
            typer.echo(line)
    raise typer.Exit(EXIT_INVALID if failed else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command()(check)

