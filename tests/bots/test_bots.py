"""The built-in bots: legal play at every table size, greedy beats random, and no peeking at hidden cards."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.bots import BOT_NAMES, GreedyBot, RandomBot, make_bot, play_turn
from arbo_notation.bots.engine_bot import EngineBot
from arbo_notation.bots.greedy_bot import lean_position
from arbo_notation.engine.actions import Draw, Plant
from arbo_notation.engine.cards import HAND_SIZE, Coord, default_species_for
from arbo_notation.engine.lean import HIDDEN, Cards, cell_of
from arbo_notation.engine.scoring import PlayerPosition, score_position
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.engine.view import view_of
from arbo_notation.errors import ArboError

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def new_game(players: int, seed: str, house: bool = False) -> Game:
    config = GameConfig(NAMES[:players], default_species_for(players))
    return Game(config, Setup.shuffled(config, seed, house_discards=house))


def play_out(game: Game, seats: list, rng: random.Random) -> list:
    plays = []
    while not game.is_over:
        plays.append(play_turn(seats[game.players.index(game.current_player)], game, rng))
        assert len(game.hand(plays[-1].player)) == HAND_SIZE
    return plays


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_legal_games_to_the_end(players):
    # Every action is pushed, and Game.push raises RuleError on an illegal one.
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
    """Asked phase by phase on the mover's view, as a referee asks, each bot answers one of the
    view's legal actions (a deck draw naming no card: the seat cannot see it); pushing it plays
    the game to the end."""
    for index, bot in enumerate([GreedyBot(), RandomBot()]):
        game, rng = new_game(players, f"act:{players}:{index}", house=index == 1), random.Random(index)
        while not game.is_over:
            view = game.view()
            action = bot.choose(view, rng)
            assert action in view.legal_actions(), (str(action), game.phase)
            game.push(action)
        assert game.deck_size == 0


def test_random_bot_is_uniform_among_legal_choices():
    game = new_game(2, "uniform")
    seen_cells: set[Coord] = set()
    rng = random.Random(3)
    for _ in range(6):
        play_turn(RandomBot(), game, rng)
    player = game.current_player
    for _ in range(200):
        probe = game.copy()
        probe.push(Draw())
        probe.push(Draw())
        planted = RandomBot().choose(probe.view(), rng)
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
def test_greedy_decides_the_same_on_the_omniscient_table_and_on_the_players_own(players):
    """Greedy's choices on the seat's view of the omniscient table equal its choices on the seat's
    view of the table its player keeps (dealt its hand alone, every other card hidden)."""
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
            action = bot.choose(full.view(), rng)
            if mover == me:
                assert blind.view(me) == full.view(me)
                assert bot.choose(blind.view(me), rng) == action
                decisions += 1
            played = full.as_played(action)
            full.push(played)
            blind.push(played if mover == me else action)  # another's deck draw stays hidden
    assert decisions >= 10
    assert blind.hidden_players()  # the bot really played without seeing the others' hands


def test_a_bot_needs_to_know_its_own_hand_and_to_be_the_mover():
    config = GameConfig(("Ana", "Ben"), default_species_for(2))
    game = Game(config)  # a spectator's table: no hand is known
    with pytest.raises(ArboError, match="unknown"):
        GreedyBot().choose(game.view(), random.Random(0))
    dealt = new_game(2, "mover")
    for bot in (GreedyBot(), RandomBot(), EngineBot(budget=2)):
        with pytest.raises(ArboError, match="a bot chooses for the player to move \\(Ana\\), not on Ben's view"):
            bot.choose(dealt.view("Ben"), random.Random(0))
        with pytest.raises(ArboError, match="not on a spectator's view"):
            bot.choose(dealt.public_view(), random.Random(0))


def test_bots_are_deterministic_given_the_rng():
    def run() -> list:
        game = new_game(3, "same")
        return play_out(game, [GreedyBot(), RandomBot(), GreedyBot()], random.Random("same"))

    assert run() == run()


def test_make_bot():
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("random"), RandomBot)
    engine = make_bot("engine", 7)
    assert isinstance(engine, EngineBot) and engine.budget == 7
    assert make_bot("engine").budget == make_bot("engine", 0).budget == 48  # the analysis's default
    assert BOT_NAMES == ("engine", "greedy", "random")
    with pytest.raises(ArboError, match="no bot is called 'clever' \\(known: engine, greedy, random\\)"):
        make_bot("clever")


def test_the_greedy_bot_reads_only_what_its_player_sees():
    """The lean position it decides on holds the mover's hand, the piles and the trees; every
    other hand (the cards it saw taken from a pile too) and the deck are HIDDEN cards, only their
    sizes told."""
    game = new_game(3, "seen", house=True)
    rng = random.Random(1)
    view = game.view()
    while not any(view.shown(p) for p in game.players if p != game.current_player):  # a card seen taken
        play_turn(RandomBot(), game, rng)  # (the random bot takes from the piles more often)
        view = game.view()
    position, cards = lean_position(view)
    me = game.players.index(game.current_player)
    assert position.current == me
    assert [cards.card(c) for c in position.hands[me]] == list(game.hand(game.current_player).known)
    for seat, player in enumerate(game.players):
        if seat != me:
            assert position.hands[seat] == [HIDDEN] * len(game.hand(player))
        assert [cards.card(c) for c in position.piles[seat]] == list(game.discard_pile(player))
        assert position.arbs[seat] == {cell_of(k): cards.code(v) for k, v in game.arboretum(player).items()}
    assert position.deck == [HIDDEN] * game.deck_size


def _read_afresh(view):
    """lean_position's reading through the view's copying accessors, nothing kept: the reference."""
    hand = view.hand(view.seat).known
    cards = Cards(tuple(sorted(view.species)))
    hands, piles, arbs = [], [], []
    for player in view.players:
        hands.append([cards.code(c) for c in hand] if player == view.seat else [HIDDEN] * len(view.hand(player)))
        piles.append([cards.code(c) for c in view.discard_pile(player)])
        arbs.append(list({cell_of(k): cards.code(v) for k, v in view.arboretum(player).items()}.items()))
    return hands, [HIDDEN] * view.deck_size, piles, arbs, view.players.index(view.seat), cards


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10_000))
def test_the_greedy_bot_reads_each_view_as_afresh(players, seed):
    """The trees encoded once while a game's views share them (and views made from a position,
    which share nothing): at every decision, the lean position is what a fresh read gives, the
    order of the trees included (the bot's ties may follow it)."""
    game = new_game(players, f"afresh:{seed}")
    bot, rng = GreedyBot(), random.Random(seed)
    while not game.is_over:
        for view in (game.view(), view_of(game.position(), game.current_player)):
            position, cards = lean_position(view)
            read = position.hands, position.deck, position.piles, [list(a.items()) for a in position.arbs]
            assert (*read, position.current, cards) == _read_afresh(view)
        game.push(game.as_played(bot.choose(game.view(), rng)))


def test_greedy_games_are_the_same_from_the_same_seed():
    """The simulated games' moves depend on the seed alone (arbo simulate's promise)."""

    def run(seed: str) -> list:
        return play_out(new_game(4, seed), [GreedyBot()] * 4, random.Random(seed))

    assert run("again") == run("again")
    assert run("again") != run("other")
