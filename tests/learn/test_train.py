"""`arbo puzzles` and `arbo train --plain` / `--stats`: a scripted session, the history it keeps,
the next session asking the missed puzzle first, and one message for bad input."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.learn.history import History

ROOT = Path(__file__).resolve().parents[2]
ANALYSED = ROOT / "tests" / "analysis" / "fixtures" / "analysed.arb"  # as tests/analysis/test_puzzles.py
runner = CliRunner()


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("puzzles") / "puzzles.arb"
    result = runner.invoke(app, ["puzzles", str(ANALYSED), "-o", str(out), "--player", "Ben"])
    assert (result.exit_code, result.stderr) == (0, f"arbo: wrote {out} (1 puzzle)\n")
    return out


def train(*args: str, answers: str = ""):
    return runner.invoke(app, ["train", *args], input=answers)


def test_an_answer_of_no_species_in_play_is_told_so_before_its_cell(puzzle_file, tmp_path):
    """Issue 45, point 8: Zz1@0,0 was answered "Ja5 already grows there" (Ben's tree at 0,0)."""
    result = train(str(puzzle_file), "--plain", "--db", str(tmp_path / "t.sqlite"), answers="Zz1@0,0 /Ja1\n")
    assert (
        "answer> not an answer: Ben cannot plant Zz1 at (0,0): Zz is not a species in play (Bs, Ca, Cb, Dw, Ja, Ma)"
        in result.stdout.splitlines()
    )


def test_a_scripted_session_keeps_the_history_and_asks_the_missed_first(puzzle_file, tmp_path):
    db = tmp_path / "train.sqlite"
    wrong = train(str(puzzle_file), "--plain", "--db", str(db), answers="Bs3\nBs3@-3,0 /Cb1\n")
    assert wrong.exit_code == 0
    lines = wrong.stdout.splitlines()
    assert lines[0].startswith("Puzzle 1 of 1 (") and lines[0].endswith("analysed.arb game 1 turn 16; new)")
    assert "  hand:    Bs3 Bs7 Ca6 Ca7 Cb1 Dw7 Ja1 Ja7 Ma6" in lines
    assert lines[-3:] == [
        "answer> wrong: Bs3@-3,0 /Cb1 is worth -7.85; the best, Bs3@-3,0 /Ja1, -5.30",
        "",
        "0 of 1 right",
    ]
    assert "not an answer: an answer is a planting and a discard, such as Ma3@0,1 /Oa5, not 'Bs3'" in wrong.stdout
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT answer, right FROM attempts").fetchall() == [("Bs3@-3,0 /Cb1", 0)]
        assert connection.execute("SELECT box FROM puzzles").fetchall() == [(1,)]
    again = train(str(puzzle_file), "--plain", "--db", str(db), answers="Bs3@-3,0 /Ja1\n")
    assert again.stdout.splitlines()[0].endswith("; box 1)")  # the missed one, asked again at once
    assert again.stdout.splitlines()[-3:] == ["answer> right: Bs3@-3,0 /Ja1 is worth -5.30", "", "1 of 1 right"]
    done = train(str(puzzle_file), "--plain", "--db", str(db))
    assert done.stdout.startswith("nothing due: the next puzzle is due ")
    stats = train(str(puzzle_file), "--stats", "--db", str(db))
    assert (stats.exit_code, stats.stdout) == (
        0,
        "puzzles: 1, tried 1, new 0, due now 0\nattempts: 2, right 1 (50.0%)\n"
        "box 1: 0\nbox 2: 1\nbox 3: 0\nbox 4: 0\nbox 5: 0\n",
    )


def test_the_order_puts_the_missed_and_due_first_then_the_new(tmp_path):
    with History(tmp_path / "h.sqlite") as history:
        history.record("a", "x", True, 1000.0)  # box 2, due a day later
        history.record("b", "x", False, 1000.0)  # box 1, due now
        history.record("c", "x", True, 0.0)
        history.record("c", "x", True, 10.0)  # box 3, due 3 days after 10 s
        assert history.order(["n", "a", "b", "c"], 2000.0) == ["b", "n"]
        assert history.order(["n", "a", "b", "c"], 1000.0 + 86400.0) == ["b", "a", "n"]
        assert history.stats(["a", "b", "c", "n"], 2000.0).boxes == (1, 1, 1, 0, 0)


def test_an_unanalysed_game_is_one_message(tmp_path):
    result = runner.invoke(
        app, ["puzzles", str(ROOT / "samples" / "two-player-omniscient.arb"), "-o", str(tmp_path / "p.arb")]
    )
    assert (result.exit_code, result.stderr) == (
        1,
        f"arbo: no analysed game in {ROOT / 'samples' / 'two-player-omniscient.arb'}: run `arbo analyse` on the games first\n",
    )
    assert not (tmp_path / "p.arb").exists()


def test_a_file_of_no_puzzles_and_a_corrupt_history_are_one_message(puzzle_file, tmp_path):
    result = train(str(ANALYSED), "--plain", "--db", str(tmp_path / "h.sqlite"))
    assert (result.exit_code, result.stderr) == (
        1,
        f"arbo: game 1 of {ANALYSED} is no puzzle: its header has no 'puzzle' key\n",
    )
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database, whatever its name\n" * 100, encoding="utf-8")
    result = train(str(puzzle_file), "--stats", "--db", str(bad))
    assert (result.exit_code, result.stderr) == (
        1,
        f"arbo: {bad}: cannot be used as the puzzle history: file is not a database\n",
    )
    assert train("--plain").exit_code == 2


def test_the_history_goes_to_the_user_data_dir_by_default(puzzle_file, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    result = train(str(puzzle_file), "--plain", answers="Bs3@-3,0 /Ja1\n")
    assert result.exit_code == 0
    assert (tmp_path / "data" / "arbo" / "train.sqlite").is_file()


def test_the_examples_of_commands_md_print_what_they_show(tmp_path, monkeypatch):
    page = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    section = page.split("## Puzzles and training\n", 1)[1].split("\n## ", 1)[0]
    blocks = [part.split("```", 1)[0] for part in section.split("```sh\n")[1:]]
    shown = [part.split("```", 1)[0] for part in section.split("```text\n")[1:]]
    assert [b.strip() for b in blocks] == [
        "arbo puzzles samples/analysed.arb -o puzzles.arb --player Ben",
        "arbo train puzzles.arb --stats --db train.sqlite",
    ]
    (tmp_path / "samples").mkdir()
    (tmp_path / "samples" / "analysed.arb").write_bytes(ANALYSED.read_bytes())
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(app, blocks[0].split()[1:])
    assert (made.exit_code, made.stderr) == (0, shown[0])
    train("puzzles.arb", "--plain", "--db", "train.sqlite", answers="Bs3@-3,0 /Cb1\n")
    train("puzzles.arb", "--plain", "--db", "train.sqlite", answers="Bs3@-3,0 /Ja1\n")
    stats = runner.invoke(app, blocks[1].split()[1:])
    assert (stats.exit_code, stats.stdout) == (0, shown[1])


# -- hand-edited and corrupt files (issue 45, points 14, 15, 8 and 19) --------------------------


def edited(puzzle_file: Path, tmp_path: Path, old: str, new: str) -> Path:
    text = puzzle_file.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "edited.arb"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "budget: 192",
            "budget: 0",
            "its budget is 0: a budget is a whole number of sampled worlds from 1 to 100000, as --budget takes",
        ),
        (
            "budget: 192",
            "budget: -5",
            "its budget is -5: a budget is a whole number of sampled worlds from 1 to 100000, as --budget takes",
        ),
        (
            "budget: 192",
            "budget: 1000000000",
            "its budget is 1000000000: a budget is a whole number of sampled worlds from 1 to 100000, as --budget takes",
        ),
        (
            "budget: 192",
            "budget: '48'",
            "its budget is '48': a budget is a whole number of sampled worlds from 1 to 100000, as --budget takes",
        ),
        (
            "'Bs3@-3,0 /Cb1': -7.85",
            "'Bs3@-3,0 /Cb1': .nan",
            "its value of Bs3@-3,0 /Cb1 is nan: points are a number from -9999 to 9999",
        ),
        ("margin: 2.56", "margin: -.inf", "its margin is -inf: points are a number from -9999 to 9999"),
        (
            "turn: 16",
            "turn: 100000000000",
            "its turn is 100000000000: a turn is a whole number from 1 to 1000, as --turn takes",
        ),
        ("exact: false", "exact: maybe", "'exact' is true or false, not 'maybe'"),
    ],
)
def test_a_puzzle_number_past_its_option_bounds_is_one_message(puzzle_file, tmp_path, old, new, message):
    path = edited(puzzle_file, tmp_path, old, new)
    for args in (["--plain"], ["--stats"]):
        result = train(str(path), *args, "--db", str(tmp_path / "h.sqlite"), answers="Bs3@-3,0 /Ja1\n")
        assert (result.exit_code, result.stderr) == (1, f"arbo: game 1 of {path}: the 'puzzle' key: {message}\n")


