"""Reading source files: the bytes of a path, and their UTF-8 text with a located error if not."""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Iterator

from .errors import ArboError, NotationError, NotationErrors

TYPE_CHECKING = False  # typing is for type checkers alone (arbo_notation/__init__.py says why)
if TYPE_CHECKING:  # paths are named in signatures only: a check need not import pathlib
    from typing import BinaryIO
    from pathlib import Path


#: The suffix of a record file, which a folder is searched for.
RECORD_SUFFIX = ".arb"


def records_under(paths: list[str] | tuple[str, ...], *, keep_empty: bool = True) -> list[str]:
    """The record files of the paths given, as linters read a folder: each file as given (``-``
    included), and for a folder its .arb files at any depth, sorted by path, hidden files and
    folders left out. A folder without one stays in the list, so that reading it says so (check:
    it was given to be checked), unless ``keep_empty`` is false (a collection: it holds no games)."""
    files: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            files.append(path)
            continue
        found = []
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = [name for name in subfolders if not name.startswith(".")]
            found += [os.path.join(folder, name) for name in names
                      if name.endswith(RECORD_SUFFIX) and not name.startswith(".")]
        files += sorted(found) or ([path] if keep_empty else [])
    return files


def _unreadable(name: str, error: OSError) -> ArboError:
    if isinstance(error, FileNotFoundError):
        return ArboError(f"{name}: no such file")
    if isinstance(error, IsADirectoryError):
        return ArboError(f"{name}: is a directory, not a file")
    if isinstance(error, PermissionError):
        return ArboError(f"{name}: permission denied")
    return ArboError(f"{name}: cannot be read ({error.strerror or error})")


def refuse_endless(stream: BinaryIO, name: str) -> None:
    """ArboError when ``stream`` is a device other than a terminal (/dev/zero, /dev/urandom, a
    disk): such input may never end, and a record file is never one. Files, pipes and a terminal
    pass."""
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is an OSError too
        return  # not a descriptor (a test's stream): nothing endless here
    if (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) and not os.isatty(fd):
        raise ArboError(f"{name}: is a device, not a record file (it may never end)")


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a file; ArboError saying plainly why they cannot be read."""
    try:
        with open(path, "rb") as stream:
            refuse_endless(stream, str(path))
            return stream.read()
    except OSError as error:
        raise _unreadable(str(path), error) from None


def decode(data: bytes, name: str) -> str:
    """UTF-8 text (a byte order mark dropped); NotationErrors at the line and column of a bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        start = error.start
        line = data.count(b"\n", 0, start) + 1
        line_start = data.rfind(b"\n", 0, start) + 1
        column = len(data[line_start:start].decode("utf-8", "replace")) + 1
        source = data[line_start:].split(b"\n", 1)[0].decode("utf-8", "replace")
        raise NotationErrors([NotationError(
            f"the file is not UTF-8 text: byte 0x{data[start]:02x} cannot be read",
            file=name, line=line, column=column, source_line=source)]) from None


def read_text(path: str | Path) -> tuple[str, str]:
    """The text of a file and the name to show in messages."""
    return decode(read_bytes(path), str(path)), str(path)


#: How much of a file text_blocks reads at a time.
BLOCK_SIZE = 1 << 20


def text_blocks(path: str | Path, size: int = BLOCK_SIZE, *, normalised: bool = True) -> Iterator[str]:
    """The text of a file a block at a time, as read_text and notation.games.normalise give it
    whole (byte order mark dropped, CRLF and lone CR line ends made LF): memory for one block.
    With ``normalised`` false, the text as read_text gives it (line ends kept).

    Raises what read_text raises, with the same message: ArboError when the file cannot be read,
    NotationErrors at the bad byte when it is not UTF-8 (found by reading it whole again, so the
    error names the same line and column; it may come after some blocks were given).
    """
    name = str(path)
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    first = True
    held = ""  # a CR at the end of a block, which may open a CRLF
    try:
        with open(path, "rb") as stream:
            refuse_endless(stream, name)
            while True:
                data = stream.read(size)
                try:
                    text = decoder.decode(data, final=not data)
                except UnicodeDecodeError:
                    read_text(path)  # the located error, exactly as a whole read gives it
                    raise ArboError(f"{name}: is not UTF-8 text") from None  # it changed meanwhile
                if first and text and normalised:
                    first = False
                    if text.startswith("\ufeff"):  # as normalise: a second mark after the one utf-8-sig drops
                        text = text[1:]
                if not normalised:
                    if text:
                        yield text
                    if not data:
                        return
                    continue
                text = held + text
                held = ""
                if data and text.endswith("\r"):
                    text, held = text[:-1], "\r"
                if "\r" in text:
                    text = text.replace("\r\n", "\n").replace("\r", "\n")
                if text:
                    yield text
                if not data:
                    return
    except OSError as error:
        raise _unreadable(name, error) from None
