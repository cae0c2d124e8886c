"""A game's view of a seat, made of copies of the game's parts (Game.view), against its reference:
the seat's cut of the whole position (view.view_of); and a view as a value."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.actions import Draw, Skip
from arbo_notation.engine.cards import default_species_for
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.engine.view import SeatView, view_of
from arbo_notation.errors import ArboError, PositionError

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def table(players: int, kind: str, seed: int) -> Game:
    """An omniscient game, the first seat's own (its hand alone dealt) or a spectator's."""
    config = GameConfig(NAMES[:players], default_species_for(players))
    setup = Setup.shuffled(config, seed, house_discards=seed % 2 == 0)
    if kind == "omniscient":
        return Game(config, setup)
    hands = {NAMES[0]: setup.hands[NAMES[0]]} if kind == "seat" else {}
    return Game(config, Setup(hands=hands, discards=setup.discards))


def the_same(made: SeatView, reference: SeatView) -> None:
    """Every question a bot may ask answered alike by both views."""
    assert made == reference and hash(made) == hash(reference)
    assert made.position == reference.position and str(made) == str(reference)
    assert (made.seat, made.players, made.species, made.current_player, made.phase, made.is_over) == (
        reference.seat,
        reference.players,
        reference.species,
        reference.current_player,
        reference.phase,
        reference.is_over,
    )
    assert (made.draws_taken, made.turn_number, made.deck_size) == (
        reference.draws_taken,
        reference.turn_number,
        reference.deck_size,
    )
    for player in made.players:
        assert made.hand(player) == reference.hand(player)
        assert made.shown(player) == reference.shown(player)
        assert made.discard_pile(player) == reference.discard_pile(player)
        assert made.arboretum(player) == reference.arboretum(player)
        assert made.plant_cells(player) == reference.plant_cells(player)
    assert made.legal_actions() == reference.legal_actions()
    if made.seat is not None:
        assert made.opponents() == reference.opponents()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    kind=st.sampled_from(["omniscient", "seat", "spectator"]),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_a_games_view_is_the_seats_cut_of_its_position(players, kind, seed, data):
    game = table(players, kind, seed)
    rng = random.Random(seed)
    while not game.is_over:
        position = game.position()
        for seat in (*game.players, None):
            made = game.view(seat) if seat is not None else game.public_view()
            the_same(made, view_of(position, seat))
        legal = game.legal_actions()
        # (a seat's or a spectator's game offers every unlocated card too: a few of them will do)
        game.push(data.draw(st.sampled_from(legal[:40])) if rng.random() < 0.1 else rng.choice(legal[:40]))
    the_same(game.view(), view_of(game.position(), game.current_player))


def test_a_view_is_a_value_the_game_no_longer_changes():
    game = table(3, "omniscient", 5)
    view = game.view()
    before = view_of(game.position(), game.current_player)
    game.push(Draw())
    game.push(Draw())
    assert view == before and view.draws_taken == 0 and len(view.hand(view.seat)) == 7
    assert game.view() != view
    with pytest.raises(AttributeError, match="immutable"):
        view.seat = "Ben"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del view.seat
    assert pickle.loads(pickle.dumps(view)) == view
    assert repr(view) == repr(before) == f"SeatView(seat='Ana', position={view.position!r})"
    assert SeatView(view.seat, view.position).position is view.position


def test_a_views_parts_are_each_players_in_seat_order_shared_while_that_player_is_unchanged():
    """docs/API.md: ``parts``, read-only, shared between a game's views while a player's part does
    not change, so a bot may cache by identity."""
    game = table(2, "omniscient", 3)
    first = game.view("Ana")
    assert [part.player for part in first.parts] == ["Ana", "Ben"]
    assert first.parts[0].hidden == 0 and len(first.parts[0].known) == 7 and first.parts[1].hidden == 7
    game.push(Draw())  # Ana draws: her part changes, Ben's does not
    second = game.view("Ana")
    assert second.parts[1] is first.parts[1]
    assert second.parts[0] is not first.parts[0] and len(second.parts[0].known) == 8
    assert set(first.parts[0].known) == set(first.hand("Ana").known)  # the first view still says what it saw


def test_a_view_names_no_other_seat():
    game = table(2, "omniscient", 1)
    with pytest.raises(ArboError, match="Cleo is not a player of this game \\(Ana, Ben\\)"):
        game.view("Cleo")
    with pytest.raises(PositionError, match="Cleo is not a player of this position"):
        game.view().hand("Cleo")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), kind=st.sampled_from(["omniscient", "seat"]), seed=st.integers(0, 10**6))
def test_the_parts_a_game_keeps_for_its_views_follow_every_push_pop_and_whole_turn(players, kind, seed):
    """The game keeps each player's part of a view until that player's hand, trees or pile change:
    views asked for between pushes, pops, illegal pushes, whole turns pushed and copies stay the
    seat's cut of the position."""
    game = table(players, kind, seed)
    rng = random.Random(seed)
    for _ in range(120):
        if game.is_over:
            break
        for seat in (*game.players, None):
            made = game.view(seat) if seat is not None else game.public_view()
            the_same(made, view_of(game.position(), seat))
        roll = rng.random()
        if roll < 0.2 and game.move_stack:
            game.pop()
        elif roll < 0.25 and Skip() not in game.legal_actions():
            with pytest.raises(ArboError):  # refused: the game, and the parts it keeps, unchanged
                game.push(Skip())
        elif roll < 0.3:
            game = game.copy()
        else:
            game.push(rng.choice(game.legal_actions()[:40]))
    for seat in game.players:
        the_same(game.view(seat), view_of(game.position(), seat))
