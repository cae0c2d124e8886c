"""The engine as a player: what it knows of the others' hands is what the knowledge model knows,
and it plays legal games on its seat's view."""

from __future__ import annotations

import random

import pytest

import arbo_notation as arbo
from arbo_notation.bots import GreedyBot, play_turn
from arbo_notation.bots.engine_bot import EngineBot, situation_of
from arbo_notation.engine.actions import Skip
from arbo_notation.engine.cards import default_species_for
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

NAMES = ("Ana", "Ben", "Cleo", "Dev")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_the_cards_seen_taken_from_piles_are_the_ones_the_seat_knows_in_other_hands(players, seed):
    """The situation the engine searches from its seat's view (the cards it saw the others take
    from the piles, the unseen cards, the room in each hand) is the knowledge model's of the seat."""
    tree = arbo.replay(arbo.parse_games(format_game(simulate_game(NAMES[:players], f"watch:{seed}", ["random"])))[0])
    me = NAMES[seed % players]
    compared = held = 0
    for node in tree.mainline():
        game = node.position
        if game.is_over:
            break
        if game.current_player != me:
            continue
        situation = situation_of(game.view(me))
        knowledge = node.knowledge(arbo.View.of_seat(me))
        for other in (p for p in NAMES[:players] if p != me):
            assert set(situation.known[other]) == set(knowledge.hands[other].known), (node.number, other)
            assert situation.unseen.room[other] == knowledge.hands[other].unknown
            held += len(situation.known[other])
        assert set(situation.unseen.cards) == set(knowledge.unseen)
        assert situation.unseen.deck_size == knowledge.deck_size
        compared += 1
    assert compared >= 5 and held > 0


@pytest.mark.slow
@pytest.mark.parametrize("players, seed", [(2, 0), (4, 3)])
def test_the_engine_bot_plays_a_legal_game_on_its_seats_view(players, seed):
    config = GameConfig(NAMES[:players], default_species_for(players))
    game = Game(config, Setup.shuffled(config, f"remember:{players}:{seed}"))
    seats = [EngineBot(budget=2)] + [GreedyBot() for _ in range(players - 1)]
    rng = random.Random(1)
    turns = 0
    while not game.is_over:
        played = play_turn(seats[config.seat(game.current_player)], game, rng)
        assert all(draw.card is not None for draw in played.actions[:2] if not isinstance(draw, Skip))
        turns += 1
    assert game.outcome() is not None and turns >= 12
