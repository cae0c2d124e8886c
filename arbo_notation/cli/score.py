"""`arbo score`: score an end position (YAML or JSON) and print the score sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer

from ..errors import ArboError, Severity
from .common import EXIT_INVALID, EXIT_USAGE, echo_error, fail, read_input
from .usage import whole_number

if TYPE_CHECKING:
    from ..engine.scoring import ScoreSheet

HELP = """Score a game: rights, best paths, totals and the winner.

FILE is a game record (.arb: every finished game is replayed and scored), a position in YAML or JSON (species in play, each player's trees with their cells and the hand revealed at scoring), or '-' to read standard input.

A position taken before the end of the game (`arbo state FILE --turn N --json` marks it `game_over: false`) is scored as if the game ended there, and the report says so; in --json, "game_over" says whether the game was over.

For a record of several games, --json prints a list with one score sheet per scored game (each with its "game" number); with one game, or --game N, the sheet alone, exactly as for the position `arbo state --json` prints.

Examples:

    arbo score samples/positions/club-final.yaml

    arbo score --json - < pos.yaml

    arbo score samples/four-players.arb

    arbo state game.arb --turn 10 --json | arbo score -
"""


def score_position_text(text: str, name: str) -> "ScoreSheet":
    """Read a position (YAML or JSON) and score it (as if the game ended there, when it was not
    over); PositionError when it is bad."""
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


def _games(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"game {numbers[0]} is"
    return f"games {', '.join(map(str, numbers[:-1]))} and {numbers[-1]} are"


def score_record_text(text: str, name: str, game: int | None) -> tuple[list[tuple[int, "ScoreSheet"]], bool]:
    """Replay a record and score its valid finished games (or game number ``game`` alone); also say
    whether every game asked for was valid. Diagnostics go to stderr; ArboError when nothing can be
    scored, and a usage error (exit 2) when there is no game ``game``.
    """
    from ..replayer import check_text

    check = check_text(text, name)
    if game is not None and not 1 <= game <= check.game_count:
        count = check.game_count
        fail(f"{name} holds {count} game{'' if count == 1 else 's'}; there is no game {game}", EXIT_USAGE)
    diagnostics = [d for d in check.diagnostics if game is None or d.game == game]
    for diagnostic in diagnostics:
        typer.echo(diagnostic.show(), err=True)
    valid = check.valid if game is None else not any(d.severity is Severity.ERROR for d in diagnostics)
    sheets, unfinished, unrevealed = [], [], []
    for replay in check.games:
        index = replay.record.index
        if game is not None and index != game:
            continue
        if replay.sheet is not None and replay.valid:
            sheets.append((index, replay.sheet))
        elif replay.valid:
            over = replay.final is not None and replay.final.is_over
            (unrevealed if over else unfinished).append(index)
    if unfinished or unrevealed:  # one message for them all, and none more when it is why nothing is scored
        reasons = [f"{_games(unfinished)} not finished"] if unfinished else []
        if unrevealed:
            reasons.append(f"{_games(unrevealed)} over but a hand is unknown (add a reveal line)")
        message = f"{name}: {'; '.join(reasons)}: {'not scored' if sheets else 'nothing to score'}"
        if not sheets:
            raise ArboError(message)
        typer.echo(message, err=True)
    if not sheets and not diagnostics:
        raise ArboError(f"{name}: no game to score")
    return sheets, valid


def register(app: typer.Typer) -> None:
    @app.command("score", help=HELP, short_help="Score a game or a position: rights, paths, totals, winner.")
    def score(
        file: str = typer.Argument(
            ..., metavar="FILE",
            help="A game record (.arb), a position (YAML or JSON), or '-' for standard input.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the score sheet as JSON."),
        game: Optional[int] = typer.Option(
            None, "--game", "-g", metavar="N", parser=whole_number("--game", 1),
            help="For a record: only game N (1-based).",
        ),
    ) -> None:
        valid = True
        try:
            text, name = read_input(file)
            if is_record(text, name):
                sheets, valid = score_record_text(text, name, game)
                if not sheets:  # the diagnostics said why
                    raise typer.Exit(EXIT_INVALID)
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
