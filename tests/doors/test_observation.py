"""A seat's view as the doors' vector (arbo_notation/doors/observation.py), worked by hand."""

from __future__ import annotations

import dataclasses

import pytest

from arbo_notation.doors.actions import ActionIds, door_config
from arbo_notation.doors.observation import ViewTensor
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.state import Game
from arbo_notation.engine.view import SeatView
from arbo_notation.errors import ArboError

TENSOR = ViewTensor(ActionIds.of(door_config(2)))
#: player_1 took Ca8 from player_0's pile and is to plant; 25 cards in the deck.
POSITION = (
    "Bs Ca Cb Dw Ja Ma | player_0: Ca7@0,0 Bs3@1,0 Ma8@0,-1 / Cb1 Cb2 / Bs1 Bs5 Bs7 Ca1 Ca3 Ca5 Cb3 "
    "| player_1: Dw8@0,0 / Ca4 / Bs2 Bs4 Bs6 Bs8 Ca2 Ca6 Cb4 +Ca8 Dw1 | deck 25 | 4. player_1 plant"
)


def piece(vector: list[float], name: str) -> list[float]:
    first, after = TENSOR.span(name)
    return vector[first:after]


def test_a_seat_s_view_by_hand():
    game = Game.from_position(POSITION)
    vector = [0.0] * TENSOR.size
    TENSOR.fill(game.view("player_0"), vector)
    assert piece(vector, "seat") == [1, 0] and piece(vector, "to_move") == [0, 1]
    assert piece(vector, "due") == [0, 0, 1, 0]  # the planting
    hand = piece(vector, "hand")
    known = [index for index, value in enumerate(hand) if value]
    ids = TENSOR.ids
    assert known == sorted(ids.card_id(Card.parse(c)) for c in "Bs1 Bs5 Bs7 Ca1 Ca3 Ca5 Cb3".split()) + [48 + 15]
    assert piece(vector, "hidden") == [0, 8 / 9]  # player_1's nine cards, Ca8 seen
    piles = piece(vector, "piles")
    assert piles[16] == 1 / 48 and piles[17] == 2 / 48  # Cb1 under Cb2, the top
    assert piles[48 + 11] == 1 / 48 and sum(1 for value in piles if value) == 3
    assert piece(vector, "deck") == [25 / 48]
    trees = piece(vector, "trees")
    side, cell = 33, 7  # (0,0) is at [16, 16]; a cell: six species, then the value over 8
    at = ((16 * side) + 16) * cell
    assert trees[at : at + cell] == [0, 1, 0, 0, 0, 0, 7 / 8]  # Ca7
    at = ((17 * side) + 16) * cell
    assert trees[at : at + cell] == [1, 0, 0, 0, 0, 0, 3 / 8]  # Bs3 at (1,0)
    at = ((16 * side) + 15) * cell
    assert trees[at : at + cell] == [0, 0, 0, 0, 0, 1, 1.0]  # Ma8 at (0,-1)
    at = side * side * cell + ((16 * side) + 16) * cell
    assert trees[at : at + cell] == [0, 0, 0, 1, 0, 0, 1.0]  # player_1's Dw8
    assert sum(1 for value in trees if value) == 8


def test_the_vector_lies_in_the_unit_box_and_a_spectator_sees_no_hand():
    game = Game.from_position(POSITION)
    vector = [0.0] * TENSOR.size
    TENSOR.fill(game.public_view(), vector)
    assert piece(vector, "seat") == [0, 0] and min(vector) == 0 and max(vector) <= 1
    assert [index for index, value in enumerate(piece(vector, "hand")) if value] == [48 + 15]  # the Ca8 seen


def test_a_tree_off_the_grid_is_refused():
    view = Game.from_position(POSITION).view("player_0")
    far = dataclasses.replace(view.position.seats[1], trees=((Coord(17, 0), Card.parse("Dw8")),))
    odd = SeatView("player_0", dataclasses.replace(view.position, seats=(view.position.seats[0], far)))
    with pytest.raises(ArboError, match=r"player_1's tree at \(17,0\) is outside the grid of 33 cells a side"):
        TENSOR.fill(odd, [0.0] * TENSOR.size)
