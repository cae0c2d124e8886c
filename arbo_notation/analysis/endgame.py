"""The end of a game solved exactly on a lean world: every finish of a game-ending turn, the best
draws of a turn that can end the game, and a short max-n lookahead of the turns before it.

A turn that ends the game is scored in parts, each computed once: the mover's path points
depend only on the card planted and its cell (the best path of a species is the old best or one
through the new cell), the rights to score only on the hand kept (the planted and the discarded
card removed), the other players' points on nothing the mover does but through the rights. So the
hundreds of finishes cost a handful of path searches, not hundreds of full scorings.

In a world every card is placed, so a player's choice among draws is judged knowing the deck's
order there (the world's hidden truth, not the player's view): docs/ANALYSIS.md says so.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from arbo_notation.engine.greedy import choose_finish as greedy_finish
from arbo_notation.engine.greedy import play_greedy_turn
from arbo_notation.engine.lean import (
    FROM_DECK,
    STEPS,
    LeanPosition,
    frontier_of,
    margin,
    rights,
    species_points,
    totals,
)
from arbo_notation.engine.totals import SAME_SPECIES_MIN_LENGTH
from arbo_notation.analysis import deadline
from arbo_notation.analysis.policy import GREEDY_ROUNDS, play_policy_turn

#: A pair of draw sources: a seat's pile, FROM_DECK, or None for a skipped draw.
Sources = tuple[int | None, int | None]
#: A finish: the card planted, its cell, the card discarded (lean ints).
Finish = tuple[int, int, int]

#: A turn can end the game when the deck holds at most this many cards (two draws).
ENDING_DECK = 2
#: Turns of a rollout, after the decision, that may prolong the game (a pair of draws from the
#: piles that leaves cards in the deck) when they could end it; beyond them, a turn that can end
#: the game ends it, as well as it can. None: each such turn costs some ten exact finishes.
LOOKAHEAD = 0
#: Turns of a rollout that may leave the next player a turn that can end the game (the deck
#: ENDING_DECK + 1 to 2 * ENDING_DECK cards) played as their mover's best reply: the pair of
#: draws best for their own margin, each finished by the greedy bot and followed by the next
#: player's exact end. One: the reply to a decision that keeps the game going (the one that
#: values it); later ones are the greedy bot's, since each costs some ten exact ends.
REPLIES = 1


def near_end(position: LeanPosition) -> bool:
    """Whether the game ends within about a round (two cards a seat left in the deck): the
    decisions whose rollouts end exactly (an exact end costs several rollouts' time, so the
    decisions far from it keep the light end, whose error their sampling noise drowns)."""
    return len(position.deck) <= 2 * position.seats


def _source_key(source: int | None) -> int:
    return -2 if source is None else source


def canonical(pair: Sources) -> Sources:
    first, second = pair
    # the pair in its sources' order (the sort is stable: equal keys keep the pair as it is)
    return (second, first) if _source_key(second) < _source_key(first) else pair


def draw_pairs(position: LeanPosition) -> list[Sources]:
    """Every distinct pair of draws the mover may make (draws from two different places commute)."""
    pairs: dict[Sources, Sources] = {}
    firsts: list[int | None] = [*position.sources()] or [None]
    for first in firsts:
        probe = position.copy()
        probe.draw(first)
        seconds: list[int | None] = [*probe.sources()] or [None]
        for second in seconds:
            pairs.setdefault(canonical((first, second)), (first, second))
    return list(pairs.values())


def empties_deck(position: LeanPosition, pair: Sources) -> bool:
    return sum(source == FROM_DECK for source in pair) >= len(position.deck)


# -- one game-ending turn -------------------------------------------------------------------------


#: A part of a path from a tree, going down in value (toward the path's start) or up (toward its
#: end): (species of the far card, cards, bonus of the far card, the species of every card of the
#: part when they share one, else -1).
Part = tuple[int, int, int, int]


def _parts_from(arb: dict[int, int], cell: int, down: bool) -> list[Part]:
    """Every part of a path from the tree at ``cell`` (itself a part of one card)."""
    found: list[Part] = []

    def walk(at: int, card: int, length: int, uniform: int) -> None:
        bonus = (1 if (card & 7) == 0 else 0) if down else (2 if (card & 7) == 7 else 0)
        found.append((card >> 3, length, bonus, uniform))
        for step in STEPS:
            nxt = arb.get(at + step)
            if nxt is None or ((nxt & 7) >= (card & 7) if down else (nxt & 7) <= (card & 7)):
                continue
            walk(at + step, nxt, length + 1, uniform if nxt >> 3 == uniform else -1)

    walk(cell, arb[cell], 1, arb[cell] >> 3)
    return found


class PathParts:
    """The parts of paths from each tree of one arboretum, found once and shared by every card
    tried on every free cell (a path through a new tree is a part down from one neighbour, the
    new tree, and a part up from another)."""

    __slots__ = ("arb", "downs", "ups")

    def __init__(self, arb: dict[int, int]) -> None:
        self.arb = arb
        self.downs: dict[int, list[Part]] = {}
        self.ups: dict[int, list[Part]] = {}

    def _side(self, cell: int, card: int, down: bool) -> list[Part]:
        value, species = card & 7, card >> 3
        bonus = (1 if value == 0 else 0) if down else (2 if value == 7 else 0)
        parts: list[Part] = [(species, 1, bonus, species)]
        memo = self.downs if down else self.ups
        for step in STEPS:
            other = self.arb.get(cell + step)
            if other is None or ((other & 7) >= value if down else (other & 7) <= value):
                continue
            if cell + step not in memo:
                memo[cell + step] = _parts_from(self.arb, cell + step, down)
            for far, length, far_bonus, uniform in memo[cell + step]:
                parts.append((far, length + 1, far_bonus, species if uniform == species else -1))
        return parts

    def through(self, cell: int, card: int) -> dict[int, int]:
        """The best points of each species' path through ``cell`` once ``card`` is planted there."""
        downs = self._side(cell, card, True)
        ups = self._side(cell, card, False)
        best: dict[int, int] = {}
        if len(downs) == 1 and len(ups) == 1:
            return best
        for s, down_length, start_bonus, down_uniform in downs:
            for e, up_length, end_bonus, up_uniform in ups:
                if e != s:
                    continue
                length = down_length + up_length - 1
                if length < 2:
                    continue
                points = length + start_bonus + end_bonus
                if down_uniform == s and up_uniform == s and length >= SAME_SPECIES_MIN_LENGTH:
                    points += length
                if points > best.get(s, 0):
                    best[s] = points
        return best


