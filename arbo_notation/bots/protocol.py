"""The bot protocol, version 1 (docs/PROTOCOL.md), as both sides share it: its messages, and the
seat's own game each side keeps (the referee, play/referee.py, and a bot served, bots/serve.py).

A bot is a program: arbo writes one JSON object a line to its standard input and reads one JSON
object a line from its standard output. Both sides keep a seat's own game the same way
(:func:`seat_game`): a :class:`~arbo_notation.engine.state.Game` dealt the seat's hand and no
other card, the deck's order unknown, advanced by the events as the seat sees them
(:func:`as_seen_by`). A card the seat has not seen is a hidden card of the engine, never a guess:
the legal actions and the views come from that game, so no message can carry what the seat could
not see. This module sits below both sides, so that the bots package and the play package share it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from arbo_notation.engine.actions import Action, Draw
from arbo_notation.engine.cards import Card
from arbo_notation.engine.position import Phase
from arbo_notation.engine.state import Game, GameConfig, Setup

#: The protocol's version, said in the first message.
PROTOCOL_VERSION = 1
#: The longest line either side reads, in bytes with its newline: a longer one is a fault.
LINE_LIMIT = 64 * 1024

Message = dict[str, Any]


#: The encoder of every message, made once (json.dumps with these options makes one a call).
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def encode(message: Message) -> bytes:
    """A message as the line that carries it (UTF-8, compact, ending with a newline)."""
    return (_ENCODER.encode(message) + "\n").encode("utf-8")


def hello() -> Message:
    return {"type": "hello", "protocol": PROTOCOL_VERSION}


def game_message(
    game_id: str, seat: str, players: Sequence[str], species: Sequence[str], hand: Iterable[Card]
) -> Message:
    return {
        "type": "game",
        "game": game_id,
        "seat": seat,
        "players": list(players),
        "species": list(species),
        "hand": [str(card) for card in hand],
    }


def event(player: str, action: Action | str) -> Message:
    return {"type": "event", "player": player, "action": str(action)}


def act(phase: Phase, legal: Sequence[Action | str], view: Message) -> Message:
    return {"type": "act", "phase": phase.value, "legal": [str(action) for action in legal], "view": view}


def end(game_id: str, scores: dict[str, int]) -> Message:
    return {"type": "end", "game": game_id, "scores": scores}


def quit_message() -> Message:
    return {"type": "quit"}


def seat_game(seat: str, players: Sequence[str], species: Sequence[str], hand: Iterable[Card]) -> Game:
    """``seat``'s own game: dealt its hand alone, every other card hidden, the deck's order unknown."""
    return Game(GameConfig(tuple(players), tuple(species)), Setup(hands={seat: tuple(hand)}))


def as_seen_by(action: Action, mover: str, seat: str) -> Action:
    """``action`` of ``mover`` as ``seat`` sees it: another player's draw from the deck names no card."""
    if isinstance(action, Draw) and action.owner is None and mover != seat:
        return Draw()
    return action
