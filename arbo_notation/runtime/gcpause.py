"""The garbage collector's tuning, in one place, for the programs (the CLI, the TUI; never the
library, which leaves the host's collector alone): pausing it while a whole text is read into
records, freezing the parent's objects before worker processes fork, and freezing what a
long-lived program (the terminal UI) keeps once it is built.

Reading and checking a game at a time need no tuning: a game's objects are freed as soon as the
next game starts (they make no reference cycles), so the collector's young generation stays small
and cheap to scan. (Pausing the collector per game was measured to make no difference, and would
leave any cycle for a full collection that might never come.) What `arbo check` does is freeze
the objects of its imports first (freeze_imports), so that its collections skip them.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager

#: Set while frozen_for_workers() holds the parent's objects frozen; forked workers inherit it.
_frozen_for_workers = False
#: (process id, whether the program had frozen objects when first asked in that process).
_frozen_by_program: tuple[int, bool] | None = None


def _others_frozen() -> bool:
    """Whether objects stand frozen that gc_paused must never thaw: the parent's, in a worker
    process, or the program's own (a server that froze its objects before forking, say).

    gc.get_freeze_count() walks every frozen object (7 ms a call in a worker that inherited a
    parent's objects), so it is asked once per process.
    """
    global _frozen_by_program
    if _frozen_for_workers:
        return True
    pid = os.getpid()
    if _frozen_by_program is None or _frozen_by_program[0] != pid:
        _frozen_by_program = (pid, gc.get_freeze_count() > 0)
    return _frozen_by_program[1]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a whole text is read into records that are all
    kept (a command around parse_all): they are many and make no reference cycles, so the collector has nothing to
    find among them, and left on it would scan them again and again as they are made (it halves
    the speed of reading a big file).

    Afterwards the new objects are moved straight to the oldest generation (gc.freeze then
    gc.unfreeze), where the next full collection will see them, instead of all being scanned by
    the very next young-generation collection; unless other objects stand frozen, which
    gc.unfreeze would thaw with them.
    """
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not _others_frozen():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


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


@contextmanager
def imports_frozen() -> Iterator[None]:
    """Pause the collector while a command's modules are imported, then freeze what they made
    (as freeze_imports does): imports make thousands of objects and no garbage, so the
    collections they set off find nothing. `arbo check` of one game, its checker's modules so
    imported: 235.9M -> 233.0M instructions (bench/README.md, "Issue 49, point 3, fifth branch")."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def freeze_imports() -> None:
    """Freeze every object made so far (the modules and what their imports built), no collection
    first: for a command that then makes and drops many small objects (`arbo check`), whose
    collections would otherwise walk the imports' objects as they age. A worker pool's freeze and
    thaw (frozen_for_workers) thaws them too, which costs only this gain. `arbo check -q -j 1` of
    1,000 greedy two-player games in one file, 1,353.6M -> 1,337.8M instructions, a one-game check
    295.5M -> 279.6M: the collections of a check's start no longer walk them (bench/README.md)."""
    gc.freeze()
