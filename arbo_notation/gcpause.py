"""Pausing the cyclic garbage collector while a big file is read or checked."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while many objects without reference cycles are made.

    Records, and the check of plain games, make many small objects and no reference cycles, so
    the collector has nothing to find among them; left on, it would scan them again and again
    as they are made (about a third of the parse time of a big file). Afterwards the new objects
    are moved straight to the oldest generation (gc.freeze then gc.unfreeze), where the next full
    collection will see them, instead of all being scanned by the very next young-generation
    collection.
    """
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:  # never thaw what the program itself froze
                gc.freeze()
                gc.unfreeze()
            gc.enable()
