"""Reading source files: the bytes of a path, and their UTF-8 text with a located error if not."""

from __future__ import annotations

import codecs
import errno
import os
import select
import stat
import time
from collections.abc import Callable, Iterator
from typing import BinaryIO

from arbo_notation.errors import ArboError, NotationError, NotationErrors

#: The suffix of a record file, which a folder is searched for.
RECORD_SUFFIX = ".arb"


def records_under(
    paths: list[str] | tuple[str, ...], *, keep_empty: bool = True, skipped: Callable[[str, str], object] | None = None
) -> list[str]:
    """The record files of the paths given, as linters read a folder: each file as given (``-``
    included), and for a folder its .arb files at any depth, sorted by path, hidden files and
    folders left out. A folder without one stays in the list, so that reading it says so (check:
    it was given to be checked), unless ``keep_empty`` is false (a collection: it holds no games).
    A folder gives its regular files only (a link to one included): ``skipped(path, what)`` is
    told of each other entry named as a record (a FIFO, whose reading would wait for a writer
    for ever, a device, a socket)."""
    files: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            files.append(path)
            continue
        found, passed_over = [], []
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = [name for name in subfolders if not name.startswith(".")]
            for name in names:
                if not name.endswith(RECORD_SUFFIX) or name.startswith("."):
                    continue
                entry = os.path.join(folder, name)
                what = _not_a_regular_file(entry)
                if what is None:
                    found.append(entry)
                else:
                    passed_over.append((entry, what))
        if skipped is not None:
            for entry, what in sorted(passed_over):
                skipped(entry, what)
        files += sorted(found) or ([path] if keep_empty else [])
    return files


def _not_a_regular_file(path: str) -> str | None:
    """What ``path`` is when it is no regular file (nor a link to one), else None. A path that
    cannot be looked at (a broken link) counts as a file: its reading says what is wrong."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


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
    _refuse_device(fd, mode, name)


def _refuse_device(fd: int, mode: int, name: str) -> None:
    """refuse_endless for a descriptor whose mode is known."""
    if (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) and not os.isatty(fd):
        raise ArboError(f"{name}: is a device, not a record file (it may never end)")


#: How long a FIFO named to be read may wait for a program to open it for writing, in seconds.
FIFO_WRITER_SECONDS = 2.0


def _open_to_read(path: str | os.PathLike[str], name: str) -> tuple[int, bytes, os.stat_result]:
    """A descriptor of the file at ``path``, blocking, what was read of it already (a FIFO's
    first bytes), and what the system said of it when opened (its mode and size). Opening never
    waits: a FIFO that no program opens for writing within FIFO_WRITER_SECONDS is refused
    (ArboError), and a device is opened only to be refused."""
    fd = os.open(path, _READ_FLAGS | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        mode = info.st_mode
        if stat.S_ISREG(mode):
            return fd, b"", info  # (O_NONBLOCK means nothing to a regular file)
        early = _written_to(fd, name) if stat.S_ISFIFO(mode) else b""
        os.set_blocking(fd, True)
        return fd, early, info
    except BaseException:
        os.close(fd)
        raise


def _written_to(fd: int, name: str) -> bytes:
    """The first bytes of a FIFO opened without waiting, or b"" once a writer is there with none
    yet (or has gone, leaving it empty); ArboError when no writer comes."""
    deadline = time.monotonic() + FIFO_WRITER_SECONDS
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    while True:
        try:
            data = os.read(fd, BLOCK_SIZE)
        except BlockingIOError:
            return b""  # a writer holds it open: reading waits for it as for any pipe
        if data:
            return data
        # nothing and no writer: none came yet, or one came and went (the poll says so: a hang-up)
        left = deadline - time.monotonic()
        if left <= 0:
            raise ArboError(
                f"{name}: is a FIFO that no program writes to (waited {FIFO_WRITER_SECONDS:g} s), not a record file"
            )
        if any(events & select.POLLHUP for _, events in poller.poll(min(left, 0.05) * 1000)):
            return b""


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a file; ArboError saying plainly why they cannot be read."""
    try:
        fd, early, _ = _open_to_read(path, str(path))
        try:
            stream = open(fd, "rb")
        except OSError:
            os.close(fd)  # (a folder: open refuses the descriptor and leaves it open)
            raise
        with stream:
            refuse_endless(stream, str(path))
            return early + stream.read()
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
        raise NotationErrors(
            [
                NotationError(
                    f"the file is not UTF-8 text: byte 0x{data[start]:02x} cannot be read",
                    file=name,
                    line=line,
                    column=column,
                    source_line=source,
                )
            ]
        ) from None


