"""The referee's side of the bot protocol (docs/PROTOCOL.md): the view an ``act`` request carries.

The messages both sides write, and the seat's own game both keep, are bots/protocol.py's (the
serving loop of the bots package uses them too); ``protocol.schema.json``, beside this module, is
the protocol's JSON Schema.
"""

from __future__ import annotations

from arbo_notation.bots.protocol import Message
from arbo_notation.engine.scoring import PlayerPosition
from arbo_notation.engine.state import Game
from arbo_notation.game.knowledge import View, knowledge_of_table
from arbo_notation.notation.structured.position import Position, add_table, position_to_data


def view_message(own: Game, seat: str) -> Message:
    """The position of ``seat``, its own game ``own`` (bots/protocol.py's ``seat_game``, advanced by
    the events as the seat saw them), as an ``act`` request carries it: what `arbo state --as SEAT
    --json` prints for the seat's own record of the game so far (other hands as hidden counts, the
    discard piles, the turn, the player to move, the deck's size, the seat's knowledge);
    protocol.schema.json gives its shape."""
    players, hidden = [], {}
    for name in own.players:
        held = own.hand(name)
        players.append(PlayerPosition(name, own.arboretum(name), held.known))
        if held.hidden:
            hidden[name] = held.hidden
    data = position_to_data(Position(own.config.species, tuple(players), game_over=own.is_over))
    for entry in data["players"]:
        if entry["name"] in hidden:
            entry["hidden"] = hidden[entry["name"]]
    add_table(data, own)
    data["knowledge"] = knowledge_of_table(own, View.of_seat(seat)).to_json()
    data["position"] = own.view(seat).position.to_json()
    return data
