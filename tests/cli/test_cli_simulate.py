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
    from arbo_notation.notation.reading.reader import parse as parse_text

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
    from arbo_notation.play.simulate import simulate_games

    out = tmp_path / "nested" / "sims"
    result = run(
        "simulate", "-p", "3", "-n", "2", "-s", "9", "--bot", "greedy,random", "--bot", "random", "--out", str(out)
    )
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


def test_simulate_never_writes_over_a_file_there_already(tmp_path):
    blocker = tmp_path / "file.arb"
    blocker.write_text("mine")
    result = run("simulate", "--players", "2", "--out", str(blocker))
    assert result.exit_code == 1
    assert result.stderr == (
        f"arbo: {blocker}: exists, and arbo simulate writes new files only: remove it, or give another name\n"
    )
    assert blocker.read_text() == "mine"
    club = tmp_path / "club"
    club.mkdir()
    (club / "game-0002.arb").write_text("mine")
    result = run("simulate", "--players", "2", "-n", "3", "--out", str(club))
    assert result.exit_code == 1
    assert result.stderr == (
        f"arbo: {club / 'game-0002.arb'}: exists, and arbo simulate writes new files only: "
        "remove it, or give another folder\n"
    )
    assert sorted(p.name for p in club.iterdir()) == ["game-0002.arb"]  # refused before any game was written
    assert (club / "game-0002.arb").read_text() == "mine"
    plain = tmp_path / "plain"
    plain.write_text("mine")
    result = run("simulate", "--players", "2", "--out", str(plain))
    assert result.exit_code == 1 and "not a directory" in result.stderr and plain.read_text() == "mine"


def test_simulate_out_a_file_arb_writes_every_game_into_it(tmp_path):
    from arbo_notation.notation.writer import format_games
    from arbo_notation.play.simulate import simulate_games

    out = tmp_path / "games.arb"
    result = run("simulate", "-p", "2", "-n", "3", "-s", "5", "-j", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.stderr == f"arbo: wrote {out} (3 games)\n"
    assert out.read_text() == format_games(list(simulate_games(2, 3, "5")))
    assert run("simulate", "-p", "2", "-n", "3", "-s", "5", "--out", "-").stdout == out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.arb"]


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
    many = {
        parse(run("new", "--players", "Ana,Ben", "--seed", str(s), "--date", "2025-01-01").stdout)[0].header.species
        for s in range(8)
    }
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


# -- simulate on every core, and a game at a time --------------------------------------------------


@pytest.mark.slow
def test_every_number_of_workers_plays_the_same_games_for_a_seed():
    one = run("simulate", "-p", "2", "-n", "20", "--seed", "j", "-j", "1")
    two = run("simulate", "-p", "2", "-n", "20", "--seed", "j", "-j", "2")
    default = run("simulate", "-p", "2", "-n", "20", "--seed", "j")
    assert one.exit_code == two.exit_code == default.exit_code == 0
    assert one.stdout == two.stdout == default.stdout
    assert len(parse(one.stdout)) == 20


@pytest.mark.slow
def test_a_run_in_workers_gives_the_games_in_order(tmp_path):
    from arbo_notation.play.simulate import GAMES_PER_SPAN, simulate_games, simulate_run

    games = 2 * GAMES_PER_SPAN + 3
    here = [record.index for record in simulate_games(2, games, "w")]
    there = list(simulate_run(2, games, "w", jobs=2, then=_index))
    assert there == here == list(range(1, games + 1))


def _index(record) -> int:
    return record.index


def test_the_default_workers_are_the_cores_but_never_more_than_the_spans_of_games(monkeypatch):
    from arbo_notation.runtime import workers
    from arbo_notation.play.simulate import GAMES_PER_SPAN, simulate_jobs

    monkeypatch.setattr(workers, "usable_cores", lambda: 4)
    assert simulate_jobs(1000) == 4
    assert simulate_jobs(GAMES_PER_SPAN) == 1 and simulate_jobs(GAMES_PER_SPAN + 1) == 2
    assert simulate_jobs(1000, 2) == 2 and simulate_jobs(1000, 9) == 4


def test_out_dash_writes_each_game_before_the_next_is_played(monkeypatch):
    """No run is kept in memory to the end: game i is on stdout before game i + 1 is simulated."""
    import sys

    from arbo_notation.play import simulate as simulation
    from arbo_notation.cli.simulate import _text, _write_stdout
    from arbo_notation.notation.writer import format_games

    out = _Recorder()
    real = simulation.simulate_game
    written_when_played: list[int] = []

    def noting(*args, **kwargs):
        written_when_played.append(len(out.parts))
        return real(*args, **kwargs)

    monkeypatch.setattr(simulation, "simulate_game", noting)
    monkeypatch.setattr(sys, "stdout", out)
    _write_stdout(_text(record) for record in simulation.simulate_games(2, 3, "s"))
    monkeypatch.undo()
    assert written_when_played == [0, 1, 2]
    assert "".join(out.parts) == format_games(simulation.simulate_games(2, 3, "s"))


class _Recorder:
    """A standard output that keeps what is written, write by write."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass
