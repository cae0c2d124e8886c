"""The bot protocol, versions 1 and 2 (docs/PROTOCOL.md), as both sides share it: its messages, the
view's delta, and the seat's own game each side keeps (the referee, play/referee.py, and a bot
served, bots/serve.py).

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
from arbo_notation.errors import ArboError

#: The protocol's first version: the one spoken unless a bot's hello chooses another.
PROTOCOL_VERSION = 1
#: Every version this arbo speaks, offered in the first message; the bot's hello chooses one.
PROTOCOLS = (1, 2)
#: The longest line either side reads, in bytes with its newline: a longer one is a fault.
LINE_LIMIT = 64 * 1024

Message = dict[str, Any]


#: The encoder of every message, made once (json.dumps with these options makes one a call).
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def encode(message: Message) -> bytes:
    """A message as the line that carries it (UTF-8, compact, ending with a newline)."""
    return (_ENCODER.encode(message) + "\n").encode("utf-8")


def hello() -> Message:
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "protocols": list(PROTOCOLS)}


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


def end(game_id: str, scores: dict[str, int], events: list[list[str]] | None = None) -> Message:
    """The end of a game; in version 2 with the ``events`` the seat was not yet told."""
    message: Message = {"type": "end", "game": game_id, "scores": scores}
    if events is not None:
        message["events"] = events
    return message


# -- version 2 --------------------------------------------------------------------------------------


def turn(phase: Phase, events: list[list[str]]) -> Message:
    """A request of version 2: the rest of the seat's turn, from ``phase``; ``events`` are the
    actions the seat was not yet told, each ``[player, action]`` as the seat sees it."""
    return {"type": "turn", "phase": phase.value, "events": events}


def view_answer(legal: Sequence[str], view: Message | None = None, delta: list[Message] | None = None) -> Message:
    """The answer to a bot's ask for the view: the legal actions and the whole ``view``, or its
    ``delta`` from the last view the seat was given in this game (:func:`view_delta`)."""
    message: Message = {"type": "view", "legal": list(legal)}
    if delta is None:
        message["view"] = view
    else:
        message["delta"] = delta
    return message


def view_delta(old: Any, new: Any) -> list[Message]:
    """The JSON Patch (RFC 6902) that turns ``old`` into ``new``, with three operations of it: an
    object's key ``add``-ed, ``remove``-d or ``replace``-d; an array grown at its end (``add`` at
    ``/-``), cut at its end (``remove`` of its last item, as often as it shrank), or, changed
    otherwise, each item of a same length array followed, else the array replaced whole; and any
    other value replaced. ``old`` None (no view yet) gives one ``replace`` of the whole document
    (path ``""``). docs/PROTOCOL.md defines it; :func:`apply_delta` applies it."""
    if old is None:
        return [{"op": "replace", "path": "", "value": new}]
    ops: list[Message] = []
    _delta(old, new, "", ops)
    return ops


def _same(old: Any, new: Any) -> bool:
    """Whether two JSON values are the same JSON (Python's == has 1 == 1.0 == True)."""
    if type(old) is not type(new):
        return False
    if isinstance(old, dict):
        return old.keys() == new.keys() and all(_same(value, new[key]) for key, value in old.items())
    if isinstance(old, list):
        return len(old) == len(new) and all(_same(a, b) for a, b in zip(old, new, strict=True))
    return bool(old == new)


def _delta(old: Any, new: Any, path: str, ops: list[Message]) -> None:
    if _same(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_pointer_key(key)}"})
        for key, value in new.items():
            if key in old:
                _delta(old[key], value, f"{path}/{_pointer_key(key)}", ops)
            else:
                ops.append({"op": "add", "path": f"{path}/{_pointer_key(key)}", "value": value})
        return
    if isinstance(old, list) and isinstance(new, list):
        shared = min(len(old), len(new))
        if _same(old[:shared], new[:shared]):  # grown or cut at its end
            ops.extend({"op": "add", "path": f"{path}/-", "value": value} for value in new[shared:])
            ops.extend({"op": "remove", "path": f"{path}/{at}"} for at in range(len(old) - 1, shared - 1, -1))
            return
        if len(old) == len(new):
            for at, (before, after) in enumerate(zip(old, new, strict=True)):
                _delta(before, after, f"{path}/{at}", ops)
            return
    ops.append({"op": "replace", "path": path, "value": new})


def _pointer_key(key: str) -> str:
    """A key as a JSON Pointer (RFC 6901) writes it: ``~`` as ``~0``, ``/`` as ``~1``."""
    return key.replace("~", "~0").replace("/", "~1")


def apply_delta(document: Any, delta: Sequence[Message]) -> Any:
    """``document`` with the operations of a :func:`view_delta` applied in order (it is changed in
    place, and returned: a ``replace`` of ``""`` returns the new document). ArboError for an
    operation that is none of the three, or a path that does not lead into the document."""
    for op in delta:
        try:
            kind, path = op["op"], op["path"]
            if path == "":
                if kind != "replace":
                    raise ArboError(f"a delta's whole document is only replaced, not {kind!r}")
                document = op["value"]
                continue
            *parents, last = [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]
            target = document
            for part in parents:
                target = target[int(part)] if isinstance(target, list) else target[part]
            if isinstance(target, list):
                if kind == "add" and last == "-":
                    target.append(op["value"])
                elif kind == "remove":
                    del target[int(last)]
                elif kind == "replace":
                    target[int(last)] = op["value"]
                else:
                    raise ArboError(f"no {kind!r} at {path!r} of an array")
            elif kind in ("add", "replace"):
                target[last] = op["value"]
            elif kind == "remove":
                del target[last]
            else:
                raise ArboError(f"a delta's operation is add, remove or replace, not {kind!r}")
        except (KeyError, IndexError, ValueError, TypeError) as error:
            raise ArboError(f"a delta's operation {op!r} does not apply: {error!r}") from None
    return document


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
