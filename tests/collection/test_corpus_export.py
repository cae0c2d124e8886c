"""`arbo convert --to parquet` and `arbo simulate --to parquet`: the tables read back with DuckDB and
pyarrow say what `arbo score --json` and `arbo check` say; parts read as one table; bad games flagged."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.collection.rows import SCHEMA, SCHEMA_VERSION, TABLES, game_rows
from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError
from arbo_notation.notation.reading.split import GameText, stream_games
from arbo_notation.notation.writer import format_games
from arbo_notation.play.simulate import simulate_games

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Simulated games of 2, 3 and 4 players in two files."""
    folder = tmp_path_factory.mktemp("corpus")
    (folder / "two.arb").write_text(format_games(simulate_games(2, 5, "t2")), encoding="utf-8")
    games = [*simulate_games(3, 3, "t3"), *simulate_games(4, 2, "t4")]
    (folder / "more.arb").write_text(format_games(games), encoding="utf-8")
    return folder


def sql(query: str, *args):
    return duckdb.sql(query, params=list(args) or None).fetchall() if args else duckdb.sql(query).fetchall()


@pytest.mark.slow
def test_the_export_read_back_gives_the_counts_scores_and_winners_of_score_json(corpus, tmp_path):
    files = [corpus / "two.arb", corpus / "more.arb"]
    done = run("convert", *files, "--to", "parquet", "-o", tmp_path / "t")
    assert done.exit_code == 0, done.output
    assert "(10 games, 0 invalid: " in done.stderr
    games = str(tmp_path / "t" / "games" / "*.parquet")
    scores = str(tmp_path / "t" / "scores" / "*.parquet")
    for path in files:
        sheets = json.loads(run("score", "--json", path).stdout)
        rows = sql(
            f"SELECT game, players, scores, winners, tiebreak FROM '{games}' WHERE file = ? ORDER BY game", str(path)
        )
        assert len(rows) == len(sheets)
        for (game, players, totals, winners, tiebreak), sheet in zip(rows, sheets, strict=True):
            assert game == sheet["game"]
            assert players == [p["name"] for p in sheet["players"]]
            assert totals == [p["total"] for p in sheet["players"]]
            assert winners == sheet["winners"] and tiebreak == sheet["tiebreak"]
            parts = sql(
                f"SELECT player, species, hand_sum, has_right, points, cards, same_species, starts_with_1, "
                f"ends_with_8 FROM '{scores}' WHERE file = ? AND game = ? ORDER BY seat, species",
                str(path),
                game,
            )
            expected = sorted(
                (
                    (p["name"], code, s["hand_sum"], s["rights"], s["points"], *s["breakdown"].values())
                    for p in sheet["players"]
                    for code, s in p["species"].items()
                ),
                key=lambda row: ([p["name"] for p in sheet["players"]].index(row[0]), row[1]),
            )
            assert parts == expected
    # the same tables, read by pyarrow as one table each
    table = pq.read_table(tmp_path / "t" / "games")
    assert table.num_rows == 10 and table.column_names == [name for name, _ in SCHEMA["games"]]
    assert sum(sql(f"SELECT sum(points) FROM '{scores}'")[0]) == sum(
        sum(table.column("scores").to_pylist()[i]) for i in range(10)
    )


def test_the_tables_join_on_file_and_game_and_turns_count_the_main_line(corpus, tmp_path):
    run("convert", corpus / "more.arb", "--to", "parquet", "-o", tmp_path)
    turns = sql(
        f"SELECT g.game, g.turns, count(t.turn), max(t.turn) FROM '{tmp_path}/games/*.parquet' g "
        f"JOIN '{tmp_path}/turns/*.parquet' t USING (file, game) GROUP BY ALL ORDER BY g.game"
    )
    assert [row[0] for row in turns] == [1, 2, 3, 4, 5]
    assert all(written == counted == last for _, written, counted, last in turns)


