"""docs/DATA.md's Spark section runs on a local Spark session, and each of its queries gives the
rows of the DuckDB query of the same question, on the same tables.

The tables are those the page's shell examples write (the ```` ```sh run ```` blocks before its
Spark section), in the Spark session's working directory. The page's ```` ```sql spark ```` blocks
answer its ```` ```sql ```` blocks in order, the n-th the n-th; ```` ```python spark ```` blocks
run in turn in one namespace, in that directory. A block's ```` ```text ```` block after it is
what it gives, as tests/collection/test_data_docs.py prints rows. Starting the JVM takes some
15 to 30 s on two busy cores, so the whole file is slow.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from tests.collection.test_data_docs import PRELUDE, ROOT, shown
from tests.spark_support import local_spark
from tests.test_docs import fenced_blocks

# one worker runs them all (pyproject.toml's --dist loadgroup), so the suite starts one JVM
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("spark")]

PAGE = ROOT / "docs" / "DATA.md"
BLOCKS = fenced_blocks(PAGE)
SPARK_SECTION = PAGE.read_text(encoding="utf-8").splitlines().index("## A corpus that outgrows one machine: Spark") + 1
DUCKDB_QUERIES = [b for b in BLOCKS if b.info == "sql"]
SPARK_QUERIES = [b for b in BLOCKS if b.info == "sql spark"]
SPARK_PYTHON = [b for b in BLOCKS if b.info == "python spark"]


def rows_text(columns: list[str], rows: list[tuple]) -> str:
    lines = [" | ".join(columns)] + [" | ".join("NULL" if v is None else str(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def tables(spark_folder: Path) -> Path:
    """The page's tables, written by its shell examples before the Spark section."""
    shutil.copytree(ROOT / "samples", spark_folder / "samples")
    for block in BLOCKS:
        if block.info == "sh run" and block.line < SPARK_SECTION:
            done = subprocess.run(
                ["bash", "-c", PRELUDE + block.text], cwd=spark_folder, capture_output=True, text=True, timeout=240
            )
            assert done.returncode == 0, f"{block.where}: {done.stderr[-2000:]}"
    return spark_folder


def test_the_spark_section_asks_each_duckdb_question_once():
    assert len(SPARK_QUERIES) == len(DUCKDB_QUERIES) == 5
    assert all(b.line > SPARK_SECTION for b in SPARK_QUERIES + SPARK_PYTHON)
    assert all(shown(b) is not None for b in SPARK_QUERIES)


@pytest.mark.parametrize("number", range(len(SPARK_QUERIES)), ids=lambda n: f"query{n + 1}")
def test_a_spark_query_gives_duckdbs_rows_exactly(number: int, spark, tables: Path, monkeypatch):
    ours, theirs = SPARK_QUERIES[number], DUCKDB_QUERIES[number]
    monkeypatch.chdir(tables)  # DuckDB reads relative paths from the process's directory
    expected = duckdb.connect().sql(theirs.text)
    expected_rows = expected.fetchall()
    answer = spark.sql(ours.text)
    rows = [tuple(row) for row in answer.collect()]
    assert answer.columns == expected.columns, ours.where
    assert rows == expected_rows, f"{ours.where} against {theirs.where}"
    assert [type(v) for row in rows for v in row] == [type(v) for row in expected_rows for v in row]
    assert rows_text(answer.columns, rows) == shown(ours), ours.where


def test_the_python_examples_run_and_print_what_they_show(spark, tables: Path, monkeypatch):
    monkeypatch.chdir(tables)
    namespace: dict[str, object] = {}
    assert SPARK_PYTHON, "the Spark section has no Python example"
    for block in SPARK_PYTHON:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block.text, block.where, "exec"), namespace)
        expected = shown(block)
        if expected is not None:
            assert printed.getvalue() == expected, block.where
    assert namespace["spark"] is spark  # the page's getOrCreate() found the running session


def test_the_benchmarks_spark_counts_are_arbo_stats_own(spark, tables: Path):
    """bench/bench_spark.py's Spark translations of `arbo stats`' queries, fed to arbo's own
    assembly, give the statistics DuckDB gives: here on the samples, with invalid, unscored and
    analysed games among them, and shared wins."""
    bench_spark = sys.modules[local_spark.__module__]
    ours, _, _ = bench_spark.duckdb_counts(tables / "tables")
    counts, _ = bench_spark.spark_counts(spark, tables / "tables")
    assert counts == ours
    assert (ours[0].games, ours[0].invalid, ours[0].unscored) == (7, 0, 1)
    assert any(player["judged"] for player in ours[0].players)  # the accuracy's columns are compared too
