"""`arbo merge`: the records of one game made from different seats, joined into one record."""

from __future__ import annotations

from typing import List, Optional

import typer

from arbo_notation.errors import ArboError, NotationErrors
from arbo_notation.game.merge import merge as merge_records
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_games
from arbo_notation.runtime.atomic import write_atomic
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, echo_error, fail, is_an_input, read_input, say_wrote
from arbo_notation.cli.usage import a_path


def merge(
    files: List[str] = typer.Argument(..., metavar="FILE...", help="The seat records of one game (two or more)."),
    out: Optional[str] = typer.Option(
        None,
        "--out",
        "-o",
        metavar="OUT.arb",
        parser=a_path("--out"),
        help="The new file to write (default: standard output); never a file already there.",
    ),
) -> None:
    """Join the records of one game made from different seats into one record.

    Each seat's dealt hand and deck draws are taken from its record, and the records are checked
    against each other turn by turn (the same turns, the same public cards, no card in two
    places); comments and glyphs that not every record shares are kept, marked by whose they
    were. All the seats of a game give the omniscient record. A file of several games is merged
    game by game. A disagreement is an error naming both files and lines.

    Examples:

        arbo merge ana.arb ben.arb -o game.arb

        arbo merge ana.arb ben.arb cleo.arb dev.arb referee.arb > table.arb
    """
    if len(files) < 2:
        fail("merge needs the records of two seats or more", EXIT_USAGE)
    if out is not None and out != "-":
        _refuse_to_write_over(out, files)
    games = []
    for path in files:
        try:
            text, name = read_input(path)
            games.append(parse(text, name))
        except NotationErrors as error:
            for notation_error in error.errors:
                echo_error(notation_error)
            raise typer.Exit(EXIT_INVALID) from None
        except ArboError as error:
            fail(str(error))
    counts = {len(g) for g in games}
    if len(counts) != 1:
        fail(
            "the files hold different numbers of games: "
            + ", ".join(f"{path}: {len(g)}" for path, g in zip(files, games, strict=False))
        )
    try:
        merged = [merge_records(list(seats)) for seats in zip(*games, strict=False)]
        text = format_games(merged)
    except ArboError as error:
        fail(str(error))
    if out is None or out == "-":
        typer.echo(text, nl=False)
        return
    _refuse_to_write_over(out, files)  # made meanwhile
    try:
        write_atomic(out, text)
    except OSError as error:
        fail(f"cannot write {out}: {error.strerror or error}")
    say_wrote(out, f"{len(merged)} game{'' if len(merged) == 1 else 's'} merged")


def _refuse_to_write_over(out: str, files: list[str]) -> None:
    """Leave (exit 1) when OUT is one of the seat records or any file already there: merge
    writes a new file, never over a record it did not make."""
    import os

    read = is_an_input(out, files)
    if read is not None:
        fail(f"{out}: is one of the records merged ({read}): write the merged record to a new file")
    if os.path.lexists(out):
        fail(f"{out}: exists, and arbo merge writes a new file only: remove it, or give another name")


def register(app: typer.Typer) -> None:
    app.command("merge", short_help="Join the records of one game made from different seats into one.")(merge)
