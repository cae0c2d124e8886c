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
from arbo_notation.analysis.endgame import (
    ENDING_DECK,
    best_final,
    best_reply,
    canonical,
    draw_pairs,
    ending_turn,
    final_finishes,
    play_out,
)
from arbo_notation.analysis.game import situation_at
from arbo_notation.analysis.listed import listed_decks
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.search import Situation, _exact_finishes, judge_draws, judge_finish
from arbo_notation.analysis.game import tasks
from arbo_notation.analysis.turns import _drawn_cards, _played_sources, glyph_for, judge_turn
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.greedy import choose_finish, choose_source, play_greedy_turn
from arbo_notation.engine.lean import FROM_DECK, Cards, LeanPosition, ORIGIN_CELL, cell_of, margin
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


def test_drawing_from_the_piles_to_keep_the_game_going_is_valued_with_the_exact_reply():
    # Ana: Ma1 Ma2 in a row (a path of 2 from a 1: 3 points); Ben: Oa1 Oa2 (3). Ana holds Ca5 Ca6,
    # Ben Wi5 Wi6 (known to her); the deck's last card is Oa7 (the one unseen card); Ana's pile
    # holds Wi2, Ben's Ma7.
    c = Card.parse
    species = ("Ma", "Oa", "Ca", "Wi", "Dw", "Bs")
    situation = Situation(
        players=("Ana", "Ben"),
        species=species,
        mover="Ana",
        hand=(c("Ca5"), c("Ca6")),
        arboretums={
            "Ana": {Coord(0, 0): c("Ma1"), Coord(1, 0): c("Ma2")},
            "Ben": {Coord(0, 0): c("Oa1"), Coord(1, 0): c("Oa2")},
        },
        piles={"Ana": (c("Wi2"),), "Ben": (c("Ma7"),)},
        known={"Ben": (c("Wi5"), c("Wi6"))},
        unseen=Unseen({"Ana": 0, "Ben": 0}, 1, (c("Oa7"),), {c("Oa7"): frozenset({None})}),
    )
    judged = judge_draws(situation, None, 48, random.Random(0))
    assert not judged.sampled
    # the deck and Ben's pile end the game: Ma7 on Ma2 (Ma1 Ma2 Ma7: 4, nobody holds a maple),
    # Oa7 kept takes Ben's right to the oaks: 4 - 0
    # the deck and her own pile: no maple to plant, Oa7 kept: 3 - 0
    # both piles keep the game going (the deck's Oa7 left to Ben): Ana's best is Ma7 on Ma2 (4;
    # keeping Ma7 would score 3 only), then Ben's exact best reply draws Oa7 and plants it on Oa2
    # (4, nobody then holding an oak): 4 - 4
    assert judged.values == {(FROM_DECK, 0): 3.0, (FROM_DECK, 1): 4.0, (0, 1): 0.0}
    assert judged.best() == (FROM_DECK, 1)


def world_before_last(players: int, seed: int) -> tuple[LeanPosition, int]:
    """A simulated world played by the greedy bot to a turn that may leave the next player one
    that can end the game (the deck 3 or 4 cards), at its start."""
    record = simulate_game(PLAYERS[:players], seed)
    situation = situation_at(arbo.replay(arbo.parse_games(format_game(record))[0]).root, record.turns[0].player)
    assert situation is not None
    cards = Cards(situation.species)
    world = situation.world(cards, random.Random(seed))
    while len(world.deck) > 2 * ENDING_DECK:
        play_greedy_turn(world)
    return world, len(cards.species)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 10_000))
def test_the_best_reply_is_the_best_pair_of_draws_and_never_worse_than_greedys_turn(players, seed):
    world, count = world_before_last(players, seed)
    assert ENDING_DECK < len(world.deck) <= 2 * ENDING_DECK
    seat = world.current
    replied = best_reply(world, count)
    # each pair of draws finished by the greedy bot, the rest played out (the next end exact)
    lines = {}
    for pair in draw_pairs(world):
        probe = world.copy()
        probe.draw(pair[0])
        probe.draw(pair[1])
        probe.finish(*choose_finish(probe))
        lines[canonical(pair)] = play_out(probe, count, 0, 0, 0)
    assert margin(replied, seat) == max(margin(scores, seat) for scores in lines.values())
    assert replied in lines.values()
    # the greedy bot's own turn is one of those lines: the reply is never worse for its player
    greedy = world.copy()
    first = choose_source(greedy)
    greedy.draw(first)
    second = choose_source(greedy)
    greedy.draw(second)
    greedy.finish(*choose_finish(greedy))
    greedy_line = play_out(greedy, count, 0, 0, 0)
    assert greedy_line == lines[canonical((first, second))]
    assert margin(replied, seat) >= margin(greedy_line, seat)


