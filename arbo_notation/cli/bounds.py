"""The largest value each number option of the commands takes: far past any real use, so that a
mistyped or hostile value is a usage error (exit 2) rather than hours of work or gigabytes of memory."""

from __future__ import annotations

#: -j/--jobs: worker processes. The work goes to no more than the cores this process may use
#: anyway (workers.jobs_for); a thousand is more cores than a machine that runs arbo has.
MOST_JOBS = 1024
#: --budget: sampled worlds per decision. The default is 48 (bench/bench_analyse.py); at 48 a turn
#: takes about 1.3 s on one core (2026-12-04, `arbo analyse samples/two-player-omniscient.arb -j 1`:
#: 26 s of CPU for 20 turns), so 100,000 is some 45 minutes a turn.
MOST_BUDGET = 100_000
#: --games/-n of simulate, --game of a file, --games-per-part: a hundred million games are about a
#: hundred gigabytes of records.
MOST_GAMES = 100_000_000
#: --turn: a game of Arboretum ends when the deck (at most 80 cards, two drawn a turn) is empty:
#: under a hundred turns.
MOST_TURNS = 1_000
