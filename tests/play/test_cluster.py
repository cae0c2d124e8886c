"""--scheduler: simulate and match on a Dask cluster the tests start (a scheduler and two workers on
127.0.0.1), the same bytes as a local run; the messages of a cluster missing, unreachable, silent,
without a worker, or killed mid-match."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbo_notation.errors import ArboError
from arbo_notation.runtime import cluster
from arbo_notation.runtime.cluster import NEEDS_CLUSTER_EXTRA, cluster_client

ROOT = Path(__file__).resolve().parents[2]


def arbo(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args], capture_output=True, timeout=timeout, cwd=ROOT
    )


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A local cluster: two worker processes of two threads each (so one worker plays two spans at
    once, each with bot processes of its own), no dashboard."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=2, processes=True, host="127.0.0.1", dashboard_address=None
    ) as local:
        yield local.scheduler_address


def bots_on_workers(address: str) -> list[str]:
    """The command lines of the processes the cluster's workers have started and not ended."""
    from distributed import Client

    def children() -> list[str]:
        import psutil

        return [" ".join(child.cmdline()) for child in psutil.Process().children(recursive=True)]

    with Client(address, set_as_default=False) as client:
        return [line for lines in client.run(children).values() for line in lines if "bot" in line]


@pytest.mark.slow
def test_simulate_on_the_cluster_writes_the_bytes_of_a_local_run(scheduler):
    options = ("simulate", "-p", "3", "-n", "20", "--seed", "cl", "--bot", "greedy,random,greedy")
    local = arbo(*options, "-j", "1")
    remote = arbo(*options, "--scheduler", scheduler)
    assert remote.returncode == 0, remote.stderr.decode()
    assert remote.stderr == b""
    assert local.stdout.count(b"\nresult ") == 20
    assert remote.stdout == local.stdout


@pytest.mark.slow
def test_match_on_the_cluster_writes_the_records_and_summary_of_a_local_run(scheduler, tmp_path):
    options = ("match", "greedy", "random", "-n", "20", "--duplicate", "--seed", "cl", "--json")
    local = arbo(*options, "-j", "1", "--out", str(tmp_path / "local"))
    remote = arbo(*options, "--out", str(tmp_path / "remote"), "--scheduler", scheduler)
    assert remote.returncode == 0, remote.stderr.decode()
    mine, theirs = json.loads(remote.stdout), json.loads(local.stdout)
    assert mine.pop("out") == str(tmp_path / "remote") and theirs.pop("out") == str(tmp_path / "local")
    assert mine == theirs and mine["games"] == 20
    files = sorted(path.name for path in (tmp_path / "local").iterdir())
    assert files == sorted(path.name for path in (tmp_path / "remote").iterdir()) and len(files) == 20
    for name in files:
        assert (tmp_path / "remote" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()
    # every bot process a task started ended with the task: the workers, which live on, hold none
    assert bots_on_workers(scheduler) == []


@pytest.mark.slow
def test_a_ctrl_c_closes_the_client_and_ends_arbo_by_the_signal(scheduler, tmp_path):
    run = subprocess.Popen(
        [sys.executable, "-m", "arbo_notation", "simulate", "-p", "2", "-n", "5000", "--seed", "c"]
        + ["--scheduler", scheduler, "--out", str(tmp_path / "games")],
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 60
    while not (tmp_path / "games" / "game-0001.arb").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=30)
    assert run.returncode == -signal.SIGINT
    assert b"Traceback" not in err
    assert len(list((tmp_path / "games").iterdir())) < 5000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("command", [("simulate", "-p", "2"), ("match", "greedy", "random", "-n", "2", "--out", "x")])
def test_an_unreachable_scheduler_is_one_message_and_status_1(command, tmp_path):
    address = f"tcp://127.0.0.1:{free_port()}"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", *command, "--scheduler", address],
        capture_output=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
    )
    assert time.monotonic() - started < cluster.CONNECT_SECONDS + 20
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr.decode() == (
        f"arbo: no Dask scheduler answers at {address} (Connection refused): start one, or give its address\n"
    )


def test_an_address_that_is_none_says_so():
    with pytest.raises(ArboError, match=r"--scheduler nonsense::: not a Dask scheduler's address"):
        with cluster_client("nonsense::"):
            pass


def test_without_the_extra_the_message_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed: its import fails
    with pytest.raises(ArboError) as raised:
        with cluster_client("tcp://127.0.0.1:8786"):
            pass
    assert str(raised.value) == NEEDS_CLUSTER_EXTRA
    assert "pip install 'arbo-notation[cluster]'" in NEEDS_CLUSTER_EXTRA


