"""`arbo replay`: step through a recorded game in a terminal UI, or as plain text.

Only the terminal UI imports textual, and only when it really opens (or renders a screenshot).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, Iterable, Optional

import typer

from arbo_notation.errors import ArboError, Diagnostic
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.runtime.atomic import fingerprint, write_atomic
from arbo_notation.tui.plaintext import plain_lines
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, fail, say_wrote
from arbo_notation.cli.state import load_tree, no_turn
from arbo_notation.cli.bounds import MOST_GAMES, MOST_TURNS
from arbo_notation.cli.usage import whole_number

HELP = """Step through a recorded game turn by turn, with the scoring at the end.

In a terminal this opens the replayer: every arboretum as a grid of coloured cards, the hands (unseen cards as ??), the discard piles, the deck, the move list and the comments. Keys: → or l next turn, ← or h previous, Home/End, g go to a turn, v enter or leave a variation, p whose view (all hands, or one player's: the others' hands as that player knows them), k what the view knows (the unseen cards by species, the rights to score), s the scoring, d whole discard piles, m the move list, w what if (another turn typed in place of the current one, judged beside it by the engine, kept as a variation), W write the tries into the file, S save a screenshot, ? help, q quit.

With --plain, or when the output is not a terminal, it prints each turn in notation and the board after it, then the scoring. A record read from a pipe (FILE '-') opens the replayer too when the output is a terminal: the keys are read from the terminal.

A record with rule errors is replayed up to its last legal turn, the error shown there; the errors are also printed on stderr (by the terminal UI once it closes) and the exit status is 1, in the UI, with --plain and with --screenshot alike.

Examples:

    arbo replay game.arb

    arbo replay games.arb --game 3 --turn 12 --as Ana

    arbo replay game.arb --plain | less

    arbo grep games/ --player Ana --won | arbo replay -

    arbo replay game.arb --turn 20 --screenshot turn20.svg
