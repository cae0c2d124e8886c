"""`arbo fmt`: rewrite records in the canonical form, or check that they are in it."""

from __future__ import annotations

import os
import stat
from typing import List

import typer

from ..errors import ArboError
from ..files import write_atomic
from .common import EXIT_INVALID, EXIT_USAGE, echo_error, fail, read_input


def canonical_text(text: str, name: str) -> str:
    """The canonical form of a whole record file; NotationErrors when any game cannot be read."""
    from ..errors import NotationErrors
    from ..notation.syntax import parse_all
    from ..notation.writer import format_games

    outcome = parse_all(text, name)
    if outcome.errors:
        raise NotationErrors(outcome.errors)
    return format_games(outcome.games)


def fmt(
    files: List[str] = typer.Argument(..., help="Record files ('-' reads standard input).", metavar="FILE..."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 naming each file not in canonical form."),
    in_place: bool = typer.Option(False, "--in-place", "-i", help="Rewrite the files instead of printing."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="With --in-place: do not list the files rewritten."),
) -> None:
    """Print records in the canonical .arb form (or rewrite them with --in-place).

    The canonical form keeps every comment, glyph, variation and header key; formatting it again
    changes nothing. A file with a syntax error is reported and left as it is. With --in-place,
    each file rewritten is named on stderr, then a count such as "2 files reformatted, 1 unchanged".

    Examples:

        arbo fmt game.arb

        arbo fmt --check samples/*.arb

        arbo fmt --in-place game.arb
    """
    if check and in_place:
        fail("--check and --in-place exclude each other", EXIT_USAGE)
    if in_place and "-" in files:
        fail("--in-place cannot rewrite standard input", EXIT_USAGE)
    if in_place:
        _refuse_special_files(files)
    failed = False
    counts = {"reformatted": 0, "unchanged": 0, "not formatted": 0}
    for path in files:
        try:
            text, name = read_input(path)
            formatted = canonical_text(text, name)
        except ArboError as error:
            _report(error)
            failed = True
            counts["not formatted"] += 1
            continue
        if check:
            if formatted != text:
                typer.echo(f"would reformat {name}", err=True)
                failed = True
        elif in_place:
            if formatted != text:
                try:
                    write_atomic(path, formatted)
                except OSError as error:
                    typer.echo(f"arbo: {name}: cannot be written ({error.strerror or error})", err=True)
                    counts["not formatted"] += 1
                    failed = True
                    continue
                counts["reformatted"] += 1
                if not quiet:
                    typer.echo(f"reformatted {name}", err=True)
            else:
                counts["unchanged"] += 1
        else:
            typer.echo(formatted, nl=False)
    if in_place and not quiet:
        typer.echo(fmt_summary(counts), err=True)
    raise typer.Exit(EXIT_INVALID if failed else 0)


def fmt_summary(counts: dict[str, int]) -> str:
    """'2 files reformatted, 1 unchanged' (and how many could not be formatted, if any)."""
    changed = counts["reformatted"]
    parts = [f"{changed} file{'' if changed == 1 else 's'} reformatted", f"{counts['unchanged']} unchanged"]
    if counts["not formatted"]:
        parts.append(f"{counts['not formatted']} not formatted")
    return ", ".join(parts)


def _refuse_special_files(files: list[str]) -> None:
    """Leave (exit 2) when a file to rewrite is a pipe, a socket or a device: only a regular file
    can be replaced by its new copy (and reading a pipe such as /dev/stdin may wait for ever)."""
    for path in files:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            continue  # missing or unreadable: reported with the others when it is read
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # a folder: reported as unreadable
            fail(f"{path}: --in-place rewrites regular files only, and this is not one", EXIT_USAGE)


def _report(error: ArboError) -> None:
    errors = getattr(error, "errors", None)
    for single in errors if errors else [error]:
        echo_error(single)


def register(app: typer.Typer) -> None:
    app.command()(fmt)
