"""The examples of docs/DATA.md and of README.md's collections tour run, and print what they show.

A ```` ```sh run ```` block is a shell script run in a folder holding a copy of samples/ (every
such block of a page in turn, in the same folder, so a later block sees what an earlier one
wrote), with ``arbo`` and ``python3`` this Python's; a ```` ```sql ```` block is a query DuckDB runs
there. When the next block is a ```` ```text ```` block, it is exactly what the script printed
on stdout, or the query's rows (a line of column names, then a line a row, ' | ' between).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from tests.test_docs import Block, fenced_blocks

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "DATA.md", ROOT / "README.md"]
PRELUDE = (
    f'set -euo pipefail\narbo() {{ "{sys.executable}" -m arbo_notation "$@"; }}\n'
    f'python3() {{ "{sys.executable}" "$@"; }}\n'
)


def runnable(block: Block) -> bool:
    return block.info == "sh run" or block.info == "sql"


def shown(block: Block) -> str | None:
    after = block.after
    return after.text if after is not None and after.info == "text" else None


def rows_text(relation) -> str:
    lines = [" | ".join(relation.columns)]
    lines += [" | ".join("NULL" if v is None else str(v) for v in row) for row in relation.fetchall()]
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_of_the_page_runs_and_prints_what_it_shows(page: Path, tmp_path: Path, monkeypatch):
    blocks = [b for b in fenced_blocks(page) if runnable(b)]
    assert blocks, f"{page.name} has no runnable example"
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    monkeypatch.chdir(tmp_path)  # where DuckDB finds the tables the scripts wrote
    for block in blocks:
        if block.info == "sh run":
            done = subprocess.run(
                ["bash", "-c", PRELUDE + block.text], cwd=tmp_path, capture_output=True, text=True, timeout=240
            )
            assert done.returncode == 0, f"{block.where}: {done.stderr[-2000:]}"
            printed = done.stdout
        else:
            printed = rows_text(duckdb.connect().sql(block.text))
        expected = shown(block)
        if expected is not None:
            assert printed == expected, f"{block.where}:\n{printed}"


def test_data_md_shows_the_three_queries_people_ask_and_spark():
    text = (ROOT / "docs" / "DATA.md").read_text(encoding="utf-8")
    queries = [b.text for b in fenced_blocks(ROOT / "docs" / "DATA.md") if b.info == "sql"]
    assert any("start_player" in q and "winners" in q for q in queries)
    assert any("species" in q and "avg(points)" in q for q in queries)
    assert any("'Ana'" in q and "'Ben'" in q for q in queries)
    assert "spark.read.parquet" in text
