"""`arbo check -j` and signals: SIGTERM, SIGHUP or Ctrl-C end the workers and the command, quietly,
with the signal's status (no worker left holding the caller's pipes); a worker killed on its own
gives one clear message, not a BrokenProcessPool traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "annotated.arb"


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def in_group(group: int) -> list[int]:
    """The live processes of the process group ``group``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(entry))
    return found


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.arb"
    path.write_text("\n".join([SAMPLE.read_text(encoding="utf-8")] * 3000), encoding="utf-8")
    return path


def started_check(big: Path) -> tuple[subprocess.Popen, list[int]]:
    """`arbo check -j 2 BIG` in its own process group, once its workers are running."""
    check = subprocess.Popen([sys.executable, "-m", "arbo_notation", "check", "-j", "2", str(big)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(workers := children(check.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) >= 2, "the workers never started"
    return check, workers


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_ends_the_workers_and_the_check_with_its_status(big, number):
    check, _ = started_check(big)
    try:
        check.send_signal(number)
        out, err = check.communicate(timeout=60)  # the pipes close: no worker holds them
    finally:
        if check.poll() is None:
            os.killpg(check.pid, signal.SIGKILL)
            check.communicate()
    assert check.returncode == -number, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    deadline = time.monotonic() + 10
    while in_group(check.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert in_group(check.pid) == []


def test_a_killed_worker_is_one_clear_message(big):
    check, workers = started_check(big)
    try:
        os.kill(workers[0], signal.SIGKILL)
        out, err = check.communicate(timeout=60)
    finally:
        if check.poll() is None:
            os.killpg(check.pid, signal.SIGKILL)
            check.communicate()
    assert check.returncode == 1
    assert err.decode() == ("arbo: a worker process ended before its work was done (killed, or out of memory); "
                            "the check has no result: run it again, or with -j 1\n")
    assert out == b""
    deadline = time.monotonic() + 10
    while in_group(check.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert in_group(check.pid) == []
