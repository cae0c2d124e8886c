"""A seat's view as a flat vector of numbers in [0, 1]: the observation both doors hand a learner.

The pieces, in order (P players in seat order, C cards as ``ActionIds`` numbers them, S species,
a grid of G = 2R + 1 cells a side around (0,0), R the window's radius):

- ``seat`` (P): the seat looking, one-hot (all 0 for a spectator);
- ``to_move`` (P): the player to move, one-hot (all 0 once the game is over);
- ``due`` (4): what is due, one-hot: the first draw, the second, the planting, the discard;
- ``hand`` (P, C): the cards the seat knows in each hand (its own whole, the others' shown);
- ``hidden`` (P): how many cards of each hand the seat does not know, over 9;
- ``piles`` (P, C): each discard pile, a card's place from the bottom (1, 2, ...) over C, so the
  top card is the pile's largest number;
- ``deck`` (1): the deck's size over C;
- ``trees`` (P, G, G, S + 1): each arboretum, the cell (x, y) at [x + R, y + R]: its tree's
  species one-hot, then its value over 8.

Pure Python: ``fill`` writes into any zeroed buffer that takes item assignment (a NumPy array).
"""

from __future__ import annotations

import math
from typing import Protocol

from arbo_notation.doors.actions import ActionIds
from arbo_notation.engine.cards import HAND_SIZE, MAX_VALUE
from arbo_notation.engine.position import Phase
from arbo_notation.engine.view import SeatView
from arbo_notation.errors import ArboError

#: What is due, as the ``due`` piece numbers it: (phase, draws taken) to its place.
_DUE = {(Phase.DRAW, 0): 0, (Phase.DRAW, 1): 1, (Phase.PLANT, 2): 2, (Phase.DISCARD, 2): 3}
#: The most cards a hand holds: 7, and the two drawn before the planting.
_MOST_HELD = HAND_SIZE + 2


class Buffer(Protocol):
    """Where a vector is written: a NumPy array, a list."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


class ViewTensor:
    """The layout of one table's observation vector (see the module's docstring)."""

    __slots__ = ("ids", "pieces", "size", "_offset", "_species_index", "_side")

    def __init__(self, ids: ActionIds) -> None:
        self.ids = ids
        players, cards, species = len(ids.players), len(ids.cards), len(ids.species)
        self._side = 2 * ids.radius + 1
        self.pieces: tuple[tuple[str, tuple[int, ...]], ...] = (
            ("seat", (players,)),
            ("to_move", (players,)),
            ("due", (4,)),
            ("hand", (players, cards)),
            ("hidden", (players,)),
            ("piles", (players, cards)),
            ("deck", (1,)),
            ("trees", (players, self._side, self._side, species + 1)),
        )
        self._offset: dict[str, int] = {}
        at = 0
        for name, shape in self.pieces:
            self._offset[name] = at
            at += math.prod(shape)
        self.size = at
        self._species_index = {code: index for index, code in enumerate(ids.species)}

    def span(self, name: str) -> tuple[int, int]:
        """Where a piece lies in the vector: its first place and the place after its last."""
        shape = dict(self.pieces)[name]
        return self._offset[name], self._offset[name] + math.prod(shape)

    def fill(self, view: SeatView, out: Buffer) -> None:
        """Write ``view`` into ``out[:size]``, which must hold zeros."""
        ids, offset = self.ids, self._offset
        start = 0
        cards = len(ids.cards)
        seat_of = {player: index for index, player in enumerate(ids.players)}
        position = view.position
        if view.seat is not None:
            out[start + offset["seat"] + seat_of[view.seat]] = 1.0
        if position.phase is not Phase.OVER:
            out[start + offset["to_move"] + seat_of[position.to_move]] = 1.0
            out[start + offset["due"] + _DUE[(position.phase, position.draws_taken)]] = 1.0
        species = len(ids.species)
        cell_size = species + 1
        side = self._side
        radius = ids.radius
        for seat, part in enumerate(position.seats):
            hand = start + offset["hand"] + seat * cards
            for card in part.hand:
                out[hand + ids.card_id(card)] = 1.0
            out[start + offset["hidden"] + seat] = part.hidden / _MOST_HELD
            pile = start + offset["piles"] + seat * cards
            for place, card in enumerate(part.pile, 1):
                out[pile + ids.card_id(card)] = place / cards
            trees = start + offset["trees"] + seat * side * side * cell_size
            for cell, card in part.trees:
                if abs(cell.x) > radius or abs(cell.y) > radius:
                    raise ArboError(f"{part.player}'s tree at ({cell}) is outside the grid of {side} cells a side")
                at = trees + ((cell.x + radius) * side + cell.y + radius) * cell_size
                out[at + self._species_index[card.species]] = 1.0
                out[at + species] = card.value / MAX_VALUE
        out[start + offset["deck"]] = position.deck_size / cards
