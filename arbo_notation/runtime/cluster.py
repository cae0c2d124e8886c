"""Work shared out on a Dask cluster's workers (`--scheduler ADDRESS`): the local pool's tasks, in order.

The tasks are the ones the local pool runs (runtime/workers.py's ``in_order``): a picklable
function of picklable values, sent to the workers by reference, so arbo (the same version) must
be importable there. Results come back in the tasks' order, with a bounded number in flight.
A worker that dies takes its tasks with it: the scheduler runs them again on another worker
(a task is a seeded game, so the rerun gives the same result), and a task whose workers died
again and again (Dask's ``distributed.scheduler.allowed-failures``) ends the run with the local
pool's message, :class:`~arbo_notation.runtime.workers.WorkerLost`. A scheduler that goes away
ends the run with one message, and a scheduler with no worker for WORKER_SECONDS too. A Ctrl-C (or
SIGTERM, SIGHUP) closes the client, which cancels the tasks not begun, and ends arbo by that
signal; the workers are not arbo's to end.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, TypeVar

from arbo_notation.errors import ArboError
from arbo_notation.runtime.workers import WorkerLost, ending_signals

if TYPE_CHECKING:
    from distributed import Client, Future

Task = TypeVar("Task")
Result = TypeVar("Result")

#: How long the scheduler has to answer, in seconds: docs/COMMANDS.md promises the message within
#: 10 s of arbo's start, which with Dask's import takes a second or two (three on a busy machine).
CONNECT_SECONDS = 7.0
#: How long a run waits for a worker, in seconds: at its start, or when every worker has left.
WORKER_SECONDS = 30.0
#: How long a client closing has, in seconds (its default is twice the connect timeout).
CLOSE_SECONDS = 5.0
#: How often a run waiting for a result asks the scheduler whether it still has a worker.
_POLL_SECONDS = 1.0
#: Tasks in flight per thread of the cluster's workers: enough to keep them busy between the
#: results this process takes in order, few enough that memory holds a few results.
IN_FLIGHT_PER_THREAD = 2
#: What --scheduler says when Dask's distributed is not installed.
NEEDS_CLUSTER_EXTRA = (
    "--scheduler needs Dask's distributed, which is not installed: "
    "pip install 'arbo-notation[cluster]' (or pip install '.[cluster]' in arbo's checkout)"
)


def _unreachable(address: str, why: str) -> ArboError:
    return ArboError(f"no Dask scheduler answers at {address} ({why}): start one, or give its address")


def _probe(address: str) -> None:
    """Greet the scheduler as Dask does, within CONNECT_SECONDS; ArboError when no scheduler
    answers. A Client that fails to connect leaves a traceback on stderr and a wait of twice its
    timeout when it is collected, so the address is tried before any Client is made."""
    import asyncio

    # deferred: with the client below (distributed, ~0.9 s), only for --scheduler
    from distributed.comm.addressing import get_address_host_port
    from distributed.comm.core import connect

    try:
        host, port = get_address_host_port(address)
    except (ValueError, TypeError, NotImplementedError) as error:
        raise ArboError(f"--scheduler {address}: not a Dask scheduler's address ({error})") from None
    # one deadline for both steps: a port that accepts and then says nothing is reported in
    # CONNECT_SECONDS, not in the sum of two time-outs
    deadline = time.monotonic() + CONNECT_SECONDS
    try:  # a port nobody listens on is said at once (Dask would try again until its timeout)
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except TimeoutError:
        raise _unreachable(address, f"no answer within {CONNECT_SECONDS:g} s") from None
    except OSError as error:
        raise _unreachable(address, error.strerror or str(error)) from None

    async def greet(seconds: float) -> None:
        comm = await connect(address, timeout=seconds)
        await comm.close()

    left = max(0.1, deadline - time.monotonic())
    try:
        asyncio.run(asyncio.wait_for(greet(left), left))
    except (TimeoutError, asyncio.TimeoutError):
        raise _unreachable(address, f"no answer within {CONNECT_SECONDS:g} s") from None
    except OSError as error:
        raise _unreachable(address, error.strerror or str(error)) from None
    except Exception as error:  # noqa: BLE001  # whatever Dask makes of a port that is not a scheduler's
        raise _unreachable(address, f"what answers is no Dask scheduler: {type(error).__name__}") from None


def _distributed() -> None:
    """Import Dask's distributed; ArboError naming the extra when it is not installed."""
    try:
        # deferred: Dask's distributed (~0.9 s, and an optional extra) loads only for --scheduler
        import distributed  # noqa: F401  # imported for its absence, said here, before any work
    except ImportError:
        raise ArboError(NEEDS_CLUSTER_EXTRA) from None


