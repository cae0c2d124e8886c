"""The engine bot's time limit per move (``move_time``): each action comes in time and is legal,
and a limit the search never meets changes no choice."""

from __future__ import annotations

import random
import time

import pytest

from arbo_notation.bots import GreedyBot, make_bot, play_turn
from arbo_notation.bots.engine_bot import EngineBot
from arbo_notation.engine.cards import default_species_for
from arbo_notation.engine.state import Game, GameConfig, Setup

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def game_near_the_end(players: int, seed: int, deck: int) -> Game:
    """A game played by greedy bots until the deck holds at most ``deck`` cards."""
    config = GameConfig(NAMES[:players], default_species_for(players))
    game = Game(config, Setup.shuffled(config, f"move-time:{players}:{seed}"))
    greedy, rng = GreedyBot(), random.Random(seed)
    while game.deck_size > deck:
        play_turn(greedy, game, rng)
    return game


def timed_turn(bot: EngineBot, game: Game, rng: random.Random) -> float:
    """Play the current player's whole turn by ``bot``, each action checked legal; the longest
    action's seconds."""
    longest = 0.0
    for _ in range(4):
        view = game.view(game.current_player)
        # process time: the search's own work. The wall clock also counts other processes' turns on a
        # shared machine, which can stretch a step past its forecast (docs/ANALYSIS.md, "The budget").
        start = time.process_time()
        action = bot.choose(view, rng)
        longest = max(longest, time.process_time() - start)
        played = game.as_played(action)
        assert played in game.legal_actions() or action in game.legal_actions(), action
        game.push(played)
    return longest


@pytest.mark.slow
@pytest.mark.parametrize("players, deck", [(2, 6), (4, 9), (4, 4)])
def test_a_tiny_move_time_is_kept_and_the_answer_is_legal(players, deck):
    """Near the end (a rollout there costs most: every pair of draws, the exact last turn), at a
    budget that would take seconds a decision, a limit of a second is kept by every action
    (the search stops at 0.8 s; docs/ANALYSIS.md says what a heavily loaded machine does to it)."""
    game = game_near_the_end(players, 1, deck)
    bot = EngineBot(budget=400, move_time=1.0)
    rng = random.Random(0)
    for _ in range(players):  # a round: each seat's turn
        assert timed_turn(bot, game, rng) < 1.0


@pytest.mark.slow
@pytest.mark.parametrize("players, deck", [(2, 4), (3, 5)])
def test_a_move_time_never_met_changes_no_choice(players, deck):
    """With a limit far beyond what a decision takes, every action is the unlimited bot's."""
    unlimited, limited = game_near_the_end(players, 2, deck), game_near_the_end(players, 2, deck)
    rngs = random.Random(5), random.Random(5)
    bots = EngineBot(budget=4), EngineBot(budget=4, move_time=600.0)
    while not unlimited.is_over:
        for _ in range(4):
            chosen = [
                bot.choose(g.view(g.current_player), r)
                for bot, g, r in zip(bots, (unlimited, limited), rngs, strict=True)
            ]
            assert chosen[0] == chosen[1]
            unlimited.push(unlimited.as_played(chosen[0]))
            limited.push(limited.as_played(chosen[1]))


def test_make_bot_passes_the_move_time_to_the_engine():
    bot = make_bot("engine", 8, 2.5)
    assert isinstance(bot, EngineBot) and bot.budget == 8 and bot.move_time == 2.5
    assert make_bot("engine").move_time is None  # type: ignore[attr-defined]
