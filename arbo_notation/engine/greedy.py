"""The greedy bot: builds paths and guards its rights, one decision at a time, on the lean position.

* Draw: the top of a discard pile when it would raise a path or a contested hand sum enough,
  otherwise the deck.
* Plant: the card and cell that most raise the weighted value of the arboretum (best path, or
  a discounted open path), weighted by the estimated chance of holding each species' right and
  net of the right the planted card stops defending.
* Discard: never a 1 or a high card of a contested species when avoidable; otherwise the card
  least useful to itself (rights, future plantings) and to the next player.

It decides from what its seat sees (its hand, the arboretums, the piles, the deck's size), never
another hand nor the deck's order, so a rollout may play it for any seat of a sampled world and
the greedy bot of the bots package plays it on the lean position of a seat's view, the unseen
cards HIDDEN. Each arboretum's path tables are made once and shared by every decision that meets it.
Standard library only.
"""

from __future__ import annotations

import math
from typing import Final, Iterator

from arbo_notation.engine.lean import FROM_DECK, STEPS, LeanPosition, frontier_of
from arbo_notation.engine.totals import SAME_SPECIES_MIN_LENGTH

# The constants are Final: the compiled build inlines them, where a plain module global is a dict
# lookup at each use (71 in the searches; bench/README.md, "The compiled build", second branch).

#: Value indexes (a card's ``code & 7``) of the lowest and highest cards.
_LOW: Final = 0
_HIGH: Final = 7
_NONE: Final = -99
#: STEPS one by one, in their order.
_STEP_1: Final = STEPS[0]
_STEP_2: Final = STEPS[1]
_STEP_3: Final = STEPS[2]
_STEP_4: Final = STEPS[3]
#: The sum of one species' values, 1 to 8.
_SPECIES_SUM: Final = 36
_HAND_SIZE: Final = 7
#: A discard-pile card must be worth this much more than nothing to beat a blind deck draw.
DRAW_THRESHOLD: Final = 1.5
#: How much the next player's gain from our discard weighs against our own loss.
SPITE: Final = 1.0
#: What a card kept in hand for a later planting is worth, relative to planting it now.
LATER: Final = 1.0
#: The share of the unseen cards of a species the strongest opponent holds, by opponents.
_STRONGEST_SHARE: Final = {1: 1.0, 2: 0.6, 3: 0.45}


#: How likely an open path end is to be completed, by how many values lie beyond it.
_ROOM: Final = tuple(min(1.0, values / 3) for values in range(8))


#: A path's bonus for starting on a tree of each value (a 1: +1) and for ending on one (an 8: +2).
_START_BONUS: Final = tuple(int(value == _LOW) for value in range(8))
_END_BONUS: Final = tuple(2 * (value == _HIGH) for value in range(8))


def _sweep(
    arb: dict[int, int], order: list[int], rising: bool
) -> tuple[dict[int, dict[int, int]], dict[int, tuple[int, int]]]:
    """One pass of the path DP over cells in ``order``: for each cell, the best length + bonus of
    a path from a tree of each species to it through neighbours that feed it (lower values when
    ``rising``, higher ones otherwise), and its longest same-species run as (length, bonus): the
    one of most points (2 * length + bonus), then of most trees."""
    bonuses = _START_BONUS if rising else _END_BONUS
    best: dict[int, dict[int, int]] = {}
    runs: dict[int, tuple[int, int]] = {}
    for cell in order:
        card = arb[cell]
        code, value = card >> 3, card & 7
        bonus = bonuses[value]
        reach = {code: 1 + bonus}
        same_length, same_bonus = 1, bonus
        for step in STEPS:
            near = cell + step
            other = arb.get(near)
            if other is None:
                continue
            if (other & 7 >= value) if rising else (other & 7 <= value):
                continue
            for kind, val in best[near].items():
                if val + 1 > reach.get(kind, _NONE):
                    reach[kind] = val + 1
            if other >> 3 == code:
                length, extra = runs[near]
                length += 1
                points, most = 2 * length + extra, 2 * same_length + same_bonus
                if points > most or (points == most and length > same_length):
                    same_length, same_bonus = length, extra
        best[cell] = reach
        runs[cell] = (same_length, same_bonus)
    return best, runs


