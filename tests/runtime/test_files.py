"""Writing files whole (arbo_notation/runtime/atomic.py) and every command that writes files using it:
a kill or a full disk at any moment leaves the old file or the new one, never a cut one."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.runtime import atomic as files
from arbo_notation.cli import app
from arbo_notation.runtime.atomic import write_atomic

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "annotated.arb"
runner = CliRunner()

UNTIDY = SAMPLE.read_text(encoding="utf-8").replace("\n1. ", "\n1.   ", 1)


def untidy_file(folder: Path, name: str = "game.arb") -> Path:
    path = folder / name
    path.write_text(UNTIDY, encoding="utf-8")
    return path


def left_over(folder: Path) -> list[str]:
    """Temporary files the writer left in a folder."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


class DiskFull:
    """os.write that writes ``room`` bytes in all, then fails as a full disk does."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.real = os.write

    def __call__(self, fd: int, data) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        written = self.real(fd, bytes(data[: self.room]))
        self.room -= written
        return written


# -- the writer --------------------------------------------------------------------------------


def test_a_new_file_gets_the_data_and_the_usual_mode(tmp_path: Path):
    path = tmp_path / "new.arb"
    write_atomic(path, "é\n")
    assert path.read_bytes() == "é\n".encode("utf-8")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert left_over(tmp_path) == []


def test_text_is_written_as_given_without_line_end_translation(tmp_path: Path):
    path = tmp_path / "f.arb"
    write_atomic(path, "a\nb\r\n")
    assert path.read_bytes() == b"a\nb\r\n"


def test_the_old_files_mode_is_kept(tmp_path: Path):
    path = tmp_path / "old.arb"
    path.write_text("old\n")
    path.chmod(0o640)
    write_atomic(path, "new\n")
    assert path.read_text() == "new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_symbolic_link_is_written_through_and_stays_a_link(tmp_path: Path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "game.arb"
    target.write_text("old\n")
    target.chmod(0o600)
    link = tmp_path / "link.arb"
    link.symlink_to(Path("real") / "game.arb")  # relative, as links usually are
    write_atomic(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / "game.arb")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert left_over(tmp_path) == [] and left_over(tmp_path / "real") == []


def test_a_full_disk_half_way_leaves_the_old_file_whole_and_no_temporary(tmp_path: Path, monkeypatch):
    path = tmp_path / "game.arb"
    path.write_text("the old text\n" * 1000)
    monkeypatch.setattr(files.os, "write", DiskFull(5000))
    with pytest.raises(OSError) as raised:
        write_atomic(path, "the new text\n" * 1000)
    assert raised.value.errno == errno.ENOSPC
    assert path.read_text() == "the old text\n" * 1000
    assert left_over(tmp_path) == []


def test_an_interrupt_half_way_leaves_the_old_file_whole_and_no_temporary(tmp_path: Path, monkeypatch):
    path = tmp_path / "game.arb"
    path.write_text("old\n")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, "new\n")
    assert path.read_text() == "old\n" and left_over(tmp_path) == []


def test_a_file_this_process_may_not_write_is_not_replaced(tmp_path: Path, monkeypatch):
    path = tmp_path / "readonly.arb"
    path.write_text("old\n")
    path.chmod(0o444)  # root may write it all the same: ask os.access as another user would get it
    monkeypatch.setattr(files.os, "access", lambda name, mode: Path(name) != path)
    with pytest.raises(PermissionError):
        write_atomic(path, "new\n")
    assert path.read_text() == "old\n" and left_over(tmp_path) == []


def test_a_pipe_is_not_replaced(tmp_path: Path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as raised:
        write_atomic(fifo, "x")
    assert "not a regular file" in str(raised.value)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and left_over(tmp_path) == []


def test_a_folder_that_is_a_file_is_an_os_error(tmp_path: Path):
    (tmp_path / "plain").write_text("")
    with pytest.raises(OSError):
        write_atomic(tmp_path / "plain" / "game.arb", "x")


# -- the commands that write files -------------------------------------------------------------


def test_fmt_in_place_on_a_full_disk_reports_the_file_and_keeps_it(tmp_path: Path, monkeypatch):
    path = untidy_file(tmp_path)
    monkeypatch.setattr(files.os, "write", DiskFull(100))
    result = runner.invoke(app, ["fmt", "--in-place", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"arbo: {path}: cannot be written (No space left on device)\n0 files reformatted, 0 unchanged, 1 not formatted\n"
    )
    assert path.read_text(encoding="utf-8") == UNTIDY
    assert left_over(tmp_path) == []


def test_fmt_in_place_keeps_the_mode_and_writes_through_a_link(tmp_path: Path):
    path = untidy_file(tmp_path)
    path.chmod(0o604)
    link = tmp_path / "link.arb"
    link.symlink_to(path.name)
    result = runner.invoke(app, ["fmt", "--in-place", str(link)])
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink()
    assert path.read_text(encoding="utf-8") == SAMPLE.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o604


def test_fmt_in_place_goes_on_after_a_file_it_cannot_write(tmp_path: Path, monkeypatch):
    first, refused, last = (untidy_file(tmp_path, name) for name in ("a.arb", "readonly.arb", "c.arb"))
    real_replace = os.replace

    def replace(source, target):
        if Path(target).name == "readonly.arb":
            raise PermissionError(errno.EACCES, "Permission denied", str(target))
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    result = runner.invoke(app, ["fmt", "-i", str(first), str(refused), str(last)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"reformatted {first}",
        f"arbo: {refused}: cannot be written (Permission denied)",
        f"reformatted {last}",
        "2 files reformatted, 0 unchanged, 1 not formatted",
    ]
    tidy = SAMPLE.read_text(encoding="utf-8")
    assert first.read_text(encoding="utf-8") == tidy and last.read_text(encoding="utf-8") == tidy
    assert refused.read_text(encoding="utf-8") == UNTIDY
    assert left_over(tmp_path) == []


def test_fmt_in_place_refuses_a_pipe_before_reading_it(tmp_path: Path):
    fifo = tmp_path / "fifo.arb"
    os.mkfifo(fifo)  # reading it would wait for a writer for ever
    result = runner.invoke(app, ["fmt", "-i", str(fifo)])
    assert result.exit_code == 2
    assert result.stderr == f"arbo: {fifo}: --in-place rewrites regular files only, and this is not one\n"


def test_fmt_in_place_of_dev_stdin_does_not_hang():
    record = SAMPLE.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "fmt", "-i", "/dev/stdin"],
        input=record,
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert b"--in-place rewrites regular files only" in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize("name", ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])
def test_fmt_in_place_of_standard_input_from_a_file_leaves_the_file_alone(tmp_path: Path, name: str):
    # /dev/stdin is then a regular file, the one the shell opened: still a usage error (docs/COMMANDS.md)
    path = tmp_path / "untidy.arb"
    path.write_text(SAMPLE.read_text().replace("1. ", "1.  ", 1))
    before = path.read_bytes()
    with path.open("rb") as given:
        done = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "fmt", "-i", name],
            stdin=given,
            capture_output=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    assert (done.returncode, done.stderr) == (
        2,
        f"arbo: {name}: --in-place rewrites regular files only, and this is not one\n".encode(),
    )
    assert path.read_bytes() == before


def test_fmt_in_place_killed_in_the_middle_of_writing_leaves_the_old_file(tmp_path: Path):
    """SIGKILL while half of the new text is on the disk: the file still holds the old text, whole."""
    path = untidy_file(tmp_path)
    script = (
        "import os, signal, sys\n"
        "import arbo_notation.runtime.atomic as files\n"
        "def write_half_then_die(fd, data):\n"  # the writer's own writes (os.write is used elsewhere too)
        "    os.write(fd, bytes(data[: len(data) // 2]))\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "files._write_all = write_half_then_die\n"
        "from arbo_notation.cli import app\n"
        "sys.argv = ['arbo', 'fmt', '--in-place', sys.argv[1]]\n"
        "app()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()
    assert path.read_text(encoding="utf-8") == UNTIDY
    leftovers = left_over(tmp_path)
    assert len(leftovers) == 1 and leftovers[0].startswith(".game.arb.arbo-")  # the kill's leftover
    # Once it has been still for a while, the next writer in the folder removes it.
    old = os.stat(tmp_path / leftovers[0]).st_mtime - files.STALE_AFTER - 1
    os.utime(tmp_path / leftovers[0], (old, old))
    again = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "fmt", "--in-place", str(path)],
        capture_output=True,
        timeout=60,
        cwd=ROOT,
    )
    assert again.returncode == 0, again.stderr.decode()
    assert left_over(tmp_path) == []


def test_a_temporary_copy_being_written_or_recent_is_not_swept(tmp_path: Path, monkeypatch):
    recent = tmp_path / ".a.arb.arbo-0123abcd.tmp"
    recent.write_text("half")
    held = tmp_path / ".b.arb.arbo-89abcdef.tmp"
    held.write_text("half")
    mine = tmp_path / ".c.arb.12345678.tmp"  # not named as ours: someone else's file
    mine.write_text("other")
    old = recent.stat().st_mtime - files.STALE_AFTER - 1
    os.utime(held, (old, old))
    os.utime(mine, (old, old))
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time\nfd = os.open(sys.argv[1], os.O_RDWR)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(60)\n",
            str(held),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        monkeypatch.setattr(files, "_swept", set())
        write_atomic(tmp_path / "d.arb", "x")
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    assert recent.exists() and held.exists() and mine.exists()


def test_the_temporary_copy_never_has_a_wider_mode_than_the_file(tmp_path: Path, monkeypatch):
    path = tmp_path / "private.arb"
    path.write_text("secret\n")
    path.chmod(0o600)
    seen = []
    real = files._write_all

    def watching(fd, payload):
        seen.append(stat.S_IMODE(os.fstat(fd).st_mode))
        real(fd, payload)

    monkeypatch.setattr(files, "_write_all", watching)
    monkeypatch.setattr(os, "umask", os.umask)
    write_atomic(path, "still secret\n")
    assert seen == [0o600] and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o640)
    seen.clear()
    write_atomic(path, "shared\n")
    assert seen == [0o640] and stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.parametrize("length", [241, 242, 250, 255])
def test_a_name_up_to_name_max_can_be_written(tmp_path: Path, length: int):
    path = tmp_path / ("g" * (length - 4) + ".arb")
    write_atomic(path, "x\n")
    assert path.read_text() == "x\n" and left_over(tmp_path) == []
    wide = tmp_path / ("é" * ((length - 4) // 2) + ".arb")  # two bytes a letter: a cut one is kept as bytes
    write_atomic(wide, "y\n")
    assert wide.read_text() == "y\n" and left_over(tmp_path) == []


def test_simulate_out_writes_through_the_atomic_writer(tmp_path: Path, monkeypatch):
    out = tmp_path / "sims"
    out.mkdir()
    monkeypatch.setattr(files.os, "write", DiskFull(10))
    result = runner.invoke(app, ["simulate", "--players", "2", "--out", str(out)])
    assert result.exit_code == 1
    assert "game-0001.arb: cannot be written (No space left on device)" in result.stderr
    assert list(out.iterdir()) == []  # no game cut short, no temporary file


@pytest.mark.slow
def test_replay_screenshot_writes_through_the_atomic_writer(tmp_path: Path, monkeypatch):
    out = tmp_path / "turn.svg"
    out.write_text("<svg>old</svg>\n")
    out.chmod(0o644)
    monkeypatch.setattr(files.os, "write", DiskFull(10))
    failed = runner.invoke(app, ["replay", str(SAMPLE), "--turn", "2", "--screenshot", str(out), "--size", "80x24"])
    assert failed.exit_code == 1 and "cannot be written (No space left on device)" in failed.stderr
    assert out.read_text() == "<svg>old</svg>\n" and left_over(tmp_path) == []
    monkeypatch.undo()
    done = runner.invoke(app, ["replay", str(SAMPLE), "--turn", "2", "--screenshot", str(out), "--size", "80x24"])
    assert done.exit_code == 0, done.stderr
    assert out.read_text(encoding="utf-8").startswith("<svg") and stat.S_IMODE(out.stat().st_mode) == 0o644


def test_a_file_held_for_writing_is_refused_to_a_second_process_and_released_after(tmp_path):
    from arbo_notation.runtime.atomic import FileBusy, held_for_writing

    target = tmp_path / "game.arb"
    script = (
        f"from arbo_notation.runtime.atomic import held_for_writing\nwith held_for_writing({str(target)!r}): pass\n"
    )
    with held_for_writing(target):
        assert (tmp_path / ".game.arb.lock").read_text() == f"process {os.getpid()}"
        second = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        assert second.returncode == 1
        assert f"FileBusy: [Errno 16] held for writing by another process {os.getpid()}: '{target}'" in second.stderr
    assert list(tmp_path.iterdir()) == []
    again = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert issubclass(FileBusy, OSError)


def test_a_file_in_a_folder_where_no_lock_can_be_made_is_written_unheld(tmp_path):
    from arbo_notation.runtime.atomic import held_for_writing

    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):  # root writes anywhere: the folder cannot refuse it
            folder.chmod(0o755)
            import unittest.mock

            refused = PermissionError(errno.EACCES, "Permission denied")
            with unittest.mock.patch("os.open", side_effect=refused):
                with held_for_writing(folder / "game.arb"):
                    entered = True
        else:
            with held_for_writing(folder / "game.arb"):
                entered = True
        assert entered
    finally:
        folder.chmod(0o755)


# -- the lock file: never followed, never anything but a regular file of ours ----------------------


def record_process(path: Path, *options: str, timeout: float = 30) -> subprocess.CompletedProcess:
    """`arbo record PATH --plain` as its own process, standard input empty."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "arbo_notation",
            "record",
            str(path),
            "--plain",
            "--players",
            "Ana,Ben",
            "--species",
            "Bs,Ca,Cb,Dw,Ja,Ma",
            "--date",
            "2026-01-01",
            *options,
        ],
        input="",
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def test_a_lock_that_is_a_symbolic_link_is_refused_and_its_target_untouched(tmp_path):
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    lock = tmp_path / ".game.arb.lock"
    lock.symlink_to(victim)
    done = record_process(tmp_path / "game.arb")
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        f"arbo: {tmp_path / 'game.arb'}: not recorded: its lock file {lock} is a symbolic link; "
        "remove it if no arbo is writing the file\n"
    )
    assert victim.read_text() == "keep me\n" and lock.is_symlink() and not (tmp_path / "game.arb").exists()


