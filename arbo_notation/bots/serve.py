"""A bot served over the bot protocol (`arbo bot`): the seat's own game kept from the messages
(bots/protocol.py's ``seat_game``, each event pushed), and the bot asked to act on that game's view
of the seat: what the seat saw, and nothing more. It speaks protocol 2 where the referee offers it:
a ``turn`` request is answered with every action the bot can choose before a card it cannot see
(a deck draw's) is drawn.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO

from arbo_notation.bots.base import Bot
from arbo_notation.bots.protocol import LINE_LIMIT, PROTOCOLS, Message, encode, seat_game
from arbo_notation.engine.actions import Discard, Draw
from arbo_notation.engine.cards import Card
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError
from arbo_notation.notation.outside import quoted, safe_text

#: How a request begins as :func:`~arbo_notation.bots.protocol.encode` writes it (serve() answers
#: such a line unread).
_ACT_START = '{"type":"act",'


def seat_game_of(message: Message) -> tuple[str, Game]:
    """The seat a ``game`` message names and its own game; ArboError for a message that is none."""
    try:
        seat = message["seat"]
        return seat, seat_game(seat, message["players"], message["species"], map(Card.parse, message["hand"]))
    except (KeyError, TypeError) as error:
        raise ArboError(f"a game message gives seat, players, species and hand: {error}") from None


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
    protocol: int = PROTOCOLS[-1],
) -> None:
    """Answer the referee's ``lines`` with ``write`` until ``quit`` or the end of the input: a new
    bot of ``make`` per game, its random numbers seeded with ``seed`` and the game's id (the same
    game, the same choices, whichever process plays it), in the highest version of the protocol
    both the referee's hello and ``protocol`` allow. A message it cannot use (not UTF-8, not
    JSON, nested too deep, not a message it knows, an ``act`` with no legal action to fall back on)
    is logged, quoted safely, and skipped: no answer (docs/PROTOCOL.md). Asked to act when its bot
    cannot choose (no game, a table it lost track of), it plays the first legal action and logs
    why (in protocol 2 from its own table, or, with none, from the view it then asks for)."""
    table: tuple[str, Game] | None = None  # the seat and its own game
    kept: list[str] = []  # the actions of the last plan left pushed on it (_plan), as written
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
                _take_back(table[1], kept)  # (a referee that does not follow a plan with a turn)
                # A request as arbo's referee writes it, to a bot that keeps its own table: answered
                # without reading the line, whose view (some 2.3 KB) this bot never reads. Reading
                # it was most of the bot's JSON: serve() on one seat's 30 games of a greedy match,
                # 6.5 ms of CPU a game before, 5.6 after (bench/README.md, "the bot protocol's cost")
                write(encode({"action": _choice(bot, table, rng, line, log)}))
                continue
            message = json.loads(line)
            kind = message.get("type") if isinstance(message, dict) else None
            if kept and table is not None and kind != "turn":
                _take_back(table[1], kept)  # (as above)
            if kind == "hello":
                write(encode(_hello(message, name, protocol)))
            elif kind == "game":
                table, bot = seat_game_of(message), make()
                kept.clear()
                rng = random.Random(f"{seed}/{message.get('game')}")
            elif kind == "event" and table is not None:
                _push(table[1], message["player"], message["action"])
            elif kind == "act":
                write(encode({"action": _choice(bot, table, rng, message, log)}))
            elif kind == "turn":
                if table is not None:
                    _catch_up(table, message["events"], kept)
                write(encode(_plan(bot, table, rng, log, kept)))
            elif kind == "view":  # asked for when it had no table (_plan)
                write(encode({"actions": [_choice(bot, None, rng, message, log)]}))
            elif kind == "end":
                table = None
                kept.clear()
            elif kind == "quit":
                return
            else:
                log(f"message skipped: {quoted(line.strip())}")
        except RecursionError:  # json reads nested arrays and objects recursively
            log(f"message skipped (nested too deep to read): {quoted(line.strip())}")
        except (ArboError, ValueError, KeyError, TypeError, IndexError) as error:
            log(f"message skipped ({safe_text(str(error))}): {quoted(line.strip())}")


def _hello(message: Message, name: str, highest: int) -> Message:
    """The bot's hello: protocol 2 when the referee offers it and ``highest`` allows it."""
    answer: Message = {"type": "hello", "name": name, "author": "arbo"}
    offered = message.get("protocols")
    if highest >= 2 and isinstance(offered, list) and 2 in offered:
        answer["protocol"] = 2
    return answer


def _push(game: Game, mover: object, action: object) -> None:
    """An event pushed on the seat's own game; ArboError for one out of turn or no action."""
    if mover != game.current_player:
        raise ArboError(f"an event of {mover} where {game.current_player} is to play")
    if not isinstance(action, str):
        raise ArboError(f"an event's action is text, not {type(action).__name__}")
    game.push(game.parse_action(action))


def _catch_up(table: tuple[str, Game], events: object, kept: list[str]) -> None:
    """A ``turn`` request's events pushed on the seat's own game. The actions of the last plan
    left pushed (``kept``) are the first events when the referee played them: not pushed again;
    otherwise they are taken back first, and every event pushed."""
    seat, game = table
    if not isinstance(events, list):
        raise ArboError(f"a turn's events are a list, not {type(events).__name__}")
    if kept and events[: len(kept)] == [[seat, text] for text in kept]:
        events = events[len(kept) :]
        kept.clear()
    _take_back(game, kept)
    for mover, action in events:
        _push(game, mover, action)


def _take_back(game: Game, kept: list[str]) -> None:
    """The actions of the last plan left pushed taken back, the last first."""
    for _ in kept:
        game.pop()
    kept.clear()


def _plan(
    bot: Bot,
    table: tuple[str, Game] | None,
    rng: random.Random,
    log: Callable[[str], None],
    kept: list[str],
) -> Message:
    """The answer to a ``turn`` request: the bot's actions from the phase its table is in, each
    chosen on the seat's view after the ones before it, up to a draw from the deck (whose card
    it cannot know before the referee tells it) or the discard. The actions are played on the
    table to choose the next, and left there, written in ``kept``: the next request's events
    begin with them when the referee played them (_catch_up). Taken back, then read and pushed
    again from the events, they were some 550 of the two seats' 4,781 pushes in 30 recorded
    games of a greedy match (their pops too). With no table it asks for the view, and plays its
    first legal action (_choice)."""
    if table is None:
        log("asked to act outside a game: the view is asked for")
        return {"view": "full"}
    seat, game = table
    actions: list[str] = []
    try:
        while True:
            try:
                action = bot.choose(game.view(seat), rng)
            except ArboError as error:
                if actions:
                    break
                log(f"the bot could not choose ({safe_text(str(error))}): the first legal action is played")
                action = game.view(seat).legal_actions()[0]
            written = str(action)
            actions.append(written)
            if isinstance(action, Discard) or (isinstance(action, Draw) and action.owner is None):
                break
            game.push(action)
            kept.append(written)
    except BaseException:
        _take_back(game, kept)
        raise
    return {"actions": actions}


def _choice(
    bot: Bot,
    table: tuple[str, Game] | None,
    rng: random.Random,
    request: Message | str,
    log: Callable[[str], None],
) -> str:
    """The bot's answer to an ``act`` (the message, or its line not yet read): its choice on the
    seat's view, or the request's first legal action when it has none (ArboError when the request
    gives none)."""
    if table is not None:
        seat, game = table
        try:
            return str(bot.choose(game.view(seat), rng))
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
