"""A bot: asked for one action at a time on a seat's view; and a whole turn of a bot played on a game.

A bot sees what its seat sees (:class:`~arbo_notation.engine.view.SeatView`): its own hand, the
cards it saw the others take from the piles, every pile and tree, the deck's size; never the
deck's order nor a card of another hand it has not seen. Given the same view and the same
``random.Random`` state, a built-in bot makes the same choice.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from arbo_notation.engine.actions import Action, Discard, Draw, Plant, Skip, TurnActions
from arbo_notation.engine.cards import Card
from arbo_notation.engine.state import Game
from arbo_notation.engine.view import SeatView
from arbo_notation.errors import ArboError


class Bot(ABC):
    """A computer player: asked for the mover's next action, the way a chess engine is asked for
    a move, whatever the phase of the turn (draw, draw, plant, discard)."""

    name: ClassVar[str]

    @abstractmethod
    def choose(self, view: SeatView, rng: random.Random) -> Action:
        """The next action of the seat of ``view`` (its player is to move), one of
        ``view.legal_actions()``: a draw (``Draw()`` from the deck, whose card the seat cannot
        see; ``Draw(owner, top)`` from a pile; ``Skip()`` when nothing can be drawn), a planting
        or a discard, as the phase asks."""


def own_hand(view: SeatView) -> tuple[Card, ...]:
    """The hand of the seat of ``view``, which is to move, sorted; ArboError when the view is not
    the mover's or the hand is not known whole (a bot cannot choose there)."""
    mover = view.current_player
    if view.seat != mover:
        raise ArboError(f"a bot chooses for the player to move ({mover}), not on {view.seat or 'a spectator'}'s view")
    held = view.hand(mover)
    if held.hidden:
        raise ArboError(f"a bot cannot play for {mover}: {held.hidden} card(s) of the hand are unknown")
    return held.known


def play_turn(bot: Bot, game: Game, rng: random.Random) -> TurnActions:
    """Let ``bot`` play the current player's whole turn on ``game``, an action at a time, each chosen
    on the mover's view and pushed; returned as played, numbered as the game numbers it, each draw
    naming the card drawn where ``game`` knows it (an omniscient game always does)."""
    if game.is_over:
        raise ArboError("no turn to play: the game is over")
    if game.draws_taken:
        raise ArboError(f"a bot plays whole turns; {game.current_player}'s turn is already under way")
    player, number = game.current_player, game.turn_number
    played: list[Action] = []
    for _ in range(4):  # two draws, the planting, the discard: push holds the turn to that order
        action = game.as_played(bot.choose(game.view(player), rng))
        game.push(action)
        played.append(action)
    first, second, plant, discard = played
    assert isinstance(first, (Draw, Skip)) and isinstance(second, (Draw, Skip))  # (pushed in turn)
    assert isinstance(plant, Plant) and isinstance(discard, Discard)
    return TurnActions(player, (first, second, plant, discard), number)
