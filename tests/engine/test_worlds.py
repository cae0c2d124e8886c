"""engine/worlds.py: the tables a seat's view could be, each with that very view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.engine.cards import Card, default_species_for, full_deck
from arbo_notation.engine.position import Position, SeatPosition
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.engine.worlds import deal_unseen, shuffle_unseen, unseen_cards
from arbo_notation.errors import PositionError

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def played(players: int, seed: int, actions: int) -> Game:
    """An omniscient game of ``players`` after ``actions`` random legal actions (fewer when it ends)."""
    config = GameConfig(NAMES[:players], default_species_for(players))
    game = Game(config, Setup.shuffled(config, seed))
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.push(rng.choice(game.legal_actions()))
    return game


def relabeled(position: Position, mapping: dict[Card, Card]) -> Position:
    """The position with every card put through ``mapping``."""

    def cards(held: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(mapping.get(card, card) for card in held)

    seats = tuple(
        SeatPosition(
            seat.player,
            tuple((cell, mapping.get(card, card)) for cell, card in seat.trees),
            cards(seat.pile),
            tuple(sorted(cards(seat.hand))),
            frozenset(cards(tuple(seat.shown))),
            seat.hidden,
        )
        for seat in position.seats
    )
    deck = None if position.deck is None else cards(position.deck)
    return Position(
        position.species,
        seats,
        position.deck_size,
        deck,
        position.turn,
        position.to_move,
        position.phase,
        position.draws_taken,
    )


SEATS = st.sampled_from([0, 1, 2, 3, None])


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), actions=st.integers(0, 240), seat=SEATS)
def test_a_table_dealt_from_a_view_has_that_very_view_and_hides_nothing(players, seed, actions, seat):
    game = played(players, seed, actions)
    looker = None if seat is None else game.players[seat % players]
    view = game.view(looker)
    world = deal_unseen(view, random.Random(seed))
    assert world.view(looker) == view
    assert world.hidden_players() == [] and world.deck_size == game.deck_size
    assert len(world.deck_cards() or ()) == game.deck_size
    # what was unseen went into the hidden places: the hands' hidden cards and the deck
    hidden = {card for p in world.players for card in world.hand(p).known if card not in view.hand(p).known}
    assert sorted(hidden | set(world.deck_cards() or ())) == unseen_cards(view)


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), actions=st.integers(0, 240), seat=SEATS)
def test_a_table_with_its_unseen_cards_shuffled_looks_the_same_to_the_seat(players, seed, actions, seat):
    game = played(players, seed, actions)
    looker = None if seat is None else game.players[seat % players]
    view = game.view(looker)
    mapping = shuffle_unseen(view, random.Random(seed))
    assert sorted(mapping) == sorted(mapping.values()) == unseen_cards(view)
    other = Game.from_position(relabeled(game.position(), mapping))
    assert other.view(looker) == view


def test_the_unseen_cards_of_a_seat_at_the_start_are_all_but_its_hand():
    game = played(2, 7, 0)
    hand = game.hand("Ana").known
    assert unseen_cards(game.view("Ana")) == [card for card in full_deck(game.config.species) if card not in hand]
    assert len(unseen_cards(game.view("Ana"))) == 41 and len(unseen_cards(game.public_view())) == 48


def test_a_card_seen_taken_from_a_pile_stays_seen_and_its_place_is_kept():
    """Ben takes Ana's discard: it is Ben's for Ana in every table dealt from her view."""
    game = Game.from_position(
        "Ca Dw Ja Ma Oa Wi | Ana: Ma3@0,0 / Oa5 / Ca1 Ca2 Ca3 Ca4 Ca5 Ca6 Ca7 | Ben: - / - / ?7 | deck 32 | 1. Ben draw1"
    )
    game.push(game.parse_action("Ana:Oa5"))
    view = game.view("Ana")
    assert str(view).split(" | ")[2] == "Ben: - / - / +Oa5 ?7"
    for seed in range(20):
        world = deal_unseen(view, random.Random(seed))
        assert Card.parse("Oa5") in world.hand("Ben").known and len(world.hand("Ben")) == 8
        assert world.view("Ana") == view


def test_the_same_seed_deals_the_same_table_and_another_seed_another():
    view = played(3, 11, 40).view("Ben")
    assert deal_unseen(view, random.Random(5)) == deal_unseen(view, random.Random(5))
    assert deal_unseen(view, random.Random(5)) != deal_unseen(view, random.Random(6))


def test_a_view_whose_counts_do_not_add_up_is_refused():
    game = played(2, 3, 0)
    position = game.view("Ana").position
    short = Position(
        position.species,
        position.seats,
        position.deck_size - 1,
        None,
        position.turn,
        position.to_move,
        position.phase,
        position.draws_taken,
    )
    with pytest.raises(PositionError, match="the deck holds 33 cards, but 34 are listed"):
        deal_unseen(type(game.view("Ana"))("Ana", short), random.Random(1))
