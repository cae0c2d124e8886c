"""A server killed (kill -9) while the phones write leaves the record whole: the old text or the
new, never a cut one, and the next writer takes the file (its lock died with the server).

Half the kills come at a moment drawn at random; the other half are made to come in the middle of
a write: the server is stopped (SIGSTOP) as soon as a temporary copy of the record shows, and
killed if the copy is still there once every thread of it has stopped (it has made the copy and
not yet renamed it). Kills left to chance alone met a write in some 18% of rounds (11 of 61,
measured under load), so fifteen of them met none 5% of the time, and the test failed then."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
from pathlib import Path

import pytest

from arbo_notation.game.replay import replay_game
from arbo_notation.notation.reading.reader import parse_all
from tests.serve.support import ROOT, Running, arbo_env, start

SAMPLE = ROOT / "samples" / "unfinished.arb"
TURN = "d d Ca7@-6,0 /Ma5"

pytestmark = pytest.mark.slow


def write_on(server: Running, stop: threading.Event, answers: list[str]) -> None:
    """A turn, its undo, the turn again..., each on the record the last answer showed."""
    try:
        state = server.state("table.arb")
        number = 0
        while not stop.is_set():
            entry = TURN if len(state["turns"]) == 14 else "undo"
            body = json.dumps({"id": f"k{number}", "base": state["base"], "entry": entry}).encode()
            status, reply = server.post("/api/entry/table.arb", body, server.own())
            if status != 200:
                time.sleep(0.05)  # past the rate: wait a little
                continue
            answer = json.loads(reply)
            answers.append(answer["status"] if answer["status"] == "ok" else f"{answer['status']}: {answer['message']}")
            state = answer["state"]
            number += 1
    except (OSError, urllib.error.URLError, ValueError, KeyError):
        pass  # the server is gone


def stopped(pid: int) -> bool:
    """Whether every thread of the process has stopped (Linux's /proc; elsewhere, after a while)."""
    tasks = Path(f"/proc/{pid}/task")
    if not tasks.is_dir():
        time.sleep(0.2)
        return True
    states = []
    for task in tasks.iterdir():
        try:
            states.append((task / "stat").read_text().rsplit(")", 1)[1].split()[0])
        except (OSError, IndexError):
            continue  # a thread that ended
    return all(state in ("T", "t", "Z", "X") for state in states)


def killed_mid_write(server: Running, folder: Path, chance: random.Random, within: float = 20.0) -> bool:
    """Kill the server in the middle of writing the record: stop it when a new temporary copy
    shows (a moment drawn at random after), and kill it if the copy is still there once it has
    stopped; else let it go on, and try the next write."""
    pid = server.process.pid
    known = set(folder.glob(".table.arb.arbo-*.tmp"))
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not set(folder.glob(".table.arb.arbo-*.tmp")) - known:
            continue
        time.sleep(chance.uniform(0, 0.002))
        os.kill(pid, signal.SIGSTOP)
        while not stopped(pid):
            time.sleep(0.001)
        if set(folder.glob(".table.arb.arbo-*.tmp")) - known:
            os.kill(pid, signal.SIGKILL)
            return True
        os.kill(pid, signal.SIGCONT)  # the write ended first: the next one
    return False


def test_a_kill_in_the_middle_of_writes_leaves_the_record_whole(tmp_path: Path) -> None:
    table = tmp_path / "table.arb"
    shutil.copy(SAMPLE, table)
    # a long record (comments kept in every rewrite) makes each write last long enough to be hit
    table.write_text(table.read_text().replace("result *", "{" + "a long comment. " * 20000 + "}\nresult *"))
    chance = random.Random(48)
    caught = left_mid_write = 0
    seen: set[Path] = set()
    for round_number in range(6):
        server = start(table)
        stop = threading.Event()
        answers: list[str] = []
        writer = threading.Thread(target=write_on, args=(server, stop, answers), daemon=True)
        writer.start()
        deadline = time.monotonic() + 30
        while not answers and time.monotonic() < deadline:
            time.sleep(0.01)
        assert answers, "no entry was answered"
        if round_number % 2:
            assert killed_mid_write(server, tmp_path, chance), "no write was caught in 20 s"
            caught += 1
        else:
            time.sleep(chance.uniform(0.02, 0.3))
            server.process.send_signal(signal.SIGKILL)
        server.process.wait(10)
        stop.set()
        writer.join(10)
        leftovers = set(tmp_path.glob(".table.arb.arbo-*.tmp"))
        left_mid_write += bool(leftovers - seen)  # a copy being written when the kill came
        seen |= leftovers
        outcome = parse_all(table.read_text(), "table.arb")
        assert not outcome.errors and len(outcome.games) == 1, table.read_text()[-300:]
        assert not replay_game(outcome.games[0]).errors, table.read_text()[-300:]
        assert set(answers) == {"ok"}, answers
    # the file is still recorded on, by arbo record (the lock died with the server)
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "record", str(table), "--plain"],
        input="{after the kills}\n",
        capture_output=True,
        text=True,
        env=arbo_env(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert caught == 3 and left_mid_write >= caught
