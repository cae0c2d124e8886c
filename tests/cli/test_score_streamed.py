"""`arbo score` of a record reads, replays and scores it a game at a time, and says exactly what it said
when it held every game's replay (golden outputs made before it streamed)."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "score"
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
GOLDEN = json.loads((FIXTURES / "golden.json").read_text())
runner = CliRunner()


@pytest.mark.parametrize("command", sorted(GOLDEN))
def test_score_of_a_record_says_what_it_said_before_it_streamed(command, monkeypatch):
    monkeypatch.chdir(FIXTURES)
    done = runner.invoke(app, command.split())
    assert [done.exit_code, done.stdout, done.stderr] == GOLDEN[command]


@pytest.mark.slow
def test_score_of_many_games_holds_one_replay_at_a_time(tmp_path: Path):
    games = 150  # each replay held would take some 45 KB: 6.5 MiB for them all
    path = tmp_path / "many.arb"
    path.write_text("\n".join([(SAMPLES / "four-players.arb").read_text()] * games))
    runner.invoke(app, ["score", str(SAMPLES / "four-players.arb")])  # the modules imported first: not counted
    tracemalloc.start()
    try:
        done = runner.invoke(app, ["score", "--json", "--game", str(games), str(path)])  # every game replayed
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert done.exit_code == 0
    assert json.loads(done.stdout)["winners"]
    assert peak < 3 * 2**20, f"{peak / 2**20:.1f} MiB"