@pytest.mark.parametrize(
    "draws, message",
    [
        (
            "d:Zz9 d:Ja1",
            "its draw 'd:Zz9' is no draw: 'd:Zz9' is no action: a draw is d, d:Ma3, a player's name (Ben, "
            "Ben:Oa5) or -; a planting Ma3@0,1; a discard /Oa5",
        ),
        (
            "d:Bs8 d:Bs8",
            "its draw 'd:Bs8' cannot be made: Ben cannot draw Bs8 from the deck: Bs8 is already planted in Ana's arboretum at 0,0",
        ),
        ("d:Bs3", "its draws 'd:Bs3' are not a turn's two draws"),
        ("Zed:Ma1 d:Bs3", "its draw 'Zed:Ma1' takes from a pile that is empty or no player's"),
    ],
)
def test_a_puzzle_whose_draws_cannot_be_made_is_one_message(puzzle_file, tmp_path, draws, message):
    path = edited(puzzle_file, tmp_path, "draws: d:Bs3 d:Ja1", f"draws: {draws}")
    result = train(str(path), "--plain", "--db", str(tmp_path / "h.sqlite"), answers="Bs3@-3,0 /Ja1\n")
    assert (result.exit_code, result.stderr) == (1, f"arbo: game 1 of {path}: {message}\n")


