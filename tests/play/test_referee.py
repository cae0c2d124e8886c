"""The referee of one game between bot processes: faults counted, the fallback playing, no process left."""

from __future__ import annotations

import json
import re
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from arbo_notation.checking.games import check_text
from arbo_notation.bots import GreedyBot, RandomBot
from arbo_notation.bots.protocol import LINE_LIMIT, apply_delta, as_seen_by, encode
from arbo_notation.bots.serve import seat_game_of
from arbo_notation.engine.actions import Action
from arbo_notation.engine.cards import Card
from arbo_notation.engine.state import Game
from arbo_notation.notation.writer import format_game
from arbo_notation.play import referee
from arbo_notation.notation.outside import OUTSIDE_LIMIT, quoted
from arbo_notation.play.protocol import view_message
from arbo_notation.play.referee import BotProcess, FaultKind, is_forfeit, referee_game
from arbo_notation.play.simulate import simulate_game
from tests.play.bots_support import MISBEHAVING_2, bot_command, docs_bot, processes_running, write_bot


def valid(text: str) -> bool:
    return not [d for d in check_text(text, "match.arb").diagnostics if d.severity == "error"]


def play(bots, move_time: float = 10.0):
    return referee_game(
        "1",
        "7:1",
        bots,
        [f"bot{i}" for i in range(len(bots))],
        fallback=GreedyBot(),
        fallback_name="greedy",
        move_time=move_time,
    )


def against_the_docs_bot(tmp_path, bad: BotProcess, move_time: float = 1.0):
    """A game of the bot ``bad`` (Ana) against docs/PROTOCOL.md's example bot, both closed after."""
    good = BotProcess([sys.executable, str(docs_bot(tmp_path))])
    try:
        return play([bad, good], move_time=move_time)
    finally:
        good.close()
        bad.close()


def test_a_game_of_the_fallback_alone_is_the_greedy_simulation_of_the_deal():
    """With no bot at all, the fallback plays every seat: the game simulate plays with greedy."""
    played = play([None, None])
    simulated = simulate_game(("Ana", "Ben"), "7:1", ["greedy"])
    assert played.record.turns == simulated.turns
    assert played.scores == tuple(score for _, score in simulated.result.scores)
    # every seat the fallback's: both forfeited, named in the header (docs/PROTOCOL.md)
    assert played.record.header.extra == {"bots": {"Ana": "bot0", "Ben": "bot1"}, "forfeited": ["Ana", "Ben"]}
    assert played.forfeited == (True, True)
    assert valid(format_game(played.record))


@pytest.mark.parametrize(
    ("mode", "kind", "stops"),
    [
        ("illegal", FaultKind.ILLEGAL, False),
        ("garbage", FaultKind.MALFORMED, False),
        ("sleep", FaultKind.TIMEOUT, True),
        ("exit", FaultKind.EXITED, True),
        ("flood", FaultKind.FLOOD, True),
        ("deaf", FaultKind.TIMEOUT, True),  # its pipe holds a game's first messages: it is mute
    ],
)
def test_each_fault_is_counted_commented_and_played_by_the_fallback(tmp_path, mode, kind, stops):
    script = write_bot(tmp_path)
    bad = BotProcess(bot_command(script, mode))
    started = time.monotonic()
    played = against_the_docs_bot(tmp_path, bad)
    assert time.monotonic() - started < 20  # a mute bot costs seconds, not a move time per action
    faults = played.faults[0]
    assert faults and {f.kind for f in faults} == {kind}
    assert played.faults[1] == ()
    asked = 4 * sum(turn.player == "Ana" for turn in played.record.turns)
    assert len(faults) == (1 if stops else asked - 3)  # stopped once; else every answer after the third
    text = format_game(played.record)
    assert valid(text)
    assert text.count(f"{{fault ({kind.value}): Ana's bot (bot0)") == len(faults)
    assert processes_running(str(script)) == []
    assert not bad.running


