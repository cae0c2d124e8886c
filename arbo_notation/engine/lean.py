"""The lean form of a game position: cards and cells as ints, lists for hands and piles, a fast scorer.

The engine's :class:`~arbo_notation.engine.state.Game` checks every action and keeps what a
record knows; the greedy bot (``greedy.py``) and the analysis's rollouts play thousands of turns
and need neither. Here a card is ``species_index * 8 + value - 1`` and a cell ``(x + 128) * 256 +
(y + 128)``. The rules are the engine's (RULES.md): tests/engine/test_lean.py plays the same
turns on both and holds the states and the scores equal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Mapping, Sequence

from arbo_notation.engine.cards import MAX_VALUE, MIN_VALUE, Card, Coord
from arbo_notation.engine.totals import SAME_SPECIES_MIN_LENGTH

if TYPE_CHECKING:
    from arbo_notation.engine.view import ViewPart

#: Cells: x and y offset by 128, packed in base 256; neighbours are +-1 and +-256.
_SHIFT: Final = 128
_ROW: Final = 256
ORIGIN_CELL: Final = _SHIFT * _ROW + _SHIFT
STEPS: Final = (_ROW, -_ROW, 1, -1)

#: A source of a draw in a lean turn: the deck, a player's pile (their seat), or none (skipped).
FROM_DECK: Final = -1

#: A card the seat the position is read for cannot see (in another hand, or in the deck).
HIDDEN: Final = -1


def cell_of(coord: Coord) -> int:
    return (coord.x + _SHIFT) * _ROW + coord.y + _SHIFT


def coord_of(cell: int) -> Coord:
    return Coord(cell // _ROW - _SHIFT, cell % _ROW - _SHIFT)


def frontier_of(arb: Mapping[int, int]) -> list[int]:
    """The empty cells next to a tree of ``arb`` (the origin when it is empty), sorted."""
    if not arb:
        return [ORIGIN_CELL]
    return sorted({c + s for c in arb for s in STEPS} - arb.keys())


@dataclass(frozen=True, slots=True)
class Cards:
    """The int encoding of one game's cards: species in play, in the game's order."""

    species: tuple[str, ...]

    def code(self, card: Card) -> int:
        return self.species.index(card.species) * 8 + card.value - 1

    def card(self, code: int) -> Card:
        return Card(self.species[code >> 3], (code & 7) + 1)

    def all_codes(self) -> range:
        return range(len(self.species) * 8)


class LeanPosition:
    """A position: hands, the deck (top last), discard piles, arboretums, whose turn. In a
    rollout's world every card is placed; read from one seat's view (the greedy bot's), the cards
    it cannot see are HIDDEN.

    ``turns_played`` counts whole turns; the game is over when the deck is empty after a turn.
    """

    __slots__ = ("seats", "hands", "deck", "piles", "arbs", "current", "over")

    def __init__(
        self,
        hands: list[list[int]],
        deck: list[int],
        piles: list[list[int]],
        arbs: list[dict[int, int]],
        current: int,
        over: bool = False,
    ) -> None:
        self.seats = len(hands)
        self.hands = hands
        self.deck = deck
        self.piles = piles
        self.arbs = arbs
        self.current = current
        self.over = over

    def copy(self) -> "LeanPosition":
        return LeanPosition(
            [h[:] for h in self.hands],
            self.deck[:],
            [p[:] for p in self.piles],
            [a.copy() for a in self.arbs],
            self.current,
            self.over,
        )

    def frontier(self, seat: int) -> list[int]:
        """The empty cells next to a tree of the seat (the origin for an empty arboretum), sorted."""
        return frontier_of(self.arbs[seat])

    def sources(self) -> list[int]:
        """Where a card can be drawn from now: the deck, then each non-empty pile in seat order."""
        found = [FROM_DECK] if self.deck else []
        return found + [seat for seat, pile in enumerate(self.piles) if pile]

    def draw(self, source: int | None) -> int | None:
        """Draw from the source into the current hand (None: a skipped draw); the card drawn."""
        if source is None:
            return None
        card = (self.deck if source == FROM_DECK else self.piles[source]).pop()
        self.hands[self.current].append(card)
        return card

    def finish(self, card: int, cell: int, discard: int) -> None:
        """Plant and discard for the current player, then end the turn."""
        seat = self.current
        hand = self.hands[seat]
        hand.remove(card)
        hand.remove(discard)
        self.arbs[seat][cell] = card
        self.piles[seat].append(discard)
        if not self.deck:
            self.over = True
        else:
            self.current = (seat + 1) % self.seats

    def play(self, first: int | None, second: int | None, card: int, cell: int, discard: int) -> None:
        """A whole turn, unchecked: the callers generate legal turns only."""
        self.draw(first)
        self.draw(second)
        self.finish(card, cell, discard)


def seat_position(
    parts: Sequence[ViewPart], seat: str | None, hand: Iterable[Card], code: Mapping[Card, int], deck_size: int
) -> LeanPosition:
    """The lean position read from a view's parts (SeatView.parts) for the player ``seat``, to
    move, who holds ``hand``: every other hand and the deck HIDDEN cards, the cards coded by
    ``code``."""
    hands, piles, arbs = [], [], []
    current = 0
    for index, part in enumerate(parts):
        if part.player == seat:
            current = index
            hands.append([code[card] for card in hand])
        else:
            hands.append([HIDDEN] * (len(part.known) + part.hidden))
        piles.append([code[card] for card in part.pile])
        arbs.append(dict(_encoded_trees(part.trees, code)))
    return LeanPosition(hands, [HIDDEN] * deck_size, piles, arbs, current)


#: Trees encoded, by the identity of the view's mapping and of the encoding (both kept here, so
#: that their ids name them alone while the entry stands): a game's views share a player's trees
#: while they do not change, so each is encoded once (a read 21.7 -> 15.0 us, bench/README.md,
#: "Greedy at random's pace").
_ENCODED: dict[tuple[int, int], tuple[Mapping[Coord, Card], Mapping[Card, int], dict[int, int]]] = {}
_ENCODED_LIMIT: Final = 64


def _encoded_trees(trees: Mapping[Coord, Card], code: Mapping[Card, int]) -> dict[int, int]:
    """The lean form of ``trees`` (shared: copy it)."""
    key = id(trees), id(code)
    kept = _ENCODED.get(key)
    if kept is None or kept[0] is not trees or kept[1] is not code:
        if len(_ENCODED) >= _ENCODED_LIMIT:
            _ENCODED.clear()
        kept = _ENCODED[key] = (trees, code, {cell_of(coord): code[card] for coord, card in trees.items()})
    return kept[2]


# -- scoring --------------------------------------------------------------------------------------


def rights(hands: Sequence[Sequence[int]], species_count: int) -> list[list[bool]]:
    """``rights[seat][s]``: whether the seat may score species s (RULES.md, The right to score)."""
    seats = len(hands)
    sums = [[0] * species_count for _ in range(seats)]
    ones: list[set[int]] = [set() for _ in range(species_count)]
    held = [False] * species_count
    for seat, hand in enumerate(hands):
        for card in hand:
            s = card >> 3
            held[s] = True
            value = (card & 7) + 1
            if value == MIN_VALUE:
                ones[s].add(seat)
            if value != MAX_VALUE:
                sums[seat][s] += value
    for seat, hand in enumerate(hands):
        for card in hand:
            if (card & 7) + 1 == MAX_VALUE and not (ones[card >> 3] - {seat}):
                sums[seat][card >> 3] += MAX_VALUE
    result = [[True] * species_count for _ in range(seats)]
    for s in range(species_count):
        if held[s]:
            top = max(sums[seat][s] for seat in range(seats))
            for seat in range(seats):
                result[seat][s] = sums[seat][s] == top
    return result


def best_points(arb: Mapping[int, int], wanted: Sequence[bool]) -> int:
    """The sum over the wanted species of the best path's points in the arboretum."""
    return sum(species_points(arb, wanted).values())


def species_points(arb: Mapping[int, int], wanted: Sequence[bool] | None = None) -> dict[int, int]:
    """The best path's points of each species (of the wanted ones) that has a path."""
    by_species: dict[int, int] = {}
    for card in arb.values():
        s = card >> 3
        if wanted is None or wanted[s]:
            by_species[s] = by_species.get(s, 0) + 1
    best = {s: 0 for s, count in by_species.items() if count >= 2}
    if not best:
        return best
    for start, card in arb.items():
        s = card >> 3
        if s in best:
            _climb(arb, start, card, s, 1, True, 1 if (card & 7) == 0 else 0, best)
    return {s: points for s, points in best.items() if points}


def _climb(
    arb: Mapping[int, int], cell: int, card: int, code: int, length: int, same: bool, bonus: int, best: dict[int, int]
) -> None:
    value = card & 7
    length += 1
    for step in STEPS:
        nxt = arb.get(cell + step)
        if nxt is None or (nxt & 7) <= value:
            continue
        if nxt >> 3 == code:
            points = length + bonus + (2 if (nxt & 7) == 7 else 0)
            if same and length >= SAME_SPECIES_MIN_LENGTH:
                points += length
            if points > best[code]:
                best[code] = points
            _climb(arb, cell + step, nxt, code, length, same, bonus, best)
        else:
            _climb(arb, cell + step, nxt, code, length, False, bonus, best)


def totals(position: LeanPosition, species_count: int) -> list[int]:
    """Each seat's final score, as the engine's score_totals counts it."""
    held = rights(position.hands, species_count)
    return [best_points(position.arbs[seat], held[seat]) for seat in range(position.seats)]


def margin(scores: Sequence[int], seat: int) -> int:
    """The seat's score minus the best other score: what the analysis maximises."""
    return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)
