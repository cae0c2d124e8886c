"""The doors' action ids (arbo_notation/doors/actions.py): the layout by hand, and every legal action's id back to it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.doors.actions import ActionIds, door_config, most_turns
from arbo_notation.engine.actions import Discard, Draw, Plant, Skip
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.state import Game, Setup
from arbo_notation.errors import ArboError
from tests.engine.test_worlds import played

C = Card.parse
TWO = ActionIds.of(door_config(2))


def test_the_layout_of_a_two_player_table_by_hand():
    assert TWO.players == ("player_0", "player_1")
    assert TWO.species == ("Bs", "Ca", "Cb", "Dw", "Ja", "Ma") and len(TWO.cards) == 48
    # 33 turns at most (34 cards left after the deal, and a discard drawn a turn), 17 for the
    # first player: the 17th tree 16 steps out
    assert TWO.radius == 16 and len(TWO.cells) == 2 * 16 * 16 + 2 * 16 + 1 == 545
    assert (TWO.skip, TWO.first_planting, TWO.first_discard, TWO.size) == (3, 4, 4 + 48 * 545, 4 + 48 * 545 + 48)
    assert TWO.action_id(Draw()) == 0 and TWO.action_id(Draw(None, C("Ma3"))) == 0
    assert TWO.action_id(Draw("player_0")) == 1 and TWO.action_id(Draw("player_1", C("Ca2"))) == 2
    assert TWO.action_id(Skip()) == 3
    assert TWO.cells[0] == Coord(-16, 0) and TWO.action_id(Plant(C("Bs1"), Coord(-16, 0))) == 4
    # (0,0) follows the 256 cells of x = -16 .. -1, then the 16 of x = 0 below it
    assert TWO.cell_id(Coord(0, 0)) == 272
    assert TWO.action_id(Plant(C("Bs2"), Coord(0, 0))) == 4 + 545 + 272
    assert TWO.action_id(Discard(C("Bs1"))) == 4 + 48 * 545 and TWO.action_id(Discard(C("Ma8"))) == TWO.size - 1
    assert TWO.card_id(C("Ca1")) == 8 and TWO.card(47) == C("Ma8")


@pytest.mark.parametrize(("players", "radius", "cells"), [(2, 16, 545), (3, 13, 365), (4, 12, 313)])
def test_every_id_names_one_action_and_back(players, radius, cells):
    ids = ActionIds.of(door_config(players))
    assert (ids.radius, len(ids.cells)) == (radius, cells)
    assert [ids.action_id(ids.action_of(number)) for number in range(ids.size)] == list(range(ids.size))
    assert len({str(ids.action_of(number)) for number in range(ids.size)}) == ids.size


@pytest.mark.parametrize(("players", "turns", "trees"), [(2, 33, 17), (3, 42, 14), (4, 51, 13)])
def test_the_longest_game_and_its_farthest_tree_at_the_window_s_edge(players, turns, trees):
    """Every draw from a discard pile when one has a card (so the deck shrinks by one card a turn
    after the first), and player_0 plants each tree one cell further right: the most turns a game
    can have, her last tree at (R,0)."""
    config = door_config(players)
    ids = ActionIds.of(config)
    game = Game(config, Setup.shuffled(config, 3))
    while not game.is_over:
        for _ in range(2):
            game.push(game.legal_actions()[-1])  # the last pile's top card, or the deck when none has one
        cells = game.plant_cells()
        cell = max(cells) if game.current_player == "player_0" else cells[0]
        game.push(Plant(game.hand(game.current_player).known[0], cell))
        game.push(Discard(game.hand(game.current_player).known[0]))
    assert game.turn_number == most_turns(players, len(config.cards)) == turns
    assert len(game.arboretum("player_0")) == trees == ids.radius + 1
    assert max(game.arboretum("player_0")) == Coord(ids.radius, 0) == ids.cells[-1]
    with pytest.raises(ArboError, match=rf"\({ids.radius + 1},0\) is outside the window of cells at most"):
        ids.action_id(Plant(config.cards[0], Coord(ids.radius + 1, 0)))


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), actions=st.integers(0, 260))
def test_each_legal_action_of_a_seat_s_view_has_an_id_that_gives_it_back(players, seed, actions):
    game = played(players, seed, actions)
    ids = ActionIds.of(game.config)
    if game.is_over:
        assert ids.legal_ids(game) == []
        return
    view = game.view()
    legal = view.legal_actions()
    numbers = [ids.action_id(action) for action in legal]
    assert len(set(numbers)) == len(numbers) and all(0 <= n < ids.size for n in numbers)
    assert [ids.action(n, view) for n in numbers] == legal
    assert [ids.action(n, game) for n in numbers] == legal  # the game's own names the deck's top card; the id does not
    # the planting's quick way holds to legal_actions(), the rule written once
    assert ids.legal_ids(view) == ids.legal_ids(game) == sorted(numbers)


def test_an_id_that_is_none_or_a_draw_from_an_empty_pile_is_refused():
    game = played(2, 1, 0)
    with pytest.raises(ArboError, match="Ben's discard pile is empty"):
        ActionIds.of(game.config).action(2, game)
    with pytest.raises(ArboError, match=r"26212 is no action id \(0 to 26211\)"):
        TWO.action(TWO.size, game)
    with pytest.raises(ArboError, match="Zz1 is not a card of this game"):
        TWO.action_id(Discard(C("Zz1")))
    with pytest.raises(ArboError, match="Eve is not a player of this game"):
        TWO.action_id(Draw("Eve"))


def test_ids_are_a_value_of_their_players_and_species():
    import copy
    import pickle

    assert ActionIds.of(door_config(2)) == TWO and hash(ActionIds.of(door_config(2))) == hash(TWO)
    assert copy.deepcopy(TWO) is TWO and pickle.loads(pickle.dumps(TWO)) == TWO
    assert TWO != ActionIds.of(door_config(3))
