"""The rollout policy: a light greedy player on the lean table, and the candidate turns it ranks.

It decides from what its seat sees (its own hand, the arboretums, the piles, the deck's size),
never another hand, so it may also finish the mover's own turn in a sampled world. It is light
on purpose: a rollout plays it for every remaining turn, thousands of times a decision.

* Plant: the card and cell that link most trees (a neighbour of another value links; of the same
  species, more), less a little for a high card of a species the hand defends.
* Discard: the card least worth keeping: its value when the arboretum grows its species (a
  hand sum that defends a right), a third of it otherwise; a 1 is worth keeping (it cancels 8s).
* Draw: the top of a pile when it links well to the arboretum, otherwise the deck.
"""

from __future__ import annotations

from .lean import FROM_DECK, STEPS, LeanTable

#: A pile's top is drawn instead of the deck when planting it would link at least this much.
PILE_LINK = 4.0


def _link(arb: dict[int, int], card: int, cell: int) -> float:
    """How well ``card`` planted at ``cell`` joins the trees around it."""
    value = card & 7
    code = card >> 3
    gain = 0.0
    for step in STEPS:
        other = arb.get(cell + step)
        if other is not None and (other & 7) != value:
            gain += 2.5 if other >> 3 == code else 1.0
    return gain


def _grown(arb: dict[int, int]) -> set[int]:
    return {card >> 3 for card in arb.values()}


def keep_worth(card: int, grown: set[int]) -> float:
    """What a card is worth kept in hand, for the discard: its weight in a right that matters."""
    value = (card & 7) + 1
    if value == 1:
        return 3.0
    return float(value) if card >> 3 in grown else value / 3.0


def ranked_plantings(table: LeanTable, seat: int) -> list[tuple[float, int, int]]:
    """Every (card, cell) planting of the seat's hand, best first by the policy: (score, card, cell)."""
    arb = table.arbs[seat]
    hand = table.hands[seat]
    grown = _grown(arb)
    cells = table.frontier(seat)
    found = []
    for card in hand:
        cost = 0.1 * keep_worth(card, grown)
        for cell in cells:
            found.append((_link(arb, card, cell) - cost, card, cell))
    found.sort(key=lambda item: (-item[0], item[1], item[2]))
    return found


def ranked_discards(table: LeanTable, seat: int, planted: int, cell: int) -> list[int]:
    """The hand's cards but ``planted``, least worth keeping first, once it grows at ``cell``."""
    arb = table.arbs[seat]
    grown = _grown(arb) | {planted >> 3}
    cards = list(table.hands[seat])
    cards.remove(planted)
    cards.sort(key=lambda card: (keep_worth(card, grown), card))
    return cards


def choose_finish(table: LeanTable) -> tuple[int, int, int]:
    """The policy's planting and discard for the current seat, its draws in hand."""
    seat = table.current
    _, card, cell = max(ranked_plantings_fast(table, seat))
    return card, cell, ranked_discards(table, seat, card, cell)[0]


def ranked_plantings_fast(table: LeanTable, seat: int) -> list[tuple[float, int, int]]:
    """ranked_plantings without the sort (ties broken by the highest card, then cell)."""
    arb = table.arbs[seat]
    grown = _grown(arb)
    cells = table.frontier(seat)
    return [(_link(arb, card, cell) - 0.1 * keep_worth(card, grown), card, cell)
            for card in table.hands[seat] for cell in cells]


def choose_source(table: LeanTable) -> int | None:
    """Where the policy draws its next card from (None: nothing to draw)."""
    seat = table.current
    arb = table.arbs[seat]
    cells = None
    best, choice = PILE_LINK, None
    for owner, pile in enumerate(table.piles):
        if pile:
            if cells is None:
                cells = table.frontier(seat)
            top = pile[-1]
            link = max(_link(arb, top, cell) for cell in cells)
            if link >= best:
                best, choice = link, owner
    if choice is not None:
        return choice
    if table.deck:
        return FROM_DECK
    return next((owner for owner, pile in enumerate(table.piles) if pile), None)


def play_policy_turn(table: LeanTable) -> None:
    """The current seat's whole turn by the policy."""
    table.draw(choose_source(table))
    table.draw(choose_source(table))
    card, cell, discard = choose_finish(table)
    table.finish(card, cell, discard)


def play_out(table: LeanTable) -> None:
    """Play the policy for every seat to the end of the game."""
    while not table.over:
        play_policy_turn(table)
