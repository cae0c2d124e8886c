"""Commands that rewrite a record in place (analyse --in-place, fmt --in-place) against a real
`arbo record --plain` adding a turn: no recorded turn is ever written over."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arbo_notation.runtime.atomic import FileChanged, fingerprint, rewrite_unchanged
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game
from tests.record.test_record import Recorder  # `arbo record FILE --plain` as a real process

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture(scope="module")
def two():
    return simulate_game(("Ana", "Ben"), 4)


def ten_turns(two) -> str:
    """The omniscient record of the game's first 10 turns (every mover's hand known: analyse judges them)."""
    return format_game(dataclasses.replace(two, turns=two.turns[:10], reveals=(), result=None))


def arbo(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args],
        input=input,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
    )


def turns_in(path: Path) -> int:
    return len(parse(path.read_text(encoding="utf-8"), str(path))[0].turns)


def wait_until_held(recorder: Recorder, path: Path) -> None:
    """Wait until the recorder holds ``path`` (its lock file names it)."""
    lock = path.parent / f".{path.name}.lock"
    for _ in range(600):
        if lock.exists() and lock.read_text() == f"process {recorder.process.pid}":
            return
        time.sleep(0.05)
    raise AssertionError("the recorder never took the file")


@pytest.mark.parametrize(
    "command",
    [["analyse", "--in-place", "--turn", "9", "--budget", "4", "-j", "1"], ["fmt", "--in-place"]],
    ids=["analyse", "fmt"],
)
def test_a_rewrite_while_record_holds_the_file_is_refused_and_the_turn_it_adds_is_kept(tmp_path, two, command):
    game = tmp_path / "game.arb"
    game.write_text(ten_turns(two).replace("\n1. ", "\n1.  "), encoding="utf-8")  # not canonical: fmt rewrites it
    before = game.read_bytes()
    recorder = Recorder(game)
    wait_until_held(recorder, game)
    done = arbo(*command, str(game))
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1 if command[0] == "analyse" else 0] == (
        f"arbo: {game}: not rewritten: another arbo is writing it (process {recorder.process.pid}), "
        "such as arbo record; run again when it is done"
    )
    assert game.read_bytes() == before
    assert recorder.ok(two.turns[10].notation()) == f"ok 11. {two.turns[10].notation()}"
    assert recorder.close() == 0
    assert turns_in(game) == 11


@pytest.mark.slow
def test_analyse_in_place_refuses_to_write_over_a_turn_recorded_while_it_ran(tmp_path, two):
    game = tmp_path / "game.arb"
    game.write_text(ten_turns(two), encoding="utf-8")
    analyse = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "arbo_notation",
            "analyse",
            str(game),
            "--in-place",
            "--turn",
            "9",
            "--budget",
            "800",
            "-j",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    try:
        time.sleep(2)  # analyse has read the 10 turns (in some 0.5 s) and is judging turn 9 (10 s or more)
        recorded = arbo("record", str(game), "--plain", input=two.turns[10].notation() + "\n")
        assert recorded.stdout == f"ok 11. {two.turns[10].notation()}\n", recorded.stderr
        assert analyse.poll() is None, "analyse ended before the turn was recorded: the race was not run"
        out, err = analyse.communicate(timeout=300)
    finally:
        analyse.kill()
    assert analyse.returncode == 1
    assert err.splitlines()[-1] == (
        f"arbo: {game}: not rewritten: it changed since it was read (a turn recorded meanwhile?); run again"
    )
    assert turns_in(game) == 11
    # once the recording is done, a second run rewrites it, the 11 turns kept
    done = arbo("analyse", str(game), "--in-place", "--turn", "9", "--budget", "4", "-j", "1")
    assert done.returncode == 0, done.stderr
    assert turns_in(game) == 11
    assert "arbo:" in game.read_text(encoding="utf-8")


def test_rewrite_unchanged_writes_only_what_it_read_and_only_unheld(tmp_path):
    path = tmp_path / "game.arb"
    path.write_text("old\n")
    read = fingerprint(path)
    path.write_text("recorded meanwhile\n")
    with pytest.raises(FileChanged):
        rewrite_unchanged(path, "stale copy\n", read)
    assert path.read_text() == "recorded meanwhile\n"
    read = fingerprint(path)
    rewrite_unchanged(path, "new\n", read)
    assert path.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.arb"]  # the lock file is gone


@pytest.mark.slow
def test_analyse_out_onto_its_own_file_is_held_as_in_place(tmp_path, two):
    game = tmp_path / "game.arb"
    game.write_text(ten_turns(two), encoding="utf-8")
    before = game.read_bytes()
    recorder = Recorder(game)
    wait_until_held(recorder, game)
    done = arbo("analyse", str(game), "-o", str(game), "--turn", "9", "--budget", "4", "-j", "1")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith(f"arbo: {game}: not rewritten: another arbo is writing it")
    assert game.read_bytes() == before
    assert recorder.ok(two.turns[10].notation()) == f"ok 11. {two.turns[10].notation()}"
    assert recorder.close() == 0
    assert turns_in(game) == 11


@pytest.mark.parametrize("command", [["analyse", "--in-place"], ["analyse"], ["fmt", "--in-place"]])
def test_a_missing_record_is_one_message(tmp_path, command):
    missing = tmp_path / "nope.arb"
    done = arbo(*command, str(missing))
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == f"arbo: {missing}: no such file" and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
