"""A corpus's tables in Arrow: written as Parquet (a folder of parts per table, in row groups of
some games at a time) or loaded into DuckDB tables in memory; the only module that imports
pyarrow, and loaded only by the commands that need it.

The rows come from corpus.py a game at a time and are buffered column by column for a row group
at most, so memory stays that of a row group whatever the size of the corpus.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any, Iterable

from .corpus import NEEDS_DATA_EXTRA, SCHEMA, SCHEMA_VERSION, TABLES, GameRows
from .errors import ArboError

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
    simple = {"string": pa.string(), "bool": pa.bool_(), "int32": pa.int32()}
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
    from . import __version__

    fields = [pa.field(name, arrow_type(kind)) for name, kind in SCHEMA[table]]
    return pa.schema(fields, metadata={
        "arbo.schema_version": str(SCHEMA_VERSION), "arbo.table": table, "arbo.version": __version__,
    })


class TableBuffer:
    """The rows of one table since the last row group, column by column."""

    def __init__(self, table: str) -> None:
        self.schema = arrow_schema(table)
        self.columns: list[list[Any]] = [[] for _ in self.schema]
        self.rows = 0

    def add(self, rows: Iterable[tuple]) -> None:
        columns = self.columns
        for row in rows:
            for column, value in zip(columns, row, strict=True):
                column.append(value)
            self.rows += 1

    def take(self) -> "pa.Table":
        """The rows so far as a table; the buffer is emptied."""
        arrays = [pa.array(column, type=spec.type) for column, spec in zip(self.columns, self.schema)]
        self.columns = [[] for _ in self.schema]
        self.rows = 0
        return pa.Table.from_arrays(arrays, schema=self.schema)


class ParquetCorpus:
    """A corpus written as Parquet under ``out``: ``out/games/part-00000.parquet``, ... and the
    same for turns and scores, each part holding the same games in every table.

    The parts are written into hidden folders beside the tables and put in their place by
    ``close``, each table's folder renamed over the old one, so a run that is stopped leaves the
    export there was before. ``out`` must be new, empty, or an earlier export.
    """

    def __init__(self, out: Path, *, games_per_part: int = GAMES_PER_PART,
                 games_per_group: int = GAMES_PER_GROUP, tables: tuple[str, ...] = TABLES) -> None:
        self.out = out
        self.tables = tables
        self.games_per_part = games_per_part
        self.games_per_group = min(games_per_group, games_per_part)
        _make_export_folder(out)
        self.partial = {table: out / f".{table}.partial" for table in tables}
        for folder in self.partial.values():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
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
        if self.grouped or self.part == 0:
            self._flush()
        if self.writers:
            self._close_part()
        for table in self.tables:
            self.bytes += sum(path.stat().st_size for path in self.partial[table].iterdir())
            final = self.out / table
            old = self.out / f".{table}.old"
            shutil.rmtree(old, ignore_errors=True)
            if final.exists():
                final.rename(old)
            self.partial[table].rename(final)
            shutil.rmtree(old, ignore_errors=True)

    def abort(self) -> None:
        """Drop what was written (the export there was before stays)."""
        for writer in self.writers.values():
            writer.close()
        for folder in self.partial.values():
            shutil.rmtree(folder, ignore_errors=True)


def _make_export_folder(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise ArboError(f"{out}: exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ArboError(f"{out}: cannot create the directory ({error.strerror})") from None
    foreign = sorted(entry.name for entry in out.iterdir() if not _ours(entry))
    if foreign:
        raise ArboError(f"{out}: holds {', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}, "
                        "not an export: give a new or empty directory, or an earlier export")
    if not os.access(out, os.W_OK):
        raise ArboError(f"{out}: cannot be written")


def _ours(entry: Path) -> bool:
    """Whether an entry of an export folder is one an export writes (a table, or a hidden
    folder of a run that was stopped)."""
    name = entry.name
    if name.startswith(".") and name.endswith((".partial", ".old")):
        name = name[1:].rsplit(".", 1)[0]
    return name in TABLES and entry.is_dir() and all(_PART.fullmatch(p.name) for p in entry.iterdir())


def is_export(folder: Path) -> bool:
    """Whether a folder holds an export's games table (what `arbo stats` reads as it is)."""
    games = folder / "games"
    return games.is_dir() and any(_PART.fullmatch(p.name) for p in games.iterdir())


def schema_version_of(table_folder: Path) -> str | None:
    """The schema version its first part's metadata gives a table (None when it gives none)."""
    parts = sorted(p for p in table_folder.iterdir() if _PART.fullmatch(p.name))
    metadata = pq.read_schema(parts[0]).metadata or {}
    version = metadata.get(b"arbo.schema_version")
    return None if version is None else version.decode()


def part_glob(folder: Path, table: str) -> str:
    """The pattern of a table's parts, as DuckDB's read_parquet takes it."""
    return str(folder / table / "part-*.parquet")


class DuckDBCorpus:
    """A corpus loaded into tables of an in-memory DuckDB database, a row group at a time, with
    the schema of the export (so that `arbo stats` counts what the export writes)."""

    def __init__(self, connection, tables: tuple[str, ...] = TABLES, games_per_group: int = GAMES_PER_GROUP) -> None:
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
