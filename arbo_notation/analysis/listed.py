"""The worlds of a decision near the end listed, not sampled: every possible content of a small
deck, with its probability given what the mover knows.

A deck (top last) is possible when each of its cards may be in the deck; its probability is in
proportion to the number of ways the other unseen cards can fill the hands (each card in a hand
it may be in), every consistent world being equally likely. Within a listed deck the hands'
split is unique at two players; at three and four it may still be dealt at random
(:meth:`Unseen.deal` with the deck fixed), but a turn that ends the game is valued over every
split (splits.py).
"""

from __future__ import annotations

import itertools
from arbo_notation.engine.cards import Card
from arbo_notation.analysis.sampling import Unseen

#: The most decks (in order) that are listed; a larger deck is sampled as before.
LISTED_DECKS = 100


def _completions(unseen: Unseen, rest: tuple[Card, ...]) -> int:
    """The ways to put ``rest`` into the hands, each card into a hand it may be in, filling each
    hand's room exactly."""
    players = [p for p, n in unseen.room.items() if n]
    counts: dict[tuple[int, ...], int] = {tuple(unseen.room[p] for p in players): 1}
    for card in rest:
        nxt: dict[tuple[int, ...], int] = {}
        for left, ways in counts.items():
            for i, player in enumerate(players):
                if left[i] and player in unseen.places[card]:
                    key = left[:i] + (left[i] - 1,) + left[i + 1 :]
                    nxt[key] = nxt.get(key, 0) + ways
        counts = nxt
    return counts.get(tuple(0 for _ in players), 0)


def listed_decks(unseen: Unseen) -> list[tuple[tuple[Card, ...], float]] | None:
    """Every possible deck (top last) and its probability; None when the deck is empty or there
    are more than LISTED_DECKS of them."""
    size = unseen.deck_size
    if size == 0:
        return None
    candidates = [c for c in unseen.cards if None in unseen.places[c]]
    possible = 1
    for i in range(size):
        possible *= max(0, len(candidates) - i)
    if possible > LISTED_DECKS or possible == 0:
        return None
    found = []
    for deck in itertools.permutations(candidates, size):
        chosen = set(deck)
        ways = _completions(unseen, tuple(c for c in unseen.cards if c not in chosen))
        if ways:
            found.append((deck, float(ways)))
    total = sum(w for _, w in found)
    return [(deck, w / total) for deck, w in found] if found else None


def hands_unseen(unseen: Unseen, deck: tuple[Card, ...]) -> Unseen:
    """What is left unseen once the deck's content is fixed: the other cards, in the hands."""
    chosen = set(deck)
    rest = tuple(c for c in unseen.cards if c not in chosen)
    return Unseen(unseen.room, 0, rest, {c: unseen.places[c] - {None} for c in rest})


def deck_splits(unseen: Unseen, deck: tuple[Card, ...], budget: int, decks: int) -> tuple[Unseen, int]:
    """What is unseen once the deck is fixed, and how many deals of the hands to play for it: one
    when the split is unique, else ``budget // decks`` random ones (at least one)."""
    rest = hands_unseen(unseen, deck)
    return rest, 1 if rest.unique() is not None else max(1, budget // decks)


__all__ = ["LISTED_DECKS", "deck_splits", "hands_unseen", "listed_decks"]