"""

#: Values of --as that mean every hand shown (unless a player has that name).
OMNISCIENT = ("all", "*", "none")


def _size(text: str) -> tuple[int, int]:
    if isinstance(text, tuple):
        return text
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise typer.BadParameter(f"--size takes WIDTHxHEIGHT, such as 120x40, not {text!r}") from None
    if not (40 <= width <= 500 and 10 <= height <= 300):
        raise typer.BadParameter(f"--size {text}: the width is 40 to 500 and the height 10 to 300")
    return width, height


def _svg_name(path: str | None) -> str | None:
    if path is not None and not path.lower().endswith(".svg"):
        raise typer.BadParameter(f"--screenshot writes SVG: give a file name ending in .svg, not {path!r}")
    return path


def _is_terminal() -> bool:
    """Whether the replayer opens: the output is a terminal (its keys come from the terminal,
    whatever standard input is)."""
    return sys.stdout.isatty()


def _keys_from_the_terminal() -> None:
    """Make standard input the terminal when it is not (the record came through a pipe and is read
    already): textual reads its keys from file descriptor 0, as sys.__stdin__."""
    if sys.__stdin__ is not None and sys.__stdin__.isatty():
        return
    try:
        terminal = os.open("/dev/tty", os.O_RDWR)
    except OSError as error:
        fail(
            f"the replayer reads its keys from the terminal, and there is none to read (/dev/tty: "
            f"{error.strerror}); --plain prints the replay instead",
            EXIT_USAGE,
        )
    os.dup2(terminal, 0)
    os.close(terminal)
    if sys.__stdin__ is None:  # standard input was closed: a stream for textual to find it by
        sys.stdin = open(0, encoding="utf-8", closefd=False)
        sys.__stdin__ = sys.stdin  # type: ignore[misc]  # typeshed makes it Final; textual reads it


def _fingerprint(file: str) -> bytes:
    """The record file's fingerprint (none for standard input, or a file that cannot be read: the
    reading then says why)."""
    try:
        return b"" if file == "-" else fingerprint(file)
    except OSError:
        return b""


def _load(file: str, game_number: int) -> ReplayModel:
    try:
        return ReplayModel(load_tree(file, game_number))
    except ArboError as error:
        fail(str(error))


def _screenshot(model: ReplayModel, size: tuple[int, int], knowledge: bool = False) -> str:
    """Render the replayer at the model's position headlessly (the knowledge panel open, if
    asked); the SVG text."""
    import asyncio

    # deferred: the terminal UI (textual, ~190 ms) loads only for a screenshot or on a terminal
    from arbo_notation.tui.app import ReplayApp

    async def render() -> str:
        app = ReplayApp(model, knowledge=knowledge)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return app.export_screenshot()

    return _XML_UNSAFE.sub("\ufffd", asyncio.run(render()))


#: Characters XML 1.0 cannot hold: the screen shows record text made visible (errors.visible),
#: and anything left over is replaced, so the screenshot is always an XML document.
_XML_UNSAFE = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def replay(
    file: str = typer.Argument(..., metavar="FILE", help="A record file ('-' reads standard input)."),
    game_number: int = typer.Option(
        1,
        "--game",
        "-g",
        metavar="N",
        parser=whole_number("--game", 1, MOST_GAMES),
        help="Which game of the file (1-based).",
    ),
    turn: Optional[int] = typer.Option(
        None,
        "--turn",
        "-t",
        metavar="N",
        parser=whole_number("--turn", 0, MOST_TURNS),
        help="Start after this many turns (0: the setup).",
    ),
    as_player: Optional[str] = typer.Option(
        None, "--as", metavar="PLAYER", help="One player's view: the other hands hidden ('all': every hand shown)."
    ),
    plain: bool = typer.Option(False, "--plain", help="Print the step-through as text instead of opening the UI."),
    screenshot: Optional[str] = typer.Option(
        None,
        "--screenshot",
        metavar="FILE.svg",
        parser=_svg_name,
        help="Write an SVG of the replayer at --turn to FILE.svg and exit.",
    ),
    size: Any = typer.Option(  # (width, height), read from WxH
        "120x40", "--size", metavar="WxH", parser=_size, help="The screen size of --screenshot."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not say which file --screenshot wrote."),
    knowledge: bool = typer.Option(
        False,
        "--knowledge",
        "-k",
        help="Open the knowledge panel (unseen cards, rights to score) in place of the board.",
    ),
) -> None:
    read = _fingerprint(file)  # before the reading: W writes the tries over this file only if unchanged
    model = _load(file, game_number)
    if as_player is not None:
        if as_player in model.players:
            model.set_perspective(as_player)
        elif as_player.lower() in OMNISCIENT:
            model.set_perspective(None)
        else:
            fail(f"--as {as_player}: not a player of this game ({', '.join(model.players)})", EXIT_USAGE)
    errors = model.replay.errors
    if turn is not None and not model.goto(turn):
        no_turn(game_number, model.main_turns, len(model.record.turns), turn, errors, model.lines[()].start)
    interactive = screenshot is None and not plain and _is_terminal()
    if screenshot is not None:
        _show(errors)
        svg = _screenshot(model, size, knowledge)
        try:
            write_atomic(screenshot, svg)
        except OSError as error:
            fail(f"{screenshot}: cannot be written ({error.strerror})")
        if not quiet:
            say_wrote(screenshot, "SVG")
    elif not interactive:
        _show(errors)
        for line in plain_lines(model, start=turn or 0, knowledge=knowledge):
            typer.echo(line)
    else:
        # deferred: the terminal UI (textual, ~190 ms) loads only on a terminal, not for --plain
        from arbo_notation.tui.app import ReplayApp

        _keys_from_the_terminal()
        source = None if file == "-" else file
        ReplayApp(model, knowledge=knowledge, source=source, read=read).run()
        _show(errors)  # the UI showed them where they stand; the terminal keeps them once it closes
    raise typer.Exit(EXIT_INVALID if errors else 0)


def _show(errors: Iterable[Diagnostic]) -> None:
    for diagnostic in errors:
        typer.echo(diagnostic.show(), err=True)


def register(app: typer.Typer) -> None:
    app.command("replay", help=HELP, short_help="Step through a recorded game: terminal UI, or plain text.")(replay)
