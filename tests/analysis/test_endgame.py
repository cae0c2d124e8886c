"""The exact end of a game: the solver in parts held equal to the straightforward scoring of every
finish, the listed deck's worlds, and the analysis's values on last turns held equal to a brute
force over every legal finish and every deal of the unseen cards, by the engine's own scoring."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import arbo_notation as arbo
from arbo_notation.analysis.endgame import best_final, draw_pairs, ending_turn, final_finishes
from arbo_notation.analysis.game import situation_at
from arbo_notation.analysis.listed import listed_decks
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.search import _exact_finishes, judge_draws
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.greedy import play_greedy_turn
from arbo_notation.engine.lean import FROM_DECK, Cards, LeanPosition, ORIGIN_CELL, margin
from arbo_notation.engine.scoring import PlayerPosition, score_totals
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

PLAYERS = ("Ana", "Ben", "Cleo", "Dev")


def last_world(players: int, seed: int) -> tuple[LeanPosition, int]:
    """A simulated world played by the greedy bot to a turn that ends the game, its draws taken."""
    record = simulate_game(PLAYERS[:players], seed)
    situation = situation_at(arbo.replay(arbo.parse_games(format_game(record))[0]).root, record.turns[0].player)
    assert situation is not None
    cards = Cards(situation.species)
    world = situation.world(cards, random.Random(seed))
    while len(world.deck) > 2:
        play_greedy_turn(world)
    world.draw(FROM_DECK)
    world.draw(FROM_DECK if world.deck else (world.sources() or [None])[0])
    return world, len(cards.species)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 10_000))
def test_the_solver_in_parts_equals_scoring_every_finish(players, seed):
    world, count = last_world(players, seed)
    straight = _exact_finishes(world, count)
    parts = {f: margin(s, world.current) for f, s in final_finishes(world, count).items()}
    assert parts == straight
    finish, scores = best_final(world, count)
    assert straight[finish] == max(straight.values()) == margin(scores, world.current)


def test_a_path_through_the_new_tree_joins_its_two_halves():
    # Ma1 Ma2 _ Ma6 Ma8 in a row: Ma4 in the gap makes one all-maple path of 5: 5 + 5 + 1 + 2 = 13.
    code = Cards(("Ma", "Oa", "Ca", "Wi", "Dw", "Bs")).code
    cell = [ORIGIN_CELL + 256 * x for x in range(5)]
    arb = {cell[0]: code(Card("Ma", 1)), cell[1]: code(Card("Ma", 2)), cell[3]: code(Card("Ma", 6))}
    arb[cell[4]] = code(Card("Ma", 8))
    hands = [[code(Card("Ma", 4)), code(Card("Oa", 1)), code(Card("Oa", 2))], [code(Card("Wi", 3))]]
    world = LeanPosition(hands, [], [[], []], [arb, {}], 0)
    table = {f: s for f, s in final_finishes(world, 6).items()}
    assert table[(code(Card("Ma", 4)), cell[2], code(Card("Oa", 1)))] == [13, 0]
    # planted elsewhere, the two halves score apart: Ma1 Ma2 is 2 + 1, Ma6 Ma8 is 2 + 2
    assert table[(code(Card("Ma", 4)), cell[0] - 1, code(Card("Oa", 1)))] == [4, 0]
    assert best_final(world, 6)[1] == [13, 0]


def test_a_small_deck_is_listed_with_its_probabilities():
    deck = tuple(Card.parse(w) for w in "Ca1 Ca2 Ca3".split())
    # Ca1 cannot be in the deck (seen going to Ben); Ben holds two unknown cards, the deck one
    places = {deck[0]: frozenset({"Ben"}), deck[1]: frozenset({"Ben", None}), deck[2]: frozenset({"Ben", None})}
    listed = listed_decks(Unseen({"Ben": 2}, 1, deck, places))
    assert listed == [((deck[1],), 0.5), ((deck[2],), 0.5)]
    everywhere = {c: frozenset({"Ben", "Cleo", None}) for c in deck}
    three = listed_decks(Unseen({"Ben": 1, "Cleo": 1}, 1, deck, everywhere))
    assert [d for d, _ in three] == [(c,) for c in deck] and all(p == pytest.approx(1 / 3) for _, p in three)
    assert listed_decks(Unseen({"Ben": 0}, 0, (), {})) is None


def test_the_last_mover_prefers_ending_the_game_exactly_when_it_wins():
    # Ana holds Ma8 and may draw the deck's last card: the exact end is her best pair.
    code = Cards(("Ma", "Oa", "Ca", "Wi", "Dw", "Bs")).code
    a = {ORIGIN_CELL: code(Card("Ma", 2)), ORIGIN_CELL + 1: code(Card("Ma", 5))}
    b = {ORIGIN_CELL: code(Card("Oa", 2)), ORIGIN_CELL + 1: code(Card("Oa", 5))}
    hands = [[code(Card("Ma", 8)), code(Card("Ca", 3))], [code(Card("Oa", 8)), code(Card("Wi", 2))]]
    world = LeanPosition(hands, [code(Card("Dw", 4))], [[code(Card("Bs", 1))], [code(Card("Bs", 3))]], [a, b], 0)
    # Ma2 Ma5 Ma8 in a row: 3 + 2; Ben's Oa2 Oa5 scores 2
    assert ending_turn(world, 6) == [5, 2]
    # the deck and a pile, or both piles (one card each): the piles only keep the game going
    assert draw_pairs(world) == [(FROM_DECK, 0), (FROM_DECK, 1), (0, 1)]


def brute_draws(situation, count: int) -> float:
    """The value of drawing both deck cards, by brute force: every content of the deck, every
    finish, scored by the engine's scoring; the mean margin of the best finishes."""
    other = next(p for p in situation.players if p != situation.mover)
    values = []
    for deck in itertools.combinations(situation.unseen.cards, 2):
        hand = list(situation.hand) + list(deck)
        theirs = tuple(sorted(set(situation.unseen.cards) - set(deck))) + tuple(situation.known.get(other, ()))
        arb = situation.arboretums[situation.mover]
        cells = sorted(
            {Coord(c.x + dx, c.y + dy) for c in arb for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - arb.keys()
        ) or [Coord(0, 0)]
        best = None
        for card in hand:
            for cell in cells:
                for discard in hand:
                    if discard is card:
                        continue
                    kept = tuple(c for c in hand if c is not card and c is not discard)
                    scores = score_totals(
                        situation.species,
                        [
                            PlayerPosition(situation.mover, {**arb, cell: card}, kept),
                            PlayerPosition(other, situation.arboretums[other], theirs),
                        ],
                    )
                    mine = scores[situation.mover] - scores[other]
                    best = mine if best is None else max(best, mine)
        values.append(best)
    return sum(values) / len(values)


@pytest.mark.slow
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 400))
def test_drawing_the_last_two_cards_is_valued_as_a_brute_force_over_every_deal(seed):
    record = simulate_game(PLAYERS[:2], seed)
    tree = arbo.replay(arbo.parse_games(format_game(record))[0])
    nodes = list(tree.mainline())
    node = nodes[-2]
    situation = situation_at(node, record.turns[-1].player)
    assert situation is not None
    assume(situation.unseen.deck_size == 2)
    judged = judge_draws(situation, (FROM_DECK, FROM_DECK), 48, random.Random(0))
    assert not judged.sampled  # the 36 decks listed, Ben's hand the rest
    assert judged.values[(FROM_DECK, FROM_DECK)] == pytest.approx(brute_draws(situation, len(situation.species)))
