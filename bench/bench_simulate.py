"""Benchmark: `arbo simulate` games per second, this tree against another checkout, in one run.

Each row is one table size: `python -m arbo_notation simulate -p P -n N --seed S -j 1 --out
FILE.arb --bot BOT` (the greedy bot at every seat by default, one core), timed as a whole command for this tree and
for the checkout given with --against, alternating the two in each round so that a busy spell of
the machine slows them alike. Medians over the rounds; games per second of wall time, and of CPU
time (user and system: steadier on a shared machine); the ratio is this tree's over the other's.
Both trees must write the same bytes (the same games): the run stops if they do not.

    python bench/bench_simulate.py --against /work/base [--games 100] [--rounds 5] [--players 2 3 4] [--bot random]

Each command runs once untimed first (bytecode compiled and cached, as an installed arbo runs).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = str(Path(__file__).resolve().parent.parent)

#: The commands' environment: this one, with bytecode caching on.
_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(tree: str, players: int, games: int, seed: int, out: Path, bot: str = "greedy") -> tuple[float, float, bytes]:
    """(wall time, CPU time, the file written) of one simulate command of ``tree``'s arbo."""
    out.unlink(missing_ok=True)
    command = [
        sys.executable,
        "-m",
        "arbo_notation",
        "simulate",
        "-p",
        str(players),
        "-n",
        str(games),
        "--seed",
        str(seed),
        "-j",
        "1",
        "--out",
        str(out),
        "--bot",
        bot,
    ]
    start, start_cpu = time.perf_counter(), _children_cpu()
    # From the output's folder: `python -m` puts the working folder first on the path, and the
    # arbo measured must be the one PYTHONPATH names.
    done = subprocess.run(command, capture_output=True, cwd=out.parent, env=dict(_ENV, PYTHONPATH=tree))
    elapsed, cpu = time.perf_counter() - start, _children_cpu() - start_cpu
    if done.returncode != 0:
        raise SystemExit(f"{tree}: simulate -p {players} failed ({done.returncode}): {done.stderr[-500:]!r}")
    return elapsed, cpu, out.read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the other checkout (e.g. /work/base)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--bot", default="greedy", help="the bot at every seat (greedy, random)")
    args = parser.parse_args()
    trees = {"this": HERE, "other": str(Path(args.against).resolve())}
    print(
        f"simulate -n {args.games} --seed {args.seed} --bot {args.bot} -j 1, {args.rounds} rounds, medians; "
        f"this tree {trees['this']}, other {trees['other']}"
    )
    print(
        f"{'players':>7} {'other g/s':>10} {'this g/s':>10} {'ratio':>6} {'other g/cpu-s':>14} "
        f"{'this g/cpu-s':>13} {'ratio':>6}"
    )
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for players in args.players:
            written = {
                key: run(tree, players, args.games, args.seed, folder / f"{key}.arb", args.bot)[2]
                for key, tree in trees.items()
            }  # untimed: bytecode cached
            if written["this"] != written["other"]:
                raise SystemExit(f"-p {players}: the two trees simulate different games")
            wall: dict[str, list[float]] = {key: [] for key in trees}
            cpu: dict[str, list[float]] = {key: [] for key in trees}
            for _ in range(args.rounds):
                for key, tree in trees.items():
                    elapsed, used, _ = run(tree, players, args.games, args.seed, folder / f"{key}.arb", args.bot)
                    wall[key].append(elapsed)
                    cpu[key].append(used)
            rate = {key: args.games / statistics.median(wall[key]) for key in trees}
            cpu_rate = {key: args.games / statistics.median(cpu[key]) for key in trees}
            print(
                f"{players:>7} {rate['other']:>10.1f} {rate['this']:>10.1f} {rate['this'] / rate['other']:>6.2f} "
                f"{cpu_rate['other']:>14.1f} {cpu_rate['this']:>13.1f} {cpu_rate['this'] / cpu_rate['other']:>6.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
