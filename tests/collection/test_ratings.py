"""The ratings of a collection: OpenSkill's Plackett-Luce over the finished games, in the order of
date, path and game number, checked against the model called by hand on the same games."""

from __future__ import annotations

from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from arbo_notation.collection.ratings import GameRef, Outcome, rate, rate_collection
from arbo_notation.errors import ArboError

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
SPECIES = "[Ca, Dw, Ja, Ma, Oa, Wi]"


def game(scores: dict[str, int], date: str | None = None) -> str:
    """A valid finished game of no turns: the header's ``result`` gives its final scores."""
    written = ", ".join(f"{name}: {score}" for name, score in scores.items())
    dated = f"date: {date}\n" if date else ""
    return f"---\nplayers: [{', '.join(scores)}]\nspecies: {SPECIES}\n{dated}result: {{{written}}}\n---\n\n"


UNFINISHED = f"---\nplayers: [Ana, Ben]\nspecies: {SPECIES}\n---\nresult *\n\n"
INVALID = "---\nplayers: [Ana, Ben]\n---\n\n"  # no species: does not check


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """Games whose order by date, path and number is none of the orders they are written in."""
    (tmp_path / "b.arb").write_text(
        game({"Ana": 20, "Ben": 10}, "2026-03-01") + game({"Ben": 30, "Cleo": 5}, "2026-01-15"), encoding="utf-8"
    )
    (tmp_path / "a.arb").write_text(
        game({"Cleo": 12, "Ana": 12, "Ben": 2}, "2026-03-01") + UNFINISHED + game({"Ana": 1, "Ben": 9}),
        encoding="utf-8",
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.arb").write_text(game({"Dev": 40, "Ana": 3}, "2026-01-15"), encoding="utf-8")
    (tmp_path / "bad.arb").write_text(INVALID, encoding="utf-8")
    return tmp_path


def expected_order(folder: Path) -> list[tuple[str, int, tuple[str, ...], tuple[int, ...]]]:
    """The club's finished games in the order they are rated, written out by hand: the undated
    game first, then by date, then by path, then by number."""
    a, b, c = (str(folder / name) for name in ("a.arb", "b.arb", "sub/c.arb"))
    return [
        (a, 3, ("Ana", "Ben"), (1, 9)),  # no date
        (b, 2, ("Ben", "Cleo"), (30, 5)),  # 2026-01-15, b.arb before sub/c.arb
        (c, 1, ("Dev", "Ana"), (40, 3)),  # 2026-01-15
        (a, 1, ("Cleo", "Ana", "Ben"), (12, 12, 2)),  # 2026-03-01, a.arb before b.arb
        (b, 1, ("Ana", "Ben"), (20, 10)),  # 2026-03-01
    ]


def by_hand(games) -> dict[str, tuple[float, float, int]]:
    """Each player's mu, sigma and games, from the model called directly on the games."""
    model = PlackettLuce()
    ratings: dict = {}
    counted: dict[str, int] = {}
    for _, _, players, scores in games:
        ranks = [1 + sum(other > score for other in scores) for score in scores]
        teams = [[ratings.get(name, model.rating(name=name))] for name in players]
        for name, (rating,) in zip(players, model.rate(teams, ranks=ranks), strict=True):
            ratings[name] = rating
            counted[name] = counted.get(name, 0) + 1
    return {name: (rating.mu, rating.sigma, counted[name]) for name, rating in ratings.items()}


def test_a_collection_is_rated_as_the_model_rates_its_games_in_date_path_and_number_order(club: Path):
    said: list[str] = []
    rated = rate_collection([str(club)], say=said.append)
    expected = by_hand(expected_order(club))
    assert {r.name: (r.mu, r.sigma, r.games) for r in rated.ratings} == expected
    assert (rated.games, rated.rated, rated.invalid, rated.unfinished, rated.unreadable) == (7, 5, 1, 1, ())
    ana = next(r for r in rated.ratings if r.name == "Ana")
    order = [(step.game.file, step.game.game) for step in ana.history if step.game]
    assert order == [(file, number) for file, number, players, _ in expected_order(club) if "Ana" in players]
    assert [step.rank for step in ana.history] == [2, 2, 1, 1]  # a shared first place is a 1
    assert (ana.history[-1].mu, ana.history[-1].sigma) == (ana.mu, ana.sigma)


def test_the_leaderboard_is_by_the_conservative_rating(club: Path):
    ratings = rate_collection([str(club)]).ratings
    ordinals = [r.ordinal for r in ratings]
    assert ordinals == sorted(ordinals, reverse=True)
    assert all(r.ordinal == r.mu - 3 * r.sigma for r in ratings)


def test_an_invalid_game_is_named_counted_and_not_rated(club: Path):
    said: list[str] = []
    rated = rate_collection([str(club / "bad.arb"), str(club / "b.arb")], say=said.append)
    assert rated.invalid == 1 and rated.rated == 2
    assert len(said) == 1 and said[0].startswith(f"{club / 'bad.arb'}:1:1: error: the header has no 'species'")
    assert said[0].endswith("(game 1, not rated)")


def test_a_missing_file_is_said_and_counted(tmp_path: Path):
    said: list[str] = []
    rated = rate_collection([str(tmp_path / "nothere.arb")], say=said.append)
    assert rated.ratings == () and rated.unreadable == (str(tmp_path / "nothere.arb"),)
    assert said == [f"arbo: {tmp_path / 'nothere.arb'}: no such file"]


def test_a_file_given_twice_counts_once(club: Path):
    once = rate_collection([str(club)])
    twice = rate_collection([str(club), str(club / "a.arb"), str(club)])
    assert twice == once


def test_the_engine_scores_a_sample_and_its_result_line_agrees():
    rated = rate_collection([str(SAMPLES / "two-player-omniscient.arb")])  # Ana 16, Ben 14
    ana, ben = rated.ratings
    assert (ana.name, ben.name) == ("Ana", "Ben")
    expected = by_hand([("", 1, ("Ana", "Ben"), (16, 14))])
    assert (ana.mu, ana.sigma) == expected["Ana"][:2] and (ben.mu, ben.sigma) == expected["Ben"][:2]


# -- rate(): results given directly, as arbo match gives them -------------------------------------


def test_the_winner_rises_the_loser_falls_and_a_tie_is_shared():
    win = rate([Outcome(("Ana", "Ben"), (30, 20))])
    assert [r.name for r in win] == ["Ana", "Ben"]
    assert win[0].mu > 25 > win[1].mu
    assert win[0].sigma == win[1].sigma < 25 / 3
    tie = {r.name: r for r in rate([Outcome(("Ana", "Ben", "Cleo"), (12, 12, 4))])}
    assert (tie["Ana"].mu, tie["Ana"].sigma) == (tie["Ben"].mu, tie["Ben"].sigma)
    assert tie["Ana"].mu > 25 > tie["Cleo"].mu
    assert [step.rank for step in tie["Cleo"].history] == [3]


def test_ranks_are_places_by_score_equal_scores_sharing():
    assert Outcome(("A", "B", "C", "D"), (30, 30, 20, 31)).ranks == (2, 2, 4, 1)
    assert Outcome(("A", "B"), (7, 7)).ranks == (1, 1)


def test_the_history_holds_the_game_given():
    where = GameRef("match/0001.arb", 1)
    (first, second) = rate([Outcome(("Ana", "Ben"), (1, 2), where)])
    assert first.name == "Ben" and first.history[0].game == where and str(where) == "match/0001.arb (game 1)"
    assert first.to_json(history=True)["history"] == [
        {"game": {"file": "match/0001.arb", "game": 1, "date": None}, "rank": 1, "mu": first.mu, "sigma": first.sigma}
    ]


@pytest.mark.parametrize(
    "outcome",
    [Outcome(("Ana",), (3,)), Outcome(("Ana", "Ben"), (3,)), Outcome(("Ana", "Ana"), (3, 4))],
)
def test_a_result_that_cannot_be_rated_is_an_arbo_error(outcome: Outcome):
    with pytest.raises(ArboError):
        rate([outcome])


def test_nothing_rated_is_no_rating():
    assert rate([]) == ()


def match_game(scores: dict[str, int], bots: str, more: str = "") -> str:
    """A finished game as `arbo match` heads it: each seat's bot in ``bots`` (a YAML mapping)."""
    return game(scores).replace("---\n\n", f"bots: {bots}\n{more}---\n\n", 1)


def test_a_matchs_records_rate_the_bots_and_by_player_the_seats(tmp_path: Path):
    (tmp_path / "m.arb").write_text(
        match_game({"Ana": 30, "Ben": 20}, "{Ana: greedy, Ben: python bot.py}")
        + match_game({"Ana": 25, "Ben": 10}, "{Ana: python bot.py, Ben: greedy}")
        + game({"Ana": 5, "Cleo": 9}),  # no bots: its players are rated
        encoding="utf-8",
    )
    by_bot = rate_collection([str(tmp_path)])
    assert (by_bot.rated, by_bot.by_bot, by_bot.by) == (3, 2, "bot")
    expected = by_hand(
        [
            ("m.arb", 1, ("greedy", "python bot.py"), (30, 20)),
            ("m.arb", 2, ("python bot.py", "greedy"), (25, 10)),
            ("m.arb", 3, ("Ana", "Cleo"), (5, 9)),
        ]
    )
    assert {r.name: (r.mu, r.sigma, r.games) for r in by_bot.ratings} == pytest.approx(expected)
    by_player = rate_collection([str(tmp_path)], by="player")
    assert (by_player.rated, by_player.by_bot) == (3, 0)
    assert {r.name for r in by_player.ratings} == {"Ana", "Ben", "Cleo"}
    with pytest.raises(ArboError, match="by bot or by player"):
        rate_collection([str(tmp_path)], by="seat")


def test_a_forfeited_game_is_not_rated_and_a_bots_header_that_names_no_two_bots_rates_the_players(tmp_path: Path):
    (tmp_path / "m.arb").write_text(
        match_game({"Ana": 30, "Ben": 20}, "{Ana: greedy, Ben: bad}", "forfeited: [Ben]\n")
        + match_game({"Ana": 25, "Ben": 10}, "{Ana: greedy, Ben: greedy}")  # two seats, one name: the seats
        + match_game({"Ana": 25, "Ben": 10}, "{Ana: greedy}"),  # a seat unnamed: the seats
        encoding="utf-8",
    )
    rated = rate_collection([str(tmp_path)])
    assert (rated.games, rated.rated, rated.forfeited, rated.by_bot) == (3, 2, 1, 0)
    assert {r.name: r.games for r in rated.ratings} == {"Ana": 2, "Ben": 2}
