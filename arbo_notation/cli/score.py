"""`arbo score`: score an end position (YAML or JSON) and print the score sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer

from ..errors import ArboError
from .common import EXIT_INVALID, echo_error, read_input

if TYPE_CHECKING:
    from ..engine.scoring import ScoreSheet

HELP = """Score the end of a game: rights, best paths, totals and the winner.

FILE is a position in YAML or JSON (species in play, each player's trees with their cells and the hand revealed at scoring), a game record (.arb: every finished game is replayed and scored), or '-' to read standard input.

For a record of several games, --json prints a list with one score sheet per scored game (each with its "game" number); with one game, or --game N, the sheet alone, exactly as for the position `arbo state --json` prints.

Examples:

    arbo score samples/positions/club-final.yaml

    arbo score --json - < pos.yaml

    arbo score samples/four-players.arb
"""


def score_position_text(text: str, name: str) -> "ScoreSheet":
    """Read a position (YAML or JSON) and score it; PositionError when it is bad."""
    from ..notation.position import read_position

    return read_position(text, name).score()


def is_record(text: str, name: str) -> bool:
    """Whether the input is a game record rather than a position: .arb, or text opening with '---'."""
    if name.endswith(".arb"):
        return True
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(("#", ";")):
            return stripped == "---"
    return False


def score_record_text(text: str, name: str, game: int | None) -> tuple[list[tuple[int, "ScoreSheet"]], bool]:
    """Replay a record and score its valid finished games (or game number ``game``); also say
    whether every game was valid. Diagnostics go to stderr; ArboError when the game asked for
    cannot be scored.
    """
    from ..replayer import check_text

    check = check_text(text, name)
    for diagnostic in check.diagnostics:
        typer.echo(diagnostic.show(), err=True)
    if game is not None and not 1 <= game <= check.game_count:
        raise ArboError(f"{name} holds {check.game_count} game(s); there is no game {game}")
    sheets = []
    for replay in check.games:
        index = replay.record.index
        if game is not None and index != game:
            continue
        if replay.sheet is not None and replay.valid:
            sheets.append((index, replay.sheet))
        elif replay.valid:
            typer.echo(f"{name}: game {index} is not finished: nothing to score", err=True)
    if game is not None and not sheets:
        raise ArboError(f"{name}: game {game} cannot be scored")
    return sheets, check.valid


def register(app: typer.Typer) -> None:
    @app.command("score", help=HELP, short_help="Score an end position: rights, paths, totals, winner.")
    def score(
        file: str = typer.Argument(..., metavar="FILE", help="A position file (YAML or JSON), or '-' for stdin."),
        as_json: bool = typer.Option(False, "--json", help="Print the score sheet as JSON."),
        game: Optional[int] = typer.Option(None, "--game", "-g", help="For a record: only this game (1-based)."),
    ) -> None:
        valid = True
        try:
            text, name = read_input(file)
            if is_record(text, name):
                sheets, valid = score_record_text(text, name, game)
                if not sheets:
                    raise ArboError(f"{name}: no finished game to score")
                single = game is not None or len(sheets) == 1
            else:
                sheets, single = [(0, score_position_text(text, name))], True
        except ArboError as error:
            echo_error(error)
            raise typer.Exit(EXIT_INVALID) from None
        if as_json:
            import json

            from ..report import sheet_to_json

            if single and sheets:
                payload = sheet_to_json(sheets[0][1])
            else:
                payload = [{"game": index, **sheet_to_json(sheet)} for index, sheet in sheets]
            typer.echo(json.dumps(payload, indent=2))
        else:
            from ..report import render_sheet

            for index, sheet in sheets:
                title = None if name == "<stdin>" else name
                if index:
                    title = f"{name}, game {index}"
                typer.echo(render_sheet(sheet, title=title), nl=False)
        raise typer.Exit(0 if valid else EXIT_INVALID)
