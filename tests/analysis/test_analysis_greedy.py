"""The lean greedy policy (the rollouts' fast path) against the engine's GreedyBot, its reference."""

from __future__ import annotations

import pytest

from arbo_notation.analysis import greedy
from arbo_notation.analysis.lean import FROM_DECK, Cards, LeanTable, cell_of, species_points
from arbo_notation.engine.bots import GreedyBot, TableView
from arbo_notation.engine.cards import Card, Coord, default_species_for
from arbo_notation.engine.scoring import best_paths
from arbo_notation.engine.state import DrawSourceKind, Game, GameConfig, Setup


def table_of(view: TableView, cards: Cards, deck_size: int) -> LeanTable:
    """The lean table as the seat sees it: the other hands empty, the deck of the right size."""
    seat = view.players.index(view.player)
    hands: list[list[int]] = [[] for _ in view.players]
    hands[seat] = [cards.code(c) for c in view.hand]
    return LeanTable(
        hands, [0] * deck_size, [[cards.code(c) for c in view.discards[p]] for p in view.players],
        [{cell_of(k): cards.code(v) for k, v in view.arboretums[p].items()} for p in view.players], seat,
    )


def _code(players: tuple[str, ...], source) -> int | None:
    if source is None:
        return None
    return FROM_DECK if source.kind is DrawSourceKind.DECK else players.index(str(source.owner))


def _game(players: int, seed: int) -> tuple[Game, Cards]:
    # Species in alphabetical order: then the lean cards sort as the engine's Cards do, and the
    # two break ties between equal choices alike.
    config = GameConfig(tuple("ABCD"[:players]), tuple(sorted(default_species_for(players))))
    return Game(config, Setup.shuffled(config, f"lean-greedy:{seed}")), Cards(config.species)


@pytest.mark.parametrize("players,seed", [(n, s) for n in (2, 3, 4) for s in range(4)])
def test_every_decision_is_the_greedy_bots(players, seed):
    game, cards = _game(players, seed)
    bot = GreedyBot()
    decisions = 0
    while not game.is_over:
        for _ in range(2):
            view = TableView.of(game)
            wanted = bot.draw_for(view)
            assert greedy.choose_source(table_of(view, cards, game.deck_size)) == _code(game.players, wanted)
            if wanted is None:
                game.skip_draw()
            elif wanted.kind is DrawSourceKind.DECK:
                game.draw_from_deck()
            else:
                game.draw_from_discard(str(wanted.owner))
        view = TableView.of(game)
        table = table_of(view, cards, game.deck_size)
        card, coord = bot.plant_for(view)
        assert greedy.choose_planting(table) == (cards.code(card), cell_of(coord))
        game.plant(card, coord)
        discard = bot.discard_for(TableView.of(game))
        assert greedy.choose_discard(table, cards.code(card), cell_of(coord)) == cards.code(discard)
        game.discard(discard)
        decisions += 4
    assert decisions >= 4 * 12


def test_path_tables_score_as_the_engine():
    species = ("Ca", "Ma")
    cards = Cards(species)
    arb = {Coord(0, 0): Card("Ca", 1), Coord(1, 0): Card("Ma", 3), Coord(2, 0): Card("Ca", 7),
           Coord(2, 1): Card("Ca", 8), Coord(0, 1): Card("Ma", 2)}
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


def test_shared_tables_are_not_changed_by_the_table_they_came_from():
    arb = {cell_of(Coord(0, 0)): 1}
    first = greedy.Paths.of(arb, 0.5)
    arb[cell_of(Coord(1, 0))] = 5
    assert greedy.Paths.of({cell_of(Coord(0, 0)): 1}, 0.5) is first
    assert cell_of(Coord(1, 0)) not in first.arb


def test_rollout_turns_play_to_the_end_the_same_each_time():
    game, cards = _game(3, 9)
    setup_table = LeanTable(
        [[cards.code(c) for c in game.hand(p).known] for p in game.players],
        [cards.code(c) for c in reversed(game.deck_cards())],
        [[cards.code(c) for c in game.discard_pile(p)] for p in game.players],
        [{} for _ in game.players], 0,
    )
    ends = []
    for _ in range(2):
        table = setup_table.copy()
        while not table.over:
            greedy.play_greedy_turn(table)
        assert not table.deck and all(len(hand) == 7 for hand in table.hands)
        ends.append((table.arbs, table.hands, table.piles))
    assert ends[0] == ends[1]
