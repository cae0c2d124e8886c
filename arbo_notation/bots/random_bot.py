"""The random bot: uniform among the legal choices of a seat's view."""

from __future__ import annotations

import random

from arbo_notation.bots.base import Bot, own_hand
from arbo_notation.engine.actions import Action, Discard, Plant, Skip
from arbo_notation.engine.position import Phase
from arbo_notation.engine.view import SeatView


class RandomBot(Bot):
    """Uniform among the legal choices: every source of a draw, every card and every cell, every card."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        hand = own_hand(view)
        phase = view.phase
        if phase is Phase.DRAW:
            draws = view.legal_actions()  # the deck, then each pile's top in seat order; or a skip
            return draws[0] if isinstance(draws[0], Skip) else rng.choice(draws)
        if phase is Phase.PLANT:
            return Plant(rng.choice(hand), rng.choice(view.plant_cells()))
        return Discard(rng.choice(hand))
