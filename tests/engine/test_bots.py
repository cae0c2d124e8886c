"""The bots: legal play at every table size, greedy beats random, and no peeking at hidden cards."""

from __future__ import annotations

import random
import statistics

import pytest

from arbo_notation.engine.bots import (
    GreedyBot,
    RandomBot,
    _Paths,
    frontier,
    make_bot,
    play_bot_turn,
)
from arbo_notation.engine.cards import HAND_SIZE, Card, Coord, default_species_for, full_deck
from arbo_notation.engine.scoring import PlayerPosition, best_paths, score_position
from arbo_notation.engine.state import DrawSourceKind, Game, GameConfig, Setup
from arbo_notation.errors import ArboError

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def new_game(players: int, seed: str, house: bool = False) -> Game:
    config = GameConfig(NAMES[:players], default_species_for(players))
    return Game(config, Setup.shuffled(config, seed, house_discards=house))


def play_out(game: Game, seats: list, rng: random.Random) -> list:
    plays = []
    while not game.is_over:
        plays.append(play_bot_turn(seats[game.players.index(game.current_player)], game, rng))
        assert len(game.hand(plays[-1].player)) == HAND_SIZE
    return plays


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_legal_games_to_the_end(players):
    # Every action goes through the Game API, which raises RuleError on an illegal move.
    for index in range(6):
        seed = f"legal:{players}:{index}"
        rng = random.Random(seed)
        seats = [rng.choice([GreedyBot(), RandomBot()]) for _ in range(players)]
        game = new_game(players, seed, house=index % 3 == 2)
        deck = game.deck_size
        plays = play_out(game, seats, rng)
        assert game.is_over and game.deck_size == 0
        # every card in play is somewhere: hands, arboretums, discard piles
        located = [c for p in game.players for c in game.hand(p).known]
        located += [c for p in game.players for c in game.arboretum(p).values()]
        located += [c for p in game.players for c in game.discard_pile(p)]
        assert sorted(located) == sorted(game.config.cards)
        assert len(plays) >= deck // 2
        for play in plays:
            assert len(play.draws) == 2


def test_random_bot_is_uniform_among_legal_choices():
    game = new_game(2, "uniform")
    seen_cells: set[Coord] = set()
    rng = random.Random(3)
    for _ in range(6):
        play_bot_turn(RandomBot(), game, rng)
    player = game.current_player
    for _ in range(200):
        probe = game.copy()
        probe.draw_from_deck()
        probe.draw_from_deck()
        card, cell = RandomBot().choose_plant(probe, rng)
        assert card in probe.hand(player).known and cell in probe.plant_cells()
        seen_cells.add(cell)
    assert seen_cells == set(game.plant_cells())


@pytest.mark.slow
def test_greedy_beats_random_in_two_player_games():
    margins = []
    for index in range(30):
        game = new_game(2, f"duel:{index}")
        greedy_seat = index % 2
        seats = [RandomBot(), RandomBot()]
        seats[greedy_seat] = GreedyBot()
        play_out(game, seats, random.Random(index))
        hands = game.final_hands()
        sheet = score_position(
            game.config.species, [PlayerPosition(p, game.arboretum(p), hands[p]) for p in game.players]
        )
        totals = [sheet.player(p).total for p in game.players]
        margins.append(totals[greedy_seat] - totals[1 - greedy_seat])
    assert statistics.mean(margins) >= 10
    assert sum(m > 0 for m in margins) >= 27