def paths_through(arb: dict[int, int], cell: int, card: int) -> dict[int, int]:
    """The best points of each species' path through ``cell`` once ``card`` is planted there."""
    return PathParts(arb).through(cell, card)


def _species_rights(held: list[list[int]]) -> list[bool]:
    """Each seat's right to score one species (RULES.md, The right to score), from each seat's
    cards of that species: lean.rights for one species, since a finish changes the mover's hand
    in two species at most."""
    if not any(held):
        return [True] * len(held)
    ones = {seat for seat, cards in enumerate(held) if any(c & 7 == 0 for c in cards)}
    sums = [
        sum((8 if not (ones - {seat}) else 0) if c & 7 == 7 else (c & 7) + 1 for c in cards)
        for seat, cards in enumerate(held)
    ]
    top = max(sums)
    return [total == top for total in sums]


class ArbTable:
    """One arboretum's share of a game-ending turn's scores: its best path's points per species,
    its free cells, and what each card planted on a cell adds to them. The same arboretums come
    back in every pair of draws and every reply of a rollout's last turns (only the mover's hand
    changes), so a table is made once per arboretum (:func:`arb_table`), not once per finish."""

    __slots__ = ("points", "cells", "_parts", "_gains")

    def __init__(self, arb: dict[int, int]) -> None:
        arb = dict(arb)  # the caller's arboretum grows on; the table is of this one
        self.points = species_points(arb)
        self.cells = frontier_of(arb)
        self._parts = PathParts(arb)
        self._gains: dict[int, list[tuple[int, tuple[tuple[int, int], ...]]]] = {}

    def gains(self, card: int) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
        """The cells (in ``cells``' order) where ``card`` betters a species' best path, each with
        (species, points added)."""
        found = self._gains.get(card)
        if found is None:
            found = []
            base = self.points
            for cell in self.cells:
                better = tuple(
                    (s, p - base.get(s, 0)) for s, p in self._parts.through(cell, card).items() if p > base.get(s, 0)
                )
                if better:
                    found.append((cell, better))
            self._gains[card] = found
        return found

    def added(self, card: int, cell: int, wanted: Sequence[bool]) -> int:
        """The points ``card`` on ``cell`` adds to the wanted species' best paths."""
        for at, better in self.gains(card):
            if at == cell:
                return sum(g for s, g in better if wanted[s])
        return 0


