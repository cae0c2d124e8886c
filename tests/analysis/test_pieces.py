"""A line's turns judged in pieces (analysis/pieces.py): the same evaluations to the bit as whole
turns, whatever the number of workers; shares merged in the candidates' order; the time limit
per move kept by a turn's pieces together."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import arbo_notation as arbo
from arbo_notation.analysis.game import tasks
from arbo_notation.analysis.pieces import Decision, judge_piece, merged_evaluations, pieces
from arbo_notation.analysis.search import Judgement, judge_draws, merge_shares
from arbo_notation.analysis.turns import _played_sources, judge_turn
from arbo_notation.cli import app
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game


def line_tasks(players: tuple[str, ...], seed: str, budget: int):
    record = simulate_game(players, seed)
    tree = arbo.replay(arbo.parse_games(format_game(record))[0])
    return [task for _, task in tasks(tree, budget=budget)]


@pytest.fixture(scope="module")
def near_the_end():
    """The last turns of a three-player game and three of a four-player one (its very last is a
    few seconds): the rollouts end exactly, some pairs of draws leave the next player the last
    turn, the last finish is scored from one table."""
    return [
        *line_tasks(("Ana", "Ben", "Cleo"), "pieces:four", 2)[-7:],
        *line_tasks(("Ana", "Ben", "Cleo", "Dev"), "pieces:four", 2)[-4:-1],
    ]


@pytest.fixture(scope="module")
def whole_turns(near_the_end):
    return [judge_turn(task) for task in near_the_end]


def test_merged_shares_keep_the_candidates_order_and_the_worlds_every_share_played():
    first = Judgement({"a": 1.5, "c": 5.5}, 2, False, {"a": array("i", [1, 2]), "c": array("i", [5, 6])})
    second = Judgement({"b": 3.0, "d": 7.0}, 3, False, {"b": array("i", [3, 4, 9]), "d": array("i", [7, 7, 7])})
    merged = merge_shares([first, second])
    assert list(merged.values) == ["a", "b", "c", "d"]
    # the second share played a third world the first did not: the candidates keep two
    assert merged.values == {"a": 1.5, "b": 3.5, "c": 5.5, "d": 7.0}
    assert merged.samples == 2 and merged.best() == "d"


def test_a_whole_exact_judgement_is_its_own_merge():
    whole = Judgement({"a": 2.0, "b": 1.0}, 1, True)
    assert merge_shares([whole, whole, whole]) is whole


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(parts=st.integers(1, 5), turn=st.integers(0, 9))
def test_the_shares_of_a_decision_cover_each_candidate_once_in_its_order(near_the_end, parts, turn):
    task = near_the_end[turn]
    situation, played = task.situation, _played_sources(task.situation, task.turn)

    def judged(share):
        return judge_draws(situation, played, 3, random.Random("shares"), share=share)

    whole = judged(None)
    shares = [judged((part, parts)) for part in range(parts)]
    dealt = [c for share in shares for c in share.values]
    assert sorted(dealt) == sorted(whole.values) and len(dealt) == len(whole.values)
    merged = merge_shares(shares)
    assert list(merged.values) == list(whole.values)
    assert merged == whole


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_pieces_give_judge_turns_evaluations_to_the_bit(near_the_end, whole_turns, workers):
    work = pieces(near_the_end, workers)
    assert [piece.cost for piece in work] == sorted((piece.cost for piece in work), reverse=True)
    for index in range(len(near_the_end)):
        for decision in Decision:
            parts = [(p.part, p.parts) for p in work if p.index == index and p.decision is decision]
            assert sorted(parts) == [(part, len(parts)) for part in range(len(parts))]
    if workers > 1:
        assert any(piece.parts > 1 for piece in work)  # a dear decision is shared
    shuffled = random.Random(workers).sample(work, len(work))  # the pool's order does not matter
    judged = merged_evaluations(near_the_end, shuffled, [judge_piece(piece) for piece in shuffled])
    assert judged == whole_turns


def test_a_turns_pieces_together_keep_its_time_limit():
    """The turns of test_move_time.py's tiny limit, at a budget of seconds a turn, cut into
    pieces for two workers: a turn's pieces one after the other take less than its limit, and the
    turn as played is valued. A limit of a second: near the end of a four-player game one step
    of a search may take a tenth of a second, which a piece can run past its share, and at half
    a second (0.39 s used at rest, steps of 0.1 s) the whole suite's load failed it in 2 runs of 4."""
    limited = [
        dataclasses.replace(task, move_time=1.0)
        for task in line_tasks(("Ana", "Ben", "Cleo", "Dev"), "move-time:analysis", 400)[-8:-5]
    ]
    work = pieces(limited, 2)
    assert any(piece.parts > 1 for piece in work)
    for index in range(len(limited)):
        own = [piece for piece in work if piece.index == index]
        # process time: the search's own work. The wall clock also counts other processes' turns on a
        # shared machine, which can stretch a step past its forecast (docs/ANALYSIS.md, "The budget").
        start = time.process_time()
        judged, spent = [], []
        for piece in own:
            begun, since = time.process_time(), time.monotonic()
            judged.append(judge_piece(piece))
            spent.append((round(time.process_time() - begun, 3), round(time.monotonic() - since, 3)))
        assert time.process_time() - start < 1.0, f"the pieces' CPU and wall seconds: {spent}"
        (evaluation,) = merged_evaluations(
            [limited[index]], [dataclasses.replace(piece, index=0) for piece in own], judged
        )
        assert 1 <= evaluation.samples < 400 and evaluation.loss >= 0


@pytest.mark.slow
def test_any_number_of_workers_gives_the_same_json(tmp_path):
    path = tmp_path / "game.arb"
    path.write_text(format_game(simulate_game(("Ana", "Ben", "Cleo"), "pieces:cli")))
    outputs = []
    for jobs in ("1", "2", "3"):
        result = CliRunner().invoke(app, ["analyse", str(path), "--budget", "3", "-j", jobs, "--json"])
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(json.loads(outputs[0])["turns"]) > 20