def _best_paths(
    arb: dict[int, int], order: list[int], up: dict[int, dict[int, int]], same_up: dict[int, tuple[int, int]]
) -> dict[int, int]:
    """Per species, the points of its best path (lean.species_points), read from the rising
    tables: a path of S ending at a tree c of S scores ``up[c][S]`` (length + start bonus; more
    than 1 when a lower tree feeds it) + c's end bonus, or, all of S and at least four trees
    long, twice its length + its start bonus + c's end bonus (same_up[c] is the best such run).
    The tables are made anyway; the search of every path cost a seventh of them."""
    best: dict[int, int] = {}
    for cell in order:
        card = arb[cell]
        value = card & 7
        if value == _LOW:
            continue  # (no tree below it: no path ends on it)
        code = card >> 3
        reached = up[cell][code]
        if reached < 2:
            continue
        end = _END_BONUS[value]
        points = reached + end
        length, bonus = same_up[cell]
        if length >= SAME_SPECIES_MIN_LENGTH and 2 * length + bonus + end > points:
            points = 2 * length + bonus + end
        if points > best.get(code, 0):
            best[code] = points
    return best


def _open_paths(
    arb: dict[int, int], up: dict[int, dict[int, int]], down: dict[int, dict[int, int]]
) -> dict[int, float]:
    """Per species, the best partial path a future tree could still complete, discounted."""
    opened: dict[int, float] = {}
    for cell, card in arb.items():
        if all(cell + step in arb for step in STEPS):
            continue
        value = card & 7
        if value < _HIGH:  # the up tables, then the down ones (written out: no tuple of both a tree)
            room = _ROOM[_HIGH - value]
            for code, val in up[cell].items():
                if (val + 1) * room > opened.get(code, 0.0):
                    opened[code] = (val + 1) * room
        if value > _LOW:
            room = _ROOM[value - _LOW]
            for code, val in down[cell].items():
                if (val + 1) * room > opened.get(code, 0.0):
                    opened[code] = (val + 1) * room
    return opened


#: A tree next to a cell: its value, species, ``up`` and ``down`` tables, ``same_up``
#: and ``same_down`` runs (see Paths).
_Near = tuple[int, int, dict[int, int], dict[int, int], tuple[int, int], tuple[int, int]]
#: For a new tree's value, see Paths._ceilings.
_Reach = tuple[dict[int, float], dict[int, int], dict[int, int], dict[int, int], dict[int, int]]
#: A species the arboretum has no path in: (best, open, value()).
_NOTHING: Final = (0, 0.0, 0)


#: Tables already made, by arboretum and potential: the worlds of one decision meet the same
#: arboretums again and again. Two generations of at most _TABLES_KEPT each: the recent tables,
#: and the older ones, dropped whole when the recent ones are full (a table met again in them
#: becomes recent). A full collection of the garbage collector walks every table kept, and the
#: memo of its what-ifs: one cache of 4,096 emptied when full spent 0.9-2.1 ms of a 6-10 ms
#: compiled two-player game in them; these 256 at most, 0.1-0.2 ms. Fewer would cost the analysis,
#: which meets a table again after a whole rollout (bench/README.md, "The compiled build, second
#: branch").
_TABLES_KEPT: Final = 128
_recent_tables: dict[tuple[frozenset[int], float], Paths] = {}
_older_tables: dict[tuple[frozenset[int], float], Paths] = {}


