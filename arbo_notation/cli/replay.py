"""`arbo replay`: step through a recorded game in a terminal UI, or as plain text.

Only the terminal UI imports textual, and only when it really opens (or renders a screenshot).
"""

from __future__ import annotations

import sys
from typing import Optional

import typer

from ..errors import ArboError
from .common import EXIT_INVALID, EXIT_USAGE, fail

HELP = """Step through a recorded game turn by turn, with the scoring at the end.

In a terminal this opens the replayer: every arboretum as a grid of coloured cards, the hands (unseen cards as ??), the discard piles, the deck, the move list and the comments. Keys: → or l next turn, ← or h previous, Home/End, g go to a turn, v enter or leave a variation, p whose view (all hands, or one player's with the others' hands hidden), s the scoring, d whole discard piles, m the move list, S save a screenshot, ? help, q quit.

With --plain, or when the output is not a terminal, it prints each turn in notation and the board after it, then the scoring. A record with rule errors is replayed up to its last legal turn, the error shown there and on stderr (and the exit status is 1).

Examples:

    arbo replay game.arb

    arbo replay games.arb --game 3 --turn 12 --as Ana

    arbo replay game.arb --plain | less

    arbo replay game.arb --turn 20 --screenshot turn20.svg
"""

#: Values of --as that mean every hand shown (unless a player has that name).
OMNISCIENT = ("all", "*", "none")


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        fail(f"--size takes WIDTHxHEIGHT, such as 120x40, not {text!r}", 2)
    if not (40 <= width <= 500 and 10 <= height <= 300):
        fail(f"--size {text}: the width is 40 to 500 and the height 10 to 300", 2)
    return width, height


def _load(file: str, game_number: int):
    from ..tui.model import ReplayModel
    from .state import load_replay

    try:
        replay = load_replay(file, game_number, keep_states=True)
        return ReplayModel(replay)
    except ArboError as error:
        fail(str(error))


def _screenshot(model, size: tuple[int, int]) -> str:
    """Render the replayer at the model's position headlessly; the SVG text."""
    import asyncio

    from ..tui.app import ReplayApp

    async def render() -> str:
        app = ReplayApp(model)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return app.export_screenshot()

    return asyncio.run(render())


def replay(
    file: str = typer.Argument(..., metavar="FILE", help="A record file ('-' reads standard input)."),
    game_number: int = typer.Option(1, "--game", "-g", help="Which game of the file (1-based)."),
    turn: Optional[int] = typer.Option(None, "--turn", "-t", min=0, help="Start after this many turns (0: the setup)."),
    as_player: Optional[str] = typer.Option(
        None, "--as", metavar="PLAYER", help="One player's view: the other hands hidden ('all': every hand shown)."
    ),
    plain: bool = typer.Option(False, "--plain", help="Print the step-through as text instead of opening the UI."),
    screenshot: Optional[str] = typer.Option(
        None, "--screenshot", metavar="OUT.svg", help="Write an SVG of the replayer at --turn and exit."
    ),
    size: str = typer.Option("120x40", "--size", metavar="WxH", help="The screen size of --screenshot."),
) -> None:
    model = _load(file, game_number)
    if as_player is not None:
        if as_player in model.players:
            model.set_perspective(as_player)
        elif as_player.lower() in OMNISCIENT:
            model.set_perspective(None)
        else:
            fail(f"--as {as_player}: not a player of this game ({', '.join(model.players)})", EXIT_USAGE)
    if turn is not None and not model.goto(turn):
        legal = model.main_turns
        reason = "legal " if legal < len(model.record.turns) else ""
        fail(
            f"game {game_number} has {legal} {reason}turn{'s' if legal != 1 else ''}; "
            f"there is no position after turn {turn}"
        )
    errors = model.replay.errors
    interactive = screenshot is None and not plain and sys.stdout.isatty() and sys.stdin.isatty()
    if not interactive:  # the UI shows them where they stand
        for diagnostic in errors:
            typer.echo(diagnostic.show(), err=True)
    if screenshot is not None:
        svg = _screenshot(model, _size(size))
        from ..files import write_atomic

        try:
            write_atomic(screenshot, svg)
        except OSError as error:
            fail(f"{screenshot}: cannot be written ({error.strerror})")
        raise typer.Exit(EXIT_INVALID if errors else 0)
    if not interactive:
        from ..tui.plain import plain_lines

        for line in plain_lines(model, start=turn or 0):
            typer.echo(line)
        raise typer.Exit(EXIT_INVALID if errors else 0)
    from ..tui.app import ReplayApp

    ReplayApp(model).run()


def register(app: typer.Typer) -> None:
    app.command("replay", help=HELP, short_help="Step through a recorded game: terminal UI, or plain text.")(replay)
