"""The greedy bot on the lean position: its path tables price plantings exactly, and it plays
legal, reproducible turns (tests/engine/test_bots.py plays it on the Game)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.engine import greedy
from arbo_notation.engine.position import frontier
from arbo_notation.engine.cards import Card, Coord, default_species_for, full_deck
from arbo_notation.engine.lean import ORIGIN_CELL, Cards, LeanPosition, cell_of, species_points
from arbo_notation.engine.scoring import best_paths
from arbo_notation.engine.state import Game, GameConfig, Setup


def _game(players: int, seed: int) -> tuple[Game, Cards]:
    config = GameConfig(tuple("ABCD"[:players]), default_species_for(players))
    return Game(config, Setup.shuffled(config, f"lean-greedy:{seed}")), Cards(config.species)


def test_path_tables_score_as_the_engine():
    species = ("Ca", "Ma")
    cards = Cards(species)
    arb = {
        Coord(0, 0): Card("Ca", 1),
        Coord(1, 0): Card("Ma", 3),
        Coord(2, 0): Card("Ca", 7),
        Coord(2, 1): Card("Ca", 8),
        Coord(0, 1): Card("Ma", 2),
    }
    lean = {cell_of(k): cards.code(v) for k, v in arb.items()}
    paths = greedy.Paths(lean, 0.0)
    engine = {cards.species.index(code): path.points for code, path in best_paths(arb, species).items()}
    assert paths.best == species_points(lean) == engine
    # Ca1 Ma3 Ca7 Ca8: 4 trees, +1 for the 1, +2 for the 8 = 7. Ma2 Ma3 does not touch: no path.
    assert paths.best == {0: 7}


def test_a_planting_that_completes_a_path_is_priced_by_its_points():
    cards = Cards(("Ca", "Ma"))
    lean = {cell_of(Coord(0, 0)): cards.code(Card("Ca", 2)), cell_of(Coord(1, 0)): cards.code(Card("Ma", 4))}
    paths = greedy.Paths(lean, 0.0)  # no potential: only made paths count
    gains = paths.gains(cards.code(Card("Ca", 6)), cell_of(Coord(2, 0)))
    assert gains == {0: 3.0}  # Ca2 Ma4 Ca6: three trees, no bonus
    assert paths.gains(cards.code(Card("Ca", 3)), cell_of(Coord(2, 0))) == {}  # below Ma4: no path


def _random_arboretum(rng: random.Random, species: tuple[str, ...], most: int) -> tuple[dict[Coord, Card], list[Card]]:
    deck = full_deck(species)
    rng.shuffle(deck)
    arb: dict[Coord, Card] = {}
    for card in deck[: rng.randint(0, most)]:
        arb[rng.choice(frontier(arb))] = card
    return arb, deck[len(arb) :]


def test_path_tables_price_a_new_tree_exactly():
    """The O(neighbours) what-if, with no potential, equals the engine's exhaustive best paths."""
    species = ("Ma", "Oa", "Wi")
    cards = Cards(species)
    for seed in range(400):
        rng = random.Random(seed)
        arb, rest = _random_arboretum(rng, species, 14)
        new, cell = rest[0], rng.choice(frontier(arb))
        paths = greedy.Paths({cell_of(k): cards.code(v) for k, v in arb.items()}, 0.0)
        gains = paths.gains(cards.code(new), cell_of(cell))
        after = best_paths({**arb, cell: new}, species)
        for s, code in enumerate(species):
            expected = (after[code].points if code in after else 0) - paths.best.get(s, 0)
            assert gains.get(s, 0) == expected, (seed, code)


def test_shared_path_tables_answer_as_fresh_ones():
    """Tables are made once per arboretum and potential and their what-ifs remembered (a rollout
    asks them again in every world): what they answer is what new tables compute."""
    species = ("Ma", "Oa", "Wi")
    cards = Cards(species)
    greedy._recent_tables.clear()
    greedy._older_tables.clear()
    for seed in range(200):
        rng = random.Random(seed)
        arb, rest = _random_arboretum(rng, species, 12)
        lean = {cell_of(k): cards.code(v) for k, v in arb.items()}
        for potential in (0.0, 0.55):
            shared, fresh = greedy.Paths.of(dict(lean), potential), greedy.Paths(dict(lean), potential)
            assert greedy.Paths.of(dict(lean), potential) is shared
            assert (shared.best, shared.open, shared.cells) == (
                fresh.best,
                fresh.open,
                [cell_of(c) for c in frontier(arb)],
            )
            for card in rest[:4]:
                for cell in shared.cells:
                    asked = shared.gains(cards.code(card), cell)
                    assert asked == shared.gains(cards.code(card), cell) == fresh._gains(cards.code(card), cell)
    assert len(greedy._recent_tables) <= greedy._TABLES_KEPT and len(greedy._older_tables) <= greedy._TABLES_KEPT