class Paths:
    """One arboretum's increasing paths, summarised per cell, to price a new tree in O(neighbours).

    Values strictly increase along a path, so paths form a DAG and these tables are a DP over it:
    ``up[c][S]`` is the best length + start bonus of a path from a tree of S up to c (c included);
    ``down[c][S]`` the best length + end bonus of a path from c up to a tree of S (c included);
    ``same_up`` / ``same_down`` the longest all-same-species run ending / starting at c (each
    tree next to the frontier keeps its four in ``near``: no planting reads another's).
    ``best[S]`` is the exact best path score, ``open[S]`` the best partial path that a future
    tree could still complete (its last or first tree has an empty neighbour).

    A new tree's gains depend on its cell only through the cell's neighbourhood: which trees
    stand next to it, in the order :data:`STEPS` visits them, and whether a neighbour is empty
    (see :meth:`_gains`). Most cells of the frontier share theirs with another (three empty
    cells around a lone tree at the edge), so the tables price each neighbourhood once, at its
    first cell: ``places`` are those first cells, sorted, and ``place`` names each cell's. The
    gains at a cell and at its place are the same computation on the same numbers, so they are
    the same floats, and a search for the first best cell may look at the places alone.
    """

    __slots__ = (
        "arb",
        "potential",
        "near",
        "best",
        "open",
        "cells",
        "places",
        "place",
        "around",
        "worth",
        "_gained",
        "_reach",
    )

    @classmethod
    def of(cls, arb: dict[int, int], potential: float) -> "Paths":
        """The tables of ``arb`` (read-only, shared; the arboretum is copied, not kept)."""
        global _older_tables, _recent_tables
        # Each tree as one int (a card is under 128), not a tuple: a tuple is a container, whose
        # allocations set off the collector's young collections.
        key = (frozenset([cell * 128 + card for cell, card in arb.items()]), potential)
        made = _recent_tables.get(key)
        if made is None:
            made = _older_tables.get(key)
            if made is None:
                made = cls(dict(arb), potential)
            if len(_recent_tables) >= _TABLES_KEPT:
                _older_tables, _recent_tables = _recent_tables, {}
            _recent_tables[key] = made
        return made

    def __init__(self, arb: dict[int, int], potential: float) -> None:
        self.arb = arb
        self.potential = potential
        # By value, then cell: each tree sorted as one int, value * 65536 + cell (a cell is under
        # 65536), not by a key function's tuples.
        order = [key & 0xFFFF for key in sorted([(card & 7) << 16 | cell for cell, card in arb.items()])]
        # The tables are kept only as each tree's entry next to the frontier (``near``), its own
        # dicts of numbers (which the garbage collector does not track), not the dicts of dicts
        # the sweeps make. Its dicts rather than tuples of their items since the cache keeps
        # 256 tables, not 4,096: 200 two-player games' young collections 659 -> 568, 0.9% fewer
        # instructions (bench/README.md, "The compiled build", the second branch).
        up, same_up = _sweep(arb, order, True)
        down, same_down = _sweep(arb, order[::-1], False)
        self.best = _best_paths(arb, order, up, same_up)
        self.open = opened = _open_paths(arb, up, down)
        self.cells = frontier_of(arb)
        first: dict[tuple[int, ...], int] = {}
        place: dict[int, int] = {}
        self.place = place
        for cell in self.cells:  # (the steps written out: a generator a cell cost a fifth of the tables)
            around = []
            for next_to in (cell + _STEP_1, cell + _STEP_2, cell + _STEP_3, cell + _STEP_4):
                if next_to in arb:
                    around.append(next_to)
            trees = tuple(around)
            found = first.get(trees)
            if found is None:
                found = first[trees] = cell
            place[cell] = found
        self.places = list(first.values())
        near: dict[int, _Near] = {}  # each tree next to the frontier, made once for every place by it
        self.around: dict[int, tuple[_Near, ...]] = {}
        for trees, cell in first.items():
            for tree in trees:
                if tree not in near:
                    card = arb[tree]
                    tables = up[tree], down[tree]
                    near[tree] = (card & 7, card >> 3, *tables, same_up[tree], same_down[tree])
            self.around[cell] = tuple([near[tree] for tree in trees])
        self.near = near
        # Each species' value before a planting, with its parts: (best, open, value()).
        best = self.best
        self.worth: dict[int, tuple[int, float, float]] = {}
        for code in {*best, *opened}:
            held, was_open = best.get(code, 0), opened.get(code, 0.0)
            self.worth[code] = (held, was_open, max(held, potential * was_open))  # value(code)
        self._gained: dict[int, dict[int, float]] = {}
        self._reach: dict[int, _Reach] = {}  # by value, made when a search asks

    def _around(self, cell: int) -> tuple[_Near, ...]:
        """The trees next to frontier cell ``cell``, in the order STEPS visits them, with their tables."""
        return tuple([self.near[near] for near in (cell + step for step in STEPS) if near in self.arb])

    def value(self, code: int) -> float:
        """What the arboretum is worth in a species: its best path, or a discounted open one."""
        return max(self.best.get(code, 0), self.potential * self.open.get(code, 0.0))

    def ceilings(self, v: int) -> dict[int, float]:
        """Per species, at least the most :meth:`gains` at any place of a tree of value ``v`` of
        another species (never less; :meth:`own_ceiling` for the tree's own).

        :meth:`_gains` with each neighbour's tables replaced by the best of every tree next to
        the frontier of a lower (higher) value: a what-if at no place in particular, which lets
        a search skip a card (see choose_planting). Made once per value."""
        reach = self._reach.get(v)
        if reach is None:
            reach = self._reach[v] = self._ceilings(v)
        return reach[0]

    def own_ceiling(self, card: int) -> float:
        """At least the most :meth:`gains` of ``card`` at any place in its own species."""
        kind, v = card >> 3, card & 7
        reach = self._reach.get(v)
        if reach is None:
            reach = self._reach[v] = self._ceilings(v)
        _, ups, downs, runs_up, runs_down = reach
        # As _gains: comparisons written out, not max() (a search asks one a card).
        start, end = 1 + (v == _LOW), 2 * (v == _HIGH)
        before_run = runs_up.get(kind, 0)
        after_run = runs_down.get(kind, 0)
        made = (before_run if before_run > start + 1 else start + 1) + (after_run if after_run > end else end)
        above = _ROOM[_HIGH - v] if v < _HIGH else 0.0
        below = _ROOM[v - _LOW] if v > _LOW else 0.0
        hope = (end + 2) * below
        if (start + 1) * above > hope:
            hope = (start + 1) * above
        up = ups.get(kind)
        if up is not None:
            through = up + 1 + (end if end > downs.get(kind, _NONE) else downs[kind])
            if through > made:
                made = through
            if (up + 2) * above > hope:
                hope = (up + 2) * above
        down = downs.get(kind)
        if down is not None:
            if start + down > made:
                made = start + down
            if (down + 2) * below > hope:
                hope = (down + 2) * below
        held, was_open, before = self.worth.get(kind, _NOTHING)
        after = float(held if held > made else made)
        hoped = self.potential * (hope if hope > was_open else was_open)
        if hoped > after:
            after = hoped
        return after - before if after > before else 0.0

    def _ceilings(self, v: int) -> _Reach:
        """For a new tree of value ``v``: the ceilings of the other species, the best ``up`` of the
        trees next to the frontier below it and ``down`` of those above it, and per species the
        most points of a same-species run up to it and from it."""
        ups: dict[int, int] = {}
        downs: dict[int, int] = {}
        runs_up: dict[int, int] = {}
        runs_down: dict[int, int] = {}
        for value, code_near, up, down, same_up, same_down in self.near.values():
            if value < v:
                for code, val in up.items():
                    if val > ups.get(code, _NONE):
                        ups[code] = val
                points = 2 * (same_up[0] + 1) + same_up[1]
                if points > runs_up.get(code_near, 0):
                    runs_up[code_near] = points
            elif value > v:
                for code, val in down.items():
                    if val > downs.get(code, _NONE):
                        downs[code] = val
                points = 2 * same_down[0] + same_down[1]
                if points > runs_down.get(code_near, 0):
                    runs_down[code_near] = points
        above = _ROOM[_HIGH - v] if v < _HIGH else 0.0
        below = _ROOM[v - _LOW] if v > _LOW else 0.0
        hopes = {code: (val + 2) * above for code, val in ups.items()}
        for code, val in downs.items():
            hope = (val + 2) * below
            if hope > hopes.get(code, 0.0):
                hopes[code] = hope
        ceilings: dict[int, float] = {}
        worths, potential = self.worth, self.potential
        # As _gains: max() written out, keeping the first of equals as max() does.
        for code, hope in hopes.items():
            held, was_open, before = worths.get(code, _NOTHING)
            after = float(held)
            if code in ups and code in downs:
                made = ups[code] + 1 + downs[code]
                if made > after:
                    after = float(made)
            hoped = potential * (hope if hope > was_open else was_open)
            if hoped > after:
                after = hoped
            if after > before:
                ceilings[code] = after - before
        return ceilings, ups, downs, runs_up, runs_down

    def row(self, card: int) -> list[dict[int, float]]:
        """:meth:`gains` of ``card`` at each place, in order: one call for a whole search of the
        places, not one a place (read-only: the dicts are shared with the next caller)."""
        gained, base = self._gained, card * 65536
        found = []
        for place in self.places:
            gains = gained.get(base + place)
            if gains is None:
                gains = gained[base + place] = self._gains(card, place)
            found.append(gains)
        return found

    def each(self, card: int) -> Iterator[dict[int, float]]:
        """:meth:`row`, one place at a time: a search that stops early prices no place after."""
        gained, base = self._gained, card * 65536
        for place in self.places:
            gains = gained.get(base + place)
            if gains is None:
                gains = gained[base + place] = self._gains(card, place)
            yield gains

    def gains(self, card: int, cell: int) -> dict[int, float]:
        """How much planting ``card`` at ``cell`` raises :meth:`value`, per species it changes
        (read-only: remembered for the next caller)."""
        cell = self.place.get(cell, cell)
        key = card * 65536 + cell
        found = self._gained.get(key)
        if found is None:
            found = self._gained[key] = self._gains(card, cell)
        return found

    def _gains(self, card: int, cell: int) -> dict[int, float]:
        # The greedy bot's inner loop (most of a simulated game's time): comparisons written out
        # rather than max() and helper calls, the arithmetic exactly as the docstrings say.
        around = self.around.get(cell)
        if around is None:
            around = self._around(cell)
        kind, v = card >> 3, card & 7
        pre: dict[int, int] = {}  # best path from a tree of S up to the new tree (included)
        post: dict[int, int] = {}  # best path from just above the new tree up to a tree of S
        # The longest same-species runs ending just below and starting just above the new tree,
        # as (length, bonus); a longer run has more points (2 * length + bonus), then more trees.
        pre_length, pre_bonus = 1, int(v == _LOW)
        post_length, post_bonus = 0, 2 * (v == _HIGH)
        room = len(around) < len(STEPS)
        for value, code_near, up, down, same_up, same_down in around:
            if value < v:
                for code, val in up.items():
                    if val >= pre.get(code, _NONE):
                        pre[code] = val + 1
                if code_near == kind:
                    length, bonus = same_up
                    length += 1
                    points, best = 2 * length + bonus, 2 * pre_length + pre_bonus
                    if points > best or (points == best and length > pre_length):
                        pre_length, pre_bonus = length, bonus
            elif value > v:
                for code, val in down.items():
                    if val > post.get(code, _NONE):
                        post[code] = val
                if code_near == kind:
                    length, bonus = same_down
                    points, best = 2 * length + bonus, 2 * post_length + post_bonus
                    if points > best or (points == best and length > post_length):
                        post_length, post_bonus = length, bonus
        start, end = 1 + (v == _LOW), 2 * (v == _HIGH)
        through = {code: a + post[code] for code, a in pre.items() if code in post} if post else {}
        own = through.get(kind, _NONE)
        if kind in pre and pre[kind] + end > own:
            own = pre[kind] + end
        if kind in post and start + post[kind] > own:
            own = start + post[kind]
        length = pre_length + post_length
        if length >= 4 and 2 * length + pre_bonus + post_bonus > own:
            own = 2 * length + pre_bonus + post_bonus
        if own > _NONE:
            through[kind] = own
        opened: dict[int, float] = {}  # the partial paths the new tree leaves open, discounted
        if room:
            if v < _HIGH:
                above = _ROOM[_HIGH - v]
                opened = {code: (val + 1) * above for code, val in pre.items()}
                worth = (start + 1) * above
                if worth > opened.get(kind, 0.0):
                    opened[kind] = worth
            if v > _LOW:
                below = _ROOM[v - _LOW]
                for code, val in post.items():
                    worth = (val + 2) * below
                    if worth > opened.get(code, 0.0):
                        opened[code] = worth
                worth = (end + 2) * below
                if worth > opened.get(kind, 0.0):
                    opened[kind] = worth
        # What each species is worth after the planting, against before (see value()).
        result: dict[int, float] = {}
        worths, potential = self.worth, self.potential
        # through's keys, then opened's new ones (one union, not a list and dict.fromkeys: -3% instructions a game)
        for code in through | opened if opened else through:
            held, was_open, before = worths.get(code, _NOTHING)
            made = through.get(code, _NONE)
            after = float(made if made > held else held)
            now_open = opened.get(code, 0.0)
            hoped = potential * (now_open if now_open > was_open else was_open)
            if hoped > after:
                after = hoped
            if after > before:
                result[code] = after - before
        return result


