"""Folders give their regular files only, and a FIFO named to be read never hangs: real FIFOs
(os.mkfifo) under tmp_path, every command that reads folders run as a process with a time-out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arbo_notation.errors import ArboError
from arbo_notation.runtime.atomic import fingerprint
from arbo_notation.runtime.sources import FIFO_WRITER_SECONDS, read_bytes, records_under, text_blocks

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "annotated.arb"


def arbo(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args],
        input=stdin,
        capture_output=True,
        text=False,
        timeout=60,  # a hang fails here
        cwd=cwd,
        env=env,
    )


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A folder of one record, a FIFO named as a record beside it and another in a subfolder."""
    folder = tmp_path / "club"
    (folder / "old").mkdir(parents=True)
    shutil.copy(SAMPLE, folder / "game.arb")
    os.mkfifo(folder / "pipe.arb")
    os.mkfifo(folder / "old" / "pipe.arb")
    return folder


SKIPPED = (
    "arbo: club/old/pipe.arb: skipped: a FIFO, not a regular file\n"
    "arbo: club/pipe.arb: skipped: a FIFO, not a regular file\n"
)


def test_records_under_gives_regular_files_and_links_to_them_and_tells_of_the_rest(club: Path):
    os.symlink(club / "game.arb", club / "link.arb")
    told: list[tuple[str, str]] = []
    found = records_under([str(club)], skipped=lambda path, what: told.append((path, what)))
    assert found == [str(club / "game.arb"), str(club / "link.arb")]
    assert told == [(str(club / "old" / "pipe.arb"), "a FIFO"), (str(club / "pipe.arb"), "a FIFO")]
    assert records_under([str(club)]) == found  # no one to tell: skipped all the same


@pytest.mark.parametrize(
    "args, status, out",
    [
        (["check", "club"], 0, b"1 game: 1 valid, 0 invalid\n"),
        (["ratings", "club"], 0, None),
        (["stats", "club"], 0, None),
        (["grep", "--duplicates", "club"], 0, b""),
        (["convert", "club", "--to", "parquet", "-o", "tables"], 0, b""),
    ],
)
def test_a_fifo_in_a_folder_is_skipped_and_said(args: list[str], status: int, out: bytes | None, club: Path):
    done = arbo(*args, cwd=club.parent)
    lines = done.stderr.decode().splitlines(keepends=True)
    assert "".join(line for line in lines if "skipped" in line) == SKIPPED  # one line each, in the order of paths
    assert done.returncode == status, done.stderr
    if out is not None:
        assert done.stdout == out
    assert "Traceback" not in done.stderr.decode()


def test_puzzles_skips_a_fifo_in_a_folder(club: Path):
    done = arbo("puzzles", "club", "-o", "puzzles.arb", cwd=club.parent)
    assert done.stderr.decode() == SKIPPED + "arbo: no analysed game in club: run `arbo analyse` on the games first\n"
    assert done.returncode == 1  # the one record is not analysed: as without the FIFOs


@pytest.mark.parametrize(
    "args",
    [
        ["check", "lone.arb"],
        ["ratings", "lone.arb"],
        ["stats", "lone.arb"],
        ["grep", "--duplicates", "lone.arb"],
        ["puzzles", "lone.arb", "-o", "p.arb"],
        ["score", "lone.arb"],
        ["fmt", "lone.arb"],
        ["replay", "--plain", "lone.arb"],
        ["analyse", "lone.arb"],
    ],
)
def test_a_fifo_named_with_no_writer_is_refused_in_bounded_time(args: list[str], tmp_path: Path):
    os.mkfifo(tmp_path / "lone.arb")
    started = time.monotonic()
    done = arbo(*args, cwd=tmp_path)
    assert time.monotonic() - started < FIFO_WRITER_SECONDS + 15
    said = f": is a FIFO that no program writes to (waited {FIFO_WRITER_SECONDS:g} s), not a record file"
    assert said in done.stderr.decode() and done.stderr.decode().startswith(("arbo: lone.arb", "lone.arb"))
    assert "Traceback" not in done.stderr.decode()
    assert done.returncode == 1


def test_a_device_named_is_refused(tmp_path: Path):
    done = arbo("stats", "/dev/zero", cwd=tmp_path)
    assert done.stderr == b"arbo: /dev/zero: is a device, not a record file (it may never end)\n"
    assert done.returncode == 1


def test_standard_input_and_a_fifo_with_a_writer_are_still_read(tmp_path: Path):
    assert arbo("check", "-", cwd=tmp_path, stdin=SAMPLE.read_bytes()).stdout == b"1 game: 1 valid, 0 invalid\n"
    fifo = tmp_path / "fed.arb"
    os.mkfifo(fifo)

    def feed() -> None:
        time.sleep(0.5)  # the reader is waiting for its writer by then
        fifo.write_bytes(SAMPLE.read_bytes())

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        done = arbo("check", "fed.arb", cwd=tmp_path)
    finally:
        writer.join(timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"1 game: 1 valid, 0 invalid\n", b"")


def test_a_fifo_whose_writer_closed_at_once_reads_as_empty(tmp_path: Path):
    fifo = tmp_path / "empty.arb"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(b""))
    writer.start()
    try:
        assert "".join(text_blocks(fifo)) == ""
    finally:
        writer.join(timeout=10)


def unblocked_later(fifo: Path) -> threading.Timer:
    """A writer that opens and closes ``fifo`` after 15 s: a reader that would wait for ever ends
    (and its test fails) instead of hanging the suite."""

    def open_and_close() -> None:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass  # no reader waiting: nothing to unblock

    timer = threading.Timer(15, open_and_close)
    timer.start()
    return timer


def test_the_readers_refuse_a_fifo_without_a_writer(tmp_path: Path):
    fifo = tmp_path / "lone.arb"
    os.mkfifo(fifo)
    guard = unblocked_later(fifo)
    try:
        for read in (read_bytes, lambda path: "".join(text_blocks(path))):
            with pytest.raises(ArboError, match="is a FIFO that no program writes to"):
                read(fifo)
    finally:
        guard.cancel()


def test_a_fifo_has_no_fingerprint_and_taking_it_does_not_wait(tmp_path: Path):
    fifo = tmp_path / "lone.arb"
    os.mkfifo(fifo)
    guard = unblocked_later(fifo)
    started = time.monotonic()
    try:
        with pytest.raises(OSError, match="not a regular file"):
            fingerprint(fifo)
    finally:
        guard.cancel()
    assert time.monotonic() - started < 1