def test_tables_are_kept_two_generations_and_met_again_in_either():
    """A table asked again while it is recent or older is the same one (and the arboretum's order
    does not matter); one left unasked through two generations of others is made afresh."""
    greedy._recent_tables.clear()
    greedy._older_tables.clear()
    kept = greedy._TABLES_KEPT

    def others(start: int, count: int) -> None:
        for n in range(start, start + count):
            greedy.Paths.of({ORIGIN_CELL: n % 64, ORIGIN_CELL + 1 + n: 9}, 0.0)

    arb = {ORIGIN_CELL: 3, ORIGIN_CELL + 1: 12, ORIGIN_CELL + 256: 20}
    first = greedy.Paths.of(arb, 0.0)
    assert greedy.Paths.of(dict(reversed(arb.items())), 0.0) is first
    assert greedy.Paths.of(arb, 0.55) is not first  # another potential, another table
    others(0, kept)  # first is in the older generation now
    assert first not in greedy._recent_tables.values()
    assert greedy.Paths.of(arb, 0.0) is first  # and recent again
    others(kept, 2 * kept)
    again = greedy.Paths.of(arb, 0.0)
    assert again is not first and (again.best, again.open, again.cells) == (first.best, first.open, first.cells)
    assert len(greedy._recent_tables) <= kept and len(greedy._older_tables) <= kept


def test_shared_tables_are_not_changed_by_the_arboretum_they_came_from():
    arb = {cell_of(Coord(0, 0)): 1}
    first = greedy.Paths.of(arb, 0.5)
    arb[cell_of(Coord(1, 0))] = 5
    assert greedy.Paths.of({cell_of(Coord(0, 0)): 1}, 0.5) is first
    assert cell_of(Coord(1, 0)) not in first.arb


def test_the_discard_is_the_same_before_and_after_the_planting_is_made():
    """choose_finish prices the discard as if planted; choose_discard on the position once it is."""
    game, cards = _game(3, 4)
    position = _dealt(game, cards)
    for _ in range(12):
        position.draw(greedy.choose_source(position))
        position.draw(greedy.choose_source(position))
        card, cell, discard = greedy.choose_finish(position)
        planted = position.copy()
        planted.hands[planted.current].remove(card)
        planted.arbs[planted.current][cell] = card
        assert greedy.choose_discard(planted) == discard
        position.finish(card, cell, discard)


def _dealt(game: Game, cards: Cards) -> LeanPosition:
    return LeanPosition(
        [[cards.code(c) for c in game.hand(p).known] for p in game.players],
        [cards.code(c) for c in reversed(game.deck_cards())],
        [[cards.code(c) for c in game.discard_pile(p)] for p in game.players],
        [{} for _ in game.players],
        0,
    )


def test_rollout_turns_play_to_the_end_the_same_each_time():
    game, cards = _game(3, 9)
    dealt = _dealt(game, cards)
    ends = []
    for _ in range(2):
        position = dealt.copy()
        while not position.over:
            greedy.play_greedy_turn(position)
        assert not position.deck and all(len(hand) == 7 for hand in position.hands)
        ends.append((position.arbs, position.hands, position.piles))
    assert ends[0] == ends[1]


@st.composite
def _arboretums(draw: st.DrawFn) -> tuple[dict[Coord, Card], Card]:
    """An arboretum grown tree by tree on its frontier, and a card still to plant."""
    species = ("Ma", "Oa", "Wi")
    deck = draw(st.permutations(full_deck(species)))
    arb: dict[Coord, Card] = {}
    for card in deck[: draw(st.integers(0, 16))]:
        arb[draw(st.sampled_from(frontier(arb)))] = card
    return arb, deck[len(arb)]