def test_a_lock_linked_to_a_missing_file_creates_nothing(tmp_path):
    lock = tmp_path / ".game.arb.lock"
    lock.symlink_to(tmp_path / "elsewhere" / "made.txt")
    (tmp_path / "elsewhere").mkdir()
    done = record_process(tmp_path / "game.arb")
    assert done.returncode == 1 and "is a symbolic link" in done.stderr
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_lock_linked_to_the_record_itself_leaves_the_record_whole(tmp_path):
    record = untidy_file(tmp_path)
    (tmp_path / ".game.arb.lock").symlink_to(record)
    done = record_process(record)
    assert done.returncode == 1 and "is a symbolic link" in done.stderr
    assert record.read_text(encoding="utf-8") == UNTIDY


@pytest.mark.parametrize(
    "kind, reason",
    [
        ("fifo", "is a FIFO"),
        ("folder", "is a folder"),
        ("dev-null", "is a symbolic link"),
        ("other-user", "belongs to another user"),
        ("hard-link", "has other names (hard links)"),
    ],
)
def test_a_lock_that_is_not_a_regular_file_of_ours_is_refused_with_a_message(tmp_path, kind, reason):
    lock = tmp_path / ".game.arb.lock"
    if kind == "fifo":
        os.mkfifo(lock)
    elif kind == "folder":
        lock.mkdir()
    elif kind == "dev-null":
        lock.symlink_to("/dev/null")
    elif kind == "other-user":
        lock.write_text("")
        os.chown(lock, 65534, 65534)  # the suite runs as root here; see the ownership check below
    else:
        (tmp_path / "other.txt").write_text("another name\n")
        os.link(tmp_path / "other.txt", lock)
    done = record_process(tmp_path / "game.arb", timeout=20)
    assert done.returncode == 1, done.stderr
    assert f"its lock file {lock} {reason}; remove it if no arbo is writing the file" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "game.arb").exists()
    if kind == "hard-link":
        assert (tmp_path / "other.txt").read_text() == "another name\n"


