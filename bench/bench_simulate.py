"""Benchmark: `arbo simulate` games per second, this tree against another checkout, in one run.

Each row is one table size: `python -m arbo_notation simulate -p P -n N --seed S -j 1 --out
FILE.arb --bot BOT` (the greedy bot at every seat by default, one core), timed as a whole command for this tree and
for the checkout given with --against, alternating the two in each round so that a busy spell of
the machine slows them alike. Medians over the rounds; games per second of wall time, and of CPU
time (user and system: steadier on a shared machine); the ratio is this tree's over the other's.
Both trees must write the same bytes (the same games): the run stops if they do not.

    python bench/bench_simulate.py --against /work/base [--games 100] [--rounds 5] [--players 2 3 4] [--bot random]

With --bots A B instead of --against, this tree alone, bot A at every seat against bot B at every
seat (issue 49: the greedy bot within 3.5 times a random game): the same command with each bot,
alternating, and the ratio of A's seconds a game over B's (B plays --games-b games, by default as
many; a random game is quick, so more of them keep start-up a small share of both):

    python bench/bench_simulate.py --bots greedy random [--games 200] [--games-b 1000] [--rounds 5]

With --python PY as well (the interpreter of an environment holding the compiled build,
`ARBO_MYPYC=1 pip install .`), each bot runs on both, this tree's pure Python and PY's installed
arbo, alternating the four commands; the two must write the same games. The rows add PY's
milliseconds and the ratios of its bot A to its bot B and to this tree's bot B.

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


def run(
    tree: str | None, players: int, games: int, seed: int, out: Path, bot: str = "greedy", python: str = sys.executable
) -> tuple[float, float, bytes]:
    """(wall time, CPU time, the file written) of one simulate command of ``tree``'s arbo, or with
    ``tree`` None of the arbo installed for ``python``."""
    out.unlink(missing_ok=True)
    command = [
        python,
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
    env = dict(_ENV, PYTHONPATH=tree) if tree else {key: value for key, value in _ENV.items() if key != "PYTHONPATH"}
    done = subprocess.run(command, capture_output=True, cwd=out.parent, env=env)
    elapsed, cpu = time.perf_counter() - start, _children_cpu() - start_cpu
    if done.returncode != 0:
        raise SystemExit(f"{tree}: simulate -p {players} failed ({done.returncode}): {done.stderr[-500:]!r}")
    return elapsed, cpu, out.read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="the other checkout (e.g. /work/base)")
    parser.add_argument("--bots", nargs=2, metavar=("A", "B"), help="this tree's bot A against bot B, instead")
    parser.add_argument("--games-b", type=int, help="games of bot B with --bots (default: --games)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--bot", default="greedy", help="the bot at every seat (greedy, random)")
    parser.add_argument(
        "--python", help="with --bots: also the arbo installed for this interpreter (the compiled build)"
    )
    args = parser.parse_args()
    if args.bots and args.python:
        compare_builds(
            args.bots, args.python, args.games, args.games_b or args.games, args.rounds, args.seed, args.players
        )
        return
    if args.bots:
        compare_bots(args.bots, args.games, args.games_b or args.games, args.rounds, args.seed, args.players)
        return
    if not args.against:
        parser.error("give --against a checkout, or --bots A B")
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


def compare_bots(bots: list[str], games: int, games_b: int, rounds: int, seed: int, players: list[int]) -> None:
    """This tree's bot A against bot B: seconds a game of each (wall and CPU), and A's over B's."""
    counts = {bots[0]: games, bots[1]: games_b}
    print(
        f"simulate --seed {seed} -j 1, {bots[0]} ({games} games) against {bots[1]} ({games_b} games), "
        f"{rounds} rounds, medians; this tree {HERE}"
    )
    print(
        f"{'players':>7} {bots[0] + ' ms/g':>12} {bots[1] + ' ms/g':>12} {'ratio':>6} "
        f"{bots[0] + ' cpu-ms/g':>16} {bots[1] + ' cpu-ms/g':>16} {'ratio':>6}"
    )
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for table in players:
            for bot in bots:  # untimed: bytecode cached
                run(HERE, table, 2, seed, folder / f"{bot}.arb", bot)
            wall: dict[str, list[float]] = {bot: [] for bot in bots}
            cpu: dict[str, list[float]] = {bot: [] for bot in bots}
            for index in range(rounds):
                for bot in bots if index % 2 == 0 else bots[::-1]:
                    elapsed, used, _ = run(HERE, table, counts[bot], seed, folder / f"{bot}.arb", bot)
                    wall[bot].append(elapsed / counts[bot] * 1000)
                    cpu[bot].append(used / counts[bot] * 1000)
            a, b = bots
            ms = {bot: statistics.median(wall[bot]) for bot in bots}
            cpu_ms = {bot: statistics.median(cpu[bot]) for bot in bots}
            print(
                f"{table:>7} {ms[a]:>12.2f} {ms[b]:>12.2f} {ms[a] / ms[b]:>6.2f} "
                f"{cpu_ms[a]:>16.2f} {cpu_ms[b]:>16.2f} {cpu_ms[a] / cpu_ms[b]:>6.2f}",
                flush=True,
            )


def compare_builds(
    bots: list[str], python: str, games: int, games_b: int, rounds: int, seed: int, players: list[int]
) -> None:
    """Bot A against bot B on this tree's pure Python and on ``python``'s installed (compiled) arbo."""
    counts = {bots[0]: games, bots[1]: games_b}
    a, b = bots
    runs = [(build, bot) for build in ("pure", "compiled") for bot in bots]
    where = {"pure": (HERE, sys.executable), "compiled": (None, python)}
    print(
        f"simulate --seed {seed} -j 1, {a} ({games} games) against {b} ({games_b} games), {rounds} rounds, "
        f"CPU ms a game, medians; pure: this tree {HERE}; compiled: the arbo of {python}"
    )
    print(
        f"{'players':>7} {a + ' pure':>14} {b + ' pure':>14} {a + ' compiled':>16} {b + ' compiled':>16} "
        f"{'pure ratio':>10} {'compiled ratio':>14} {'compiled/pure ' + b:>22}"
    )
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for table in players:
            written = {}
            for build, bot in runs:  # untimed: bytecode cached; the two builds must play the same games
                tree, interpreter = where[build]
                written[build, bot] = run(tree, table, 20, seed, folder / f"{build}-{bot}.arb", bot, interpreter)[2]
            for bot in bots:
                if written["pure", bot] != written["compiled", bot]:
                    raise SystemExit(f"-p {table} --bot {bot}: the compiled build simulates different games")
            cpu: dict[tuple[str, str], list[float]] = {key: [] for key in runs}
            for index in range(rounds):
                for build, bot in runs if index % 2 == 0 else runs[::-1]:
                    tree, interpreter = where[build]
                    out = folder / f"{build}-{bot}.arb"
                    used = run(tree, table, counts[bot], seed, out, bot, interpreter)[1]
                    cpu[build, bot].append(used / counts[bot] * 1000)
            ms = {key: statistics.median(times) for key, times in cpu.items()}
            print(
                f"{table:>7} {ms['pure', a]:>14.2f} {ms['pure', b]:>14.2f} {ms['compiled', a]:>16.2f} "
                f"{ms['compiled', b]:>16.2f} {ms['pure', a] / ms['pure', b]:>10.2f} "
                f"{ms['compiled', a] / ms['compiled', b]:>14.2f} {ms['compiled', a] / ms['pure', b]:>22.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
