"""`arbo state`: the position after a given turn of a recorded game, as text or as a position file."""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping, NoReturn, Optional

import typer

from arbo_notation.api import GameNotFound, game_tree
from arbo_notation.engine.state import Game
from arbo_notation.engine.totals import PlayerPosition
from arbo_notation.errors import ArboError, Diagnostic, NotationErrors, visible
from arbo_notation.game.knowledge import HandKnowledge, View
from arbo_notation.game.tree import GameTree, SetupError
from arbo_notation.present.board import render_game
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, echo_error, fail, read_input
from arbo_notation.cli.bounds import MOST_GAMES, MOST_TURNS
from arbo_notation.cli.sharing import viewer_for
from arbo_notation.cli.usage import whole_number


def load_tree(path: str, game_number: int) -> GameTree:
    """Read a record file and replay its game number ``game_number`` (1-based) into its tree.

    Syntax errors of other games are not this game's business; its own are fatal (they are the
    one message). A game number the file does not hold is a usage error (exit 2).
    """
    text, name = read_input(path)
    try:
        return game_tree(text, name, game_number)
    except GameNotFound as error:
        fail(str(error), EXIT_USAGE)
    except NotationErrors as error:
        for notation_error in error.errors:
            echo_error(notation_error)
        raise typer.Exit(EXIT_INVALID) from None


def position_data(game: Game, seen: Mapping[str, HandKnowledge] | None = None) -> dict[str, Any]:
    """The position format that `arbo score` reads; players with unseen cards carry a 'hidden' count,
    a position before the end of the game says ``game_over: false``, and the table's facts follow
    (add_table: the discard piles, the turn, the player to move, the deck's size). ``seen``: the hands as a
    seat sees them (--as), in place of the record's."""
    # deferred: the position writer (~7 ms more, PyYAML among it) loads only for --json
    from arbo_notation.notation.structured.position import Position, add_table, position_to_data

    players = []
    hidden = {}
    for name in game.players:
        if seen is not None:
            cards, unseen = seen[name].known, seen[name].unknown
        else:
            view = game.hand(name)
            cards, unseen = view.known, view.hidden
        players.append(PlayerPosition(name, game.arboretum(name), cards))
        if unseen:
            hidden[name] = unseen
    data = position_to_data(Position(tuple(game.config.species), tuple(players), game_over=game.is_over))
    for entry in data["players"]:
        if entry["name"] in hidden:
            entry["hidden"] = hidden[entry["name"]]
    return add_table(data, game)


def no_turn(
    game_number: int, legal: int, recorded: int, wanted: int, errors: Iterable[Diagnostic], start: int = 0
) -> NoReturn:
    """Leave saying there is no position after turn ``wanted``: a usage error (exit 2) before the
    record's first position (``start``: the turns before it, when it starts from a position) or past
    its end, bad data (exit 1, after the ``errors``) when an illegal turn stops the game before it."""
    if wanted < start:
        fail(
            f"game {game_number} starts from a position after turn {start}; there is no position after turn {wanted}",
            EXIT_USAGE,
        )
    if wanted > start + recorded:
        fail(f"game {game_number} has {_turns(start, recorded)}; there is no position after turn {wanted}", EXIT_USAGE)
    for diagnostic in errors:
        typer.echo(diagnostic.show(), err=True)
    fail(
        f"game {game_number} has {_turns(start, legal, 'legal ')} (turn {start + legal + 1} is illegal); "
        f"there is no position after turn {wanted}"
    )


def _turns(start: int, count: int, legal: str = "") -> str:
    """``count`` turns of a record, in words: from turn ``start`` + 1 when it starts from a position."""
    if not start:
        return f"{count} {legal}turn{'s' if count != 1 else ''}"
    return f"{legal}turns {start + 1} to {start + count}" if count else f"no {legal}turn after its position"


def state(
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
        help="After this many turns (default: the end).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the position as JSON, the format `arbo score` reads."),
    as_player: Optional[str] = typer.Option(
        None,
        "--as",
        metavar="PLAYER",
        help="The hands as this player knows them ('all': the record's whole knowledge; default: the record's perspective).",
    ),
) -> None:
    """Show the position after a turn of a recorded game.

    As text: each arboretum as a grid (x along the top, y up the side), each hand as the view
    knows it (a card seen taken from a pile stays known; unseen cards as ??), the discard piles
    and the deck, then the position's line (docs/NOTATION.md, "Positions"). With --json, the
    position format that `arbo score` reads, so that `arbo state g.arb --json | arbo score --json -`
    scores the game, with a "knowledge" entry: the view's hands, the unseen cards and where each
    may be, the rights to score as known; and a "position" entry: the position's JSON.

    Examples:

        arbo state samples/two-player-omniscient.arb --turn 12

        arbo state games.arb --game 3 --json > end.json

        arbo state samples/four-players.arb --turn 20 --as Cleo
    """
    try:
        tree = load_tree(file, game_number)
        replay = tree.replay
    except SetupError as error:
        for diagnostic in error.diagnostics:
            typer.echo(diagnostic.show(), err=True)
        raise typer.Exit(EXIT_INVALID) from None
    except ArboError as error:
        fail(str(error))
    last = len(replay.states) - 1
    start = tree.lines[()].start  # the turns before the record's first position (one it starts from)
    wanted = start + last if turn is None else turn
    if not start <= wanted <= start + last and replay.states:
        no_turn(game_number, last, len(replay.record.turns), wanted, replay.errors, start)
    for diagnostic in replay.errors:
        typer.echo(diagnostic.show(), err=True)
    position = replay.states[wanted - start]  # the last with the hands revealed at scoring
    header = replay.record.header
    seat = viewer_for(as_player, [tree]) if as_player is not None else header.perspective
    known = tree.line_nodes(())[wanted - start].knowledge(View.of_seat(seat) if seat else View.record())
    if as_json:
        data = position_data(position, known.hands if as_player is not None else None)
        data["knowledge"] = known.to_json()
        # the whole table in one value: as the record knows it, or as the seat of --as does
        shown_seat = seat if as_player is not None else None
        data["position"] = (position.view(shown_seat).position if shown_seat else position.position()).to_json()
        typer.echo(json.dumps(data, indent=2))
    else:
        title = " - ".join(x for x in (header.event, header.date) if x) or replay.record.file
        hands = {p: hand.shown() for p, hand in known.hands.items()}
        board = render_game(position, title=f"{title}, game {game_number}, after turn {wanted}", hands=hands)
        line = position.view(seat).position if seat else position.position()
        typer.echo(
            visible(f"{board}\n\nposition: {line}", "\n")
        )  # the title is the record's: no terminal commands from it
    if replay.errors and turn is None:
        raise typer.Exit(EXIT_INVALID)


def register(app: typer.Typer) -> None:
    app.command()(state)
