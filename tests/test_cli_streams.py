"""Standard output that the reader closes (`arbo ... | head -1`): every command stops quietly, status 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORD = str(ROOT / "samples" / "four-players.arb")


@pytest.mark.parametrize("args", [
    ["replay", "--plain", RECORD],
    ["fmt", RECORD],
    ["convert", RECORD, "--to", "yaml"],
    ["check", "--json", RECORD],
    ["state", RECORD],
    ["score", RECORD],
    ["simulate", "--players", "2"],
], ids=lambda args: args[0])
def test_a_closed_output_pipe_ends_every_command_quietly_with_status_0(args):
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first line: every write meets a broken pipe
    try:
        done = subprocess.run([sys.executable, "-m", "arbo_notation", *args], stdout=writer, stderr=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr.decode()) == (0, "")


def test_head_of_a_plain_replay_exits_0():
    done = subprocess.run(f"{sys.executable} -m arbo_notation replay --plain {RECORD} | head -1; "
                          "echo \"status ${PIPESTATUS[0]}\"", shell=True, executable="/bin/bash", capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, text=True)
    assert done.stdout.splitlines()[-1] == "status 0" and done.stderr == ""
