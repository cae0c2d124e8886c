"""`arbo check`: replay records against the rules and report compiler-style diagnostics.

The command's work is `run_check`, which needs no typer: cli/direct.py runs it straight from plain
arguments, and the typer command made by `register` runs it from any other command line.
"""

from __future__ import annotations

import os
import sys
from collections import namedtuple
from typing import TYPE_CHECKING

from arbo_notation.checking.files import FileSummary
from arbo_notation.checking.files import check_files as check_all
from arbo_notation.errors import Severity, visible
from arbo_notation.runtime.sources import records_under
from arbo_notation.runtime.gcpause import freeze_imports
from arbo_notation.runtime.workers import WorkerLost
from arbo_notation.cli.bounds import MOST_JOBS
from arbo_notation.cli.common import EXIT_INVALID, EXIT_OK, say_skipped

if TYPE_CHECKING:
    import typer

#: A progress bar is shown from this many files, or this many bytes (a few seconds of work).
PROGRESS_FROM = 10
PROGRESS_FROM_BYTES = 16 << 20


def check_files(files: list[str], jobs: int = 0, *, progress: bool = False) -> list[FileSummary]:
    """Check the files (``jobs`` 0: workers when the work is worth them); never raises for bad input."""
    if progress:
        sizes = [os.path.getsize(f) if f != "-" and os.path.isfile(f) else 0 for f in files]
        if len(files) >= PROGRESS_FROM or sum(sizes) >= PROGRESS_FROM_BYTES:
            import typer  # only a terminal's progress bar needs it

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


class CheckArguments(namedtuple("CheckArguments", "files as_json jobs quiet", defaults=(False, 0, False))):
    """What `arbo check` is asked: the ``files`` (a tuple; a folder: its .arb files) and the options,
    ``as_json``, ``jobs`` and ``quiet``. (A named tuple: see arbo_notation/__init__.py on a check's
    start-up.)"""

    __slots__ = ()


def _say(text: str, *, err: bool = False) -> None:
    """One line on stdout (or stderr), flushed as click's echo does."""
    print(text, file=sys.stderr if err else sys.stdout, flush=True)


def run_check(arguments: CheckArguments) -> int:
    """Check the files as `arbo check` does, print the findings (stderr) and the summary or the
    JSON (stdout), and return the exit status: 1 when any game is invalid or a file cannot be read."""
    freeze_imports()
    try:
        summaries = check_files(
            records_under(list(arguments.files), skipped=say_skipped), arguments.jobs, progress=sys.stderr.isatty()
        )
    except WorkerLost as error:
        _say(visible(f"arbo: {error}", "\n"), err=True)
        return EXIT_INVALID
    games = sum(s.games for s in summaries)
    valid = sum(s.valid for s in summaries)
    warned = sum(s.warned for s in summaries)
    failed = any(s.errors or s.unreadable for s in summaries)
    if arguments.as_json:
        import json

        payload = {
            "files": [s.to_json() for s in summaries],
            "games": games,
            "valid": valid,
            "valid_with_warnings": warned,
            "invalid": games - valid,
        }
        _say(json.dumps(payload, indent=2))
    else:
        for summary in summaries:
            for diagnostic in summary.diagnostics:
                if arguments.quiet and diagnostic.severity is not Severity.ERROR:
                    continue
                _say(diagnostic.show(), err=True)
        if not arguments.quiet:
            unreadable = sum(1 for s in summaries if s.unreadable)
            line = f"{_plural(games, 'game')}: {summary_counts(valid, warned, games - valid)}"
            if unreadable:
                line += f"; {_plural(unreadable, 'file')} could not be read"
            _say(line)
    return EXIT_INVALID if failed else EXIT_OK


def register(app: typer.Typer) -> None:
    """Add `arbo check` to the app: typer reads its command line, run_check does the work."""
    import typer

    # deferred: usage.py imports typer (~40 ms), which a plain check never loads (cli/direct.py)
    from arbo_notation.cli.usage import whole_number

    def check(
        files: list[str] = typer.Argument(
            ...,
            help="Record files to check ('-' reads standard input); a folder: the .arb files under it.",
            metavar="FILE...",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON on stdout."),
        jobs: int = typer.Option(
            0,
            "--jobs",
            "-j",
            metavar="N",
            parser=whole_number("--jobs", 0, MOST_JOBS),
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
        raise typer.Exit(run_check(CheckArguments(tuple(files), as_json, jobs, quiet)))

    app.command()(check)
