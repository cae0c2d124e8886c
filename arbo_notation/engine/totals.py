"""Each player's total score, fast, without a score sheet: the hand sums and the rights, and the
points of the best path of each species a player may score. The fast path of a check, a replay's
result and the analysis; scoring.py's sheet, which says how each total is made up, is the
reference (tests/engine/test_scoring.py holds the two equal on any table).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from arbo_notation.engine.cards import MAX_VALUE, MIN_VALUE, Card, Coord

#: Paths of at least this many cards, all of the scored species, earn +1 per card.
SAME_SPECIES_MIN_LENGTH = 4


@dataclass(frozen=True, slots=True)
class PlayerPosition:
    """One player at the end: their arboretum and the hand they reveal."""

    name: str
    arboretum: Mapping[Coord, Card]
    hand: tuple[Card, ...]


def score_totals(species: Sequence[str], players: Sequence[PlayerPosition], only: str | None = None) -> dict[str, int]:
    """Each player's total, as score_position counts it, without the sheet's details (the total
    of player ``only`` alone, when given: every hand still counts for the rights).

    The fast path of a check and of a replay's result: the hand sums in one pass over the hands,
    each arboretum's trees sorted by species in one pass, and each path climbed only to the
    highest tree of its species (tests/engine/test_scoring.py holds the totals to the sheet's on any
    table)."""
    sums, tops = _held_sums(players)
    in_play = set(species)
    totals = {}
    for player in players:
        name = player.name
        if only is not None and name != only:
            continue
        arboretum = player.arboretum
        rising: dict[Coord, list[Coord]] = {}
        best: dict[str, int] = {}
        trees, highest = _trees_by_species(arboretum)
        for code, cells in trees.items():
            if len(cells) < 2 or code not in in_play or (code in sums and sums[code].get(name, 0) != tops[code]):
                continue  # fewer than two trees of it (a path starts and ends on one), or no right to score it
            top = highest[code]
            for start in cells:
                value = arboretum[start].value
                if value < top:
                    _climb(arboretum, rising, best, start, code, 1 if value == MIN_VALUE else 0, top)
        totals[name] = sum(best.values())
    return totals


def _held_sums(players: Sequence[PlayerPosition]) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """The hand sums of each species held, by holder (as all_hand_sums counts them; a player who
    holds none of it sums 0), and each such species' highest sum."""
    sums: dict[str, dict[str, int]] = {}
    ones: dict[str, set[str]] = {}
    eights = []
    for player in players:
        name = player.name
        for card in player.hand:
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
    return sums, {code: max(held.values()) for code, held in sums.items()}


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
    planted = [card.species for card in arboretum.values()]
    wanted = {code for code in (set(planted) if species is None else species) if planted.count(code) >= 2}
    if not wanted:
        return {}
    tops = dict.fromkeys(wanted, 0)  # each species' highest tree: no path of it climbs past that
    for card in arboretum.values():
        if card.value > tops.get(card.species, MAX_VALUE):
            tops[card.species] = card.value
    rising: dict[Coord, list[Coord]] = {}
    best: dict[str, int] = {}
    for start, card in arboretum.items():
        code = card.species
        if code in wanted and card.value < tops[code]:
            _climb(arboretum, rising, best, start, code, 1 if card.value == MIN_VALUE else 0, tops[code])
    return best


_AROUND: dict[Coord, tuple[Coord, Coord, Coord, Coord]] = {}  # cells are interned: one entry a cell
_MAX_AROUND = 1 << 16


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
    found = rising[cell] = [n for n in around if n in trees and trees[n].value > value]
    return found


def _climb(
    trees: Mapping[Coord, Card],
    rising: dict[Coord, list[Coord]],
    best: dict[str, int],
    start: Coord,
    code: str,
    start_bonus: int,
    top: int,
) -> None:
    """scoring._extend for the points alone: every rising path from ``start``, keeping in ``best`` the most
    points of a path of ``code``, whose highest tree is ``top`` (a step onto a tree as high ends
    every path that goes on: none of them can end on ``code``). A stack, not recursion: the
    search of every game checked, where a call a step cost more than the step."""
    most = best.get(code, 0)
    stack = [(start, 2, True)]  # (the end of a path, the length of a path one step on, all of code)
    while stack:
        last, length, all_same = stack.pop()
        nexts = rising.get(last)
        if nexts is None:
            nexts = higher_neighbours(trees, rising, last)
        for nxt in nexts:
            card = trees[nxt]
            if card.species == code:
                points = length + start_bonus + (2 if card.value == MAX_VALUE else 0)
                if all_same and length >= SAME_SPECIES_MIN_LENGTH:
                    points += length
                if points > most:
                    most = points
                if card.value < top and rising.get(nxt, True):  # not a tree known to have no higher neighbour
                    stack.append((nxt, length + 1, all_same))
            elif card.value < top and rising.get(nxt, True):
                stack.append((nxt, length + 1, False))
    if most:
        best[code] = most
