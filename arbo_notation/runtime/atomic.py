"""Writing a file whole (a new copy, synced, renamed over the old one, so no moment leaves a cut
file), and holding a file for one writer at a time."""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from contextlib import contextmanager
from typing import Iterable, Iterator

__all__ = [
    "FileBusy",
    "FileChanged",
    "LockRefused",
    "fingerprint",
    "held_for_writing",
    "rewrite_unchanged",
    "write_atomic",
]

#: Bytes handed to one os.write: a disk that fills up fails part way, as it would for a real file.
_CHUNK = 1 << 20


def write_atomic(
    path: str | os.PathLike[str],
    data: str | bytes | Iterable[str | bytes],
    *,
    encoding: str = "utf-8",
    new: bool = False,
) -> None:
    """Write ``data`` (text is encoded with ``encoding``, line ends as given; or pieces of either,
    written as they come, so a big file is never whole in memory) to ``path`` atomically.

    The data goes to a temporary file in the same folder, is flushed and synced to the disk, then
    renamed over ``path``: a reader, a kill (SIGKILL, Ctrl-C) or a full disk at any moment leaves
    the old file or the new one, whole. The old file's permissions (and, where allowed, its owner)
    are kept; a new file gets the usual ones (0666 less the umask).

    A symbolic link is written through: the file it points to is replaced and the link stays a
    link. Only regular files are replaced (a FIFO, a device or /dev/stdin is refused), and only
    those this process may write (a read-only file is refused, as writing it in place would be);
    a file with several hard links loses them (the other names keep the old text).

    The temporary copy is named ``.<name>.arbo-<8 hex>.tmp`` (the name cut to fit NAME_MAX) and
    never has a wider mode than the file will; one left by a kill -9 is removed by a later write in
    its folder once it has been still for STALE_AFTER seconds and no writer holds it.

    With ``new`` the file must not exist: the copy is linked in under its name, which fails with
    FileExistsError, nothing changed, when any file or link has that name, however late it came.

    Raises OSError, with the path as written, when it cannot be done; then nothing has changed
    and no temporary file is left.
    """
    pieces = [data] if isinstance(data, (str, bytes)) else data
    name = os.fspath(path)
    try:
        old = os.stat(name)  # through a symbolic link, to the file it points to
    except FileNotFoundError:
        old = None
    if new and (old is not None or os.path.lexists(name)):
        raise FileExistsError(errno.EEXIST, "File exists", name)
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", name)
    if old is not None and not os.access(name, os.W_OK):
        # A read-only file says 'leave me': the rename would replace it all the same.
        raise PermissionError(errno.EACCES, "Permission denied", name)
    target = os.path.realpath(name) if os.path.islink(name) else name
    folder = os.path.dirname(target) or "."
    # A new file gets 0o666 less the umask; a copy of an old one is private until it has the old
    # owner and mode, before any data is in it: no other user reads a 0600 record through it.
    temporary, fd = _create_temporary(folder, os.path.basename(target), 0o666 if old is None else 0o600)
    try:
        try:
            if old is not None:
                _keep_owner_and_mode(fd, old)
            for piece in pieces:
                _write_all(fd, piece.encode(encoding) if isinstance(piece, str) else bytes(piece))
            os.fsync(fd)
        finally:
            os.close(fd)
        if new:
            os.link(temporary, target)  # (a rename would replace a file made meanwhile)
            os.unlink(temporary)
        else:
            os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    synced(folder)


#: How a temporary copy's name ends: ``.arbo-<8 hex digits>.tmp`` after the target's name, so one
#: left by a killed writer is known for what it is and removed by a later write in its folder.
_TEMPORARY_NAME = re.compile(r"\A\..*\.arbo-[0-9a-f]{8}\.tmp\Z", re.DOTALL)

#: Bytes a file name may take on the usual file systems (NAME_MAX).
_NAME_MAX = 255

#: A temporary copy untouched this long, and held by no writer, is a kill's leftover.
STALE_AFTER = 60.0

#: Folders whose leftovers this process has already looked for (once a folder is enough).
_swept: set[str] = set()


