"""The splits of the unseen cards among the other hands, grouped and counted: a hand-worked case,
and the last turn's values over the groups held equal to a brute force over every deal."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import arbo_notation as arbo
from arbo_notation.analysis.game import situation_at
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.endgame import empties_deck, final_finishes, mean_finals
from arbo_notation.analysis.search import judge_draws, judge_finish
from arbo_notation.analysis.splits import last_turn_outcome, split_groups
from arbo_notation.analysis.turns import _drawn_cards
from arbo_notation.engine.cards import Card
from arbo_notation.engine.lean import Cards, margin, totals
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

PLAYERS = ("Ana", "Ben", "Cleo", "Dev")
MA1, MA8, OA2, OA3, MA5 = Card("Ma", 1), Card("Ma", 8), Card("Oa", 2), Card("Oa", 3), Card("Ma", 5)


def small_unseen() -> Unseen:
    cards = (MA1, MA8, OA2, OA3)
    return Unseen({"Ana": 0, "Ben": 2, "Cleo": 2}, 0, cards, {c: frozenset({"Ben", "Cleo"}) for c in cards})


def test_every_deal_is_its_own_group_when_nothing_is_merged():
    groups = split_groups(small_unseen())
    assert groups is not None
    assert sorted(ways for _, ways in groups) == [1] * 6  # C(4, 2) deals, each hand's holdings differ
    assert sorted(tuple(sorted(map(str, hands["Ben"]))) for hands, _ in groups) == sorted(
        tuple(sorted(map(str, pair))) for pair in itertools.combinations((MA1, MA8, OA2, OA3), 2)
    )


def test_the_count_gives_up_past_the_most_groups_asked():
    assert split_groups(small_unseen(), most=5) is None  # six groups
    groups = split_groups(small_unseen(), most=6)
    assert groups is not None and len(groups) == 6


def test_deals_that_leave_the_same_rights_are_one_group_counted_by_its_deals():
    # Ana ends the game holding Ma5 (kept or not); only Ben has points in Ma, no one in Oa.
    # Ben's two cards: Ma1 Ma8 (Ben 9 beats Ana: one deal); Oa2 Oa3 (Cleo's Ma1 Ma8 make 9: one);
    # Ma1 and an Oa (Cleo's Ma8 counts 0 against Ben's Ma1: Ana's Ma5 wins, else Ben's 1: two);
    # Ma8 and an Oa (Ben's 8 counts 0 against Cleo's Ma1: Ana's Ma5 wins, else Cleo: two).
    # Ana never holds Oa while others do: one outcome there.
    outcome = last_turn_outcome(
        ("Ana", "Ben", "Cleo"),
        "Ana",
        (MA5, Card("Ca", 4), Card("Ca", 6)),
        {},
        ("Ben", "Cleo"),
        lambda player, species: player == "Ben" and species == "Ma",
    )
    groups = split_groups(small_unseen(), {}, outcome)
    assert groups is not None
    assert sorted(ways for _, ways in groups) == [1, 1, 2, 2]
    by_ben = {frozenset(hands["Ben"]): ways for hands, ways in groups}
    assert by_ben[frozenset({MA1, MA8})] == 1
    assert by_ben[frozenset({OA2, OA3})] == 1


def deals(unseen: Unseen) -> list[dict[str, list[Card]]]:
    """Every deal of the unseen cards into the hands, one by one (each card where it may be)."""
    players = [p for p, n in unseen.room.items() if n]
    found = []
    for owners in itertools.product(players, repeat=len(unseen.cards)):
        if any(owners.count(p) != unseen.room[p] for p in players):
            continue
        if any(o not in unseen.places[c] for c, o in zip(unseen.cards, owners, strict=True)):
            continue
        found.append({p: [c for c, o in zip(unseen.cards, owners, strict=True) if o == p] for p in players})
    return found


def _last_turn(players, seed):
    """The last turn of a simulated game and what its mover knew before it."""
    record = simulate_game(PLAYERS[:players], seed)
    tree = arbo.replay(arbo.parse_games(format_game(record))[0])
    node = list(tree.mainline())[-1]
    situation = situation_at(node.parent, node.turn.player)
    assert situation is not None
    return node, situation


def _after_the_last_draws(node, situation):
    """What the mover knew after the last turn's draws; the example is dropped unless they empty the deck."""
    drawn = _drawn_cards(situation, node.turn)
    assume(drawn is not None)
    after = situation.after_draws(drawn)
    assume(after.unseen.deck_size == 0)
    return after


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 4), st.integers(0, 10_000), st.integers(3, 5))
def test_the_last_turns_values_over_the_groups_equal_a_brute_force_over_every_deal(players, seed, hidden):
    node, situation = _last_turn(players, seed)
    after = _after_the_last_draws(node, situation)
    # a small ending: all but ``hidden`` of the unseen cards told to the mover, where they truly are
    truth = {p: list(node.parent.position.hand(p).known) for p in after.players}
    rng = random.Random(seed)
    still = sorted(rng.sample(list(after.unseen.cards), min(hidden, len(after.unseen.cards))))
    holder = {c: p for p, hand in truth.items() for c in hand}
    known = {p: tuple(c for c in truth[p] if c not in still) for p in after.players if p != after.mover}
    room = {p: sum(holder[c] == p for c in still) for p in after.unseen.room}
    places = {c: frozenset(p for p in room if room[p]) for c in still}
    small = dataclasses.replace(after, known=known, unseen=Unseen(room, 0, tuple(still), places))
    judged = judge_finish(small, None, 48, random.Random(0))
    assert judged.exact
    worlds = deals(small.unseen)
    cards = Cards(small.species)
    brute: dict[tuple[int, int, int], float] = {}
    for dealt in worlds:
        world = dataclasses.replace(
            small,
            known={p: (*known[p], *dealt.get(p, ())) for p in known},
            unseen=Unseen(room, 0, (), {}),
        ).world(cards, None)
        for finish in judged.values:  # every legal finish, up to search.ALL_FINISHES_CAP
            probe = world.copy()
            probe.finish(*finish)
            value = margin(totals(probe, len(small.species)), world.current)
            brute[finish] = brute.get(finish, 0.0) + value / len(worlds)
    assert brute
    for finish, value in brute.items():
        assert judged.values[finish] == pytest.approx(value)


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 4), st.integers(0, 10_000), st.integers(2, 4))
def test_a_pair_of_draws_ending_the_game_is_worth_the_best_finish_on_average_over_every_deal(players, seed, hidden):
    # the mover sees the deck's cards drawn, not the other hands: each content of the deck is worth
    # its finish best on average over the deals of the rest, every world (deck in order, deal)
    # counting alike
    node, situation = _last_turn(players, seed)
    size = situation.unseen.deck_size
    assume(1 <= size <= 2)
    truth = {p: list(node.parent.position.hand(p).known) for p in situation.players}
    holder = {c: p for p, hand in truth.items() for c in hand}
    in_deck = [c for c in situation.unseen.cards if c not in holder]
    assert len(in_deck) == size
    rng = random.Random(seed)
    in_hands = [c for c in situation.unseen.cards if c in holder]
    still = sorted(in_deck + rng.sample(in_hands, min(hidden, len(in_hands))))
    known = {p: tuple(c for c in truth[p] if c not in still) for p in situation.players if p != situation.mover}
    room = {p: sum(holder.get(c) == p for c in still) for p in situation.unseen.room}
    places = {c: frozenset({None, *(p for p in room if room[p])}) for c in still}
    small = dataclasses.replace(situation, known=known, unseen=Unseen(room, size, tuple(still), places))
    judged = judge_draws(small, None, 48, random.Random(0))
    cards = Cards(small.species)
    count = len(small.species)
    worlds = []
    for deck in itertools.permutations(still, size):
        rest = Unseen(room, 0, tuple(c for c in still if c not in deck), {c: places[c] - {None} for c in still})
        for dealt in deals(rest):
            world = dataclasses.replace(
                small, known={p: (*known[p], *dealt.get(p, ())) for p in known}, unseen=Unseen(room, 0, (), {})
            ).world(cards, None)
            world.deck = [cards.code(c) for c in deck]
            worlds.append(world)
    checked = 0
    for pair in judged.values:
        if not empties_deck(worlds[0], pair):
            continue
        by_deck: dict[frozenset[int], dict[tuple[int, int, int], list[int]]] = {}
        for world in worlds:
            probe = world.copy()
            probe.draw(pair[0])
            probe.draw(pair[1])
            table = by_deck.setdefault(frozenset(world.deck), {})
            for finish, scores in final_finishes(probe, count).items():
                table.setdefault(finish, []).append(margin(scores, probe.current))
        value = sum(
            len(next(iter(t.values()))) / len(worlds) * max(sum(m) / len(m) for m in t.values())
            for t in by_deck.values()
        )
        assert judged.values[pair] == pytest.approx(value)
        checked += 1
    assert checked  # the deck can always be emptied


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 4), st.integers(0, 10_000), st.lists(st.floats(0.01, 5.0), min_size=1, max_size=6))
def test_the_mean_finals_are_the_weighted_means_of_each_worlds_finishes(players, seed, weights):
    node, situation = _last_turn(players, seed)
    after = _after_the_last_draws(node, situation)
    cards = Cards(after.species)
    rng = random.Random(seed)
    worlds = [after.world(cards, rng) for _ in weights]
    count = len(after.species)
    tables = [final_finishes(world, count) for world in worlds]
    means = mean_finals(worlds, weights, count)
    assert list(means) == list(tables[0])  # every finish, in final_finishes' order
    for finish, value in means.items():
        expected = sum(w * margin(t[finish], worlds[0].current) for w, t in zip(weights, tables, strict=True))
        assert value == pytest.approx(expected / sum(weights))