@pytest.mark.parametrize(
    ("mode", "kind", "stops", "said"),
    [
        ("illegal", FaultKind.ILLEGAL, False, 'played "Zz9@9,9", which is no action'),
        ("garbage", FaultKind.MALFORMED, False, "answered with no JSON object"),
        ("badview", FaultKind.MALFORMED, False, 'asked for a view that is neither "full" nor "delta"'),
        ("twice", FaultKind.MALFORMED, False, "asked for the view twice in one request"),
        ("toomany", FaultKind.MALFORMED, False, 'answered with no "actions": a list of the next'),
        ("notalist", FaultKind.MALFORMED, False, 'answered with no "actions": a list of the next'),
        ("empty", FaultKind.MALFORMED, False, 'answered with no "actions": a list of the next'),
        ("sleep", FaultKind.TIMEOUT, True, "did not answer within 1 s"),
        ("viewsleep", FaultKind.TIMEOUT, True, "did not answer within 1 s"),  # the view within the move time
        ("exit", FaultKind.EXITED, True, "exited (status 3)"),
    ],
)
def test_each_fault_of_protocol_2_is_counted_commented_and_played_by_the_fallback(tmp_path, mode, kind, stops, said):
    """A bot of protocol 2 that answers a turn request wrongly is at fault as one of protocol 1 is:
    counted, its answer quoted in the record, the fallback playing that action (or, stopped, the
    seat), never a hang; it is asked again for the rest of its turn."""
    script = write_bot(tmp_path, "misbehaving_2.py", MISBEHAVING_2)
    bad = BotProcess(bot_command(script, mode))
    started = time.monotonic()
    played = against_the_docs_bot(tmp_path, bad)
    assert time.monotonic() - started < 20
    faults = played.faults[0]
    assert faults and {f.kind for f in faults} == {kind} and played.faults[1] == ()
    asked = 4 * sum(turn.player == "Ana" for turn in played.record.turns)  # a request an action: one asked
    assert len(faults) == (1 if stops else asked - 3)  # stopped once; else every answer after the third
    assert all(said in fault.detail for fault in faults)
    assert played.forfeited == (True, False)  # the fallback chose in every turn of the seat after its first
    text = format_game(played.record)
    assert valid(text)
    assert text.count(f"{{fault ({kind.value}): Ana's bot (bot0) {said}") == len(faults)
    assert processes_running(str(script)) == []
    assert not bad.running


def test_a_plan_of_protocol_2_is_played_up_to_its_first_action_refused(tmp_path):
    """Answered a legal draw and an illegal action: the draw is played, the second refused (an
    illegal fault) and played by the fallback; the bot is asked again for the rest of its turn."""
    script = write_bot(tmp_path, "misbehaving_2.py", MISBEHAVING_2)
    played = against_the_docs_bot(tmp_path, BotProcess(bot_command(script, "midplan", 0)), move_time=5.0)
    turns = [turn for turn in played.record.turns if turn.player == "Ana"]
    assert len(played.faults[0]) == len(turns)  # at the first draw of each turn: the second is refused
    assert {fault.kind for fault in played.faults[0]} == {FaultKind.ILLEGAL}
    assert all(str(turn.actions[0]).startswith("d") for turn in turns)  # the bot's first legal action: the deck
    assert played.forfeited == (True, False)  # the fallback chose an action in every turn of the seat
    assert valid(format_game(played.record))


def test_a_hello_choosing_a_protocol_not_offered_is_refused(tmp_path):
    for chosen in (3, "2", True, None):
        program = tmp_path / "chooser.py"
        program.write_text(
            "import json, sys\nsys.stdin.readline()\n"
            f"print(json.dumps({{'type': 'hello', 'name': 'x', 'protocol': {chosen!r}}}), flush=True)\n"
            "sys.stdin.readline()\n",
            encoding="utf-8",
        )
        bot = BotProcess([sys.executable, str(program)])
        try:
            with pytest.raises(referee.BotFault, match=r"chose a protocol in its hello that is not offered \(1 or 2\)"):
                referee.greet(bot, 10)
        finally:
            bot.kill()


def test_a_flood_is_never_read_whole_and_its_quote_is_short_and_printable(tmp_path):
    script = write_bot(tmp_path)
    bad = BotProcess(bot_command(script, "flood", 0))
    try:
        with pytest.raises(referee.BotFault) as caught:
            bad.request({"type": "hello", "protocol": 1}, 5)
            bad.request({"type": "act", "legal": ["d"]}, 5)
    finally:
        bad.kill()
    assert caught.value.kind is FaultKind.FLOOD
    assert len(caught.value.sent) < 2 * LINE_LIMIT
    assert quoted(caught.value.sent) == '"' + "x" * OUTSIDE_LIMIT + f'"... ({len(caught.value.sent):,} bytes)'