#: Arboretum tables kept (:func:`arb_table`); the cache is emptied when full. A rollout's last
#: turns meet some tens of arboretums, so this holds a few decisions' worth.
TABLES_KEPT = 4096
_tables: dict[frozenset[tuple[int, int]], ArbTable] = {}


def arb_table(arb: dict[int, int]) -> ArbTable:
    """The table of an arboretum, made once per content."""
    key = frozenset(arb.items())
    table = _tables.get(key)
    if table is None:
        if len(_tables) >= TABLES_KEPT:
            _tables.clear()
        table = _tables[key] = ArbTable(arb)
    return table


#: For each unordered pair of cards leaving the mover's hand: the species where the mover's right
#: differs from the whole hand's (each with the right), the mover's points from the best paths
#: already there, every seat's score but the mover's (0 for the mover), and the best of those.
Kept = tuple[tuple[tuple[int, bool], ...], int, list[int], int]


def _scored_parts(
    position: LeanPosition, species_count: int
) -> tuple[list[int], list[bool], ArbTable, dict[tuple[int, int], Kept]]:
    """The parts of a game-ending turn's scores: the hand (sorted), the mover's rights with the
    whole hand, the mover's arboretum table, and for each pair of cards leaving the hand (lower
    first) its :data:`Kept`. Only the one or two species of the cards leaving can change rights,
    so each pair's scores are the whole hand's, corrected in those species; a correction depends
    on the card (or the two cards of one species) leaving, so it is found once per card."""
    seat = position.current
    seats = position.seats
    hand = sorted(position.hands[seat])
    own = arb_table(position.arbs[seat])
    others = [arb_table(position.arbs[o]).points if o != seat else {} for o in range(seats)]
    hands = list(position.hands)
    whole = rights(hands, species_count)
    base = [sum(p for s, p in others[o].items() if whole[o][s]) if o != seat else 0 for o in range(seats)]
    mine = whole[seat]
    own_base = sum(p for s, p in own.points.items() if mine[s])

    by_species: dict[int, list[list[int]]] = {}  # each seat's cards of a species the hand holds

    def correction(*leaving: int) -> tuple[tuple[tuple[int, bool], ...], int, list[int]]:
        """What the cards leaving (of one species) change: the mover's right when it changes,
        the mover's points, the other seats' scores."""
        species = leaving[0] >> 3
        cards = by_species.get(species)
        if cards is None:
            cards = by_species[species] = [[c for c in h if c >> 3 == species] for h in hands]
        cards = cards[:]
        cards[seat] = [c for c in cards[seat] if c not in leaving]
        held = _species_rights(cards)
        delta = [others[o].get(species, 0) * (held[o] - whole[o][species]) if o != seat else 0 for o in range(seats)]
        changed = ((species, held[seat]),) if held[seat] != mine[species] else ()
        return changed, own.points.get(species, 0) * (held[seat] - mine[species]), delta

    single = {card: correction(card) for card in hand}
    by_kept: dict[tuple[int, int], Kept] = {}
    for i, card in enumerate(hand):
        for discard in hand[i + 1 :]:
            if card >> 3 == discard >> 3:
                changed, points, delta = correction(card, discard)
                scores = [b + d for b, d in zip(base, delta, strict=True)]
            else:
                changed_a, points_a, delta_a = single[card]
                changed_b, points_b, delta_b = single[discard]
                changed, points = changed_a + changed_b, points_a + points_b
                scores = [b + x + y for b, x, y in zip(base, delta_a, delta_b, strict=True)]
            other = max(x for o, x in enumerate(scores) if o != seat)
            by_kept[(card, discard)] = (changed, own_base + points, scores, other)
    return hand, mine, own, by_kept


