"""`arbo score`: score an end position (YAML or JSON) and print the score sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Optional

import typer

from ..errors import ArboError
from .common import EXIT_INVALID, echo_error, read_input

if TYPE_CHECKING:
    from ..engine.scoring import ScoreSheet
    from ..replayer import GameReplay

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


def score_records(pieces: Iterable, name: str, game: int | None,
                  show: Callable[[int, "ScoreSheet"], None]) -> bool:
    """Replay the games of a record (as stream_games cuts them) one at a time and score its valid
    finished games (or game number ``game``), handing each sheet to ``show`` as it comes; say
    whether every game was valid. Diagnostics go to stderr as they are found, in the order of the
    file; ArboError when the game asked for cannot be scored."""
    from ..gamecheck import check_games

    notes: list[str] = []  # said after every diagnostic, as a check of the whole file says them
    shown = 0

    def each(replay: "GameReplay | None", found: list) -> None:
        nonlocal shown
        for diagnostic in found:
            typer.echo(diagnostic.show(), err=True)
        if replay is None or (game is not None and replay.record.index != game):
            return
        if replay.sheet is not None and replay.valid:
            show(replay.record.index, replay.sheet)
            shown += 1
        elif replay.valid:
            notes.append(f"{name}: game {replay.record.index} is not finished: nothing to score")

    check = check_games(pieces, name, each=each)
    if game is not None and not 1 <= game <= check.game_count:
        raise ArboError(f"{name} holds {check.game_count} game(s); there is no game {game}")
    for note in notes:
        typer.echo(note, err=True)
    if game is not None and not shown:
        raise ArboError(f"{name}: game {game} cannot be scored")
    return check.valid


class _Sheets:
    """Prints score sheets as they come, exactly as printing them all at the end would: the
    sheet alone when there is one (so the first waits for a second), else a list."""

    def __init__(self, name: str, as_json: bool) -> None:
        self.name = name
        self.as_json = as_json
        self.waiting: tuple[int, "ScoreSheet"] | None = None
        self.count = 0

    def show(self, index: int, sheet: "ScoreSheet") -> None:
        self.count += 1
        if self.count == 1:
            self.waiting = (index, sheet)
            return
        if self.waiting is not None:
            self._print(*self.waiting, first=True)
            self.waiting = None
        self._print(index, sheet, first=False)

    def _print(self, index: int, sheet: "ScoreSheet", first: bool) -> None:
        if self.as_json:
            import json

            from ..report import sheet_to_json

            element = json.dumps({"game": index, **sheet_to_json(sheet)}, indent=2)
            lines = "\n".join("  " + line for line in element.split("\n"))
            typer.echo(("[\n" if first else ",\n") + lines, nl=False)
        else:
            typer.echo(self._render(index, sheet), nl=False)

    def _render(self, index: int, sheet: "ScoreSheet") -> str:
        from ..report import render_sheet

        title = None if self.name == "<stdin>" else self.name
        if index:
            title = f"{self.name}, game {index}"
        return render_sheet(sheet, title=title)

    def close(self, single: bool) -> None:
        """Print what waits: the one sheet (alone when ``single``), or the end of the list."""
        if self.waiting is not None:
            index, sheet = self.waiting
            if self.as_json:
                import json

                from ..report import sheet_to_json

                if single:
                    typer.echo(json.dumps(sheet_to_json(sheet), indent=2))
                else:
                    self._print(index, sheet, first=True)
                    typer.echo("\n]")
            else:
                typer.echo(self._render(index, sheet), nl=False)
        elif self.count and self.as_json:
            typer.echo("\n]")


def register(app: typer.Typer) -> None:
    @app.command("score", help=HELP, short_help="Score an end position: rights, paths, totals, winner.")
    def score(
        file: str = typer.Argument(..., metavar="FILE", help="A position file (YAML or JSON), or '-' for stdin."),
        as_json: bool = typer.Option(False, "--json", help="Print the score sheet as JSON."),
        game: Optional[int] = typer.Option(None, "--game", "-g", help="For a record: only this game (1-based)."),
    ) -> None:
        valid = True
        sheets = _Sheets(file, as_json)
        try:
            if file != "-" and file.endswith(".arb"):
                from ..notation.games import stream_games
                from ..sources import text_blocks

                for _ in text_blocks(file, normalised=False):
                    pass  # a fault of the bytes is said before anything else, as a whole read does
                sheets.name = file
                valid = score_records(stream_games(text_blocks(file)), file, game, sheets.show)
            else:
                text, name = read_input(file)
                sheets.name = name
                if is_record(text, name):
                    from ..notation.games import normalise, stream_games

                    valid = score_records(stream_games([normalise(text)]), name, game, sheets.show)
                else:
                    sheets.show(0, score_position_text(text, name))
            if not sheets.count:
                raise ArboError(f"{sheets.name}: no finished game to score")
        except ArboError as error:
            echo_error(error)
            raise typer.Exit(EXIT_INVALID) from None
        sheets.close(single=game is not None or sheets.count == 1)
        raise typer.Exit(0 if valid else EXIT_INVALID)
