"""The bots: legal play at every table size, greedy beats random, and no peeking at hidden cards."""

from __future__ import annotations

import random
import statistics

import pytest

from arbo_notation.engine.actions import Draw, Plant
from arbo_notation.engine.bots import GreedyBot, RandomBot, make_bot, play_bot_turn, seen_by_mover
from arbo_notation.engine.cards import HAND_SIZE, Coord, default_species_for
from arbo_notation.engine.lean import HIDDEN, cell_of
from arbo_notation.engine.scoring import PlayerPosition, score_position
from arbo_notation.engine.state import Game, GameConfig, Setup
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
            assert len(play.actions) == 4 and all(draw.card for draw in play.actions[:2] if isinstance(draw, Draw))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_answer_is_one_of_the_legal_actions(players):
    """Asked phase by phase, as a referee asks, each bot answers one of game.legal_actions() (a
    deck draw naming no card: the bot cannot see it); pushing it plays the game to the end."""
    for index, bot in enumerate([GreedyBot(), RandomBot()]):
        game, rng = new_game(players, f"act:{players}:{index}", house=index == 1), random.Random(index)
        while not game.is_over:
            action = bot.choose(game, rng)
            legal = game.legal_actions()
            if isinstance(action, Draw) and action.owner is None:
                assert action.card is None
                legal = [Draw() if isinstance(a, Draw) and a.owner is None else a for a in legal]
            assert action in legal, (str(action), game.phase)
            game.push(action)
        assert game.deck_size == 0


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
        planted = RandomBot().choose(probe, rng)
        assert isinstance(planted, Plant)
        card, cell = planted.card, planted.coord
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
        for _ in range(4):
            action = bot.choose(full, rng)
            if mover == me:
                assert bot.choose(blind, rng) == action
                decisions += 1
            if isinstance(action, Draw) and action.owner is None:
                card = full.draw_from_deck()
                blind.draw_from_deck(card if mover == me else None)
            else:
                full.push(action)
                blind.push(action)
    assert decisions >= 10
    assert blind.hidden_players()  # the bot really played without seeing the others' hands


def test_a_bot_needs_to_know_its_own_hand():
    config = GameConfig(("Ana", "Ben"), default_species_for(2))
    game = Game(config)  # a spectator's table: no hand is known
    with pytest.raises(ArboError, match="unknown"):
        GreedyBot().choose(game, random.Random(0))


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


def test_the_greedy_bot_reads_only_what_its_player_sees():
    """The lean position it decides on holds the mover's hand, the piles and the trees; every
    other hand and the deck are HIDDEN cards, only their sizes told."""
    game = new_game(3, "seen", house=True)
    rng = random.Random(1)
    for _ in range(4):
        play_bot_turn(GreedyBot(), game, rng)
    position, cards = seen_by_mover(game)
    me = game.players.index(game.current_player)
    assert position.current == me
    assert [cards.card(c) for c in position.hands[me]] == list(game.hand(game.current_player).known)
    for seat, player in enumerate(game.players):
        if seat != me:
            assert position.hands[seat] == [HIDDEN] * len(game.hand(player))
        assert [cards.card(c) for c in position.piles[seat]] == list(game.discard_pile(player))
        assert position.arbs[seat] == {cell_of(k): cards.code(v) for k, v in game.arboretum(player).items()}
    assert position.deck == [HIDDEN] * game.deck_size


def test_greedy_games_are_the_same_from_the_same_seed():
    """The simulated games' moves depend on the seed alone (arbo simulate's promise)."""

    def run(seed: str) -> list:
        return play_out(new_game(4, seed), [GreedyBot()] * 4, random.Random(seed))

    assert run("again") == run("again")
    assert run("again") != run("other")