def test_a_turns_row_is_the_turn_and_the_last_movers_score_is_their_final_score(tmp_path):
    path = SAMPLES / "two-player-omniscient.arb"
    run("convert", path, "--to", "parquet", "-o", tmp_path)
    turns = pq.read_table(tmp_path / "turns").to_pylist()
    assert turns[0] == {
        "file": str(path),
        "game": 1,
        "turn": 1,
        "player": "Ana",
        "draw1_source": "deck",
        "draw1_pile": None,
        "draw1_card": "Ja6",
        "draw2_source": "deck",
        "draw2_pile": None,
        "draw2_card": "Ma7",
        "planted": "Ma8",
        "x": 0,
        "y": 0,
        "discarded": "Ma4",
        "glyphs": [],
        "legal": True,
        "score": 0,
    }
    third = turns[2]  # 3. Ana Ana:Ma4 Ben:Ma2 Ma2@-1,0 /Ma4
    assert (third["draw1_source"], third["draw1_pile"], third["draw1_card"]) == ("discard", "Ana", "Ma4")
    assert (third["draw2_source"], third["draw2_pile"], third["planted"], third["x"]) == ("discard", "Ben", "Ma2", -1)
    [game] = pq.read_table(tmp_path / "games").to_pylist()
    last = turns[-1]
    assert last["score"] == game["scores"][game["players"].index(last["player"])]
    assert game["event"] == "Club night" and game["site"] == "Lyon" and game["round"] == "1"
    assert game["start_player"] == "Ana" and game["valid"] and game["error"] is None
    assert game["result"] == game["scores"] == [16, 14] and game["winners"] == ["Ana"]


def test_a_record_with_invalid_games_exports_them_flagged_and_says_so(tmp_path):
    good = (SAMPLES / "two-player-omniscient.arb").read_text()
    illegal = (SAMPLES / "invalid" / "rule-planting-not-adjacent.arb").read_text()
    unreadable = (SAMPLES / "invalid" / "bad-card-value.arb").read_text()
    record = tmp_path / "mixed.arb"
    record.write_text(good + "\n" + illegal + "\n" + unreadable, encoding="utf-8")
    done = run("convert", record, "--to", "parquet", "-o", tmp_path / "t")
    assert done.exit_code == 1
    rows = pq.read_table(tmp_path / "t" / "games").to_pylist()
    assert [(r["game"], r["valid"]) for r in rows] == [(1, True), (2, False), (3, False)]
    checked = run("check", record).stderr
    for row in rows[1:]:
        assert row["error"] in checked  # the first line arbo check prints for it
        assert f"{row['error']} (game {row['game']}, exported with valid = false)" in done.stderr
    assert "cannot plant Oa4" in rows[1]["error"] and rows[1]["players"] == ["Ana", "Ben"]
    assert "Ma9" in rows[2]["error"] and rows[2]["players"] == ["Ana", "Ben"]  # its header could be read
    assert rows[1]["scores"] is None and rows[2]["turns"] is None
    turns = pq.read_table(tmp_path / "t" / "turns").to_pylist()
    stopped = [t for t in turns if t["game"] == 2]
    assert stopped and not stopped[-1]["legal"] and stopped[-1]["score"] is None
    assert "(3 games, 2 invalid: " in done.stderr


def test_the_parts_read_as_one_table_and_hold_the_same_games_in_every_table(corpus, tmp_path):
    done = run(
        "convert", corpus / "two.arb", corpus / "more.arb", "--to", "parquet", "-o", tmp_path, "--games-per-part", "3"
    )
    assert done.exit_code == 0, done.output
    for table in TABLES:
        names = sorted(p.name for p in (tmp_path / table).iterdir())
        assert names == [f"part-0000{i}.parquet" for i in range(4)]
    assert sql(f"SELECT count(*) FROM '{tmp_path}/games/*.parquet'") == [(10,)]
    assert pq.read_table(tmp_path / "games").num_rows == 10
    for part in range(4):
        name = f"part-0000{part}.parquet"
        games = {(r["file"], r["game"]) for r in pq.read_table(tmp_path / "games" / name).to_pylist()}
        for table in ("turns", "scores"):
            assert {(r["file"], r["game"]) for r in pq.read_table(tmp_path / table / name).to_pylist()} == games


def test_the_files_carry_the_schema_version_and_the_documented_columns(tmp_path):
    run("convert", SAMPLES / "annotated.arb", "--to", "parquet", "-o", tmp_path)
    for table in TABLES:
        schema = pq.read_schema(tmp_path / table / "part-00000.parquet")
        assert schema.metadata[b"arbo.schema_version"] == str(SCHEMA_VERSION).encode()
        assert schema.metadata[b"arbo.table"] == table.encode()
        assert schema.names == [name for name, _ in SCHEMA[table]]
    docs = (ROOT / "docs" / "DATA.md").read_text(encoding="utf-8")
    assert f"schema version {SCHEMA_VERSION}" in docs
    for table, columns in SCHEMA.items():
        for name, kind in columns:
            assert f"| `{name}` | `{kind}` |" in docs, (table, name)


