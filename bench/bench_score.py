"""Benchmark: scoring a 4-player end position with 10 species and 13-16 trees per arboretum.

Budget: 2 ms per ``score_position`` call (median). Run ``python bench/bench_score.py``.

A real 4-player table holds 80 cards, 28 of them in hands, so it has at most 52 trees: 13 per
arboretum. The first position is such a table (every card exactly once); the second is a stress
case with 16 trees per arboretum, each arboretum drawn from all 80 cards independently (cards
unique within an arboretum, not across the table), which the rules cannot produce but which
makes the search work harder; the last ones are 4 x 4 blocks of three species with values rising
towards a corner, the arboretum a strong player builds, full of long rising paths. Arboretums are random orthogonally connected groups grown
from 0,0 with a seeded RNG, so the figures are repeatable.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbo_notation.engine.cards import Card, Coord, default_species_for, full_deck
from arbo_notation.engine.scoring import PlayerPosition, score_position

BUDGET_MS = 2.0
PLAYERS = ("Ana", "Ben", "Cy", "Dee")
SPECIES = default_species_for(4)  # all 10
WARMUP = 200
CALLS = 2000


def connected_cells(rng: random.Random, size: int) -> list[Coord]:
    """A random orthogonally connected group of cells grown from 0,0, the way a table plants."""
    cells = [Coord(0, 0)]
    taken = set(cells)
    while len(cells) < size:
        frontier = sorted({n for c in cells for n in c.neighbours()} - taken)
        cell = rng.choice(frontier)
        cells.append(cell)
        taken.add(cell)
    return cells


def real_table(seed: int) -> list[PlayerPosition]:
    """13 trees and 7 cards in hand per player: all 80 cards, each exactly once."""
    rng = random.Random(seed)
    deck = full_deck(SPECIES)
    rng.shuffle(deck)
    players = []
    for name in PLAYERS:
        trees = {cell: deck.pop() for cell in connected_cells(rng, 13)}
        hand = tuple(deck.pop() for _ in range(7))
        players.append(PlayerPosition(name, trees, hand))
    assert not deck
    return players


def stress_table(seed: int, size: int = 16) -> list[PlayerPosition]:
    """``size`` trees per player, each arboretum and hand drawn from all 80 cards on its own."""
    rng = random.Random(seed)
    players = []
    for name in PLAYERS:
        deck = full_deck(SPECIES)
        rng.shuffle(deck)
        trees = {cell: deck.pop() for cell in connected_cells(rng, size)}
        hand = tuple(deck.pop() for _ in range(7))
        players.append(PlayerPosition(name, trees, hand))
    return players


def built_table(seed: int) -> list[PlayerPosition]:
    """16 trees per player in a 4 x 4 block, values rising towards one corner and only three
    species per player: the arboretum a player builds on purpose, full of long rising paths
    (cards unique within an arboretum, not across the table)."""
    rng = random.Random(seed)
    players = []
    for index, name in enumerate(PLAYERS):
        codes = SPECIES[index * 2 : index * 2 + 3]
        free = {code: list(range(1, 9)) for code in codes}
        trees = {}
        for x in range(4):
            for y in range(4):
                wanted = min(8, 1 + x + y + rng.choice((0, 0, 1)))
                options = [(abs(v - wanted), code, v) for code in codes for v in free[code]]
                _, code, value = min(options, key=lambda o: (o[0], rng.random()))
                free[code].remove(value)
                trees[Coord(x, y)] = Card(code, value)
        deck = [c for c in full_deck(SPECIES) if c not in trees.values()]
        hand = tuple(rng.sample(deck, 7))
        players.append(PlayerPosition(name, trees, hand))
    return players


def time_calls(players: list[PlayerPosition], calls: int = CALLS) -> list[float]:
    """Seconds per score_position call, each timed on its own after a warm-up."""
    for _ in range(WARMUP):
        score_position(SPECIES, players)
    times = []
    clock = time.perf_counter
    for _ in range(calls):
        start = clock()
        score_position(SPECIES, players)
        times.append(clock() - start)
    return times


def report(label: str, players: list[PlayerPosition]) -> float:
    times = time_calls(players)
    median = statistics.median(times) * 1000
    p95 = statistics.quantiles(times, n=20)[-1] * 1000
    sheet = score_position(SPECIES, players)
    trees = "/".join(str(len(p.arboretum)) for p in players)
    verdict = "under budget" if median < BUDGET_MS else "OVER BUDGET"
    totals = " ".join(str(t) for t in sheet.totals().values())
    print(f"{label:<36} trees {trees:<11}  median {median:6.3f} ms  p95 {p95:6.3f} ms  {verdict}  (totals {totals})")
    return median


def main() -> int:
    print(f"score_position, 4 players, {len(SPECIES)} species, {CALLS} timed calls after {WARMUP} warm-up")
    medians = [
        report("real table, seed 1", real_table(1)),
        report("real table, seed 2", real_table(2)),
        report("stress, 16 trees each, seed 1", stress_table(1)),
        report("stress, 16 trees each, seed 2", stress_table(2)),
        report("built paths, 16 trees each, seed 1", built_table(1)),
        report("built paths, 16 trees each, seed 2", built_table(2)),
    ]
    worst = max(medians)
    ok = worst < BUDGET_MS
    print(f"worst median {worst:.3f} ms: {'under' if ok else 'OVER'} the {BUDGET_MS:g} ms budget")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