def history_with_row(path: Path, box: str, due: str) -> Path:
    """A valid SQLite history made by hand, without the constraints arbo's schema has, holding one row."""
    with sqlite3.connect(path) as connection:
        connection.executescript(
            "CREATE TABLE puzzles (id TEXT PRIMARY KEY, box, due);"
            "CREATE TABLE attempts (puzzle TEXT, at REAL, answer TEXT, right INTEGER);"
        )
        connection.execute(f"INSERT INTO puzzles VALUES ('2659e4053466', {box}, {due})")
    connection.close()
    return path


@pytest.mark.parametrize(
    "box, due, fault",
    [
        ("-10", "0", "box -10, not 1 to 5"),
        ("'abc'", "0", "box 'abc', not 1 to 5"),
        ("NULL", "0", "box None, not 1 to 5"),
        ("1", "'yesterday'", "due 'yesterday', not a time"),
        ("1", "NULL", "due None, not a time"),
        ("1", "1e300", "due 1e+300, not a time"),
    ],
)
def test_a_corrupt_history_row_is_asked_as_new_and_said(puzzle_file, tmp_path, box, due, fault):
    db = history_with_row(tmp_path / "h.sqlite", box, due)
    said = f"arbo: {db}: puzzle 2659e4053466's row is corrupt ({fault}): it is asked as new\n"
    stats = train(str(puzzle_file), "--stats", "--db", str(db))
    assert (stats.exit_code, stats.stderr) == (0, said)
    assert stats.stdout.startswith("puzzles: 1, tried 0, new 1, due now 0\n")
    every = train("--stats", "--db", str(db))
    assert (every.exit_code, every.stderr) == (0, said)
    session = train(str(puzzle_file), "--plain", "--db", str(db), answers="Bs3@-3,0 /Ja1\n")
    assert (session.exit_code, session.stderr) == (0, said)
    assert session.stdout.splitlines()[0].endswith("; new)")
    assert session.stdout.splitlines()[-1] == "1 of 1 right"
    with sqlite3.connect(db) as connection:  # the answer wrote the row whole again
        assert connection.execute("SELECT box FROM puzzles").fetchall() == [(2,)]
    connection.close()


def test_a_locked_history_is_one_message(puzzle_file, tmp_path, monkeypatch):
    from arbo_notation.learn import history

    monkeypatch.setattr(history, "WAIT_SECONDS", 0.1)
    db = tmp_path / "h.sqlite"
    History(db).close()
    holder = sqlite3.connect(db)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = train(str(puzzle_file), "--plain", "--db", str(db), answers="Bs3@-3,0 /Ja1\n")
    finally:
        holder.close()
    assert (result.exit_code, result.stderr) == (
        1,
        f"arbo: {db}: cannot be used as the puzzle history: database is locked\n",
    )
    assert "Puzzle 1" not in result.stdout  # said before the first question, not after the answer


def test_stats_never_make_a_history(puzzle_file, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    default = tmp_path / "data" / "arbo" / "train.sqlite"
    bare = train("--stats")
    assert (bare.exit_code, bare.stderr) == (0, f"arbo: no puzzle history at {default} yet: every puzzle is new\n")
    assert bare.stdout == "puzzles: 0, tried 0, new 0, due now 0\nattempts: 0, right 0 (-)\n" + "".join(
        f"box {n}: 0\n" for n in range(1, 6)
    )
    of_file = train(str(puzzle_file), "--stats", "--db", str(tmp_path / "none.sqlite"))
    assert of_file.exit_code == 0 and of_file.stdout.startswith("puzzles: 1, tried 0, new 1, due now 0\n")
    assert not (tmp_path / "data").exists() and not (tmp_path / "none.sqlite").exists()


@pytest.mark.parametrize("args", [["--stats", "--db", ""], ["--plain", "--db", ""]])
def test_an_empty_history_path_is_a_usage_error(puzzle_file, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    result = train(str(puzzle_file), *args, answers="Bs3@-3,0 /Ja1\n")
    assert result.exit_code == 2
    assert result.stderr.startswith("arbo: --db takes a path, not ''")
    assert list(tmp_path.iterdir()) == []
