"""The one pool of worker processes of every command that shares work out (check, simulate, analyse).

Design, in short:

* Workers are forked on Linux (the parent's modules are loaded once; its objects frozen for the
  collector: gcpause.frozen_for_workers) by a ProcessPoolExecutor, from the main thread.
* A worker ends when its parent ends, however the parent ends, SIGKILL included: on Linux the
  kernel sends it SIGKILL when the parent dies (prctl PR_SET_PDEATHSIG, set by the worker's
  initializer, which then checks that the parent is still the one that forked it: a parent that
  died before the prctl would be missed); elsewhere a thread of the worker watches its parent.
  So no worker is left holding the caller's pipes (``arbo simulate ... | cat`` ends).
* While the pool works, SIGINT, SIGTERM, SIGHUP and SIGQUIT kill the workers (and, under
  runtime/descendants.py's block, every process they started) and then the parent by the same signal (the status a shell shows as 128 + N), without a traceback. Workers
  ignore SIGINT: a Ctrl-C reaches the whole terminal group and is the parent's to handle.
* A submit may fork a worker: it runs with those signals held back (``WorkerPool.submit``), so a
  signal never lands between the fork and the pool's record of the new worker.
* A worker that dies on its own (killed, out of memory) makes the run fail with
  :class:`WorkerLost`, one clear message and exit status 1.
"""

from __future__ import annotations

import functools
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

from arbo_notation.errors import ArboError
from arbo_notation.runtime.gcpause import frozen_for_workers

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future  # imported when a pool is made (threading, logging)

Task = TypeVar("Task")
Result = TypeVar("Result")
Arguments = TypeVarTuple("Arguments")

# signal, threading and multiprocessing are imported by the functions that need them: a command
# run in one process (a check of a few games, most often) does without them.


def usable_cores() -> int:
    """The cores this process may run on (its affinity), busy or not: what -j 0 counts."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def jobs_for(jobs: int, units: int) -> int:
    """The worker processes for ``units`` pieces of work asked with -j ``jobs`` (0: every usable
    core): never more than the usable cores, nor than the pieces (more only cost their start:
    -j 1000 of a check was 16 times slower than -j 1); 1 means this process does the work."""
    cores = usable_cores()
    return max(1, min(jobs or cores, cores, units))


class WorkerLost(ArboError):
    """A worker process ended before its work was done (killed, or out of memory): the run has
    no result."""

    def __init__(self, run: str) -> None:
        super().__init__(
            f"a worker process ended before its work was done (killed, or out of memory); "
            f"the {run} has no result: run it again, or with -j 1"
        )


@functools.cache
def ending_signals() -> tuple[int, ...]:
    """The signals that end a run in workers: each ends the workers, then this process, with the
    signal's own exit status and no traceback."""
    import signal

    return tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name))


#: prctl's option that asks the kernel for a signal when the parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1
#: How often a worker without prctl looks whether its parent is still there, in seconds.
_WATCH_SECONDS = 0.5


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this worker when ``parent`` dies (Linux), else a thread watch it."""
    import signal

    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
        if armed:
            if os.getppid() != parent:  # the parent died before the prctl: nobody will signal
                os._exit(1)
            return
    import threading

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="arbo-parent-watch", daemon=True).start()


def _worker_start(parent: int) -> None:
    """In each worker: end with the parent; the ending signals act as they do by default but for
    SIGINT, ignored (a Ctrl-C, sent to the whole terminal group, is the parent's to handle: it
    ends the workers itself)."""
    import signal

    _die_with_parent(parent)
    for number in ending_signals():
        signal.signal(number, signal.SIG_IGN if number == signal.SIGINT else signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked inside WorkerPool.submit, the signals held back
        signal.pthread_sigmask(signal.SIG_UNBLOCK, ending_signals())


def end_workers() -> None:
    """Kill every worker process of this process."""
    import multiprocessing

    for child in multiprocessing.active_children():
        child.kill()


@contextmanager
def ending_with_the_workers() -> Iterator[None]:
    """While the block runs, an ending signal kills this process's workers and then this process
    by the same signal (the status a shell shows as 128 + N, 130 for a Ctrl-C), quietly. Only the
    main thread may set handlers; elsewhere nothing changes."""
    import signal
    import threading

    # deferred: it imports signal, which a check of a few games in one process does without
    from arbo_notation.runtime.descendants import end_descendants

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def end(number: int, frame: FrameType | None) -> None:
        end_workers()
        end_descendants()  # the workers' bots and their children (runtime/descendants.py)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)

    before = {number: signal.signal(number, end) for number in ending_signals()}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


class WorkerPool:
    """A pool of worker processes whose submits hold back the ending signals (see the module)."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    def submit(self, work: Callable[[*Arguments], Result], *arguments: *Arguments) -> Future[Result]:
        """``work(*arguments)`` in a worker: a future. A submit may fork a worker: a signal
        handled between the fork and the pool's record of the process would end every other
        worker and leave that one running, holding the caller's pipes. The threads a submit
        starts keep the mask, so a signal always reaches the main thread's handler."""
        import signal

        if not hasattr(signal, "pthread_sigmask"):
            return self._executor.submit(work, *arguments)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, ending_signals())
        try:
            return self._executor.submit(work, *arguments)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextmanager
def worker_pool(jobs: int, run: str) -> Iterator[WorkerPool]:
    """``jobs`` worker processes for the block, ended with it; the ending signals handled while
    it runs. A worker lost raises WorkerLost(``run``: what has no result, e.g. "check")."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Forked on Linux whatever Python's default (forkserver from 3.14 on, whose workers are not
    # this process's children); elsewhere the default (spawn on macOS: fork is unsafe there).
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    try:
        with ending_with_the_workers(), frozen_for_workers():
            executor = ProcessPoolExecutor(
                max_workers=jobs, mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
            )
            try:
                yield WorkerPool(executor)
            except BaseException:
                end_workers()
                # Joined, not left to Python's exit: there the pool's wake-up pipe, closed by the
                # pool's own thread meanwhile, could be written to ("Bad file descriptor" on stderr).
                executor.shutdown(wait=True, cancel_futures=True)
                raise
            executor.shutdown(wait=True)
    except BrokenProcessPool:
        end_workers()
        raise WorkerLost(run) from None


def in_order(pool: WorkerPool, work: Callable[[Task], Result], tasks: Iterable[Task], window: int) -> Iterator[Result]:
    """``work(task)`` of each task, in order, done by the pool's workers; at most ``window``
    tasks in flight, so memory holds a few results whatever the number of tasks."""
    pending: deque[Future[Result]] = deque()
    for task in tasks:
        pending.append(pool.submit(work, task))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()
