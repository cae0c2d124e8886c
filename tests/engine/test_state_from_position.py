"""Game.from_position given a Position value: what its line's reader checks, checked on the value too."""

from __future__ import annotations

import dataclasses

import pytest

from arbo_notation.engine.position import Position
from arbo_notation.engine.state import Game
from arbo_notation.errors import PositionError

START = (
    "Ca Dw Ja Ma Oa Wi | Ana: - / - / Ca1 Ca2 Ca3 Ca4 Ca5 Ca6 Ca7 | Ben: - / - / Ca8 Dw1 Dw2 Dw3 Dw4 Dw5 Dw6 "
    "| deck 34 Dw7 Dw8 Ja1 Ja2 Ja3 Ja4 Ja5 Ja6 Ja7 Ja8 Ma1 Ma2 Ma3 Ma4 Ma5 Ma6 Ma7 Ma8 Oa1 Oa2 Oa3 Oa4 Oa5 Oa6 "
    "Oa7 Oa8 Wi1 Wi2 Wi3 Wi4 Wi5 Wi6 Wi7 Wi8 | 1. Ana draw1"
)


def test_a_deck_listing_more_or_fewer_cards_than_its_size_is_refused():
    whole = Position.parse(START)
    assert Game.from_position(whole).position() == whole
    with pytest.raises(PositionError, match="the deck holds 33 cards, but 34 are listed"):
        Game.from_position(dataclasses.replace(whole, deck_size=33))
    # the line's reader says the same of the text
    with pytest.raises(PositionError, match="the deck holds 35 cards, but 34 are listed"):
        Game.from_position(START.replace("deck 34", "deck 35"))
