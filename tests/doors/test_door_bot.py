"""The adapter of docs/PROTOCOL.md ("A bot trained in a door"): it plays `arbo match`, and sees
what the doors show the seat."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import arbo_notation as arbo
import arbo_notation.doors.openspiel  # registers python_arboretum
from arbo_notation.doors.actions import ActionIds, door_config
from arbo_notation.doors.pettingzoo import env
from arbo_notation.engine.actions import Draw

ROOT = Path(__file__).resolve().parents[2]


def door_bot(folder: Path) -> Path:
    """The adapter as docs/PROTOCOL.md gives it."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    section = text.split("## A bot trained in a door\n", 1)[1]
    path = folder / "door_bot.py"
    path.write_text(section.split("```python\n", 1)[1].split("```", 1)[0], encoding="utf-8")
    return path


@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_doors_number_actions_one_way(players):
    game = pyspiel.load_game("python_arboretum", {"players": players})
    table = env(players=players)
    assert game.ids == table.ids == ActionIds.of(door_config(players))
    assert game.num_distinct_actions() == table.action_space("player_0").n
    assert game.observation_tensor_size() == table.view_tensor.size


def test_the_adapter_plays_a_match_against_the_random_bot_without_a_fault(tmp_path):
    out = tmp_path / "games"
    command = f"{sys.executable} {door_bot(tmp_path)}"
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "match", command, "random", "--games", "1", "--seed", "3"]
        + ["--out", str(out), "--json", "-j", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert [(bot["hello_name"], bot["games"], bot["faults"]) for bot in summary["bots"]] == [
        ("door", 1, 0),
        (None, 1, 0),
    ]
    checked = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "check", str(out)], capture_output=True, text=True, timeout=120
    )
    assert checked.returncode == 0 and "1 game: 1 valid" in checked.stdout + checked.stderr


def test_a_seat_s_own_table_from_the_events_gives_the_view_and_observation_the_door_gives():
    """The adapter's table (the seat's hand, the events as the seat sees them) against the
    PettingZoo door's game at each of the seat's decisions: the same view, the same vector."""
    table = env(players=3)
    table.reset(seed=6)
    seat = "player_1"
    game = table.game
    own = arbo.Game(game.config, arbo.Setup(hands={seat: game.hand(seat).known}))
    rng = np.random.default_rng(6)
    decisions = 0
    while not game.is_over:
        mover = game.current_player
        if mover == seat:
            assert own.view(seat) == game.view(seat)
            mine = np.zeros(table.view_tensor.size, np.float32)
            table.view_tensor.fill(own.view(seat), mine)
            assert np.array_equal(mine, table.observe(seat)["observation"])
            decisions += 1
        action = int(rng.choice(np.flatnonzero(table.observe(mover)["action_mask"])))
        top = (game.deck_cards() or (None,))[0]
        table.step(action)
        played = game.move_stack[-1]
        if isinstance(played, Draw) and played.owner is None:  # as the referee tells it: the card to its drawer alone
            played = Draw(None, top) if mover == seat else Draw()
        own.push(own.parse_action(str(played)))
    assert decisions > 40