def _wanted(mine: list[bool], changed: tuple[tuple[int, bool], ...]) -> list[bool]:
    if not changed:
        return mine
    wanted = mine[:]
    for s, held in changed:
        wanted[s] = held
    return wanted


def final_finishes(position: LeanPosition, species_count: int) -> dict[Finish, list[int]]:
    """Every legal finish of the current player's turn that ends the game (their draws in hand,
    the deck empty), with each seat's final score; in the order of ``search.all_finishes``."""
    seat = position.current
    hand, mine, own, by_kept = _scored_parts(position, species_count)
    found: dict[Finish, list[int]] = {}
    for card in hand:
        for cell in own.cells:
            for discard in hand:
                if discard == card:
                    continue
                changed, points, scores, _ = by_kept[(min(card, discard), max(card, discard))]
                final = scores[:]
                final[seat] = points + own.added(card, cell, _wanted(mine, changed))
                found[(card, cell, discard)] = final
    return found


def best_final(position: LeanPosition, species_count: int) -> tuple[Finish, list[int]]:
    """The finish of a game-ending turn best for its mover's margin, and the final scores."""
    seat = position.current
    hand, mine, own, by_kept = _scored_parts(position, species_count)
    cells = own.cells
    best: tuple[int, Finish, list[int], int] | None = None
    cell_memo: dict[tuple[int, tuple[tuple[int, bool], ...]], tuple[int, int]] = {}
    for card in hand:
        gains = own.gains(card)
        # the best cell of a card depends on the discard only through the rights it leaves
        for discard in hand:
            if discard == card:
                continue
            changed, points, scores, other = by_kept[(min(card, discard), max(card, discard))]
            key = (card, changed)
            if key not in cell_memo:
                wanted = _wanted(mine, changed)
                top, where = 0, cells[0]  # no gain anywhere: the first cell, as any other
                for cell, better in gains:
                    extra = sum(g for s, g in better if wanted[s])
                    if extra > top:
                        top, where = extra, cell
                cell_memo[key] = (top, where)
            extra, where = cell_memo[key]
            value = points + extra - other
            if best is None or value > best[0]:
                best = (value, (card, where, discard), scores, points + extra)
    assert best is not None
    _, finish, scores, own_points = best
    final = scores[:]
    final[seat] = own_points
    return finish, final


def mean_finals(worlds: Iterable[LeanPosition], weights: Sequence[float], species_count: int) -> dict[Finish, float]:
    """Every legal finish of a game-ending turn with its mean margin over ``worlds`` (weighted by
    ``weights``), worlds that differ only in the other hands (the mover sees the same hand and
    arboretums in each); in :func:`final_finishes`' order. The weighted means of
    :func:`final_finishes`' margins, without listing each world's finishes: a finish's margin is
    a part of the pair of cards leaving (the points already there, the other seats' best score)
    and a part of its card and cell (the points added), and that part depends on the world only
    through the mover's rights, a few distinct ones over hundreds of worlds. Measured on a
    4-player last turn (bench/README.md, "Three and four players at the last turn"): 5 to 25
    times cheaper than a table per world."""
    pair_part: dict[tuple[int, int], float] = {}
    by_rights: dict[tuple[int, int], dict[tuple[bool, ...], float]] = {}
    hand: list[int] = []
    own: ArbTable | None = None
    total = 0.0
    for world, weight in zip(worlds, weights, strict=True):
        total += weight
        hand, mine, own, by_kept = _scored_parts(world, species_count)
        for pair, (changed, points, _, other) in by_kept.items():
            pair_part[pair] = pair_part.get(pair, 0.0) + weight * (points - other)
            wanted = tuple(_wanted(mine, changed))
            shares = by_rights.setdefault(pair, {})
            shares[wanted] = shares.get(wanted, 0.0) + weight
    assert own is not None, "no world"
    gains = {card: dict(own.gains(card)) for card in hand}
    found: dict[Finish, float] = {}
    for card in hand:
        for cell in own.cells:
            better = gains[card].get(cell, ())
            for discard in hand:
                if discard == card:
                    continue
                pair = (min(card, discard), max(card, discard))
                added = sum(share * sum(g for s, g in better if wanted[s]) for wanted, share in by_rights[pair].items())
                found[(card, cell, discard)] = (pair_part[pair] + added) / total
    return found


