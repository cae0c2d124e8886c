"""The rollout policy: the greedy bot for the turns right after a decision, then a light player
on the lean position; and the candidate turns the light player ranks.

A rollout's first turns decide most of what a candidate is worth (does the next player take the
discard, build on what it left?), so they are played by the greedy bot itself (``greedy.py``,
the engine's GreedyBot on the lean position: the opponent the bot ladder meets); the rest of the
game by the light player below, which is many times cheaper. Both decide from what their seat
sees (its own hand, the arboretums, the piles, the deck's size), never another hand, so either
may also finish the mover's own turn in a sampled world. The light player is light on purpose:
a rollout plays it for all but its first round, thousands of times a decision.

* Plant: the card and cell that link most trees (a neighbour of another value links; of the same
  species, more), less a little for a high card of a species the hand defends.
* Discard: the card least worth keeping: its value when the arboretum grows its species (a
  hand sum that defends a right), a third of it otherwise; a 1 is worth keeping (it cancels 8s).
* Draw: the top of a pile when it links well to the arboretum, otherwise the deck.
"""

from __future__ import annotations

from arbo_notation.engine.greedy import play_greedy_turn
from arbo_notation.engine.lean import FROM_DECK, STEPS, LeanPosition

#: Rounds of a rollout, after the decision judged, that the greedy bot plays (a round: a turn of
#: every seat; the light player plays the rest), by the number of seats: measured in
#: bench/bench_bots.py and bench_analyse.py (docs/ANALYSIS.md). At four seats a second round
#: took the engine from 1.57 to 1.96 times a greedy seat's firsts over 100 tables (2.48 over 200);
#: two players were measured at one.
GREEDY_ROUNDS = {2: 1, 3: 2, 4: 2}

#: A pile's top is drawn instead of the deck when planting it would link at least this much.
PILE_LINK = 4.0


def link(arb: dict[int, int], card: int, cell: int) -> float:
    """How well ``card`` planted at ``cell`` joins the trees around it: 1 for each neighbour of
    another value, 1.5 more for one of the same species."""
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


def _cell_tables(arb: dict[int, int], cells: list[int]) -> list[tuple[int, int, dict[int, int], dict[int, int]]]:
    """Per frontier cell: (cell, neighbours, neighbours per value, neighbours per species), so that
    link(card, cell) is ``neighbours - per_value[value] + 1.5 * per_species[species]`` (a
    neighbour of the same species never has the same value: it would be the same card)."""
    tables = []
    for cell in cells:
        by_value: dict[int, int] = {}
        by_species: dict[int, int] = {}
        count = 0
        for step in STEPS:
            other = arb.get(cell + step)
            if other is not None:
                count += 1
                by_value[other & 7] = by_value.get(other & 7, 0) + 1
                by_species[other >> 3] = by_species.get(other >> 3, 0) + 1
        tables.append((cell, count, by_value, by_species))
    return tables


def _best_cells(arb: dict[int, int], cells: list[int], cards: list[int]) -> list[tuple[float, int, int]]:
    """For each card, its best link and cell: (link, card, cell)."""
    tables = _cell_tables(arb, cells)
    found = []
    for card in cards:
        value, code = card & 7, card >> 3
        best, where = -1.0, cells[0]
        for cell, count, by_value, by_species in tables:
            link = count - by_value.get(value, 0) + 1.5 * by_species.get(code, 0)
            if link > best:
                best, where = link, cell
        found.append((best, card, where))
    return found


def ranked_plantings(position: LeanPosition, seat: int) -> list[tuple[float, int, int]]:
    """Every (card, cell) planting of the seat's hand, best first by the policy: (score, card, cell)."""
    arb = position.arbs[seat]
    grown = _grown(arb)
    cells = position.frontier(seat)
    tables = _cell_tables(arb, cells)
    found = []
    for card in position.hands[seat]:
        cost = 0.1 * keep_worth(card, grown)
        value, code = card & 7, card >> 3
        for cell, count, by_value, by_species in tables:
            found.append((count - by_value.get(value, 0) + 1.5 * by_species.get(code, 0) - cost, card, cell))
    found.sort(key=lambda item: (-item[0], item[1], item[2]))
    return found


def ranked_discards(position: LeanPosition, seat: int, planted: int, cell: int) -> list[int]:
    """The hand's cards but ``planted``, least worth keeping first, once it grows at ``cell``."""
    arb = position.arbs[seat]
    grown = _grown(arb) | {planted >> 3}
    cards = list(position.hands[seat])
    cards.remove(planted)
    cards.sort(key=lambda card: (keep_worth(card, grown), card))
    return cards


def choose_finish(position: LeanPosition) -> tuple[int, int, int]:
    """The policy's planting and discard for the current seat, its draws in hand: the best
    planting (ties: the highest card), then the card least worth keeping (ties: the lowest)."""
    seat = position.current
    arb = position.arbs[seat]
    hand = position.hands[seat]
    grown = _grown(arb)
    best = None
    for link, card, cell in _best_cells(arb, position.frontier(seat), hand):
        score = (link - 0.1 * keep_worth(card, grown), card)
        if best is None or score > best[0]:
            best = (score, card, cell)
    assert best is not None
    _, card, cell = best
    grown.add(card >> 3)
    discard = min((c for c in hand if c != card), key=lambda c: (keep_worth(c, grown), c))
    return card, cell, discard


def choose_source(position: LeanPosition) -> int | None:
    """Where the policy draws its next card from (None: nothing to draw)."""
    seat = position.current
    tops = [(pile[-1], owner) for owner, pile in enumerate(position.piles) if pile]
    if tops:
        arb = position.arbs[seat]
        best, choice = PILE_LINK, None
        for link, card, _ in _best_cells(arb, position.frontier(seat), [card for card, _ in tops]):
            if link >= best:
                best, choice = link, next(owner for top, owner in tops if top == card)
        if choice is not None:
            return choice
    if position.deck:
        return FROM_DECK
    return tops[0][1] if tops else None


def play_policy_turn(position: LeanPosition) -> None:
    """The current seat's whole turn by the policy."""
    position.draw(choose_source(position))
    position.draw(choose_source(position))
    card, cell, discard = choose_finish(position)
    position.finish(card, cell, discard)


def play_out(position: LeanPosition, greedy_turns: int | None = None) -> None:
    """Play every seat to the end of the game: ``greedy_turns`` turns (default: GREEDY_ROUNDS
    rounds for the position's seats) by the greedy bot, the rest by the light player."""
    if greedy_turns is None:
        greedy_turns = GREEDY_ROUNDS[position.seats] * position.seats
    while not position.over and greedy_turns > 0:
        play_greedy_turn(position)
        greedy_turns -= 1
    while not position.over:
        play_policy_turn(position)
