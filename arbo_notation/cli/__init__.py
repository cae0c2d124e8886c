"""The `arbo` command line: the console script's `main`, and the typer app it runs (cli/application.py).

`arbo check` with plain arguments, the command a table and a script run most, is run without
loading typer at all (cli/direct.py reads its arguments, held to typer's reading by
tests/test_cli_direct.py): typer's import is some 40 ms of a command's start-up.
"""

from __future__ import annotations

import sys

from ..lazy import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {"application": ("COMMANDS", "HELP", "app")})
__all__ = ["main", *__all__]


def main() -> None:
    """The console-script entry point."""
    from .direct import run_direct

    status = run_direct(sys.argv[1:])
    if status is not None:
        sys.exit(status)
    from .application import app

    app()
