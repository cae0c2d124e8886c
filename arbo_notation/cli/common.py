"""What every arbo command shares: reading inputs, reporting errors on stderr, exit statuses."""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import typer

from ..errors import ArboError, NotationError
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
    """A located notation error as a compiler shows it; any other as one line."""
    typer.echo(error.show() if isinstance(error, NotationError) else f"arbo: {error}", err=True)


def drop_stdout() -> None:
    """Point standard output at /dev/null, so that Python's last flush at exit finds no broken pipe."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return  # not a real file (a test's runner)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


#: From this much record text on, a command reading a collection shows a progress bar on a terminal.
PROGRESS_FROM_BYTES = 16 << 20


def corpus_progress(files: list[str], label: str):
    """A context giving ``advance(chars)`` to a progress bar on stderr when it is a terminal and
    the files are big, else None."""
    import contextlib

    size = sum(os.path.getsize(f) for f in files if f != "-" and os.path.isfile(f))
    if size < PROGRESS_FROM_BYTES or not sys.stderr.isatty():
        return contextlib.nullcontext(None)

    @contextlib.contextmanager
    def bar():
        with typer.progressbar(length=size, label=label, file=sys.stderr) as progress:
            yield progress.update

    return bar()
