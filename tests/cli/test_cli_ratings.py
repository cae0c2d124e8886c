"""`arbo ratings`: the leaderboard, --history, --json, the exit statuses and messages, and the
docs' example."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from arbo_notation.cli import app
from tests.collection.test_ratings import INVALID, UNFINISHED, game

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def run(*args):
    return runner.invoke(app, ["ratings", *map(str, args)])


def test_one_game_gives_the_leaderboard(tmp_path: Path):
    (tmp_path / "g.arb").write_text(game({"Ben": 20, "Ana": 30}, "2026-05-01"), encoding="utf-8")
    result = run(tmp_path)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "1 game: 1 rated\n"
        "\n"
        "#  player  rating  uncertainty  conservative  games\n"
        "1  Ana      27.64         8.07          3.44      1\n"
        "2  Ben      22.36         8.07         -1.83      1\n"
    )


def test_history_lists_each_players_games(tmp_path: Path):
    (tmp_path / "g.arb").write_text(game({"Ana": 30, "Ben": 20}, "2026-05-01") + game({"Ana": 5, "Ben": 9}))
    result = run(tmp_path / "g.arb", "--history")
    assert result.exit_code == 0
    ana = result.stdout.split("\n\nAna\n", 1)[1].split("\n\n")[0].splitlines()
    assert ana[0].split() == ["game", "date", "rank", "rating", "uncertainty"]
    assert [line.split()[:4] for line in ana[1:]] == [  # the undated game 2 is rated first
        [str(tmp_path / "g.arb"), "(game", "2)", "-"],
        [str(tmp_path / "g.arb"), "(game", "1)", "2026-05-01"],
    ]
    assert [line.split()[4] for line in ana[1:]] == ["2", "1"]


def test_a_game_that_starts_from_a_position_is_counted_apart_and_not_rated(tmp_path: Path):
    study = (ROOT / "samples" / "study.arb").read_text(encoding="utf-8")
    (tmp_path / "g.arb").write_text(game({"Ana": 30, "Ben": 20}) + study, encoding="utf-8")
    result = run(tmp_path, "--json")
    assert result.exit_code == 0, result.output
    counts = json.loads(result.stdout)
    assert (counts["games"], counts["rated"], counts["from_position"]) == (2, 1, 1)
    assert [(p["player"], p["games"]) for p in counts["players"]] == [("Ana", 1), ("Ben", 1)]
    assert run(tmp_path).stdout.startswith("2 games: 1 rated, 1 from a position\n")


def test_json_for_scripts(tmp_path: Path):
    (tmp_path / "g.arb").write_text(game({"Ana": 30, "Ben": 20}) + UNFINISHED, encoding="utf-8")
    plain = json.loads(run(tmp_path, "--json").stdout)
    assert plain.keys() == {
        *("model", "by", "games", "rated", "rated_by_bot", "invalid", "unfinished", "forfeited", "unreadable"),
        *("from_position", "players"),
    }
    assert (plain["by"], plain["rated_by_bot"], plain["forfeited"], plain["from_position"]) == ("bot", 0, 0, 0)
    assert (plain["model"], plain["games"], plain["rated"], plain["unfinished"]) == ("PlackettLuce", 2, 1, 1)
    ana = plain["players"][0]
    assert ana.keys() == {"player", "mu", "sigma", "ordinal", "games"}
    assert ana["player"] == "Ana" and ana["ordinal"] == ana["mu"] - 3 * ana["sigma"]
    full = json.loads(run(tmp_path, "--json", "--history").stdout)
    step = full["players"][0]["history"][0]
    assert step == {
        "game": {"file": str(tmp_path / "g.arb"), "game": 1, "date": None},
        "rank": 1,
        "mu": ana["mu"],
        "sigma": ana["sigma"],
    }


def test_an_invalid_game_is_named_and_the_status_is_1_the_others_rated(tmp_path: Path):
    (tmp_path / "bad.arb").write_text(INVALID, encoding="utf-8")
    (tmp_path / "g.arb").write_text(game({"Ana": 30, "Ben": 20}), encoding="utf-8")
    result = run(tmp_path)
    assert result.exit_code == 1
    assert result.stderr.endswith("[syntax] (game 1, not rated)\n") and result.stderr.count("\n") == 1
    assert result.stdout.startswith("2 games: 1 rated, 1 invalid\n\n#  player")


def test_a_missing_file_is_one_message_and_status_1(tmp_path: Path):
    result = run(tmp_path / "nothere.arb")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"arbo: {tmp_path / 'nothere.arb'}: no such file\n"


def test_a_folder_with_no_finished_game_says_so_and_is_no_error(tmp_path: Path):
    (tmp_path / "g.arb").write_text(UNFINISHED, encoding="utf-8")
    result = run(tmp_path)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == f"arbo: no finished game to rate in {tmp_path} (1 game read: 1 unfinished)\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(empty, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["players"] == []
    assert result.stderr == f"arbo: no finished game to rate in {empty} (0 games read)\n"


def test_a_bare_ratings_prints_its_usage_and_what_is_missing():
    result = runner.invoke(app, ["ratings"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[1:] == ["arbo: missing argument FILE|DIR", "Try 'arbo ratings --help' for help."]


GAMES = [
    game({"Ana": 30, "Ben": 20}, "2026-05-01"),
    game({"Ben": 11, "Cleo": 11, "Ana": 4}, "2026-05-01"),
    game({"Cleo": 9, "Ana": 2}),
    game({"Dev": 3, "Ben": 8}, "2026-04-30"),
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(["a.arb", "b.arb", "c/d.arb", "c"]))
def test_ratings_do_not_depend_on_the_order_of_the_files_given(tmp_path: Path, order: list[str]):
    (tmp_path / "c").mkdir(exist_ok=True)
    for name, text in zip(["a.arb", "b.arb", "c/d.arb", "c/e.arb"], GAMES, strict=True):
        (tmp_path / name).write_text(text, encoding="utf-8")
    given_order = run(*(tmp_path / name for name in order), "--history")
    sorted_order = run(*(tmp_path / name for name in sorted(order)), "--history")
    assert given_order.exit_code == 0 and given_order.stdout == sorted_order.stdout


def test_the_example_of_docs_commands_runs_and_prints_what_it_shows(monkeypatch):
    page = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    section = page.split("## Ratings\n", 1)[1].split("\n## ", 1)[0]
    command = section.split("```sh\n", 1)[1].split("```", 1)[0].strip()
    shown = section.split("```text\n", 1)[1].split("```", 1)[0]
    assert command == "arbo ratings samples/*.arb"
    monkeypatch.chdir(ROOT)
    files = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "samples").glob("*.arb"))  # as the shell expands it
    result = runner.invoke(app, ["ratings", *files])
    assert (result.exit_code, result.stderr, result.stdout) == (0, "", shown)


def test_openskill_is_loaded_by_ratings_alone():
    """openskill's import (~28 ms) is paid where ratings are computed, not by `arbo --help` or
    `arbo check`, nor by `arbo ratings --help`."""
    sample = str(ROOT / "samples" / "two-player-omniscient.arb")
    script = (
        "import sys\nfrom arbo_notation.cli import app\n"
        "try:\n    app(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print('openskill' in sys.modules)"
    )
    for args, loaded in [(["--help"], False), (["check", sample], False), (["ratings", "--help"], False)]:
        done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=True)
        assert done.stdout.splitlines()[-1] == str(loaded), args
    done = subprocess.run([sys.executable, "-c", script, "ratings", sample], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "True"  # the test sees openskill's import where it is


def test_ratings_of_a_matchs_folder_are_the_matchs_own(tmp_path: Path):
    out = tmp_path / "m"
    played = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "match", "greedy", "random", "--games", "4", "--seed", "2"]
        + ["--out", str(out), "-j", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    own = json.loads(played.stdout)["ratings"]
    rated = run(out, "--json")
    assert rated.exit_code == 0
    data = json.loads(rated.stdout)
    assert (data["by"], data["rated"], data["rated_by_bot"]) == ("bot", 4, 4)
    assert data["players"] == own and [p["player"] for p in own] == ["greedy", "random"]
    text = run(out)
    assert text.stdout.startswith("4 games: 4 rated (4 by the bots of their header's `bots`; --by player rates")
    seats = json.loads(run(out, "--json", "--by", "player").stdout)
    assert {p["player"] for p in seats["players"]} == {"Ana", "Ben"} and seats["rated_by_bot"] == 0
