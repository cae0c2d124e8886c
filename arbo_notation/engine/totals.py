"""Each player's total score, fast, without a score sheet: the hand sums and the rights, and the
points of the best path of each species a player may score. The fast path of a check, a replay's
result and the analysis; scoring.py's sheet, which says how each total is made up, is the
reference (tests/engine/test_scoring.py holds the two equal on any table).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from arbo_notation.engine.cards import MAX_VALUE, MIN_VALUE, Card, Coord

#: Paths of at least this many cards, all of the scored species, earn +1 per card.
SAME_SPECIES_MIN_LENGTH: Final = 4


@dataclass(frozen=True, slots=True)
class PlayerPosition:
    """One player at the end: their arboretum and the hand they reveal."""

    name: str
    arboretum: Mapping[Coord, Card]
    hand: tuple[Card, ...]


#: One player at the end as the score reads them: their name, arboretum and hand.
Seat = tuple[str, Mapping[Coord, Card], Iterable[Card]]


def score_totals(species: Sequence[str], players: Sequence[PlayerPosition], only: str | None = None) -> dict[str, int]:
    """Each player's total, as score_position counts it, without the sheet's details (the total
    of player ``only`` alone, when given: every hand still counts for the rights)."""
    return seat_totals(species, [(player.name, player.arboretum, player.hand) for player in players], only)


def seat_totals(species: Sequence[str], seats: Sequence[Seat], only: str | None = None) -> dict[str, int]:
    """score_totals of the seats' names, arboretums and hands as they stand: Game.final_totals
    scores a check's game without building the end table's frozen PlayerPositions (with one
    search a species, _most_points: a greedy-2p game's check 1,152k -> 1,131k instructions,
    cachegrind).

    The fast path of a check and of a replay's result: the hand sums in one pass over the hands,
    each arboretum's trees sorted by species in one pass, and each species' paths climbed only to
    its highest tree (tests/engine/test_scoring.py holds the totals to the sheet's on any table)."""
    sums = _held_sums(seats)
    in_play = set(species)
    totals = {}
    for name, arboretum, _ in seats:
        if only is not None and name != only:
            continue
        rising: dict[Coord, list[Coord]] = {}
        total = 0
        trees, highest = _trees_by_species(arboretum)
        for code, cells in trees.items():
            if len(cells) < 2 or code not in in_play:
                continue  # fewer than two trees of it (a path starts and ends on one)
            # The highest sum found where it is asked, not in a comprehension over every species
            # held: 199.2k -> 193.4k instructions a game.
            held = sums.get(code)
            if held is not None and held.get(name, 0) != max(held.values()):
                continue  # no right to score it
            total += _most_points(arboretum, rising, cells, code, highest[code])
        totals[name] = total
    return totals


def _held_sums(seats: Sequence[Seat]) -> dict[str, dict[str, int]]:
    """The hand sums of each species held, by holder (as all_hand_sums counts them; a player who
    holds none of it sums 0)."""
    sums: dict[str, dict[str, int]] = {}
    ones: dict[str, set[str]] = {}
    eights = []
    for name, _, hand in seats:
        for card in hand:
            code, value = card.species, card.value
            held = sums.get(code)
            if held is None:
                held = sums[code] = {name: value}
            else:
                held[name] = held.get(name, 0) + value
            if value == MIN_VALUE:
                ones.setdefault(code, set()).add(name)
            elif value == MAX_VALUE:
                eights.append((code, name))
    for code, name in eights:
        if not ones.get(code, set()) <= {name}:  # an opponent holds its 1: the 8 counts nothing
            sums[code][name] -= MAX_VALUE
    return sums


def _trees_by_species(arboretum: Mapping[Coord, Card]) -> tuple[dict[str, list[Coord]], dict[str, int]]:
    """Each species' trees (their cells, in the arboretum's order) and its highest value."""
    trees: dict[str, list[Coord]] = {}
    highest: dict[str, int] = {}
    for cell, card in arboretum.items():
        code = card.species
        cells = trees.get(code)
        if cells is None:
            trees[code] = [cell]
            highest[code] = card.value
        else:
            cells.append(cell)
            if card.value > highest[code]:
                highest[code] = card.value
    return trees, highest


def best_points(arboretum: Mapping[Coord, Card], species: Iterable[str] | None = None) -> dict[str, int]:
    """The points of each species' best path, as best_paths finds it, without building the path
    (the same search, keeping only the most points: no path, no order of the starts)."""
    trees, highest = _trees_by_species(arboretum)
    wanted = trees.keys() if species is None else set(species)
    rising: dict[Coord, list[Coord]] = {}
    best = {}
    for code, cells in trees.items():
        if len(cells) >= 2 and code in wanted:  # a path starts and ends on a tree of its species
            most = _most_points(arboretum, rising, cells, code, highest[code])
            if most:
                best[code] = most
    return best


_AROUND: dict[Coord, tuple[Coord, Coord, Coord, Coord]] = {}  # cells are interned: one entry a cell
_MAX_AROUND: Final = 1 << 16


def _around(cell: Coord) -> tuple[Coord, Coord, Coord, Coord]:
    """The four neighbours of a cell, by x then y (so a search meets paths in that order)."""
    x, y = cell.x, cell.y
    if len(_AROUND) >= _MAX_AROUND:  # a cache: hostile records cannot grow it without limit
        _AROUND.clear()
    around = _AROUND[cell] = (Coord(x - 1, y), Coord(x, y - 1), Coord(x, y + 1), Coord(x + 1, y))
    return around


# The search is plain functions, not closures: a recursive closure is a reference cycle, which
# only the cyclic collector frees, and a check should leave nothing for it (test_notation_scanner_lines.py).


def higher_neighbours(trees: Mapping[Coord, Card], rising: dict[Coord, list[Coord]], cell: Coord) -> list[Coord]:
    """The cells next to ``cell`` that hold a higher tree (by x then y), remembered in ``rising``:
    the steps a path may take from there."""
    value = trees[cell].value
    around = _AROUND.get(cell) or _around(cell)
    # A loop, not a comprehension, which Python 3.11 calls as a function: score_totals 213.6k ->
    # 199.2k instructions a greedy-2p game (cachegrind).
    found: list[Coord] = []
    for n in around:
        if n in trees and trees[n].value > value:
            found.append(n)
    rising[cell] = found
    return found


def _most_points(
    trees: Mapping[Coord, Card], rising: dict[Coord, list[Coord]], starts: Iterable[Coord], code: str, top: int
) -> int:
    """scoring._extend for the points alone: the most points of a rising path of ``code`` from any
    of ``starts`` (its trees), whose highest tree is ``top`` (a step onto a tree as high ends
    every path that goes on: none of them can end on ``code``); 0 when there is none.

    One stack for every start of the species, not a search a start: a greedy-2p game's score
    climbs 6.5 starts in 14.6 steps, and each start's call and set-up cost about as much as its
    steps (score_totals 217.1k -> 213.6k instructions a game, cachegrind). A stack, not
    recursion: a call a step cost more than the step."""
    most = 0
    stack = []  # (the end of a path, the length of a path one step on, all of code, its start's bonus)
    for start in starts:
        value = trees[start].value
        if value < top:
            stack.append((start, 2, True, 1 if value == MIN_VALUE else 0))
    while stack:
        last, length, all_same, start_bonus = stack.pop()
        nexts = rising.get(last)
        if nexts is None:
            nexts = higher_neighbours(trees, rising, last)
        for nxt in nexts:
            card = trees[nxt]
            value = card.value
            if card.species == code:
                points = length + start_bonus + (2 if value == MAX_VALUE else 0)
                if all_same and length >= SAME_SPECIES_MIN_LENGTH:
                    points += length
                if points > most:
                    most = points
                if value < top and rising.get(nxt, True):  # not a tree known to have no higher neighbour
                    stack.append((nxt, length + 1, all_same, start_bonus))
            elif value < top and rising.get(nxt, True):
                stack.append((nxt, length + 1, False, start_bonus))
    return most
