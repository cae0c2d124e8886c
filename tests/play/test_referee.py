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
from arbo_notation.bots.protocol import LINE_LIMIT, encode
from arbo_notation.bots.serve import seat_game_of
from arbo_notation.engine.cards import Card
from arbo_notation.engine.state import Game
from arbo_notation.notation.writer import format_game
from arbo_notation.play import referee
from arbo_notation.notation.outside import OUTSIDE_LIMIT, quoted
from arbo_notation.play.referee import BotProcess, FaultKind, is_forfeit, referee_game
from arbo_notation.play.simulate import simulate_game
from tests.play.bots_support import bot_command, docs_bot, processes_running, write_bot


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
    good = BotProcess([sys.executable, str(docs_bot(tmp_path))])
    bad = BotProcess(bot_command(script, mode))
    started = time.monotonic()
    try:
        played = play([bad, good], move_time=1.0)
    finally:
        good.close()
        bad.close()
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
        if message["type"] == "event" and re.fullmatch(r"/?[A-Z][a-z]{0,2}[1-8](@.*)?", message["action"]):
            self.public.add(Card.parse(re.sub(r"^/|@.*$", "", message["action"])))
        hidden = set(truth.deck_cards() or ())
        for player in truth.players:
            if player != self.seat:
                hidden |= set(truth.hand(player).known)
        hidden -= self.public
        shown = json.loads(json.dumps(message))
        if message["type"] == "act":
            del shown["view"]["knowledge"]["unseen"], shown["view"]["knowledge"]["places"]  # every unseen card, by name
        leaked = {Card.parse(word) for word in CARD.findall(json.dumps(shown))} & hidden
        assert not leaked, (self.seat, message)
        if message["type"] == "game":
            _, self.game = seat_game_of(message)
        elif message["type"] == "event":
            self.game.push(self.game.parse_action(message["action"]))

    def request(self, message, seconds):
        self.send(message)
        view = self.game.view(self.seat)
        assert message["legal"] == [str(action) for action in view.legal_actions()]
        return encode({"action": str(self.bot.choose(view, self.rng))})


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
    watchers = [Watcher(p, games) for p in players]
    played = referee_game(
        "1", str(seed), watchers, list(players), fallback=GreedyBot(), fallback_name="greedy", move_time=1
    )
    assert all(w.messages > 50 for w in watchers)
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
