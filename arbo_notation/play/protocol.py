"""The bot protocol, version 1 (docs/PROTOCOL.md): its messages, a seat's own game, and a bot served.

A bot is a program: arbo writes one JSON object a line to its standard input and reads one JSON
object a line from its standard output. Both sides keep the seat's own game the same way
(:class:`SeatTable`): a :class:`~arbo_notation.engine.state.Game` dealt the seat's hand and no
other card, the deck's order unknown, advanced by the events as the seat sees them. A card the
seat has not seen is a hidden card of the engine (a hand's hidden slot, the unknown deck), never a
guess: the legal actions and the view come from that game, so no message can carry what the seat
could not see.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO

from arbo_notation.engine.actions import Action, Discard, Draw, Plant, Skip
from arbo_notation.engine.bots import Bot
from arbo_notation.engine.cards import Card
from arbo_notation.engine.scoring import PlayerPosition
from arbo_notation.engine.state import Game, GameConfig, Phase, Setup
from arbo_notation.errors import ArboError
from arbo_notation.notation.outside import quoted, safe_text

#: The protocol's version, said in the first message.
PROTOCOL_VERSION = 1
#: The longest line either side reads, in bytes with its newline: a longer one is a fault.
LINE_LIMIT = 64 * 1024
#: How a request begins as :func:`encode` writes it (serve() answers such a line unread).
_ACT_START = '{"type":"act",'

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


def perform(game: Game, action: Action) -> Action:
    """Play ``action`` on ``game`` by the rules (RuleError when illegal) and return it as played:
    a deck draw names its card when the game knows the deck (the referee's) or names it."""
    if isinstance(action, Draw):
        if action.owner is None:
            return Draw(None, game.draw_from_deck(action.card))
        return Draw(action.owner, game.draw_from_discard(action.owner, action.card))
    if isinstance(action, Skip):
        game.skip_draw()
    elif isinstance(action, Plant):
        game.plant(action.card, action.coord)
    else:
        game.discard(action.card)
    return action


def as_seen_by(action: Action, mover: str, seat: str) -> Action:
    """``action`` of ``mover`` as ``seat`` sees it: another player's draw from the deck names no card."""
    if isinstance(action, Draw) and action.owner is None and mover != seat:
        return Draw()
    return action


class SeatTable:
    """A seat's own game: dealt its hand alone (every other card hidden, the deck's order unknown),
    advanced by the events as the seat sees them."""

    __slots__ = ("seat", "game")

    def __init__(self, seat: str, players: Sequence[str], species: Sequence[str], hand: Iterable[Card]) -> None:
        self.seat = seat
        config = GameConfig(tuple(players), tuple(species))
        self.game = Game(config, Setup(hands={seat: tuple(hand)}))

    @classmethod
    def of(cls, message: Message) -> "SeatTable":
        """The seat's table of a ``game`` message; ArboError for a message that is none."""
        try:
            return cls(message["seat"], message["players"], message["species"], map(Card.parse, message["hand"]))
        except (KeyError, TypeError) as error:
            raise ArboError(f"a game message gives seat, players, species and hand: {error}") from None

    def play(self, player: str, text: str) -> Action:
        """Play an event's action (its text) as the seat saw it; ArboError when it is not legal."""
        if player != self.game.current_player:
            raise ArboError(f"an event of {player} where {self.game.current_player} is to play")
        return perform(self.game, self.game.parse_action(text))

    def view(self) -> Message:
        """The seat's position: what `arbo state --as SEAT --json` prints for the seat's own record
        of the game so far (other hands as hidden counts, the discard piles, the turn, the player
        to move, the deck's size, the seat's knowledge); protocol.schema.json gives its shape."""
        # deferred: the knowledge and the position's data (~40 ms of start-up) are the referee's;
        # a bot served here (`arbo bot`) never makes a view
        from arbo_notation.game.knowledge import View, knowledge_of_table
        from arbo_notation.notation.structured.position import Position, add_table, position_to_data

        game = self.game
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
        data["knowledge"] = knowledge_of_table(game, View.of_seat(self.seat)).to_json()
        data["position"] = game.view(self.seat).position.to_json()
        return data


# -- a bot served over the protocol (`arbo bot`) ------------------------------------------------


def read_lines(stream: BinaryIO, log: Callable[[str], None]) -> Iterator[bytes]:
    """The lines of ``stream`` (bytes, newline kept), each read at most LINE_LIMIT bytes at a time:
    a longer line is never held whole, but read past, logged and skipped, as the referee refuses one."""
    while line := stream.readline(LINE_LIMIT):
        if line.endswith(b"\n") or len(line) < LINE_LIMIT:
            yield line
            continue
        size = len(line)
        while (rest := stream.readline(LINE_LIMIT)) and not rest.endswith(b"\n"):
            size += len(rest)
        size += len(rest)
        log(f"message skipped (a line of more than {LINE_LIMIT:,} bytes): {quoted(line, whole=size)}")


def serve(
    make: Callable[[], Bot],
    lines: Iterable[str | bytes],
    write: Callable[[bytes], None],
    *,
    name: str,
    seed: str = "0",
    log: Callable[[str], None] = lambda text: None,
) -> None:
    """Answer the referee's ``lines`` with ``write`` until ``quit`` or the end of the input: a new
    bot of ``make`` per game, its random numbers seeded with ``seed`` and the game's id (the same
    game, the same choices, whichever process plays it). A message it cannot use (not UTF-8, not
    JSON, nested too deep, not a message it knows, an ``act`` with no legal action to fall back on)
    is logged, quoted safely, and skipped: no answer (docs/PROTOCOL.md). Asked to act when its bot
    cannot choose (no game, a table it lost track of), it plays the first legal action and logs why."""
    table: SeatTable | None = None
    bot = make()
    rng = random.Random(seed)
    for read in lines:
        try:
            line = read.decode("utf-8") if isinstance(read, bytes) else read  # JSON text is UTF-8
        except UnicodeDecodeError as error:
            log(f"message skipped (not UTF-8: byte {error.start + 1} of the line): {quoted(read.strip())}")
            continue
        if not line.strip():
            continue
        try:
            if table is not None and line.startswith(_ACT_START):
                # A request as arbo's referee writes it, to a bot that keeps its own table: answered
                # without reading the line, whose view (some 2.3 KB) this bot never reads. Reading
                # it was most of the bot's JSON: serve() on one seat's 30 games of a greedy match,
                # 6.5 ms of CPU a game before, 5.6 after (bench/README.md, "the bot protocol's cost")
                write(encode({"action": _choice(bot, table, rng, line, log)}))
                continue
            message = json.loads(line)
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "hello":
                write(encode({"type": "hello", "name": name, "author": "arbo"}))
            elif kind == "game":
                table, bot = SeatTable.of(message), make()
                rng = random.Random(f"{seed}/{message.get('game')}")
            elif kind == "event" and table is not None:
                mover = message["player"]
                played = table.play(mover, message["action"])
                if isinstance(played, Discard) or table.game.is_over:
                    bot.watch(table.game, mover)
            elif kind == "act":
                write(encode({"action": _choice(bot, table, rng, message, log)}))
            elif kind == "end":
                table = None
            elif kind == "quit":
                return
            else:
                log(f"message skipped: {quoted(line.strip())}")
        except RecursionError:  # json reads nested arrays and objects recursively
            log(f"message skipped (nested too deep to read): {quoted(line.strip())}")
        except (ArboError, ValueError, KeyError, TypeError, IndexError) as error:
            log(f"message skipped ({safe_text(str(error))}): {quoted(line.strip())}")


def _choice(
    bot: Bot, table: SeatTable | None, rng: random.Random, request: Message | str, log: Callable[[str], None]
) -> str:
    """The bot's answer to an ``act`` (the message, or its line not yet read): its choice, or the
    request's first legal action when it has none (ArboError when the request gives none)."""
    if table is not None:
        try:
            return str(bot.choose(table.game, rng))
        except ArboError as error:
            why = f"the bot could not choose ({safe_text(str(error))})"
    else:
        why = "asked to act outside a game"
    message = json.loads(request) if isinstance(request, str) else request
    legal = message.get("legal") if isinstance(message, dict) else None
    if not isinstance(legal, list) or not legal or not isinstance(legal[0], str):
        raise ArboError(f'{why}, and the "act" gives no legal action to play')
    log(f"{why}: the first legal action is played")
    return legal[0]
