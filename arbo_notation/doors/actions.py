"""The doors' action ids: every action of a table as one stable integer, and the integer back as the action.

Both doors (the OpenSpiel game and the PettingZoo environment) and a bot's adapter to ``arbo
match`` number actions this one way. For a table of P players and C cards (8 a species), in this
order:

- ``0``: a draw from the deck; ``1 + i``: a draw from the discard pile of the i-th player in seat
  order; ``P + 1``: a draw skipped (nothing left to draw);
- ``P + 2 + k * W + w``: the k-th card planted on the w-th cell of the window;
- ``P + 2 + C * W + k``: the k-th card discarded.

A card's index k is its place among the cards in play, species in play order then value (on two
players' species, Bs1 is 0, Bs2 1, ..., Ca1 8): the same index is a chance outcome of the
OpenSpiel game, the card dealt or drawn. The window is every cell at most R steps from (0,0) (|x| + |y| <= R), W cells of it,
numbered by x then y. R is the most trees a player can plant, less one (a seat's k-th tree stands
at most k - 1 steps from (0,0)), and a game has at most C - 7P - 1 turns (``most_turns``), so R is
16, 13 and 12 for 2, 3 and 4 players on their usual species (545, 365 and 313 cells): no legal
planting falls outside the window.
"""

from __future__ import annotations

from arbo_notation.engine.actions import Action, Discard, Draw, Plant, Skip
from arbo_notation.engine.cards import HAND_SIZE, Card, Coord, default_species_for, full_deck
from arbo_notation.engine.position import Phase
from arbo_notation.engine.state import Game, GameConfig
from arbo_notation.engine.view import SeatView
from arbo_notation.errors import ArboError


def door_config(players: int) -> GameConfig:
    """The table of a door's game: ``players`` seats named player_0, player_1, ... (PettingZoo's
    way), on the usual species for that many (6, 8 or 10)."""
    return GameConfig(tuple(f"player_{seat}" for seat in range(players)), default_species_for(players))


def most_turns(players: int, cards: int) -> int:
    """The most turns a game of ``players`` on ``cards`` cards can have: each turn draws two cards,
    from the deck (``cards`` less the seven dealt to each) or from a discard pile, where at most
    one card a turn before it was discarded; and no draw is ever skipped (a turn starts only while
    the deck holds a card, and after the first every pile but one may be empty, never all)."""
    return cards - HAND_SIZE * players - 1


