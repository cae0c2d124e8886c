"""The records of the editor's workspace folders on disk: found within bounds, and each read as
`arbo check` reads it (its text, or the diagnostics of a file that cannot be read).

Nothing here knows the protocol; the server checks what this finds with the code that checks
the open files (documents.py)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from arbo_notation.checking.files import unreadable
from arbo_notation.errors import ArboError, Diagnostic
from arbo_notation.runtime.sources import RECORD_SUFFIX, read_text

#: The server checks at most this many record files of the workspace, and this many bytes of
#: them, in all: a folder of archives (a club's 100,000 games) is `arbo check`'s work, not an
#: editor's. Past them, one message says so; a file opened is checked all the same.
MAX_WORKSPACE_FILES = 2000
MAX_WORKSPACE_BYTES = 64 << 20
#: And it looks into at most this many folders: an editor started in a home folder does not walk
#: the whole disk.
MAX_VISITED_FOLDERS = 10_000
#: Folders never looked into, besides the hidden ones (.git, .venv, ...): other programs' packages.
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages"})


@dataclass(frozen=True, slots=True)
class Bounds:
    """How much of the workspace is checked: ``files`` record files and ``size`` bytes of them."""

    files: int = MAX_WORKSPACE_FILES
    size: int = MAX_WORKSPACE_BYTES
    folders: int = MAX_VISITED_FOLDERS


@dataclass(frozen=True, slots=True)
class Records:
    """The record files found under a folder (sorted as they were walked), their bytes in all,
    and whether a bound left some out."""

    paths: tuple[str, ...]
    size: int
    bounded: bool


def records_in(folder: str, bounds: Bounds) -> Records:
    """The .arb files under ``folder``, as `arbo check FOLDER` finds them (hidden files and folders
    left out), without the folders of SKIPPED_FOLDERS and what links lead out of ``folder``, up to
    ``bounds`` (the first ones in the order of their paths; a file bigger than the bytes left is
    passed over)."""
    top = os.path.realpath(folder)
    paths: list[str] = []
    size = 0
    visited = 0
    bounded = False
    for where, subfolders, names in os.walk(folder):  # links to folders are not followed
        visited += 1
        if visited > bounds.folders:
            return Records(tuple(paths), size, True)
        subfolders[:] = sorted(n for n in subfolders if not n.startswith(".") and n not in SKIPPED_FOLDERS)
        for name in sorted(names):
            if not name.endswith(RECORD_SUFFIX) or name.startswith("."):
                continue
            path = os.path.join(where, name)
            bytes_of = _regular_size(path, top)
            if bytes_of is None:
                continue
            if len(paths) == bounds.files:
                return Records(tuple(paths), size, True)
            if size + bytes_of > bounds.size:
                bounded = True
                continue
            paths.append(path)
            size += bytes_of
    return Records(tuple(paths), size, bounded)


def _regular_size(path: str, top: str) -> int | None:
    """The size of a regular file that lies in the folder ``top`` (a link to one included); None
    for anything else: a FIFO, whose reading would wait, a link that leads out, a broken one."""
    try:
        if os.path.islink(path) and os.path.commonpath([os.path.realpath(path), top]) != top:
            return None
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


@dataclass(frozen=True, slots=True)
class OnDisk:
    """A record file as read from disk: its ``text``, or (None) the ``diagnostics`` that say why it
    cannot be read, as `arbo check` says it."""

    text: str | None
    diagnostics: tuple[Diagnostic, ...] = ()


def read_record(path: str, largest: int) -> OnDisk | None:
    """The file at ``path`` read as `arbo check` reads it; None when it is gone, no longer a
    regular file, or more than ``largest`` bytes long (not read into the server's memory)."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(status.st_mode) or status.st_size > largest:
        return None
    try:
        text, _ = read_text(path)
    except ArboError as error:
        return OnDisk(None, tuple(unreadable(path, error).diagnostics))
    return OnDisk(text)
