"""Benchmark: `arbo stats`' counts of a simulated corpus, by DuckDB (what `arbo stats DIR` runs)
against Spark on a local session (``local[2]``), at several sizes up to a million games.

The corpus: ``--unique`` two-player games from `arbo simulate --to parquet` (greedy bots, seeded),
repeated to each size with their ``game`` numbers moved on (copy k of game i is game
i + k * unique), written in parts of 100,000 games as the export writes them, a row group a copy
(2,000 games, as the export's). A row group is thus what the export writes of real games; only
the values repeat from one group to the next. Simulating a million different games would take
some 6 hours on two cores (docs/DATA.md); the corpora are cached in ``--cache`` (the system's temp
folder by default), so a second run starts at once.

For each size: DuckDB's counts as `arbo stats DIR` makes them (its tables loaded into DuckDB's
memory, then its four queries), in this process; then the same counts in Spark SQL on one
session, started once (its start is timed apart), reading the parts where they lie. The Spark
queries are translations of arbo's DuckDB ones, fed to arbo's own assembly
(arbo_notation.collection.stats.compute), and the run stops unless both engines give the same
statistics. DuckDB also counts reading the parts in place (views over the files, nothing loaded),
as Spark reads them. Spark counts the smallest corpus once to warm up (its JVM compiles Spark's code on the
first queries), then each size twice: a first time (listing the folder's parts, planning) and again.

    python bench/bench_spark.py [--sizes 10000,100000,1000000] [--unique 2000] [--cores 2]

Figures are noisy on a shared machine: compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from arbo_notation.collection import stats as arbo_stats
from arbo_notation.collection.parquet import DuckDBCorpus

GAMES_PER_PART = 100_000
SEED = "bench-spark"

# arbo's four queries of `arbo stats` (no --by), in Spark's SQL: posexplode for DuckDB's
# unnest of several lists side by side, get(list, i) (0-based, null past the end) for its
# subscripts, array_contains for list_contains, min of a struct for first(... ORDER BY ...).
_COUNTED = "SELECT *, NULL AS grouped FROM games WHERE valid AND scores IS NOT NULL"
SPARK_QUERIES = {
    "overview": """
SELECT NULL AS grouped,
       count(*) FILTER (WHERE valid AND scores IS NOT NULL) AS counted,
       count(*) FILTER (WHERE NOT valid) AS invalid,
       count(*) FILTER (WHERE valid AND scores IS NULL) AS unscored
FROM games
""",
    "players": f"""
WITH counted AS ({_COUNTED}),
seated AS (
    SELECT grouped, file, game, winners, player, get(scores, seat) AS score, get(judged, seat) AS judged,
           get(points_lost, seat) AS points_lost, get(accuracy, seat) AS accuracy
    FROM counted LATERAL VIEW posexplode(players) AS seat, player
)
SELECT grouped, player, count(*) AS games,
       count(*) FILTER (WHERE array_contains(winners, player)) AS wins,
       avg(score) AS mean_score, max(score) AS best_score,
       min(named_struct('score', -score, 'file', file, 'game', game)).file AS best_file,
       min(named_struct('score', -score, 'file', file, 'game', game)).game AS best_game,
       coalesce(sum(judged), 0) AS judged, coalesce(sum(points_lost), 0) AS points_lost,
       coalesce(sum(accuracy * judged) FILTER (WHERE judged > 0), 0) AS accuracy_total
FROM seated GROUP BY grouped, player
ORDER BY grouped, wins DESC, wins / games DESC, mean_score DESC, player
""",
    "seats": f"""
WITH counted AS ({_COUNTED}),
seated AS (
    SELECT grouped, winners, player, seat + 1 AS seat FROM counted LATERAL VIEW posexplode(players) AS seat, player
)
SELECT grouped, seat, count(*) AS games, count(*) FILTER (WHERE array_contains(winners, player)) AS wins
FROM seated GROUP BY grouped, seat ORDER BY grouped, seat
""",
    "species": f"""
WITH counted AS ({_COUNTED}),
played AS (
    SELECT counted.grouped, scores.file, scores.game, scores.species, scores.points
    FROM scores JOIN counted ON scores.file = counted.file AND scores.game = counted.game
)
SELECT grouped, species,
       count(DISTINCT file, game) AS games,
       count(DISTINCT file, game) FILTER (WHERE points > 0) AS scored,
       count(*) FILTER (WHERE points > 0) AS paths,
       avg(points) FILTER (WHERE points > 0) AS mean_points
