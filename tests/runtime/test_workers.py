"""runtime/workers.py: how many workers a command starts (-j 0: the cores this process may use, not the
machine's), and a worker that ends when its parent does."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from pathlib import Path

import pytest

from arbo_notation.runtime import workers

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("jobs, units, expected", [(0, 100, 2), (0, 1, 1), (1, 100, 1), (5, 100, 2), (2, 3, 2)])
def test_jobs_are_the_usable_cores_at_most(monkeypatch, jobs, units, expected):
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert workers.jobs_for(jobs, units) == expected


def test_analyse_j0_starts_a_worker_per_usable_core_not_per_core_of_the_machine(monkeypatch):
    """`analyse -j 0` counted os.cpu_count(): 64 workers in a container allowed one core."""
    import concurrent.futures

    from arbo_notation.analysis.game import tasks
    from arbo_notation.analysis.turns import judge_turn
    from arbo_notation.cli.common import judged_in_order
    from arbo_notation.notation.reading.reader import parse
    from arbo_notation.game.tree import load_tree

    started = []
    real_pool = concurrent.futures.ProcessPoolExecutor

    def pool(max_workers, **options):
        started.append(max_workers)
        return real_pool(max_workers=max_workers, **options)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    (record,) = parse(open(ROOT / "samples" / "two-player-omniscient.arb", encoding="utf-8").read())
    found = [task for _, task in tasks(load_tree(record), budget=1, turns=[1, 2, 3])]
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    alone = judged_in_order(judge_turn, found, 0, run="analysis", label="analysing")
    assert started == []  # one usable core: this process
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert judged_in_order(judge_turn, found, 0, run="analysis", label="analysing") == alone and started == [2]


PARENT = """
import sys, time
from arbo_notation.runtime.workers import worker_pool
with worker_pool(1, "test") as pool:
    print(pool.submit(__import__("os").getpid).result(), flush=True)
    time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_worker_ends_when_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        worker = int(parent.stdout.readline())
        assert alive(worker)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 5
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(worker)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