def test_writing_to_a_bot_that_never_reads_never_blocks_the_referee(tmp_path):
    script = write_bot(tmp_path)
    deaf = BotProcess(bot_command(script, "deaf"))
    event = {"type": "event", "player": "Ben", "action": "d" * 1000}
    started = time.monotonic()
    try:
        assert referee.greet(deaf, 10) == "deaf"
        with pytest.raises(referee.BotFault) as caught:
            for _ in range(10 * referee.MOST_PENDING // 1000):
                deaf.send(event)
    finally:
        deaf.kill()
    assert caught.value.kind is FaultKind.STALLED
    assert "bytes unread" in caught.value.detail
    assert time.monotonic() - started < 10
    assert processes_running(str(script)) == []


def test_a_bot_that_cannot_start_is_a_fault_not_a_crash(tmp_path):
    with pytest.raises(referee.BotFault) as caught:
        BotProcess([str(tmp_path / "no-such-bot")])
    assert caught.value.kind is FaultKind.EXITED


def test_an_answer_naming_a_piles_owner_alone_is_its_top_card():
    _, game = seat_game_of(
        {
            "seat": "Ana",
            "players": ["Ana", "Ben"],
            "species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"],
            "hand": "Ca1 Ca2 Ca3 Dw1 Dw2 Dw3 Ja1".split(),
        }
    )
    for action in ("d", "d", "Ca1@0,0", "/Ca2", "d", "d", "Oa1@0,0", "/Oa2"):
        game.push(game.parse_action(action))
    view = game.view("Ana")
    legal = view.legal_actions()
    assert [str(a) for a in legal] == ["d", "Ana:Ca2", "Ben:Oa2"]
    assert str(referee.judge(encode({"action": "Ben"}), legal, view)) == "Ben:Oa2"
    with pytest.raises(referee.BotFault, match="Ana cannot draw Oa1 from Ben.s discard pile: its top card is Oa2"):
        referee.judge(encode({"action": "Ben:Oa1"}), legal, view)


# -- what a seat is told ---------------------------------------------------------------------------

CARD = re.compile(r"\b[A-Z][a-z]{0,2}[1-8]\b")


class Watcher:
    """A bot in this process (greedy, on its own seat's table) that checks every message it is
    sent against the referee's true table: no card of another hand it has not seen, nor of the deck."""

    def __init__(self, seat: str, games: list) -> None:
        self.seat, self.games, self.greeted, self.name = seat, games, True, "watcher"
        self.protocol = 1
        self.game: Game | None = None  # the seat's own: dealt its hand alone
        self.bot = RandomBot()
        self.public: set[Card] = set()
        self.messages = 0
        import random

        self.rng = random.Random(seat)

    @property
    def running(self) -> bool:
        return True

    def kill(self) -> None:
        pass

    def send(self, message) -> None:
        truth = self.games[-1].truth
        self.messages += 1
        events = (
            [[message.get("player"), message["action"]]] if message["type"] == "event" else message.get("events", [])
        )
        for _, action in events:
            if re.fullmatch(r"/?[A-Z][a-z]{0,2}[1-8](@.*)?", action):
                self.public.add(Card.parse(re.sub(r"^/|@.*$", "", action)))
        hidden = set(truth.deck_cards() or ())
        for player in truth.players:
            if player != self.seat:
                hidden |= set(truth.hand(player).known)
        hidden -= self.public
        shown = json.loads(json.dumps(message))
        for view in _views_in(shown):
            del view["knowledge"]["unseen"], view["knowledge"]["places"]  # every unseen card, by name
        if "delta" in shown:
            shown["delta"] = [op for op in shown["delta"] if not re.match("/knowledge/(unseen|places)", op["path"])]
        leaked = {Card.parse(word) for word in CARD.findall(json.dumps(shown))} & hidden
        assert not leaked, (self.seat, message)
        if message["type"] == "game":
            _, self.game = seat_game_of(message)
        for _, action in events:
            self.game.push(self.game.parse_action(action))

    def request(self, message, seconds):
        self.send(message)
        view = self.game.view(self.seat)
        assert message["legal"] == [str(action) for action in view.legal_actions()]
        return encode({"action": str(self.bot.choose(view, self.rng))})


def _views_in(message: dict) -> list[dict]:
    """The whole views a message carries: an act's (protocol 1), a view's, a delta's first."""
    if message["type"] in ("act", "view") and "view" in message:
        return [message["view"]]
    return [op["value"] for op in message.get("delta", []) if op["path"] == ""]


