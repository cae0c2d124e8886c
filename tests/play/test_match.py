"""Matches: seats rotated and duplicated, real bot processes, the summary's figures."""

from __future__ import annotations

import math
import shlex
import sys

import pytest
from hypothesis import given, strategies as st

from arbo_notation.checking.games import check_text
from arbo_notation.notation.reading.reader import parse
from arbo_notation.play.match import (
    Estimate,
    GameOutcome,
    MatchOptions,
    bot_seed,
    command_of,
    decided_so_far,
    labels,
    match_tasks,
    play_match,
    summarise,
)
from arbo_notation.play import referee
from arbo_notation.play.referee import BotProcess, FaultKind
from arbo_notation.play.simulate import game_seed
from tests.play.bots_support import docs_bot, processes_running


def errors(text: str) -> list:
    return [d for d in check_text(text, "m.arb").diagnostics if d.severity == "error"]


def test_duplicate_seating_plays_each_deal_once_per_rotation():
    tasks = list(match_tasks(["a", "b", "c"], 6, "s", duplicate=True))
    assert [(t.deal, t.seating) for t in tasks] == [
        (1, (0, 1, 2)),
        (1, (2, 0, 1)),
        (1, (1, 2, 0)),
        (2, (0, 1, 2)),
        (2, (2, 0, 1)),
        (2, (1, 2, 0)),
    ]
    assert [t.deal_seed for t in tasks] == [game_seed("s", 1)] * 3 + [game_seed("s", 2)] * 3
    plain = list(match_tasks(["a", "b"], 3, "s"))
    assert [(t.deal, t.seating) for t in plain] == [(1, (0, 1)), (2, (1, 0)), (3, (0, 1))]


def test_labels_number_a_bot_given_twice_and_commands_split_as_a_shell_does():
    assert labels(["greedy", "greedy", "python  my bot.py"]) == ("greedy", "greedy #2", "python my bot.py")
    assert command_of("greedy", "3")[-4:] == ("bot", "greedy", "--seed", "3")
    assert command_of("python 'my bot.py' --fast") == ("python", "my bot.py", "--fast")


def test_a_built_in_bot_is_seeded_by_a_keyed_hash_of_the_match_seed_never_by_the_seed():
    import hashlib
    import hmac

    assert bot_seed("secret42", 0) == hmac.new(b"secret42", b"bot 0", hashlib.sha256).hexdigest()[:32]
    seeds = {bot_seed(seed, index) for seed in ("secret42", "secret43") for index in range(4)}
    assert len(seeds) == 8 and all(len(seed) == 32 and "secret" not in seed for seed in seeds)
    assert bot_seed("\udcff", 1) == hmac.new(b"\xff", b"bot 1", hashlib.sha256).hexdigest()[:32]


def outcome(number, deal, seating, scores, faults=None):
    return GameOutcome(number, deal, "", seating, scores, faults or ((),) * len(scores))


def test_the_summary_by_hand():
    games = [
        outcome(1, 1, (0, 1), (30, 20)),
        outcome(2, 1, (1, 0), (25, 25), ((FaultKind.TIMEOUT,), ())),
        outcome(3, 2, (0, 1), (10, 30)),
        outcome(4, 2, (1, 0), (20, 10)),
    ]
    summary = summarise(("A", "B"), games)
    a, b = summary.bots
    assert (a.games, a.wins, b.wins) == (4, 1.5, 2.5)
    # per deal: A's win shares (1 + .5)/2 and (0 + 0)/2; scores (30+25)/2, (10+10)/2
    assert a.win_rate.mean == pytest.approx(0.375)
    assert a.score.mean == pytest.approx((27.5 + 10) / 2)
    assert a.margin.mean == pytest.approx((5 + -15) / 2)
    assert b.faults == {"timeout": 1} and a.faults == {}
    half = 1.959964 * math.sqrt(((27.5 - 18.75) ** 2 + (10 - 18.75) ** 2) / 1) / math.sqrt(2)
    assert a.score.low == pytest.approx(18.75 - half)
    # A's share of the points, per deal: 55/100 and 20/70
    assert summary.share.mean == pytest.approx((55 / 100 + 20 / 70) / 2)
    assert summary.units == 2 and not summary.decided
    assert [r.name for r in summary.ratings] and {r.games for r in summary.ratings} == {4}