def start_dask(tmp_path: Path, *args: str, name: str) -> subprocess.Popen:
    """A `dask scheduler` or `dask worker` process (``name``), its log in tmp_path/NAME.log."""
    log = (tmp_path / f"{name}.log").open("wb")
    module = {"scheduler": "distributed.cli.dask_scheduler", "worker": "distributed.cli.dask_worker"}[name]
    return subprocess.Popen([sys.executable, "-m", module, *args], stdout=log, stderr=log, cwd=tmp_path)


def scheduler_address(tmp_path: Path, process: subprocess.Popen) -> str:
    """The address the scheduler started by start_dask says it listens at."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        said = re.search(r"Scheduler at:\s+(tcp://\S+)", (tmp_path / "scheduler.log").read_text())
        if said:
            return said.group(1)
        time.sleep(0.1)
    raise AssertionError((tmp_path / "scheduler.log").read_text())


def end(*processes: subprocess.Popen) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


@pytest.mark.slow
def test_a_scheduler_killed_mid_match_is_one_message_and_the_records_written_stay_whole(tmp_path):
    scheduler = start_dask(tmp_path, "--host", "127.0.0.1", "--port", "0", "--no-dashboard", name="scheduler")
    worker = None
    try:
        address = scheduler_address(tmp_path, scheduler)
        worker = start_dask(tmp_path, address, "--nthreads", "1", "--no-nanny", "--no-dashboard", name="worker")
        games = tmp_path / "games"
        run = subprocess.Popen(
            [sys.executable, "-m", "arbo_notation", "match", "greedy", "random", "-n", "2000", "--seed", "k"]
            + ["--scheduler", address, "--out", str(games)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        deadline = time.monotonic() + 90
        while not (games / "game-0017.arb").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        scheduler.kill()
        out, err = run.communicate(timeout=60)
    finally:
        end(scheduler, *([worker] if worker else []))
    assert err.decode() == (
        f"arbo: the Dask scheduler at {address} went away: the match stopped (what was written before is whole); "
        "start the scheduler again, and run it again\n"
    )
    assert (run.returncode, out) == (1, b"")
    written = sorted(games.iterdir())
    assert 17 <= len(written) < 2000
    assert [path.name for path in written] == [f"game-{n:04d}.arb" for n in range(1, len(written) + 1)]
    check = arbo("check", "-q", str(games))
    assert (check.returncode, check.stderr) == (0, b"")


@pytest.mark.slow
def test_a_scheduler_with_no_worker_is_waited_for_a_bounded_time_then_said(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    scheduler = start_dask(tmp_path, "--host", "127.0.0.1", "--port", "0", "--no-dashboard", name="scheduler")
    try:
        address = scheduler_address(tmp_path, scheduler)
        commands = [
            ("match", "greedy", "random", "-n", "2", "--out", str(tmp_path / "m"), "--scheduler", address),
            ("simulate", "-p", "2", "-n", "2", "--out", str(tmp_path / "s"), "--scheduler", address),
        ]
        started = time.monotonic()
        with ThreadPoolExecutor(2) as both:  # match and simulate wait side by side
            runs = list(both.map(lambda command: arbo(*command, timeout=60), commands))
        took = time.monotonic() - started
    finally:
        end(scheduler)
    for done in runs:
        assert done.stderr.decode() == (
            f"arbo: the Dask scheduler at {address} has no worker (waited {cluster.WORKER_SECONDS:g} s): "
            f"start one (dask worker {address}), and run it again\n"
        )
        assert (done.returncode, done.stdout) == (1, b"")
    assert cluster.WORKER_SECONDS <= took < cluster.WORKER_SECONDS + 15
    assert not (tmp_path / "m").exists() and not (tmp_path / "s").exists()  # a run that played nothing made nothing


@pytest.mark.slow
def test_a_port_that_accepts_and_says_nothing_is_reported_within_the_documented_10_s(tmp_path):
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # connections are accepted by the kernel, and never answered
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        started = time.monotonic()
        done = arbo("match", "greedy", "random", "-n", "2", "--out", str(tmp_path / "m"), "--scheduler", address)
        took = time.monotonic() - started
    assert done.stderr.decode() == (
        f"arbo: no Dask scheduler answers at {address} (no answer within {cluster.CONNECT_SECONDS:g} s): "
        "start one, or give its address\n"
    )
    assert done.returncode == 1
    assert took < 10
    assert not (tmp_path / "m").exists()
