"""What one seat knows of a table, as a value: the information state every bot chooses on.

``Game.view(seat)`` gives it: the seat's own hand, each other hand as the cards the seat saw its
player take from discard pile (``shown``) and a count of hidden ones, every discard pile and tree,
the deck as a count. Two games that differ only in cards the seat has not seen give it equal
views. Its ``legal_actions()`` are the mover's, and never name a card the seat has not seen: a
draw from the deck is ``d``, its card the deal's business.

A view made by ``Game.view`` holds copies of the game's own parts and makes its ``position`` when
first asked for: a bot chooses on a view at every decision of a simulated game, and the greedy
and random bots never ask for the whole position (bench/README.md, "A bot's view").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from arbo_notation.engine.actions import Action, Discard, Draw, Plant, Skip
from arbo_notation.engine.cards import Card, Coord, card_order
from arbo_notation.engine.position import HandView, Phase, Position, SeatPosition, frontier, sorted_trees
from arbo_notation.errors import ArboError, PositionError


class ViewPart(NamedTuple):
    """One player's part of a view: their trees by cell, their pile (bottom first), the cards of
    their hand the view knows (in any order), those of them every player saw taken from a pile,
    and how many cards of the hand the view does not know."""

    player: str
    trees: Mapping[Coord, Card]
    pile: tuple[Card, ...]
    known: tuple[Card, ...]
    shown: frozenset[Card]
    hidden: int


class ViewTable(NamedTuple):
    """What a view knows besides the parts: the players and the species, the deck's size, the
    turn, who is to move, what is due (the phase and the draws taken)."""

    players: tuple[str, ...]
    species: tuple[str, ...]
    deck_size: int
    turn: int
    to_move: str
    phase: Phase
    draws_taken: int


class SeatView:
    """The table as ``seat`` knows it (None: as a spectator does, every hand hidden but the
    cards shown); ``position`` holds it whole, hidden cards as counts and the deck as a size.
    Immutable; two views are equal when their seats and positions are."""

    __slots__ = ("seat", "_parts", "_table", "_position")

    seat: str | None
    _parts: tuple[ViewPart, ...]
    _table: ViewTable
    _position: Position | None

    def __init__(self, seat: str | None, position: Position) -> None:
        parts = tuple(
            ViewPart(part.player, dict(part.trees), part.pile, part.hand, part.shown, part.hidden)
            for part in position.seats
        )
        table = ViewTable(
            position.players,
            position.species,
            position.deck_size,
            position.turn,
            position.to_move,
            position.phase,
            position.draws_taken,
        )
        _set(self, seat, parts, table, position)

    @classmethod
    def of_parts(cls, seat: str | None, parts: tuple[ViewPart, ...], table: ViewTable) -> "SeatView":
        """The view of ``seat`` made of its parts, its position made when first asked for (the
        parts are the view's own from now on: nothing else may change them)."""
        view = cls.__new__(cls)
        _set(view, seat, parts, table, None)
        return view

    @property
    def position(self) -> Position:
        """The view as a whole position: the others' hands as the cards shown and a count, the deck
        as its size."""
        position = self._position
        if position is None:
            table = self._table
            position = Position(
                table.species,
                tuple(
                    SeatPosition(
                        part.player,
                        sorted_trees(part.trees),
                        part.pile,
                        tuple(sorted(part.known, key=card_order)),
                        part.shown,
                        part.hidden,
                    )
                    for part in self._parts
                ),
                table.deck_size,
                None if table.deck_size else (),
                table.turn,
                table.to_move,
                table.phase,
                table.draws_taken,
            )
            _SET_POSITION(self, position)
        return position

    # -- a value -----------------------------------------------------------------------------

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a SeatView is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a SeatView is immutable: cannot delete {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return self.seat == other.seat and self.position == other.position

    def __hash__(self) -> int:
        return hash((self.seat, self.position))

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat!r}, position={self.position!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return SeatView, (self.seat, self.position)

    def __str__(self) -> str:
        return str(self.position)

    # -- the table ---------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self._table.players

    @property
    def species(self) -> tuple[str, ...]:
        return self._table.species

    @property
    def current_player(self) -> str:
        return self._table.to_move

    @property
    def phase(self) -> Phase:
        return self._table.phase

    @property
    def is_over(self) -> bool:
        return self._table.phase is Phase.OVER

    @property
    def draws_taken(self) -> int:
        return self._table.draws_taken

    @property
    def turn_number(self) -> int:
        return self._table.turn

    @property
    def deck_size(self) -> int:
        return self._table.deck_size

    @property
    def parts(self) -> tuple[ViewPart, ...]:
        """Each player's part, in seat order, as the view holds it (not copied: read-only). A
        game's views share a part, and its trees, for as long as that player's do not change."""
        return self._parts

    def _part(self, player: str) -> ViewPart:
        for part in self._parts:
            if part.player == player:
                return part
        raise PositionError(f"{player} is not a player of this position ({', '.join(self.players)})")

    def hand(self, player: str) -> HandView:
        """What the seat knows of ``player``'s hand: the cards it knows (sorted) and the count of
        the others. The seat's own hand is known whole (when the game knows it)."""
        part = self._part(player)
        return HandView(tuple(sorted(part.known, key=card_order)), part.hidden)

    def shown(self, player: str) -> tuple[Card, ...]:
        """The cards of ``player``'s hand that every player saw taken from a discard pile."""
        part = self._part(player)
        return tuple(sorted([card for card in part.known if card in part.shown], key=card_order))

    def discard_pile(self, player: str) -> tuple[Card, ...]:
        """``player``'s discard pile, bottom first (the last card is the top)."""
        return self._part(player).pile

    def arboretum(self, player: str) -> Mapping[Coord, Card]:
        """``player``'s trees by cell (a copy)."""
        return dict(self._part(player).trees)

    def plant_cells(self, player: str | None = None) -> list[Coord]:
        """The cells where ``player`` (the player to move by default) may plant, sorted."""
        return frontier(self._part(player or self.current_player).trees)

    def opponents(self) -> tuple[str, ...]:
        """The other players in turn order, from the one after the seat (or the player to move)."""
        players = self.players
        seat = players.index(self.seat or self.current_player)
        return players[seat + 1 :] + players[:seat]

    # -- the actions ---------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The mover's legal actions, in the order ``Game.legal_actions()`` gives them, naming only
        cards this seat has seen: a draw from the deck is ``Draw()``; the plantings and discards
        are those of the mover's cards the seat knows (all of them, in the mover's own view)."""
        table = self._table
        phase = table.phase
        if phase is Phase.OVER:
            return []
        if phase is Phase.DRAW:
            draws: list[Action] = [Draw()] if table.deck_size else []
            draws += [Draw(part.player, part.pile[-1]) for part in self._parts if part.pile]
            return draws or [Skip()]
        mover = self._part(table.to_move)
        cards = sorted(mover.known, key=card_order)
        if phase is Phase.PLANT:
            cells = frontier(mover.trees)
            return [Plant(card, cell) for card in cards for cell in cells]
        return [Discard(card) for card in cards]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is among ``legal_actions()``."""
        return action in self.legal_actions()


# A view's fields are set through their slots' own setters, as SeatView refuses setattr: a
# simulated game makes a view for every decision, and the four fields set by object.__setattr__
# in a loop took 3.1 us, by the setters 0.7 (timeit, Python 3.11, the shared machine loaded;
# bench/README.md, "A bot's view, kept cheap").
_SET_SEAT = SeatView.__dict__["seat"].__set__
_SET_PARTS = SeatView.__dict__["_parts"].__set__
_SET_TABLE = SeatView.__dict__["_table"].__set__
_SET_POSITION = SeatView.__dict__["_position"].__set__


def _set(
    view: SeatView, seat: str | None, parts: tuple[ViewPart, ...], table: ViewTable, position: Position | None
) -> None:
    """A view's fields set where it is made (a SeatView refuses any later change)."""
    _SET_SEAT(view, seat)
    _SET_PARTS(view, parts)
    _SET_TABLE(view, table)
    _SET_POSITION(view, position)


def view_of(position: Position, seat: str | None) -> SeatView:
    """``seat``'s view of a whole position: the others' hands cut to the cards shown, the deck to
    its size. ArboError for a seat that is no player of the position."""
    if seat is not None and seat not in position.players:
        raise ArboError(f"{seat} is not a player of this game ({', '.join(position.players)})")
    seats = tuple(
        part
        if part.player == seat
        else SeatPosition(
            part.player,
            part.trees,
            part.pile,
            tuple(card for card in part.hand if card in part.shown),
            part.shown,
            part.hand_size - len(part.shown),
        )
        for part in position.seats
    )
    return SeatView(
        seat,
        Position(
            position.species,
            seats,
            position.deck_size,
            None if position.deck_size else (),
            position.turn,
            position.to_move,
            position.phase,
            position.draws_taken,
        ),
    )
