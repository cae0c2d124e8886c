"""The greedy bot: builds paths and guards its rights (engine/greedy.py), on the lean position of a seat's view."""

from __future__ import annotations

import random
from functools import lru_cache

from arbo_notation.bots.base import Bot, own_hand
from arbo_notation.engine import greedy
from arbo_notation.engine.actions import Action, Discard, Draw, DrawAction, Plant, Skip
from arbo_notation.engine.cards import Card
from arbo_notation.engine.lean import FROM_DECK, Cards, LeanPosition, coord_of, seat_position
from arbo_notation.engine.position import Phase
from arbo_notation.engine.view import SeatView


class GreedyBot(Bot):
    """Each decision reads the seat's view as a lean position and asks the greedy bot of the engine
    (``engine/greedy.py``, which the analysis's rollouts play too)."""

    name = "greedy"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        phase = view.phase
        if phase is Phase.DRAW:
            return self.draw(view)
        if phase is Phase.PLANT:
            return self.plant(view)
        return self.discard(view)

    def draw(self, view: SeatView) -> DrawAction:
        """The next draw."""
        source = greedy.choose_source(lean_position(view)[0])
        if source is None:
            return Skip()
        if source == FROM_DECK:
            return Draw()
        owner = view.players[source]
        return Draw(owner, view.discard_pile(owner)[-1])

    def plant(self, view: SeatView) -> Plant:
        """The planting, the draws made."""
        position, cards = lean_position(view)
        card, cell = greedy.choose_planting(position)
        return Plant(cards.card(card), coord_of(cell))

    def discard(self, view: SeatView) -> Discard:
        """The discard, the planting made."""
        position, cards = lean_position(view)
        return Discard(cards.card(greedy.choose_discard(position)))


def lean_position(view: SeatView) -> tuple[LeanPosition, Cards]:
    """The lean position of the seat of ``view`` (the player to move): its hand, the piles and the
    trees, every other hand (the cards shown too: the greedy bot reads no other hand) and the deck
    HIDDEN cards; and the encoding of its cards. The species are coded in the order Cards sort in
    (by name), so that the greedy bot's ties fall as they would on Cards."""
    cards, code = _encoding(view.species)
    # Read by engine/lean.py, which the compiled build compiles: 1.0 -> 0.5 ms a compiled greedy
    # two-player game (bench/README.md, "The compiled build", the second branch).
    return seat_position(view.parts, view.seat, own_hand(view), code, view.deck_size), cards


@lru_cache(maxsize=8)
def _encoding(species: tuple[str, ...]) -> tuple[Cards, dict[Card, int]]:
    """The lean encoding of the cards of ``species`` (coded sorted by name), and every card by its
    code: cards are interned, so reading a code is a plain dict lookup."""
    cards = Cards(tuple(sorted(species)))
    return cards, {cards.card(code): code for code in cards.all_codes()}