def perspective_of(game: Game, player: str, setup: Setup) -> Game:
    """The same table as ``player`` knows it: their dealt hand, the face-up discards, nothing else."""
    return Game(game.config, Setup(deck=None, hands={player: setup.hands[player]}, discards=setup.discards))


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_decides_the_same_without_the_hidden_cards(players):
    """Greedy's choices on the omniscient table equal its choices on the table its player knows."""
    config = GameConfig(NAMES[:players], default_species_for(players))
    setup = Setup.shuffled(config, f"blind:{players}", house_discards=True)
    full = Game(config, setup)
    me = config.players[1]
    blind = perspective_of(full, me, setup)
    bot, rng = GreedyBot(), random.Random(0)
    decisions = 0
    while not full.is_over:
        mover = full.current_player
        for _ in range(2):
            source = bot.choose_draw(full, rng)
            if mover == me:
                assert bot.choose_draw(blind, rng) == source
                decisions += 1
            if source is None:
                full.skip_draw()
                blind.skip_draw()
            elif source.kind is DrawSourceKind.DECK:
                card = full.draw_from_deck()
                blind.draw_from_deck(card if mover == me else None)
            else:
                full.draw_from_discard(source.owner)
                blind.draw_from_discard(source.owner)
        card, cell = bot.choose_plant(full, rng)
        if mover == me:
            assert bot.choose_plant(blind, rng) == (card, cell)
        full.plant(card, cell)
        blind.plant(card, cell)
        discard = bot.choose_discard(full, rng)
        if mover == me:
            assert bot.choose_discard(blind, rng) == discard
        full.discard(discard)
        blind.discard(discard)
    assert decisions >= 10
    assert blind.hidden_players()  # the bot really played without seeing the others' hands


def test_a_bot_needs_to_know_its_own_hand():
    config = GameConfig(("Ana", "Ben"), default_species_for(2))
    game = Game(config)  # a spectator's table: no hand is known
    with pytest.raises(ArboError, match="unknown"):
        GreedyBot().choose_draw(game, random.Random(0))


def test_bots_are_deterministic_given_the_rng():
    def run() -> list:
        game = new_game(3, "same")
        return play_out(game, [GreedyBot(), RandomBot(), GreedyBot()], random.Random("same"))

    assert run() == run()


def test_make_bot():
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("random"), RandomBot)
    with pytest.raises(ArboError, match="no bot"):
        make_bot("clever")


def test_path_tables_price_a_new_tree_exactly():
    """The greedy bot's O(neighbours) what-if equals the engine's exhaustive best paths."""
    species = ("Ma", "Oa", "Wi")
    for seed in range(400):
        rng = random.Random(seed)
        cards = full_deck(species)
        rng.shuffle(cards)
        count = rng.randint(0, 14)
        arb: dict[Coord, Card] = {}
        for card in cards[:count]:
            arb[rng.choice(frontier(arb))] = card
        new, cell = cards[count], rng.choice(frontier(arb))
        tables = _Paths(arb, species)
        gains = tables.gains(new, cell, 0.0)
        after = best_paths({**arb, cell: new}, species)
        for code in species:
            expected = (after[code].points if code in after else 0) - tables.best.get(code, 0)
            assert gains.get(code, 0) == expected, (seed, code)


def test_shared_path_tables_answer_as_fresh_ones():
    """The greedy bot's tables are made once per arboretum and its what-ifs remembered (a
    rollout asks them again in every world): what they answer is what new tables compute."""
    species = ("Ma", "Oa", "Wi")
    _Paths._made.clear()
    for seed in range(200):
        rng = random.Random(seed)
        cards = full_deck(species)
        rng.shuffle(cards)
        arb: dict[Coord, Card] = {}
        for card in cards[: rng.randint(0, 12)]:
            arb[rng.choice(frontier(arb))] = card
        shared, fresh = _Paths.of(dict(arb), species), _Paths(arb, species)
        assert _Paths.of(dict(arb), species) is shared
        assert (shared.best, shared.open, shared.cells) == (fresh.best, fresh.open, frontier(arb))
        for card in cards[len(arb):len(arb) + 4]:
            for cell in shared.cells:
                for potential in (0.0, 0.55):
                    asked = shared.gains(card, cell, potential)
                    assert asked == shared.gains(card, cell, potential) == fresh._gains(card, cell, potential)
    assert len(_Paths._made) <= _Paths._MADE_LIMIT
