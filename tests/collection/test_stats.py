"""`arbo stats` against small archives counted by hand from their result lines."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
runner = CliRunner()

# The finished, scored samples and their result lines (seat order, start player first):
#   annotated.arb               Ana 21, Ben 7                 Study game    2026-11-28  winner Ana
#   four-players.arb            Ana 3, Ben 0, Cleo 17, Dev 19  Family table  2026-11-01  winner Dev
#   house-discards.arb          Ana 0, Ben 18, Cleo 3          House rules   2026-11-15  winner Ben
#   three-player-spectator.arb  Mia 6, Noah 0, Omar 14         Autumn open   2026-10-18  winner Omar
#   two-player-omniscient.arb   Ana 16, Ben 14                 Club night    2026-11-29  winner Ana
# and unfinished.arb (result *), which is valid but not scored.
ARCHIVE = [
    "annotated.arb",
    "four-players.arb",
    "house-discards.arb",
    "three-player-spectator.arb",
    "two-player-omniscient.arb",
    "unfinished.arb",
]


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("club")
    for name in ARCHIVE:
        shutil.copy(SAMPLES / name, folder / name)
    return folder


def stats_json(*args):
    done = run("stats", "--json", *args)
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def test_per_player_games_wins_win_rate_mean_score_and_best_game(archive):
    data = stats_json(archive)
    assert (data["games"], data["invalid"], data["unscored"]) == (5, 0, 1)
    players = {p["player"]: p for p in data["players"]}
    # Ana: 21 (won), 3, 0, 16 (won); Ben: 7, 0, 18 (won), 14
    assert players["Ana"] == {
        "player": "Ana",
        "games": 4,
        "wins": 2,
        "win_rate": 0.5,
        "mean_score": 10.0,
        "best": {"score": 21, "file": str(archive / "annotated.arb"), "game": 1},
        "judged": 0,
        "mean_points_lost": None,
        "accuracy": None,
    }
    assert (players["Ben"]["games"], players["Ben"]["wins"], players["Ben"]["mean_score"]) == (4, 1, 9.75)
    assert players["Ben"]["best"]["score"] == 18
    assert (players["Cleo"]["games"], players["Cleo"]["wins"], players["Cleo"]["mean_score"]) == (2, 0, 10.0)
    assert players["Dev"]["win_rate"] == 1.0 and players["Noah"]["mean_score"] == 0.0
    # most wins first, then the best win rate, then the best mean score
    assert [p["player"] for p in data["players"]] == ["Ana", "Dev", "Omar", "Ben", "Cleo", "Mia", "Noah"]


def test_per_seat_the_start_player_wins_two_of_five(archive):
    seats = stats_json(archive)["seats"]
    # seat 1: Ana, Ana, Ana, Mia, Ana: wins in annotated and two-player; seat 2: Ben, Ben, Ben, Noah, Ben:
    # house-discards; seat 3: Cleo, Cleo, Omar: the spectator game; seat 4: Dev, who won.
    assert seats == [
        {"seat": 1, "games": 5, "wins": 2, "win_rate": 0.4},
        {"seat": 2, "games": 5, "wins": 1, "win_rate": 0.2},
        {"seat": 3, "games": 3, "wins": 1, "win_rate": 0.3333},
        {"seat": 4, "games": 1, "wins": 1, "win_rate": 1.0},
    ]


def test_per_species_how_often_it_scored_and_its_mean_points(archive, tmp_path):
    species = {s["species"]: s for s in stats_json(archive)["species"]}
    # from the score sheets of the five games (arbo score): the paths of each species that score
    sheets = [json.loads(run("score", "--json", archive / name).stdout) for name in ARCHIVE[:-1]]
    for code, row in species.items():
        played = [s for s in sheets if code in s["species"]]
        points = [p["species"][code]["points"] for s in played for p in s["players"] if p["species"][code]["points"]]
        scored = sum(1 for s in played if any(p["species"][code]["points"] for p in s["players"]))
        assert (row["games"], row["scored"], row["paths"]) == (len(played), scored, len(points)), code
        assert row["mean_points"] == (round(sum(points) / len(points), 2) if points else None)
    assert species["Tp"] == {
        "species": "Tp",
        "games": 1,
        "scored": 0,
        "scored_rate": 0.0,
        "paths": 0,
        "mean_points": None,
    }
    assert species["Ma"]["games"] == species["Ma"]["scored"] == 5


def test_the_text_table(archive):
    done = run("stats", archive / "annotated.arb", archive / "two-player-omniscient.arb")
    assert done.exit_code == 0
    a, b = archive / "annotated.arb", archive / "two-player-omniscient.arb"
    assert done.stdout.split("\n\n")[:2] == [
        "2 games: 2 counted",
        "player  games  wins  win rate  mean score  best game\n"
        f"Ana         2     2    100.0%        18.5  21 ({a}, game 1)\n"
        f"Ben         2     0      0.0%        10.5  14 ({b}, game 1)",
    ]
    assert "1 (start player)      2     2    100.0%" in done.stdout


def test_by_event_date_and_players(archive):
    by_players = stats_json(archive, "--by", "players")
    assert by_players["by"] == "players"
    assert [(g["group"], g["games"], g["unscored"]) for g in by_players["groups"]] == [(2, 2, 1), (3, 2, 0), (4, 1, 0)]
    two = by_players["groups"][0]
    assert {p["player"]: p["wins"] for p in two["players"]} == {"Ana": 2, "Ben": 0}
    by_date = stats_json(archive, "--by", "date")
    assert [g["group"] for g in by_date["groups"]] == [
        "2026-10-18",
        "2026-11-01",
        "2026-11-15",
        "2026-11-20",
        "2026-11-28",
        "2026-11-29",
    ]
    by_event = stats_json(archive, "--by", "event")
    club = next(g for g in by_event["groups"] if g["group"] == "Club night")
    assert club["games"] == 1 and club["players"][0]["player"] == "Ana"
    text = run("stats", archive, "--by", "players").stdout
    assert text.startswith("2 players\n3 games: 2 counted, 1 not scored") and "\n3 players\n" in text


def test_an_export_folder_is_counted_as_its_records_are(archive, tmp_path):
    run("convert", archive, "--to", "parquet", "-o", tmp_path / "t")
    assert stats_json(tmp_path / "t") == stats_json(archive)


def test_invalid_games_are_named_and_not_counted(archive, tmp_path):
    bad = tmp_path / "bad.arb"
    shutil.copy(SAMPLES / "invalid" / "rule-wrong-result.arb", bad)
    done = run("stats", "--json", archive / "annotated.arb", bad)
    assert done.exit_code == 1
    assert "the result line gives Ben 6, but Ben scores 4" in done.stderr and "(game 1, not counted)" in done.stderr
    data = json.loads(done.stdout)
    assert (data["games"], data["invalid"]) == (1, 1)


def test_no_game_and_a_missing_file(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    data = stats_json(empty)
    assert data == {"games": 0, "invalid": 0, "unscored": 0, "players": [], "seats": [], "species": []}
    missing = run("stats", tmp_path / "nope.arb")
    assert missing.exit_code == 1 and "nope.arb" in missing.stderr and "Traceback" not in missing.output
    assert run("stats", empty, "--by", "colour").exit_code == 2


NOTE = re.compile(r"\{arbo: [^}]*\}")


@pytest.fixture(scope="module")
def analysed_pair(tmp_path_factory) -> Path:
    """Two analysed games: samples/analysed.arb (Ana lost 1.3 1.5 2.5 1.1 2.9 1.4 1.5 0 2.4 1.0,
    Ben 2.1 0.5 3.3 2.2 1.9 0 0 4.4 4.0) and the same game with every note saying no loss but
    turn 1's (Ana, 3.5 points lost)."""
    folder = tmp_path_factory.mktemp("analysed")
    text = (SAMPLES / "analysed.arb").read_text()
    (folder / "a.arb").write_text(text)
    calm = NOTE.sub("{arbo: +0.0 (48 samples)}", text).replace(
        "{arbo: +0.0 (48 samples)}", "{arbo: +0.0 (48 samples); 3.5 points lost}", 1
    )
    (folder / "b.arb").write_text(calm)
    return folder


