"""Points lost and accuracy: the rule by hand, its invariants, and the figures of an analysed record."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbo_notation.analysis.accuracy import SCALE, Accuracy, of_record, summarise, turn_accuracy
from arbo_notation.notation.engine_notes import EngineNote, read_note
from arbo_notation.notation.model import Comment
from arbo_notation.notation.reading.reader import parse

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "analysed.arb"
losses = st.floats(min_value=0, max_value=60, allow_nan=False)


def test_a_turn_s_accuracy_by_hand():
    assert turn_accuracy(0) == 100
    assert turn_accuracy(SCALE) == pytest.approx(100 / math.e)  # 36.79
    assert [round(turn_accuracy(loss), 2) for loss in (1.5, 3, 6)] == [65.14, 42.44, 18.01]  # ?!, ?, ??


def test_a_player_s_accuracy_is_the_mean_of_their_turns():
    (ana,) = summarise([("Ana", 0.0, None), ("Ana", 3.5, "?")], ["Ana", "Ben"])
    assert (ana.turns, ana.points_lost, ana.mean_points_lost, ana.mistakes) == (2, 3.5, 1.75, 1)
    assert round(ana.accuracy, 2) == 68.39  # (100 + 36.79) / 2
    assert ana.to_json() == {
        "player": "Ana",
        "turns": 2,
        "points_lost": 3.5,
        "mean_points_lost": 1.75,
        "accuracy": 68.4,
        "?!": 0,
        "?": 1,
        "??": 0,
    }


def test_no_loss_is_a_hundred():
    assert Accuracy("Ana").accuracy == 100
    (ana,) = summarise([("Ana", 0.0, None)] * 5, ["Ana"])
    assert ana.accuracy == 100 and ana.mean_points_lost == 0


@given(losses, losses)
def test_accuracy_falls_as_the_loss_grows_and_stays_in_bounds(a, b):
    low, high = sorted((a, b))
    assert 0 <= turn_accuracy(high) <= turn_accuracy(low) <= 100


@given(st.lists(losses, min_size=1), st.lists(losses, min_size=1))
def test_summaries_add_as_their_turns_do(first, second):
    (one,) = summarise([("Ana", loss, None) for loss in first], ["Ana"])
    (two,) = summarise([("Ana", loss, None) for loss in second], ["Ana"])
    (both,) = summarise([("Ana", loss, None) for loss in first + second], ["Ana"])
    added = one + two
    assert added.turns == both.turns
    assert added.accuracy == pytest.approx(both.accuracy)
    assert added.mean_points_lost == pytest.approx(both.mean_points_lost)


def test_an_unflagged_turn_s_loss_is_in_its_note():
    note = EngineNote(value=2.4, samples=48, exact=False, gain=0.4)
    assert str(note) == "arbo: +2.4 (48 samples); 0.4 points lost"
    assert read_note(Comment(str(note))) == note
    assert str(EngineNote(value=2.4, samples=48, exact=False)) == "arbo: +2.4 (48 samples)"


def test_the_figures_of_the_analysed_sample_come_from_its_notes():
    (record,) = parse(SAMPLE.read_text(), str(SAMPLE))
    ana, ben = of_record(record)
    # Ana lost 1.3 1.5 2.5 1.1 2.9 1.4 1.5 0 2.4 1.0; Ben 2.1 0.5 3.3 2.2 1.9 0 0 4.4 4.0
    assert ana.to_json() == {
        "player": "Ana",
        "turns": 10,
        "points_lost": 15.6,
        "mean_points_lost": 1.56,
        "accuracy": 65.7,
        "?!": 5,
        "?": 0,
        "??": 0,
    }
    assert ben.to_json() == {
        "player": "Ben",
        "turns": 9,
        "points_lost": 18.4,
        "mean_points_lost": 2.04,
        "accuracy": 61.4,
        "?!": 3,
        "?": 3,
        "??": 0,
    }
