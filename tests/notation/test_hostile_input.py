"""Hostile input that used to be taken: repeated keys, merge keys and !!binary in headers and
YAML records, half a UTF-16 pair in JSON, line breaks YAML folds, command-line text that is not
UTF-8, and devices that never end. Each is one located error (or kept exactly), never silence."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from arbo_notation.errors import NotationError
from arbo_notation.notation.header.read import load_header_yaml, read_header
from arbo_notation.notation.header.keys import read_written_header
from arbo_notation.notation.model import Pos
from arbo_notation.notation.safeyaml import YamlFault

ROOT = Path(__file__).resolve().parents[2]
BASE = "players: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n"


def arbo(*args: str, input: bytes | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args], capture_output=True, input=input, timeout=timeout, cwd=ROOT
    )


BAD_HEADERS = [
    # (the YAML after BASE, its line in the header (1-based), column, the message)
    ("result: {Ana: 99, Ben: 7, Ana: 21}\n", 3, 27, "the header gives 'Ana' twice in one mapping"),
    ("result: {Ana: 99, Ben: 7, 'Ana': 21}\n", 3, 27, "the header gives 'Ana' twice in one mapping"),
    ("hands:\n  Ana: [Ma1]\n  Ana: [Ma2]\n", 5, 3, "the header gives 'Ana' twice in one mapping"),
    ("hands:\n  ? Ana\n  : [Ma1]\n  ? Ana\n  : [Ma2]\n", 6, 5, "the header gives 'Ana' twice in one mapping"),
    ("extra:\n  <<: {y: 2}\n", 4, 3, "merge keys (<<) are not allowed in a header"),
    ("extra: {<<: {y: 2}}\n", 3, 9, "merge keys (<<) are not allowed in a header"),
    (
        'blob: !!binary "@@@garbage"\n',
        3,
        7,
        "!!binary data in a header must be base64 (A-Z, a-z, 0-9, +, /, = padding)",
    ),
    (
        "extra:\n  - !!binary |\n    aGk\n",
        4,
        5,
        "!!binary data in a header must be base64 (A-Z, a-z, 0-9, +, /, = padding)",
    ),
]


@pytest.mark.parametrize("tail, line, column, message", BAD_HEADERS)
def test_a_header_fault_is_located_on_every_reader_path(tail, line, column, message):
    text = BASE + tail
    assert read_written_header(text, Pos(1, 1)) is None  # the writer's own form: never this
    for loader in {yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)}:
        with pytest.raises(YamlFault) as fault:
            load_header_yaml(text, loader=loader)
        assert fault.value.message == message
        assert (fault.value.line + 1, fault.value.column + 1) == (line, column)
    with pytest.raises(NotationError) as error:
        read_header(text, file="g.arb", line=2)
    assert (error.value.message, error.value.line, error.value.column) == (message, line + 1, column)


def test_check_reports_a_repeated_result_name_instead_of_keeping_the_last(tmp_path):
    record = tmp_path / "g.arb"
    record.write_text(f"---\n{BASE}result: {{Ana: 99, Ben: 7, Ana: 21}}\n---\n", encoding="utf-8")
    done = arbo("check", str(record))
    assert done.returncode == 1
    assert done.stderr.decode().startswith(
        f"{record}:4:27: error: the header gives 'Ana' twice in one mapping [syntax]\n"
    )


def test_a_yaml_record_with_a_repeated_key_is_an_error(tmp_path):
    data = tmp_path / "g.yaml"
    data.write_text("format: arbo\nversion: 1\nformat: arbo\ngames: []\n", encoding="utf-8")
    done = arbo("convert", str(data), "--to", "arb")
    assert done.returncode == 1 and b"the record gives 'format' twice" in done.stderr


def test_base64_binary_data_is_still_read():
    assert load_header_yaml(BASE + "blob: !!binary |\n  aGVs\n  bG8=\n")["blob"] == b"hello"


def test_a_player_map_line_with_nothing_after_its_colon_is_a_located_error_not_a_crash(tmp_path):
    record = tmp_path / "g.arb"
    record.write_text(f"---\n{BASE}hands:\n  Ana: \n---\n", encoding="utf-8")
    assert read_written_header(BASE + "hands:\n  Ana: \n", Pos(1, 1)) is None
    done = arbo("check", str(record))
    assert done.returncode == 1 and b"Traceback" not in done.stderr and done.stderr.startswith(f"{record}:".encode())


def test_the_quick_header_reader_still_reads_distinct_keys():
    assert read_written_header(BASE + "result: {Ana: 9, Ben: 7}\n", Pos(1, 1)).result == {"Ana": 9, "Ben": 7}


# -- JSON: half a UTF-16 pair ------------------------------------------------------------------


def game_json(event: str) -> str:
    return (
        '{"format": "arbo", "version": 1, "games": [{"header": {"players": ["Ana", "Ben"], '
        '"species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"], "event": "' + event + '"}, "turns": []}]}\n'
    )


@pytest.mark.slow
@pytest.mark.parametrize("escape", ["\\ud800", "\\uDFFF", "\\ud83d x"])
def test_half_a_utf16_pair_in_json_is_a_located_error(tmp_path, escape):
    data = tmp_path / "g.json"
    data.write_text(game_json(escape), encoding="utf-8")
    for to in ("arb", "yaml", "json"):
        done = arbo("convert", str(data), "--to", to)
        assert done.returncode == 1, done.stdout
        first = done.stderr.decode().splitlines()[0]
        column = game_json(escape).index(escape.split(" ")[0]) + 1
        assert first == (
            f"{data}:1:{column}: error: not valid JSON text: {escape.split(' ')[0]} is half of a "
            "UTF-16 pair, alone: no character"
        )
        assert done.stdout == b""


def test_a_whole_utf16_pair_and_an_escaped_backslash_are_read(tmp_path):
    data = tmp_path / "g.json"
    data.write_text(game_json("\\ud83c\\udf33 and \\\\ud800"), encoding="utf-8")
    done = arbo("convert", str(data), "--to", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"][0]["header"]["event"] == "\U0001f333 and \\ud800"


# -- YAML: line breaks it would fold ---------------------------------------------------------


@pytest.mark.parametrize("text", ["a\x85b", "a\u2028b", "end\u2029", "a\rb"])
def test_line_breaks_survive_convert_to_yaml_and_back(tmp_path, text):
    data = tmp_path / "g.json"
    data.write_text(game_json(json.dumps(text)[1:-1]), encoding="utf-8")
    there = arbo("convert", str(data), "--to", "yaml")
    assert there.returncode == 0, there.stderr
    middle = tmp_path / "g.yaml"
    middle.write_bytes(there.stdout)
    back = arbo("convert", str(middle), "--to", "json")
    assert back.returncode == 0, back.stderr
    assert json.loads(back.stdout)["games"][0]["header"]["event"] == text


# -- the command line: text that is not UTF-8 --------------------------------------------------


def test_new_and_record_refuse_an_event_that_is_not_utf8(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "new", "--players", "Ana,Ben", b"--event", b"caf\xe9"],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.startswith(b"arbo: --event: is not UTF-8 text")
    record = tmp_path / "g.arb"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arbo_notation",
            "record",
            str(record),
            "--plain",
            "--players",
            "Ana,Ben",
            b"--site",
            b"\xff",
        ],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        input=b"",
    )
    assert done.returncode == 2 and done.stderr.startswith(b"arbo: --site: is not UTF-8 text")
    assert not record.exists()


# -- devices that never end --------------------------------------------------------------------


@pytest.mark.parametrize("command", [("check",), ("fmt",), ("convert", "--to", "json"), ("score",), ("state",)])
def test_a_device_is_refused_not_read_for_ever(command):
    done = arbo(command[0], "/dev/zero", *command[1:], timeout=30)
    assert done.returncode == 1
    assert b"is a device, not a record file (it may never end)" in done.stderr and b"/dev/zero: " in done.stderr


def test_standard_input_from_a_device_is_refused():
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "check", "-"], stdin=zero, capture_output=True, cwd=ROOT, timeout=30
        )
    assert done.returncode == 1 and b"-: error: is a device, not a record file (it may never end)" in done.stderr