def test_every_row_builder_gives_its_tables_width():
    text = (SAMPLES / "annotated.arb").read_text()
    [piece] = [p for p in stream_games([text]) if isinstance(p, GameText)]
    rows = game_rows("a.arb", piece)
    assert len(rows.game) == len(SCHEMA["games"])
    assert {len(row) for row in rows.turns} == {len(SCHEMA["turns"])}
    assert {len(row) for row in rows.scores} == {len(SCHEMA["scores"])}
    broken = GameText("---\nplayers: [Ana, Ben]\n", 1, 2, False, 1)
    assert len(game_rows("b.arb", broken).game) == len(SCHEMA["games"])


def test_a_new_export_replaces_an_old_one_and_a_folder_of_other_files_is_refused(corpus, tmp_path):
    out = tmp_path / "t"
    run("convert", corpus / "two.arb", "--to", "parquet", "-o", out, "--games-per-part", "1")
    assert len(list((out / "games").iterdir())) == 5
    done = run("convert", SAMPLES / "annotated.arb", "--to", "parquet", "-o", out)
    assert done.exit_code == 0
    assert sorted(p.name for p in (out / "games").iterdir()) == ["part-00000.parquet"]
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["games", "scores", "turns"]
    assert len([p for p in out.iterdir() if p.name.startswith(".export-")]) == 1  # the old run's tables are gone
    (tmp_path / "notes.txt").write_text("mine")
    refused = run("convert", SAMPLES / "annotated.arb", "--to", "parquet", "-o", tmp_path)
    assert refused.exit_code == 1 and "holds notes.txt" in refused.stderr and "which no export writes" in refused.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--to", "parquet"], "--to parquet needs -o DIR"),
        (["--to", "json", "-o", "x"], "-o is for --to parquet"),
        (["--to", "parquet", "-o", "x", "--from", "json"], "leave out --from"),
    ],
)
def test_parquet_options_that_do_not_fit_are_usage_errors(args, message):
    done = run("convert", SAMPLES / "annotated.arb", *args)
    assert done.exit_code == 2 and message in done.stderr


def test_converting_several_files_to_one_text_form_is_a_usage_error():
    done = run("convert", SAMPLES / "annotated.arb", SAMPLES / "unfinished.arb", "--to", "json")
    assert done.exit_code == 2 and "converts one FILE, not 2" in done.stderr


def test_simulate_to_parquet_writes_the_tables_the_export_of_its_records_writes(tmp_path):
    records = run("simulate", "-p", "3", "-n", "4", "--seed", "9", "-j", "1")
    (tmp_path / "sims.arb").write_text(records.stdout)
    run("convert", tmp_path / "sims.arb", "--to", "parquet", "-o", tmp_path / "exported")
    done = run("simulate", "-p", "3", "-n", "4", "--seed", "9", "--out", tmp_path / "direct", "--to", "parquet")
    assert done.exit_code == 0, done.output
    assert done.stderr.startswith("arbo: wrote ") and "(4 games as Parquet tables: " in done.stderr
    for table, key in (("games", "game"), ("turns", "game, turn"), ("scores", "game, seat, species")):
        direct = sql(
            f"SELECT * EXCLUDE (file{', line' if table == 'games' else ''}) "
            f"FROM '{tmp_path}/direct/{table}/*.parquet' ORDER BY {key}"
        )
        exported = sql(
            f"SELECT * EXCLUDE (file{', line' if table == 'games' else ''}) "
            f"FROM '{tmp_path}/exported/{table}/*.parquet' ORDER BY {key}"
        )
        assert direct == exported and direct
    assert sql(f"SELECT DISTINCT file FROM '{tmp_path}/direct/games/*.parquet'") == [("seed:9",)]


def test_simulate_to_parquet_needs_a_directory():
    done = run("simulate", "-p", "2", "--to", "parquet")
    assert done.exit_code == 2 and "give --out DIR" in done.stderr


