"""A decision's time limit: when its answer is due, and the checks the search makes against it.

The search asks :meth:`Deadline.passed` before each step (a candidate valued in a world), counting
the longest step seen as still to come. A single step near the end of a four-player game (every
pair of draws of a reply, each followed by the next player's exact end) can take a tenth of a
second, more than a tight limit leaves, so the endgame's loops also call :func:`check`, which
stops the step under way (:class:`OutOfTime`) once the instant is reached; the step is then not
counted. The deadline of the decision under way is held here, for the process (each worker of a
pool has its own), so that the endgame's loops need no parameter for it.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator


#: The share of a move's time the search may use: the rest is for what comes before and after it
#: (the view read, the answer made and sent; a loaded machine's slower steps).
SEARCH_SHARE = 0.8


class OutOfTime(Exception):
    """The decision's time is up: the step under way is abandoned."""


class Deadline:
    """When a decision must have its answer: a time.monotonic() instant ``seconds`` from now."""

    __slots__ = ("at", "_since", "_longest", "values_played")

    def __init__(self, seconds: float, values_played: bool = True) -> None:
        self._since = time.monotonic()
        self.at = self._since + seconds
        self._longest = 0.0
        #: whether the played candidate is valued whatever the time (in one world at least): an
        #: analysis states its value; a bot, whose fallback answer is the greedy bot's, does not
        self.values_played = values_played

    def passed(self) -> bool:
        """Whether a step begun now would end after the instant (the longest step seen so far)."""
        return time.monotonic() + self._longest >= self.at

    def took(self) -> None:
        """Note that a step ended: the longest since the last note (or since the start, which
        counts the decision's setting up as a step: cautious)."""
        now = time.monotonic()
        self._longest = max(self._longest, now - self._since)
        self._since = now


_running: Deadline | None = None


@contextmanager
def running(deadline: Deadline | None) -> Iterator[None]:
    """:func:`check` holds to ``deadline`` (none: never stops) while the block runs."""
    global _running
    before, _running = _running, deadline
    try:
        yield
    finally:
        _running = before


def check() -> None:
    """OutOfTime when the running decision's instant is reached."""
    if _running is not None and time.monotonic() >= _running.at:
        raise OutOfTime


__all__ = ["SEARCH_SHARE", "Deadline", "OutOfTime", "check", "running"]
