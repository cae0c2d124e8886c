"""`arbo analyse --move-time`: a turn's judgement stops in time with the played turn valued, and a
limit it never meets changes nothing."""

from __future__ import annotations

import dataclasses
import time

import arbo_notation as arbo
from arbo_notation.analysis.game import tasks
from arbo_notation.analysis.turns import judge_turn
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game


def four_player_tasks(budget: int):
    record = simulate_game(("Ana", "Ben", "Cleo", "Dev"), "move-time:analysis")
    tree = arbo.replay(arbo.parse_games(format_game(record))[0])
    return [task for _, task in tasks(tree, budget=budget)]


def test_a_tiny_move_time_is_kept_and_the_played_turn_is_valued():
    """Turns of a 4-player game near its end (every pair of draws a candidate, the rollouts' last
    turns exact), at a budget of seconds a turn: each judged within half a second, with fewer
    worlds than the budget and a value for the turn as played. (The turns whose played draws
    leave the next player the last turn are not among them: their played value is computed over
    every world dealt whatever the time, docs/ANALYSIS.md.)"""
    for task in four_player_tasks(400)[-8:-5]:
        # process time: the search's own work. The wall clock also counts other processes' turns on a
        # shared machine, which can stretch a step past its forecast (docs/ANALYSIS.md, "The budget").
        start = time.process_time()
        evaluation = judge_turn(dataclasses.replace(task, move_time=0.5))
        assert time.process_time() - start < 0.5
        assert 1 <= evaluation.samples < 400 and evaluation.loss >= 0


def test_a_move_time_never_met_changes_no_judgement():
    for task in four_player_tasks(3)[-2:]:
        assert judge_turn(dataclasses.replace(task, move_time=600.0)) == judge_turn(task)
