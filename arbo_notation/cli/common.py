"""What every arbo command shares: reading inputs, reporting errors on stderr, exit statuses."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import typer

from ..errors import ArboError

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


def read_input(path: str) -> tuple[str, str]:
    """The text of a file, or of standard input for '-', with the name to show in messages."""
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        file = Path(path)
        try:
            data = file.read_bytes()
        except FileNotFoundError:
            raise ArboError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise ArboError(f"{path}: is a directory, not a file") from None
        except OSError as error:
            raise ArboError(f"{path}: cannot be read ({error.strerror})") from None
        name = path
    try:
        return data.decode("utf-8-sig"), name
    except UnicodeDecodeError as error:
        raise ArboError(f"{name}: not UTF-8 text (byte {error.start + 1} is not valid)") from None


def fail(message: str, status: int = EXIT_INVALID) -> NoReturn:
    """Print one message on stderr and leave with the given status."""
    typer.echo(f"arbo: {message}", err=True)
    raise typer.Exit(status)


def echo_error(error: ArboError) -> None:
    show = getattr(error, "show", None)
    typer.echo(show() if callable(show) else f"arbo: {error}", err=True)
