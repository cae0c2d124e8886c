"""`arbo train` in a real terminal (tmux) at 80x24 and 120x40: the position, the hand, the entry
line completing with Tab, the verdict, the history written."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.tui.test_tui_terminal import tmux, wait_for

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_puzzle_answered_with_completion_in_a_terminal(size, tmp_path):
    assert shutil.which("tmux"), "this test needs tmux (.ci/run installs it)"
    puzzles, db = tmp_path / "puzzles.arb", tmp_path / "train.sqlite"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "arbo_notation",
            "puzzles",
            str(ROOT / "tests" / "analysis" / "fixtures" / "analysed.arb"),
            "-o",
            str(puzzles),
            "-p",
            "Ben",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert made.returncode == 0, made.stderr
    socket = f"arbo-test-{uuid.uuid4().hex[:8]}"
    command = (
        f"env PYTHONPATH={ROOT} {sys.executable} -m arbo_notation train {puzzles} --db {db};"
        " echo exit status $?; sleep 60"
    )
    width, height = size
    tmux(socket, "-f", os.devnull, "new-session", "-d", "-s", "arbo", "-x", str(width), "-y", str(height), command)
    try:
        screen = wait_for(socket, "Tab ▸")
        assert "arbo train  │  puzzle 1 of 1 · analysed.arb game 1 turn 16 · new" in screen
        assert "Your hand: Bs3 Bs7 Ca6 Ca7 Cb1 Dw7 Ja1 Ja7 Ma6" in screen
        assert "Ben to play turn 16, having drawn d:Bs3 d:Ja1" in screen
        tmux(socket, "send-keys", "-t", "arbo", "-l", "Bs3")
        tmux(socket, "send-keys", "-t", "arbo", "Tab")
        tmux(socket, "send-keys", "-t", "arbo", "-l", "--", "-3,0 /Ja1")
        screen = wait_for(socket, "Bs3@-3,0 /Ja1")
        tmux(socket, "send-keys", "-t", "arbo", "Enter")
        screen = wait_for(socket, "right: Bs3@-3,0 /Ja1 is worth -5.30")
        assert [line for line in screen.splitlines() if line.strip()][-1].strip().startswith("Tab Complete")
        tmux(socket, "send-keys", "-t", "arbo", "Enter")
        wait_for(socket, "1 of 1 right")
        tmux(socket, "send-keys", "-t", "arbo", "C-q")
        assert "exit status 0" in wait_for(socket, "exit status")
        with sqlite3.connect(db) as connection:
            assert connection.execute("SELECT answer, right FROM attempts").fetchall() == [("Bs3@-3,0 /Ja1", 1)]
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
