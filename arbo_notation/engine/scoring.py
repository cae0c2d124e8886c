"""Scoring a finished table: the right to score each species, best paths, totals and the winner,
in a score sheet (the reference: the fast totals of totals.py are held to it by tests)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import Any, Callable, Iterable, Mapping, Sequence

from arbo_notation.engine.cards import MAX_VALUE, MIN_VALUE, Card, Coord
from arbo_notation.engine.totals import SAME_SPECIES_MIN_LENGTH, higher_neighbours

# Scoring's names, as they always were (the position it scores and the fast totals), exported as such.
from arbo_notation.engine.totals import PlayerPosition as PlayerPosition
from arbo_notation.engine.totals import best_points as best_points
from arbo_notation.engine.totals import score_totals as score_totals


@dataclass(frozen=True, slots=True)
class PathScore:
    """One path and its points split into the rulebook's four parts."""

    species: str
    cells: tuple[Coord, ...]
    cards: tuple[Card, ...]
    card_points: int  # 1 per card
    same_species_bonus: int  # +1 per card when 4+ cards all of the species
    start_bonus: int  # +1 when the path starts with a 1
    end_bonus: int  # +2 when the path ends with an 8

    @property
    def points(self) -> int:
        return self.card_points + self.same_species_bonus + self.start_bonus + self.end_bonus

    def breakdown(self) -> dict[str, int]:
        return {
            "cards": self.card_points,
            "same_species": self.same_species_bonus,
            "starts_with_1": self.start_bonus,
            "ends_with_8": self.end_bonus,
        }

    def __str__(self) -> str:
        return " ".join(f"{card}@{cell}" for card, cell in zip(self.cards, self.cells, strict=False))


def path_score(species: str, cells: Sequence[Coord], cards: Sequence[Card]) -> PathScore:
    """The points of a path given as its cells and cards, first to last (not checked for legality)."""
    length = len(cards)
    same = length >= SAME_SPECIES_MIN_LENGTH and all(c.species == species for c in cards)
    return PathScore(
        species=species,
        cells=tuple(cells),
        cards=tuple(cards),
        card_points=length,
        same_species_bonus=length if same else 0,
        start_bonus=1 if cards[0].value == MIN_VALUE else 0,
        end_bonus=2 if cards[-1].value == MAX_VALUE else 0,
    )


def is_path(species: str, cells: Sequence[Coord], arboretum: Mapping[Coord, Card]) -> bool:
    """Whether the cells form a scoring path of the species in the arboretum (RULES.md, Paths)."""
    if len(cells) < 2 or len(set(cells)) != len(cells) or any(c not in arboretum for c in cells):
        return False
    cards = [arboretum[c] for c in cells]
    if cards[0].species != species or cards[-1].species != species:
        return False
    steps = zip(cells, cells[1:], strict=False)
    return all(a.is_adjacent(b) for a, b in steps) and all(
        x.value < y.value for x, y in zip(cards, cards[1:], strict=False)
    )


def best_paths(arboretum: Mapping[Coord, Card], species: Iterable[str] | None = None) -> dict[str, PathScore]:
    """The best path of each species in an arboretum, found exhaustively.

    Best means most points, then most cards; among equals, the first in order of the starting
    cell (by x, then y) and then of the cells visited, so the answer is deterministic.
    A species with no path is absent from the result.
    """
    found = {}
    for code, (_, _, cells) in sorted(_search(arboretum, species).items()):
        found[code] = path_score(code, cells, [arboretum[c] for c in cells])
    return found


_BY_X_THEN_Y = attrgetter("x", "y")


def _extend(
    trees: Mapping[Coord, Card],
    rising: dict[Coord, list[Coord]],
    best: dict[str, tuple[int, int, tuple[Coord, ...]]],
    path: list[Coord],
    code: str,
    all_same: bool,
    start_bonus: int,
) -> None:
    """Follow every rising step from the end of ``path``, keeping in ``best`` each better path of ``code``."""
    last = path[-1]
    nexts = rising.get(last)
    for nxt in higher_neighbours(trees, rising, last) if nexts is None else nexts:
        card = trees[nxt]
        path.append(nxt)
        same = all_same and card.species == code
        if card.species == code:
            length = len(path)
            points = length + (length if same and length >= SAME_SPECIES_MIN_LENGTH else 0)
            points += start_bonus + (2 if card.value == MAX_VALUE else 0)
            held = best.get(code)
            if held is None or (points, length) > held[:2]:
                best[code] = (points, length, tuple(path))
        _extend(trees, rising, best, path, code, same, start_bonus)
        path.pop()