class Reading:
    """The seat's reading of a position: its path tables, the odds for each right from the cards
    it can see, the timing. ``hand`` and ``arb``, when given, are the seat's once a planting not
    yet made in ``position`` is made (for its discard)."""

    __slots__ = (
        "paths",
        "seen_sum",
        "seen",
        "share",
        "strongest",
        "potential",
        "mine",
        "_weights",
        "_without",
        "_ceilings",
    )

    def __init__(
        self, position: LeanPosition, seat: int, hand: list[int] | None = None, arb: dict[int, int] | None = None
    ) -> None:
        # Seen: the whole hand and the table (a planting not yet made moves a card between them).
        cards = list(position.hands[seat])
        for pile in position.piles:
            cards += pile
        for planted in position.arbs:
            cards += planted.values()
        seen_sum: dict[int, int] = {}
        for card in cards:
            code = card >> 3
            seen_sum[code] = seen_sum.get(code, 0) + (card & 7) + 1
        self.seen_sum, self.seen = seen_sum, set(cards)
        opponents = position.seats - 1
        # Share of the unseen cards an opponent's final hand will hold, and of that, the strongest one's.
        held = _HAND_SIZE * opponents
        self.share = held / max(held + len(position.deck), 1)
        self.strongest = _STRONGEST_SHARE[opponents]
        # Open paths are worth less near the end: the turns left to the seat after this one.
        self.potential = 0.55 * min(1.0, (len(position.deck) // (2 * position.seats)) / 3)
        mine: dict[int, list[int]] = {}
        for card in position.hands[seat] if hand is None else hand:
            mine.setdefault(card >> 3, []).append(card & 7)
        self.mine = mine
        self.paths = Paths.of(position.arbs[seat] if arb is None else arb, self.potential)
        self._weights: dict[int, float] = {}
        self._without: dict[int, float] = {}
        self._ceilings: dict[int, float] = {}  # by value: the other species' weighted ceilings

    def right(self, code: int, values: list[int]) -> float:
        """The estimated chance of holding the right to score ``code`` with these values in hand."""
        low, high = code * 8 + _LOW, code * 8 + _HIGH  # its 1 and its 8
        mine = float(sum(values) + len(values))
        if _HIGH in values and _LOW not in values and low not in self.seen:
            mine -= 8 * self.share  # an opponent holding the 1 would cancel the 8
        pool = _SPECIES_SUM - self.seen_sum.get(code, 0)
        if _LOW in values and high not in self.seen:
            pool -= 8  # the 1 cancels their 8
        if pool <= 0:
            return 1.0
        rival = self.share * pool * self.strongest
        return 1.0 / (1.0 + math.exp(-(mine - rival + 0.5) / 3.0))

    def weight(self, code: int) -> float:
        found = self._weights.get(code)
        if found is None:
            found = self._weights[code] = self.right(code, self.mine.get(code, []))
        return found

    def weight_without(self, card: int) -> float:
        found = self._without.get(card)
        if found is None:
            values = list(self.mine.get(card >> 3, []))
            values.remove(card & 7)
            found = self._without[card] = self.right(card >> 3, values)
        return found

    def weight_with(self, card: int) -> float:
        return self.right(card >> 3, self.mine.get(card >> 3, []) + [card & 7])

    def plant_gain(self, card: int, cell: int, in_hand: bool) -> float:
        """The weighted gain of planting ``card`` at ``cell``; planting from the hand costs rights."""
        gains = self.paths.gains(card, cell)
        if not in_hand:
            return self.weighted(gains)
        kind = card >> 3
        return self.weighted(gains) - self.cost(card) * (self.paths.value(kind) + gains.get(kind, 0.0))

    def cost(self, card: int) -> float:
        """How much less likely the seat is to hold the right of ``card``'s species without it."""
        return self.weight(card >> 3) - self.weight_without(card)

    def weighted(self, gains: dict[int, float]) -> float:
        """The gains weighted by the chance of holding each species' right."""
        total = 0.0
        weights = self._weights
        for code, gain in gains.items():
            weight = weights.get(code)
            total += (self.weight(code) if weight is None else weight) * gain
        return total

    def ceiling(self, card: int) -> float:
        """At least :meth:`plant_gain` of ``card`` from the hand at any cell (never less)."""
        kind, v = card >> 3, card & 7
        ceilings = self.paths.ceilings(v)
        weighted = self._ceilings.get(v)
        if weighted is None:
            weighted = self._ceilings[v] = sum(self.weight(code) * gain for code, gain in ceilings.items())
        # The gain is sum(weight * gain) - cost * (held + own gain): the card's own species weighs
        # weight - cost, its weight without the card, never negative. A margin for rounding.
        own = self.weight_without(card) * self.paths.own_ceiling(card) - self.weight(kind) * ceilings.get(kind, 0.0)
        return weighted + own - self.cost(card) * self.paths.value(kind) + 1e-9

    def best_plant_gain(self, card: int) -> float:
        """The best weighted gain of ``card`` anywhere (not from the hand: no rights lost)."""
        return max(map(self.weighted, self.paths.row(card)))


# -- the decisions ---------------------------------------------------------------------------------


def choose_source(position: LeanPosition) -> int | None:
    """Where the current seat draws its next card from (None: nothing to draw)."""
    seat = position.current
    tops = [(pile[-1], owner) for owner, pile in enumerate(position.piles) if pile]
    if not tops:
        return FROM_DECK if position.deck else None
    reading = Reading(position, seat)
    best, choice = 0.0, None
    for card, owner in tops:
        worth = _draw_worth(reading, card)
        if choice is None or worth > best:
            best, choice = worth, owner
    if position.deck and best < DRAW_THRESHOLD:
        return FROM_DECK
    return choice


def _draw_worth(reading: Reading, card: int) -> float:
    planting = reading.best_plant_gain(card)
    value = max(reading.paths.value(card >> 3), 1.0)
    holding = (reading.weight_with(card) - reading.weight(card >> 3)) * value
    if card & 7 == _LOW:
        holding += 1.0  # a 1 cancels an opponent's 8 and starts paths with a bonus
    return max(planting, holding)


def choose_planting(position: LeanPosition) -> tuple[int, int]:
    """The current seat's planting (card, cell), its draws in hand."""
    seat = position.current
    reading = Reading(position, seat)
    paths = reading.paths
    # The best (gain, card, cell), the first in card then place order among equals. Each card's
    # gain at any place is at most its ceiling (Reading.ceiling): the cards are searched from the
    # highest ceiling down, and once the best found is above the next ceiling, no card left can
    # reach it. Fresh what-ifs of the plantings in 60 two-player games: 42,719 -> 22,892, the
    # whole game 3-9% less CPU (bench/README.md, "Greedy at random's pace").
    ceilings = sorted(((reading.ceiling(card), card) for card in position.hands[seat]), key=lambda pair: -pair[0])
    best, best_card, best_index = -math.inf, -1, -1
    for ceiling, card in ceilings:
        if ceiling < best:
            break
        # plant_gain(card, cell, True) at each cell, its parts that do not depend on the cell read once
        kind, cost = card >> 3, reading.cost(card)
        held = paths.value(kind)
        for index, gains in enumerate(paths.row(card)):  # the first best cell is a place (see Paths)
            gain = reading.weighted(gains) - cost * (held + gains.get(kind, 0.0))
            # the most gain, then the lowest card, then the first place (a card's row is in place order)
            if gain > best or (gain == best and card < best_card):
                best, best_card, best_index = gain, card, index
    return best_card, paths.places[best_index]


def choose_discard(position: LeanPosition) -> int:
    """The card the current seat discards, its planting made."""
    seat = position.current
    return _discard(position, seat, sorted(position.hands[seat]), position.arbs[seat])


def _discard(position: LeanPosition, seat: int, hand: list[int], arb: dict[int, int]) -> int:
    """The seat's discard from ``hand`` (sorted) with ``arb`` its arboretum: both as they are once
    the planting is made, which ``position`` may not show yet."""
    reading = Reading(position, seat, hand, arb)
    following = (seat + 1) % position.seats
    theirs = Paths.of(position.arbs[following], reading.potential)
    rival_best: dict[int, int] = {}
    for other in range(position.seats):
        if other != seat:
            for code, points in Paths.of(position.arbs[other], reading.potential).best.items():
                rival_best[code] = max(rival_best.get(code, 0), points)
    protected: list[int] = []
    free: list[int] = []
    for card in hand:
        code = card >> 3
        contested = reading.paths.value(code) > 0 or rival_best.get(code, 0) > 0 or 0.2 < reading.weight(code)
        guarded = card & 7 == _LOW or (card & 7 >= 5 and contested)
        (protected if guarded else free).append(card)
    # The discard is the least (loss + later + gift, card). Later and gift are never negative and
    # cost a search of the places each (most of a discard's time), loss is cheap: the cards are
    # met by least loss, and a card whose loss, or loss + later, is already more than the best
    # total is never searched further (floating addition of a non-negative number never lowers a
    # sum, so the least is the same, ties included). Fresh what-ifs of the discard's own searches
    # in 60 two-player games: 16,628 -> 12,325 (bench/README.md, "Greedy at random's pace").
    losses = []
    for card in free or protected:
        code = card >> 3
        loss = (reading.weight(code) - reading.weight_without(card)) * (
            reading.paths.value(code) + 0.5 * rival_best.get(code, 0)
        )
        losses.append((loss, card))
    losses.sort()
    best = math.inf, 0
    for loss, card in losses:
        if (loss, card) > best:
            break
        best = _priced(reading, theirs, loss, card, best)
    return best[1]


def _priced(reading: Reading, theirs: Paths, loss: float, card: int, best: tuple[float, int]) -> tuple[float, int]:
    """The least of ``best`` and (the discard's price of ``card``, card), its loss given."""
    # Later and gift are each the most of a row of places; the most met so far is a lower
    # bound of it, so a card stops at the first place that takes it past the best total (the
    # sums only grow, as above). Fresh what-ifs of the discard in 100 two-player games (seed 1):
    # 45,129 -> 39,739 (bench/README.md, "Greedy at random's pace", the third branch).
    later = 0.0
    for gains in reading.paths.each(card):
        gain = reading.weighted(gains)
        if gain > later:
            later = gain
            if (loss + LATER * later, card) > best:
                return best
    so_far = loss + LATER * later
    if (so_far, card) > best:
        return best
    gift = 0.0
    for gains in theirs.each(card):
        given = sum(gains.values())
        if given > gift:
            gift = given
            if (so_far + SPITE * gift, card) > best:
                return best
    total = so_far + SPITE * gift
    return (total, card) if (total, card) < best else best


def choose_finish(position: LeanPosition) -> tuple[int, int, int]:
    """The current seat's planting and discard, its draws in hand: (card, cell, discard)."""
    card, cell = choose_planting(position)
    seat = position.current
    hand = sorted(position.hands[seat])
    hand.remove(card)
    arb = dict(position.arbs[seat])
    arb[cell] = card
    return card, cell, _discard(position, seat, hand, arb)


def play_greedy_turn(position: LeanPosition) -> None:
    """The current seat's whole turn, as the greedy bot would play it."""
    position.draw(choose_source(position))
    position.draw(choose_source(position))
    position.finish(*choose_finish(position))
