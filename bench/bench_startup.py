"""Benchmark: start-up of whole commands (`arbo --help`, `arbo check`, `score`, `state` on one small record).

Each command runs several times in a new interpreter; the script prints the fastest and the
median wall time and the fastest CPU time (user + system), beside a bare `python -c pass`, which
every command pays. The targets of the issue "Speed and memory on every kind of record": `arbo
check` on one small record under 0.25 s wall, `arbo --help` under 0.2 s.

    python bench/bench_startup.py [--runs 15] [--against TREE]

``--against TREE`` times each command of another checkout (TREE first on PYTHONPATH) in the same
rounds, so that a change is measured before and after in one run.

The commands run from compiled bytecode, as an installed arbo does: bytecode caching is on for them
whatever PYTHONDONTWRITEBYTECODE says, and each runs once untimed first.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMALL = str(ROOT / "samples" / "two-player-omniscient.arb")
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "arbo --version": [sys.executable, "-m", "arbo_notation", "--version"],
    "arbo --help": [sys.executable, "-m", "arbo_notation", "--help"],
    "arbo check small.arb": [sys.executable, "-m", "arbo_notation", "check", SMALL],
    "arbo score small.arb": [sys.executable, "-m", "arbo_notation", "score", SMALL],
    "arbo state small.arb": [sys.executable, "-m", "arbo_notation", "state", SMALL],
}


#: The commands' environment: this one, with bytecode caching on.
_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], tree: str | None = None) -> tuple[float, float]:
    env = _ENV if tree is None else {**_ENV, "PYTHONPATH": tree}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # run in the tree: `python -m` puts the working directory first on sys.path, before PYTHONPATH
    subprocess.run(command, capture_output=True, check=True, env=env, cwd=tree or ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--against", metavar="TREE", help="another checkout, timed in the same rounds")
    args = parser.parse_args()
    trees: dict[str, str | None] = {"": None}
    if args.against:
        trees = {"": str(ROOT), " (against)": str(Path(args.against).resolve())}
    runs = {name + suffix: (command, tree) for name, command in COMMANDS.items() for suffix, tree in trees.items()}
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for command, tree in runs.values():  # untimed: the bytecode compiled and cached
        timed(command, tree)
    for _ in range(args.runs):  # interleaved, so that load from outside touches every command alike
        for name, (command, tree) in runs.items():
            results[name].append(timed(command, tree))
    print(f"{'command':<33} {'wall min':>9} {'median':>8} {'cpu min':>8}")
    for name, runs in results.items():
        walls = [wall for wall, _ in runs]
        cpus = [cpu for _, cpu in runs]
        print(f"{name:<33} {min(walls):>8.3f}s {statistics.median(walls):>7.3f}s {min(cpus):>7.3f}s")
    print("targets: arbo check small.arb < 0.25 s, arbo --help < 0.2 s (wall)")


if __name__ == "__main__":
    main()
