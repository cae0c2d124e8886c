"""The engine as a player: what it remembers of the piles is what the knowledge model knows."""

from __future__ import annotations

import pytest

import arbo_notation as arbo
from arbo_notation.analysis.bot import PileWatch, situation_of
from arbo_notation.engine.bots import TableView
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

NAMES = ("Ana", "Ben", "Cleo", "Dev")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_the_cards_seen_taken_from_piles_are_the_ones_the_seat_knows_in_other_hands(players, seed):
    tree = arbo.replay(arbo.parse_games(format_game(simulate_game(NAMES[:players], f"watch:{seed}")))[0])
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


@pytest.mark.slow
@pytest.mark.parametrize("players, seed", [(2, 0), (4, 3)])  # games where the others keep cards they took
def test_the_engine_bot_remembers_what_a_watch_of_every_turn_saw(players, seed):
    """Played as `arbo simulate` plays it (told of every turn), the engine's memory of the piles
    is the one the test above holds to the knowledge model, turn after turn."""
    import random

    from arbo_notation.analysis.bot import EngineBot
    from arbo_notation.engine.bots import GreedyBot, play_bot_turn
    from arbo_notation.engine.cards import default_species_for
    from arbo_notation.engine.state import Game, GameConfig, Setup

    config = GameConfig(NAMES[:players], default_species_for(players))
    game = Game(config, Setup.shuffled(config, f"remember:{players}:{seed}"))
    engine = EngineBot(budget=2)
    seats = [engine] + [GreedyBot() for _ in range(players - 1)]
    reference = PileWatch()
    reference.look_at(TableView.of(game))
    rng = random.Random(1)
    remembered = 0
    while not game.is_over:
        mover = game.current_player
        play_bot_turn(seats[config.seat(mover)], game, rng)
        for seat in seats:
            seat.watch(game, mover)
        reference.look(
            {p: game.discard_pile(p) for p in game.players}, sum(len(game.arboretum(p)) for p in game.players), mover
        )
        in_sight = {c for p in game.players for c in (*game.discard_pile(p), *game.arboretum(p).values())}
        for other in NAMES[1:players]:
            mine = engine._watch.held.get(other, set()) - in_sight
            assert mine == reference.held.get(other, set()) - in_sight, (game.turn_number, other)
            if mover == NAMES[0]:
                remembered += len(mine)  # kept across the engine's own turn
    assert remembered > 0


def test_a_gain_and_its_standard_error_are_measured_world_by_world():
    from arbo_notation.analysis.search import Judgement

    judged = Judgement({"a": 3.0, "b": 1.0}, 4, False, {"a": (4, 2, 5, 1), "b": (2, 0, 2, 0)})
    gain, error = judged.gain("a", "b")
    # differences 2, 2, 3, 1: mean 2, sample variance 2/3, standard error sqrt(2/3 / 4)
    assert gain == 2.0 and error == pytest.approx((2 / 3 / 4) ** 0.5)
    assert Judgement({"a": 3.0, "b": 1.0}, 1, True).gain("a", "b") == (2.0, 0.0)


def test_finalists_alone_are_played_in_every_world_and_only_they_can_be_best():
    from arbo_notation.analysis.search import _margins, _sampled

    asked = []

    def value(world, candidate):
        asked.append((world, candidate))
        return {"played": 0, "good": 2, "fair": 1, "poor": -1, "lucky": 9 if world == 0 else -9}[candidate]

    candidates = ["played", "good", "fair", "poor", "lucky"]
    margins = _margins(list(range(8)), candidates, value, 1, "played")
    # the first quarter (2 worlds): all five (over them "good" sums 4, "lucky" 9 - 9 = 0); then
    # the best of them, "good", and the played one in the other 6
    assert {c: len(m) for c, m in margins.items()} == {"played": 8, "good": 8, "fair": 2, "poor": 2, "lucky": 2}
    assert len(asked) == 5 * 2 + 2 * 6
    judged = _sampled(margins)
    assert judged.samples == 8 and judged.values["good"] == 2.0 and judged.best() == "good"
    unfinished = _sampled({"played": [0, 0, 0, 0], "fair": [5, 5]})
    assert unfinished.best() == "played"  # a higher mean over fewer worlds cannot be best
