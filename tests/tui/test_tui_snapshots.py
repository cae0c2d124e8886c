"""Snapshots of the replayer's screens (pytest-textual-snapshot). After a deliberate change of
the look, regenerate them with ``pytest tests/tui/test_tui_snapshots.py --snapshot-update`` and
look at them (``snapshot_report.html`` shows the differences) before keeping them."""

from __future__ import annotations

import pytest

from arbo_notation.tui.app import ReplayApp
from arbo_notation.present.navigation import ReplayModel
from tests.tui_support import annotated, four_player

SIZE = (120, 40)


def app_at(record, turn: int, perspective: str | None = None) -> ReplayApp:
    model = ReplayModel.from_record(record)
    model.goto(turn)
    model.set_perspective(perspective)
    return ReplayApp(model)


def test_main_view_at_a_middle_turn(snap_compare):
    assert snap_compare(app_at(four_player(), 14), terminal_size=SIZE)


@pytest.mark.slow
def test_scoring_screen(snap_compare):
    assert snap_compare(app_at(four_player(), len(four_player().turns)), press=["s"], terminal_size=SIZE)


@pytest.mark.slow
def test_one_players_view_hides_the_other_hands(snap_compare):
    assert snap_compare(app_at(four_player(), 14, perspective="Ben"), terminal_size=SIZE)


def test_a_variation_with_comments_at_80_by_24(snap_compare):
    assert snap_compare(app_at(annotated(), 2), press=["v"], terminal_size=(80, 24))


# The four-player game at common terminal sizes: every card of every hand, the whole status line,
# and Help and Quit in the footer (tests/tui/test_tui_layout.py checks the same facts cell by cell).


def test_four_players_at_80_by_24(snap_compare):
    assert snap_compare(app_at(four_player(), 14), terminal_size=(80, 24))


@pytest.mark.slow
def test_four_players_at_80_by_24_with_the_move_list(snap_compare):
    assert snap_compare(app_at(four_player(), 14), press=["m"], terminal_size=(80, 24))


def test_four_players_at_100_by_30(snap_compare):
    assert snap_compare(app_at(four_player(), 14), terminal_size=(100, 30))


def test_four_players_at_160_by_50(snap_compare):
    assert snap_compare(app_at(four_player(), 14), terminal_size=(160, 50))


@pytest.mark.slow
def test_the_scoring_at_80_by_24(snap_compare):
    assert snap_compare(app_at(four_player(), len(four_player().turns)), press=["s"], terminal_size=(80, 24))