def test_points_lost_and_accuracy_are_pooled_over_the_analysed_games(analysed_pair):
    players = {p["player"]: p for p in stats_json(analysed_pair)["players"]}
    # Ana: 20 turns, 15.6 + 3.5 = 19.1 points lost (0.96 a turn); turn accuracies 100 * exp(-loss / 3.5)
    # sum to 657.47 in a.arb and 9 * 100 + 36.79 in b.arb: (657.47 + 936.79) / 20 = 79.71%
    # Ben: 18 turns, 18.4 points lost (1.02 a turn); (552.30 + 9 * 100) / 18 = 80.68%
    assert [(p["judged"], p["mean_points_lost"], p["accuracy"]) for p in (players["Ana"], players["Ben"])] == [
        (20, 0.96, 79.7),
        (18, 1.02, 80.7),
    ]
    text = run("stats", analysed_pair).stdout.split("\n\n")[1]
    assert text.split("\n")[:3] == [
        "player  games  wins  win rate  mean score  turns judged  points lost a turn  accuracy  best game",
        f"Ana         2     2    100.0%        12.0            20                0.96     79.7%  12 ({analysed_pair / 'a.arb'}, game 1)",
        f"Ben         2     0      0.0%         4.0            18                1.02     80.7%  4 ({analysed_pair / 'a.arb'}, game 1)",
    ]
