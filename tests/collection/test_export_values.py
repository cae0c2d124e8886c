"""Numbers past a record's limits (a result of 2**31, a score of 4,000 digits, a planting at
x = 10**20) never crash the export or `arbo stats`: the reader refuses them where they stand, the
game is exported with valid = false, and the other games are all there; and should a number that
does not fit an int32 column reach the export anyway, it is written as null and the game flagged."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.collection.rows import SCHEMA, fit_columns, game_rows
from arbo_notation.notation.reading.split import GameText, stream_games
from arbo_notation.collection.parquet import TableBuffer

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
runner = CliRunner()


def unfinished_with(old: str, new: str) -> str:
    text = (SAMPLES / "unfinished.arb").read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new)


WIDE = {
    "result.arb": unfinished_with("result *", "result Ana 2147483648, Ben 3"),
    "digits.arb": unfinished_with("result *", "result Ana " + "9" * 4000 + ", Ben 3"),
    "far.arb": unfinished_with("Cb2@-5,0", f"Cb2@{10**20},0"),
}


@pytest.fixture
def corpus(tmp_path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    for name, text in WIDE.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "good.arb").write_text((SAMPLES / "annotated.arb").read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def test_the_export_keeps_every_game_and_flags_the_ones_with_numbers_past_the_limits(corpus, tmp_path):
    done = runner.invoke(app, ["convert", str(corpus), "--to", "parquet", "-o", str(tmp_path / "t")])
    assert done.exit_code == 1 and "Traceback" not in done.output
    assert "(4 games, 3 invalid: " in done.stderr
    games = pq.read_table(tmp_path / "t" / "games").to_pylist()
    by_file = {Path(row["file"]).name: row for row in games}
    assert sorted(by_file) == ["digits.arb", "far.arb", "good.arb", "result.arb"]
    assert by_file["good.arb"]["valid"] and by_file["good.arb"]["result"] == [21, 7]
    # The reader refuses each number where it stands, as `arbo check` does (docs/NOTATION.md, "Limits").
    errors = {name: row["error"].removeprefix(f"{corpus / name}:") for name, row in by_file.items() if not row["valid"]}
    assert errors == {
        "result.arb": "24:12: error: Ana's score has at most 4 digits (0 to 9999), found '2147483648' [syntax]",
        "digits.arb": "24:12: error: Ana's score has at most 4 digits (0 to 9999), found "
        "'999999999999999999999999...' [syntax]",
        "far.arb": "23:25: error: a coordinate is a whole number from -999 to 999, found "
        "'100000000000000000000' [syntax]",
    }
    assert by_file["result.arb"]["result"] is None and by_file["digits.arb"]["result"] is None


def test_stats_counts_the_good_games_and_names_the_others(corpus):
    done = runner.invoke(app, ["stats", "--json", str(corpus)])
    assert done.exit_code == 1 and "Traceback" not in done.output
    data = json.loads(done.stdout)
    assert (data["games"], data["invalid"]) == (1, 3)


def annotated_rows():
    text = (SAMPLES / "annotated.arb").read_text(encoding="utf-8")
    [piece] = [p for p in stream_games([text]) if isinstance(p, GameText)]
    return game_rows("a.arb", piece)


def test_a_valid_game_with_a_number_too_wide_is_flagged_by_its_column():
    rows = annotated_rows()
    assert rows.valid
    rows.turns[0] = (*rows.turns[0][:11], 10**20, *rows.turns[0][12:])
    rows = fit_columns(rows)
    assert not rows.valid and rows.turns[0][11] is None
    assert rows.error == (
        "a.arb:1: error: turns.x cannot hold 100000000000000000000: the export's numbers are "
        "32-bit (written as null) [range]"
    )
    rows.scores[0] = (*rows.scores[0][:7], 10**5000, *rows.scores[0][8:])
    assert fit_columns(rows).scores[0][7] is None


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_number_in_any_number_column_is_written_or_made_null(data):
    rows = annotated_rows()
    wide = st.one_of(
        st.integers(),
        st.integers(min_value=2**31 - 2, max_value=2**31 + 2),
        st.integers(min_value=-(2**31) - 2, max_value=-(2**31) + 2),
    )
    for table in ("games", "turns", "scores"):
        for number, row in enumerate(rows.of(table)):
            values = list(row)
            for index, (_name, kind) in enumerate(SCHEMA[table]):
                if kind == "int32":
                    values[index] = data.draw(wide)
                elif kind == "list<int32>" and values[index] is not None:
                    values[index] = [data.draw(wide) for _ in values[index]]
            if table == "games":
                rows.game = tuple(values)
            else:
                rows.of(table)[number] = tuple(values)
    rows = fit_columns(rows)
    for table in ("games", "turns", "scores"):
        buffer = TableBuffer(table)
        buffer.add(rows.of(table))
        assert buffer.take().num_rows == len(rows.of(table))  # no value the column cannot hold


def test_a_file_name_that_is_not_utf8_is_exported_with_its_bytes_shown(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    name = os.fsdecode(b"g\xff.arb")
    (folder / name).write_text((SAMPLES / "annotated.arb").read_text(encoding="utf-8"), encoding="utf-8")
    done = runner.invoke(app, ["convert", str(folder), "--to", "parquet", "-o", str(tmp_path / "t"), "-q"])
    assert done.exit_code == 0, done.output
    for table in ("games", "turns", "scores"):
        assert set(pq.read_table(tmp_path / "t" / table).column("file").to_pylist()) == {f"{folder}/g\\xff.arb"}
    stats = runner.invoke(app, ["stats", "--json", str(folder)])
    assert stats.exit_code == 0 and json.loads(stats.stdout)["games"] == 1
