"""The referee of one game between bot programs: each seat told only what it sees, each answer checked.

Each bot runs as its own process in its own process group (:class:`BotProcess`), and the kernel
kills it when the process that started it dies (PR_SET_PDEATHSIG, as runtime/workers.py arms its
workers). The referee never blocks on a bot: what it writes is queued and written as the pipe
takes it, what it reads is read in pieces, a line at most LINE_LIMIT long, each answer awaited
until its deadline. A fault never stops the game: an illegal or malformed answer is counted and
the fallback bot plays that action; a bot that times out, exits, floods its output or stops
reading is counted, stopped, and the fallback plays its seat to the end of the game.
"""

from __future__ import annotations

import errno
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum

from arbo_notation.bots import protocol
from arbo_notation.bots.base import Bot
from arbo_notation.bots.protocol import LINE_LIMIT, as_seen_by, seat_game
from arbo_notation.engine.actions import Action, Discard, Draw, Plant, Skip, TurnActions, parse_action
from arbo_notation.engine.cards import default_species_for
from arbo_notation.engine.position import Phase
from arbo_notation.engine.scoring import PlayerPosition, score_position
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.engine.view import SeatView
from arbo_notation.errors import ArboError, RuleError
from arbo_notation.notation.model import Comment, GameRecord, Header, Result, Reveal, Turn
from arbo_notation.notation.outside import OUTSIDE_LIMIT, quoted, safe_text
from arbo_notation.play.protocol import view_message
from arbo_notation.play.simulate import DEFAULT_PLAYERS
from arbo_notation.runtime.descendants import end_descendants
from arbo_notation.runtime.workers import ending_signals

#: How long a bot just started has to answer ``hello``, at the least, in seconds (an interpreter's
#: start-up may take a second or two on a busy machine; --move-time counts when it is longer).
STARTUP_SECONDS = 5.0
#: Bytes written to a bot and not yet read by it past which it is stopped as not reading: a
#: game's messages are some 300 KB, so a bot that reads holds far less than this.
MOST_PENDING = 4 << 20
#: What a pipe holds on Linux: messages are queued up to this before they are written unasked.
PIPE_BYTES = 1 << 16
#: The longest fault comment: the texts from outside it quotes are bounded (OUTSIDE_LIMIT each),
#: so only a caller's text would reach this.
FAULT_LIMIT = 8 * OUTSIDE_LIMIT
#: How long a bot told to quit has to end before it is killed, in seconds.
QUIT_SECONDS = 1.0


class FaultKind(Enum):
    ILLEGAL = "illegal"  # an action that is not among the legal ones
    MALFORMED = "malformed"  # not a JSON object with an "action"
    TIMEOUT = "timeout"  # no answer within the move time
    EXITED = "exited"  # the process ended (or never started)
    FLOOD = "flood"  # a line longer than LINE_LIMIT
    STALLED = "stalled"  # it stopped reading what arbo writes to it

    @property
    def stops(self) -> bool:
        """Whether the bot is stopped for the rest of the game (the fallback plays its seat)."""
        return self not in (FaultKind.ILLEGAL, FaultKind.MALFORMED)


class BotFault(Exception):
    """A bot's answer or behaviour that breaks the protocol: its ``kind``, in words, and what it sent."""

    def __init__(self, kind: FaultKind, detail: str, sent: bytes = b"") -> None:
        super().__init__(detail)
        self.kind, self.detail, self.sent = kind, detail, sent


@dataclass(frozen=True, slots=True)
class Fault:
    """A fault of the bot of ``seat``: of what kind, what it sent (quoted), in words."""

    seat: str
    kind: FaultKind
    detail: str
    sent: str = ""

    def comment(self, bot: str, fallback: str, played: Action | None) -> str:
        """The fault in words, for the record: each text from outside in it (the bot's label, what
        it sent) already made safe, and the whole made safe again (which leaves such text as it is)."""
        said = f"; it sent {self.sent}" if self.sent else ""
        then = f"; {fallback} played {played}" if played is not None else ""
        stop = f"; stopped, {fallback} plays {self.seat}'s seat to the end" if self.kind.stops else ""
        text = f"fault ({self.kind.value}): {self.seat}'s bot ({bot}) {self.detail}{said}{then}{stop}"
        return safe_text(text, FAULT_LIMIT)


