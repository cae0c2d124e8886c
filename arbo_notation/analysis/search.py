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
from typing import Callable, Generic, Hashable, Iterable, Iterator, Mapping, Sequence, TypeVar

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.lean import FROM_DECK, Cards, LeanPosition, cell_of, margin, species_points, totals
from arbo_notation.engine.greedy import choose_finish as greedy_finish
from arbo_notation.analysis.policy import link, play_out, ranked_discards, ranked_plantings
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis import endgame
from arbo_notation.analysis.endgame import canonical, draw_pairs, empties_deck, near_end
from arbo_notation.analysis.listed import deck_splits, hands_unseen, listed_decks
from arbo_notation.analysis.splits import last_turn_outcome, split_groups
from arbo_notation.analysis.deadline import Deadline, OutOfTime, running
from arbo_notation.analysis.deadline import check as deadline_check

#: Plantings the policy proposes for a finish, and discards tried with each.
PLANTINGS_TRIED = 4
DISCARDS_TRIED = 2
#: Discard piles whose top is considered for a draw, besides the deck (the best linking ones).
PILES_TRIED = 2

#: A pair of draw sources: a seat's pile, FROM_DECK, or None for a skipped draw.
Sources = endgame.Sources
#: A finish: the card planted, its cell, the card discarded (lean ints).
Finish = endgame.Finish
#: Near the end, every legal finish of a turn that ends the game is a candidate when there are at
#: most this many (the last turns have some tens to a few hundred).
ALL_FINISHES_CAP = 1000
#: A share of a decision's candidates, ``(part, parts)``: those at ``part``, ``part + parts``, ...
#: of its list, valued in every world (pieces.py shares a heavy turn between workers so).
Share = tuple[int, int]


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


