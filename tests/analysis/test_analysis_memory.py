"""The sampled worlds of a decision are dealt one at a time: memory does not grow with --budget
but for the candidates' margins, 8 bytes a world (--budget 10^12 once listed every world first)."""

from __future__ import annotations

import inspect
import random
import tracemalloc
from pathlib import Path

import pytest

from arbo_notation.analysis import search
from arbo_notation.analysis.game import tasks
from arbo_notation.engine.lean import Cards
from arbo_notation.notation.reading.reader import parse
from arbo_notation.game.tree import load_tree

GAME = Path(__file__).resolve().parents[2] / "samples" / "two-player-omniscient.arb"


@pytest.fixture(scope="module")
def situation():
    (record,) = parse(GAME.read_text(encoding="utf-8"))
    ((_, task),) = tasks(load_tree(record), budget=1, turns=[3])
    return task.situation


def peak(judge, situation, budget: int) -> tuple[int, int]:
    """The peak of memory allocated while ``judge`` values a decision over ``budget`` worlds, and
    how many candidates it valued."""
    tracemalloc.start()
    try:
        judged = judge(situation, None, budget, random.Random(0))
        return tracemalloc.get_traced_memory()[1], len(judged.values)
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("judge", [search.judge_draws, search.judge_finish], ids=["draws", "finish"])
def test_memory_grows_by_the_margins_alone_with_the_budget(situation, judge, monkeypatch):
    # valued at no cost (the rollouts' own caches are bounded apart): what is left is the worlds
    monkeypatch.setattr(search, "_finish_value", lambda table, finish, count, *_: 0)
    monkeypatch.setattr(search, "_pair_value", lambda table, pair, count, *_: 0)
    small, _ = peak(judge, situation, 500)
    large, candidates = peak(judge, situation, 5000)
    # 8 bytes a world and candidate (a float: a last turn's value is a mean over the hands'
    # splits), and an array's spare room; a listed world was some 1,600 bytes
    assert (large - small) / (4500 * candidates) < 16


def test_the_worlds_are_a_generator(situation):
    worlds = search.sampled_worlds(situation, Cards(situation.species), random.Random(0), 10**12)
    assert inspect.isgenerator(worlds)
    first, second = next(worlds), next(worlds)
    assert first is not second