# -- the turns that can end the game ----------------------------------------------------------------


def play_out(
    position: LeanPosition,
    species_count: int,
    lookahead: int = LOOKAHEAD,
    greedy_turns: int | None = None,
    replies: int = REPLIES,
) -> list[int]:
    """Each seat's final score once the game is played out: by the greedy bot for
    ``greedy_turns`` turns (default: the rollout's greedy rounds), the light player after them,
    every turn that can end the game (the deck at most ENDING_DECK) by :func:`ending_turn`, and
    the first ``replies`` turns that can leave the next player such a turn by :func:`best_reply`."""
    if greedy_turns is None:
        greedy_turns = GREEDY_ROUNDS[position.seats] * position.seats
    while not position.over:
        deadline.check()
        if len(position.deck) <= ENDING_DECK:
            return ending_turn(position, species_count, lookahead, greedy_turns)
        if replies > 0 and len(position.deck) <= 2 * ENDING_DECK:
            return best_reply(position, species_count, lookahead, greedy_turns, replies - 1)
        if greedy_turns > 0:
            play_greedy_turn(position)
            greedy_turns -= 1
        else:
            play_policy_turn(position)
    return totals(position, species_count)


def ending_turn(position: LeanPosition, species_count: int, lookahead: int = 0, greedy_turns: int = 0) -> list[int]:
    """The final scores after the current player's turn, which can end the game, and the rest of
    the game: each pair of draws that empties the deck is finished exactly; with ``lookahead``,
    each pair that keeps the game going is finished by the greedy bot and the others reply by
    the same rule (``lookahead - 1``). The player takes the pair best for their own margin."""
    seat = position.current
    best: list[int] | None = None
    for pair in draw_pairs(position):
        deadline.check()
        ends = empties_deck(position, pair)
        if not ends and lookahead <= 0:
            continue
        probe = position.copy()
        probe.draw(pair[0])
        probe.draw(pair[1])
        if ends:
            scores = best_final(probe, species_count)[1]
        else:
            probe.finish(*greedy_finish(probe))
            scores = play_out(probe, species_count, lookahead - 1, max(0, greedy_turns - 1), 0)
        if best is None or margin(scores, seat) > margin(best, seat):
            best = scores
    assert best is not None  # a deck of one or two cards can always be emptied
    return best


def best_reply(
    position: LeanPosition, species_count: int, lookahead: int = 0, greedy_turns: int = 0, replies: int = 0
) -> list[int]:
    """The final scores after the current player's turn, which may leave the next player one that
    can end the game, and the rest of the game: each pair of draws finished by the greedy bot and
    the game played out (the next player's end exactly); the player takes the pair best for their
    own margin, as :func:`ending_turn` does."""
    seat = position.current
    best: list[int] | None = None
    for pair in draw_pairs(position):
        deadline.check()
        probe = position.copy()
        probe.draw(pair[0])
        probe.draw(pair[1])
        probe.finish(*greedy_finish(probe))
        scores = play_out(probe, species_count, lookahead, max(0, greedy_turns - 1), replies)
        if best is None or margin(scores, seat) > margin(best, seat):
            best = scores
    assert best is not None  # draw_pairs gives at least the pair of skipped draws
    return best


__all__ = [
    "ENDING_DECK",
    "LOOKAHEAD",
    "REPLIES",
    "best_final",
    "mean_finals",
    "best_reply",
    "canonical",
    "draw_pairs",
    "empties_deck",
    "ending_turn",
    "final_finishes",
    "near_end",
    "paths_through",
    "play_out",
]