@pytest.mark.parametrize(
    "args, missing",
    [
        (["convert", "SAMPLE", "--to", "parquet", "-o", "OUT"], "pyarrow"),
        (["simulate", "-p", "2", "--out", "OUT", "--to", "parquet"], "pyarrow"),
        (["stats", "SAMPLE"], "duckdb"),
    ],
)
def test_without_the_data_extra_the_commands_that_need_it_say_how_to_install_it(args, missing, tmp_path):
    import subprocess
    import sys

    script = f"import sys; sys.modules[{missing!r}] = None\nfrom arbo_notation.cli import main; main()"
    values = [
        str(SAMPLES / "annotated.arb") if a == "SAMPLE" else str(tmp_path / "t") if a == "OUT" else a for a in args
    ]
    done = subprocess.run([sys.executable, "-c", script, *values], capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (
        f"arbo: {missing} is not installed" in done.stderr
        and ("some 240 MB installed: pip install '.[data]' in arbo's checkout, or pip install pyarrow duckdb")
        in done.stderr
    )
    assert not (tmp_path / "t").exists()


def test_standard_input_is_exported_as_stdin(tmp_path):
    text = (SAMPLES / "annotated.arb").read_text()
    done = runner.invoke(app, ["convert", "-", "--to", "parquet", "-o", str(tmp_path)], input=text)
    assert done.exit_code == 0, done.output
    assert pq.read_table(tmp_path / "games").column("file").to_pylist() == ["<stdin>"]


def test_the_header_columns_are_the_header_tables_rows():
    from arbo_notation.collection.rows import HEADER_COLUMNS
    from arbo_notation.notation.header.keys import HEADER_KEYS

    assert [(c.name, c.type) for c in HEADER_COLUMNS] == [
        ("event", "string"),
        ("site", "string"),
        ("date", "string"),
        ("round", "string"),
        ("annotator", "string"),
        ("players", "list<string>"),
        ("start_player", "string"),
        ("species", "list<string>"),
        ("names", "map<string,string>"),
        ("perspective", "string"),
        ("deck", "list<string>"),
        ("hands", "map<string,list<string>>"),
        ("discards", "map<string,list<string>>"),
        ("position", "string"),
        ("header_result", "map<string,int32>"),
    ]
    assert list(dict.fromkeys(c.key for c in HEADER_COLUMNS)) == list(HEADER_KEYS)
    names = [name for name, _ in SCHEMA["games"]]
    assert len(names) == len(set(names))


def test_a_new_row_of_the_header_table_gets_its_column():
    from types import SimpleNamespace

    from arbo_notation.collection.rows import header_columns
    from arbo_notation.notation.header.keys import HEADER_KEY_ROWS, ROW_OF_KEY, Text

    venue = ROW_OF_KEY["site"]._replace(name="venue")
    seen = ROW_OF_KEY["deck"]._replace(name="seen")
    columns = header_columns(HEADER_KEY_ROWS + (venue, seen))
    assert [(c.name, c.type) for c in columns[-2:]] == [("venue", "string"), ("seen", "list<string>")]
    header = SimpleNamespace(venue="The Greenhouse", seen=(Card("Ma", 3), Card("Oa", 5)))
    assert [c.value(getattr(header, c.key)) for c in columns[-2:]] == ["The Greenhouse", ["Ma3", "Oa5"]]

    class Cloud(Text):
        kind = "a cloud"

    odd = ROW_OF_KEY["site"]._replace(name="weather", value_type=Cloud())
    with pytest.raises(ArboError, match="'weather' is of the kind 'a cloud'"):
        header_columns(HEADER_KEY_ROWS + (odd,))


def test_a_record_that_starts_from_a_position_gives_its_line_and_its_turns_numbered_on_from_it():
    text = (SAMPLES / "study.arb").read_text(encoding="utf-8")
    [piece] = [p for p in stream_games([text]) if isinstance(p, GameText)]
    rows = game_rows("study.arb", piece)
    game = dict(zip((name for name, _ in SCHEMA["games"]), rows.game, strict=True))
    assert game["position"] == text.split('position: "')[1].split('"')[0]
    assert (game["valid"], game["deck"], game["hands"], game["scores"]) == (True, None, None, [13, 16])
    turns = [dict(zip((name for name, _ in SCHEMA["turns"]), row, strict=True)) for row in rows.turns]
    assert [(turn["turn"], turn["player"], turn["legal"]) for turn in turns] == [
        (16, "Ben", True),
        (17, "Ana", True),
        (18, "Ben", True),
        (19, "Ana", True),
        (20, "Ben", True),
    ]
