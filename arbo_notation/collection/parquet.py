"""A corpus's tables in Arrow: written as Parquet (a folder of parts per table, in row groups of
some games at a time) or loaded into DuckDB tables in memory; the only module that imports
pyarrow, and loaded only by the commands that need it.

The rows come from collection/rows.py a game at a time and are buffered column by column for a row group
at most, so memory stays that of a row group whatever the size of the corpus.
"""

from __future__ import annotations

import os
import re
import secrets
from contextlib import ExitStack
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from arbo_notation.collection.rows import NEEDS_DATA_EXTRA, SCHEMA, SCHEMA_VERSION, TABLES, GameRows
from arbo_notation.errors import ArboError
from arbo_notation.runtime.atomic import FileBusy, LockRefused, held_for_writing, synced

if TYPE_CHECKING:
    from duckdb import DuckDBPyConnection  # `arbo stats` makes one (collection/stats.py)

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError:
    raise ArboError(NEEDS_DATA_EXTRA.format(module="pyarrow")) from None

#: Games per row group: some thousands of rows of turns, big enough for the readers to scan fast.
GAMES_PER_GROUP = 2000
#: Games per part file, unless told otherwise (a part of 2-player games is about 10 MB).
GAMES_PER_PART = 100_000
#: How the parts of a table are named, numbered from 0.
PART_NAME = "part-{:05d}.parquet"
_PART = re.compile(r"part-\d{5}\.parquet")


def arrow_type(name: str) -> "pa.DataType":
    """The Arrow type written as SCHEMA writes it (``list<string>``, ``map<string,int32>``...)."""
    simple = {"string": pa.string(), "bool": pa.bool_(), "int32": pa.int32(), "double": pa.float64()}
    if name in simple:
        return simple[name]
    if name.startswith("list<") and name.endswith(">"):
        return pa.list_(arrow_type(name[5:-1]))
    if name.startswith("map<") and name.endswith(">"):
        key, _, value = name[4:-1].partition(",")
        return pa.map_(arrow_type(key), arrow_type(value))
    raise ValueError(f"no Arrow type is written {name!r}")


def arrow_schema(table: str) -> "pa.Schema":
    """The schema of one table, its version and name in its metadata."""
    fields = [pa.field(name, arrow_type(kind)) for name, kind in SCHEMA[table]]
    return pa.schema(
        fields,
        metadata={
            "arbo.schema_version": str(SCHEMA_VERSION),
            "arbo.table": table,
            "arbo.version": metadata.version("arbo-notation"),
        },
    )


class TableBuffer:
    """The rows of one table since the last row group, column by column."""

    def __init__(self, table: str) -> None:
        self.schema = arrow_schema(table)
        self.columns: list[list[Any]] = [[] for _ in self.schema]
        self.rows = 0

    def add(self, rows: Iterable[tuple[object, ...]]) -> None:
        columns = self.columns
        for row in rows:
            for column, value in zip(columns, row, strict=True):
                column.append(value)
            self.rows += 1

    def take(self) -> "pa.Table":
        """The rows so far as a table; the buffer is emptied."""
        arrays = [pa.array(column, type=spec.type) for column, spec in zip(self.columns, self.schema, strict=True)]
        self.columns = [[] for _ in self.schema]
        self.rows = 0
        return pa.Table.from_arrays(arrays, schema=self.schema)