#: What a judgement weighs: a pair of draws (``Sources``) or a finish (``Finish``).
Candidate = TypeVar("Candidate", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Judgement(Generic[Candidate]):
    """The values of a decision's candidates (mean final margin), and how they were found."""

    values: Mapping[Candidate, float]
    samples: int
    exact: bool
    #: candidate -> its margin in each sampled world, in the worlds' order (empty when exact);
    #: an array of floats, 8 bytes a world (a last turn's value over the hands' splits is a mean), for the gain's standard error (the worlds are not kept)
    margins: Mapping[Candidate, array[float]] = dataclasses.field(default_factory=dict)
    #: each world's weight, in the worlds' order, when the worlds are listed with their
    #: probabilities (empty: sampled, equally likely)
    weights: Sequence[float] = ()
    #: False when every world that counts was listed: the values hold no sampling error
    sampled: bool = True

    def best(self) -> Candidate:
        """The best candidate played in every world (the first met among equals: the played one
        comes first)."""
        full = [c for c in self.values if self.exact or len(self.margins.get(c, ())) == self.samples]
        return max(full or self.values, key=lambda c: self.values[c])

    def gain(self, candidate: Candidate, over: Candidate) -> tuple[float, float]:
        """How much better ``candidate`` is than ``over``: the mean of their difference world by
        world, and that mean's standard error (0 when exact, or for a single world)."""
        gain = self.values[candidate] - self.values[over]
        if self.exact or not self.sampled or len(self.margins.get(candidate, ())) < 2:
            return gain, 0.0
        diffs = [a - b for a, b in zip(self.margins[candidate], self.margins[over], strict=False)]
        if self.weights:
            # weighted worlds (a listed deck, its hands dealt at random): the weighted mean's
            # standard error, over the effective number of worlds
            weights = self.weights[: len(diffs)]
            total = sum(weights)
            mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
            variance = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
            effective = total**2 / sum(w * w for w in weights)
            return gain, (variance / max(1.0, effective - 1)) ** 0.5
        mean = sum(diffs) / len(diffs)
        variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        return gain, (variance / len(diffs)) ** 0.5


def draw_candidates(position: LeanPosition, played: Sources | None) -> list[Sources]:
    """The pairs worth judging: the played one first, then those drawing from the deck or the
    best-linking piles; near the end of the game, every pair."""
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
    if near_end(position):
        allowed |= set(range(position.seats))
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
    player's best plantings, each with its best discards; every legal one when the turn ends
    the game (at most ALL_FINISHES_CAP of them)."""
    seat = position.current
    chosen: list[Finish] = [played] if played is not None else []
    if not position.deck:
        every = all_finishes(position)
        if len(every) <= ALL_FINISHES_CAP:
            return chosen + [f for f in every if f != played]
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


class _FinalTable:
    """The margins of every finish of a game-ending turn in the world last asked about (the
    candidates of a decision are valued world by world, so one table serves them all)."""

    def __init__(self, species_count: int) -> None:
        self.species_count = species_count
        self.world: LeanPosition | None = None  # held, so that it is not another world's id
        self.margins: dict[Finish, int] = {}

    def __call__(self, position: LeanPosition, finish: Finish) -> int:
        if position is not self.world:
            self.world = position
            seat = position.current
            self.margins = {f: margin(s, seat) for f, s in endgame.final_finishes(position, self.species_count).items()}
        return self.margins[finish]


def _rest_of_game(position: LeanPosition, species_count: int, exact_end: bool) -> list[int]:
    """The final scores once the game is played out by the rollout policy; with ``exact_end``,
    every turn that can end the game is played exactly (endgame.play_out)."""
    if exact_end:
        return endgame.play_out(position, species_count)
    play_out(position)
    return totals(position, species_count)


def _finish_value(position: LeanPosition, finish: Finish, species_count: int, exact_end: bool = False) -> int:
    probe = position.copy()
    probe.finish(*finish)
    return margin(_rest_of_game(probe, species_count, exact_end), position.current)


def _pair_value(position: LeanPosition, pair: Sources, species_count: int, exact_end: bool = False) -> int:
    """The margin after these draws, the turn finished by the greedy bot and the game played out;
    when the draws empty the deck, the turn is the game's last and the mover, who then knows
    every card (their hand; the unseen ones are the other hands'), finishes it best."""
    probe = position.copy()
    probe.draw(pair[0])
    probe.draw(pair[1])
    if not probe.deck:
        return _exact_best_finish(probe, species_count)
    probe.finish(*greedy_finish(probe))
    return margin(_rest_of_game(probe, species_count, exact_end), position.current)


#: Finishes judged, besides the greedy bot's, when the next player's turn can end the game: the
#: best of them as if the game ended with the mover's turn (the next player's exact reply is
#: valued for each, in every world).
BEFORE_LAST_FINISHES = 12


def _before_last(position: LeanPosition, pair: Sources) -> bool:
    """Whether the mover's draws leave the next player a turn that can end the game (and this one
    does not end it)."""
    left = len(position.deck) - sum(source == FROM_DECK for source in pair)
    return 0 < left <= endgame.ENDING_DECK


def before_last_finishes(
    probes: Sequence[LeanPosition],
    weights: Sequence[float],
    species_count: int,
    limit: int = BEFORE_LAST_FINISHES,
    deadline: Deadline | None = None,
) -> list[Finish]:
    """The finishes worth judging when the next player's turn can end the game: the ``limit``
    best over ``probes`` (worlds the mover cannot tell apart, their draws in hand) as if the game
    ended with this turn, then the greedy bot's; with ``deadline``, over the worlds summed in time
    (one at least)."""
    seat = probes[0].current
    proxy: dict[Finish, float] = {}
    total = sum(weights) if weights else len(probes)
    for index, probe in enumerate(probes):
        if index and deadline is not None and deadline.passed():
            break
        weight = (weights[index] if weights else 1.0) / total
        for finish, scores in endgame.final_finishes(probe, species_count).items():
            proxy[finish] = proxy.get(finish, 0.0) + weight * margin(scores, seat)
    # equal means (many cells score alike) in the finishes' order, whatever their sums' rounding
    chosen = sorted(proxy, key=lambda f: (-round(proxy[f], 6), f))[:limit]
    greedy_choice = greedy_finish(probes[0])
    return chosen if greedy_choice in chosen else [*chosen, greedy_choice]


def _before_last_margins(
    worlds: Sequence[LeanPosition],
    weights: Sequence[float],
    pair: Sources,
    species_count: int,
    deadline: Deadline | None = None,
) -> array[float] | None:
    """The mover's margin in each world after ``pair``, a turn that leaves the next player one that
    can end the game: in each group of worlds the mover cannot tell apart once the draws are seen,
    the finish best on average over the group (of :func:`before_last_finishes`), the rest of the
    game played out exactly (endgame.play_out: the next player's best end). None when
    ``deadline`` comes before a finish of every group is valued."""
    seat = worlds[0].current
    probes: list[LeanPosition] = []
    groups: dict[tuple[int, ...], list[int]] = {}
    for index, world in enumerate(worlds):
        probe = world.copy()
        seen = []
        for source in pair:
            card = probe.draw(source)
            if source == FROM_DECK and card is not None:
                seen.append(card)
        probes.append(probe)
        groups.setdefault(tuple(sorted(seen)), []).append(index)
    found = array("d", [0] * len(worlds))
    for members in groups.values():
        group = [probes[i] for i in members]
        group_weights = [weights[i] for i in members] if weights else []
        best: tuple[float, list[int]] | None = None
        for finish in before_last_finishes(group, group_weights, species_count, deadline=deadline):
            values = []
            for probe in group:
                if deadline is not None and deadline.passed():
                    break
                played = probe.copy()
                played.finish(*finish)
                try:
                    values.append(margin(endgame.play_out(played, species_count), seat))
                except OutOfTime:
                    break
                if deadline is not None:
                    deadline.took()
            if len(values) < len(group):  # out of time: the best of the finishes valued in time
                if best is None:
                    return None
                break
            mean = sum((group_weights[i] if group_weights else 1.0) * v for i, v in enumerate(values))
            if best is None or mean > best[0]:
                best = (mean, values)
        assert best is not None
        for i, value in zip(members, best[1], strict=True):
            found[i] = value
    return found


def _exact_best_finish(position: LeanPosition, species_count: int) -> int:
    """The best margin over every legal finish of a turn that ends the game."""
    return margin(endgame.best_final(position, species_count)[1], position.current)


def _exact_finishes(position: LeanPosition, species_count: int) -> dict[Finish, int]:
    """The margin of every legal finish of a turn that ends the game."""
    values = {}
    for finish in all_finishes(position):
        probe = position.copy()
        probe.finish(*finish)
        values[finish] = margin(totals(probe, species_count), position.current)
    return values


def judge_finish(
    situation: Situation,
    played: Finish | None,
    budget: int,
    rng: random.Random,
    finalists: int | None = None,
    deadline: Deadline | None = None,
    share: Share | None = None,
) -> Judgement[Finish]:
    """Values of the finishes (the draws in hand): exact when the game ends with this turn in
    the one world the mover's knowledge allows, else Monte Carlo over the listed worlds of a small
    deck or ``budget`` sampled ones (with ``finalists``, only that many and the played one in
    every sampled world: see :func:`_margins`). With ``deadline``, no more worlds are played once
    it comes (deadline.py): the values are those of the worlds played. With ``share`` (and no
    ``finalists``), only that share of the candidates, in the same worlds (:func:`merge_shares`)."""
    with running(deadline):
        return _judge_finish(situation, played, budget, rng, finalists, deadline, share)


def _judge_finish(
    situation: Situation,
    played: Finish | None,
    budget: int,
    rng: random.Random,
    finalists: int | None = None,
    deadline: Deadline | None = None,
    share: Share | None = None,
) -> Judgement[Finish]:
    """:func:`judge_finish`, the deadline running."""
    cards = Cards(situation.species)
    count = len(situation.species)
    if situation.unseen.unique() is not None:
        position = situation.world(cards, None)
        if not position.deck:
            table = endgame.final_finishes(position, count)
            exact = {f: margin(s, position.current) for f, s in table.items()}
            return Judgement(_played_first({f: float(m) for f, m in exact.items()}, played), 1, True)
    grouped = _last_turn_worlds(situation, cards) if situation.unseen.deck_size == 0 else None
    if grouped is not None:
        # the game ends with this turn: every finish's exact mean over the other hands' splits
        splits, split_weights, _ = grouped
        # past the deadline, the mean of the splits dealt in time (at least one)
        played_in_time = [next(splits), *_in_time(splits, deadline)]
        means = endgame.mean_finals(played_in_time, split_weights[: len(played_in_time)], count)
        whole = len(played_in_time) == len(split_weights)
        return Judgement(_played_first(means, played), len(played_in_time), whole, sampled=not whole)
    worlds, weights, sampled = _worlds(situation, cards, rng, budget)
    first = next(worlds)
    candidates = finish_candidates(first, played)
    exact_end = near_end(first)
    if 0 < len(first.deck) <= endgame.ENDING_DECK:
        # the next player's turn can end the game: the finishes best as if it ended now are
        # candidates too (their values are the next player's exact best reply)
        every = [first, *_in_time(worlds, deadline)]
        worlds = iter(every[1:])
        candidates += [f for f in before_last_finishes(every, weights, count, deadline=deadline) if f not in candidates]
    final = _FinalTable(count)

    def value(world: LeanPosition, finish: Finish) -> int:
        if not world.deck:
            return final(world, finish)
        return _finish_value(world, finish, count, exact_end)

    margins = _margins(
        itertools.chain([first], worlds),
        _shared(candidates, share),
        value,
        finalists if sampled and not weights else None,
        played,
        len(weights) or budget,
        deadline,
    )
    return _sampled(margins, weights, sampled, exact=not sampled and not first.deck)


def _played_first(values: Mapping[Finish, float], played: Finish | None) -> dict[Finish, float]:
    """The values with the played finish first, when it is among them: it wins ties."""
    leading = [played] if played is not None and played in values else []
    return {f: values[f] for f in leading + [f for f in values if f != played]}


def judge_draws(
    situation: Situation,
    played: Sources | None,
    budget: int,
    rng: random.Random,
    finalists: int | None = None,
    deadline: Deadline | None = None,
    share: Share | None = None,
) -> Judgement[Sources]:
    """Values of the pairs of draws at the start of a turn, the turn finished by the policy (or,
    when the draws empty the deck, by the best finish exactly); ``finalists``, ``deadline`` and
    ``share`` as for :func:`judge_finish` (a pair not valued in time is left out)."""
    with running(deadline):
        return _judge_draws(situation, played, budget, rng, finalists, deadline, share)


def _judge_draws(
    situation: Situation,
    played: Sources | None,
    budget: int,
    rng: random.Random,
    finalists: int | None = None,
    deadline: Deadline | None = None,
    share: Share | None = None,
) -> Judgement[Sources]:
    """:func:`judge_draws`, the deadline running."""
    cards = Cards(situation.species)
    count = len(situation.species)
    worlds, weights, sampled = _worlds(situation, cards, rng, budget)
    position = next(worlds)
    candidates = draw_candidates(position, played)
    exact_end = near_end(position)
    valued = _shared(candidates, share)
    before = [p for p in valued if not _before_last(position, p)]
    ending = _EndingValues(situation, cards)

    def pair_value(world: LeanPosition, pair: Sources) -> float:
        found = ending(world, pair)
        return _pair_value(world, pair, count, exact_end) if found is None else found

    if all(not _before_last(position, p) for p in candidates):
        margins = _margins(
            itertools.chain([position], worlds),
            valued,
            pair_value,
            finalists if sampled and not weights else None,
            played,
            len(weights) or budget,
            deadline,
        )
    else:
        # a pair leaving the next player a turn that can end the game: its finish is chosen once
        # for the worlds the mover cannot tell apart, so every world is needed at once
        every = [position, *_in_time(worlds, deadline)]
        margins = _margins(every, before, pair_value, None, played, None, deadline)
        for pair in valued:
            if pair in margins:
                continue
            # the played pair is valued whatever the time when the deadline asks; the others in time
            needed = pair == played and (deadline is None or deadline.values_played)
            if needed or deadline is None or not deadline.passed():
                with running(None if needed else deadline):
                    found = _before_last_margins(every, weights, pair, count, None if needed else deadline)
                if found is not None:
                    margins[pair] = found
        margins = {pair: margins[pair] for pair in candidates if pair in margins}
    ends = all(empties_deck(position, pair) for pair in candidates)
    return _sampled(margins, weights, sampled, exact=not sampled and ends)


class _EndingValues:
    """At three and four players, the value of a pair of draws that empties the deck, given the
    deck's content: the finish best on average over every split of the other hands (the mover
    sees the deck's cards drawn, not the other hands), its mean margin over them (splits.py's
    groups, weighted by their deals). The same in every world with that deck, so found once per
    deck and pair; None at two players (the split is the deck's rest) or when the groups are too
    many to count (the world's own split is then played, as before)."""

    def __init__(self, situation: Situation, cards: Cards) -> None:
        self.situation = situation
        self.cards = cards
        self.found: dict[tuple[tuple[int, ...], Sources], float | None] = {}

    def __call__(self, world: LeanPosition, pair: Sources) -> float | None:
        if len(self.situation.players) < 3 or not empties_deck(world, pair):
            return None
        # the pair draws every card of the deck: its content counts, not its order
        key = (tuple(sorted(world.deck)), canonical(pair))
        if key not in self.found:
            self.found[key] = self._value(world, pair)
        return self.found[key]

    def _value(self, world: LeanPosition, pair: Sources) -> float | None:
        situation, cards = self.situation, self.cards
        deck = tuple(cards.card(c) for c in world.deck)
        probe = world.copy()
        drawn: list[tuple[str | None, Card]] = []
        for source in pair:
            card = probe.draw(source)
            if source is not None and card is not None:
                drawn.append((None if source == FROM_DECK else situation.players[source], cards.card(card)))
        after = dataclasses.replace(situation.after_draws(drawn), unseen=hands_unseen(situation.unseen, deck))
        if after.unseen.unique() is not None:
            return None  # one split: the world's own is exact already
        grouped = _last_turn_worlds(after, cards)
        if grouped is None:
            return None
        worlds, weights, _ = grouped
        splits = []
        for split in worlds:
            deadline_check()  # a pair's value is whole or not found (_margins stops there)
            splits.append(split)
        return max(endgame.mean_finals(splits, weights, len(situation.species)).values())


def _worlds(
    situation: Situation, cards: Cards, rng: random.Random, budget: int
) -> tuple[Iterator[LeanPosition], list[float], bool]:
    """The worlds of a decision: the one world when the mover's knowledge allows one; every
    possible content of a small deck (listed.py), each with its hands' one split or some dealt
    at random, with their weights; else ``budget`` sampled worlds. And whether any was sampled."""
    if situation.unseen.unique() is not None:
        return iter([situation.world(cards, None)]), [], False
    decks = listed_decks(situation.unseen)
    if decks is None:
        return sampled_worlds(situation, cards, rng, budget), [], True
    plan = []
    weights: list[float] = []
    for deck, chance in decks:
        rest, deals = deck_splits(situation.unseen, deck, budget, len(decks))
        plan.append((deck, rest, deals))
        weights += [chance / deals] * deals
    sampled = any(rest.unique() is None for _, rest, _ in plan)

    def listed() -> Iterator[LeanPosition]:
        for deck, rest, deals in plan:
            fixed = dataclasses.replace(situation, unseen=rest)
            for _ in range(deals):
                position = fixed.world(cards, None if rest.unique() is not None else rng)
                position.deck = [cards.code(c) for c in deck]
                yield position

    return listed(), weights, sampled


def _last_turn_worlds(situation: Situation, cards: Cards) -> tuple[Iterator[LeanPosition], list[float], bool] | None:
    """The worlds of a finish that ends the game (the deck empty): one deal of each group of the
    other hands' splits that score alike (splits.py), weighted by the deals it stands for, so the
    values are the exact expectation over every deal; None when the groups are too many."""
    seats = situation.players
    lean_arbs = {p: {cell_of(xy): cards.code(c) for xy, c in situation.arboretums[p].items()} for p in seats}
    points = {p: species_points(lean_arbs[p]) for p in seats if p != situation.mover}

    def counts(player: str, species: str) -> bool:
        return points[player].get(cards.species.index(species), 0) > 0

    players = [p for p, n in situation.unseen.room.items() if n]
    outcome = last_turn_outcome(seats, situation.mover, situation.hand, situation.known, players, counts)
    groups = split_groups(situation.unseen, situation.known, outcome, GROUPS_VALUED)
    if not groups:
        return None
    total = sum(ways for _, ways in groups)

    def listed() -> Iterator[LeanPosition]:
        for hands, _ in groups:
            unique = {p: cards for p, cards in hands.items()}
            fixed = dataclasses.replace(
                situation,
                unseen=Unseen(situation.unseen.room, 0, (), {}),
                known={p: (*situation.known.get(p, ()), *unique.get(p, ())) for p in seats if p != situation.mover},
            )
            yield fixed.world(cards, None)

    return listed(), [ways / total for _, ways in groups], False


#: The most groups of splits a game-ending turn is valued over (splits.py); past them, the worlds'
#: own splits, as sampled. Each group costs a table of the turn's finishes (some 0.3 ms), and the
#: value of a pair of draws emptying the deck one table per group per content of the deck: at
#: four players some turns have 2,000 groups, which made one last turn 5 times dearer (4.9 ->
#: 25.2 s CPU, bench/README.md "Three and four players at the last turn").
GROUPS_VALUED = 500


def _in_time(worlds: Iterator[LeanPosition], deadline: Deadline | None) -> Iterator[LeanPosition]:
    """The worlds dealt before ``deadline`` (all of them without one)."""
    for world in worlds:
        if deadline is not None and deadline.passed():
            return
        yield world


def sampled_worlds(situation: Situation, cards: Cards, rng: random.Random, budget: int) -> Iterator[LeanPosition]:
    """``budget`` worlds dealt by ``rng``, one at a time as they are asked for: a decision holds
    one world at a time, whatever the budget."""
    for _ in range(budget):
        yield situation.world(cards, rng)


#: With finalists, the share of the worlds in which every candidate is played out.
HEATS = 4


def _margins(
    worlds: Iterable[LeanPosition],
    candidates: list[Candidate],
    value: Callable[[LeanPosition, Candidate], float],
    finalists: int | None,
    played: Candidate | None,
    count: int | None = None,
    deadline: Deadline | None = None,
) -> dict[Candidate, array[float]]:
    """Each candidate's margin world by world, the ``count`` worlds (all of a list) taken one at a
    time. With ``finalists``: every candidate in the first quarter of the worlds, then only the
    best ``finalists`` of them (and the played one) in the rest, so that the budget goes to the
    candidates that can still be best. With ``deadline``: no world is begun, nor a candidate
    valued in one, once it is near (:meth:`Deadline.passed`); a world not finished is dropped,
    but in the first world the candidates valued in time keep their margin (the first, the
    played one, is always valued: an answer needs a value)."""
    if count is None:
        listed = list(worlds)
        worlds, count = listed, len(listed)
    margins = {c: array("d") for c in candidates}
    heats = finalists is not None and len(candidates) > finalists + 1 and count >= 2 * HEATS
    heat = count // HEATS if heats else count
    going_on = candidates
    for index, world in enumerate(worlds):
        if index == heat:
            ranked = sorted(candidates, key=lambda c: -sum(margins[c]))  # stable: the played one first
            going_on = ranked[:finalists] + (
                [played] if played in candidates and played not in ranked[:finalists] else []
            )
        if deadline is None:
            for c in going_on:
                margins[c].append(value(world, c))
            continue
        row: list[float] = []
        for c in going_on:
            needed = not row and index == 0 and c == played and deadline.values_played
            if deadline.passed() and not needed:
                break
            try:
                with running(None if needed else deadline):
                    row.append(value(world, c))
            except OutOfTime:
                break
            deadline.took()
        if len(row) < len(going_on) and index > 0:
            break  # the world not finished is not kept: the candidates keep equal worlds
        for c, margin_of in zip(going_on, row, strict=False):
            margins[c].append(margin_of)
        if len(row) < len(going_on):
            break
    return {c: m for c, m in margins.items() if m}


def _shared(candidates: list[Candidate], share: Share | None) -> list[Candidate]:
    """The candidates of ``share`` (all of them without one), in their order."""
    if share is None:
        return candidates
    part, parts = share
    return candidates[part::parts]


def merge_shares(shares: Sequence[Judgement[Candidate]]) -> Judgement[Candidate]:
    """The judgement of a decision from the judgements of its shares ``(part, parts)`` for
    ``part`` in ``range(parts)``, in that order: each candidate's margins as its share found them,
    the candidates in the decision's order, so the values are those of the whole judgement to
    the bit (the means add the same ints, the weighted ones in the worlds' order). A share keeps
    a prefix of its candidates (a deadline stops it), and the candidates keep the worlds every
    share played (the fewest), as one judgement's candidates keep equal worlds."""
    first = shares[0]
    if all(not judged.margins for judged in shares[1:]) and not first.margins:
        return first  # whole: exact without worlds (the one world, the game ending with the turn)
    parts = len(shares)
    placed = sorted(
        (
            (part + index * parts, candidate, judged.margins[candidate])
            for part, judged in enumerate(shares)
            for index, candidate in enumerate(judged.margins)
        ),
        key=lambda each: each[0],
    )
    worlds = min(len(margins) for _, _, margins in placed)
    margins = {candidate: found[:worlds] for _, candidate, found in placed}
    return _sampled(margins, first.weights, first.sampled, first.exact)


def _sampled(
    margins: Mapping[Candidate, array[float]], weights: Sequence[float] = (), sampled: bool = True, exact: bool = False
) -> Judgement[Candidate]:
    """Each candidate's value is its mean margin (weighted by the worlds' probabilities when they
    are listed); a candidate dropped after the heats keeps the mean of the worlds it was played in
    (and cannot be :meth:`Judgement.best`)."""
    worlds = max((len(m) for m in margins.values()), default=0)
    if weights:
        weights = weights[:worlds]  # a deadline may leave the last listed worlds unplayed
        total = sum(weights)
        values = {c: sum(w * x for w, x in zip(weights, m, strict=True)) / total for c, m in margins.items()}
    else:
        values = {c: sum(m) / len(m) for c, m in margins.items()}
    return Judgement(values, worlds, exact, dict(margins), tuple(weights), sampled)


__all__ = [
    "Deadline",
    "Finish",
    "Judgement",
    "Share",
    "Situation",
    "Sources",
    "all_finishes",
    "draw_candidates",
    "draw_pairs",
    "finish_candidates",
    "judge_draws",
    "judge_finish",
    "merge_shares",
    "sampled_worlds",
]
