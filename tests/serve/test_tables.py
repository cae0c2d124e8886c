"""A record's public state (serve/tables.py): a spectator's record without comments or variations
until the result, the multiboard's line, and a record that cannot be shown said in words that
quote nothing of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.serve.tables import public_record, read_snapshot

ROOT = Path(__file__).resolve().parents[2]


def record_of(name: str):  # type: ignore[no-untyped-def]
    path = ROOT / "samples" / name
    return parse_all(path.read_text(), name).games[0]


def test_before_the_result_a_viewer_gets_a_spectators_record_bare() -> None:
    record = record_of("unfinished.arb")
    public = public_record(record)
    assert public.header.hands == {} and public.header.perspective is None
    assert str(public.turns[1].draws[0]) == "d" and str(record.turns[1].draws[0]) == "d:Dw5"
    assert all(not t.comments_after and not t.comments_before and not t.variations for t in public.turns)
    assert public.comments == ()


def test_after_the_result_a_viewer_gets_the_whole_record() -> None:
    record = record_of("annotated.arb")
    assert record.finished and public_record(record) is record


def test_the_multiboard_line_of_a_table(tmp_path: Path) -> None:
    shutil.copy(ROOT / "samples" / "unfinished.arb", tmp_path / "t.arb")
    summary = read_snapshot(tmp_path / "t.arb", "t.arb", 7).summary
    assert summary == {
        "name": "t.arb",
        "title": "Ana vs Ben",
        "about": "Lunch break · 2026-11-20",
        "status": "playing",
        "turns": 14,
        "toMove": "Ana",
        "deck": 7,
        "scores": [["Ana", 6], ["Ben", 11]],
        "verdict": "",
        "last": "14. Ben d d Cb2@-5,0 /Bs2",
    }


@pytest.mark.parametrize(
    ("sample", "message"),
    [
        ("bad-card-value.arb", "the record cannot be read now"),
        ("rule-hand-of-eight.arb", "the record does not check: arbo check t.arb says why"),
    ],
)
def test_a_record_that_cannot_be_shown_is_said_without_quoting_it(tmp_path: Path, sample: str, message: str) -> None:
    shutil.copy(ROOT / "samples" / "invalid" / sample, tmp_path / "t.arb")
    snapshot = read_snapshot(tmp_path / "t.arb", "t.arb", 1)
    assert snapshot.summary["status"] == "unreadable" and snapshot.summary["message"] == message
    assert snapshot.data["games"] == []


def test_a_missing_file_is_said(tmp_path: Path) -> None:
    snapshot = read_snapshot(tmp_path / "gone.arb", "gone.arb", 1)
    assert snapshot.summary["message"] == "the file cannot be read now"
