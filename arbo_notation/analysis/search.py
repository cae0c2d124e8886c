"""Judging one decision: candidates from the policy, valued by determinized Monte Carlo or exactly.

A turn is two decisions, each judged from what the mover knew when making it:

* the draws, at the start of the turn: each candidate pair of sources is played in every sampled
  world, the turn finished by the greedy bot and the game played out by the rollout policy;
* the planting and discard, once the draws are in hand (the mover has seen the cards drawn):
  each candidate is played in every sampled world and the game played out.

A candidate's value is the mean final margin of the mover (their score minus the best other
score) over the same worlds for every candidate (common random numbers: the comparison is much
less noisy than the values). Where nothing the outcome depends on is hidden -- one world agrees
with what the mover knows and the game ends with this turn -- every legal choice is scored
exactly instead, and the decision is marked exact.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from array import array
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping, Sequence

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.lean import FROM_DECK, Cards, LeanPosition, cell_of, margin, totals
from arbo_notation.engine.greedy import choose_finish as greedy_finish
from arbo_notation.analysis.policy import link, play_out, ranked_discards, ranked_plantings
from arbo_notation.analysis.sampling import Unseen

#: Plantings the policy proposes for a finish, and discards tried with each.
PLANTINGS_TRIED = 4
DISCARDS_TRIED = 2
#: Discard piles whose top is considered for a draw, besides the deck (the best linking ones).
PILES_TRIED = 2

#: A pair of draw sources: a seat's pile, FROM_DECK, or None for a skipped draw.
Sources = tuple[int | None, int | None]
#: A finish: the card planted, its cell, the card discarded (lean ints).
Finish = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Situation:
    """What the mover knows at a decision: the public table, their whole hand, where the unseen
    cards may be. Made from the mover's knowledge and the public table only (never another
    hand, never the deck's order)."""

    players: tuple[str, ...]
    species: tuple[str, ...]
    mover: str
    hand: tuple[Card, ...]
    arboretums: Mapping[str, Mapping[Coord, Card]]
    piles: Mapping[str, tuple[Card, ...]]  # bottom first
    known: Mapping[str, tuple[Card, ...]]  # cards known to be in the other hands
    unseen: Unseen

    @property
    def seat(self) -> int:
        return self.players.index(self.mover)

    def after_draws(self, drawn: Sequence[tuple[str | None, Card]]) -> "Situation":
        """The situation once the mover drew these (source owner or None for the deck, card)."""
        piles = {p: list(cards) for p, cards in self.piles.items()}
        from_deck = []
        for owner, card in drawn:
            if owner is None:
                from_deck.append(card)
            else:
                piles[owner].pop()
        return Situation(
            self.players,
            self.species,
            self.mover,
            tuple(sorted(self.hand + tuple(c for _, c in drawn))),
            self.arboretums,
            {p: tuple(c) for p, c in piles.items()},
            self.known,
            self.unseen.without(tuple(from_deck)),
        )

    def world(self, cards: Cards, rng: random.Random | None) -> LeanPosition:
        """A lean position of one world: the unseen cards dealt by ``rng`` (None: the one world)."""
        if rng is None:
            unique = self.unseen.unique() or {}
            dealt = {p: unique.get(p, []) for p in self.players}
            deck = list(unique.get(None, []))
        else:
            dealt, deck = self.unseen.deal(rng)
        code = cards.code
        hands = []
        for player in self.players:
            if player == self.mover:
                hands.append([code(c) for c in self.hand])
            else:
                hands.append([code(c) for c in (*self.known.get(player, ()), *dealt.get(player, ()))])
        return LeanPosition(
            hands,
            [code(c) for c in deck],
            [[code(c) for c in self.piles[p]] for p in self.players],
            [{cell_of(coord): code(card) for coord, card in self.arboretums[p].items()} for p in self.players],
            self.seat,
        )


@dataclass(frozen=True, slots=True)
class Judgement:
    """The values of a decision's candidates (mean final margin), and how they were found."""

    values: Mapping  # candidate -> value
    samples: int
    exact: bool
    #: candidate -> its margin in each sampled world, in the worlds' order (empty when exact);
    #: an array of ints, 4 bytes a world, for the gain's standard error (the worlds are not kept)
    margins: Mapping = dataclasses.field(default_factory=dict)

    def best(self):
        """The best candidate played in every world (the first met among equals: the played one
        comes first)."""
        full = [c for c in self.values if self.exact or len(self.margins.get(c, ())) == self.samples]
        return max(full or self.values, key=lambda c: self.values[c])

    def gain(self, candidate, over) -> tuple[float, float]:
        """How much better ``candidate`` is than ``over``: the mean of their difference world by
        world, and that mean's standard error (0 when exact, or for a single world)."""
        gain = self.values[candidate] - self.values[over]
        if self.exact or len(self.margins.get(candidate, ())) < 2:
            return gain, 0.0
        diffs = [a - b for a, b in zip(self.margins[candidate], self.margins[over], strict=False)]
        mean = sum(diffs) / len(diffs)
        variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        return gain, (variance / len(diffs)) ** 0.5


