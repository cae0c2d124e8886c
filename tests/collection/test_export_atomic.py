"""The Parquet export is replaced whole: a run killed at any moment (SIGKILL, at each step of the
swap too) leaves the old export whole or the new one whole; what arbo did not write is refused,
never removed; `arbo stats` reads an export's folder by its name, and a cut part is one error."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.notation.writer import format_games
from arbo_notation.play.simulate import simulate_games

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
runner = CliRunner()

#: Run as a process: `arbo convert ...` (its arguments after the first), killed by SIGKILL at the
#: N-th (the first argument) call that changes a folder: every step of the export and its swap.
KILLED_AT_STEP = """
import os, signal, sys
target, count = int(sys.argv[1]), 0
def killing(change):
    def changed(*args, **options):
        global count
        count += 1
        if count == target:
            os.kill(os.getpid(), signal.SIGKILL)
        return change(*args, **options)
    return changed
for name in ("mkdir", "symlink", "replace", "rename", "unlink", "rmdir"):
    setattr(os, name, killing(getattr(os, name)))
from arbo_notation.cli import main
sys.argv = ["arbo", "convert", *sys.argv[2:]]
main()
"""


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def export(out: Path, *inputs) -> None:
    done = run("convert", *inputs, "--to", "parquet", "-o", out, "-q")
    assert done.exit_code in (0, 1), done.output


@pytest.fixture(scope="module")
def new_records(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("records") / "new.arb"
    path.write_text(format_games(simulate_games(2, 30, "atomic")), encoding="utf-8")
    return path


def seen(out: Path) -> tuple[int, set, set, set]:
    """What a reader sees: `arbo stats`'s count of the games, and the files of each table."""
    done = run("stats", "--json", out)
    data = json.loads(done.stdout)
    total = data["games"] + data["invalid"] + data["unscored"]
    files = [
        set(pq.read_table(out / table, columns=["file"]).column("file").to_pylist())
        for table in ("games", "turns", "scores")
    ]
    return total, *files


@pytest.mark.slow
def test_a_run_killed_at_any_step_leaves_the_old_export_or_the_new_one_whole(tmp_path, new_records):
    pristine = tmp_path / "pristine"
    export(pristine, *sorted(SAMPLES.glob("*.arb")))
    old = seen(pristine)
    samples = len(list(SAMPLES.glob("*.arb")))  # a game a file
    assert old[0] == samples and old[1] == old[2] >= old[3] and len(old[1]) == samples
    out = tmp_path / "t"
    step, outcomes = 0, set()
    while True:
        step += 1
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(pristine, out, symlinks=True)
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                KILLED_AT_STEP,
                str(step),
                str(new_records),
                "--to",
                "parquet",
                "-o",
                str(out),
                "-q",
            ],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=120,
        )
        now = seen(out)
        if now[0] == samples:
            assert now == old, f"step {step}"
            outcomes.add("old")
        else:
            assert now[0] == 30 and now[1] == now[2] == now[3] == {str(new_records)}, f"step {step}: {now}"
            outcomes.add("new")
        if done.returncode == 0:
            break
        assert done.returncode == -signal.SIGKILL, done.stderr
        # the next run takes the folder as it was left, and leaves no stopped run's files
        export(out, new_records)
        assert seen(out)[0] == 30
        hidden = sorted(p.name for p in out.iterdir() if p.name.startswith("."))
        assert hidden[0] == ".current" and len(hidden) == 2 and hidden[1].startswith(".export-"), hidden
    # a kill between two steps (while the parts are written) leaves what a kill at the next step leaves
    assert step > 10 and outcomes == {"old", "new"}


def folder_with(tmp_path: Path) -> Path:
    out = tmp_path / "t"
    export(out, SAMPLES / "annotated.arb")
    return out


@pytest.mark.parametrize(
    "made, named",
    [
        ("games/part-00000.parquet/notes.txt", "{run}/games/part-00000.parquet"),  # a folder named as a part
        (".games.old/notes.txt", ".games.old/notes.txt"),
        (".games.partial/notes.txt", ".games.partial/notes.txt"),
        (".export-0123456789abcdef/notes.txt", ".export-0123456789abcdef/notes.txt"),
        (".export-0123456789abcdef/games/notes.txt", ".export-0123456789abcdef/games/notes.txt"),
        ("notes.txt", "notes.txt"),
    ],
)
def test_a_file_arbo_did_not_write_is_refused_and_kept(tmp_path, made, named):
    out = folder_with(tmp_path)
    if made.startswith("games/part-00000.parquet/"):
        (out / "games" / "part-00000.parquet").unlink()
    (out / made).parent.mkdir(parents=True, exist_ok=True)
    (out / made).write_text("mine")
    done = run("convert", SAMPLES / "annotated.arb", "--to", "parquet", "-o", out)
    assert done.exit_code == 1
    assert done.stderr == (
        f"arbo: {out}: holds {named.format(run=os.readlink(out / '.current'))}, which no "
        "export writes: give a new or empty directory, or an earlier export (arbo removes "
        "nothing it did not write)\n"
    )
    assert (out / made).read_text() == "mine"