def test_until_decided_needs_ten_deals_whose_share_leaves_half():
    won = [outcome(n, (n + 1) // 2, (0, 1) if n % 2 else (1, 0), (30, 10) if n % 2 else (10, 30)) for n in range(1, 21)]
    assert not decided_so_far(won[:18], 2, duplicate=True)
    assert decided_so_far(won, 2, duplicate=True)
    assert Estimate.of([1.0]).low is None


def test_a_match_of_two_bot_processes_and_the_docs_bot(tmp_path):
    first = f"{sys.executable} {docs_bot(tmp_path)}"
    tasks = match_tasks(["greedy", first], 4, "7", duplicate=True, options=MatchOptions(seed="7", move_time=20))
    outcomes = list(play_match(tasks, jobs=1))
    assert [o.number for o in outcomes] == [1, 2, 3, 4]
    for o in outcomes:
        assert errors(o.text) == []
        assert o.faults == ((), ())
    records = [parse(o.text)[0] for o in outcomes]
    assert records[0].header.deck == records[1].header.deck != records[2].header.deck
    assert records[0].header.extra["bots"] == {"Ana": "greedy", "Ben": first}
    assert records[1].header.extra["bots"] == {"Ana": first, "Ben": "greedy"}
    # the docs' bot plays the first legal action: its first draw of every game is the deck's
    for record in records:
        mine = next(t for t in record.turns if record.header.extra["bots"][t.player] == first)
        assert str(mine.draws[0]).startswith("d:")
    assert processes_running(str(tmp_path)) == []
    assert processes_running(f"arbo_notation bot greedy --seed {bot_seed('7', 0)}") == []


def test_the_docs_bot_of_version_2_plays_a_match_in_version_2_without_a_fault(tmp_path):
    program = docs_bot(tmp_path, version=2)
    bot = BotProcess([sys.executable, str(program)])
    try:
        assert referee.greet(bot, 10) == "first2" and bot.protocol == 2
    finally:
        bot.close()
    first2 = f"{sys.executable} {program}"
    tasks = match_tasks([first2, "greedy"], 2, "7", options=MatchOptions(seed="7", sandbox="off"))
    outcomes = list(play_match(tasks, jobs=1))
    assert all(o.faults == ((), ()) and errors(o.text) == [] for o in outcomes)
    records = [parse(o.text)[0] for o in outcomes]
    mine = next(t for t in records[0].turns if records[0].header.extra["bots"][t.player] == first2)
    assert str(mine.draws[0]).startswith("d:")  # its first legal action: the deck


@pytest.mark.parametrize("bots", [("greedy", "random"), ("random", "greedy", "greedy")])
def test_the_built_in_bots_play_the_same_games_in_protocol_2_as_in_protocol_1(bots):
    """`arbo bot` speaks protocol 2 when offered, and keeps to 1 with --protocol 1: the same choices,
    so the same records (but for the bots' names in the header)."""
    seed, options = "v", MatchOptions(seed="v", sandbox="off")
    old = [shlex.join(command_of(bot, bot_seed(seed, at))) + " --protocol 1" for at, bot in enumerate(bots)]
    played = {
        version: [o.text for o in play_match(match_tasks(list(named), 3, seed, options=options), jobs=1)]
        for version, named in ((2, bots), (1, old))
    }
    records = {version: [parse(text)[0] for text in texts] for version, texts in played.items()}
    assert [(r.header.deck, r.turns, r.result) for r in records[2]] == [
        (r.header.deck, r.turns, r.result) for r in records[1]
    ]
    names = [[r.header.extra["bots"] for r in records[version]] for version in (2, 1)]
    assert (
        names[0][0] == dict(zip(("Ana", "Ben", "Cleo")[: len(bots)], labels(bots), strict=True))
        and names[1][0]["Ana"] == old[0]
    )
    assert all(errors(text) == [] and "fault" not in text for text in played[2])


@pytest.mark.slow
def test_a_match_on_two_workers_gives_the_records_of_one(tmp_path):
    tasks = list(match_tasks(["greedy", "random"], 6, "3"))
    alone = [o.text for o in play_match(tasks, jobs=1)]
    shared = [o.text for o in play_match(tasks, jobs=2)]
    assert alone == shared
    assert processes_running(f"arbo_notation bot random --seed {bot_seed('3', 1)}") == []


# Wilson's 95% interval of k wins in n games, as the tables give it (z = 1.96): 1 of 40, 39 of
# 40, 1 of 2. The normal interval of before gave [-0.024, 0.074], [0.926, 1.024], [-0.480, 1.480].
@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [(1, 40, 0.004427, 0.128814), (39, 40, 0.871186, 0.995573), (1, 2, 0.094531, 0.905469), (0, 5, 0.0, 0.434482)],
)
def test_a_win_rate_has_wilsons_interval(wins, games, low, high):
    rate = Estimate.of_shares([1.0] * wins + [0.0] * (games - wins))
    assert rate.mean == pytest.approx(wins / games)
    assert (rate.low, rate.high) == (pytest.approx(low, abs=5e-7), pytest.approx(high, abs=5e-7))


def test_shares_that_vary_less_than_wins_have_a_narrower_interval_inside_the_bounds():
    # four deals' shares of the points: mean .525, variance (over n) .003125, so the effective
    # sample size is 4 * .525 * .475 / .003125 = 319.2 deals
    shares = Estimate.of_shares([0.55, 0.6, 0.45, 0.5])
    size, z2 = 4 * 0.525 * 0.475 / 0.003125, 1.959964**2
    centre = (0.525 + z2 / (2 * size)) / (1 + z2 / size)
    half = 1.959964 / (1 + z2 / size) * math.sqrt(0.525 * 0.475 / size + z2 / (4 * size**2))
    assert (shares.low, shares.high) == (pytest.approx(centre - half), pytest.approx(centre + half))
    assert Estimate.of_shares([0.5, 0.5, 0.5]) == Estimate(0.5, 0.5, 0.5)
    assert Estimate.of_shares([1.0]).low is None


@given(st.lists(st.floats(0, 1) | st.sampled_from([0.0, 0.5, 1.0]), min_size=2, max_size=60))
def test_every_share_interval_lies_in_0_100_and_holds_its_mean(values):
    shares = Estimate.of_shares(values)
    assert shares.low is not None and shares.high is not None
    assert 0.0 <= shares.low <= shares.mean <= shares.high <= 1.0


def test_the_summary_of_one_win_in_forty_stays_within_0_100():
    games = [outcome(n, n, (0, 1), (30, 20) if n == 1 else (10, 30)) for n in range(1, 41)]
    a, b = summarise(("A", "B"), games).bots
    assert (a.win_rate.low, a.win_rate.high) == (pytest.approx(0.004427, abs=5e-7), pytest.approx(0.128814, abs=5e-7))
    assert (b.win_rate.low, b.win_rate.high) == (pytest.approx(0.871186, abs=5e-7), pytest.approx(0.995573, abs=5e-7))


@pytest.mark.parametrize("sandbox", ["off", "on"])
def test_a_bot_that_cannot_be_started_in_a_game_is_a_fault_written_in_the_record(tmp_path, sandbox):
    options = MatchOptions(seed="1", sandbox=sandbox)
    tasks = match_tasks([str(tmp_path / "gone"), "random"], 2, "1", options=options)
    outcomes = list(play_match(tasks, jobs=1))
    for o in outcomes:
        seat = o.seating.index(0)
        assert o.faults[seat] == (FaultKind.EXITED,) and o.faults[1 - seat] == ()
        seat_name = ("Ana", "Ben")[seat]
        how = "could not be started (No such file or directory)" if sandbox == "off" else "exited (status 1)"
        assert f"{{fault (exited): {seat_name}'s bot ({tmp_path / 'gone'}) {how}" in o.text
        assert errors(o.text) == []