class WatcherTwo(Watcher):
    """A Watcher speaking protocol 2: it asks for the view at every request (whole, then as a
    delta, in turn), holds it to the view of its own table (a delta applied to the last one it
    kept), and plays one action a request."""

    def __init__(self, seat: str, games: list) -> None:
        super().__init__(seat, games)
        self.protocol, self.asks, self.kept, self.deltas = 2, 0, None, 0

    def request_by(self, message, deadline, seconds):
        self.send(message)
        view = self.game.view(self.seat)
        if message["type"] == "turn":
            assert message["phase"] == view.phase.value
            self.asks += 1
            return encode({"view": "full" if self.asks % 2 else "delta"})
        assert message["legal"] == [str(action) for action in view.legal_actions()]
        given = json.loads(json.dumps(message))  # the referee keeps its own: a delta is applied to a copy
        if "delta" in given:
            self.deltas += 1
            self.kept = apply_delta(self.kept, given["delta"])
        else:
            self.kept = given["view"]
        assert self.kept == view_message(self.game, self.seat)
        return encode({"actions": [str(self.bot.choose(view, self.rng))]})


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 4))
def test_a_seat_is_never_told_a_card_of_another_hand_or_of_the_deck(monkeypatch, seed, seats):
    games: list = []
    made = referee._Game.__init__

    def keep(self, *args, **kwargs):
        made(self, *args, **kwargs)
        games.append(self)

    monkeypatch.setattr(referee._Game, "__init__", keep)
    players = ("Ana", "Ben", "Cleo", "Dev")[:seats]
    watchers = [(Watcher, WatcherTwo)[(seed + at) % 2](p, games) for at, p in enumerate(players)]
    played = referee_game(
        "1", str(seed), watchers, list(players), fallback=GreedyBot(), fallback_name="greedy", move_time=1
    )
    assert all(w.messages > 50 for w in watchers)
    assert all(w.deltas > 20 for w in watchers if isinstance(w, WatcherTwo))
    assert played.faults == ((),) * seats


def test_a_seat_is_forfeited_when_the_fallback_played_in_more_than_half_its_turns(tmp_path):
    assert (is_forfeit(4, 8), is_forfeit(5, 9), is_forfeit(0, 0)) == (False, True, False)
    script = write_bot(tmp_path)
    good = BotProcess([sys.executable, str(docs_bot(tmp_path))])
    clean = BotProcess(bot_command(script, "none"))
    try:
        baseline = play([clean, good])
    finally:
        clean.close()
    turns = sum(turn.player == "Ana" for turn in baseline.record.turns)
    late = BotProcess(bot_command(script, "illegal", 4 * (turns - 1)))  # illegal in its last turn only
    early = BotProcess(bot_command(script, "illegal", 3))  # illegal from its first turn's discard on
    try:
        kept, lost = play([late, good]), play([early, good])
    finally:
        for bot in (good, late, early):
            bot.close()
    assert baseline.forfeited == (False, False) and "forfeited" not in baseline.record.header.extra
    assert len(kept.faults[0]) == 4 and kept.forfeited == (False, False)
    assert "forfeited" not in kept.record.header.extra
    assert lost.forfeited == (True, False) and lost.record.header.extra["forfeited"] == ["Ana"]
    assert valid(format_game(lost.record))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 4), played=st.integers(0, 120))
def test_protocol_2_judges_an_action_as_protocol_1_judges_it_against_the_legal_actions(seed, seats, played):
    """An action a bot of protocol 2 planned is read and tried on the true table (no list of the
    legal actions made); a bot of protocol 1's answer is matched against the seat's legal actions.
    The same texts pass, as the same actions, and the same are refused, in the same words."""
    players = ("Ana", "Ben", "Cleo", "Dev")[:seats]
    game = referee._Game("1", str(seed), [None] * seats, list(players), GreedyBot(), "greedy", 1.0)
    truth = game.truth
    for _ in range(played):
        if truth.is_over:
            break
        mover = truth.current_player
        action, _ = game.play_next(truth.config.seat(mover))
        for player in players:
            game.unseen[player].append(as_seen_by(action, mover, player))
    if truth.is_over:
        return
    mover = truth.current_player
    view = game.own(mover).view(mover)
    legal = view.legal_actions()
    shown = [str(action) for action in legal]
    hand = [str(card) for card in view.hand(mover).known]
    texts = [*shown, *players, "d", "-", " d ", "Zz9@9,9", "garbage", "d:Ma3", f"{mover}:Ma3"]
    texts += [f"{card}@0,0" for card in hand] + [f"{card}@5,5" for card in hand] + [f"/{card}" for card in hand]
    texts += [f"d:{card}" for card in truth.deck_cards() or ()][:3]
    seat = truth.config.seat(mover)

    def judged(judge, text: str) -> tuple:
        try:
            return ("played", judge(text))
        except referee.BotFault as fault:
            return ("refused", fault.kind, fault.detail)

    def planned(said: str) -> Action:
        """The action judge_planned played, taken back (its push is the judgement and the play)."""
        action = game.judge_planned(seat, said)
        assert truth.pop() == action
        return action

    before = truth.position()
    for text in texts:
        by_list = judged(lambda said: truth.as_played(referee.judge_text(said, legal, view, shown)), text)
        assert by_list == judged(planned, text), text
        assert truth.position() == before  # a refusal leaves the table as it was
