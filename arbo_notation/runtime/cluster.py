"""Work shared out on a Dask cluster's workers (`--scheduler ADDRESS`): the local pool's tasks, in order.

The tasks are the ones the local pool runs (runtime/workers.py's ``in_order``): a picklable
function of picklable values, sent to the workers by reference, so arbo (the same version) must
be importable there. Results come back in the tasks' order, with a bounded number in flight.
A worker that dies takes its tasks with it: the scheduler runs them again on another worker
(a task is a seeded game, so the rerun gives the same result), and a task whose workers died
again and again (Dask's ``distributed.scheduler.allowed-failures``) ends the run with the local
pool's message, :class:`~arbo_notation.runtime.workers.WorkerLost`. A Ctrl-C (or SIGTERM, SIGHUP)
closes the client, which cancels the tasks not begun, and ends arbo by that signal; the workers
are not arbo's to end.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from arbo_notation.errors import ArboError
from arbo_notation.runtime.workers import WorkerLost, ending_signals

if TYPE_CHECKING:
    from distributed import Client

#: How long the scheduler has to answer, in seconds.
CONNECT_SECONDS = 10.0
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
    from distributed.comm import connect, get_address_host_port

    try:
        host, port = get_address_host_port(address)
    except (ValueError, TypeError, NotImplementedError) as error:
        raise ArboError(f"--scheduler {address}: not a Dask scheduler's address ({error})") from None
    try:  # a port nobody listens on is said at once (Dask would try again until its timeout)
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except TimeoutError:
        raise _unreachable(address, f"no answer within {CONNECT_SECONDS:g} s") from None
    except OSError as error:
        raise _unreachable(address, error.strerror or str(error)) from None

    async def greet() -> None:
        comm = await connect(address, timeout=CONNECT_SECONDS)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(greet(), CONNECT_SECONDS + 1))
    except (TimeoutError, asyncio.TimeoutError):
        raise _unreachable(address, f"no answer within {CONNECT_SECONDS:g} s") from None
    except OSError as error:
        raise _unreachable(address, error.strerror or str(error)) from None
    except Exception as error:  # noqa: BLE001  # whatever Dask makes of a port that is not a scheduler's
        raise _unreachable(address, f"what answers is no Dask scheduler: {type(error).__name__}") from None


@contextmanager
def cluster_client(address: str) -> Iterator[Client]:
    """A client of the scheduler at ``address`` for the block, closed with it; ArboError when
    distributed is missing or no scheduler answers within CONNECT_SECONDS."""
    try:
        # deferred: Dask's distributed (~0.9 s, and an optional extra) loads only for --scheduler
        from distributed import Client
    except ImportError:
        raise ArboError(NEEDS_CLUSTER_EXTRA) from None
    _probe(address)
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise _unreachable(address, str(error)) from None
    try:
        yield client
    finally:
        client.close()


#: How long a client closing on a signal has, in seconds (its default is twice the connect timeout).
CLOSE_SECONDS = 5.0


@contextmanager
def _ending_with_the_client(client: Client) -> Iterator[None]:
    """While the block runs, an ending signal closes the client (the scheduler cancels its
    tasks), then ends this process by the same signal, quietly: as the local pool ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def end(number: int, frame: object) -> None:
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


def on_cluster(address: str, work: Callable, tasks: Iterable, run: str) -> Iterator:
    """``work(task)`` of each task, in order, done by the workers of the Dask cluster whose
    scheduler is at ``address``; ``run`` names what has no result when workers are lost."""
    # deferred: with cluster_client's import of distributed
    from distributed import KilledWorker

    with cluster_client(address) as client, _ending_with_the_client(client):
        window = max(1, sum(client.nthreads().values())) * IN_FLIGHT_PER_THREAD
        pending: deque = deque()  # closing the client cancels what is still pending
        try:
            for task in tasks:
                pending.append(client.submit(work, task, pure=False))
                if len(pending) >= window:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except KilledWorker:
            raise WorkerLost(run) from None