def _temporary_name(base: str, token: str) -> str:
    """The temporary copy's name: hidden, named after the target, cut so it fits in NAME_MAX
    (the bytes of a cut character are kept as bytes: the name only has to be unique)."""
    suffix = f".arbo-{token}.tmp"
    room = _NAME_MAX - 1 - len(suffix)
    return f".{os.fsdecode(os.fsencode(base)[:room])}{suffix}"


def _create_temporary(folder: str, base: str, mode: int) -> tuple[str, int]:
    """A new empty file beside the target (hidden, named after it, ``mode`` less the umask) and
    its descriptor, held with flock while it is written so a sweep can tell it from a leftover."""
    _sweep_leftovers(folder)
    while True:
        candidate = os.path.join(folder, _temporary_name(base, secrets.token_hex(4)))
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), mode)
        except FileExistsError:
            continue
        try:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except (ImportError, OSError):
            pass  # no flock: a sweep still waits for STALE_AFTER of stillness
        return candidate, fd


def _sweep_leftovers(folder: str) -> None:
    """Remove the temporary copies that writers killed mid-write (kill -9, power loss) left in
    ``folder``: ours, named as _create_temporary names them, untouched for STALE_AFTER seconds,
    and held by no process. Each folder is looked at once per process."""
    key = os.path.abspath(folder)
    if key in _swept:
        return
    _swept.add(key)
    try:
        import fcntl
    except ImportError:
        return
    try:
        entries = [entry.name for entry in os.scandir(folder) if _TEMPORARY_NAME.match(entry.name)]
    except OSError:
        return
    now = time.time()
    for name in entries:
        path = os.path.join(folder, name)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            continue
        try:
            info = os.fstat(fd)
            if (
                not stat.S_ISREG(info.st_mode)
                or info.st_nlink != 1
                or now - info.st_mtime < STALE_AFTER
                or (hasattr(os, "geteuid") and info.st_uid != os.geteuid())
            ):
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a writer at work
            if _same_file(fd, path):
                os.unlink(path)
        except OSError:
            continue
        finally:
            os.close(fd)


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        written = os.write(fd, view[:_CHUNK])
        view = view[written:]


def _keep_owner_and_mode(fd: int, old: os.stat_result) -> None:
    if hasattr(os, "fchown"):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except OSError:
            pass  # another user's file, or a group we are not in: it becomes ours
    os.fchmod(fd, stat.S_IMODE(old.st_mode))


def synced(path: str | os.PathLike[str]) -> None:
    """Sync a file, or a folder's entries (so a rename in it survives a crash), to the disk."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(fd)


class FileBusy(OSError):
    """Another process holds the file for writing (see held_for_writing); ``holder`` names it
    ("process 1234"), or is empty when it could not be told."""

    def __init__(self, path: str, holder: str) -> None:
        super().__init__(errno.EBUSY, f"held for writing by another {holder or 'process'}", path)
        self.holder = holder


def lock_path(path: str | os.PathLike[str]) -> str:
    """The lock file of ``path``: hidden, beside it (the file itself is replaced on every write,
    so a lock on it would not outlive the first write)."""
    folder, base = os.path.split(os.path.realpath(path))
    return os.path.join(folder, f".{base}.lock")


class LockRefused(OSError):
    """The lock file beside a file is something other than a regular file of this user's (a
    symbolic link, a FIFO, a device, a folder, a file of another user's or with other names, or
    one that cannot be opened): it is left untouched and the file is not written. ``lock`` is its
    path and ``reason`` says what it is."""

    def __init__(self, path: str, lock: str, reason: str) -> None:
        super().__init__(errno.EPERM, f"its lock file {lock} {reason}; remove it if no arbo is writing the file", path)
        self.lock = lock
        self.reason = reason


@contextmanager
def held_for_writing(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold ``path`` for this process's writes while the block runs: a second process asking for
    the same file meanwhile gets FileBusy (naming the holder's process id) at once, not a wait.

    The hold is an advisory lock (flock) on a lock file beside ``path``, so it ends with the
    process however that ends, and the lock file is removed when the block ends; one left by a
    process that was killed is taken over. The lock file is opened without following a symbolic
    link and written only once it is known to be a regular file of this user's with no other
    name: anything else there raises LockRefused and nothing is touched. Where no lock file can
    be made because the folder cannot be written (nothing could be written there either) or the
    system has no flock, the block runs unheld."""
    name = lock_path(path)
    fd = _acquire(name, os.fspath(path))
    if fd is None:
        yield
        return
    try:
        yield
    finally:
        try:
            if _same_file(fd, name):  # before unlocking: whoever opens the name next makes a new file
                os.unlink(name)
        except OSError:
            pass
        os.close(fd)


