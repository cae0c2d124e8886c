"""YAML from anyone: tags the safe loader cannot build, anchors and aliases, deep nesting, bad
characters and YAML 1.1's guesses, in headers, positions and YAML records: located errors in
every command, never a traceback, a crash or gigabytes of memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.errors import NotationError, NotationErrors, PositionError
from arbo_notation.notation import format_header, parse, read_header
from arbo_notation.notation.structured.convert import RECORD_MAX_DEPTH, DataError, dumps_json, loads_json, loads_yaml
from arbo_notation.notation.header.read import HEADER_MAX_DEPTH, load_header_yaml
from arbo_notation.notation.structured.position import read_position
from arbo_notation.notation.safeyaml import YamlFault, deeper_than, load_yaml

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])
HEAD = "players: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n"
MOVES = "1. Ana d d Ma3@0,0 /Oa5\n"

#: Tagged scalars PyYAML's safe constructors fail on with IndexError, KeyError, AttributeError...
UNBUILDABLE = [
    '!!int ""',
    "!!int _",
    '!!float ""',
    "!!bool x",
    "!!timestamp x",
    "!!int 0x_",
    "!!float _",
    "!!timestamp 2024-13-01",
    "2024-02-30",
]
BILLION_LAUGHS = (
    "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
    "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def record(header_extra: str) -> str:
    return f"---\n{HEAD}{header_extra}---\n{MOVES}"


def read(yaml_text: str):
    return read_header(yaml_text, file="h.arb", line=2)


def located(yaml_text: str) -> NotationError:
    with pytest.raises(NotationError) as raised:
        read(yaml_text)
    return raised.value


# -- the loader ---------------------------------------------------------------------------------


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize("value", UNBUILDABLE)
def test_a_value_the_safe_constructor_cannot_build_is_a_located_fault(loader, value):
    with pytest.raises(YamlFault) as raised:
        load_yaml(f"a: 1\nb: [1, {value}]\n", what="a test", max_depth=8, loader=loader)
    assert (raised.value.line, raised.value.column) == (1, 7)
    assert raised.value.message.startswith("YAML cannot read ")


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize(
    "text, line, column",
    [
        ("x: &x [*x]\n", 0, 3),
        ("x: [1, &one 1]\ny: *one\n", 0, 7),
        ("x: *nothing\n", 0, 3),
        (BILLION_LAUGHS, 0, 3),
        ("a: 1\n&k b: 2\n", 1, 0),
    ],
)
def test_anchors_and_aliases_are_refused_where_they_stand(loader, text, line, column):
    started = time.perf_counter()
    with pytest.raises(YamlFault) as raised:
        load_yaml(text, what="a test", max_depth=8, loader=loader)
    assert raised.value.message == "YAML anchors and aliases (&name, *name) are not allowed in a test"
    assert (raised.value.line, raised.value.column) == (line, column)
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_nesting_is_bounded_while_composing(loader):
    assert load_yaml(f"x: {nested(7)}\n", what="a test", max_depth=8, loader=loader) == {"x": [[[[[[[]]]]]]]}
    for depth in (8, 100_000):  # 100,000 deep: PyYAML's own C composer crashes the interpreter
        with pytest.raises(YamlFault) as raised:
            load_yaml(f"x: {nested(depth)}\n", what="a test", max_depth=8, loader=loader)
        assert raised.value.message == "a test nests lists and mappings more than 8 deep"
        assert (raised.value.line, raised.value.column) == (0, 10)


@pytest.mark.slow
@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize("depth", [9, 1_200, 20_000])
def test_block_nesting_is_ours_to_refuse_whatever_layer_meets_it_first(loader, depth):
    # From PyYAML 6.0.4 libyaml refuses 1,000 levels itself, scanning ahead of the composer: the
    # message and the place stay ours (the 9th list opens on line 9, after 16 spaces).
    text = "".join("  " * level + "-\n" for level in range(depth))
    with pytest.raises(YamlFault) as raised:
        load_yaml(text, what="a test", max_depth=8, loader=loader)
    assert raised.value.message == "a test nests lists and mappings more than 8 deep"
    assert (raised.value.line, raised.value.column) == (8, 16)


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_the_loader_builds_what_yaml_safe_load_builds(loader):
    text = (
        "a: [1, 2.5, true, null, 2026-01-02, 'q', \"d\"]\nb: {c: {d: [e]}}\nset: !!set {x, y}\n"
        "bin: !!binary aGk=\nstr: !!str 12\nmerged: {own: 1}\n? [1, 2]\n: not hashable\n"
    )
    with pytest.raises(yaml.YAMLError):  # as safe_load: a list cannot be a key
        load_yaml(text, what="a test", max_depth=8, loader=loader)
    text = text.split("? [1, 2]")[0]
    assert load_yaml(text, what="a test", max_depth=8, loader=loader) == yaml.load(text, Loader=loader)


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_yaml_errors_and_documents_are_as_pyyaml_says(loader):
    assert load_yaml("", what="a test", max_depth=8, loader=loader) is None
    assert load_yaml("# nothing\n", what="a test", max_depth=8, loader=loader) is None
    with pytest.raises(yaml.YAMLError, match="expected a single document"):
        load_yaml("a: 1\n---\nb: 2\n", what="a test", max_depth=8, loader=loader)
    with pytest.raises(yaml.YAMLError):
        load_yaml("a: [1\n", what="a test", max_depth=8, loader=loader)


def test_deeper_than_measures_without_recursion():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert deeper_than(deep, 32) and not deeper_than([[1], {"a": [2]}], 3) and deeper_than({"a": [[1]]}, 2)
    assert not deeper_than("text", 0) and not deeper_than({"k": {1, 2}}, 2) and deeper_than({("a",): 1}, 1)


# -- headers -----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", UNBUILDABLE)
def test_a_header_value_the_loader_cannot_build_is_located(value):
    error = located(f"{HEAD}x: {value}\n")
    assert (error.line, error.column) == (4, 4), error.show()
    assert error.message.startswith("YAML cannot read ")


def test_the_hint_says_to_quote_a_word_yaml_took_for_a_date():
    assert located(f"{HEAD}x: 2024-02-30\n").message == (
        "YAML cannot read '2024-02-30' as !!timestamp (put it in quotes to have it read as text)"
    )
    assert located(f"{HEAD}x: !!bool maybe\n").message == "YAML cannot read 'maybe' as !!bool"


@pytest.mark.parametrize(
    "extra, line, column",
    [
        ("x: &x [*x]\n", 4, 4),
        ("hand: &h [*h]\n", 4, 7),
        (BILLION_LAUGHS, 4, 4),
        ("event: &e Club\nsite: *e\n", 4, 8),
    ],
)
def test_anchors_and_aliases_are_not_allowed_in_a_header(extra, line, column):
    started = time.perf_counter()
    error = located(HEAD + extra)
    assert error.message == "YAML anchors and aliases (&name, *name) are not allowed in a header"
    assert (error.line, error.column) == (line, column), error.show()
    assert time.perf_counter() - started < 1


def test_a_header_nests_at_most_32_deep_and_fmt_writes_what_it_reads():
    deepest = read(f"{HEAD}x: {nested(HEADER_MAX_DEPTH - 1)}\n")
    assert read(format_header(deepest).split("---\n")[1]) == deepest
    error = located(f"{HEAD}x: {nested(HEADER_MAX_DEPTH)}\n")
    assert error.message == "a header nests lists and mappings more than 32 deep"
    assert (error.line, error.column) == (4, 4 + HEADER_MAX_DEPTH - 1)


def test_a_nul_in_a_header_is_located_at_the_nul():
    error = located(f"{HEAD}event: Club\x00night\n")
    assert error.message == "the header is not valid YAML: the character U+0000 is not allowed"
    assert (error.line, error.column) == (4, 12)
    # after a character of two bytes in UTF-8 (the C reader counts bytes)
    assert (located(f"{HEAD}site: Café\x07\n").line, located(f"{HEAD}site: Café\x07\n").column) == (4, 11)


@pytest.mark.parametrize(
    "written, kept",
    [
        ("round: 010", ("round", "010")),
        ("event: 12:30:00", ("event", "12:30:00")),
        ("site: 3.10", ("site", "3.10")),
        ("round: 1_000", ("round", "1_000")),
        ("annotator: yes", ("annotator", "yes")),
        ("round: .inf", ("round", ".inf")),
        ("event: 2026-11-29", ("event", "2026-11-29")),
        ("round: 0x1A", ("round", "0x1A")),
        ("round: 3", ("round", "3")),
        ("event: null", ("event", None)),
        ("event: ~", ("event", None)),
        ("event:", ("event", None)),
        ("event: '010'", ("event", "010")),
        ("round: !!int 010", ("round", "8")),
    ],
)
def test_the_text_fields_keep_what_was_written(written, kept):
    key, value = kept
    header = read(f"{HEAD}{written}\n")
    assert getattr(header, key) == value
    assert read(format_header(header).split("---\n")[1]) == header


def test_species_names_are_text_fields_too():
    header = read(f"{HEAD}names: {{Ca: 010, Dw: 3.10, Ja: no}}\n")
    assert header.names == {"Ca": "010", "Dw": "3.10", "Ja": "no"}
    block = read(f"{HEAD}names:\n  Ca: 010\n  Dw: 12:30\n")
    assert block.names == {"Ca": "010", "Dw": "12:30"}
    assert read(f"{HEAD}other: 010\n").extra == {"other": 8}  # an unknown key is YAML's to read


def test_ordered_mappings_and_pairs_are_refused_as_no_writer_keeps_them():
    for value in ("!!omap [a: 1, b: 2]", "!!pairs [a: 1, a: 2]"):
        error = located(f"{HEAD}x: {value}\n")
        assert error.message == (
            "'x': YAML's ordered mappings and pairs (!!omap, !!pairs) are not kept in a "
            "header: write a mapping or a list"
        )
        assert (error.line, error.column) == (4, 1)


def test_texts_yaml_would_misread_are_quoted_by_the_writer():
    header = read(f"{HEAD}event: '!!int x'\nnames: {{Ca: '0x_', Dw: '!!bool x'}}\n")
    lines = format_header(header)
    assert 'event: "!!int x"' in lines and 'names: {Ca: "0x_", Dw: "!!bool x"}' in lines
    assert read(lines.split("---\n")[1]) == header


@pytest.mark.slow
def test_a_set_is_written_in_the_same_order_whatever_the_hash_seed(tmp_path: Path):
    path = tmp_path / "set.arb"
    path.write_text(record("seen: !!set {" + ", ".join(f"w{i}" for i in range(20)) + ", 3, null}\n"))
    outputs = set()
    for seed in ("0", "1", "2", "3", "4"):
        done = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "fmt", str(path)],
            capture_output=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed},
            timeout=60,
        )
        assert done.returncode == 0, done.stderr.decode()
        outputs.add(done.stdout)
    assert len(outputs) == 1
    [text] = outputs
    assert b"seen: !!set {null: null, 3: null, w0: null, w1: null, w10: null," in text


# -- every command -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    ['x: !!int ""\n', "x: !!bool x\n", "x: !!timestamp x\n", "x: &x [*x]\n", BILLION_LAUGHS, f"x: {nested(330)}\n"],
)
@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["fmt"],
        ["convert", "--to", "json"],
        ["convert", "--to", "yaml"],
        ["replay", "--plain"],
        ["state"],
        ["score"],
    ],
)
def test_every_command_reports_a_bad_header_without_a_traceback(tmp_path: Path, command, extra):
    path = tmp_path / "bad.arb"
    path.write_text(record(extra))
    result = runner.invoke(app, [command[0], str(path), *command[1:]])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert f"{path}:4:" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr


@pytest.mark.slow
def test_a_header_100000_deep_is_an_error_not_a_crash(tmp_path: Path):
    path = tmp_path / "deep.arb"
    path.write_text(record(f"x: {nested(100_000)}\n"))
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "check", str(path)],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == 1, done.stderr.decode()[:300]  # was -11: a segmentation fault
    assert b"error: a header nests lists and mappings more than 32 deep" in done.stderr


def test_a_json_records_header_is_bounded_too():
    deep = json.loads(dumps_json(parse(record(""))))
    deep["games"][0]["header"]["x"] = json.loads(nested(330))
    with pytest.raises(DataError) as raised:
        loads_json(json.dumps(deep), "deep.json")
    assert str(raised.value) == "deep.json: games[0].header: the header nests lists and mappings more than 32 deep"
    deep["games"][0]["header"]["x"] = {"$map": [[[1, 2], "a list as a key"]]}
    with pytest.raises(DataError, match="not kept in a header"):
        loads_json(json.dumps(deep), "map.json")


@pytest.mark.slow
@pytest.mark.parametrize(
    "text, message, column",
    [
        ('games: !!int ""\n', "not valid YAML: YAML cannot read '' as !!int", 8),
        ("games: &g [*g]\n", "not valid YAML: YAML anchors and aliases (&name, *name) are not allowed in a record", 8),
        (
            f"games: {nested(1000)}\n",
            f"not valid YAML: a record nests lists and mappings more than {RECORD_MAX_DEPTH} deep",
            8 + RECORD_MAX_DEPTH - 1,
        ),
        ("games: [\x00]\n", "not valid YAML: the character U+0000 is not allowed", 9),
    ],
)
def test_a_yaml_record_that_cannot_be_built_is_a_located_error(text, message, column):
    with pytest.raises(NotationError) as raised:
        loads_yaml(text, "in.yaml")
    assert (raised.value.message, raised.value.line, raised.value.column) == (message, 1, column)


def test_convert_of_a_bad_yaml_record_is_one_located_message(tmp_path: Path):
    path = tmp_path / "in.yaml"
    path.write_text("games:\n  - header: {players: [Ana], species: [Ca], x: !!float ''}\n")
    result = runner.invoke(app, ["convert", str(path), "--to", "arb"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:2:48: error: not valid YAML: YAML cannot read '' as !!float\n")


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "species: [Ma]\nplayers:\n  - name: Ana\n    trees: []\n    hand: &h [*h]\n",
            "malformed YAML at line 5, column 11: YAML anchors and aliases (&name, *name) are not allowed in a position",
        ),
        (
            "species: [Ma]\nplayers:\n  - name: Ana\n    trees: []\n    hand: [!!int '']\n",
            "malformed YAML at line 5, column 12: YAML cannot read '' as !!int",
        ),
        (
            "species: [Ma]\nplayers:\n  - name: Ana\n    trees: []\n    hand: " + nested(400) + "\n",
            "malformed YAML at line 5, column 40: a position nests lists and mappings more than 32 deep",
        ),
        (
            '{"species": ["Ma"], "players": [{"name": "Ana", "trees": [], "hand": ' + nested(400) + "}]}",
            "the JSON nests lists and mappings more than 32 deep: it is not a position",
        ),
        ("species: [Ma]\nplayers: [é\x00]\n", "malformed YAML at line 2, column 12: the character #x00 is not allowed"),
    ],
)
def test_a_position_that_cannot_be_built_is_one_clear_error(text, message):
    with pytest.raises(PositionError) as raised:
        read_position(text, "p.yaml")
    assert raised.value.message == message


def test_score_of_a_self_referencing_position_is_one_line(tmp_path: Path):
    path = tmp_path / "p.yaml"
    path.write_text("species: [Ma]\nplayers:\n  - name: Ana\n    trees: []\n    hand: &h [*h]\n")
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"arbo: {path}: malformed YAML at line 5, column 11: YAML anchors and aliases "
        "(&name, *name) are not allowed in a position\n"
    )


def test_what_check_accepts_in_a_header_the_writers_write(tmp_path: Path):
    extra = (
        "seen: !!set {b, a}\nblob: !!binary aGk=\nwhen: 2001-12-14t21:59:43.10-05:00\n"
        f"deep: {nested(HEADER_MAX_DEPTH - 1)}\nmap: {{1: a, null: b, 2026-01-01: c}}\nround: 010\n"
    )
    games = parse(record(extra))
    for command in (["fmt"], ["convert", "--to", "json"], ["convert", "--to", "yaml"]):
        path = tmp_path / "h.arb"
        path.write_text(record(extra))
        result = runner.invoke(app, [command[0], str(path), *command[1:]])
        assert result.exit_code == 0, (command, result.stderr)
        suffix = {"fmt": ".arb"}.get(command[0], "." + command[-1])
        again = tmp_path / f"again{suffix}"
        again.write_text(result.stdout)
        back = runner.invoke(app, ["convert", str(again), "--to", "arb"])
        assert back.exit_code == 0, back.stderr
        assert parse(back.stdout)[0].header == games[0].header


def test_load_header_yaml_is_what_the_careful_reader_reads():
    assert load_header_yaml("round: 010\nx: 010\n") == {"round": "010", "x": 8}
    with pytest.raises(NotationErrors):
        parse(record("x: &a 1\n"))
