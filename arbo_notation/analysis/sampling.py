"""Worlds consistent with what the mover knows: each unseen card dealt to a place it may be in.

A *situation* is the public table (arboretums, piles, the deck's size) and the mover's whole hand;
a :class:`Unseen` says where the cards the mover cannot see may be: how many unknown cards each
hand holds, which cards are unseen and, for each, the hands (or the deck) it may be in. It is
made from the knowledge model's ``Knowledge`` of the mover's seat and from nothing else, so a
world drawn from it cannot depend on the record's hidden truth.

Method: when every unseen card may be anywhere that has room (the usual case), the unseen cards
are shuffled and dealt to the hands and the deck: every consistent world is equally likely. With
restrictions, the most restricted cards are placed first, each to one of its allowed places with
probability in proportion to the room left there, retried from scratch when a card finds no
room; this is close to uniform, not exactly (documented in docs/ANALYSIS.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError

if TYPE_CHECKING:
    from arbo_notation.game.knowledge import Knowledge

#: How many times a restricted deal is started again before the restrictions are called impossible.
DEAL_ATTEMPTS = 200


@dataclass(frozen=True, slots=True)
class Unseen:
    """Where the cards the mover cannot see may lie. ``room[p]``: unknown cards in p's hand."""

    room: Mapping[str, int]
    deck_size: int
    cards: tuple[Card, ...]  # sorted
    places: Mapping[Card, frozenset[str | None]]  # None: the deck

    @classmethod
    def from_knowledge(cls, knowledge: Knowledge) -> "Unseen":
        """From a ``Knowledge`` (ENGINE-SHAPE.md section 2) of the mover's seat."""
        room = {player: hand.unknown for player, hand in knowledge.hands.items()}
        cards = tuple(sorted(knowledge.unseen))
        places = {card: frozenset(knowledge.places[card]) for card in cards}
        return cls(room, knowledge.deck_size, cards, places)

    def without(self, drawn: tuple[Card, ...]) -> "Unseen":
        """The same after the mover drew ``drawn`` from the deck and saw them."""
        gone = set(drawn)
        cards = tuple(c for c in self.cards if c not in gone)
        return Unseen(self.room, self.deck_size - len(drawn), cards, {c: self.places[c] for c in cards})

    def _open_places(self, card: Card) -> list[str | None]:
        return sorted(
            (p for p in self.places[card] if (self.deck_size if p is None else self.room.get(p, 0)) > 0),
            key=lambda p: (p is None, p or ""),
        )

    def unique(self) -> dict[str | None, list[Card]] | None:
        """The one world when each card has one place with room and the deck's order cannot
        matter (at most one card in it); None when several worlds are possible."""
        placed: dict[str | None, list[Card]] = {}
        for card in self.cards:
            open_places = self._open_places(card)
            if len(open_places) != 1:
                return None
            placed.setdefault(open_places[0], []).append(card)
        if self.deck_size > 1:
            return None
        return placed

    def deal(self, rng: random.Random) -> tuple[dict[str, list[Card]], list[Card]]:
        """One world: the unknown cards of each hand, and the deck top card last."""
        everywhere = {p for p, n in self.room.items() if n} | ({None} if self.deck_size else set())
        if all(everywhere <= self.places[c] for c in self.cards):
            cards = list(self.cards)
            rng.shuffle(cards)
            hands: dict[str, list[Card]] = {}
            at = 0
            for player, count in self.room.items():
                hands[player] = cards[at : at + count]
                at += count
            return hands, cards[at:]
        return self._restricted_deal(rng)

    def _restricted_deal(self, rng: random.Random) -> tuple[dict[str, list[Card]], list[Card]]:
        order = sorted(self.cards, key=lambda c: (len(self.places[c]), c))
        for _ in range(DEAL_ATTEMPTS):
            # Copied key by key: a Mapping[str, int] is no dict with str | None keys.
            left: dict[str | None, int] = {p: n for p, n in self.room.items()}
            left[None] = self.deck_size
            hands: dict[str, list[Card]] = {p: [] for p in self.room}
            deck: list[Card] = []
            for card in order:
                choices = sorted(
                    (p for p in self.places[card] if left.get(p, 0) > 0), key=lambda p: (p is None, p or "")
                )
                if not choices:
                    break
                place = rng.choices(choices, weights=[left[p] for p in choices])[0]
                left[place] -= 1
                (deck if place is None else hands[place]).append(card)
            else:
                rng.shuffle(deck)
                return hands, deck
        raise ArboError("no world agrees with what the mover knows")
