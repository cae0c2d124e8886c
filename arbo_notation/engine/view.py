"""What one seat knows of a table, as a value: the information state every bot chooses on.

``Game.view(seat)`` gives it: the seat's own hand, each other hand as the cards the seat saw its
player take from discard pile (``shown``) and a count of hidden ones, every discard pile and tree,
the deck as a count. Two games that differ only in cards the seat has not seen give it equal
views. Its ``legal_actions()`` are the mover's, and never name a card the seat has not seen: a
draw from the deck is ``d``, its card the deal's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from arbo_notation.engine.actions import Action, Discard, Draw, Plant, Skip
from arbo_notation.engine.cards import Card, Coord, card_order
from arbo_notation.engine.position import HandView, Phase, Position, SeatPosition, frontier
from arbo_notation.errors import ArboError


@dataclass(frozen=True, slots=True)
class SeatView:
    """The table as ``seat`` knows it (None: as a spectator does, every hand hidden but the
    cards shown); ``position`` holds it whole, hidden cards as counts and the deck as a size."""

    seat: str | None
    position: Position

    # -- the table ---------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.position.players

    @property
    def species(self) -> tuple[str, ...]:
        return self.position.species

    @property
    def current_player(self) -> str:
        return self.position.to_move

    @property
    def phase(self) -> Phase:
        return self.position.phase

    @property
    def is_over(self) -> bool:
        return self.position.phase is Phase.OVER

    @property
    def draws_taken(self) -> int:
        return self.position.draws_taken

    @property
    def turn_number(self) -> int:
        return self.position.turn

    @property
    def deck_size(self) -> int:
        return self.position.deck_size

    def hand(self, player: str) -> HandView:
        """What the seat knows of ``player``'s hand: the cards it knows (sorted) and the count of
        the others. The seat's own hand is known whole (when the game knows it)."""
        seat = self.position.seat(player)
        return HandView(seat.hand, seat.hidden)

    def shown(self, player: str) -> tuple[Card, ...]:
        """The cards of ``player``'s hand that every player saw taken from a discard pile."""
        seat = self.position.seat(player)
        return tuple(card for card in seat.hand if card in seat.shown)

    def discard_pile(self, player: str) -> tuple[Card, ...]:
        """``player``'s discard pile, bottom first (the last card is the top)."""
        return self.position.seat(player).pile

    def arboretum(self, player: str) -> Mapping[Coord, Card]:
        """``player``'s trees by cell."""
        return dict(self.position.seat(player).trees)

    def plant_cells(self, player: str | None = None) -> list[Coord]:
        """The cells where ``player`` (the player to move by default) may plant, sorted."""
        return frontier(self.arboretum(player or self.current_player))

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
        position = self.position
        phase = position.phase
        if phase is Phase.OVER:
            return []
        if phase is Phase.DRAW:
            draws: list[Action] = [Draw()] if position.deck_size else []
            draws += [Draw(seat.player, seat.pile[-1]) for seat in position.seats if seat.pile]
            return draws or [Skip()]
        cards = sorted(position.seat(position.to_move).hand, key=card_order)
        if phase is Phase.PLANT:
            cells = self.plant_cells()
            return [Plant(card, cell) for card in cards for cell in cells]
        return [Discard(card) for card in cards]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is among ``legal_actions()``."""
        return action in self.legal_actions()

    def __str__(self) -> str:
        return str(self.position)


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
