"""What every arbo command shares: reading inputs, reporting errors on stderr, exit statuses."""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

import click
import typer
from typer.core import TyperGroup

from ..errors import ArboError
from ..sources import decode, read_text

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


def read_input(path: str) -> tuple[str, str]:
    """The text of a file, or of standard input for '-', with the name to show in messages."""
    if path == "-":
        return decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    return read_text(path)


def fail(message: str, status: int = EXIT_INVALID) -> NoReturn:
    """Print one message on stderr and leave with the given status."""
    typer.echo(f"arbo: {message}", err=True)
    raise typer.Exit(status)


def echo_error(error: ArboError) -> None:
    show = getattr(error, "show", None)
    typer.echo(show() if callable(show) else f"arbo: {error}", err=True)


class ArboGroup(TyperGroup):
    """The command group: a reader that stops reading (``arbo replay --plain g.arb | head``) ends
    any command quietly with status 0, as if all had been read."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # what is still buffered: its broken pipe is found here, not at exit
        except BrokenPipeError:
            _drop_stdout()
            raise typer.Exit(EXIT_OK) from None


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that Python's last flush at exit finds no broken pipe."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return  # not a real file (a test's runner)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)