def _search(
    arboretum: Mapping[Coord, Card], species: Iterable[str] | None
) -> dict[str, tuple[int, int, tuple[Coord, ...]]]:
    """Per species, the best path's points, its length and its cells (as best_paths orders them)."""
    planted = [card.species for card in arboretum.values()]
    wanted = {code for code in (set(planted) if species is None else species) if planted.count(code) >= 2}
    if not wanted:  # a path starts and ends on trees of its species: it needs two of them
        return {}
    starts = sorted((cell for cell, card in arboretum.items() if card.species in wanted), key=_BY_X_THEN_Y)
    rising: dict[Coord, list[Coord]] = {}  # filled as the search reaches cells
    best: dict[str, tuple[int, int, tuple[Coord, ...]]] = {}
    for start in starts:
        card = arboretum[start]
        _extend(arboretum, rising, best, [start], card.species, True, 1 if card.value == MIN_VALUE else 0)
    return best


def all_hand_sums(species: Iterable[str], hands: Mapping[str, Sequence[Card]]) -> dict[str, dict[str, int]]:
    """Every player's hand sum in every species, in one pass over the hands.

    An 8 counts 0 when an *opponent* holds that species' 1; one's own 1 cancels nothing.
    """
    sums = {code: dict.fromkeys(hands, 0) for code in species}
    ones: dict[str, set[str]] = {}
    eights: list[tuple[str, str]] = []
    for player, hand in hands.items():
        for card in hand:
            per_player = sums.get(card.species)
            if per_player is None:
                continue
            if card.value == MAX_VALUE:
                eights.append((card.species, player))
                continue
            if card.value == MIN_VALUE:
                ones.setdefault(card.species, set()).add(player)
            per_player[player] += card.value
    for code, player in eights:
        if _canceller(ones, code, player) is None:
            sums[code][player] += MAX_VALUE
    return sums


def _canceller(ones: Mapping[str, set[str]], code: str, player: str) -> str | None:
    """The opponent whose 1 of ``code`` makes ``player``'s 8 of it count 0 (the first by name), or None."""
    opponents = ones.get(code, set()) - {player}
    return min(opponents) if opponents else None


def cancelled_eights(species: Iterable[str], hands: Mapping[str, Sequence[Card]]) -> dict[tuple[str, str], str]:
    """For each (species, player) whose 8 counts 0 in the hand sum, the opponent holding its 1."""
    wanted = set(species)
    ones: dict[str, set[str]] = {}
    for player, hand in hands.items():
        for card in hand:
            if card.value == MIN_VALUE and card.species in wanted:
                ones.setdefault(card.species, set()).add(player)
    cancelled = {}
    for player, hand in hands.items():
        for card in hand:
            if card.value == MAX_VALUE and card.species in wanted:
                by = _canceller(ones, card.species, player)
                if by is not None:
                    cancelled[(card.species, player)] = by
    return cancelled


def hand_sums(species: str, hands: Mapping[str, Sequence[Card]]) -> dict[str, int]:
    """Each player's hand sum in a species; an 8 counts 0 when an *opponent* holds that species' 1."""
    return all_hand_sums((species,), hands)[species]


def rights_from_sums(species: str, sums: Mapping[str, int], hands: Mapping[str, Sequence[Card]]) -> set[str]:
    """Who may score the species, given the hand sums: the highest sum, ties included; everyone
    when nobody holds the species (a sum can be 0 while an 8 is held, so the hands are asked)."""
    if not any(card.species == species for hand in hands.values() for card in hand):
        return set(hands)
    return _top(sums)


def _top(sums: Mapping[str, int]) -> set[str]:
    top = max(sums.values())
    return {p for p, s in sums.items() if s == top}


def rights(species: str, hands: Mapping[str, Sequence[Card]]) -> set[str]:
    """Who may score the species: the highest hand sum, ties included; everyone when nobody holds it."""
    return rights_from_sums(species, hand_sums(species, hands), hands)


@dataclass(frozen=True, slots=True)
class SpeciesScore:
    """One player's scoring of one species. ``path`` is None without the right or without a path."""

    species: str
    hand_sum: int
    rights: bool
    path: PathScore | None
    eight_cancelled_by: str | None = None  # the opponent whose 1 makes this player's 8 count 0

    @property
    def points(self) -> int:
        return self.path.points if self.path is not None else 0


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    species: dict[str, SpeciesScore]
    species_planted: int  # different species in the arboretum: the tie-break
    total: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(s.points for s in self.species.values()))


