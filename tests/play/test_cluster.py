"""--scheduler: simulate and match on a Dask cluster the tests start (a scheduler and two workers on
127.0.0.1), the same bytes as a local run; the messages of a cluster missing or unreachable."""

from __future__ import annotations

import json
import os
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
