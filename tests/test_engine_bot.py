"""The engine as a player: what it remembers of the piles is what the knowledge model knows."""

from __future__ import annotations

import pytest

import arbo_notation as arbo
from arbo_notation.analysis.bot import PileWatch, situation_of
from arbo_notation.engine.bots import TableView
from arbo_notation.notation.writer import format_game
from arbo_notation.simulate import simulate_game

NAMES = ("Ana", "Ben", "Cleo", "Dev")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_the_cards_seen_taken_from_piles_are_the_ones_the_seat_knows_in_other_hands(players, seed):
    tree = arbo.replay(arbo.read_games(format_game(simulate_game(NAMES[:players], f"watch:{seed}")))[0])
    me = NAMES[seed % players]
    every_turn, own_turns = PileWatch(), PileWatch()
    compared = 0
    for node in tree.mainline():
        position = node.position
        if position.is_over:
            break
        view = TableView.of(position)  # read for its public part only: the piles, the trees
        if node.turn is not None:
            every_turn.look_at(view, node.turn.player)
            if node.turn.player == me:
                own_turns.look_at(view, me)
        if position.current_player != me:
            continue
        own_turns.look_at(view)
        knowledge = node.knowledge(arbo.View.of_seat(me))
        others = [p for p in NAMES[:players] if p != me]
        told = situation_of(view, every_turn)
        for other in others:
            assert set(told.known[other]) == set(knowledge.hands[other].known), (node.number, other)
            assert told.unseen.room[other] == knowledge.hands[other].unknown
        assert set(told.unseen.cards) == set(knowledge.unseen)
        # Looking only at its own turns, a seat misses a card discarded and taken in between,
        # and, at three players or more, who took a card: what it knows is true, never more.
        guessed = situation_of(view, own_turns)
        held = {card for other in others for card in knowledge.hands[other].known}
        for card in guessed.unseen.cards:
            if None not in guessed.unseen.places[card]:
                assert card in held  # put out of the deck: truly in another hand
        for other in others:
            assert set(guessed.known[other]) <= set(knowledge.hands[other].known)
        compared += 1
    assert compared >= 5