@settings(max_examples=150, deadline=None)
@given(_arboretums(), st.sampled_from([0.0, 0.3, 0.55]))
def test_priced_once_per_place_is_priced_as_at_each_cell(grown, potential):
    """Each frontier cell is priced at its place (the first cell with the same neighbouring trees
    in the same order): what the plain what-if at the cell itself gives, and with no potential,
    exactly the engine's best paths after the planting less before (engine/scoring.py)."""
    arb, card = grown
    species = ("Ma", "Oa", "Wi")
    cards = Cards(species)
    paths = greedy.Paths({cell_of(k): cards.code(v) for k, v in arb.items()}, potential)
    assert paths.places == sorted(set(paths.place.values())) and set(paths.place) == set(paths.cells)
    before = best_paths(arb, species)
    # the places' gains in one call, as the searches ask them, are the plain what-ifs at each place
    assert paths.row(cards.code(card)) == [paths._gains(cards.code(card), place) for place in paths.places]
    for coord in frontier(arb):
        cell = cell_of(coord)
        gains = paths.gains(cards.code(card), cell)
        assert gains == paths._gains(cards.code(card), cell)
        if potential == 0.0:
            after = best_paths({**arb, coord: card}, species)
            for s, code in enumerate(species):
                points = (after[code].points if code in after else 0) - (before[code].points if code in before else 0)
                assert gains.get(s, 0) == points


@settings(max_examples=300, deadline=None)
@given(_arboretums())
def test_best_paths_read_from_the_tables_are_the_searched_ones(grown):
    """Paths.best, read from the rising tables, is the search of every path (lean.species_points)."""
    arb, _ = grown
    cards = Cards(("Ma", "Oa", "Wi"))
    lean = {cell_of(k): cards.code(v) for k, v in arb.items()}
    assert greedy.Paths(lean, 0.3).best == species_points(lean)


@settings(max_examples=150, deadline=None)
@given(_arboretums(), st.sampled_from([0.0, 0.3, 0.55]))
def test_a_ceiling_is_never_below_a_gain_at_any_place(grown, potential):
    """Paths.ceilings and own_ceiling bound every place's gains from above, species by species
    (the planting's search skips a card on them)."""
    arb, card = grown
    cards = Cards(("Ma", "Oa", "Wi"))
    paths = greedy.Paths({cell_of(k): cards.code(v) for k, v in arb.items()}, potential)
    code = cards.code(card)
    others, own = paths.ceilings(code & 7), paths.own_ceiling(code)
    for gains in paths.row(code):
        for species, gain in gains.items():
            assert gain <= (own if species == code >> 3 else others.get(species, 0.0))


def _plain_planting(position: LeanPosition) -> tuple[int, int]:
    """choose_planting without its ceilings: every card at every place, the first best."""
    reading = greedy.Reading(position, position.current)
    best: tuple[float, int, int] | None = None
    for card in sorted(position.hands[position.current]):
        for cell in reading.paths.places:
            gain = reading.plant_gain(card, cell, True)
            if best is None or gain > best[0]:
                best = (gain, card, cell)
    assert best is not None
    return best[1], best[2]


def _plain_discard(position: LeanPosition) -> int:
    """choose_discard without skipping: each card's whole price, the least."""
    seat = position.current
    reading = greedy.Reading(position, seat)
    theirs = greedy.Paths.of(position.arbs[(seat + 1) % position.seats], reading.potential)
    rival_best: dict[int, int] = {}
    for other in range(position.seats):
        if other != seat:
            for code, points in greedy.Paths.of(position.arbs[other], reading.potential).best.items():
                rival_best[code] = max(rival_best.get(code, 0), points)
    protected, free = [], []
    for card in sorted(position.hands[seat]):
        code = card >> 3
        contested = reading.paths.value(code) > 0 or rival_best.get(code, 0) > 0 or 0.2 < reading.weight(code)
        (protected if card & 7 == 0 or (card & 7 >= 5 and contested) else free).append(card)
    choices = []
    for card in free or protected:
        code = card >> 3
        loss = (reading.weight(code) - reading.weight_without(card)) * (
            reading.paths.value(code) + 0.5 * rival_best.get(code, 0)
        )
        later = greedy.LATER * max(0.0, reading.best_plant_gain(card))
        gift = max([sum(gains.values()) for gains in theirs.row(card)], default=0.0)
        choices.append((loss + later + greedy.SPITE * gift, card))
    return min(choices)[1]


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 30))
def test_the_searches_that_skip_choose_as_the_plain_ones(players, seed, turns):
    """The planting's ceilings and the discard's early stops change no choice (ties included):
    at every turn of a greedy game, from a random deal, as far as ``turns``."""
    game, cards = _game(players, seed)
    position = _dealt(game, cards)
    for _ in range(turns):
        if position.over:
            break
        position.draw(greedy.choose_source(position))
        position.draw(greedy.choose_source(position))
        card, cell = greedy.choose_planting(position)
        assert (card, cell) == _plain_planting(position)
        position.hands[position.current].remove(card)
        position.arbs[position.current][cell] = card
        discard = greedy.choose_discard(position)
        assert discard == _plain_discard(position)
        position.hands[position.current].append(card)
        del position.arbs[position.current][cell]
        position.finish(card, cell, discard)