class ParquetCorpus:
    """A corpus written as Parquet under ``out``: ``out/games/part-00000.parquet``, ... and the
    same for turns and scores, each part holding the same games in every table.

    The three tables of a run are written into a new hidden folder, ``out/.export-<16 hex>``;
    ``out/games``, ``out/turns`` and ``out/scores`` are symbolic links to ``.current/games``...,
    and ``out/.current`` a link to the run's folder, put in place by one rename in ``close``: a
    reader, or a run that is stopped at any moment, sees the old export whole or the new one
    whole. ``out`` must be new, empty, or an earlier export; a folder holding anything an
    export does not write is refused, and nothing arbo did not write is ever removed. The
    export is held for this process (files.held_for_writing, on ``out``) while it is written.
    """

    def __init__(
        self,
        out: Path,
        *,
        games_per_part: int = GAMES_PER_PART,
        games_per_group: int = GAMES_PER_GROUP,
        tables: tuple[str, ...] = TABLES,
    ) -> None:
        self.out = out
        self.tables = tables
        self.games_per_part = games_per_part
        self.games_per_group = min(games_per_group, games_per_part)
        _make_export_folder(out)
        self._held = _hold(out)
        try:
            for leftover in _examine(out):
                _remove_leftover(leftover)
            self.version = _new_version(out)
            self.partial = {table: self.version / table for table in tables}
            for folder in self.partial.values():
                folder.mkdir()
        except OSError as error:
            self._held.close()
            raise ArboError(f"{out}: cannot be written ({error.strerror or error})") from None
        except BaseException:
            self._held.close()
            raise
        self.buffers = {table: TableBuffer(table) for table in tables}
        self.writers: dict[str, pq.ParquetWriter] = {}
        self.part = 0
        self.games = 0  # in the part being written
        self.grouped = 0  # games in the buffers
        self.written = 0  # games in all
        self.bytes = 0  # of the parts, once closed

    def add(self, rows: GameRows) -> None:
        for table in self.tables:
            self.buffers[table].add(rows.of(table))
        self.games += 1
        self.grouped += 1
        self.written += 1
        if self.grouped >= self.games_per_group or self.games >= self.games_per_part:
            self._flush()
        if self.games >= self.games_per_part:
            self._close_part()

    def _flush(self) -> None:
        for table in self.tables:
            writer = self.writers.get(table)
            if writer is None:
                path = self.partial[table] / PART_NAME.format(self.part)
                writer = self.writers[table] = pq.ParquetWriter(path, self.buffers[table].schema, compression="zstd")
            writer.write_table(self.buffers[table].take(), row_group_size=1 << 30)
        self.grouped = 0

    def _close_part(self) -> None:
        for writer in self.writers.values():
            writer.close()
        self.writers = {}
        self.part += 1
        self.games = 0

    def close(self) -> None:
        """Write what is left and put the tables in their place (an export of no game has one
        part of no rows per table, so that readers still find its columns)."""
        try:
            if self.grouped or self.part == 0:
                self._flush()
            if self.writers:
                self._close_part()
            for table in self.tables:  # every part on the disk before the swap: it never makes a cut table current
                for path in self.partial[table].iterdir():
                    self.bytes += path.stat().st_size
                    synced(path)
                synced(self.partial[table])
            synced(self.version)
            _swap(self.out, self.version, self.tables)
        finally:
            self._held.close()

    def abort(self) -> None:
        """Drop what was written (the export there was before stays), unless it is current
        already (a failure after the swap)."""
        try:
            for writer in self.writers.values():
                try:
                    writer.close()
                except WRITE_ERRORS:
                    pass  # the disk that failed the write fails its close: the part goes all the same
            try:
                current = os.readlink(self.out / CURRENT)
            except OSError:
                current = None
            if current != self.version.name:
                _remove_tables(self.version)
        finally:
            self._held.close()


#: What writing the tables may raise: a full disk, a folder that cannot be written.
WRITE_ERRORS = (OSError, pa.ArrowException)


def write_failure(out: Path, error: BaseException) -> ArboError:
    """The one message of an export that could not be written (after ParquetCorpus.abort)."""
    reason = getattr(error, "strerror", None) or (str(error).splitlines() or [type(error).__name__])[0]
    return ArboError(f"{out}: the export was not written ({reason}); an export there before is left as it was")


#: A run's folder of tables, and the link naming the current one.
_VERSION = re.compile(r"\.export-[0-9a-f]{16}")
CURRENT = ".current"
#: The new link to a run's folder, before it is renamed over CURRENT.
_NEW_CURRENT = re.compile(r"\.current-[0-9a-f]{16}\.tmp")
#: What the exports of arbo 0.1 left when they were stopped (a table's folder being written or replaced).
_OLD_HIDDEN = re.compile(r"\.(" + "|".join(TABLES) + r")\.(partial|old)")


def _hold(out: Path) -> ExitStack:
    """The export held for this process (an ExitStack to close), or ArboError when another holds it."""
    stack = ExitStack()
    try:
        stack.enter_context(held_for_writing(out))
    except FileBusy as error:
        by = f" ({error.holder})" if error.holder else ""
        raise ArboError(f"{out}: another arbo is writing this export{by}; wait for it to end") from None
    except LockRefused as error:
        raise ArboError(
            f"{out}: not written: its lock file {error.lock} {error.reason}; remove it if no arbo is writing the export"
        ) from None
    return stack


def _new_version(out: Path) -> Path:
    while True:
        folder = out / f".export-{secrets.token_hex(8)}"
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue
        except OSError as error:
            raise ArboError(f"{out}: cannot be written ({error.strerror})") from None


