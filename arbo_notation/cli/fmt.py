"""`arbo fmt`: rewrite records in the canonical form, or check that they are in it."""

from __future__ import annotations

from pathlib import Path
from typing import List

import typer

from ..errors import ArboError
from .common import EXIT_INVALID, EXIT_USAGE, echo_error, fail, read_input


def canonical_text(text: str, name: str) -> str:
    """The canonical form of a whole record file; NotationErrors when any game cannot be read."""
    from ..errors import NotationErrors
    from ..notation.reading import parse_all
    from ..notation.writer import format_games

    outcome = parse_all(text, name)
    if outcome.errors:
        raise NotationErrors(outcome.errors)
    return format_games(outcome.games)


def fmt(
    files: List[str] = typer.Argument(..., help="Record files ('-' reads standard input).", metavar="FILE..."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 naming each file not in canonical form."),
    in_place: bool = typer.Option(False, "--in-place", "-i", help="Rewrite the files instead of printing."),
) -> None:
    """Print records in the canonical .arb form (or rewrite them with --in-place).

    The canonical form keeps every comment, glyph, variation and header key; formatting it again
    changes nothing. A file with a syntax error is reported and left as it is.

    Examples:

        arbo fmt game.arb

        arbo fmt --check samples/*.arb

        arbo fmt --in-place game.arb
    """
    if check and in_place:
        fail("--check and --in-place exclude each other", EXIT_USAGE)
    if in_place and "-" in files:
        fail("--in-place cannot rewrite standard input", EXIT_USAGE)
    failed = False
    for path in files:
        try:
            text, name = read_input(path)
            formatted = canonical_text(text, name)
        except ArboError as error:
            _report(error)
            failed = True
            continue
        if check:
            if formatted != text:
                typer.echo(f"would reformat {name}", err=True)
                failed = True
        elif in_place:
            if formatted != text:
                Path(path).write_text(formatted, encoding="utf-8", newline="\n")
                typer.echo(f"reformatted {name}", err=True)
        else:
            typer.echo(formatted, nl=False)
    raise typer.Exit(EXIT_INVALID if failed else 0)


def _report(error: ArboError) -> None:
    errors = getattr(error, "errors", None)
    for single in errors if errors else [error]:
        echo_error(single)


def register(app: typer.Typer) -> None:
    app.command()(fmt)