def brute_margins(situation, deck: tuple[Card, ...], drawn: tuple[Card, ...]) -> dict[tuple[int, int, int], int]:
    """The margin of every legal finish of the mover's last turn (lean ints), ``drawn`` in hand
    and Ben holding the unseen cards not in ``deck``, by the engine's scoring."""
    code = Cards(situation.species).code
    other = next(p for p in situation.players if p != situation.mover)
    hand = list(situation.hand) + list(drawn)
    theirs = tuple(c for c in situation.unseen.cards if c not in deck) + tuple(situation.known.get(other, ()))
    arb = situation.arboretums[situation.mover]
    cells = sorted(
        {Coord(c.x + dx, c.y + dy) for c in arb for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - arb.keys()
    ) or [Coord(0, 0)]
    found = {}
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
                found[(code(card), cell_of(cell), code(discard))] = scores[situation.mover] - scores[other]
    return found


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_the_loss_of_a_last_turn_equals_a_brute_force_over_every_finish_and_deal(seed):
    # a 2-player game's last turn: each pair of draws ending the game is worth the mean, over every
    # deck in order (Ben holding the rest), of the best finish once the draws are seen; the
    # played draws' finishes are each worth their margin; the loss is what the best of each
    # decision gains over the played one
    record = simulate_game(PLAYERS[:2], seed)
    tree = arbo.replay(arbo.parse_games(format_game(record))[0])
    node = list(tree.mainline())[-1]
    situation = situation_at(node.parent, node.turn.player)
    assert situation is not None
    assume(situation.unseen.deck_size <= 2)
    draws = judge_draws(situation, None, 48, random.Random(0))
    decks = list(itertools.permutations(situation.unseen.cards, situation.unseen.deck_size))
    ending = {}
    for pair in draws.values:
        if sum(s == FROM_DECK for s in pair) < situation.unseen.deck_size:
            continue
        best = []
        for deck in decks:
            piles = {p: list(c) for p, c in situation.piles.items()}
            order = list(deck)
            drawn = tuple(order.pop() if s == FROM_DECK else piles[situation.players[s]].pop() for s in pair)
            best.append(max(brute_margins(situation, deck, drawn).values()))
        ending[pair] = sum(best) / len(best)
        assert draws.values[pair] == pytest.approx(ending[pair])
    assert ending  # the deck can always be emptied
    played = _played_sources(situation, node.turn)
    assume(played in ending)
    drawn = _drawn_cards(situation, node.turn)
    assert drawn is not None
    after = situation.after_draws(drawn)
    finishes = judge_finish(after, None, 48, random.Random(0))
    brute = brute_margins(after, (), ())
    assert finishes.exact and finishes.values == brute
    code = Cards(situation.species).code
    turn = node.turn
    finish = (code(turn.plant.card), cell_of(turn.plant.coord), code(turn.discard))
    engine_loss = max(draws.values[p] for p in ending) - draws.values[played]
    engine_loss += max(finishes.values.values()) - finishes.values[finish]
    brute_loss = max(ending.values()) - ending[played] + max(brute.values()) - brute[finish]
    assert engine_loss == pytest.approx(brute_loss)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 11])
def test_a_listed_last_turn_keeps_its_glyph_whatever_the_seed(seed):
    # at two players the last turn's worlds are listed (the deck's one or two cards in every
    # order, Ben's hand the rest): nothing is sampled, so another seed changes nothing
    record = simulate_game(PLAYERS[:2], seed)
    tree = arbo.replay(arbo.parse_games(format_game(record))[0])
    last = list(tree.mainline())[-1].number
    judged = [judge_turn(task).to_json() for seed_of in (0, 1) for _, task in tasks(tree, turns=[last], seed=seed_of)]
    assert judged[0] == judged[1]
    assert judged[0]["glyph"] == glyph_for(judged[0]["loss"])