def _swap(out: Path, version: Path, tables: tuple[str, ...]) -> None:
    """Make ``version`` the current export by one rename of the link CURRENT, then remove the
    export it replaces."""
    try:
        previous = os.readlink(out / CURRENT)
    except OSError:
        previous = None
    old_layout = [table for table in tables if (out / table).is_dir() and not (out / table).is_symlink()]
    for table in tables:
        if not os.path.lexists(out / table):
            os.symlink(f"{CURRENT}/{table}", out / table)  # new links lead nowhere until CURRENT is made
    link = out / f".current-{secrets.token_hex(8)}.tmp"
    os.symlink(version.name, link)
    os.replace(link, out / CURRENT)  # the swap: one name
    synced(out)
    # An export of arbo 0.1 has its tables as folders, which no rename can turn into links at
    # once: each is moved aside, then each link made (a reader meanwhile finds a table missing,
    # never tables of two exports).
    for table in old_layout:
        os.rename(out / table, out / f".{table}.old")
    for table in old_layout:
        os.symlink(f"{CURRENT}/{table}", out / table)
        _remove_tables_folder(out / f".{table}.old")
    if previous is not None and _VERSION.fullmatch(previous) and previous != version.name:
        _remove_tables(out / previous)


def _examine(out: Path) -> list[Path]:
    """What stopped runs left in ``out``, every other entry told an export's (else ArboError,
    naming the first thing in it that no export writes)."""
    foreign: list[str] = []
    leftovers: list[Path] = []
    try:
        current = os.readlink(out / CURRENT)
    except OSError:
        current = None
    for entry in sorted(out.iterdir()):
        name = entry.name
        stray: str | None = name
        if name in TABLES:
            stray = None if entry.is_symlink() and os.readlink(entry) == f"{CURRENT}/{name}" else _stray_part(entry)
        elif name == CURRENT:
            stray = None if entry.is_symlink() and _VERSION.fullmatch(os.readlink(entry)) else name
        elif _VERSION.fullmatch(name):
            stray = _stray_table(entry)
            if stray is None and name != current:
                leftovers.append(entry)
        elif _NEW_CURRENT.fullmatch(name):
            stray = None if entry.is_symlink() and _VERSION.fullmatch(os.readlink(entry)) else name
            if stray is None:
                leftovers.append(entry)
        elif _OLD_HIDDEN.fullmatch(name):
            stray = _stray_part(entry)
            if stray is None:
                leftovers.append(entry)
        if stray is not None:
            foreign.append(stray)
    if foreign:
        raise ArboError(
            f"{out}: holds {', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}, "
            "which no export writes: give a new or empty directory, or an earlier export "
            "(arbo removes nothing it did not write)"
        )
    return leftovers


def _stray_part(folder: Path) -> str | None:
    """None when ``folder`` is a folder (not a link) of part files alone (regular files); else
    the first thing in it that is not (or the folder), as a path from the export's folder."""
    if folder.is_symlink() or not folder.is_dir():
        return folder.name
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if not (_PART.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)):
            return f"{folder.name}/{entry.name}"
    return None


def _stray_table(folder: Path) -> str | None:
    """None when ``folder`` is a run's folder (tables' folders of part files alone); else the
    first thing in it that is not, as a path from the export's folder."""
    if folder.is_symlink() or not folder.is_dir():
        return folder.name
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        stray = entry.name if entry.name not in TABLES else _stray_part(Path(entry.path))
        if stray is not None:
            return f"{folder.name}/{stray}"
    return None


def _only_parts(folder: Path) -> bool:
    return _stray_part(folder) is None


def _remove_leftover(path: Path) -> None:
    if path.is_symlink():
        os.unlink(path)
    elif _VERSION.fullmatch(path.name):
        _remove_tables(path)
    else:
        _remove_tables_folder(path)


def _remove_tables(version: Path) -> None:
    """Remove a run's folder: its tables' part files and folders, nothing else (a folder that
    holds anything else is left)."""
    try:
        entries = [Path(entry.path) for entry in os.scandir(version) if entry.name in TABLES]
    except OSError:
        return
    for folder in entries:
        _remove_tables_folder(folder)
    try:
        version.rmdir()
    except OSError:
        pass


def _remove_tables_folder(folder: Path) -> None:
    """Remove a table's folder: its part files (regular files), then the folder if it is empty."""
    if folder.is_symlink():
        return
    try:
        for entry in os.scandir(folder):
            if _PART.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
        folder.rmdir()
    except OSError:
        pass


