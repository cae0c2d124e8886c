"""The phone's recorder (serve/recorder.py): what `arbo record` asks and checks, the file written
under its lock, and an entry never written twice (its id, and the record it was typed on)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arbo_notation.record.session import open_session
from arbo_notation.serve.paths import Served
from arbo_notation.serve.recorder import Recorder, digest
from tests.serve.support import ROOT, arbo_env, record

SAMPLE = ROOT / "samples" / "unfinished.arb"
TURN = "d d Ca7@-6,0 /Ma5"  # a legal 15th turn of the sample (Ana's hand is not known to Ben's record)
HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Bs, Ca, Cb, Dw, Ja, Ma]\nperspective: Ana\n---\n"


@pytest.fixture
def table(tmp_path: Path) -> Path:
    shutil.copy(SAMPLE, tmp_path / "table.arb")
    return tmp_path / "table.arb"


def test_the_state_is_what_arbo_record_asks(table: Path) -> None:
    state = Recorder(Served.of(table)).state("table.arb")
    assert state["prompt"] == "turn 15: Ana to play · deck 7"
    assert state["phase"] == "turns" and state["seat"] == "Ben"
    assert state["hand"] == [str(card) for card in open_session(table).game.hand("Ben").known]
    assert len(state["hand"]) == 7
    assert state["turns"][-1] == "14. Ben d:Dw7 d:Bs1 Cb2@-5,0 /Bs2"
    assert state["base"] == digest(table.read_text())


def test_the_seat_is_asked_its_dealt_hand_first(tmp_path: Path) -> None:
    (tmp_path / "new.arb").write_text(HEADER)
    recorder = Recorder(Served.of(tmp_path / "new.arb"))
    state = recorder.state("new.arb")
    assert (state["phase"], state["prompt"]) == ("hand", "Ana's dealt hand: the 7 cards")
    answer = recorder.enter("new.arb", "h1", state["base"], "Bs1 Bs2 Ca3 Cb4 Dw5 Ja6 Ma7")
    assert answer.status == "ok"
    assert answer.state is not None and answer.state["hand"] == ["Bs1", "Bs2", "Ca3", "Cb4", "Dw5", "Ja6", "Ma7"]
    assert answer.state["prompt"] == "turn 1: Ana to play · deck 34"


def test_completions_are_the_sessions(table: Path) -> None:
    offered = Recorder(Served.of(table)).completions("table.arb", "d d Ca")
    assert offered == {"start": 4, "choices": ["Ca7@"], "hint": "", "problem": ""}
    assert offered["choices"] == list(open_session(table).completions("d d Ca").choices)


def test_an_entry_is_written_and_undone(table: Path) -> None:
    recorder = Recorder(Served.of(table))
    before = recorder.state("table.arb")
    answer = recorder.enter("table.arb", "a", before["base"], TURN)
    assert answer.status == "ok"
    assert "\n15. Ana d d Ca7@-6,0 /Ma5\n" in table.read_text()
    assert answer.state is not None and answer.state["base"] == digest(table.read_text())
    undone = recorder.enter("table.arb", "b", answer.state["base"], "undo")
    assert undone.status == "ok"
    assert "15." not in table.read_text() and recorder.state("table.arb")["turns"] == before["turns"]


def test_a_refused_entry_says_why_and_writes_nothing(table: Path) -> None:
    recorder = Recorder(Served.of(table))
    answer = recorder.enter("table.arb", "a", recorder.state("table.arb")["base"], "d d Bs1@9,9 /Ma1")
    assert (answer.status, answer.message, answer.column) == (
        "refused",
        "Ana cannot plant Bs1 at (9,9): Bs1 is already in Ben's hand",
        5,
    )
    assert table.read_text() == SAMPLE.read_text()


def test_an_entry_sent_twice_is_written_once(table: Path) -> None:
    recorder = Recorder(Served.of(table))
    base = recorder.state("table.arb")["base"]
    first = recorder.enter("table.arb", "same", base, TURN)
    written = table.read_text()
    again = recorder.enter("table.arb", "same", base, TURN)
    assert again == first and table.read_text() == written
    # the server started again (its answers forgotten): the record it was typed on is gone
    restarted = Recorder(Served.of(table)).enter("table.arb", "same", base, TURN)
    assert restarted.status == "changed" and table.read_text() == written
    assert restarted.state is not None and restarted.state["turns"][-1] == "15. Ana d d Ca7@-6,0 /Ma5"


def test_an_entry_typed_on_an_older_record_is_not_applied(table: Path) -> None:
    recorder = Recorder(Served.of(table))
    base = recorder.state("table.arb")["base"]
    assert record(table, TURN).returncode == 0  # a terminal recorded the turn meanwhile
    written = table.read_text()
    answer = recorder.enter("table.arb", "late", base, "d d Ma5@1,0 /Ca7")
    assert answer.status == "changed" and table.read_text() == written


def test_one_writer_at_a_time_whatever_the_mix(table: Path) -> None:
    """`arbo record` at a terminal holds the file: the phone is told, and writes once it is done."""
    recorder = Recorder(Served.of(table))
    base = recorder.state("table.arb")["base"]
    terminal = subprocess.Popen(
        [sys.executable, "-m", "arbo_notation", "record", str(table), "--plain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=arbo_env(),
    )
    try:
        lock = table.parent / ".table.arb.lock"
        deadline = time.monotonic() + 20
        while not lock.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        answer = recorder.enter("table.arb", "p1", base, TURN)
        assert answer.status == "busy" and f"(process {terminal.pid})" in answer.message
        assert table.read_text() == SAMPLE.read_text()
    finally:
        terminal.communicate("", timeout=30)
    assert recorder.enter("table.arb", "p1", base, TURN).status == "ok"


def test_a_finished_record_takes_no_entry(tmp_path: Path) -> None:
    shutil.copy(ROOT / "samples" / "annotated.arb", tmp_path / "done.arb")
    recorder = Recorder(Served.of(tmp_path / "done.arb"))
    state = recorder.state("done.arb")
    assert state["done"] and state["phase"] == "done"
    answer = recorder.enter("done.arb", "x", state["base"], "undo")
    assert answer.status == "closed" and "finished game" in answer.message


def test_an_entry_too_long_is_refused(table: Path) -> None:
    recorder = Recorder(Served.of(table))
    answer = recorder.enter("table.arb", "x", recorder.state("table.arb")["base"], "{" + "a" * 600 + "}")
    assert answer.status == "refused" and table.read_text() == SAMPLE.read_text()