#: How the lock file is opened: never through a symbolic link, never waiting (a FIFO would block
#: an open for reading and writing on some systems), never inherited by a child process.
_LOCK_FLAGS = (
    os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
)


def _unsafe_lock(info: os.stat_result) -> str | None:
    """What is wrong with a lock file of this description, or None when it is ours to use."""
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        return "is a symbolic link"
    if stat.S_ISDIR(mode):
        return "is a folder"
    if stat.S_ISFIFO(mode):
        return "is a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        return "belongs to another user"
    if info.st_nlink != 1:
        return "has other names (hard links)"
    return None


def _same_file(fd: int, name: str) -> bool:
    try:
        info = os.lstat(name)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (info.st_dev, info.st_ino) == (held.st_dev, held.st_ino)


def _acquire(name: str, path: str) -> int | None:
    """The descriptor of the lock file ``name``, locked; None when it cannot be made (or the
    system has no flock)."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        return None

    while True:
        try:
            existing = os.lstat(name)
        except FileNotFoundError:
            existing = None
        except OSError as error:
            raise LockRefused(path, name, f"cannot be examined ({error.strerror})") from None
        if existing is not None and (reason := _unsafe_lock(existing)):
            raise LockRefused(path, name, reason)  # told before any open, which may act on a device
        try:
            fd = os.open(name, _LOCK_FLAGS, 0o600)
        except FileNotFoundError:
            continue  # removed between the look and the open
        except OSError as error:
            if existing is None and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                return None  # a folder that cannot be written: nothing will be written there either
            if error.errno == errno.ELOOP:
                raise LockRefused(path, name, "is a symbolic link") from None
            raise LockRefused(path, name, f"cannot be opened ({error.strerror})") from None
        try:
            reason = _unsafe_lock(os.fstat(fd))  # what was opened, whatever the name held before
            if reason:
                raise LockRefused(path, name, reason)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
                raise FileBusy(path, "".join(c for c in holder if c.isprintable())) from None
            except OSError:
                os.close(fd)
                return None  # a file system without flock
        except BaseException:
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
            raise
        if _same_file(fd, name):  # not a file its last holder removed between our open and our lock
            os.ftruncate(fd, 0)
            os.write(fd, f"process {os.getpid()}".encode("ascii"))
            return fd
        os.close(fd)


class FileChanged(OSError):
    """The file was changed by another process since it was read (see rewrite_unchanged)."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.EAGAIN, "changed since it was read", path)


def fingerprint(path: str | os.PathLike[str]) -> bytes:
    """What a file holds, as a digest of its bytes: taken before a file is read, and compared by
    rewrite_unchanged before it is written back. OSError when it cannot be read, or is no regular
    file: only a regular file is ever written back, and the bytes of a FIFO would be taken from its
    reader (opening one never waits for a writer)."""
    import hashlib

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
        handle = open(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    digest = hashlib.sha256()
    with handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.digest()


def rewrite_unchanged(path: str | os.PathLike[str], data: str | bytes | Iterable[str | bytes], read: bytes) -> None:
    """Write ``data`` over ``path`` (write_atomic) only if the file still holds what it held when
    its fingerprint ``read`` was taken, and while holding it for writing (held_for_writing), so
    a turn that `arbo record` added meanwhile is never written over.

    Raises FileBusy while another process holds the file (a recording is going on), FileChanged
    when it changed since ``read``, LockRefused for an unsafe lock file; the file is then
    untouched."""
    with held_for_writing(path):
        if fingerprint(path) != read:
            raise FileChanged(os.fspath(path))
        write_atomic(path, data)
