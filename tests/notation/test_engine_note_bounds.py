"""The engine's notes hold the bounds of the options their numbers come from: a note past them is
no note to the readers, and `arbo check` reports it where it stands (issue 45, point 14)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbo_notation.checking.games import check_text
from arbo_notation.cli.bounds import MOST_BUDGET as OPTION_MOST_BUDGET
from arbo_notation.notation.bounds import LEAST_BUDGET, MOST_BUDGET, MOST_POINTS
from arbo_notation.notation.engine_notes import may_hold_note_faults, note_fault, read_note
from arbo_notation.notation.model import Comment

ROOT = Path(__file__).resolve().parents[2]
ANALYSED = ROOT / "tests" / "analysis" / "fixtures" / "analysed.arb"
#: Line 27 of the fixture: turn 16, flagged `?`, its note 48 samples.
LINE = 27


def test_the_option_and_the_reader_have_one_bound():
    assert OPTION_MOST_BUDGET is MOST_BUDGET
    assert (LEAST_BUDGET, MOST_BUDGET, MOST_POINTS) == (1, 100_000, 9999)


@given(st.integers(min_value=0, max_value=10**12))
def test_a_note_reads_exactly_when_its_samples_are_in_the_bounds_of_budget(samples):
    text = f"arbo: ? -9.6 ({samples} samples); better d:Bs3 d:Ja1 Bs3@-3,0 /Ja1, 4.4 points better"
    inside = 1 <= samples <= 100_000
    note = read_note(Comment(text))
    assert (note is not None) == inside == (note_fault(text) is None)
    if note is not None:
        assert note.samples == samples
    assert may_hold_note_faults("1. Ana d d Ma1@0,0 /Ma2 {" + text + "}\n") == (not inside)


@pytest.mark.parametrize(
    "text, fault",
    [
        ("arbo: +1.0 (0 samples)", "the engine's note says 0 samples"),
        ("arbo: +10000.0 (48 samples)", "the engine's note says +10000.0 points"),
        ("arbo: -" + "9" * 400 + " (exact)", "the engine's note says -" + "9" * 400 + " points"),
        ("arbo: +1.0 (48 samples); 12345 points lost", "the engine's note says 12345 points"),
    ],
)
def test_a_note_past_its_bounds_says_which_number(text, fault):
    assert read_note(Comment(text)) is None
    assert (note_fault(text) or "").startswith(fault + ": ")


def test_a_person_comment_is_no_fault():
    for text in ("arbo: see (0 samples)", "arbo: +1.0 (0 samples) was the old way", "a note (0 samples)"):
        assert note_fault(text) is None


@pytest.mark.parametrize("samples", ["0", "1000000000", "100001"])
def test_check_reports_a_note_past_the_budget_bounds_where_it_stands(tmp_path, samples):
    text = ANALYSED.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert "(48 samples)" in lines[LINE - 1]
    lines[LINE - 1] = lines[LINE - 1].replace("(48 samples)", f"({samples} samples)")
    path = tmp_path / "edited.arb"
    path.write_text("\n".join(lines), encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "check", str(path)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 1
    assert checked.stdout == "1 game: 0 valid, 1 invalid\n"
    assert checked.stderr.splitlines()[0] == (
        f"{path}:{LINE}:38: error: the engine's note says {samples} samples: a budget is a whole number of "
        "sampled worlds from 1 to 100000, as --budget takes [note]"
    )
    # the quick path (no records kept) finds it as the full replay does
    quick = check_text("\n".join(lines), "edited.arb", keep_games=False)
    assert [(d.line, d.column, d.code) for d in quick.diagnostics] == [(LINE, 38, "note")]
    assert not quick.valid


def test_check_still_calls_the_analysed_record_valid():
    assert check_text(ANALYSED.read_text(encoding="utf-8"), "analysed.arb", keep_games=False).valid