# -- a bot's process --------------------------------------------------------------------------------

#: The live bot processes of this process: killed by the ending signals (ending_with_the_bots).
_LIVE: "set[BotProcess]" = set()


def _die_with(parent: int) -> None:
    """In the bot's process, before its program runs: the kernel kills it when ``parent`` dies."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        if os.getppid() != parent:  # the parent died before the prctl: nobody will signal
            os._exit(1)


class BotProcess:
    """A bot program started in its own process group, spoken to without ever blocking."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = tuple(command)
        self.greeted = False
        self.name: str | None = None
        self.protocol = protocol.PROTOCOL_VERSION  # the version its hello chose (greet)
        self._out = bytearray()  # written by arbo, not yet taken by the pipe
        self._in = bytearray()  # read from the bot, not yet a whole line
        parent = os.getpid()
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # its own process group (and no terminal's Ctrl-C)
                preexec_fn=lambda: _die_with(parent),
            )
        except OSError as error:
            raise BotFault(FaultKind.EXITED, f"could not be started ({error.strerror or error})") from None
        _LIVE.add(self)
        assert self.process.stdin is not None and self.process.stdout is not None  # (both piped above)
        self._write_fd = self.process.stdin.fileno()
        self._read_fd = self.process.stdout.fileno()
        os.set_blocking(self._write_fd, False)
        os.set_blocking(self._read_fd, False)

    @property
    def running(self) -> bool:
        return self in _LIVE

    def send(self, message: protocol.Message) -> None:
        """Queue a message, written with the next request (one write, one wake-up of the bot, for
        the events of a turn and the request that follows them) or once a pipe's worth is queued;
        BotFault when the bot has ended or has left more than MOST_PENDING bytes unread."""
        self._out += protocol.encode(message)
        if len(self._out) < PIPE_BYTES:
            return
        self._flush()
        if len(self._out) > MOST_PENDING:
            raise BotFault(FaultKind.STALLED, f"stopped reading its input ({len(self._out):,} bytes unread)")

    def request(self, message: protocol.Message, seconds: float) -> bytes:
        """Send a message and return the bot's next line (without its newline), awaited ``seconds``."""
        return self.request_by(message, time.monotonic() + seconds, seconds)

    def request_by(self, message: protocol.Message, deadline: float, seconds: float) -> bytes:
        """Send a message and return the bot's next line, awaited until ``deadline`` (the time on
        time.monotonic()'s clock, ``seconds`` after the request it answers)."""
        self.send(message)
        self._flush()
        while True:
            line = self._line()
            if line is not None:
                return line
            left = deadline - time.monotonic()
            if left <= 0:
                if self._out:
                    raise BotFault(
                        FaultKind.STALLED,
                        f"did not read its input within {seconds:g} s ({len(self._out):,} bytes unread)",
                        bytes(self._in),
                    )
                raise BotFault(FaultKind.TIMEOUT, f"did not answer within {seconds:g} s", bytes(self._in))
            poller = select.poll()
            poller.register(self._read_fd, select.POLLIN)
            if self._out:
                poller.register(self._write_fd, select.POLLOUT)
            for fd, _ in poller.poll(max(1, int(left * 1000))):
                if fd == self._write_fd:
                    self._flush()
                else:
                    self._read()

    def _line(self) -> bytes | None:
        """The next whole line read and not blank, taken out of the buffer; FLOOD past LINE_LIMIT."""
        while (end := self._in.find(b"\n")) >= 0:
            line = bytes(self._in[:end])
            del self._in[: end + 1]
            if end >= LINE_LIMIT:
                raise BotFault(FaultKind.FLOOD, f"wrote a line of more than {LINE_LIMIT:,} bytes", line)
            if line.strip():
                return line
        if len(self._in) >= LINE_LIMIT:
            raise BotFault(FaultKind.FLOOD, f"wrote a line of more than {LINE_LIMIT:,} bytes", bytes(self._in))
        return None

    def _read(self) -> None:
        try:
            chunk = os.read(self._read_fd, LINE_LIMIT)
        except BlockingIOError:
            return
        if not chunk:
            raise BotFault(FaultKind.EXITED, self._ended(), bytes(self._in))
        self._in += chunk

    def _flush(self) -> None:
        while self._out:
            try:
                written = os.write(self._write_fd, self._out[: 1 << 16])
            except BlockingIOError:
                return
            except OSError as error:
                if error.errno in (errno.EPIPE, errno.EBADF):
                    raise BotFault(FaultKind.EXITED, self._ended()) from None
                raise
            del self._out[:written]

    def _ended(self) -> str:
        try:
            status = self.process.wait(0.2)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited (status {status})" if status >= 0 else f"was killed (signal {-status})"

    def close(self) -> None:
        """Say quit, close its input, give it QUIT_SECONDS to end, then kill its process group."""
        if not self.running:
            return
        try:
            self._out += protocol.encode(protocol.quit_message())
            self._flush()
            if not self._out:
                self.process.stdin.close()  # type: ignore[union-attr]  # piped in __init__
                self.process.wait(QUIT_SECONDS)
        except (BotFault, OSError, subprocess.TimeoutExpired):
            pass
        self.kill()

    def kill(self) -> None:
        """Kill the bot's process group (its children too) and reap it."""
        _LIVE.discard(self)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()  # type: ignore[union-attr]  # piped in __init__
            except OSError:
                pass


