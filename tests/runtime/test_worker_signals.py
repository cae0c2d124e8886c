"""The commands that share work out among worker processes (check, simulate, analyse with -j 2),
run as real processes and ended by a signal: SIGTERM, SIGHUP or Ctrl-C end the workers and the
command, quietly, with the signal's status; SIGKILL of arbo alone ends its workers too (the kernel
kills them: runtime/workers.py). Sent to arbo or to its whole process group, no worker is left and a reader
of arbo's stdout sees the end of it. A worker killed on its own gives one clear message, exit 1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "annotated.arb"
GAME = ROOT / "samples" / "two-player-omniscient.arb"


def _live(field: int, value: int) -> list[int]:
    """The live processes whose /proc stat field ``field`` (after the name: 1 the parent, 2 the
    process group) is ``value``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[field]) == value and fields[0] != "Z":
            found.append(int(entry))
    return found


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    return _live(1, pid)


def in_group(group: int) -> list[int]:
    """The live processes of the process group ``group``."""
    return _live(2, group)


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.arb"
    path.write_text("\n".join([SAMPLE.read_text(encoding="utf-8")] * 3000), encoding="utf-8")
    return path


def command(name: str, big: Path) -> list[str]:
    """`arbo NAME` with two workers and work enough to keep them busy for minutes."""
    return {
        "check": ["check", "-j", "2", str(big)],
        "simulate": ["simulate", "-p", "2", "-n", "1000000", "-j", "2", "--out", "-"],
        "analyse": ["analyse", str(GAME), "-j", "2", "--budget", "5000"],
    }[name]


def started(args: list[str]) -> tuple[subprocess.Popen, list[int]]:
    """`arbo ARGS` in its own process group, once its two workers are running."""
    arbo = subprocess.Popen(
        [sys.executable, "-m", "arbo_notation", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while len(workers := children(arbo.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) >= 2, "the workers never started"
    return arbo, workers


def ended(arbo: subprocess.Popen) -> tuple[bytes, bytes]:
    """What arbo wrote, read to the end of its pipes (which no worker then holds open), and no
    process of its group left a few seconds later."""
    try:
        out, err = arbo.communicate(timeout=30)
    finally:
        if arbo.poll() is None:
            os.killpg(arbo.pid, signal.SIGKILL)
            arbo.communicate()
    deadline = time.monotonic() + 5
    while in_group(arbo.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert in_group(arbo.pid) == []
    return out, err


COMMANDS = ["check", "simulate", "analyse"]
SIGNALS = [signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGKILL]


@pytest.mark.parametrize("group", [False, True], ids=["alone", "group"])
@pytest.mark.parametrize("number", SIGNALS, ids=[signal.Signals(n).name for n in SIGNALS])
@pytest.mark.parametrize("name", COMMANDS)
def test_a_signal_ends_the_workers_and_the_command_with_its_status(big, name, number, group):
    arbo, _ = started(command(name, big))
    if group:
        os.killpg(arbo.pid, number)
    else:
        arbo.send_signal(number)
    out, err = ended(arbo)
    assert arbo.returncode == -number, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err


@pytest.mark.parametrize("name, run", [("check", "check"), ("simulate", "simulation"), ("analyse", "analysis")])
def test_a_killed_worker_is_one_clear_message(big, name, run):
    arbo, workers = started(command(name, big))
    os.kill(workers[0], signal.SIGKILL)
    out, err = ended(arbo)
    assert arbo.returncode == 1
    assert err.decode() == (
        "arbo: a worker process ended before its work was done (killed, or out of memory); "
        f"the {run} has no result: run it again, or with -j 1\n"
    )
    if name != "simulate":  # (the games played before the loss are on stdout already)
        assert out == b""


@pytest.mark.slow
def test_a_term_ends_an_analysis_in_one_process_at_once():
    """A single-process analysis with a huge budget: a SIGTERM ends it within two seconds."""
    arbo = subprocess.Popen(
        [sys.executable, "-m", "arbo_notation", "analyse", str(GAME), "--turn", "1", "--budget", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        time.sleep(3)  # started, and judging
        assert arbo.poll() is None
        arbo.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        out, err = arbo.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if arbo.poll() is None:
            os.killpg(arbo.pid, signal.SIGKILL)
            arbo.communicate()
    assert arbo.returncode == -signal.SIGTERM and took < 2
    assert out == b"" and b"Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_ends_an_analysis_in_one_process_with_status_130():
    arbo = subprocess.Popen(
        [sys.executable, "-m", "arbo_notation", "analyse", str(GAME), "--turn", "1", "--budget", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        time.sleep(3)
        arbo.send_signal(signal.SIGINT)
        out, err = arbo.communicate(timeout=30)
    finally:
        if arbo.poll() is None:
            os.killpg(arbo.pid, signal.SIGKILL)
            arbo.communicate()
    assert arbo.returncode == -signal.SIGINT  # a shell shows 130
    assert err == b"" and out == b""
