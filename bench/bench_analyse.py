"""Benchmark: the analysis engine's speed, in rollouts per second and seconds per analysed game.

Targets (issue 20): at the default budget a 2-player game (about 18 turns) analysed in under
60 s on the two-core machine, a 4-player game (about 29 turns) in under 3 minutes, with the
default -j (every core). Games are simulated greedy games, seeded, so a run repeats.
Run ``PYTHONPATH=$PWD python bench/bench_analyse.py --budget 48 -j 2``.

Against another tree (issue 49: `arbo analyse -j 2` of samples/four-players.arb under 20 s,
samples/analysed.arb under 8 s): ``python bench/bench_analyse.py --against /path/to/main
samples/four-players.arb samples/analysed.arb`` judges every turn of each file in a process of
each tree (this one and the other, alternating), one turn at a time, and gives each tree's CPU
seconds (the turns' process time summed: what a loaded machine inflates least), the seconds the
turns take on two cores (the work dealt in order to the core free first, as `-j 2` deals it: whole
turns, or since analysis/pieces.py the pieces of turns, dearest first),
the ratio, and whether both trees judged every turn alike.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

if not os.environ.get("PYTHONPATH"):  # PYTHONPATH=/path/to/main measures another tree's analysis
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


def turn_times(path: str, budget: int) -> None:
    """Print, as JSON, the CPU seconds of each piece of work of the file's first game as `-j 2`
    deals them (a whole turn each before analysis/pieces.py; its pieces, dearest first, since),
    and each judged turn's evaluation."""
    from arbo_notation.game.tree import load_tree
    from arbo_notation.notation.reading.reader import parse

    tree = load_tree(parse(Path(path).read_text(encoding="utf-8"), path)[0])
    work = [task for _, task in tasks(tree, budget=budget)]
    cpu = []
    try:
        from arbo_notation.analysis.pieces import judge_piece, merged_evaluations, pieces
    except ImportError:  # a tree that judges whole turns
        evaluations = []
        for task in work:
            start = time.process_time()
            evaluations.append(judge_turn(task))
            cpu.append(time.process_time() - start)
    else:
        split = pieces(work, 2)
        judged = []
        for piece in split:
            start = time.process_time()
            judged.append(judge_piece(piece))
            cpu.append(time.process_time() - start)
        evaluations = merged_evaluations(work, split, judged)
    print(json.dumps({"cpu": cpu, "turns": [e.to_json() for e in evaluations]}))


def two_cores(seconds: list[float]) -> float:
    """The time the turns take on two cores, each turn in order going to the core free first."""
    cores = [0.0, 0.0]
    for each in seconds:
        cores[cores.index(min(cores))] += each
    return max(cores)


def against(files: list[str], other: Path, budget: int, rounds: int) -> None:
    here = Path(__file__).resolve().parent.parent
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    for path in files:
        runs: dict[str, list[dict]] = {"this": [], "other": []}
        for index in range(rounds):
            order = [("this", here), ("other", other)]
            for label, tree in order if index % 2 == 0 else order[::-1]:
                env = {**os.environ, "PYTHONPATH": str(tree)}
                out = subprocess.run(
                    [sys.executable, str(Path(__file__).resolve()), "--turn-times", path, "--budget", str(budget)],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                    cwd=here,
                ).stdout
                runs[label].append(json.loads(out))
        same = all(a["turns"] == b["turns"] for a in runs["this"] for b in runs["other"])
        figures = {}
        for label, found in runs.items():
            cpu = min(sum(run["cpu"]) for run in found)
            wall = min(two_cores(run["cpu"]) for run in found)
            figures[label] = (cpu, wall, len(found[0]["turns"]))
        (cpu, wall, turns), (cpu_o, wall_o, _) = figures["this"], figures["other"]
        print(
            f"{path}: {turns} turns; this tree {cpu:.1f} s CPU, {wall:.1f} s on two cores; "
            f"the other {cpu_o:.1f} s CPU, {wall_o:.1f} s on two cores; {cpu_o / cpu:.2f} times faster; "
            f"judgements {'the same' if same else 'DIFFERENT'}",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="records to judge with --against")
    parser.add_argument("--against", type=Path, help="another tree (a git worktree of main) to compare with")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree with --against (the best kept)")
    parser.add_argument("--turn-times", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--games", type=int, default=2, help="games per table size")
    parser.add_argument("--players", type=int, action="append", help="table sizes (default 2 and 4)")
    args = parser.parse_args()
    if args.turn_times:
        turn_times(args.turn_times, args.budget)
        return
    if args.against:
        against(args.files, args.against, args.budget, args.rounds)
        return
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