def draw_pairs(position: LeanPosition) -> list[Sources]:
    """Every distinct pair of draws the mover may make (draws from two different places commute)."""
    pairs: dict[tuple, Sources] = {}
    firsts: Sequence[int | None] = position.sources() or [None]
    for first in firsts:
        probe = position.copy()
        probe.draw(first)
        seconds: Sequence[int | None] = probe.sources() or [None]
        for second in seconds:
            key = (first, second) if first == second else tuple(sorted((first, second), key=_source_key))
            pairs.setdefault(key, (first, second))
    return list(pairs.values())


def _source_key(source: int | None) -> int:
    return -2 if source is None else source


def canonical(pair: Sources) -> tuple:
    first, second = pair
    return pair if first == second else tuple(sorted(pair, key=_source_key))


def draw_candidates(position: LeanPosition, played: Sources | None) -> list[Sources]:
    """The pairs worth judging: the played one first, then those drawing from the deck or the
    best-linking piles."""
    seat = position.current
    cells = position.frontier(seat)
    links = sorted(
        (
            (max(link(position.arbs[seat], pile[-1], cell) for cell in cells), owner)
            for owner, pile in enumerate(position.piles)
            if pile
        ),
        reverse=True,
    )
    allowed = {FROM_DECK, None} | {owner for link, owner in links[:PILES_TRIED]}
    chosen: list[Sources] = []
    if played is not None:
        chosen.append(played)
    seen = {canonical(p) for p in chosen}
    for pair in draw_pairs(position):
        if canonical(pair) not in seen and (pair[0] in allowed and pair[1] in allowed):
            chosen.append(pair)
            seen.add(canonical(pair))
    return chosen


def finish_candidates(position: LeanPosition, played: Finish | None) -> list[Finish]:
    """The finishes worth judging: the played one first, the greedy bot's, then the light
    player's best plantings, each with its best discards."""
    seat = position.current
    chosen: list[Finish] = [played] if played is not None else []
    greedy_choice = greedy_finish(position)
    if greedy_choice not in chosen:
        chosen.append(greedy_choice)
    plantings = ranked_plantings(position, seat)
    used: set[int] = set()
    for _, card, cell in plantings:
        if len(used) >= PLANTINGS_TRIED:
            break
        if card in used:
            continue  # one cell per card: different cards differ more than cells do
        used.add(card)
        for discard in ranked_discards(position, seat, card, cell)[:DISCARDS_TRIED]:
            finish = (card, cell, discard)
            if finish not in chosen:
                chosen.append(finish)
    return chosen


def all_finishes(position: LeanPosition) -> list[Finish]:
    seat = position.current
    hand = sorted(position.hands[seat])
    cells = position.frontier(seat)
    return [(card, cell, discard) for card in hand for cell in cells for discard in hand if discard != card]


def _finish_value(position: LeanPosition, finish: Finish, species_count: int) -> int:
    probe = position.copy()
    probe.finish(*finish)
    play_out(probe)
    return margin(totals(probe, species_count), position.current)


def _pair_value(position: LeanPosition, pair: Sources, species_count: int) -> int:
    """The margin after these draws, the turn finished by the greedy bot and the game played out;
    when the draws empty the deck, the turn is the game's last and the mover, who then knows
    every card (their hand; the unseen ones are the other hands'), finishes it best."""
    probe = position.copy()
    probe.draw(pair[0])
    probe.draw(pair[1])
    if not probe.deck:
        return _exact_best_finish(probe, species_count)
    probe.finish(*greedy_finish(probe))
    play_out(probe)
    return margin(totals(probe, species_count), position.current)


def _exact_best_finish(position: LeanPosition, species_count: int) -> int:
    """The best margin over every legal finish of a turn that ends the game."""
    return max(_exact_finishes(position, species_count).values())


def _exact_finishes(position: LeanPosition, species_count: int) -> dict[Finish, int]:
    """The margin of every legal finish of a turn that ends the game."""
    values = {}
    for finish in all_finishes(position):
        probe = position.copy()
        probe.finish(*finish)
        values[finish] = margin(totals(probe, species_count), position.current)
    return values


