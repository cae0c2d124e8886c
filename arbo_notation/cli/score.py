"""`arbo score`: score an end position (YAML or JSON) and print the score sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator, Optional

import typer

from arbo_notation.errors import ArboError, Diagnostic, Severity
from arbo_notation.notation.reading.split import GameText, stream_games
from arbo_notation.present.report import render_sheet, sheet_to_json
from arbo_notation.runtime.sources import normalise, text_blocks
from arbo_notation.runtime.spool import Spool
from arbo_notation.cli.bounds import MOST_GAMES
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, echo_error, echo_text, fail, read_input
from arbo_notation.cli.usage import whole_number

if TYPE_CHECKING:
    from arbo_notation.engine.scoring import ScoreSheet
    from arbo_notation.game.replay import GameReplay

HELP = """Score a game: rights, best paths, totals and the winner.

FILE is a game record (.arb: every finished game is replayed and scored), a position in YAML or JSON (species in play, each player's trees with their cells and the hand revealed at scoring), a position's line (docs/NOTATION.md, "Positions"; every hand known), or '-' to read standard input.

A position taken before the end of the game (`arbo state FILE --turn N --json` marks it `game_over: false`) is scored as if the game ended there, and the report says so; in --json, "game_over" says whether the game was over.

For a record of several games, --json prints a list with one score sheet per scored game (each with its "game" number); with one game, or --game N, the sheet alone, exactly as for the position `arbo state --json` prints.

Examples:

    arbo score samples/positions/club-final.yaml

    arbo score --json - < pos.yaml

    arbo score samples/four-players.arb

    arbo state game.arb --turn 10 --json | arbo score -
"""


def score_position_text(text: str, name: str) -> "ScoreSheet":
    """Read a position (YAML or JSON, or a position's line) and score it (as if the game ended there, when it was not
    over); PositionError when it is bad."""
    # deferred: the position reader (~20 ms, PyYAML among it) loads only for a position, not a record
    from arbo_notation.notation.structured.position import read_position

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


class _Sheets:
    """The score sheets of a record's games, rendered as they come into a spool (text, or JSON
    items of a list), so that a game's replay is dropped once it is scored; the first is also
    kept alone, for a record with one sheet (printed as the sheet itself, not a list)."""

    def __init__(self, name: str, as_json: bool) -> None:
        self.name = name
        self.as_json = as_json
        self.out = Spool()
        self.count = 0
        self.alone = ""

    def add(self, index: int, sheet: "ScoreSheet") -> None:
        if self.as_json:
            import json

            data = sheet_to_json(sheet)
            if not self.count:
                self.alone = json.dumps(data, indent=2)
            item = json.dumps({"game": index, **data}, indent=2).replace("\n", "\n  ")
            self.out.write(("[\n  " if not self.count else ",\n  ") + item)
        else:
            title = None if self.name == "<stdin>" else self.name
            if index:
                title = f"{self.name}, game {index}"
            self.out.write(render_sheet(sheet, title=title))
        self.count += 1

    def pieces(self, single: bool) -> Iterator[str]:
        """The text to print: each sheet, or (JSON) the list of them or the one sheet alone."""
        if self.as_json and single:
            yield self.alone + "\n"
            return
        yield from self.out.pieces()
        if self.as_json:
            yield "\n]\n"

    def close(self) -> None:
        self.out.close()


def score_record(pieces: Iterable[str | GameText], name: str, game: int | None, sheets: _Sheets) -> bool:
    """Replay a record's games (as stream_games cuts them) a game at a time and score its valid
    finished games (or game number ``game`` alone) into ``sheets``; say whether every game asked
    for was valid. Diagnostics go to stderr once every game is read, in the order of the file;
    ArboError when nothing can be scored, and a usage error (exit 2) when there is no game ``game``.
    """
    # deferred: the checker (~20 ms) loads only for a record, not a position
    from arbo_notation.checking.games import check_games

    syntax: list[Diagnostic] = []
    findings: list[Diagnostic] = []
    unfinished: list[int] = []
    unrevealed: list[int] = []

    def each(replay: GameReplay | None, found: list[Diagnostic]) -> None:
        if game is not None:
            found = [d for d in found if d.game == game]
        (findings if replay is not None else syntax).extend(found)
        if replay is None or (game is not None and replay.record.index != game):
            return
        index = replay.record.index
        if replay.sheet is not None and replay.valid:
            sheets.add(index, replay.sheet)
        elif replay.valid:
            over = replay.final is not None and replay.final.is_over
            (unrevealed if over else unfinished).append(index)

    check = check_games(pieces, name, keep_games=False, each=each)
    if game is not None and not 1 <= game <= check.game_count:
        count = check.game_count
        fail(f"{name} holds {count} game{'' if count == 1 else 's'}; there is no game {game}", EXIT_USAGE)
    diagnostics = sorted(syntax + findings, key=lambda d: (d.line or 0, d.column or 0))
    for diagnostic in diagnostics:
        typer.echo(diagnostic.show(), err=True)
    valid = check.valid if game is None else not any(d.severity is Severity.ERROR for d in diagnostics)
    if unfinished or unrevealed:  # one message for them all, and none more when it is why nothing is scored
        reasons = [f"{_games(unfinished)} not finished"] if unfinished else []
        if unrevealed:
            reasons.append(f"{_games(unrevealed)} over but a hand is unknown (add a reveal line)")
        message = f"{name}: {'; '.join(reasons)}: {'not scored' if sheets.count else 'nothing to score'}"
        if not sheets.count:
            raise ArboError(message)
        echo_text(message, err=True)
    if not sheets.count and not diagnostics:
        raise ArboError(f"{name}: no game to score")
    return valid


def _record_pieces(file: str) -> tuple[Iterator[str | GameText] | str, str]:
    """The games of a record file a game at a time (a text: not a record, but a position, whose
    text is given instead), and the name to show."""
    if file != "-" and file.endswith(".arb"):
        return stream_games(text_blocks(file)), file
    text, name = read_input(file)
    if is_record(text, name):
        return stream_games([normalise(text)]), name
    return text, name


def register(app: typer.Typer) -> None:
    @app.command("score", help=HELP, short_help="Score a game or a position: rights, paths, totals, winner.")
    def score(
        file: str = typer.Argument(
            ...,
            metavar="FILE",
            help="A game record (.arb), a position (YAML or JSON), or '-' for standard input.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the score sheet as JSON."),
        game: Optional[int] = typer.Option(
            None,
            "--game",
            "-g",
            metavar="N",
            parser=whole_number("--game", 1, MOST_GAMES),
            help="For a record: only game N (1-based).",
        ),
    ) -> None:
        valid = True
        sheets = None
        try:
            pieces, name = _record_pieces(file)
            output: Iterator[str]
            if not isinstance(pieces, str):
                sheets = _Sheets(name, as_json)
                valid = score_record(pieces, name, game, sheets)
                if not sheets.count:  # the diagnostics said why
                    raise typer.Exit(EXIT_INVALID)
                output = sheets.pieces(game is not None or sheets.count == 1)
            else:
                if game is not None and game != 1:  # a position is one game's
                    fail(f"{name} is a position, of one game; there is no game {game}", EXIT_USAGE)
                output = iter([_position_output(score_position_text(pieces, name), name, as_json)])
            for piece in output:
                echo_text(piece, nl=False)  # the sheet's title is the file's name
        except ArboError as error:
            echo_error(error)
            raise typer.Exit(EXIT_INVALID) from None
        finally:
            if sheets is not None:
                sheets.close()
        raise typer.Exit(0 if valid else EXIT_INVALID)


def _position_output(sheet: "ScoreSheet", name: str, as_json: bool) -> str:
    if as_json:
        import json

        return json.dumps(sheet_to_json(sheet), indent=2) + "\n"
    return render_sheet(sheet, title=None if name == "<stdin>" else name)
