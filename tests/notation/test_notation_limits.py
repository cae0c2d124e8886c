"""The bounds of a record (docs/NOTATION.md, "Limits"): numbers, names, glyphs and header texts past
them are refused where they stand by `check`, the same by both readers and every command, before
any work is done with them."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.checking.files import check_pieces
from arbo_notation.cli import app
from arbo_notation.errors import NotationErrors
from arbo_notation.notation.reading import scanner
from arbo_notation.notation.reading.split import stream_games
from arbo_notation.notation.reading.reader import parse

runner = CliRunner()

HEADER = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"
LONG_NAME = "A" * 101


def record(body: str, header: str = HEADER) -> str:
    return header + body + "\n"


#: A record past one bound, the line and column of its error, and the error's message.
PAST_THE_BOUNDS = {
    "score": (
        record("1. Ana d d Ma3@0,0 /Oa5\nresult Ana 2147483648, Ben 3"),
        6,
        12,
        "Ana's score has at most 4 digits (0 to 9999), found '2147483648'",
    ),
    "score of 4000 digits": (
        record("1. Ana d d Ma3@0,0 /Oa5\nresult Ana 3, Ben " + "7" * 4000),
        6,
        19,
        "Ben's score has at most 4 digits (0 to 9999), found '777777777777777777777777...'",
    ),
    "x": (
        record("1. Ana d d Ma3@100000000000000000000,0 /Oa5\nresult *"),
        5,
        16,
        "a coordinate is a whole number from -999 to 999, found '100000000000000000000'",
    ),
    "y": (
        record("1. Ana d d Ma3@0,-1000 /Oa5\nresult *"),
        5,
        18,
        "a coordinate is a whole number from -999 to 999, found '-1000'",
    ),
    "glyph": (
        record("1. Ana d d Ma3@0,0 /Oa5 $" + "9" * 5000 + "\nresult *"),
        5,
        25,
        "a numeric glyph has at most 3 digits ($0 to $999), found '$99999999999999999999999...'",
    ),
    "glyphs": (
        record("1. Ana d d Ma3@0,0 /Oa5 ! ? !! ?? !? ?! $1 $2 $3\nresult *"),
        5,
        47,
        "a turn has at most 8 glyphs",
    ),
    "turn number": (
        record("12345. Ana d d Ma3@0,0 /Oa5\nresult *"),
        5,
        1,
        "a turn number has at most 4 digits, found '12345'",
    ),
    "player": (
        record(f"1. {LONG_NAME} d d Ma3@0,0 /Oa5\nresult *"),
        5,
        4,
        "a player's name has at most 100 characters, found one of 101",
    ),
    "draw": (
        record(f"1. Ana {LONG_NAME}:Ma3 d Ma3@0,0 /Oa5\nresult *"),
        5,
        8,
        "a player's name has at most 100 characters, found one of 101",
    ),
    "reveal": (
        record(f"1. Ana d d Ma3@0,0 /Oa5\nreveal {LONG_NAME} Ma3\nresult *"),
        6,
        8,
        "a player's name has at most 100 characters, found one of 101",
    ),
    "result name": (
        record(f"1. Ana d d Ma3@0,0 /Oa5\nresult Ana 3, {LONG_NAME} 4"),
        6,
        15,
        "a player's name has at most 100 characters, found one of 101",
    ),
    "header player": (
        record("result *", f"---\nplayers: [Ana, {LONG_NAME}]\nspecies: [Ca, Dw]\n---\n"),
        2,
        1,
        "'players': a player's name has at most 100 characters, found one of 101",
    ),
    "header text": (
        record("result *", "---\nevent: " + "x" * 4001 + "\nplayers: [Ana, Ben]\nspecies: [Ca, Dw]\n---\n"),
        2,
        1,
        "'event' holds 4001 characters: a header's text holds at most 4000",
    ),
    "header score": (
        record("result *", "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw]\nresult: {Ana: 10000, Ben: 3}\n---\n"),
        4,
        10,
        "'result': Ana's score must be at most 9999, found a number of 5 digits",
    ),
    "header number": (
        record("result *", "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw]\nfoo: " + "9" * 4000 + "\n---\n"),
        4,
        1,
        "'foo' holds a number of 4000 digits: a header's numbers fit in 64 bits (at most 19 digits)",
    ),
}


@pytest.mark.parametrize("kind", PAST_THE_BOUNDS)
def test_check_refuses_a_record_past_a_bound_where_it_stands(tmp_path: Path, kind: str):
    text, line, column, message = PAST_THE_BOUNDS[kind]
    path = tmp_path / "past.arb"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == f"{path}:{line}:{column}: error: {message} [syntax]"
    assert result.stderr.splitlines()[2].endswith("^") and len(result.stderr.splitlines()[2]) <= 120


@pytest.mark.parametrize("kind", PAST_THE_BOUNDS)
def test_both_readers_refuse_a_record_past_a_bound(kind: str):
    text, line, column, message = PAST_THE_BOUNDS[kind]
    assert scanner.read_game(text) is None and scanner.read_moves(text) is None
    with pytest.raises(NotationErrors) as raised:
        parse(text, "past.arb")
    first = raised.value.errors[0]
    assert (first.line, first.column, first.message) == (line, column, message)


#: Records at each bound: they read, by the scanner as by the grammar.
AT_THE_BOUNDS = [
    record("9999. Ana d d Ma3@0,0 /Oa5 ! ? !! ?? !? ?! $999 $0\nresult Ana 9999, Ben 0"),
    record("1. Ana d d Ma3@-999,999 /Oa5\nresult *"),
    record(
        f"1. {'A' * 100} d d Ma3@0,0 /Oa5\nresult *",
        f"---\nevent: {'x' * 4000}\nplayers: [{'A' * 100}, Ben]\nspecies: [Ca, Dw]\nfoo: {2**63 - 1}\nbar: {-(2**63)}\n---\n",
    ),
]


@pytest.mark.parametrize("text", AT_THE_BOUNDS, ids=["numbers", "cell", "name and header"])
def test_a_record_at_the_bounds_reads_the_same_by_both_readers(text: str):
    (game,) = parse(text, "at.arb")
    assert scanner.read_game(text, "at.arb") == game
    assert scanner.read_moves(text) is not None


@pytest.mark.parametrize(
    "command",
    [
        ["fmt"],
        ["convert", "--to", "json"],
        ["export", "--to", "html"],
        ["render"],
        ["score"],
        ["state"],
        ["replay", "--plain"],
    ],
    ids=lambda command: command[0],
)
@pytest.mark.parametrize("kind", ["x", "glyph", "player", "header text"])
def test_every_command_refuses_what_check_refuses(tmp_path: Path, command: list[str], kind: str):
    text, line, column, message = PAST_THE_BOUNDS[kind]
    path = tmp_path / "past.arb"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, [command[0], str(path), *command[1:]])
    assert result.exit_code == 1
    located = f"{path}:{line}:{column}: error: {message}"
    assert located in result.stderr.splitlines() or f"{located} [syntax]" in result.stderr.splitlines()
    assert "Traceback" not in result.stderr and "<svg" not in result.stdout and "<html" not in result.stdout


@pytest.mark.slow
def test_a_turn_of_a_million_glyphs_is_refused_in_little_memory():
    text = record("1. Ana d d Ma3@0,0 /Oa5 " + " ".join(["!"] * 1_200_000) + "\nresult *")
    check_pieces("glyphs.arb", stream_games([text]))  # the first run builds the parser
    tracemalloc.start()
    try:
        summary = check_pieces("glyphs.arb", stream_games([text]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [d.message for d in summary.diagnostics] == ["a turn has at most 8 glyphs"]
    assert peak < 8 * len(text), f"{peak >> 20} MB for a {len(text) >> 20} MB record"  # it was 230 MB


def _structured(turn: dict, result: dict | None = None) -> str:
    game = {
        "header": {"players": ["Ana", "Ben"], "species": ["Ma", "Oa"]},
        "turns": [
            {
                "player": "Ana",
                "draws": [{"from": "deck"}, {"from": "deck"}],
                "plant": {"card": "Ma3", "x": 0, "y": 0},
                "discard": "Oa5",
                **turn,
            }
        ],
    }
    if result is not None:
        game["result"] = result
    return json.dumps({"format": "arbo", "version": 1, "games": [game]})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            _structured({"plant": {"card": "Ma3", "x": 10**20, "y": 0}}),
            "games[0].turns[0].plant.x: expected a whole number of at most 3 digits, found one of 21",
        ),
        (
            _structured({"number": 10000}),
            "games[0].turns[0].number: expected a whole number of at most 4 digits, found one of 5",
        ),
        (_structured({"glyphs": ["!"] * 9}), "games[0].turns[0].glyphs: a turn has at most 8 glyphs, found 9"),
        (
            _structured({"glyphs": ["$1000"]}),
            "games[0].turns[0].glyphs[0]: unknown glyph '$1000' (! ? !! ?? !? ?! or $n, n of at most 3 digits)",
        ),
        (
            _structured({"player": LONG_NAME}),
            f"games[0].turns[0].player: '{'A' * 24}'... (101 characters) is not a player's name (a letter, then letters, "
            "digits, _ ' or -, at most 100 characters; not d, reveal or result)",
        ),
        (
            _structured({}, {"scores": [["Ana", 10000], ["Ben", 1]]}),
            "games[0].result.scores[0][1]: expected a whole number of at most 4 digits, found one of 5",
        ),
    ],
    ids=["x", "number", "glyphs", "glyph", "name", "score"],
)
def test_a_structured_record_past_a_bound_is_refused_at_its_place(tmp_path: Path, data: str, message: str):
    path = tmp_path / "past.json"
    path.write_text(data, encoding="utf-8")
    result = runner.invoke(app, ["convert", str(path), "--to", "arb"])
    assert result.exit_code == 1
    assert result.stderr == f"arbo: {path}: {message}\n"


def test_a_position_past_a_bound_is_refused(tmp_path: Path):
    path = tmp_path / "far.yaml"
    path.write_text(
        "species: [Ca]\nplayers:\n  - name: Ana\n    trees: [[100000000000000000000, 0, Ca1]]\n    hand: []\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"arbo: {path}: Ana's tree 1: the x coordinate must be from -999 to 999, not a number of 21 digits\n"
    )


def test_the_grammar_bounds_a_turns_glyphs_as_the_lexicon_does():
    from arbo_notation.engine import lexicon

    grammar = (Path(__file__).resolve().parents[2] / "grammar" / "arbo.lark").read_text(encoding="utf-8")
    assert f"MOVES (SPACE? GLYPH)~0..{lexicon.MAX_GLYPHS} " in grammar