class Tiebreak(StrEnum):
    """How a tie on points was settled."""

    SPECIES = "species"  # the count of species in the arboretum decided
    SHARED = "shared"  # still tied: the winners share the win


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The scoring of a whole table. ``tiebreak`` is None when the points alone decided."""

    species: tuple[str, ...]
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    tiebreak: Tiebreak | None = None
    game_over: bool = True  # False: a position during the game, scored as if it ended there

    def player(self, name: str) -> PlayerScore:
        return next(p for p in self.players if p.name == name)

    def totals(self) -> dict[str, int]:
        return {p.name: p.total for p in self.players}

    def to_json(self) -> dict[str, Any]:
        """JSON-able data, one game of `arbo score --json`: per player the total and each
        species' scoring (hand sum, right, points, path, cells, breakdown); the winners."""
        return {
            "species": list(self.species),
            "players": [
                {
                    "name": player.name,
                    "total": player.total,
                    "species_planted": player.species_planted,
                    "species": {code: _species_json(player.species[code]) for code in self.species},
                }
                for player in self.players
            ],
            "winners": list(self.winners),
            "tiebreak": None if self.tiebreak is None else str(self.tiebreak),
            "game_over": self.game_over,
        }


_ZERO_BREAKDOWN = {"cards": 0, "same_species": 0, "starts_with_1": 0, "ends_with_8": 0}


def _species_json(score: SpeciesScore) -> dict[str, Any]:
    path = score.path
    return {
        "hand_sum": score.hand_sum,
        "rights": score.rights,
        "points": score.points,
        "path": [str(card) for card in path.cards] if path else [],
        "cells": [[cell.x, cell.y] for cell in path.cells] if path else [],
        "breakdown": path.breakdown() if path else dict(_ZERO_BREAKDOWN),
    }


def _rights_and_paths(
    species: Sequence[str], players: Sequence[PlayerPosition], search: Callable[..., dict[str, Any]] = best_paths
) -> tuple[dict[str, dict[str, int]], dict[str, set[str]], dict[str, dict[str, Any]]]:
    """Hand sums, who holds each right, and what ``search`` (best_paths, or best_points for the
    totals alone) finds in each player's arboretum for the species the player holds."""
    sums = all_hand_sums(species, {p.name: p.hand for p in players})
    held = {card.species for p in players for card in p.hand}
    everyone = {p.name for p in players}
    holders = {code: _top(sums[code]) if code in held else everyone for code in species}
    found = {p.name: search(p.arboretum, [code for code in species if p.name in holders[code]]) for p in players}
    return sums, holders, found


def score_position(species: Sequence[str], players: Sequence[PlayerPosition], *, game_over: bool = True) -> ScoreSheet:
    """Score a table: rights per species, each right-holder's best path, totals, winner (before
    the end of the game, ``game_over`` false, as if the game ended there)."""
    sums, holders, paths = _rights_and_paths(species, players)
    cancelled = cancelled_eights(species, {p.name: p.hand for p in players})
    scored: list[PlayerScore] = []
    for player in players:
        per_species: dict[str, SpeciesScore] = {}
        for code in species:
            has_right = player.name in holders[code]
            per_species[code] = SpeciesScore(
                species=code,
                hand_sum=sums[code][player.name],
                rights=has_right,
                path=paths[player.name].get(code) if has_right else None,
                eight_cancelled_by=cancelled.get((code, player.name)),
            )
        planted = len({card.species for card in player.arboretum.values()})
        scored.append(PlayerScore(player.name, per_species, planted))
    winners, tiebreak = _winners(scored)
    return ScoreSheet(tuple(species), tuple(scored), winners, tiebreak, game_over)


def _winners(scores: Sequence[PlayerScore]) -> tuple[tuple[str, ...], Tiebreak | None]:
    if not scores:
        return (), None
    top = max(s.total for s in scores)
    leaders = [s for s in scores if s.total == top]
    if len(leaders) == 1:
        return (leaders[0].name,), None
    most = max(s.species_planted for s in leaders)
    still = [s for s in leaders if s.species_planted == most]
    if len(still) == 1:
        return (still[0].name,), Tiebreak.SPECIES
    return tuple(s.name for s in still), Tiebreak.SHARED