def judge_finish(
    situation: Situation, played: Finish | None, budget: int, rng: random.Random, finalists: int | None = None
) -> Judgement:
    """Values of the finishes (the draws in hand): exact when the game ends with this turn in
    the one world the mover's knowledge allows, else Monte Carlo over ``budget`` worlds (with
    ``finalists``, only that many and the played one in every world: see :func:`_margins`)."""
    cards = Cards(situation.species)
    count = len(situation.species)
    unique = situation.unseen.unique() is not None
    if unique:
        position = situation.world(cards, None)
        if not position.deck:
            exact = _exact_finishes(position, count)
            ahead = [played] if played in exact else []  # the played one first: it wins ties
            return Judgement({f: float(exact[f]) for f in ahead + [f for f in exact if f != played]}, 1, True)
        worlds, budget = iter([position]), 1
    else:
        worlds = sampled_worlds(situation, cards, rng, budget)
    first = next(worlds)
    candidates = finish_candidates(first, played)
    return _sampled(
        _margins(
            itertools.chain([first], worlds),
            candidates,
            lambda w, f: _finish_value(w, f, count),
            finalists,
            played,
            budget,
        )
    )


def judge_draws(
    situation: Situation, played: Sources | None, budget: int, rng: random.Random, finalists: int | None = None
) -> Judgement:
    """Values of the pairs of draws at the start of a turn, the turn finished by the policy (or,
    when the one world is known and every pair ends the game, by the best finish exactly);
    ``finalists`` as for :func:`judge_finish`."""
    cards = Cards(situation.species)
    count = len(situation.species)
    if situation.unseen.unique() is not None:
        position = situation.world(cards, None)
        candidates = draw_candidates(position, played)
        if len(position.deck) <= 2 and all(_empties_deck(position, pair) for pair in candidates):
            values = {}
            for pair in candidates:
                probe = position.copy()
                probe.draw(pair[0])
                probe.draw(pair[1])
                values[pair] = float(_exact_best_finish(probe, count))
            return Judgement(values, 1, True)
        worlds, budget = iter([position]), 1
    else:
        worlds = sampled_worlds(situation, cards, rng, budget)
        position = next(worlds)
        candidates = draw_candidates(position, played)
    return _sampled(
        _margins(
            itertools.chain([position], worlds),
            candidates,
            lambda w, p: _pair_value(w, p, count),
            finalists,
            played,
            budget,
        )
    )


def sampled_worlds(situation: Situation, cards: Cards, rng: random.Random, budget: int) -> Iterator[LeanPosition]:
    """``budget`` worlds dealt by ``rng``, one at a time as they are asked for: a decision holds
    one world at a time, whatever the budget."""
    for _ in range(budget):
        yield situation.world(cards, rng)


#: With finalists, the share of the worlds in which every candidate is played out.
HEATS = 4


def _margins(
    worlds: Iterable[LeanPosition], candidates: list, value, finalists: int | None, played, count: int | None = None
) -> dict:
    """Each candidate's margin world by world, the ``count`` worlds (all of a list) taken one at a
    time. With ``finalists``: every candidate in the first quarter of the worlds, then only the
    best ``finalists`` of them (and the played one) in the rest, so that the budget goes to the
    candidates that can still be best."""
    if count is None:
        worlds = list(worlds)
        count = len(worlds)
    margins = {c: array("i") for c in candidates}
    heats = finalists is not None and len(candidates) > finalists + 1 and count >= 2 * HEATS
    heat = count // HEATS if heats else count
    going_on = candidates
    for index, world in enumerate(worlds):
        if index == heat:
            ranked = sorted(candidates, key=lambda c: -sum(margins[c]))  # stable: the played one first
            going_on = ranked[:finalists] + (
                [played] if played in candidates and played not in ranked[:finalists] else []
            )
        for c in going_on:
            margins[c].append(value(world, c))
    return margins


def _sampled(margins: Mapping) -> Judgement:
    """Each candidate's value is its mean margin; a candidate dropped after the heats keeps the
    mean of the worlds it was played in (and cannot be :meth:`Judgement.best`)."""
    worlds = max(len(m) for m in margins.values())
    return Judgement({c: sum(m) / len(m) for c, m in margins.items()}, worlds, False, dict(margins))


def _empties_deck(position: LeanPosition, pair: Sources) -> bool:
    return sum(source == FROM_DECK for source in pair) >= len(position.deck)


__all__ = [
    "Finish",
    "Judgement",
    "Situation",
    "Sources",
    "all_finishes",
    "draw_candidates",
    "draw_pairs",
    "finish_candidates",
    "judge_draws",
    "judge_finish",
    "sampled_worlds",
]
