"""Benchmark: what the bot protocol costs a game, and the wall time of a duplicate match on every core.

1. The protocol's cost: the same deals played by the greedy bot at both seats, once in one
   process (play/simulate.py's simulate_game) and once as `arbo match greedy greedy -j 1` plays
   them (play/match.py: the referee here, each bot an `arbo bot greedy` process, started once and
   reused). Medians over the rounds, the two alternated in each round so that a busy spell of the
   machine slows them alike; wall time and CPU time (this process and its bots) per game; the
   added cost is the match's over the one process's, less one.
2. A duplicate match of greedy against random, 2 players, on every core (-j 0): its wall time.

    python bench/bench_match.py [--games 40] [--rounds 3] [--duplicate-games 1000]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbo_notation.play.match import match_tasks, play_match, summarise, labels
from arbo_notation.play.simulate import game_seed, simulate_game
from arbo_notation.runtime.workers import jobs_for


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def one_process(games: int, seed: str) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), _cpu()
    for index in range(1, games + 1):
        simulate_game(("Ana", "Ben"), game_seed(seed, index), ["greedy"])
    return time.perf_counter() - wall, _cpu() - cpu


def as_a_match(games: int, seed: str) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), _cpu()
    outcomes = list(play_match(match_tasks(["greedy", "greedy"], games, seed), jobs=1))
    assert all(not any(o.faults) or o.faults == ((), ()) for o in outcomes)
    return time.perf_counter() - wall, _cpu() - cpu  # the bots are reaped: their CPU is counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per round of the protocol's cost")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duplicate-games", type=int, default=1000, help="games of the duplicate match (0: none)")
    options = parser.parse_args()

    rows = {"one process": [], "match": []}
    for round_number in range(options.rounds):
        seed = f"bench{round_number}"
        rows["one process"].append(one_process(options.games, seed))
        rows["match"].append(as_a_match(options.games, seed))
    print(f"the protocol's cost: {options.games} games of greedy against greedy, median of {options.rounds} rounds")
    medians = {}
    for name, timings in rows.items():
        wall = statistics.median(t[0] for t in timings) / options.games * 1000
        cpu = statistics.median(t[1] for t in timings) / options.games * 1000
        medians[name] = (wall, cpu)
        print(f"  {name:12} {wall:7.1f} ms a game (wall)  {cpu:7.1f} ms a game (CPU, bots included)")
    added_wall = medians["match"][0] / medians["one process"][0] - 1
    added_cpu = medians["match"][1] / medians["one process"][1] - 1
    print(f"  added by the protocol: {added_wall:+.0%} wall, {added_cpu:+.0%} CPU")
    print(f"  load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    if options.duplicate_games:
        games = options.duplicate_games
        jobs = jobs_for(0, games)
        started = time.perf_counter()
        outcomes = list(play_match(match_tasks(["greedy", "random"], games, "1", duplicate=True), jobs=jobs))
        wall = time.perf_counter() - started
        summary = summarise(labels(["greedy", "random"]), outcomes)
        share = summary.share
        print(f"a duplicate match: {games} games of greedy against random, -j {jobs}: {wall:.1f} s wall")
        if share is not None:
            print(f"  greedy's share of the points: {share.mean:.3f} [{share.low:.3f}, {share.high:.3f}]")


if __name__ == "__main__":
    main()