def end_bots() -> None:
    """Kill every bot process of this process."""
    for bot in list(_LIVE):
        bot.kill()


@contextmanager
def ending_with_the_bots() -> Iterator[None]:
    """While the block runs, an ending signal (runtime/workers.py's) kills this process's bots,
    then this process by the same signal; however the block ends, its bots are killed."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        try:
            yield
        finally:
            end_bots()
        return

    def end(number: int, frame: object) -> None:
        end_bots()
        end_descendants()  # the bots' children that left their process group (runtime/descendants.py)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)

    before = {number: signal.signal(number, end) for number in ending_signals()}
    try:
        yield
    finally:
        end_bots()
        for number, handler in before.items():
            signal.signal(number, handler)


# -- one game ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Played:
    """A game refereed: its omniscient record, the scores in seat order, each seat's faults, and
    whether each seat was forfeited (:func:`is_forfeit`)."""

    record: GameRecord
    scores: tuple[int, ...]
    faults: tuple[tuple[Fault, ...], ...]
    forfeited: tuple[bool, ...] = ()


def is_forfeit(fallback_turns: int, turns: int) -> bool:
    """Whether a seat is forfeited: the fallback chose an action in more than half of its turns,
    so that the game's result is the fallback's more than its bot's (docs/PROTOCOL.md)."""
    return 2 * fallback_turns > turns


