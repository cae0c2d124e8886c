"""Benchmark: the analysis engine's speed, in rollouts per second and seconds per analysed game.

Targets (issue 20): at the default budget a 2-player game (about 18 turns) analysed in under
60 s on the two-core machine, a 4-player game (about 29 turns) in under 3 minutes, with the
default -j (every core). Games are simulated greedy games, seeded, so a run repeats.
Run ``PYTHONPATH=$PWD python bench/bench_analyse.py --budget 48 -j 2``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import arbo_notation as arbo
from arbo_notation.analysis.game import tasks
from arbo_notation.engine.lean import Cards, margin, totals
from arbo_notation.analysis.policy import play_out
from arbo_notation.analysis.turns import DEFAULT_BUDGET, judge_turn
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

PLAYERS = ("Ana", "Ben", "Cleo", "Dev")


def tree_of(players: int, seed: int):
    record = simulate_game(PLAYERS[:players], f"bench:{seed}")
    return arbo.replay(arbo.parse_games(format_game(record))[0])


def rollouts_per_second(players: int, seconds: float = 5.0) -> float:
    """Whole rollouts (a world from the start of turn 1 played out by the policy, then scored)."""
    tree = tree_of(players, 0)
    (_, task), *_ = tasks(tree, budget=1, turns=[1])
    rng = random.Random(0)
    cards = Cards(task.situation.species)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        table = task.situation.world(cards, rng)
        play_out(table)
        margin(totals(table, len(cards.species)), 0)
        count += 1
    return count / (time.perf_counter() - start)


def seconds_per_game(players: int, budget: int, jobs: int, games: int) -> list[tuple[int, float]]:
    found = []
    for seed in range(1, games + 1):
        tree = tree_of(players, seed)
        work = [task for _, task in tasks(tree, budget=budget)]
        start = time.perf_counter()
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                list(pool.map(judge_turn, work))
        else:
            list(map(judge_turn, work))
        found.append((len(work), time.perf_counter() - start))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--games", type=int, default=2, help="games per table size")
    parser.add_argument("--players", type=int, action="append", help="table sizes (default 2 and 4)")
    args = parser.parse_args()
    for players in args.players or [2, 4]:
        print(f"{players} players: {rollouts_per_second(players):.0f} whole-game rollouts/s (one core)", flush=True)
        for turns, seconds in seconds_per_game(players, args.budget, args.jobs, args.games):
            print(
                f"{players} players: a game of {turns} turns analysed in {seconds:.1f} s "
                f"(budget {args.budget}, -j {args.jobs})",
                flush=True,
            )


if __name__ == "__main__":
    main()
