"""A plain install (no 'data', no 'cluster' extra): every command answers without a traceback, and
a command that needs an extra names it in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.not_installed import NOT_INSTALLED

from arbo_notation.cli.application import COMMANDS
from arbo_notation.collection.rows import NEEDS_DATA_EXTRA
from arbo_notation.runtime.cluster import NEEDS_CLUSTER_EXTRA

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "samples" / "annotated.arb")
EXTRAS = ("pyarrow", "duckdb", "dask", "distributed")

#: Runs `arbo ARGS` as the console script does, with the modules named in $ARBO_TEST_BLOCKED
#: refused at import, as on a machine where they are not installed.
PLAIN = (
    NOT_INSTALLED
    + """sys.argv = ["arbo", *sys.argv[1:]]
from arbo_notation.cli import main
main()
"""
)


def plain_arbo(*args: str, cwd: Path, blocked: tuple[str, ...] = EXTRAS) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "ARBO_TEST_BLOCKED": ",".join(blocked),
    }
    return subprocess.run(
        [sys.executable, "-c", PLAIN, *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env
    )


def test_the_wrapper_does_block_the_extras(tmp_path: Path):
    done = plain_arbo("species", cwd=tmp_path)
    assert done.returncode == 0
    probe = subprocess.run(
        [sys.executable, "-c", PLAIN.replace("from arbo_notation.cli import main\nmain()", "import pyarrow")],
        capture_output=True,
        text=True,
        env={**os.environ, "ARBO_TEST_BLOCKED": "pyarrow"},
    )
    assert "ModuleNotFoundError: No module named 'pyarrow'" in probe.stderr


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_s_help_on_a_plain_install(command: str, tmp_path: Path):
    done = plain_arbo(command, "--help", cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"Usage: arbo {command} ")


@pytest.mark.parametrize(
    "args, missing",
    [
        (["stats", SAMPLE], "pyarrow"),
        (["stats", SAMPLE, "--json"], "pyarrow"),
        (["convert", SAMPLE, "--to", "parquet", "-o", "tables"], "pyarrow"),
        (["simulate", "-p", "2", "-n", "2", "--to", "parquet", "-o", "tables"], "pyarrow"),
    ],
)
def test_a_command_of_the_data_extra_names_it_and_writes_nothing(args: list[str], missing: str, tmp_path: Path):
    done = plain_arbo(*args, cwd=tmp_path)
    assert done.stderr == f"arbo: {NEEDS_DATA_EXTRA.format(module=missing)}\n"
    assert "'data' extra" in done.stderr
    assert (done.returncode, done.stdout) == (1, "")
    assert list(tmp_path.iterdir()) == []


def test_stats_with_pyarrow_but_not_duckdb_names_duckdb(tmp_path: Path):
    done = plain_arbo("stats", SAMPLE, cwd=tmp_path, blocked=("duckdb",))
    assert done.stderr == f"arbo: {NEEDS_DATA_EXTRA.format(module='duckdb')}\n"
    assert done.returncode == 1


def test_bare_stats_on_a_plain_install_is_a_usage_error(tmp_path: Path):
    done = plain_arbo("stats", cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert done.returncode == 2
    assert done.stderr.startswith("Usage: arbo stats [OPTIONS] FILE|DIR...\n")
    assert "missing argument FILE|DIR" in done.stderr


@pytest.mark.parametrize(
    "args, made",
    [
        (["match", "greedy", "random", "--games", "2", "--out", "m"], "m"),
        (["simulate", "-p", "2", "-n", "2", "--out", "s"], "s"),
        (["simulate", "-p", "2", "-n", "2", "--out", "s.arb"], "s.arb"),
        (["simulate", "-p", "2", "-n", "2", "--to", "parquet", "--out", "t"], "t"),
    ],
)
def test_scheduler_without_the_cluster_extra_names_it_and_makes_nothing(args: list[str], made: str, tmp_path: Path):
    done = plain_arbo(*args, "--scheduler", "tcp://127.0.0.1:8786", cwd=tmp_path)
    assert done.stderr == f"arbo: {NEEDS_CLUSTER_EXTRA}\n"
    assert (done.returncode, done.stdout) == (1, "")
    assert not (tmp_path / made).exists()


@pytest.mark.parametrize(
    "args",
    [
        ["check", SAMPLE],
        ["ratings", SAMPLE],
        ["grep", "--duplicates", SAMPLE],
        ["simulate", "-p", "2", "-n", "1"],
        ["match", "greedy", "random", "--games", "2", "-j", "1", "--out", "m"],
    ],
)
def test_commands_of_no_extra_run_on_a_plain_install(args: list[str], tmp_path: Path):
    done = plain_arbo(*args, cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