class _Game:
    """The state of one refereed game: the true table, each seat's own game and bot, the turn so far."""

    def __init__(
        self,
        game_id: str,
        deal_seed: str,
        bots: Sequence[BotProcess | BotFault | None],
        labels: Sequence[str],
        fallback: Bot,
        fallback_name: str,
        move_time: float,
    ) -> None:
        players = DEFAULT_PLAYERS[: len(bots)]
        self.config = GameConfig(players, default_species_for(len(players)))
        self.setup = Setup.shuffled(self.config, deal_seed)
        self.truth = Game(self.config, self.setup)
        # what each seat knows, as its bot keeps it (bots/protocol.py): its views, legal actions and requests
        self.seats = {p: seat_game(p, players, self.config.species, self.setup.hands[p]) for p in players}
        self.unseen: dict[str, list[Action]] = {p: [] for p in players}  # played, not yet pushed on seats
        self.game_id, self.labels = game_id, tuple(map(safe_text, labels))
        self.bots: list[BotProcess | None] = [None if isinstance(bot, BotFault) else bot for bot in bots]
        self.unstarted = {seat: bot for seat, bot in enumerate(bots) if isinstance(bot, BotFault)}
        self.fallback, self.fallback_name = fallback, fallback_name
        self.move_time = move_time
        self.rng = random.Random(f"{deal_seed}/fallback")
        self.faults: dict[str, list[Fault]] = {p: [] for p in players}
        self.notes: list[Comment] = []  # the faults of the turn in progress
        # the seats whose bots speak protocol 2: the events each was not yet told, the actions it
        # answered and not yet played, the last view it was given (the base of a delta)
        self.untold: dict[int, list[list[str]]] = {}
        self.planned: dict[int, list[str]] = {}
        self.views: dict[int, protocol.Message] = {}

    def fault(self, seat: int, error: BotFault, played: Action | None = None) -> None:
        player = self.config.players[seat]
        fault = Fault(player, error.kind, error.detail, quoted(error.sent) if error.sent else "")
        self.faults[player].append(fault)
        self.notes.append(Comment(fault.comment(self.labels[seat], self.fallback_name, played)))
        if error.kind.stops:
            bot = self.bots[seat]
            if bot is not None:
                bot.kill()
            self.bots[seat] = None

    def tell(self, seat: int, message: protocol.Message) -> None:
        bot = self.bots[seat]
        if bot is not None:
            try:
                bot.send(message)
            except BotFault as error:
                self.fault(seat, error)

    def tell_event(self, seat: int, mover: str, text: str) -> None:
        """Tell a seat an action as it sees it, written ``text``: an event (protocol 1), or kept
        for its next message (2)."""
        bot = self.bots[seat]
        if bot is not None and bot.protocol == 2:
            self.untold.setdefault(seat, []).append([mover, text])
        else:
            self.tell(seat, protocol.event(mover, text))

    def start(self) -> None:
        players, species = self.config.players, self.config.species
        for seat, error in self.unstarted.items():
            self.fault(seat, error)
        for seat, bot in enumerate(self.bots):
            if bot is not None and not bot.greeted:
                bot.greeted = True
                try:
                    bot.name = greet(bot, max(self.move_time, STARTUP_SECONDS))
                except BotFault as error:
                    self.fault(seat, error)
            hand = self.setup.hands[players[seat]]
            self.tell(seat, protocol.game_message(self.game_id, players[seat], players, species, hand))

    def own(self, player: str) -> Game:
        """``player``'s own game, told every action played so far (pushed when first needed: a
        bot of protocol 2 that never asks for the view never needs it)."""
        own, unseen = self.seats[player], self.unseen[player]
        for action in unseen:
            own.push(action)
        unseen.clear()
        return own

    def play_next(self, seat: int) -> tuple[Action, bool]:
        """The next action of the seat to play, played on the true table (a deck draw naming its
        card), and whether its bot chose it (else the fallback did)."""
        bot = self.bots[seat]
        if bot is not None and bot.protocol == 2:
            try:
                return self.planned_action(seat, bot), True  # (pushed as it was judged)
            except BotFault as error:
                self.planned.pop(seat, None)  # a plan is dropped at its first action refused
                action, chosen = self.fall_back(seat, error), False
        else:
            action, chosen = self.choose(seat)
        played = self.truth.as_played(action)  # a deck draw names its card: the truth knows the deck
        self.truth.push(played)
        return played, chosen

    def choose(self, seat: int) -> tuple[Action, bool]:
        """The action of the seat to play, asked of its bot of protocol 1 (or of none), and whether
        its bot chose it (else the fallback did)."""
        player = self.config.players[seat]
        bot = self.bots[seat]
        own = self.own(player)
        view = own.view(player)
        if bot is not None:
            legal = view.legal_actions()
            try:
                shown = [str(action) for action in legal]  # written in the request, then matched
                answer = bot.request(protocol.act(view.phase, shown, view_message(own, player)), self.move_time)
                return judge(answer, legal, view, shown), True
            except BotFault as error:
                return self.fall_back(seat, error), False
        return self.fallback.choose(view, self.rng), False

    def fall_back(self, seat: int, error: BotFault) -> Action:
        """The fallback's action for a seat whose bot is at fault, the fault noted."""
        player = self.config.players[seat]
        action = self.fallback.choose(self.own(player).view(player), self.rng)
        self.fault(seat, error, action)
        return action

    def planned_action(self, seat: int, bot: BotProcess) -> Action:
        """The next action a bot of protocol 2 planned, judged and played now (on the table as its
        actions before it left it); when none is left, the bot is asked for the rest of its turn
        (one ``turn`` request, and the view when it asks for it). BotFault for an answer refused."""
        plan = self.planned.get(seat)
        if not plan:
            plan = self.planned[seat] = self.ask_turn(seat, bot)
        return self.judge_planned(seat, plan.pop(0))

    def judge_planned(self, seat: int, text: str) -> Action:
        """The action ``text`` names, played on the true table (as played: a deck draw names its
        card) when the seat may play it now, as :func:`judge_text` judges a request's answer
        against its legal actions (a draw from a pile may name its owner alone; a deck draw is
        ``d``, the seat cannot see its card). The push judges it: where the seat's legal actions
        are legal on the true table, and only they (the seat knows its own hand and the table's
        every other card it may act on), and a push refused leaves the table as it was: one push
        where judging it by pushing and taking it back, then playing it, took two and a take-back.
        BotFault (illegal) otherwise, in the words of :func:`judge_text`."""
        truth, written = self.truth, text.strip()
        try:
            action = Draw(written) if written in truth.players else truth.parse_action(written)
            if not (isinstance(action, Draw) and action.owner is None and action.card is not None):
                played = truth.as_played(action)
                truth.push(played)
                return played
        except ArboError:  # (RuleError: the push refused, the table as it was)
            pass
        player = self.config.players[seat]
        view = self.own(player).view(player)
        return judge_text(written, view.legal_actions(), view)  # (raises: the words of a refusal)

    def ask_turn(self, seat: int, bot: BotProcess) -> list[str]:
        """The actions a bot of protocol 2 answers a ``turn`` request with: the next 1 to the
        turn's actions left, in order, as text (judged one at a time, as they are played). A bot
        may first ask for the view, once a request, whole or as a delta; the move time counts
        from the request. BotFault (malformed) for any other answer."""
        deadline = time.monotonic() + self.move_time
        events, self.untold[seat] = self.untold.get(seat, []), []
        phase = self.truth.phase
        answer = bot.request_by(protocol.turn(phase, events), deadline, self.move_time)
        message = _json(answer)
        if isinstance(message, dict) and "view" in message and "actions" not in message:
            message, answer = self.show_view(seat, bot, message["view"], answer, deadline)
        left = actions_left(phase, self.truth.draws_taken)
        actions = message.get("actions") if isinstance(message, dict) else None
        if (
            not isinstance(actions, list)
            or not 1 <= len(actions) <= left
            or not all(isinstance(a, str) for a in actions)
        ):
            wanted = "the next action" if left == 1 else f"the next 1 to {left} actions"
            raise BotFault(FaultKind.MALFORMED, f'answered with no "actions": a list of {wanted} of its turn', answer)
        return actions

    def show_view(self, seat: int, bot: BotProcess, kind: object, ask: bytes, deadline: float) -> tuple[object, bytes]:
        """Answer a bot's ask for the view (``kind``: "full" or "delta") and return its next
        answer, read and as sent; BotFault (malformed) for another kind or a second ask."""
        if kind not in ("full", "delta"):
            raise BotFault(FaultKind.MALFORMED, 'asked for a view that is neither "full" nor "delta"', ask)
        player = self.config.players[seat]
        own = self.own(player)
        legal = [str(action) for action in own.view(player).legal_actions()]
        whole = view_message(own, player)
        base, self.views[seat] = self.views.get(seat), whole
        if kind == "full":
            reply = protocol.view_answer(legal, whole)
        else:
            reply = protocol.view_answer(legal, delta=protocol.view_delta(base, whole))
        answer = bot.request_by(reply, deadline, self.move_time)
        message = _json(answer)
        if isinstance(message, dict) and "view" in message and "actions" not in message:
            raise BotFault(FaultKind.MALFORMED, "asked for the view twice in one request", answer)
        return message, answer

    def play(self) -> Played:
        self.start()
        players = self.config.players
        truth = self.truth
        turns: list[Turn] = []
        before = self.notes
        self.notes = []
        fallback_turns = dict.fromkeys(players, 0)
        while not truth.is_over:
            mover = truth.current_player
            seat = truth.config.seat(mover)
            number = truth.turn_number
            done: list[Action] = []
            by_bot = True
            while True:
                played, chosen = self.play_next(seat)
                by_bot = by_bot and chosen
                done.append(played)
                written = str(played)  # (written once: as every seat but a deck draw's others see it)
                for other, player in enumerate(players):
                    seen = as_seen_by(played, mover, player)
                    self.unseen[player].append(seen)
                    self.tell_event(other, mover, written if seen is played else str(seen))
                if isinstance(played, Discard):
                    break
            fallback_turns[mover] += not by_bot
            first, second, plant, discard = done
            assert isinstance(plant, Plant) and isinstance(discard, Discard)  # (the phases' order)
            assert isinstance(first, (Draw, Skip)) and isinstance(second, (Draw, Skip))
            played_turn = TurnActions(mover, (first, second, plant, discard), number)
            turns.append(Turn.of(played_turn, comments_after=tuple(self.notes)))
            self.notes = []
        seat_turns = {p: sum(turn.player == p for turn in turns) for p in players}
        forfeited = [p for p in players if is_forfeit(fallback_turns[p], seat_turns[p])]
        hands = truth.final_hands()
        sheet = score_position(self.config.species, [PlayerPosition(p, truth.arboretum(p), hands[p]) for p in players])
        scores = {p.name: p.total for p in sheet.players}
        for seat in range(len(players)):
            bot = self.bots[seat]
            untold = self.untold.get(seat, []) if bot is not None and bot.protocol == 2 else None
            self.tell(seat, protocol.end(self.game_id, scores, untold))
        extra: dict[str, object] = {"bots": dict(zip(players, self.labels, strict=True))}
        if forfeited:  # the seats the fallback played (is_forfeit), which `arbo ratings` leaves unrated
            extra["forfeited"] = forfeited
        header = Header(
            players=players,
            species=self.config.species,
            deck=self.setup.deck,
            hands={p: tuple(sorted(self.setup.hands[p])) for p in players},
            extra=extra,
        )
        record = GameRecord(
            header=header,
            turns=tuple(turns),
            comments=tuple(before),
            reveals=tuple(Reveal(p, hands[p]) for p in players),
            result=Result(scores=tuple(scores.items()), comments=tuple(self.notes)),
        )
        return Played(
            record,
            tuple(scores[p] for p in players),
            tuple(tuple(self.faults[p]) for p in players),
            tuple(p in forfeited for p in players),
        )


