"""Syntax errors that name the likely slip: a space inside a planting, two draws glued together.

Exact messages, lines and columns, as `arbo check` prints them."""

from __future__ import annotations

import pytest

from arbo_notation.notation import parse_all
from arbo_notation.checking.games import check_text

HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"
CELL = "expected a cell x,y in whole numbers (such as 0,1 or -2,3) after '@'"
GLUED = "expected two draws, found one: 'dd' is read as a player's name; separate the two draws with a space"


def only_error(body: str) -> tuple[int, int, str]:
    [error] = parse_all(HEADER + body, "f.arb").errors
    return error.line, error.column, error.message


@pytest.mark.parametrize(
    ("turn", "column", "message"),
    [
        (
            "1. Ana d d Ca3 @0,0 /Oa5",
            12,
            "expected a planting such as Ma3@0,1 after 'd', found 'Ca3 @0,0': no space is allowed before '@'",
        ),
        (
            "1. Ana d d Ca3\t @0,0 /Oa5",
            12,
            "expected a planting such as Ma3@0,1 after 'd', found 'Ca3\\t @0,0': no space is allowed before '@'",
        ),
        (
            "1. Ana d d Ca3 @ 0,0 /Oa5",
            12,
            "expected a planting such as Ma3@0,1 after 'd', found 'Ca3 @': no space is allowed before '@'",
        ),
        ("1. Ana d d Ca3@ 0,0 /Oa5", 16, f"{CELL}, found a space: no space is allowed after '@'"),
        ("1. Ana d d Ca3@0, 0 /Oa5", 16, f"{CELL}, found '0, 0': no space is allowed after ','"),
        ("1. Ana d d Ca3@0 ,0 /Oa5", 16, f"{CELL}, found '0 ,0': no space is allowed before ','"),
        ("1. Ana d d Ca3@-1, -2 /Oa5 ; a comment", 16, f"{CELL}, found '-1, -2': no space is allowed after ','"),
    ],
)
def test_a_space_inside_a_planting(turn, column, message):
    assert only_error(turn + "\n") == (5, column, message)


@pytest.mark.parametrize(
    ("turn", "column", "message"),
    [
        ("1. Ana dd Ca3@0,0 /Oa5", 8, f"{GLUED}: 'd d'"),
        ("1. Ana dd /Oa5", 8, f"{GLUED}: 'd d'"),
        ("1. Ana dd", 8, f"{GLUED}: 'd d'"),
        ("1. Ana dd:Ma3 Ca3@0,0 /Oa5", 8, f"{GLUED}: 'd d:Ma3'"),
    ],
)
def test_two_draws_glued_together(turn, column, message):
    assert only_error(turn + "\n") == (5, column, message)


@pytest.mark.parametrize(
    ("turn", "column", "message"),
    [
        # no known slip: the messages stay as they were
        ("1. Ana d d Ca3@ /Oa5", 16, f"{CELL}, found a space"),
        (
            "1. Ana d d Ca3 Oa5 /Oa5",
            12,
            "expected a planting such as Ma3@0,1 after 'd', found 'Ca3' (a turn has exactly two draws)",
        ),
        (
            "1. Ana Ca3@0,0 /Oa5",
            8,
            "expected a draw ('d', 'd:Ma3', a player's name, 'Ana:Ja2' or '-') after 'Ana', found 'Ca3@0,0' "
            "(a turn has two draws)",
        ),
        (
            "1. Ana Ben Ca3@0,0 /Oa5",
            12,
            "expected a draw ('d', 'd:Ma3', a player's name, 'Ana:Ja2' or '-') after 'Ben', found 'Ca3@0,0' "
            "(a turn has two draws)",
        ),
    ],
)
def test_other_faults_keep_their_messages(turn, column, message):
    assert only_error(turn + "\n") == (5, column, message)


def test_a_glued_draw_that_parses_is_named_by_the_replayer():
    [diagnostic] = [
        d for d in check_text(HEADER + "1. Ana d dd Ca3@0,0 /Oa5\n", "f.arb").diagnostics if d.code == "draw"
    ]
    assert (diagnostic.line, diagnostic.column) == (5, 10)
    assert diagnostic.message == (
        "dd is not a player of this game (Ana, Ben); 'dd' is read as a player's name: "
        "two draws from the deck are written apart, 'd d'"
    )
