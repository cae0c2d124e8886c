"""The tables a seat's view could be: the cards it has not seen dealt again at random into the places hidden from it.

A search over imperfect information (OpenSpiel's ISMCTS, a determinized Monte Carlo search) plays
on whole tables the seat cannot tell from the real one. Every assignment of the unseen cards to
the hidden places (the other hands' hidden cards, the deck) is equally likely, whatever was played:
the deal and each deck draw are uniform, and no action the seat saw named a card it has not seen,
so swapping two unseen cards through the whole game, deal and draws included, gives a game as
likely with the same view. Hence the two ways here: ``deal_unseen`` deals a view's unseen cards at
random (for one who holds the view alone), ``shuffle_unseen`` permutes them at random (for one who
holds the whole game and its history, and relabels both).
"""

from __future__ import annotations

import random

from arbo_notation.engine.cards import Card, card_order, full_deck
from arbo_notation.engine.position import Position, SeatPosition
from arbo_notation.engine.state import Game
from arbo_notation.engine.view import SeatView


def unseen_cards(view: SeatView) -> list[Card]:
    """The cards in play the view does not place (in no tree, pile, known hand or known deck), in
    species then value order."""
    position = view.position
    seen: set[Card] = set(position.deck or ())
    for seat in position.seats:
        seen.update(card for _, card in seat.trees)
        seen.update(seat.pile)
        seen.update(seat.hand)
    return [card for card in full_deck(position.species) if card not in seen]


def shuffle_unseen(view: SeatView, rng: random.Random) -> dict[Card, Card]:
    """A permutation of the view's unseen cards drawn at random by ``rng``, each unseen card to the
    card that takes its place. Applied to every card of a game the view is of, its deal and its
    draws, it gives a game the seat cannot tell from it, and every such game equally likely."""
    unseen = unseen_cards(view)
    redealt = unseen[:]
    rng.shuffle(redealt)
    return dict(zip(unseen, redealt, strict=True))


def deal_unseen(view: SeatView, rng: random.Random) -> Game:
    """A whole table whose view for ``view.seat`` is ``view``: the unseen cards shuffled by ``rng``
    and dealt into every hand's hidden cards, in seat order, the rest making the deck, top first.
    Every such table is equally likely. PositionError when the view's counts do not add up."""
    position = view.position
    unseen = unseen_cards(view)
    rng.shuffle(unseen)
    seats = []
    for seat in position.seats:
        dealt, unseen = unseen[: seat.hidden], unseen[seat.hidden :]
        hand = tuple(sorted((*seat.hand, *dealt), key=card_order))
        seats.append(SeatPosition(seat.player, seat.trees, seat.pile, hand, seat.shown, 0))
    return Game.from_position(
        Position(
            position.species,
            tuple(seats),
            position.deck_size,
            position.deck if position.deck is not None else tuple(unseen),
            position.turn,
            position.to_move,
            position.phase,
            position.draws_taken,
        )
    )