class ActionIds:
    """The action ids of one table's players and species (see the module's docstring)."""

    __slots__ = (
        "players",
        "species",
        "cards",
        "radius",
        "cells",
        "skip",
        "first_planting",
        "first_discard",
        "size",
        "_card_index",
        "_cell_index",
        "_seat_index",
    )

    def __init__(self, players: tuple[str, ...], species: tuple[str, ...]) -> None:
        self.players = players
        self.species = species
        self.cards: tuple[Card, ...] = tuple(full_deck(species))
        turns = most_turns(len(players), len(self.cards))
        self.radius = max(0, -(-turns // len(players)) - 1)  # the first seat's trees, less one
        r = self.radius
        self.cells: tuple[Coord, ...] = tuple(
            Coord(x, y) for x in range(-r, r + 1) for y in range(abs(x) - r, r - abs(x) + 1)
        )
        #: The ids where each kind of action starts (see the module's docstring), and how many there are.
        self.skip = len(players) + 1
        self.first_planting = self.skip + 1
        self.first_discard = self.first_planting + len(self.cards) * len(self.cells)
        self.size = self.first_discard + len(self.cards)
        self._card_index = {card: index for index, card in enumerate(self.cards)}
        self._cell_index = {cell: index for index, cell in enumerate(self.cells)}
        self._seat_index = {player: index for index, player in enumerate(players)}

    @classmethod
    def of(cls, config: GameConfig) -> "ActionIds":
        return cls(config.players, config.species)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ActionIds):
            return NotImplemented
        return (self.players, self.species) == (other.players, other.species)

    def __hash__(self) -> int:
        return hash((self.players, self.species))

    def __repr__(self) -> str:
        return f"ActionIds({self.players!r}, {self.species!r})"

    # Never changed once made: a copy is the same ids, and pickling keeps the players and species.
    def __deepcopy__(self, memo: dict[int, object]) -> "ActionIds":
        return self

    def __reduce__(self) -> tuple[type["ActionIds"], tuple[tuple[str, ...], tuple[str, ...]]]:
        return (ActionIds, (self.players, self.species))

    # -- cards and cells -----------------------------------------------------------------------

    def card_id(self, card: Card) -> int:
        """The card's index (a chance outcome of the OpenSpiel game); ArboError for a card not in play."""
        index = self._card_index.get(card)
        if index is None:
            raise ArboError(f"{card} is not a card of this game (species: {' '.join(self.species)})")
        return index

    def card(self, card_id: int) -> Card:
        """The card of an index; ArboError out of range."""
        if not 0 <= card_id < len(self.cards):
            raise ArboError(f"{card_id} is no card's index (0 to {len(self.cards) - 1})")
        return self.cards[card_id]

    def cell_id(self, cell: Coord) -> int:
        """The cell's index in the window; ArboError for a cell outside it."""
        index = self._cell_index.get(cell)
        if index is None:
            raise ArboError(f"({cell}) is outside the window of cells at most {self.radius} steps from (0,0)")
        return index

    # -- actions and ids ---------------------------------------------------------------------

    def action_id(self, action: Action) -> int:
        """The id of an action (a draw's card, when named, does not enter it); ArboError for a
        pile of no player, a card not in play or a cell outside the window."""
        if isinstance(action, Draw):
            if action.owner is None:
                return 0
            seat = self._seat_index.get(action.owner)
            if seat is None:
                raise ArboError(f"{action.owner} is not a player of this game ({', '.join(self.players)})")
            return 1 + seat
        if isinstance(action, Skip):
            return self.skip
        if isinstance(action, Plant):
            return self.first_planting + self.card_id(action.card) * len(self.cells) + self.cell_id(action.coord)
        if isinstance(action, Discard):
            return self.first_discard + self.card_id(action.card)
        raise ArboError(f"{action!r} is no action: a Draw, Skip, Plant or Discard")

    def action(self, action_id: int, table: Game | SeatView) -> Action:
        """The action of an id on ``table`` (a game or a seat's view), as its ``legal_actions()``
        names it: a draw from a pile names the pile's top card, a draw from the deck no card.
        ArboError for an id out of range, or a draw from an empty pile."""
        if not 0 <= action_id < self.size:
            raise ArboError(f"{action_id} is no action id (0 to {self.size - 1})")
        if action_id == 0:
            return Draw()
        if action_id < self.skip:
            owner = self.players[action_id - 1]
            pile = table.discard_pile(owner)
            if not pile:
                raise ArboError(f"{owner}'s discard pile is empty: there is no card to draw from it")
            return Draw(owner, pile[-1])
        return self.action_of(action_id)

    def action_of(self, action_id: int) -> Action:
        """The action of an id without a table: a draw from a pile names its owner alone (the
        notation's ``Ben``), which ``Game.push`` plays as the pile's top card."""
        if not 0 <= action_id < self.size:
            raise ArboError(f"{action_id} is no action id (0 to {self.size - 1})")
        if action_id == 0:
            return Draw()
        if action_id < self.skip:
            return Draw(self.players[action_id - 1])
        if action_id == self.skip:
            return Skip()
        if action_id < self.first_discard:
            card, cell = divmod(action_id - self.first_planting, len(self.cells))
            return Plant(self.cards[card], self.cells[cell])
        return Discard(self.cards[action_id - self.first_discard])

    def legal_ids(self, table: Game | SeatView) -> list[int]:
        """The ids of the legal actions of the player to move, ascending."""
        # A planting's ids made without making its actions (each card of a hand known whole by each
        # cell of the frontier, as legal_actions() lists them): a random game's hundred-odd plantings
        # a turn were a sixth of an OpenSpiel rollout. tests/doors/test_actions.py holds it to them.
        if table.phase is Phase.PLANT:
            held = table.hand(table.current_player)
            if not held.hidden:
                first, width = self.first_planting, len(self.cells)
                cells = [self.cell_id(cell) for cell in table.plant_cells()]
                return sorted(first + self.card_id(card) * width + cell for card in held.known for cell in cells)
        return sorted(self.action_id(action) for action in table.legal_actions())