def read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The text of a file and the name to show in messages."""
    return decode(read_bytes(path), str(path)), str(path)


#: How much of a file text_blocks reads at a time.
BLOCK_SIZE = 1 << 20


def text_blocks(path: str | os.PathLike[str], size: int = BLOCK_SIZE, *, normalised: bool = True) -> Iterator[str]:
    """The text of a file a block at a time, as read_text and normalise give it
    whole (byte order mark dropped, CRLF and lone CR line ends made LF): memory for one block.
    With ``normalised`` false, the text as read_text gives it (line ends kept).

    Raises what read_text raises, with the same message: ArboError when the file cannot be read,
    NotationErrors at the bad byte when it is not UTF-8 (a file read in blocks is read whole again
    to find it, so the error names the same line and column; it may come after some blocks were
    given).

    A regular file of less than a block is read with one system call after its opening and one
    look at its size: no buffered stream, whose making asks the system four more times, and no
    block's worth of memory set aside to read a few kilobytes (a check of a folder of one-game
    files, -j 1: some 160 -> 148 µs a file, bench/README.md).
    """
    name = str(path)
    try:
        fd, early, info = _open_to_read(path, name)
    except OSError as error:
        raise _unreadable(name, error) from None
    try:
        first, whole = (early, False) if early else _first_block(fd, name, size, info)
    except OSError as error:
        os.close(fd)
        raise _unreadable(name, error) from None
    except BaseException:  # (a device refused, an interrupt: the descriptor is closed all the same)
        os.close(fd)
        raise
    if whole:
        os.close(fd)
        text = decode(first, name)  # the located error, as read_text gives it
        if normalised:
            text = normalise(text)  # (a second mark: utf-8-sig drops the first)
        if text:
            yield text
        return
    try:
        with open(fd, "rb") as stream:
            yield from _decoded(path, _blocks(stream, first, size), normalised)
    except OSError as error:
        raise _unreadable(name, error) from None


#: A file read by text_blocks: its descriptor not inherited by child processes, and no line ends
#: translated (Windows).
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _first_block(fd: int, name: str, size: int, mode_and_size: os.stat_result) -> tuple[bytes, bool]:
    """The first block of an open file, and whether it is the whole file: a regular file's read
    that gives less than asked for, and no less than the file's size (``mode_and_size``, as the
    file was opened: one system call fewer a file), has reached its end. Refuses a folder and a
    device as opening a buffered stream and refuse_endless do."""
    mode = mode_and_size.st_mode
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
    _refuse_device(fd, mode, name)
    regular = stat.S_ISREG(mode)
    asked = min(size, mode_and_size.st_size + 1) if regular else size  # (no block's worth of memory for a small file)
    data = os.read(fd, asked)
    return data, regular and mode_and_size.st_size <= len(data) < asked


def _blocks(stream: BinaryIO, first: bytes, size: int) -> Iterator[bytes]:
    """The blocks of a file from its ``first``, the last one empty."""
    data = first
    while data:
        yield data
        data = stream.read(size)
    yield data


def normalise(text: str) -> str:
    """Drop a byte order mark; turn CRLF and lone CR line ends into LF (what every reader of the
    notation reads; notation.games gives it too)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _decoded(path: str | os.PathLike[str], blocks: Iterator[bytes], normalised: bool) -> Iterator[str]:
    """The text of a file's blocks (see text_blocks), decoded as they come."""
    name = str(path)
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    first = True
    held = ""  # a CR at the end of a block, which may open a CRLF
    for data in blocks:
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
            continue
        text = held + text
        held = ""
        if data and text.endswith("\r"):
            text, held = text[:-1], "\r"
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text:
            yield text