def actions_left(phase: Phase, draws_taken: int) -> int:
    """The actions left in a turn at ``phase``: 4 before its first draw, 1 for its discard."""
    if phase is Phase.DRAW:
        return 4 - draws_taken
    return 2 if phase is Phase.PLANT else 1


def greet(bot: BotProcess, seconds: float) -> str:
    """Say hello to a bot, set the protocol its hello chose (``bot.protocol``: 1 when it names
    none) and return the name it answers with (made safe to show); BotFault for no hello, or a
    protocol that is not offered."""
    answer = bot.request(protocol.hello(), seconds)
    said = _json(answer)
    if not isinstance(said, dict) or said.get("type") != "hello":
        raise BotFault(FaultKind.MALFORMED, "did not answer hello with a hello", answer)
    chosen = said.get("protocol", protocol.PROTOCOL_VERSION)
    if type(chosen) is not int or chosen not in protocol.PROTOCOLS:  # (True is no version)
        offered = " or ".join(map(str, protocol.PROTOCOLS))
        raise BotFault(FaultKind.MALFORMED, f"chose a protocol in its hello that is not offered ({offered})", answer)
    bot.protocol = chosen
    return safe_text(str(said.get("name") or ""))


def _json(answer: bytes) -> object:
    """A bot's answer read as JSON; BotFault (malformed) for one that is not, or nests too deep."""
    try:
        return json.loads(answer)
    except ValueError:  # UnicodeDecodeError too: JSON text is UTF-8
        raise BotFault(FaultKind.MALFORMED, "answered with no JSON object", answer) from None
    except RecursionError:  # json reads nested arrays and objects recursively
        raise BotFault(FaultKind.MALFORMED, "answered with JSON nested too deep to read", answer) from None