def _make_export_folder(out: Path) -> None:
    if out.is_symlink() and not out.is_dir():
        raise ArboError(f"{out}: is a symbolic link that leads to no directory")
    if out.exists() and not out.is_dir():
        raise ArboError(f"{out}: exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ArboError(f"{out}: cannot create the directory ({error.strerror})") from None
    if not os.access(out, os.W_OK):
        raise ArboError(f"{out}: cannot be written")


def export_tables(folder: Path, tables: Iterable[str] = TABLES) -> dict[str, list[Path]]:
    """The part files of each table of the export in ``folder``, of one export however many
    runs write it meanwhile (the current run's folder is read once). ArboError when a table is
    missing or holds anything but part files."""
    try:
        current = os.readlink(folder / CURRENT)
    except FileNotFoundError:
        current = None
    except OSError as error:
        raise ArboError(f"{folder / CURRENT}: is not an export's link ({error.strerror})") from None
    if current is not None and not _VERSION.fullmatch(current):
        raise ArboError(f"{folder / CURRENT}: is not an export's link")
    base = folder / current if current is not None else folder
    parts: dict[str, list[Path]] = {}
    for table in tables:
        where = base / table
        if not _only_parts(where):
            raise ArboError(
                f"{folder}: not a whole export: its {table} table is missing or holds other files; "
                "export the records again"
            )
        parts[table] = sorted(where / name for name in os.listdir(where) if _PART.fullmatch(name))
        if not parts[table]:
            raise ArboError(f"{folder}: not a whole export: its {table} table has no part; export the records again")
    return parts


def is_export(folder: Path) -> bool:
    """Whether a folder holds an export (what `arbo stats` reads as it is)."""
    if (folder / CURRENT).is_symlink():
        return True
    games = folder / "games"
    return games.is_dir() and any(_PART.fullmatch(p.name) for p in games.iterdir())


#: The characters DuckDB's read_parquet may take for a pattern, or for an escape in one.
_PATTERN_CHARACTERS = frozenset("*?[]{}\\")


def names_itself(path: Path) -> bool:
    """Whether DuckDB's read_parquet takes ``path`` for the file of that name, not a pattern."""
    return not _PATTERN_CHARACTERS.intersection(str(path))


def part_batches(path: Path) -> Iterator["pa.RecordBatch"]:
    """The rows of a part file, a row group at a time; ArboError for a file that is not a whole
    Parquet file."""
    try:
        parts = pq.ParquetFile(path)
        for group in range(parts.num_row_groups):
            yield from parts.read_row_group(group).to_batches()
    except (pa.ArrowException, OSError) as error:
        raise ArboError(f"{path}: not a whole Parquet file ({_first_line(error)}); export the records again") from None


def _first_line(error: BaseException) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def schema_version_of(part: Path) -> str | None:
    """The schema version a part's metadata gives its table (None when it gives none); ArboError
    for a file that is not a whole Parquet file (one cut short has no footer)."""
    try:
        metadata = pq.read_schema(part).metadata or {}
    except (pa.ArrowException, OSError) as error:
        raise ArboError(f"{part}: not a whole Parquet file ({_first_line(error)}); export the records again") from None
    version = metadata.get(b"arbo.schema_version")
    return None if version is None else version.decode()


class DuckDBCorpus:
    """A corpus loaded into tables of an in-memory DuckDB database, a row group at a time, with
    the schema of the export (so that `arbo stats` counts what the export writes)."""

    def __init__(
        self, connection: DuckDBPyConnection, tables: tuple[str, ...] = TABLES, games_per_group: int = GAMES_PER_GROUP
    ) -> None:
        self.connection = connection
        self.tables = tables
        self.games_per_group = games_per_group
        self.buffers = {table: TableBuffer(table) for table in tables}
        self.grouped = 0
        for table in tables:
            connection.register("arbo_rows", self.buffers[table].take())
            connection.execute(f"CREATE TABLE {table} AS SELECT * FROM arbo_rows")
            connection.unregister("arbo_rows")

    def add(self, rows: GameRows) -> None:
        for table in self.tables:
            self.buffers[table].add(rows.of(table))
        self.grouped += 1
        if self.grouped >= self.games_per_group:
            self._flush()

    def _flush(self) -> None:
        for table in self.tables:
            self.connection.register("arbo_rows", self.buffers[table].take())
            self.connection.execute(f"INSERT INTO {table} SELECT * FROM arbo_rows")
            self.connection.unregister("arbo_rows")
        self.grouped = 0

    def close(self) -> None:
        if self.grouped:
            self._flush()
