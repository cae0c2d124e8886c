"""`arbo check`: replay records against the rules and report compiler-style diagnostics."""

from __future__ import annotations

import json
import os
import sys
from typing import List

import typer

from ..checkfiles import FileSummary
from ..errors import Severity
from ..sources import records_under
from .common import EXIT_INVALID, EXIT_OK, fail
from .usage import whole_number


#: A progress bar is shown from this many files, or this many bytes (a few seconds of work).
PROGRESS_FROM = 10
PROGRESS_FROM_BYTES = 16 << 20


def check_files(files: list[str], jobs: int = 0, *, progress: bool = False) -> list[FileSummary]:
    """Check the files (``jobs`` 0: workers when the work is worth them); never raises for bad input."""
    from ..checkfiles import check_files as check_all

    if progress:
        sizes = [os.path.getsize(f) if f != "-" and os.path.isfile(f) else 0 for f in files]
        if len(files) >= PROGRESS_FROM or sum(sizes) >= PROGRESS_FROM_BYTES:
            with typer.progressbar(length=max(1, sum(sizes)), label="checking", file=sys.stderr) as bar:
                return check_all(files, jobs, bar.update)
    return check_all(files, jobs)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_counts(valid: int, warned: int, invalid: int) -> str:
    """'9 valid, 2 valid with warnings, 1 invalid': the games with warnings apart from the clean."""
    if not warned:
        return f"{valid} valid, {invalid} invalid"
    return f"{valid - warned} valid, {warned} valid with warnings, {invalid} invalid"


def check(
    files: List[str] = typer.Argument(..., help="Record files to check ('-' reads standard input); a folder: the .arb files under it.",
                              metavar="FILE..."),
    as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON on stdout."),
    jobs: int = typer.Option(
        0, "--jobs", "-j", metavar="N", parser=whole_number("--jobs", 0),
        help="Worker processes: 1 checks in this process; 0 (the default) uses the cores idle now for big inputs.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print errors only, no warnings or summary."),
) -> None:
    """Check every game of the record files against the rules of Arboretum.

    Each finding is printed on stderr as FILE:LINE:COLUMN: error: MESSAGE, with the source line
    and a caret; a summary closes the run, such as "12 games: 9 valid, 2 valid with warnings,
    1 invalid". In --json, "valid" counts every valid game and "valid_with_warnings" those of them
    with a warning. The exit status is 1 when any game is invalid or a file cannot be read.

    Big inputs (from about a thousand games: two megabytes, or a thousand files) are shared out among worker processes, one per idle core (the cores this process may run on, less the machine's load over the last minute; with fewer than two idle, none), whole games at a time; -j sets their number, -j 1 checks in this process.

    Examples:

        arbo check samples/two-player-omniscient.arb

        arbo check games/*.arb -j 2

        arbo check games/

        arbo check --json game.arb | jq '.files[].diagnostics'
    """
    from ..checkfiles import WorkerLost

    try:
        summaries = check_files(records_under(files), jobs, progress=sys.stderr.isatty())
    except WorkerLost as error:
        fail(str(error), EXIT_INVALID)
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

