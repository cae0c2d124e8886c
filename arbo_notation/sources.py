"""Reading source files: the bytes of a path, and their UTF-8 text with a located error if not."""

from __future__ import annotations

from pathlib import Path

from .errors import ArboError, NotationError, NotationErrors


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a file; ArboError saying plainly why they cannot be read."""
    name = str(path)
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise ArboError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise ArboError(f"{name}: is a directory, not a file") from None
    except PermissionError:
        raise ArboError(f"{name}: permission denied") from None
    except OSError as error:
        raise ArboError(f"{name}: cannot be read ({error.strerror or error})") from None


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
