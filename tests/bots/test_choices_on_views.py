"""Every bot chooses on a seat's view: its choice depends on nothing the seat has not seen, and no
door of arbo (simulate, the referee's fallback, the protocol's serving loop) hands it the game."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.bots import GreedyBot, RandomBot, play_turn
from arbo_notation.bots.engine_bot import EngineBot
from arbo_notation.bots.protocol import encode
from arbo_notation.bots.serve import serve
from arbo_notation.engine.actions import Draw
from arbo_notation.engine.cards import card_order, default_species_for
from arbo_notation.engine.position import Position, SeatPosition
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.engine.view import SeatView
from arbo_notation.play import simulate
from arbo_notation.play.referee import referee_game

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def unseen_shuffled(game: Game, seat: str, rng: random.Random) -> Game:
    """The same table with the cards ``seat`` has not seen (the deck, the others' cards not shown)
    dealt again at random among the same places."""
    position = game.position()
    assert position.deck is not None
    unseen = list(position.deck)
    for part in position.seats:
        if part.player != seat:
            unseen += [card for card in part.hand if card not in part.shown]
    rng.shuffle(unseen)
    seats = []
    for part in position.seats:
        if part.player == seat:
            seats.append(part)
            continue
        hidden = [card for card in part.hand if card not in part.shown]
        dealt, unseen = unseen[: len(hidden)], unseen[len(hidden) :]
        hand = tuple(sorted([*(card for card in part.hand if card in part.shown), *dealt], key=card_order))
        seats.append(SeatPosition(part.player, part.trees, part.pile, hand, part.shown, part.hidden))
    other: Position = replace(position, seats=tuple(seats), deck=tuple(unseen))
    return Game.from_position(other)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    turns=st.integers(0, 14),
    draws=st.integers(0, 2),
    bot_name=st.sampled_from(["random", "greedy"]),
)
def test_a_bots_choice_depends_on_the_view_alone(players, seed, turns, draws, bot_name):
    """Two games that differ only in cards the mover has not seen give it equal views, and each
    built-in bot the same choice with the same random numbers."""
    config = GameConfig(NAMES[:players], default_species_for(players))
    game = Game(config, Setup.shuffled(config, seed, house_discards=seed % 3 == 0))
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over:
            return
        play_turn(RandomBot(), game, rng)  # (the random bot takes from the piles: cards shown)
    for _ in range(draws):
        if not game.is_over:
            game.push(game.as_played(Draw()))
    mover = game.current_player
    other = unseen_shuffled(game, mover, random.Random(seed + 1))
    assert other.position() != game.position() or game.deck_size <= 1
    assert other.view(mover) == game.view(mover)
    make = {"random": RandomBot, "greedy": GreedyBot}[bot_name]
    for state in range(3):
        assert make().choose(game.view(mover), random.Random(state)) == make().choose(
            other.view(mover), random.Random(state)
        )


def test_the_engine_bots_choice_depends_on_the_view_alone():
    """As above for the engine bot (a small budget, its searches seeded by the random numbers given)."""
    config = GameConfig(NAMES[:3], default_species_for(3))
    game = Game(config, Setup.shuffled(config, "engine-blind"))
    rng = random.Random(4)
    for _ in range(9):
        play_turn(RandomBot(), game, rng)
    mover = game.current_player
    for draws in range(3):
        other = unseen_shuffled(game, mover, random.Random(draws))
        assert other.view(mover) == game.view(mover) and other.position() != game.position()
        mine, theirs = EngineBot(budget=4), EngineBot(budget=4)
        assert mine.choose(game.view(mover), random.Random(draws)) == theirs.choose(
            other.view(mover), random.Random(draws)
        )
        if draws < 2:
            game.push(game.as_played(mine.choose(game.view(mover), random.Random(draws))))


class Spy(GreedyBot):
    """The greedy bot, counting what it is handed: always a seat's view of the player to move."""

    asked: ClassVar[list[type]] = []

    def choose(self, view, rng):
        Spy.asked.append(type(view))
        assert isinstance(view, SeatView) and not isinstance(view, Game)
        assert view.seat == view.current_player
        return super().choose(view, rng)


def test_simulate_hands_its_bots_views_never_the_game(monkeypatch):
    Spy.asked = []
    monkeypatch.setattr(simulate, "make_bot", lambda name, budget=None: Spy())
    spied = simulate.simulate_game(NAMES[:3], "spy")
    assert Spy.asked and set(Spy.asked) == {SeatView}
    assert len(Spy.asked) == 4 * len(spied.turns)
    monkeypatch.undo()
    assert simulate.simulate_game(NAMES[:3], "spy") == spied  # the greedy bot's very game


def test_the_referees_fallback_is_handed_views():
    Spy.asked = []
    played = referee_game("1", "7:2", [None, None], ["a", "b"], fallback=Spy(), fallback_name="spy", move_time=1)
    assert len(Spy.asked) == 4 * len(played.record.turns) and set(Spy.asked) == {SeatView}


def test_the_serving_loop_hands_its_bot_the_seats_view():
    Spy.asked = []
    game = {
        "type": "game",
        "game": "g1",
        "seat": "Ben",
        "players": ["Ana", "Ben"],
        "species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"],
        "hand": ["Ca1", "Ca2", "Ca3", "Dw1", "Dw2", "Dw3", "Ja1"],
    }
    events = [{"type": "event", "player": "Ana", "action": action} for action in ("d", "d", "Oa1@0,0", "/Oa2")]
    act = {"type": "act", "phase": "draw", "legal": ["d", "Ana:Oa2"], "view": {}}
    answers: list[bytes] = []
    logged: list[str] = []
    serve(Spy, [encode(m) for m in (game, *events, act)], answers.append, name="spy", log=logged.append)
    assert logged == [] and len(answers) == 1 and Spy.asked == [SeatView]
