"""The bounds of the numbers a file holds that an option takes too: one definition for the option
and for every reader, so that a number read from a file is held to the bounds of its option.

A number past its bound is refused where it is read, with a message naming the file and where in
it: a hand-edited ``(1000000000 samples)`` must not cost hours, nor ``(0 samples)`` a traceback."""

from __future__ import annotations

from arbo_notation.engine.lexicon import MAX_POINTS_DIGITS

#: --budget, and the samples of an engine note and the budget of a puzzle: sampled worlds per
#: decision. The default is 48 (bench/bench_analyse.py); at 48 a turn takes about 1.3 s on one core
#: (2026-12-04, `arbo analyse samples/two-player-omniscient.arb -j 1`: 26 s of CPU for 20 turns), so
#: 100,000 is some 45 minutes a turn.
LEAST_BUDGET = 1
MOST_BUDGET = 100_000
#: --turn, and the turn of a puzzle: a game of Arboretum ends when the deck (at most 80 cards, two
#: drawn a turn) is empty: under a hundred turns.
MOST_TURNS = 1_000
#: Points, as a score on the result line holds them (lexicon.MAX_POINTS_DIGITS digits): the bound of
#: an engine note's margin and points lost, and of a puzzle's values and margin, either sign.
MOST_POINTS = 10**MAX_POINTS_DIGITS - 1


def budget_fault(value: object) -> str | None:
    """What is wrong with a budget read from a file, its value left for the caller to show (None:
    nothing)."""
    if isinstance(value, bool) or not isinstance(value, int) or not LEAST_BUDGET <= value <= MOST_BUDGET:
        return f"a budget is a whole number of sampled worlds from {LEAST_BUDGET} to {MOST_BUDGET}, as --budget takes"
    return None


def points_fault(value: object) -> str | None:
    """What is wrong with points read from a file (the expected margin of a turn, points lost), its
    value left for the caller to show (None: nothing)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) <= MOST_POINTS:
        return f"points are a number from -{MOST_POINTS} to {MOST_POINTS}"
    return None