FROM played GROUP BY grouped, species
ORDER BY grouped, scored / games DESC, mean_points DESC NULLS LAST, species
""",
}


def arbo_queries() -> dict[str, str]:
    """The texts arbo's compute() runs without --by, each named as its Spark translation."""
    counted = arbo_stats._COUNTED.format(group="NULL")
    return {
        arbo_stats._OVERVIEW.format(group="NULL"): "overview",
        arbo_stats._PLAYERS.format(counted=counted): "players",
        arbo_stats._SEATS.format(counted=counted): "seats",
        arbo_stats._SPECIES.format(counted=counted): "species",
    }


class SparkRows:
    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows = rows

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self.rows


class SparkConnection:
    """What compute() asks of a DuckDB connection, answered by Spark: each of arbo's queries is
    run as its translation, so arbo's own code assembles the statistics from Spark's rows."""

    def __init__(self, spark: Any) -> None:
        self.spark = spark
        self.translations = arbo_queries()

    def execute(self, query: str) -> SparkRows:
        translated = SPARK_QUERIES[self.translations[query]]
        return SparkRows([tuple(row) for row in self.spark.sql(translated).collect()])


def simulated(cache: Path, unique: int) -> Path:
    """``unique`` simulated games as an export's folder (made once, then cached)."""
    folder = cache / f"simulated-{unique}"
    if not (folder / "games").exists():
        start = time.perf_counter()
        command = [sys.executable, "-m", "arbo_notation", "simulate", "--players", "2", "--games", str(unique)]
        command += ["--seed", SEED, "--out", str(folder), "--to", "parquet", "-q"]
        subprocess.run(command, check=True)
        print(f"simulated {unique:,} games in {time.perf_counter() - start:.1f} s", flush=True)
    return folder