def test_a_symbolic_link_at_a_hidden_name_is_refused_not_followed(tmp_path):
    out = folder_with(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "part-00000.parquet").write_text("mine")
    (out / ".games.partial").symlink_to(elsewhere)
    done = run("convert", SAMPLES / "annotated.arb", "--to", "parquet", "-o", out)
    assert done.exit_code == 1 and "holds .games.partial, which no export writes" in done.stderr
    assert (elsewhere / "part-00000.parquet").read_text() == "mine"


@pytest.mark.slow
def test_an_export_of_the_folders_layout_is_replaced_and_takes_the_links(tmp_path, new_records):
    """An export of arbo 0.1: the tables as folders, and a stopped run's .games.old."""
    out = folder_with(tmp_path)
    version = out / os.readlink(out / ".current")
    for table in ("games", "turns", "scores"):
        (out / table).unlink()
        (version / table).rename(out / table)
    (out / ".current").unlink()
    version.rmdir()
    shutil.copytree(out / "games", out / ".games.old")
    assert seen(out)[0] == 1
    export(out, new_records)
    assert seen(out)[0] == 30
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".export-")) == [
        ".current",
        "games",
        "scores",
        "turns",
    ]
    assert all((out / table).is_symlink() for table in ("games", "turns", "scores"))


@pytest.mark.parametrize(
    "name, sibling",
    [("club[2024]", "club2"), ("x?", "x1"), ("a*", "ab"), ("b\\[x", "b\\x"), ("c{1,2}", "c1"), ("plain", "plain2")],
)
def test_stats_reads_the_folder_it_is_given_by_its_name(tmp_path, name, sibling, new_records):
    export(tmp_path / name, SAMPLES / "annotated.arb")
    export(tmp_path / sibling, new_records)
    done = run("stats", "--json", tmp_path / name)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["games"] == 1


@pytest.mark.parametrize("name", ["t", "t[1]"])
def test_a_cut_part_is_one_clear_error(tmp_path, name):
    out = tmp_path / name
    export(out, SAMPLES / "annotated.arb")
    part = out / "scores" / "part-00000.parquet"
    data = part.read_bytes()
    part.write_bytes(data[: len(data) // 2])
    done = run("stats", out)
    assert done.exit_code == 1
    assert done.stderr.startswith(
        f"arbo: {out / os.readlink(out / '.current') / 'scores' / part.name}: not a whole Parquet file ("
    )
    assert done.stderr.endswith("); export the records again\n") and done.stderr.count("\n") == 1


def test_a_second_writer_of_an_export_is_refused(tmp_path):
    from arbo_notation.runtime.atomic import held_for_writing

    out = folder_with(tmp_path)
    before = sorted(p.name for p in out.iterdir())
    with held_for_writing(out):  # as a first run holds it while it writes
        done = run("convert", SAMPLES / "annotated.arb", "--to", "parquet", "-o", out)
    assert done.exit_code == 1
    assert (
        done.stderr == f"arbo: {out}: another arbo is writing this export (process {os.getpid()}); wait for it to end\n"
    )
    assert sorted(p.name for p in out.iterdir()) == before


def test_stats_refuses_the_tables_of_two_exports_that_arbo_0_1_could_leave(tmp_path, new_records):
    """Killed at its swap, arbo 0.1 left games of the new export beside turns and scores of the old."""
    out = folder_with(tmp_path)
    other = tmp_path / "other"
    export(other, new_records)
    for table in ("games", "turns", "scores"):
        (out / table).unlink()
        shutil.copytree((other if table == "games" else out / ".current") / table, out / table)
    shutil.rmtree(out / os.readlink(out / ".current"))
    (out / ".current").unlink()
    done = run("stats", out)
    assert done.exit_code == 1
    assert done.stderr == (
        f"arbo: {out}: its games and scores tables are of two different exports; export the records again\n"
    )


@pytest.mark.parametrize("command", ["convert", "simulate"])
def test_a_full_disk_is_one_message_and_the_old_export_stays(tmp_path, monkeypatch, command):
    import errno

    import pyarrow.parquet

    out = folder_with(tmp_path)
    old = seen(out)
    before = sorted(p.name for p in out.iterdir())

    def full(self, *args, **options):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pyarrow.parquet.ParquetWriter, "write_table", full)
    args = (
        ["convert", SAMPLES / "annotated.arb", "--to", "parquet", "-o", out]
        if command == "convert"
        else ["simulate", "-p", "2", "-j", "1", "--to", "parquet", "--out", out]
    )
    done = run(*args)
    assert done.exit_code == 1
    assert done.stderr.endswith(
        f"arbo: {out}: the export was not written (No space left on device); an export there before is left as it was\n"
    )
    monkeypatch.undo()
    assert seen(out) == old and sorted(p.name for p in out.iterdir()) == before
