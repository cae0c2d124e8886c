"""The garbage collector's tuning, in one place: freezing the parent's objects before worker
processes fork, and what a long-lived program (the terminal UI) keeps once it is built.

Reading and checking need no tuning: they go a game at a time, and a game's objects are freed as
soon as the next game starts (they make no reference cycles), so the collector's young
generation stays small and cheap to scan. (Pausing the collector per game was measured to make
no difference, and would leave any cycle for a full collection that might never come.)
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

#: Set while frozen_for_workers() holds the parent's objects frozen; forked workers inherit it.
_frozen_for_workers = False


@contextmanager
def frozen_for_workers() -> Iterator[None]:
    """Freeze every object of this process while worker processes are forked and at work.

    The collector leaves frozen objects alone, so a forked worker does not copy the memory pages
    of everything the parent holds just by collecting garbage.
    """
    global _frozen_for_workers
    if _frozen_for_workers:
        yield
        return
    gc.freeze()
    _frozen_for_workers = True
    try:
        yield
    finally:
        _frozen_for_workers = False
        gc.unfreeze()


def freeze_long_lived() -> None:
    """Collect the garbage, then freeze every object left: for a program that has built what it
    keeps (the replayer's positions, its painted screen) and now makes short-lived objects only.

    The collector then never rescans the kept objects: a full collection looks only at what was
    made since, instead of stalling a step of the terminal UI for tens of milliseconds.
    """
    gc.collect()
    gc.freeze()


def thaw_long_lived() -> None:
    """Undo freeze_long_lived (when what was kept is let go)."""
    gc.unfreeze()