def check_scheduler(address: str) -> None:
    """ArboError unless Dask's distributed is installed and a scheduler answers at ``address``:
    for a command to call before it makes a folder or a file, so a run that cannot start leaves
    nothing behind."""
    _distributed()
    _probe(address)


@contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's own log lines held back for the block: a scheduler lost is said once, by arbo, not
    as Dask's reconnection tracebacks. Its loggers are set back after."""
    # Dask's configuration gives some of its loggers a level of their own (distributed.client):
    # each is quieted, and the ones made later inherit the quiet of "distributed"
    names = ["distributed"] + [name for name in logging.root.manager.loggerDict if name.startswith("distributed.")]
    before = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for name, level in before.items():
            logging.getLogger(name).setLevel(level)


@contextmanager
def cluster_client(address: str) -> Iterator[Client]:
    """A client of the scheduler at ``address`` for the block, closed with it; ArboError when
    distributed is missing or no scheduler answers within CONNECT_SECONDS."""
    _distributed()
    from distributed import Client  # deferred: as _distributed's import

    _probe(address)
    with _dask_quiet():
        try:
            client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise _unreachable(address, str(error)) from None
        try:
            yield client
        finally:
            try:
                client.close(timeout=CLOSE_SECONDS)
            except (OSError, TimeoutError, RuntimeError):
                pass  # the scheduler gone: there is nothing left to close


@contextmanager
def _ending_with_the_client(client: Client) -> Iterator[None]:
    """While the block runs, an ending signal closes the client (the scheduler cancels its
    tasks), then ends this process by the same signal, quietly: as the local pool ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def end(number: int, frame: FrameType | None) -> None:
        try:
            client.close(timeout=CLOSE_SECONDS)
        except (OSError, TimeoutError, RuntimeError):
            pass  # the scheduler gone or slow: it drops a client's tasks when its connection ends
        sys.stderr.flush()
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)

    before = {number: signal.signal(number, end) for number in ending_signals()}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


class SchedulerLost(ArboError):
    """The scheduler went away while a run waited for its results."""

    def __init__(self, address: str, run: str) -> None:
        super().__init__(
            f"the Dask scheduler at {address} went away: the {run} stopped "
            "(what was written before is whole); start the scheduler again, and run it again"
        )


class NoWorker(ArboError):
    """The scheduler had no worker for WORKER_SECONDS."""

    def __init__(self, address: str) -> None:
        super().__init__(
            f"the Dask scheduler at {address} has no worker (waited {WORKER_SECONDS:g} s): "
            f"start one (dask worker {address}), and run it again"
        )


def _workers_within(client: Client, address: str, seconds: float) -> None:
    """Return once the scheduler has a worker; NoWorker after ``seconds`` without one."""
    try:
        client.wait_for_workers(1, timeout=seconds)
    except TimeoutError:
        raise NoWorker(address) from None


def _result(client: Client, future: Future[Result], address: str) -> Result:
    """The future's result, asking the scheduler every _POLL_SECONDS whether a worker is left to
    run it: NoWorker once it has had none for WORKER_SECONDS (a task may take long; a task no
    worker can run would be waited for forever)."""
    alone_since: float | None = None
    while True:
        try:
            return future.result(timeout=_POLL_SECONDS)
        except TimeoutError:
            pass
        if client.nthreads():
            alone_since = None
            continue
        alone_since = alone_since if alone_since is not None else time.monotonic()
        _workers_within(client, address, max(0.1, WORKER_SECONDS - (time.monotonic() - alone_since)))


def on_cluster(address: str, work: Callable[[Task], Result], tasks: Iterable[Task], run: str) -> Iterator[Result]:
    """``work(task)`` of each task, in order, done by the workers of the Dask cluster whose
    scheduler is at ``address``; ``run`` names what has no result when workers are lost, or the
    scheduler, or when it has no worker for WORKER_SECONDS."""
    with cluster_client(address) as client, _ending_with_the_client(client):
        # deferred: with cluster_client's import of distributed, which names the extra when missing
        from distributed import KilledWorker
        from distributed.client import ClosedClientError
        from distributed.comm.core import CommClosedError

        pending: deque[Future[Result]] = deque()  # closing the client cancels what is still pending
        try:
            _workers_within(client, address, WORKER_SECONDS)
            window = max(1, sum(client.nthreads().values())) * IN_FLIGHT_PER_THREAD
            for task in tasks:
                pending.append(client.submit(work, task, pure=False))
                if len(pending) >= window:
                    yield _result(client, pending.popleft(), address)
            while pending:
                yield _result(client, pending.popleft(), address)
        except KilledWorker:
            raise WorkerLost(run) from None
        except (CancelledError, ClosedClientError, CommClosedError):
            # the futures cancelled, the client closed or its connection lost: each is how Dask
            # says the scheduler went away (a task's own error, even an OSError, goes on as it is)
            raise SchedulerLost(address, run) from None
