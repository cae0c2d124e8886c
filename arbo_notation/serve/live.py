"""The served records followed live: each file looked at every poll (its inode, size and time, no
extra dependency), read again when it changed, and its new public state published to the viewers
after the broadcast's delay. Every viewer waits on one shared future: a change wakes them all and
nothing is kept per viewer, so memory does not grow with connections or turns."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from arbo_notation.serve.paths import Served
from arbo_notation.serve.tables import Snapshot, file_key, read_snapshot

#: How often the files are looked at (seconds): a stat each, a few microseconds a file.
POLL_SECONDS = 0.1


@dataclass(slots=True)
class Table:
    """One record followed: its latest state and the one viewers see (``delay`` seconds older)."""

    name: str
    key: tuple[int, int, int] | None = None
    latest: Snapshot | None = None
    shown: Snapshot | None = None
    pending: deque[tuple[float, Snapshot]] = field(default_factory=deque)  # states waiting out the delay


class Hub:
    """Every record of the served PATH, followed; viewers wait for the next state with ``changed``."""

    def __init__(self, served: Served, delay: float = 0.0, poll: float = POLL_SECONDS) -> None:
        self.served = served
        self.delay = delay
        self.poll = poll
        self.boot = secrets.token_hex(4)  # event ids of another run of the server are never taken for ours
        self.tables: dict[str, Table] = {}
        self.version = 0  # grows with every state read, of any table
        self.published = 0  # grows with every change viewers see (the multiboard's version)
        self._wake: asyncio.Future[None] | None = None
        self.closing = asyncio.Event()
        self.streams = 0  # viewers connected now

    def ident(self, version: int) -> str:
        return f"{self.boot}-{version}"

    async def look(self) -> bool:
        """Read again each record whose file changed (and take in new and removed ones), then
        publish what has waited out the delay; True when something was published. The reading is
        done in a thread, the publishing on the event loop."""
        names = await asyncio.to_thread(self.served.names)
        changed = False
        for name in list(self.tables):
            if name not in names:
                del self.tables[name]
                changed = True
        for name in names:
            table = self.tables.setdefault(name, Table(name))
            path = self.served.root / name
            key = file_key(path)
            if key != table.key:
                table.key = key
                self.version += 1
                table.latest = await asyncio.to_thread(read_snapshot, path, name, self.version)
                table.pending.append((time.monotonic() + self.delay, table.latest))
            now = time.monotonic()
            while table.pending and table.pending[0][0] <= now:
                table.shown = table.pending.popleft()[1]
                changed = True
        if changed:
            self.published += 1
            self._publish()
        return changed

    def _publish(self) -> None:
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)

    def waiter(self) -> asyncio.Future[None]:
        """What the next state published (or the server closing) completes: taken before a viewer
        reads the state it sends, so nothing published meanwhile is missed."""
        if self._wake is None:
            self._wake = asyncio.get_running_loop().create_future()
        return self._wake

    def close(self) -> None:
        self.closing.set()
        self._publish()

    async def follow(self) -> None:
        """Look at the files every poll until the server closes."""
        while not self.closing.is_set():
            await self.look()
            try:
                await asyncio.wait_for(self.closing.wait(), self.poll)
            except TimeoutError:
                pass
        self._publish()

    def shown(self, name: str) -> Snapshot | None:
        table = self.tables.get(name)
        return None if table is None else table.shown

    def board(self) -> list[dict[str, Any]]:
        """The multiboard's lines, as viewers may see them now."""
        return [table.shown.summary for table in self.tables.values() if table.shown is not None]
