"""`arbo render`: a diagram of one position of a recorded game, as clean vector SVG."""

from __future__ import annotations

from pathlib import PurePath
from typing import Optional

import typer

from .common import EXIT_INVALID, EXIT_USAGE, fail
from .sharing import load_games, viewer_for, write_output
from .usage import whole_number

HELP = """Draw one position of a recorded game as an SVG diagram for forums, blogs and documents.

The arboretums (or one player's, with --player) as cards in their species' colours on a grid with its coordinates, the hands as the record or --as allows (unseen cards as ??), the discard piles, whose turn it is and the deck. With --score the position is scored as if the game ended there: each scoring path is drawn over its grid, with the points and totals below.

--turn N draws the position after N turns of the main line (default: the last legal one; 0: the setup).

Examples:

    arbo render samples/four-players.arb -o end.svg

    arbo render samples/annotated.arb --score -o scoring.svg

    arbo render games.arb --game 2 --turn 12 --player Ana --as Ana -o ana.svg
"""


def render(
    file: str = typer.Argument(..., metavar="FILE", help="A record file ('-' reads standard input)."),
    out: Optional[str] = typer.Option(None, "--out", "-o", metavar="OUT.svg", help="The file to write (default: standard output)."),
    turn: Optional[int] = typer.Option(
        None, "--turn", "-t", metavar="N", parser=whole_number("--turn", 0),
        help="After this many turns of the main line (default: the end).",
    ),
    game_number: int = typer.Option(
        1, "--game", "-g", metavar="N", parser=whole_number("--game", 1), help="Which game of the file (1-based)."
    ),
    as_player: Optional[str] = typer.Option(
        None, "--as", metavar="PLAYER", help="One player's view: the other hands hidden ('all': every hand shown)."
    ),
    player: Optional[str] = typer.Option(None, "--player", metavar="NAME", help="Draw only this player's arboretum, hand and pile."),
    score: bool = typer.Option(False, "--score", help="Score the position: the paths drawn over the grids, points and totals."),
) -> None:
    if out is not None and out != "-" and PurePath(out).suffix.lower() != ".svg":
        fail(f"-o {out}: an SVG diagram is written to a file ending in .svg", EXIT_USAGE)
    loaded = load_games(file, game_number)
    tree = loaded.trees[0]
    from ..navigation import ReplayModel

    model = ReplayModel(tree)
    if as_player is not None:
        model.set_perspective(viewer_for(as_player, [tree]))
    if player is not None and player not in model.players:
        fail(f"--player {player}: not a player of this game ({', '.join(model.players)})", EXIT_USAGE)
    if turn is not None and not model.goto(turn):
        legal = model.main_turns
        reason = "legal " if legal < len(model.record.turns) else ""
        fail(f"game {game_number} has {legal} {reason}turn{'s' if legal != 1 else ''}; "
             f"there is no position after turn {turn}", EXIT_USAGE)
    if turn is None:
        model.end()
    from ..share.svg import Diagram, render_diagram, seats_of

    state = model.state
    sheet = None
    if score:
        hidden = model.hidden_hands()
        if hidden:
            fail(f"--score shows every hand, and {model.perspective}'s view hides the others' before the end", EXIT_USAGE)
        sheet = model.sheet()
        if sheet is None:
            fail(f"--score: {model.unscored_reason()} after turn {model.turns_played}", EXIT_USAGE)
    marked = {}
    if model.turn is not None:
        marked[model.turn.player] = model.turn.plant.coord
    diagram = Diagram(
        seats=seats_of(state, hands=model.shown_hands(), marked=marked, only=player),
        species=model.species,
        title=_title(model),
        subtitle=_subtitle(model),
        sheet=sheet,
        columns=1 if player is not None else 2,
    )
    write_output(render_diagram(diagram), out)
    raise typer.Exit(EXIT_INVALID if loaded.findings and turn is None else 0)


def _title(model) -> str:
    header = model.header
    players = model.players
    names = " vs ".join(players) if len(players) == 2 else ", ".join(players)
    return " · ".join(part for part in (header.event, header.date, names) if part)


def _subtitle(model) -> str:
    state = model.state
    played = model.turns_played
    if state.is_over:
        where = f"after turn {played}: game over"
    elif played == 0:
        where = f"start: {state.current_player} to play turn 1"
    else:
        where = f"after turn {played}: {state.current_player} to play"
    deck = f"deck {state.deck_size} card{'s' if state.deck_size != 1 else ''}"
    view = f"{model.perspective}'s view" if model.perspective and not state.is_over else ""
    return " · ".join(part for part in (where, deck, view) if part)


def register(app: typer.Typer) -> None:
    app.command("render", help=HELP, short_help="One position as an SVG diagram: arboretums, hands, scoring paths.")(render)
