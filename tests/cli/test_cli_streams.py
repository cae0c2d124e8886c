"""Standard output that cannot take the output: a reader that stops reading (`arbo ... | head -1`) ends every
command quietly with status 0; a full disk or a closed stdout with one line on stderr and status 1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORD = str(ROOT / "samples" / "four-players.arb")


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "--plain", RECORD],
        ["fmt", RECORD],
        ["convert", RECORD, "--to", "yaml"],
        ["check", "--json", RECORD],
        ["state", RECORD],
        ["score", RECORD],
        ["simulate", "--players", "2"],
    ],
    ids=lambda args: args[0],
)
def test_a_closed_output_pipe_ends_every_command_quietly_with_status_0(args):
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first line: every write meets a broken pipe
    try:
        done = subprocess.run(
            [sys.executable, "-m", "arbo_notation", *args],
            stdout=writer,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=120,
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr.decode()) == (0, "")


def test_head_of_a_plain_replay_exits_0():
    done = subprocess.run(
        f'{sys.executable} -m arbo_notation replay --plain {RECORD} | head -1; echo "status ${{PIPESTATUS[0]}}"',
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        text=True,
    )
    assert done.stdout.splitlines()[-1] == "status 0" and done.stderr == ""


SEATS = sorted(str(path) for path in (ROOT / "samples" / "seats").glob("*.arb"))
OMNISCIENT = str(ROOT / "samples" / "two-player-omniscient.arb")

#: Every command that writes to standard output, with small valid arguments.
WRITERS = [
    ["check", RECORD],
    ["check", "--json", RECORD],
    ["score", RECORD],
    ["state", RECORD],
    ["fmt", RECORD],
    ["convert", RECORD, "--to", "json"],
    ["simulate", "--players", "2", "-n", "1"],
    ["stats", RECORD],
    ["grep", "--player", "Ana", RECORD],
    ["grep", "--list", RECORD],
    ["new", "--players", "Ana,Ben"],
    ["species"],
    ["replay", "--plain", RECORD],
    ["export", RECORD, "--to", "html", "-o", "-"],
    ["render", RECORD, "-o", "-"],
    ["merge", *SEATS],
    ["analyse", OMNISCIENT, "-t", "3", "-b", "2", "-j", "1"],
    ["--help"],
    ["--version"],
    ["check", "--help"],
]


def _run_with_stdout(args: list[str], stdout) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        text=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize("args", WRITERS, ids=" ".join)
def test_a_full_disk_on_stdout_ends_every_command_with_one_line_and_status_1(args):
    with open("/dev/full", "w") as full:
        done = _run_with_stdout(args, full)
    assert (done.returncode, done.stderr) == (1, "arbo: cannot write to standard output: No space left on device\n")


@pytest.mark.parametrize("args", [["check", RECORD], ["fmt", RECORD], ["species"]], ids=" ".join)
def test_a_closed_stdout_ends_a_command_with_one_line_and_status_1(args):
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args],
        stderr=subprocess.PIPE,
        close_fds=True,
        preexec_fn=lambda: os.close(1),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        text=True,
    )
    assert (done.returncode, done.stderr) == (1, "arbo: cannot write to standard output: it is closed\n")
