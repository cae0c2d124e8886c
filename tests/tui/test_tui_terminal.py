"""`arbo replay` in a real terminal (tmux at 80x24): the screen a person sees, read back with
``tmux capture-pane``."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from arbo_notation.present.navigation import ReplayModel
from tests.tui_support import FOUR_PLAYER, four_player

ROOT = Path(__file__).resolve().parents[2]

# The replayer in a real terminal (tmux) takes seconds a test, so outside the quick run (CI runs them).
pytestmark = pytest.mark.slow


def tmux(socket: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, check=True).stdout


def wait_for(socket: str, text: str, seconds: float = 30.0) -> str:
    """The screen, once it shows ``text``."""
    deadline = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux(socket, "capture-pane", "-p", "-t", "arbo")
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared; the screen:\n{screen}")


def hands_at_turn_14() -> list[str]:
    model = ReplayModel.from_record(four_player())
    model.goto(14)
    return [card for player in model.players for card in model.player_view(player).hand]


def test_every_card_of_every_hand_and_the_help_and_quit_keys_at_80_by_24():
    assert shutil.which("tmux"), "this test needs tmux (.ci/run installs it)"
    socket = f"arbo-test-{uuid.uuid4().hex[:8]}"  # a server of its own: no other session is touched
    command = (
        f"env PYTHONPATH={ROOT} {sys.executable} -m arbo_notation replay {FOUR_PLAYER} --turn 14;"
        " echo exit status $?; sleep 60"
    )
    tmux(socket, "-f", os.devnull, "new-session", "-d", "-s", "arbo", "-x", "80", "-y", "24", command)
    cards = hands_at_turn_14()
    assert len(cards) == 28
    try:
        screen = wait_for(socket, "q Quit")
        lines = screen.splitlines()
        assert lines[1].strip() == "after turn 14: Cleo to play turn 15 · deck 25 · view: all hands"
        assert lines[-1].strip().endswith("? Help  q Quit")
        assert all(card in screen.replace("│", " ").split() for card in cards), screen
        tmux(socket, "send-keys", "-t", "arbo", "m")  # the move list beside the board: hands wrap
        screen = wait_for(socket, "╭─ Moves")
        assert screen.splitlines()[-1] == lines[-1]
        assert all(card in screen.replace("│", " ").split() for card in cards), screen
        tmux(socket, "send-keys", "-t", "arbo", "q")
        assert "exit status 0" in wait_for(socket, "exit status")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)


def test_a_record_piped_in_opens_the_replayer_whose_keys_come_from_the_terminal():
    """`arbo grep ... | arbo replay -`: the record is read from the pipe, the keys from the terminal."""
    assert shutil.which("tmux"), "this test needs tmux (.ci/run installs it)"
    socket = f"arbo-test-{uuid.uuid4().hex[:8]}"
    command = (
        f"cat {ROOT / 'samples' / 'annotated.arb'} | env PYTHONPATH={ROOT} {sys.executable} -m arbo_notation replay -;"
        " echo exit status $?; sleep 60"
    )
    tmux(socket, "-f", os.devnull, "new-session", "-d", "-s", "arbo", "-x", "80", "-y", "24", command)
    try:
        screen = wait_for(socket, "q Quit")
        assert screen.splitlines()[1].strip() == "start: Ana to play turn 1 · deck 34 · view: all hands"
        tmux(socket, "send-keys", "-t", "arbo", "Right")
        screen = wait_for(socket, "after turn 1")
        assert screen.splitlines()[1].strip() == "after turn 1: Ben to play turn 2 · deck 32 · view: all hands"
        tmux(socket, "send-keys", "-t", "arbo", "q")
        assert "exit status 0" in wait_for(socket, "exit status")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)


def test_a_record_piped_in_with_no_terminal_for_the_keys_is_one_message_and_exit_2():
    """The output is a terminal, but the process has none to read keys from (a new session)."""
    import pty

    main, output = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "replay", "-"],
            cwd=ROOT,
            input=(ROOT / "samples" / "annotated.arb").read_bytes(),
            stdout=output,
            stderr=subprocess.PIPE,
            start_new_session=True,
            timeout=60,
        )
    finally:
        os.close(output)
        os.close(main)
    assert done.returncode == 2
    assert done.stderr.decode() == (
        "arbo: the replayer reads its keys from the terminal, and there is none to read"
        f" (/dev/tty: {os.strerror(errno.ENXIO)}); --plain prints the replay instead\n"
    )
