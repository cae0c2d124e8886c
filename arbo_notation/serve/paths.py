"""The records a server may show: the file it was given, or the `.arb` files directly in its folder,
each named by its file name alone; any other name, however spelled, is refused."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from arbo_notation.errors import ArboError

#: A record's name in an address: a file name, no separator, no leading dot, ending in .arb.
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,200}\.arb\Z")


class NotServed(ArboError):
    """A name that is no record of the served PATH (outside it, hidden, a link out, missing)."""


@dataclass(frozen=True, slots=True)
class Served:
    """The PATH of `arbo serve`: one record file, or a folder of them (its `.arb` files, not below)."""

    root: Path  # the folder, resolved
    only: str | None = None  # the one file's name, when PATH was a file

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> Served:
        """The served records of ``path``; ArboError when it is neither a record file nor a folder."""
        given = Path(path)
        if given.is_dir():
            return cls(given.resolve())
        if given.is_file():
            served = cls(given.absolute().parent.resolve(), given.name)
            if not _NAME.match(given.name) or not served.names():
                raise ArboError(
                    f"{path}: arbo serve shows an .arb record inside its folder (a file named like table1.arb)"
                )
            return served
        raise ArboError(f"{path}: no such file or folder")

    def names(self) -> list[str]:
        """The records served now, by name (a folder's are looked at again on every call)."""
        if self.only is not None:
            return [self.only] if self._safe(self.only) else []
        try:
            entries = sorted(entry.name for entry in os.scandir(self.root))
        except OSError:
            return []
        return [name for name in entries if _NAME.match(name) and self._safe(name)]

    def resolve(self, name: str) -> Path:
        """The file of the record ``name`` (as decoded from an address); NotServed unless it is one of
        ``names()``: a plain name, a regular file inside the folder, not a link leading out of it."""
        if not _NAME.match(name) or (self.only is not None and name != self.only) or not self._safe(name):
            raise NotServed(f"no record named {name!r} here")
        return self.root / name

    def fresh(self, name: str) -> Path:
        """Where a new record named ``name`` goes (``.arb`` added when missing), or ``tableN.arb``,
        the first such name free, when ``name`` is blank. ArboError when PATH is a single file, the
        name is not a plain record name, or a file (or link) of that name is there already."""
        if self.only is not None:
            raise ArboError("a new game needs a folder: this server shows one file (arbo serve FOLDER)")
        name = name.strip()
        if not name:
            number = 1
            while os.path.lexists(self.root / f"table{number}.arb"):
                number += 1
            name = f"table{number}.arb"
        if not name.endswith(".arb"):
            name += ".arb"
        if not _NAME.match(name):
            raise ArboError(f"{name!r} cannot be a record's name: letters, digits, _ . - (such as table3)")
        if os.path.lexists(self.root / name):
            raise ArboError(f"{name} is there already: choose another name")
        return self.root / name

    def _safe(self, name: str) -> bool:
        path = self.root / name
        try:
            real = Path(os.path.realpath(path))
            return real.parent == self.root and real.is_file()
        except OSError:
            return False
