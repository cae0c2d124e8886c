"""The `arbo` command line: the console script's `main`, and the typer app it runs (cli/application.py).

`arbo check` with plain arguments, the command a table and a script run most, is run without
loading typer at all (cli/direct.py reads its arguments, held to typer's reading by
tests/cli/test_cli_direct.py): typer's import is some 40 ms of a command's start-up.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from arbo_notation.runtime.gcpause import imports_frozen
from arbo_notation.runtime.lazy import lazy_exports
from arbo_notation.cli.common import EXIT_INVALID, EXIT_OK, drop_stdout, hold_closed_stdout, unwritable_output

_EXPORTS = {"application": ("COMMANDS", "HELP", "app")}
__all__ = ["main", "COMMANDS", "HELP", "app"]

if TYPE_CHECKING:
    # What a type checker reads instead of the lazy loader (as in arbo_notation/__init__.py)
    from arbo_notation.cli.application import COMMANDS as COMMANDS, HELP as HELP, app as app
else:
    _lazy_names, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


def main() -> None:
    """The console-script entry point. Standard output that cannot be written (closed, a full disk)
    ends any command with one line on stderr and status 1, found by the last flush here at the
    latest; a reader that stops reading ends it quietly with status 0."""
    hold_closed_stdout()
    try:
        try:
            status = _run(sys.argv[1:])
        except SystemExit as leaving:
            status = leaving.code
        sys.stdout.flush()  # what is still buffered: its full disk is found here, not at Python's exit
    except BrokenPipeError:
        drop_stdout()
        status = EXIT_OK
    except OSError as error:
        drop_stdout()
        unwritable_output(error)
        status = EXIT_INVALID
    sys.exit(status)


def _run(args: list[str]) -> int | str | None:
    """Run the command ``arbo ARGS``: a plain check here, anything else by the typer app."""
    if args[:1] == ["check"]:
        with imports_frozen():  # (the collector paused while they are imported: runtime/gcpause.py)
            # deferred: direct.py loads check.py and the checker's modules (some 80 ms of `arbo bot`'s
            # start-up, which needs none of them): importing this package for its app loads no
            # command's module (tests/test_packaging.py), and only a check reads it
            from arbo_notation.cli.direct import run_direct

        status = run_direct(args)
        if status is not None:
            return status
    if args[:1] == ["bot"]:
        # deferred: as above; a bot `arbo match` starts is run without typer (cli/bot_direct.py)
        from arbo_notation.cli.bot_direct import plain_bot_arguments, run_bot

        bot = plain_bot_arguments(args)
        if bot is not None:
            run_bot(bot)
            return EXIT_OK
    # deferred: typer (~40 ms), which a plain check or bot never loads (cli/direct.py, cli/bot_direct.py)
    from arbo_notation.cli.application import app

    app()
    return EXIT_OK
