"""The referee's side of the bot protocol (docs/PROTOCOL.md): the view an ``act`` request carries.

The messages both sides write are bots/protocol.py's (the serving loop of the bots package uses
them too); ``protocol.schema.json``, beside this module, is their JSON Schema.
"""

from __future__ import annotations

from arbo_notation.bots.protocol import Message
from arbo_notation.engine.scoring import PlayerPosition
from arbo_notation.engine.state import Game
from arbo_notation.engine.view import SeatView
from arbo_notation.errors import ArboError
from arbo_notation.game.knowledge import View, knowledge_of_table
from arbo_notation.notation.structured.position import Position, add_table, position_to_data


def view_message(view: SeatView) -> Message:
    """The seat's position as an ``act`` request carries it: what `arbo state --as SEAT --json`
    prints for the seat's own record of the game so far (other hands as hidden counts, the discard
    piles, the turn, the player to move, the deck's size, the seat's knowledge);
    protocol.schema.json gives its shape."""
    if view.seat is None:
        raise ArboError("a request's view is a seat's, not a spectator's")
    game = Game.from_position(view.position)  # the seat's own table: every card it has not seen hidden
    players, hidden = [], {}
    for name in game.players:
        held = game.hand(name)
        players.append(PlayerPosition(name, game.arboretum(name), held.known))
        if held.hidden:
            hidden[name] = held.hidden
    data = position_to_data(Position(game.config.species, tuple(players), game_over=game.is_over))
    for entry in data["players"]:
        if entry["name"] in hidden:
            entry["hidden"] = hidden[entry["name"]]
    add_table(data, game)
    data["knowledge"] = knowledge_of_table(game, View.of_seat(view.seat)).to_json()
    return data
