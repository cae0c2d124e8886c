"""Every process started while a block runs, and every process those start, ends with the block (Linux).

A bot's own children are not the bot's process group's when they leave it (setsid), and a child
whose parent died (a worker killed, a bot killed with its worker) is handed to PID 1, out of
reach. While :func:`ending_with_descendants` runs, this process is a child subreaper
(PR_SET_CHILD_SUBREAPER): an orphan of any process under it is handed to it instead, so every
process started under it stays its descendant, found in /proc by its parent links. When the block
ends, however it ends, :func:`end_descendants` kills them all (an ending signal's handler calls it
too, before this process ends by that signal). Children this process had before the block, and
theirs, are spared: a library caller's own processes are not arbo's.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: prctl's options (linux/prctl.h).
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
#: How long ending the descendants may take at most, in seconds (a kill takes microseconds; a
#: process forking as fast as it can is killed with its newest children, round after round).
ENDING_SECONDS = 5.0

#: While a block runs: this process's pid, and its children from before the block (spared).
_BLOCK: tuple[int, frozenset[int]] | None = None


def _prctl(option: int, value: object) -> int:
    import ctypes

    try:
        return int(ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0))
    except (OSError, AttributeError):
        return -1


def _processes() -> dict[int, tuple[int, str]]:
    """Every process's parent and state, from /proc (empty where there is none)."""
    found: dict[int, tuple[int, str]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        found[int(entry)] = (int(fields[1]), fields[0].decode("ascii", "replace"))
    return found


def _children(parent: int) -> set[int]:
    return {pid for pid, (ppid, _) in _processes().items() if ppid == parent}


def _descendants(root: int, spared: frozenset[int]) -> tuple[list[int], list[int]]:
    """The living descendants of ``root`` outside the subtrees of ``spared``, and its own
    children among them that are zombies (to reap)."""
    table = _processes()
    below: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        below.setdefault(ppid, []).append(pid)
    living, zombies = [], []
    queue = [pid for pid in below.get(root, []) if pid not in spared]
    while queue:
        pid = queue.pop()
        if table[pid][1] == "Z":
            if table[pid][0] == root:
                zombies.append(pid)
        else:
            living.append(pid)
        queue.extend(below.get(pid, []))
    return living, zombies


def end_descendants() -> None:
    """Kill every process started under the running block (see the module) until none is left,
    and reap those handed to this process. Does nothing outside a block, or in another process
    (a worker forked during the block)."""
    if _BLOCK is None or _BLOCK[0] != os.getpid():
        return
    me, spared = _BLOCK
    deadline = time.monotonic() + ENDING_SECONDS
    while True:
        living, zombies = _descendants(me, spared)
        for pid in zombies:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass  # reaped meanwhile by whoever started it
        if not living or time.monotonic() > deadline:
            return
        for pid in living:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.005)


@contextmanager
def ending_with_descendants() -> Iterator[None]:
    """While the block runs, orphans of the processes started under it come to this process
    (Linux); when it ends, however it ends, every one of those processes is killed. Blocks nest:
    the outermost rules."""
    global _BLOCK
    if _BLOCK is not None and _BLOCK[0] == os.getpid() or not sys.platform.startswith("linux"):
        yield
        return
    import ctypes

    was = ctypes.c_int(0)
    _prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(was))
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    _BLOCK = (os.getpid(), frozenset(_children(os.getpid())))
    try:
        yield
    finally:
        try:
            end_descendants()
        finally:
            _BLOCK = None
            _prctl(_PR_SET_CHILD_SUBREAPER, was.value)


__all__ = ["end_descendants", "ending_with_descendants"]
