"""Writing a file whole: a new copy, synced, renamed over the old one, so no moment leaves a cut file."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from typing import Iterable

__all__ = ["write_atomic"]

#: Bytes handed to one os.write: a disk that fills up fails part way, as it would for a real file.
_CHUNK = 1 << 20


def write_atomic(
    path: str | os.PathLike[str], data: str | bytes | Iterable[str | bytes], *, encoding: str = "utf-8"
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

    Raises OSError, with the path as written, when it cannot be done; then nothing has changed
    and no temporary file is left.
    """
    pieces = [data] if isinstance(data, (str, bytes)) else data
    name = os.fspath(path)
    try:
        old = os.stat(name)  # through a symbolic link, to the file it points to
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", name)
    if old is not None and not os.access(name, os.W_OK):
        # A read-only file says 'leave me': the rename would replace it all the same.
        raise PermissionError(errno.EACCES, "Permission denied", name)
    target = os.path.realpath(name) if os.path.islink(name) else name
    folder = os.path.dirname(target) or "."
    temporary, fd = _create_temporary(folder, os.path.basename(target))
    try:
        try:
            for piece in pieces:
                _write_all(fd, piece.encode(encoding) if isinstance(piece, str) else bytes(piece))
            if old is not None:
                _keep_owner_and_mode(fd, old)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    _sync_folder(folder)


def _create_temporary(folder: str, base: str) -> tuple[str, int]:
    """A new empty file beside the target (hidden, named after it) and its descriptor."""
    while True:
        candidate = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
        try:
            # 0o666: the umask applies, as it does to any new file.
            return candidate, os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue


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


def _sync_folder(folder: str) -> None:
    """Sync the folder's entry for the new file, so the rename itself survives a crash."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(fd)
