"""`arbo puzzles`: a note past the bounds of --budget is one located message, not hours of work
or a traceback; -j gives the puzzles -j 1 gives; a terminal sees the progress (issue 45)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ANALYSED = ROOT / "tests" / "analysis" / "fixtures" / "analysed.arb"
#: Line 27 of the fixture: turn 16, flagged `?`, its note 48 samples.
LINE = 27


def arbo(*args: str, timeout: float = 120, **options) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args], capture_output=True, text=True, timeout=timeout, **options
    )


def with_samples(tmp_path: Path, samples: str, *, line: int | None = LINE) -> Path:
    """The analysed fixture, its notes (one line's, or every one) edited to ``samples``."""
    lines = ANALYSED.read_text(encoding="utf-8").split("\n")
    for number in [line] if line is not None else range(1, len(lines) + 1):
        lines[number - 1] = lines[number - 1].replace("(48 samples)", f"({samples} samples)")
    path = tmp_path / f"samples-{samples}.arb"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("samples", ["1000000000", "0"])
def test_a_note_past_the_budget_bounds_is_one_message_at_once(tmp_path, samples):
    path = with_samples(tmp_path, samples)
    out = tmp_path / "p.arb"
    result = arbo("puzzles", str(path), "-o", str(out), "-j", "1", timeout=30)  # today: hours, or StopIteration
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        f"{path}:{LINE}:38: error: the engine's note says {samples} samples: a budget is a whole number of "
        "sampled worlds from 1 to 100000, as --budget takes [note]"
    )
    assert result.stderr.splitlines()[-1] == f"arbo: wrote {out} (0 puzzles)"
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_jobs_give_the_puzzles_of_one_process(tmp_path):
    path = with_samples(tmp_path, "12", line=None)  # cheap notes: a puzzle in seconds
    one, two = tmp_path / "one.arb", tmp_path / "two.arb"
    alone = arbo("puzzles", str(path), "-o", str(one), "-j", "1")
    shared = arbo("puzzles", str(path), "-o", str(two), "--jobs", "2")
    assert (alone.returncode, alone.stderr) == (0, f"arbo: wrote {one} (1 puzzle)\n")
    assert (shared.returncode, shared.stderr) == (0, f"arbo: wrote {two} (1 puzzle)\n")
    assert one.read_text(encoding="utf-8") == two.read_text(encoding="utf-8")
    assert "  budget: 48\n" in one.read_text(encoding="utf-8")  # four times the notes' 12


def test_a_terminal_sees_the_progress_and_a_pipe_does_not(tmp_path):
    path = with_samples(tmp_path, "2", line=None)
    piped = arbo("puzzles", str(path), "-o", str(tmp_path / "a.arb"), "-j", "1")
    assert (piped.returncode, piped.stderr) == (0, f"arbo: wrote {tmp_path / 'a.arb'} (0 puzzles)\n")
    leader, follower = os.openpty()
    try:
        shown = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "puzzles", str(path), "-o", str(tmp_path / "b.arb"), "-j", "1"],
            stdout=subprocess.DEVNULL,
            stderr=follower,
            timeout=120,
        )
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end is closed: all is read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
    assert shown.returncode == 0
    assert b"judging" in seen and b"100%" in seen
