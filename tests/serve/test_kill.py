"""A server killed (kill -9) while the phones write leaves the record whole: the old text or the
new, never a cut one, and the next writer takes the file (its lock died with the server)."""

from __future__ import annotations

import json
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


def test_a_kill_in_the_middle_of_writes_leaves_the_record_whole(tmp_path: Path) -> None:
    table = tmp_path / "table.arb"
    shutil.copy(SAMPLE, table)
    # a long record (comments kept in every rewrite) makes each write last long enough to be hit
    table.write_text(table.read_text().replace("result *", "{" + "a long comment. " * 20000 + "}\nresult *"))
    chance = random.Random(48)
    left_mid_write = 0
    seen: set[Path] = set()
    rounds = 0
    while left_mid_write < 2 and rounds < 15:  # until kills have come in the middle of a write
        rounds += 1
        server = start(table)
        stop = threading.Event()
        answers: list[str] = []
        writer = threading.Thread(target=write_on, args=(server, stop, answers), daemon=True)
        writer.start()
        deadline = time.monotonic() + 30
        while not answers and time.monotonic() < deadline:
            time.sleep(0.01)
        assert answers, "no entry was answered"
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
    assert left_mid_write >= 1, f"none of {rounds} kills came in the middle of a write"