def judge(answer: bytes, legal: Sequence[Action], view: SeatView, shown: Sequence[str] | None = None) -> Action:
    """The action a bot's answer names, when it is one of ``legal`` (written as ``shown``, when
    given); BotFault otherwise. A draw from a pile may name its owner alone (``Ben`` for ``Ben:Oa5``)."""
    message = _json(answer)
    text = message.get("action") if isinstance(message, dict) else None
    if not isinstance(text, str):
        raise BotFault(FaultKind.MALFORMED, 'answered with no "action" text', answer)
    return judge_text(text, legal, view, shown)


def judge_text(text: str, legal: Sequence[Action], view: SeatView, shown: Sequence[str] | None = None) -> Action:
    """The action ``text`` names, when it is one of ``legal`` (:func:`judge`); BotFault (illegal) otherwise."""
    text = text.strip()
    for action, written in zip(legal, shown or [str(action) for action in legal], strict=True):
        if written == text or (isinstance(action, Draw) and action.owner == text):
            return action
    # what it sent is the action, quoted once (not the whole answer again)
    raise BotFault(FaultKind.ILLEGAL, f"played {quoted(text)}, {_why_illegal(text, view)}")


def _why_illegal(text: str, view: SeatView) -> str:
    """Why an action is not legal, in a player's words (the engine's), tried on the seat's own table.
    Text that is no action is not quoted again: the engine's words then name only what it read."""
    try:
        parse_action(text)
    except ArboError:
        return "which is no action (a draw is d, d:Ma3, a player's name or -; a planting Ma3@0,1; a discard /Oa5)"
    try:
        probe = Game.from_position(view.position)  # what the seat knows: every other card hidden
        probe.push(probe.parse_action(text))
    except (RuleError, ArboError) as error:
        return safe_text(str(error))
    return "not one of the legal actions it was given"


def referee_game(
    game_id: str,
    deal_seed: str,
    bots: Sequence[BotProcess | BotFault | None],
    labels: Sequence[str],
    *,
    fallback: Bot,
    fallback_name: str,
    move_time: float,
) -> Played:
    """Referee one game dealt with ``deal_seed`` between ``bots`` (one per seat, in seat order;
    None: the fallback plays that seat; a BotFault: the bot could not be started, a fault written
    in the record, and the fallback plays its seat), each named in the record by its ``label``. A bot stopped
    for a fault is killed and its place set to None: ``bots`` is not changed, the caller sees it
    by ``BotProcess.running``."""
    if not 2 <= len(bots) <= 4 or len(labels) != len(bots):
        raise ArboError(f"a game has 2 to 4 seats, each with a label: {len(bots)} bots, {len(labels)} labels")
    return _Game(game_id, deal_seed, bots, labels, fallback, fallback_name, move_time).play()


__all__ = [
    "BotFault",
    "BotProcess",
    "Fault",
    "FaultKind",
    "Played",
    "end_bots",
    "ending_with_the_bots",
    "is_forfeit",
    "referee_game",
]