def test_a_device_or_unopenable_lock_is_refused():
    from arbo_notation.runtime.atomic import _unsafe_lock

    assert _unsafe_lock(os.stat("/dev/null")) == "is a device"
    assert _unsafe_lock(os.lstat(__file__)) in (None, "has other names (hard links)", "belongs to another user")


def test_a_lock_that_cannot_be_opened_is_refused_not_ignored(tmp_path, monkeypatch):
    from arbo_notation.runtime.atomic import LockRefused, held_for_writing

    lock = tmp_path / ".game.arb.lock"
    lock.write_text("")
    real_open = os.open

    def refusing(name, *args, **kwargs):
        if os.fspath(name) == str(lock):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(LockRefused, match=r"cannot be opened \(Permission denied\)"):
        with held_for_writing(tmp_path / "game.arb"):
            raise AssertionError("the block must not run")


def test_a_stale_lock_left_by_a_killed_recorder_is_taken_over(tmp_path):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom arbo_notation.runtime.atomic import held_for_writing\n"
            f"with held_for_writing({str(tmp_path / 'game.arb')!r}):\n    print('held', flush=True)\n    time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        busy = record_process(tmp_path / "game.arb")
        assert busy.returncode == 1 and f"(process {holder.pid})" in busy.stderr
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    lock = tmp_path / ".game.arb.lock"
    assert lock.read_text() == f"process {holder.pid}"  # left behind by the kill
    done = record_process(tmp_path / "game.arb")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "game.arb").exists() and not lock.exists()


def test_the_lock_is_created_private_to_its_owner(tmp_path):
    from arbo_notation.runtime.atomic import held_for_writing

    with held_for_writing(tmp_path / "game.arb"):
        assert stat.S_IMODE((tmp_path / ".game.arb.lock").stat().st_mode) == 0o600
