"""The largest value each number option of the commands takes: far past any real use, so that a
mistyped or hostile value is a usage error (exit 2) rather than hours of work or gigabytes of memory."""

from __future__ import annotations

# --budget and --turn take numbers that files hold too: their bounds are defined with the readers'.
from arbo_notation.notation.bounds import LEAST_BUDGET, MOST_BUDGET, MOST_TURNS

__all__ = ["LEAST_BUDGET", "LEAST_MOVE_TIME", "MOST_BUDGET", "MOST_GAMES", "MOST_JOBS", "MOST_MOVE_TIME", "MOST_TURNS"]

#: --move-time of the engine (`arbo bot engine`, `arbo analyse`), in seconds: an hour a move is
#: `arbo match`'s bound too; a hundredth of a second is less than a world's rollout, so that the
#: answer is the greedy bot's (the bot) or the played turn's first world (the analysis).
MOST_MOVE_TIME = 3600.0
LEAST_MOVE_TIME = 0.01

#: -j/--jobs: worker processes. The work goes to no more than the cores this process may use
#: anyway (workers.jobs_for); a thousand is more cores than a machine that runs arbo has.
MOST_JOBS = 1024
#: --games/-n of simulate, --game of a file, --games-per-part: a hundred million games are about a
#: hundred gigabytes of records.
MOST_GAMES = 100_000_000
