"""`arbo fmt`: rewrite records in the canonical form, or check that they are in it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator, List

import typer

from ..errors import ArboError
from .common import EXIT_INVALID, EXIT_USAGE, echo_error, fail, read_input

if TYPE_CHECKING:
    from ..spool import Spool


def canonical_text(text: str, name: str) -> str:
    """The canonical form of a whole record file; NotationErrors when any game cannot be read."""
    from ..errors import NotationErrors
    from ..notation.reading import parse_all
    from ..notation.writer import format_games

    outcome = parse_all(text, name)
    if outcome.errors:
        raise NotationErrors(outcome.errors)
    return format_games(outcome.games)


def _sources(path: str) -> tuple[str, Iterator, Callable[[], Iterator[str]]]:
    """A file's name, its games as stream_games cuts them, and its text as read (for --check)."""
    from ..notation.games import normalise, stream_games
    from ..sources import text_blocks

    if path == "-":
        text, name = read_input(path)
        return name, stream_games([normalise(text)]), lambda: iter([text])
    return path, stream_games(text_blocks(path)), lambda: text_blocks(path, normalised=False)


def format_file(name: str, pieces: Iterator, out: "Spool") -> list:
    """Write the canonical form of a file's games into ``out``, a game at a time (as
    canonical_text gives it whole); the syntax errors, when there are any (then ``out`` is not
    to be used)."""
    from ..notation.reading import read_pieces
    from ..notation.writer import format_game

    errors = []
    first = True
    for span, game in read_pieces(pieces, name):
        if span.error is not None:
            errors.append(span.error)
        if game is not None and not errors:
            out.write(format_game(game) if first else "\n" + format_game(game))
            first = False
    return errors


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
    from ..errors import NotationErrors
    from ..spool import Spool, replace_file, same_text

    if check and in_place:
        fail("--check and --in-place exclude each other", EXIT_USAGE)
    if in_place and "-" in files:
        fail("--in-place cannot rewrite standard input", EXIT_USAGE)
    failed = False
    for path in files:
        with Spool() as formatted:
            try:
                name, pieces, original = _sources(path)
                errors = format_file(name, pieces, formatted)
                if errors:
                    raise NotationErrors(errors)
                if check or in_place:
                    same = same_text(formatted.pieces(), original())
            except ArboError as error:
                _report(error)
                failed = True
                continue
            if check:
                if not same:
                    typer.echo(f"would reformat {name}", err=True)
                    failed = True
            elif in_place:
                if not same:
                    replace_file(path, formatted.pieces())
                    typer.echo(f"reformatted {name}", err=True)
            else:
                for piece in formatted.pieces():  # a game at a time, as one echo of the whole
                    typer.echo(piece, nl=False)
    raise typer.Exit(EXIT_INVALID if failed else 0)


def _report(error: ArboError) -> None:
    errors = getattr(error, "errors", None)
    for single in errors if errors else [error]:
        echo_error(single)


def register(app: typer.Typer) -> None:
    app.command()(fmt)
