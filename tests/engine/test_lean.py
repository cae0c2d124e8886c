"""The lean position and fast scorer against the engine's Game and scoring they stand for."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.engine.lean import FROM_DECK, Cards, LeanPosition, best_points, cell_of, coord_of, rights, totals
from arbo_notation.analysis.policy import play_policy_turn
from arbo_notation.engine.greedy import play_greedy_turn
from arbo_notation.engine.cards import Card, Coord, default_species_for, full_deck
from arbo_notation.engine.scoring import PlayerPosition, best_points as engine_best_points, rights as engine_rights
from arbo_notation.engine.scoring import score_totals
from arbo_notation.engine.state import Game, GameConfig, Setup


def lean_of(game: Game, cards: Cards) -> LeanPosition:
    players = game.players
    return LeanPosition(
        [[cards.code(c) for c in game.hand(p).known] for p in players],
        [cards.code(c) for c in reversed(game.deck_cards())],
        [[cards.code(c) for c in game.discard_pile(p)] for p in players],
        [{cell_of(k): cards.code(v) for k, v in game.arboretum(p).items()} for p in players],
        players.index(game.current_player),
        game.is_over,
    )


def same(position: LeanPosition, game: Game, cards: Cards) -> None:
    other = lean_of(game, cards)
    assert [sorted(h) for h in position.hands] == [sorted(h) for h in other.hands]
    assert position.deck == other.deck
    assert position.piles == other.piles
    assert position.arbs == other.arbs
    assert position.over == other.over
    if not position.over:
        assert position.current == other.current


def engine_turn(game: Game, cards: Cards, turn) -> None:
    """Play a lean turn (first, second, card, cell, discard) through the engine's single actions."""
    first, second, card, cell, discard = turn
    for source in (first, second):
        if source is None:
            game.skip_draw()
        elif source == FROM_DECK:
            game.draw_from_deck()
        else:
            game.draw_from_discard(game.players[source])
    game.plant(cards.card(card), coord_of(cell))
    game.discard(cards.card(discard))


def random_turn(position: LeanPosition, rng: random.Random):
    probe = position.copy()
    first = rng.choice(probe.sources() or [None])
    probe.draw(first)
    second = rng.choice(probe.sources() or [None])
    probe.draw(second)
    hand = probe.hands[probe.current]
    card = rng.choice(hand)
    cell = rng.choice(probe.frontier(probe.current))
    discard = rng.choice([c for c in hand if c != card])
    return first, second, card, cell, discard


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.sampled_from(["random", "greedy", "policy"]))
def test_lean_turns_play_as_the_engine_plays_them(players, seed, player):
    """Random legal turns (or the greedy bot's, or the rollout policy's) change both positions
    alike, to the scores: the engine, which raises on an illegal action, accepts every one."""
    config = GameConfig(("Ana", "Ben", "Cleo", "Dev")[:players], default_species_for(players))
    game = Game(config, Setup.shuffled(config, seed, house_discards=seed % 2 == 0))
    cards = Cards(config.species)
    position = lean_of(game, cards)
    rng = random.Random(seed)
    while not position.over:
        probe = position.copy()
        if player != "random":
            (play_greedy_turn if player == "greedy" else play_policy_turn)(probe)
            seat = position.current
            before, after = position.arbs[seat], probe.arbs[seat]
            (cell,) = after.keys() - before.keys()
            discard = probe.piles[seat][-1]
            drawn = _drawn(position, probe)
            turn = (*drawn, after[cell], cell, discard)
        else:
            turn = random_turn(position, rng)
        position.play(*turn)
        engine_turn(game, cards, turn)
        same(position, game, cards)
    hands = game.final_hands()
    positions = [PlayerPosition(p, game.arboretum(p), hands[p]) for p in game.players]
    expected = score_totals(config.species, positions)
    assert totals(position, len(config.species)) == [expected[p] for p in game.players]


def _drawn(before: LeanPosition, after: LeanPosition) -> tuple:
    """The sources of a player's two draws, read back from the piles and deck it took from."""
    sources = []
    for owner, pile in enumerate(before.piles):
        taken = len(pile) - len(after.piles[owner]) + (1 if owner == before.current else 0)
        sources += [owner] * taken
    sources += [FROM_DECK] * (len(before.deck) - len(after.deck))
    # the order of two draws from different places does not change the position
    return tuple((sources + [None, None])[:2])


SIX = default_species_for(2)
CARDS = full_deck(SIX)


@st.composite
def arboretums(draw):
    """A connected arboretum of up to 14 distinct cards grown from 0,0."""
    count = draw(st.integers(1, 14))
    chosen = draw(st.permutations(CARDS))[:count]
    cells = [Coord(0, 0)]
    rng = random.Random(draw(st.integers(0, 10**6)))
    while len(cells) < count:
        base = rng.choice(cells)
        dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        cell = Coord(base.x + dx, base.y + dy)
        if cell not in cells:
            cells.append(cell)
    return dict(zip(cells, chosen, strict=True))


@settings(max_examples=150, deadline=None)
@given(arboretums(), st.sets(st.sampled_from(SIX)))
def test_fast_path_points_equal_the_engine(arb, wanted):
    cards = Cards(SIX)
    lean = {cell_of(k): cards.code(v) for k, v in arb.items()}
    flags = [code in wanted for code in SIX]
    assert best_points(lean, flags) == sum(engine_best_points(arb, wanted).values())


@settings(max_examples=150, deadline=None)
@given(st.permutations(CARDS), st.integers(2, 4), st.integers(0, 9))
def test_fast_rights_equal_the_engine(order, seats, size):
    cards = Cards(SIX)
    hands = {f"P{i}": order[i * size : (i + 1) * size] for i in range(seats)}
    lean = rights([[cards.code(c) for c in hand] for hand in hands.values()], len(SIX))
    for s, code in enumerate(SIX):
        holders = engine_rights(code, hands)
        assert [lean[i][s] for i in range(seats)] == [f"P{i}" in holders for i in range(seats)]


def test_hand_worked_score():
    """RULES.md's example: Ma1 Wi3 Oa5 Ma8 in a row scores 4 + 1 + 2 = 7."""
    cards = Cards(("Ma", "Oa", "Wi"))
    row = [Card("Ma", 1), Card("Wi", 3), Card("Oa", 5), Card("Ma", 8)]
    arb = {cell_of(Coord(x, 0)): cards.code(c) for x, c in enumerate(row)}
    assert best_points(arb, [True, True, True]) == 7
    assert best_points(arb, [False, True, True]) == 0
