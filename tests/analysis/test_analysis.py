"""The analysis engine: worlds drawn from the mover's knowledge, exact values against a brute force,
hand-made blunders, no peeking at what the mover could not know, the same seed the same output."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import arbo_notation as arbo
from arbo_notation.analysis import glyph_for
from arbo_notation.analysis.game import analyse, situation_at
from arbo_notation.engine.lean import Cards, cell_of, margin
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.search import Situation, judge_finish
from arbo_notation.analysis.turns import TurnTask, judge_turn
from arbo_notation.engine.actions import Draw, Plant
from arbo_notation.engine.cards import Card, Coord, default_species_for, full_deck
from arbo_notation.engine.scoring import PlayerPosition, score_totals
from arbo_notation.errors import ArboError
from arbo_notation.notation.model import Header, Turn
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

SIX = default_species_for(2)


def C(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(word) for word in text.split())


def trees(text: str) -> dict[Coord, Card]:
    """``"Ma2@0,0 Ma3@1,0"`` as an arboretum."""
    found = {}
    for word in text.split():
        card, cell = word.split("@")
        x, y = cell.split(",")
        found[Coord(int(x), int(y))] = C(card)
    return found


def last_turn(ana_trees: str, ben_trees: str, hand: str, deck: str, ben_hand: str) -> tuple[Situation, dict]:
    """Ana to play the last turn of a two-player game (the deck's cards are drawn by her); every
    card not placed lies on Ben's discard pile. Returns her situation and the hidden truth."""
    arbs = {"Ana": trees(ana_trees), "Ben": trees(ben_trees)}
    placed = (
        set(arbs["Ana"].values())
        | set(arbs["Ben"].values())
        | set(cards(hand))
        | set(cards(deck))
        | set(cards(ben_hand))
    )
    pile = tuple(c for c in full_deck(SIX) if c not in placed)
    unseen = tuple(sorted(set(cards(deck)) | set(cards(ben_hand))))
    everywhere = frozenset({"Ben", None})
    situation = Situation(
        players=("Ana", "Ben"),
        species=SIX,
        mover="Ana",
        hand=tuple(sorted(cards(hand))),
        arboretums=arbs,
        piles={"Ana": (), "Ben": pile},
        known={"Ben": ()},
        unseen=Unseen({"Ana": 0, "Ben": 7}, len(cards(deck)), unseen, {c: everywhere for c in unseen}),
    )
    return situation, {"Ben": cards(ben_hand), "deck": cards(deck)}


def turn(draws: str, plant: str, discard: str) -> Turn:
    found = []
    for word in draws.split():
        found.append(Draw(None, C(word.split(":")[1])))
    card, cell = plant.split("@")
    x, y = cell.split(",")
    return Turn("Ana", tuple(found), Plant(C(card), Coord(int(x), int(y))), C(discard))


def brute_force(situation: Situation, drawn: tuple[Card, ...], ben_hand: tuple[Card, ...]) -> dict:
    """Every finish of Ana's last turn and its margin, by the engine's own scoring."""
    hand = list(situation.hand) + list(drawn)
    arb = situation.arboretums["Ana"]
    cells = sorted(
        {Coord(c.x + dx, c.y + dy) for c in arb for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - arb.keys()
    )
    found = {}
    for card in hand:
        for cell in cells:
            for discard in hand:
                if discard is card:
                    continue
                kept = tuple(c for c in hand if c is not card and c is not discard)
                table = [
                    PlayerPosition("Ana", {**arb, cell: card}, kept),
                    PlayerPosition("Ben", situation.arboretums["Ben"], ben_hand),
                ]
                scores = score_totals(SIX, table)
                found[(card, cell, discard)] = scores["Ana"] - scores["Ben"]
    return found


RIGHT_TO_MAPLE = dict(
    ana_trees="Bs2@0,0 Bs5@1,0",
    ben_trees="Ma2@0,0 Ma3@1,0 Ma4@2,0 Ma5@3,0 Ma6@4,0",
    hand="Ma7 Ca2 Ca3 Cb2 Cb3 Dw2 Dw3",
    deck="Ja2 Ja3",
    ben_hand="Ma1 Ja4 Ja5 Ja6 Dw4 Dw5 Dw6",
)
BROKEN_PATH = dict(
    ana_trees="Ca2@0,0 Ca3@1,0 Ca4@2,0 Dw6@2,1 Dw7@2,-1",
    ben_trees="Ma2@0,0 Ma3@1,0",
    hand="Ca8 Ca7 Dw1 Cb2 Cb3 Bs2 Bs3",
    deck="Ja2 Ja3",
    ben_hand="Ma1 Ja4 Ja5 Ja6 Dw4 Dw5 Ma8",
)


@pytest.mark.parametrize("position", [RIGHT_TO_MAPLE, BROKEN_PATH])
def test_exact_values_equal_a_brute_force(position):
    situation, truth = last_turn(**position)
    drawn = truth["deck"]
    after = situation.after_draws([(None, c) for c in drawn])
    judged = judge_finish(after, None, 8, random.Random(0))
    assert judged.exact and judged.samples == 1
    code = Cards(SIX)
    expected = {
        (code.code(c), cell_of(k), code.code(d)): float(v)
        for (c, k, d), v in brute_force(situation, drawn, truth["Ben"]).items()
    }
    assert dict(judged.values) == expected


def test_a_discard_that_hands_over_a_right_at_the_last_turn_is_a_blunder():
    situation, _ = last_turn(**RIGHT_TO_MAPLE)
    played = turn("d:Ja2 d:Ja3", "Ca2@0,1", "Ma7")
    judged = judge_turn(TurnTask(1, 17, situation, played, 8, "0"))
    assert judged.glyph == "??"
    # Keeping Ma7 keeps the maple right from Ben's Ma1: his 10-point row scores nothing.
    assert judged.loss == pytest.approx(10.0)
    assert judged.best.startswith("d:Ja2 d:Ja3 ")
    assert not judged.best.endswith("/Ma7")
    assert judged.played == "d:Ja2 d:Ja3 Ca2@0,1 /Ma7"


def test_a_planting_that_breaks_a_path_is_a_blunder():
    situation, truth = last_turn(**BROKEN_PATH)
    code = Cards(SIX)
    after = situation.after_draws([(None, c) for c in truth["deck"]])
    played = (code.code(Card.parse("Dw1")), cell_of(Coord(3, 0)), code.code(Card.parse("Bs2")))
    finishes = judge_finish(after, played, 8, random.Random(0))
    best = finishes.best()
    # Ca2 Ca3 Ca4 Ca8 scores 4 + 4 + 2 = 10 where Ca2 Ca3 Ca4 scores 3; 3,0 is the path's one way on.
    assert finishes.exact
    assert finishes.values[best] - finishes.values[played] == pytest.approx(7.0)
    assert best[:2] == (code.code(Card.parse("Ca8")), cell_of(Coord(3, 0)))
    judged = judge_turn(TurnTask(1, 17, situation, turn("d:Ja2 d:Ja3", "Dw1@3,0", "Bs2"), 8, "0"))
    assert judged.glyph == "??"
    # The turn's loss is the planting's 7 points and what its draws lost: taking Ma7 and Ma6
    # from Ben's pile (his maple right, Ma1 Ma8, then loses to Ana's 13) beat the deck's two.
    assert judged.best.startswith("Ben:Ma7 Ben:Ma6 ")
    assert judged.loss > 7.0


def test_glyph_thresholds():
    assert [glyph_for(x) for x in (0, 1.49, 1.5, 2.99, 3.0, 5.99, 6.0, 12)] == [
        None,
        None,
        "?!",
        "?!",
        "?",
        "?",
        "??",
        "??",
    ]


def test_unrestricted_deals_are_consistent_and_uniform():
    deck = cards("Ca1 Ca2 Ca3 Ca4")
    unseen = Unseen({"Ana": 0, "Ben": 1, "Cleo": 2}, 1, deck, {c: frozenset({"Ben", "Cleo", None}) for c in deck})
    rng = random.Random(1)
    seen = Counter()
    for _ in range(4000):
        hands, rest = unseen.deal(rng)
        assert [len(hands["Ana"]), len(hands["Ben"]), len(hands["Cleo"]), len(rest)] == [0, 1, 2, 1]
        assert sorted(hands["Ben"] + hands["Cleo"] + rest) == list(deck)
        seen[hands["Ben"][0]] += 1
    assert all(900 < seen[c] < 1100 for c in deck)


def test_restricted_deals_keep_every_card_where_it_may_be():
    deck = cards("Ca1 Ca2 Ca3 Ca4")
    places = {
        C("Ca1"): frozenset({"Ben"}),
        C("Ca2"): frozenset({"Cleo", None}),
        C("Ca3"): frozenset({"Ben", "Cleo", None}),
        C("Ca4"): frozenset({"Ben", "Cleo", None}),
    }
    unseen = Unseen({"Ben": 2, "Cleo": 1}, 1, deck, places)
    rng = random.Random(2)
    for _ in range(300):
        hands, rest = unseen.deal(rng)
        where = {c: p for p, held in hands.items() for c in held} | {c: None for c in rest}
        assert all(where[c] in places[c] for c in deck)
        assert len(hands["Ben"]) == 2 and len(hands["Cleo"]) == 1 and len(rest) == 1
    impossible = Unseen({"Ben": 2}, 0, deck[:2], {c: frozenset({None}) for c in deck[:2]})
    with pytest.raises(ArboError):
        impossible.deal(rng)


def tree_of(record):
    return arbo.replay(arbo.parse_games(format_game(record))[0])


def relabelled(record, mover: str, number: int, seed: int):
    """The same game with the cards ``mover`` cannot see before turn ``number`` exchanged among
    themselves (another hand's, the undrawn deck's), consistently with everything they saw."""
    tree = tree_of(record)
    node = next(n for n in tree.mainline() if n.number == number - 1)
    situation = situation_at(node, mover)
    turn_k = record.turns[number - 1]
    drawn_now = {d.card for d in turn_k.draws if isinstance(d, Draw) and d.owner is None}
    movable = [c for c in situation.unseen.cards if c not in drawn_now]
    shuffled = movable[:]
    random.Random(seed).shuffle(shuffled)
    swap = dict(zip(movable, shuffled, strict=True))

    def fix(card):
        return swap.get(card, card)

    header = record.header
    new_header = Header(
        players=header.players,
        species=header.species,
        deck=tuple(fix(c) for c in header.deck),
        hands={p: tuple(sorted(fix(c) for c in h)) for p, h in header.hands.items()},
    )
    turns = []
    for t in record.turns[:number]:
        if t.player == mover:
            turns.append(t)
            continue
        draws = tuple(Draw(None, fix(d.card)) if isinstance(d, Draw) and d.owner is None else d for d in t.draws)
        turns.append(Turn(t.player, draws, t.plant, t.discard, t.number))
    return type(record)(header=new_header, turns=tuple(turns))


@pytest.mark.slow
@pytest.mark.parametrize("players,seed,number", [(2, 11, 6), (3, 5, 9), (4, 2, 13)])
def test_the_analysis_never_peeks(players, seed, number):
    record = simulate_game(("Ana", "Ben", "Cleo", "Dev")[:players], seed)
    mover = record.turns[number - 1].player
    truncated = type(record)(header=record.header, turns=record.turns[:number])
    first = analyse(tree_of(truncated), budget=3, seed=4, turns=[number])
    assert len(first) == 1
    for shuffle in (1, 2):
        other = relabelled(record, mover, number, shuffle)
        assert other.header.hands != record.header.hands or other.header.deck != record.header.deck
        again = analyse(tree_of(other), budget=3, seed=4, turns=[number])
        assert list(again.values()) == list(first.values())


@pytest.mark.slow
def test_same_seed_same_output_and_another_seed_another():
    record = simulate_game(("Ana", "Ben"), 9)
    tree = tree_of(record)
    one = list(analyse(tree, budget=3, seed=1, turns=[3, 4, 5]).values())
    two = list(analyse(tree_of(record), budget=3, seed=1, turns=[3, 4, 5]).values())
    assert one == two and len(one) == 3
    other = list(analyse(tree, budget=3, seed=2, turns=[3, 4, 5]).values())
    assert [e.played_value for e in other] != [e.played_value for e in one]


@pytest.mark.slow
def test_an_omniscient_game_has_every_turn_judged_and_the_last_exactly_when_one_world_is_left():
    record = simulate_game(("Ana", "Ben"), 4)
    judged = analyse(tree_of(record), budget=2, seed=0)
    assert [e.turn for e in judged.values()] == list(range(1, len(record.turns) + 1))
    assert all(e.loss >= 0 and e.best_value == pytest.approx(e.played_value + e.loss) for e in judged.values())
    assert margin([5, 3], 0) == 2 and margin([5, 3, 7], 0) == -2
