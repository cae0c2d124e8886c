"""`arbo simulate` and `arbo new` through the command line."""

from __future__ import annotations

import datetime

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine.cards import DEFAULT_SPECIES

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def parse(text: str):
    from arbo_notation.notation.reading import parse as parse_text

    return parse_text(text)


# -- arbo simulate ------------------------------------------------------------------------------------


def test_simulate_to_stdout_is_a_multi_game_stream_and_reproducible():
    first = run("simulate", "--players", "2", "--games", "3", "--seed", "5", "--out", "-")
    assert first.exit_code == 0, first.output
    again = run("simulate", "--players", "2", "--games", "3", "--seed", "5")
    assert again.stdout == first.stdout
    other = run("simulate", "--players", "2", "--games", "3", "--seed", "6")
    assert other.stdout != first.stdout
    games = parse(first.stdout)
    assert len(games) == 3
    assert all(g.finished and g.header.players == ("Ana", "Ben") for g in games)


def test_simulate_to_a_directory_writes_one_file_per_game(tmp_path):
    from arbo_notation.notation.writer import format_game
    from arbo_notation.simulate import simulate_games

    out = tmp_path / "nested" / "sims"
    result = run("simulate", "-p", "3", "-n", "2", "-s", "9", "--bot", "greedy,random", "--bot", "random",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert sorted(p.name for p in out.iterdir()) == ["game-0001.arb", "game-0002.arb"]
    expected = list(simulate_games(3, 2, "9", ["greedy", "random", "random"]))
    for record in expected:
        assert (out / f"game-{record.index:04d}.arb").read_text() == format_game(record)
    [back] = parse((out / "game-0002.arb").read_text())
    assert back == expected[1]


def test_simulate_house_discards_and_event():
    result = run("simulate", "-p", "4", "--house-discards", "--event", "Bot night", "--seed", "x")
    assert result.exit_code == 0, result.output
    [game] = parse(result.stdout)
    assert game.header.event == "Bot night"
    assert sorted(game.header.discards) == ["Ben", "Cleo", "Dev"]


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "1"],
        ["--players", "5"],
        ["--players", "two"],
        ["--players", "2", "--games", "0"],
        ["--players", "2", "--bot", "clever"],
        ["--players", "3", "--bot", "greedy,random"],
        ["--games", "2"],
    ],
)
def test_simulate_bad_options_exit_2(args):
    result = run("simulate", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("arbo: ") and "(see 'arbo simulate --help')" in result.stderr


def test_simulate_into_a_file_is_an_error(tmp_path):
    blocker = tmp_path / "file.arb"
    blocker.write_text("")
    result = run("simulate", "--players", "2", "--out", str(blocker))
    assert result.exit_code == 1
    assert "not a directory" in result.stderr
    assert "Traceback" not in result.output


# -- arbo new -------------------------------------------------------------------------------------------


def test_new_prints_a_header_that_parses():
    result = run("new", "--players", "Ana,Ben,Cleo", "--event", "Club night", "--date", "2025-03-14")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("---\n")
    assert "# 1. Ana d d Bs3@0,0 /Ca5" in result.stdout.splitlines()  # the turn-syntax reminder, as YAML comments
    [game] = parse(result.stdout)
    assert game.comments == ()  # so no hint is left behind as a comment of the game
    header = game.header
    assert header.players == ("Ana", "Ben", "Cleo")
    assert header.species == tuple(s.code for s in DEFAULT_SPECIES[:8])
    assert (header.event, header.date) == ("Club night", "2025-03-14")
    assert game.turns == ()


def test_new_dates_today_by_default():
    result = run("new", "--players", "Ana,Ben")
    assert result.exit_code == 0, result.output
    [game] = parse(result.stdout)
    assert game.header.date == datetime.date.today().isoformat()
    assert len(game.header.species) == 6


def test_new_with_a_seed_chooses_species_at_random_reproducibly():
    one = run("new", "--players", "Ana,Ben", "--seed", "3", "--date", "2025-01-01")
    two = run("new", "--players", "Ana,Ben", "--seed", "3", "--date", "2025-01-01")
    assert one.exit_code == 0 and one.stdout == two.stdout
    species = parse(one.stdout)[0].header.species
    codes = [s.code for s in DEFAULT_SPECIES]
    assert len(species) == 6 and set(species) <= set(codes)
    assert list(species) == sorted(species, key=codes.index)
    many = {parse(run("new", "--players", "Ana,Ben", "--seed", str(s), "--date", "2025-01-01").stdout)[0]
            .header.species for s in range(8)}
    assert len(many) > 1


@pytest.mark.parametrize(
    "players",
    ["Ana", "Ana,Ben,Cleo,Dev,Eve", "Ana,Ana", "Ana,d", "Ana,reveal", "Ana,9lives", "Ana,B c", "Ana,,Ben"],
)
def test_new_rejects_bad_player_lists(players):
    result = run("new", "--players", players)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "--players" in result.stderr


def test_new_rejects_a_bad_date():
    result = run("new", "--players", "Ana,Ben", "--date", "14/03/2025")
    assert result.exit_code == 2
    assert "--date" in result.stderr