def repeated(cache: Path, source: Path, unique: int, games: int) -> Path:
    """An export's folder of ``games`` games: the source's, repeated with new game numbers."""
    folder = cache / f"corpus-{unique}-{games}"
    if (folder / "done").exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    start = time.perf_counter()
    for table in ("games", "turns", "scores"):
        (folder / table).mkdir(parents=True)
        base = pq.read_table(next((source / table).glob("*.parquet")))
        numbers = base.column("game")
        index = base.schema.get_field_index("game")
        writer = None
        for copy in range(games // unique):
            first = copy * unique
            if first % GAMES_PER_PART == 0:
                if writer is not None:
                    writer.close()
                writer = pq.ParquetWriter(folder / table / f"part-{first // GAMES_PER_PART:05d}.parquet", base.schema)
            moved = pc.add(numbers, pa.scalar(first, pa.int32()))
            assert writer is not None
            writer.write_table(base.set_column(index, base.schema.field(index), moved))
        if writer is not None:
            writer.close()
    (folder / "done").write_text("")
    print(f"wrote {games:,} games in {time.perf_counter() - start:.1f} s", flush=True)
    return folder


def duckdb_counts(folder: Path) -> tuple[list[arbo_stats.Stats], float, float]:
    """`arbo stats DIR`'s statistics, and its seconds to load and to count."""
    start = time.perf_counter()
    connection = arbo_stats.connect()
    DuckDBCorpus(connection, tables=("games", "scores"))
    arbo_stats.load_export(connection, folder)
    loaded = time.perf_counter()
    counts = arbo_stats.compute(connection)
    counted = time.perf_counter()
    connection.close()
    return counts, loaded - start, counted - loaded


def duckdb_in_place(folder: Path) -> tuple[list[arbo_stats.Stats], float]:
    """The same statistics by DuckDB reading the parts where they lie, as Spark does (views over
    the files, nothing loaded first): not what `arbo stats` does, the peer Spark's reading has."""
    start = time.perf_counter()
    connection = arbo_stats.connect()
    for table in ("games", "scores"):
        parts = ", ".join(f"'{part}'" for part in sorted((folder / table).glob("*.parquet")))
        connection.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet([{parts}])")
    counts = arbo_stats.compute(connection)
    connection.close()
    return counts, time.perf_counter() - start


def spark_counts(spark: Any, folder: Path) -> tuple[list[arbo_stats.Stats], float]:
    start = time.perf_counter()
    for table in ("games", "scores"):
        spark.read.parquet(str(folder / table)).createOrReplaceTempView(table)
    counts = arbo_stats.compute(SparkConnection(spark))  # type: ignore[arg-type]
    return counts, time.perf_counter() - start


#: Spark's own log lines below ERROR go nowhere: the tests and the benchmark read rows, not logs.
LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c: %m%n
"""


@contextmanager
def local_spark(folder: Path, cores: int = 2, memory: str = "1g") -> Iterator[Any]:
    """A local SparkSession (``local[cores]``, the driver's heap ``memory``) on the loopback address,
    without its web UI, logging errors only, its JVM working in ``folder`` (a relative path in a
    query is read from there) and its scratch files in ``folder/.spark``; the JVM is ended on
    leaving, whatever happens (the tests' fixture is this too)."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    scratch = folder / ".spark"
    (scratch / "local").mkdir(parents=True, exist_ok=True)
    (scratch / "log4j2.properties").write_text(LOG4J2, encoding="utf-8")
    java_options = f"-Dlog4j2.configurationFile=file:{scratch / 'log4j2.properties'} -Djava.io.tmpdir={scratch}"
    builder = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("arbo")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", memory)
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.warehouse.dir", str(scratch / "warehouse"))
        .config("spark.local.dir", str(scratch / "local"))
        .config("spark.driver.extraJavaOptions", java_options)
        # a few rows a query: Spark's default of 200 shuffle partitions is 200 tasks for nothing
        .config("spark.sql.shuffle.partitions", str(cores))
    )
    here = Path.cwd()
    environment = {name: os.environ.get(name) for name in ("SPARK_LOCAL_IP", "SPARK_LOCAL_DIRS")}
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"  # no look-up of the machine's name, no other interface
    os.environ["SPARK_LOCAL_DIRS"] = str(scratch / "local")
    os.chdir(folder)  # the JVM, launched now, inherits it
    try:
        session = builder.getOrCreate()
    finally:
        os.chdir(here)
        for name, value in environment.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    session.sparkContext.setLogLevel("ERROR")
    gateway = SparkContext._gateway
    try:
        yield session
    finally:
        session.stop()
        # stop() ends the SparkContext but leaves its JVM to the end of this process: end it now
        if gateway is not None:
            gateway.shutdown()
            process = getattr(gateway, "proc", None)
            if process is not None:
                if process.stdin is not None:
                    process.stdin.close()  # the JVM exits when its standard input closes
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:  # the JVM must not outlive its session
                    process.kill()
                    process.wait()
        SparkContext._gateway = None
        SparkContext._jvm = None


def measure(spark: Any, size: int, folder: Path) -> tuple[Any, ...]:
    """The seconds of each engine's counts of one corpus, which must agree."""
    ours, load, count = duckdb_counts(folder)
    in_place_counts, in_place = duckdb_in_place(folder)
    first_counts, first = spark_counts(spark, folder)
    again_counts, again = spark_counts(spark, folder)
    if not (first_counts == ours == again_counts == in_place_counts):
        raise SystemExit(f"{size:,} games: Spark's statistics differ from DuckDB's")
    megabytes = sum(p.stat().st_size for p in folder.rglob("*.parquet") if "turns" not in p.parts) / 1e6
    print(
        f"{size:>9,} games ({megabytes:.1f} MB of games and scores): DuckDB {load + count:.2f} s "
        f"(load {load:.2f} + count {count:.2f}), in place {in_place:.2f} s; "
        f"Spark {first:.2f} s, again {again:.2f} s",
        flush=True,
    )
    return size, megabytes, load, count, load + count, in_place, first, again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="games, a comma list")
    parser.add_argument("--unique", type=int, default=2000, help="games simulated, then repeated")
    parser.add_argument("--cores", type=int, default=2, help="Spark's local[N]")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "arbo-bench-spark")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    if any(size % options.unique for size in sizes) or GAMES_PER_PART % options.unique:
        parser.error("each size, and 100,000, must be a multiple of --unique")
    options.cache.mkdir(parents=True, exist_ok=True)
    source = simulated(options.cache, options.unique)
    folders = {size: repeated(options.cache, source, options.unique, size) for size in sizes}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    scratch = Path(tempfile.mkdtemp(prefix="arbo-bench-spark-"))
    rows = []
    start = time.perf_counter()
    try:
        with local_spark(scratch, options.cores, memory="4g") as spark:
            started = time.perf_counter() - start
            print(f"Spark local[{options.cores}] session started in {started:.1f} s", flush=True)
            # the JVM compiles Spark's code on its first queries: a warm-up on the smallest corpus, so
            # that the first run of each size below is that of a session that has counted before
            warm_up = spark_counts(spark, folders[min(sizes)])[1]
            print(f"warm-up: Spark's counts of {min(sizes):,} games in {warm_up:.1f} s", flush=True)
            for size in sizes:
                rows.append(measure(spark, size, folders[size]))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print("| games | MB (games + scores) | `arbo stats`: load | count | total | DuckDB in place | Spark | again |")
    print("|---|---|---|---|---|---|---|---|")
    for size, megabytes, load, count, total, in_place, first, again in rows:
        print(
            f"| {size:,} | {megabytes:.1f} | {load:.2f} | {count:.2f} | {total:.2f} | {in_place:.2f} "
            f"| {first:.2f} ({first / total:.2f}x) | {again:.2f} ({again / total:.2f}x) |"
        )
    print(f"\nSpark's session start, once: {started:.1f} s, and its warm-up {warm_up:.1f} s (not in the rows above)")


if __name__ == "__main__":
    main()
