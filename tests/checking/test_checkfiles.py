"""`arbo check` in worker processes finds exactly what it finds in one process, a game at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbo_notation.checking import files as checkfiles
from arbo_notation.checking.files import auto_jobs, check_files
from arbo_notation.notation.writer import format_games
from arbo_notation.play.simulate import simulate_games

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _summaries(found):
    return [(s.file, s.games, s.valid, s.diagnostics, s.unreadable) for s in found]


@pytest.fixture(scope="module")
def big_text() -> str:
    text = format_games(simulate_games(3, 40, "workers", bots=("random",)))
    games = text.split("\n---\nplayers")
    games[5] = games[5].replace("/", "/Zz", 1)  # a syntax error
    games[17] = games[17].replace("@0,0", "@3,3", 1)  # a rule error
    games[30] = games[30].replace("result ", "result Ana 1, ", 1)  # a wrong result
    return "\n---\nplayers".join(games)


def test_workers_find_what_one_process_finds(tmp_path: Path, big_text: str, monkeypatch):
    monkeypatch.setattr(checkfiles, "SPLIT_FROM", 8 << 10)  # big files cut into runs of a few games
    monkeypatch.setattr(checkfiles, "UNIT_BYTES", 12 << 10)
    big = tmp_path / "big.arb"
    big.write_text("{text before the first header}\n" + big_text)
    crlf = tmp_path / "crlf.arb"
    crlf.write_bytes(big_text.replace("\n", "\r\n").encode())
    broken = tmp_path / "not-utf8.arb"
    broken.write_bytes(big_text[: len(big_text) // 2].encode() + b"\xff" + big_text[len(big_text) // 2 :].encode())
    small = sorted(SAMPLES.glob("*.arb")) + sorted((SAMPLES / "invalid").glob("*.arb"))
    files = [
        str(big),
        str(tmp_path / "missing.arb"),
        *map(str, small[:20]),
        str(crlf),
        str(broken),
        *map(str, small[20:]),
    ]
    serial = check_files(files, 1)
    assert [s.games for s in serial[:1]] == [41]  # the text before the header counts as a game that cannot be read
    assert serial[files.index(str(broken))].unreadable
    for jobs in (2, 3):
        assert _summaries(check_files(files, jobs)) == _summaries(serial)
    progress: list[int] = []
    assert _summaries(check_files(files, 2, progress.append)) == _summaries(serial)
    assert sum(progress) == sum(Path(f).stat().st_size for f in files if Path(f).exists())


def test_the_default_uses_workers_only_for_work_worth_them(monkeypatch, tmp_path: Path):
    monkeypatch.setattr(checkfiles, "usable_cores", lambda: 4)
    monkeypatch.setattr(checkfiles.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(checkfiles.os, "getloadavg", lambda: (0.0, 0.0, 0.0))  # an idle machine
    one = tmp_path / "one.arb"
    one.write_text((SAMPLES / "annotated.arb").read_text())
    assert auto_jobs([str(one)] * 100) == 1  # a hundred small files: quicker here than starting workers
    assert auto_jobs([str(one)] * 1000) == 4  # a thousand: worth it
    assert auto_jobs([str(one)], [1 << 20]) == 1  # a megabyte (four hundred games): here
    assert auto_jobs([str(one)], [3 << 20]) == 4  # three megabytes (a thousand games): twelve runs of games
    assert auto_jobs([str(one)], [30 << 20]) == 4  # thirty: a hundred and twenty runs of games
    assert auto_jobs([str(one)] * 2, [9 << 20, 100]) == 4
    monkeypatch.setattr(checkfiles, "usable_cores", lambda: 1)
    assert auto_jobs([str(one)] * 10000) == 1


@pytest.mark.parametrize(
    "cpus, affinity, load, expected",
    [
        (2, 2, 0.0, 2),  # both cores idle: two workers
        (2, 2, 0.4, 2),  # a little load: still two
        (2, 2, 1.0, 1),  # the other core busy: -j 1, never slower than it
        (2, 2, 7.5, 1),  # a machine shared by eight: -j 1
        (8, 8, 3.0, 5),  # five of eight cores free
        (8, 2, 0.0, 2),  # the cores this process may run on, not the machine's
        (8, 2, 6.6, 1),  # ... and only those free now
    ],
)
def test_the_default_counts_the_cores_free_now(monkeypatch, tmp_path: Path, cpus, affinity, load, expected):
    monkeypatch.setattr(checkfiles.os, "cpu_count", lambda: cpus)
    monkeypatch.setattr(checkfiles.os, "sched_getaffinity", lambda pid: set(range(affinity)))
    monkeypatch.setattr(checkfiles.os, "getloadavg", lambda: (load, load, load))
    one = tmp_path / "one.arb"
    one.write_text((SAMPLES / "annotated.arb").read_text())
    assert checkfiles.idle_cores() == expected
    assert auto_jobs([str(one)], [30 << 20]) == expected  # work worth eight workers
