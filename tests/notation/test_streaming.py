"""Reading and writing a game at a time gives exactly what reading and writing whole texts gives."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.notation.test_notation_scanner import engine_records
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.cli.fmt import canonical_text
from arbo_notation.errors import NotationErrors
from arbo_notation.notation.structured import convert
from arbo_notation.notation.reading.split import UNCOUNTED, cut_games, normalise, stream_games
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.structured.stream import (
    NotStreamable,
    _Lines,
    _Unread,
    _Unsure,
    block_yaml,
    json_games,
    json_pieces,
    yaml_games,
    yaml_pieces,
)
from arbo_notation.play.simulate import simulate_games
from arbo_notation.runtime.sources import read_text, text_blocks
from arbo_notation.runtime.spool import same_text

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _cut(text: str, sizes: list[int]) -> list[str]:
    blocks, at = [], 0
    for size in sizes:
        blocks.append(text[at : at + size])
        at += size
    return blocks + [text[at:]]


_PIECES = ["---\n", "---", "--- \n", "----\n", "a\n", "\n", "x", " ---\n", "---\t\n", "1. Ana\n", "{c\n}", "\n---\n"]


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.sampled_from(_PIECES), max_size=12), sizes=st.lists(st.integers(0, 6), max_size=5))
def test_games_cut_from_blocks_are_the_games_cut_from_the_whole_text(parts, sizes):
    text = "".join(parts)
    preamble_end, chunks = cut_games(text)
    whole = [text[:preamble_end]] + [
        (text[c.start : c.end], c.first_line, c.last_line, c.closed, index) for index, c in enumerate(chunks, 1)
    ]
    pieces = [
        p if isinstance(p, str) else (p.text, p.first_line, p.last_line, p.closed, p.index)
        for p in stream_games(_cut(text, sizes))
    ]
    assert pieces == whole
    one_block = [
        p if isinstance(p, str) else (p.text, p.first_line, p.last_line, p.closed, p.index)
        for p in stream_games([text])
    ]
    assert one_block == whole  # (a text in one block is cut where it stands)


_BYTES = [b"\xef\xbb\xbf", b"\r", b"\n", b"\r\n", b"a", b"\xc3\xa9", b"\xe2\x82\xac", b"---", b"\xff", b"\xe2\x82"]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(st.sampled_from(_BYTES), max_size=15),
    size=st.one_of(st.integers(1, 5), st.integers(40, 50), st.just(1 << 20)),
)
def test_a_file_read_in_blocks_is_the_file_read_whole(tmp_path_factory, parts, size):
    """In blocks of a few bytes, and in one read (a file smaller than a block, or about as big)."""
    path = tmp_path_factory.mktemp("blocks") / "f.arb"
    path.write_bytes(b"".join(parts))
    try:
        whole = read_text(path)[0]
    except NotationErrors as error:
        with pytest.raises(NotationErrors) as raised:
            "".join(text_blocks(path, size))
        assert [e.show() for e in raised.value.errors] == [e.show() for e in error.errors]
        return
    assert "".join(text_blocks(path, size)) == normalise(whole)
    assert "".join(text_blocks(path, size, normalised=False)) == whole


def test_a_named_pipe_is_read_to_its_end_though_a_read_gives_less_than_a_block(tmp_path):
    """A short read ends a regular file, not a pipe: what a writer sends in several pieces is all read."""
    import threading

    fifo = tmp_path / "pipe.arb"
    os.mkfifo(fifo)
    text = "".join(f"{n}. Ana d d Ma3@0,{n} /Oa5\r\n" for n in range(1, 9000))  # ~250 KB: several pipe buffers

    def write() -> None:
        with open(fifo, "wb") as pipe:
            for start in range(0, len(text), 70_000):
                pipe.write(text[start : start + 70_000].encode())
                pipe.flush()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert "".join(text_blocks(fifo)) == text.replace("\r\n", "\n")
    finally:
        writer.join(timeout=10)


@pytest.mark.slow
@SETTINGS
@given(text=engine_records(), other=engine_records())
def test_json_and_yaml_written_a_game_at_a_time_are_the_whole_dumps(text, other):
    games = parse(text + "\n" + other)
    assert "".join(json_pieces(games)) == convert.dumps_json(games)
    assert "".join(yaml_pieces(games[:1])) == convert.dumps_yaml(games[:1])
    assert "".join(json_pieces([])) == convert.dumps_json([])
    assert "".join(yaml_pieces([])) == convert.dumps_yaml([])


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**40), 10**40),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.sampled_from(
        [
            "2026",
            "yes",
            "null",
            "~",
            "- x",
            "a: b",
            "#c",
            "'q'",
            "x #y",
            " lead",
            "Ma3",
            "1.5",
            "0o7",
            "é ü",
            "\ufeff",
            "\x85",
            "a\u2028b",
            "-",
            "?",
            "!tag",
            "%",
            "@",
            "`",
            "[",
            "{x}",
            "a,b",
        ]
    ),
    st.builds(
        lambda words: " ".join(words),
        st.lists(st.sampled_from(["a", "bb", "ccc:", "dd-d", "''"]), min_size=2, max_size=40),
    ),
)
_KEYS = st.one_of(st.sampled_from(["header", "players", "y", "yes", "2", "a b", "-", "x:"]), st.text(max_size=6))
_DATA = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=30,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.lists(_DATA, min_size=1, max_size=3))
def test_yaml_written_line_by_line_is_what_pyyaml_writes_or_is_left_to_it(data):
    try:
        written = block_yaml(data)
    except _Unsure:
        return
    assert written == yaml.dump(
        data, Dumper=convert._Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )


_WORDS = st.lists(
    st.sampled_from(["a", "bb", "ccc", "dddddddddd", "e:", "f'g", "'", "h-", "#i", "j,", "é", "  "]),
    min_size=25,
    max_size=90,
).map(" ".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    text=_WORDS, depth=st.integers(0, 12), key=st.sampled_from(["text", "a_long_key_name", "k"]), listed=st.booleans()
)
def test_long_texts_are_folded_at_the_width_as_pyyaml_folds_them(text, depth, key, listed):
    data: object = [text] if listed else {key: text}
    for level in range(depth):
        data = {f"k{level}": data} if level % 2 else [data]
    try:
        written = block_yaml([data])
    except _Unsure:
        assert '"' in yaml.dump([data], Dumper=convert._Dumper, allow_unicode=True, width=100)
        return
    assert written == yaml.dump(
        [data], Dumper=convert._Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )


def test_yaml_of_simulated_and_sample_games_is_written_line_by_line():
    games = list(simulate_games(4, 3, seed=7, bots=("random",) * 4))
    for name in ("four-players.arb", "house-discards.arb", "three-player-spectator.arb", "unfinished.arb"):
        games += parse((SAMPLES / name).read_text())
    for game in games:
        data = [convert.game_to_data(game)]
        assert block_yaml(data) == convert.dumps_yaml([game]).split("games:\n", 1)[1]


def test_yaml_of_deep_variations_is_left_to_pyyaml():
    game = parse((SAMPLES / "annotated.arb").read_text())[0]  # comments longer than a line: folded
    assert block_yaml([convert.game_to_data(game)]) == convert.dumps_yaml([game]).split("games:\n", 1)[1]
    deep = [[[[]]]]
    for _ in range(300):
        deep = [deep]
    with pytest.raises(_Unsure):
        block_yaml([deep])
    assert "".join(yaml_pieces([game])) == convert.dumps_yaml([game])


@pytest.mark.slow
@SETTINGS
@given(text=engine_records(), other=engine_records(), sizes=st.lists(st.integers(1, 400), max_size=30))
def test_json_read_a_game_at_a_time_is_the_json_read_whole(text, other, sizes):
    games = parse(text + "\n" + other)
    dumped = convert.dumps_json(games)
    streamed = list(json_games(_cut(dumped, sizes), "g.json"))
    assert streamed == convert.loads_json(dumped, "g.json")


@pytest.mark.slow
@SETTINGS
@given(text=engine_records(), other=engine_records(), sizes=st.lists(st.integers(1, 400), max_size=30))
def test_yaml_read_a_game_at_a_time_is_the_yaml_read_whole(text, other, sizes):
    games = parse(text + "\n" + other)
    dumped = convert.dumps_yaml(games)
    streamed = list(yaml_games(_cut(dumped, sizes), "g.yaml"))
    assert streamed == convert.loads_yaml(dumped, "g.yaml")


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=_DATA.filter(lambda d: type(d) in (dict, list) and d))
def test_yaml_lines_read_back_as_block_yaml_wrote_them_are_what_yaml_reads(data):
    try:
        written = block_yaml([data])
    except _Unsure:
        return
    lines = written.split("\n")[:-1]
    try:
        reader = _Lines(lines)
        read = reader.item(2, 0)
    except (_Unread, IndexError):
        return
    if reader.at == len(lines):
        assert read == yaml.safe_load(written)[0]


_LINES = [
    "- a: 1",
    "  b: x",
    "  - 2",
    "  c:",
    "    d: 'q'' r'",
    "  - - 3",
    "    - y z",
    "  e: []",
    "  - {}",
    "  - ",
    "  f: yes",
    "   g: 1",
    "  h: 012",
    "  i: -0",
    "  j: a #b",
    "  k: 'x",
    "  l: Ana's",
    "  m: 1e3",
    "- n",
]


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(st.sampled_from(_LINES), min_size=1, max_size=8).map(lambda ls: ["- a: 1", *ls[1:]]))
def test_yaml_lines_read_back_are_what_yaml_reads_or_left_to_it(lines):
    try:
        reader = _Lines(lines)
        read = reader.item(2, 0)
    except (_Unread, IndexError):
        return
    if reader.at != len(lines):
        return
    assert [read] == yaml.safe_load("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    "text",
    [
        "version: 1\nformat: arbo\ngames: []\n",  # another order
        "format: arbo\nversion: 1\ngames: []\n",
        "format: arbo\nversion: 1\ngames:\n",
        "format: arbo\nversion: 2\ngames:\n- header: {}\n",
        "format: arbo\nversion: 1\ngames:\n- header: 3\n",
        "format: arbo\nversion: 1\ngames:\n- header: {players: [Ana, Ben]\n",
        "format: arbo\nversion: 1\ngames:\n- header:\n    players: [Ana, Ben]\n...\n",
        "format: arbo\r\nversion: 1\r\ngames: []\r\n",
    ],
)
def test_yaml_laid_out_otherwise_or_faulty_is_read_whole(text):
    with pytest.raises(NotStreamable):
        list(yaml_games([text], "g.yaml"))


def test_yaml_games_written_by_hand_are_read_alone_by_the_safe_loader():
    games = parse((SAMPLES / "four-players.arb").read_text() + "\n" + (SAMPLES / "annotated.arb").read_text())
    dumped = convert.dumps_yaml(games)
    second = dumped.rindex("\n- header:\n")
    hand = dumped[:second] + "\n# the next game\n-\n  header:\n" + dumped[second + 11 :]  # comments, another layout
    hand = hand.replace("    players:\n", "    players: # who plays\n", 1)
    assert hand != dumped
    assert (
        list(yaml_games([hand], "g.yaml")) == convert.loads_yaml(dumped, "g.yaml") == convert.loads_yaml(hand, "g.yaml")
    )


@pytest.mark.parametrize(
    "text",
    [
        '{"games": [], "format": "arbo", "version": 1}',  # another order
        "[1, 2",
        "[] []",
        '{"format": "arbo", "version": 2, "games": []}',
        '{"format": "arbo", "version": 1, "games": [{"header": 3}]}',
        '{"format": "arbo", "version": 1, "games": [], "games": []}',
        '{"format": "arbo", "version": 1, "games": [] ,}',
        '{"format": "arbo", "version": 1, "games": [{}] } x',
        '{"format": "arbo", "version": 1, "games": [1e999999',
    ],
)
def test_json_laid_out_otherwise_or_faulty_is_read_whole(text):
    with pytest.raises(NotStreamable):
        list(json_games([text], "g.json"))


@pytest.mark.parametrize("size", range(1, 12))
def test_json_cut_anywhere_in_a_word_or_number_still_streams(size):
    games = parse((SAMPLES / "annotated.arb").read_text())
    data = json.loads(convert.dumps_json(games))
    data["games"][0]["header"]["flags"] = [True, False, None, -12.5e3, 123456789]
    text = json.dumps(data, indent=2)
    for at in range(text.index('"flags"'), text.index("123456789") + 10):
        blocks = [text[:at], text[at : at + size], text[at + size :]]
        assert list(json_games(blocks, "g.json")) == convert.loads_json(text, "g.json")


@pytest.mark.parametrize("size", [1, 7, 100, 10**6])
def test_a_list_of_games_alone_streams_in_json_and_yaml(size):
    games = parse((SAMPLES / "four-players.arb").read_text() + "\n" + (SAMPLES / "unfinished.arb").read_text())
    listed = json.dumps(json.loads(convert.dumps_json(games))["games"])
    assert list(json_games(_cut(listed, [size] * 3), "g.json")) == convert.loads_json(listed, "g.json") == games
    listed = convert.dumps_yaml(games).split("games:\n", 1)[1]
    assert listed.startswith("- header:\n")
    assert list(yaml_games(_cut(listed, [size] * 3), "g.yaml")) == convert.loads_yaml(listed, "g.yaml") == games
    assert list(json_games(["[]"], "g.json")) == []


def test_an_empty_games_list_streams():
    assert list(json_games(['{"format":"arbo","version":1,"games":[ ]}\n'], "g.json")) == []


@settings(max_examples=200, deadline=None)
@given(left=st.text("ab", max_size=8), right=st.text("ab", max_size=8), cuts=st.lists(st.integers(0, 3), max_size=6))
def test_same_text_compares_texts_given_in_any_pieces(left, right, cuts):
    assert same_text(_cut(left, cuts), _cut(right, cuts[::-1])) == (left == right)


# -- the commands --------------------------------------------------------------------------------

runner = CliRunner()


def _big(tmp_path: Path) -> Path:
    texts = [(SAMPLES / name).read_text() for name in ("annotated.arb", "four-players.arb", "unfinished.arb")]
    path = tmp_path / "big.arb"
    path.write_text("\n".join(texts * 20))
    return path


def test_fmt_of_a_file_is_the_canonical_text_and_in_place_replaces_it_whole(tmp_path: Path):
    path = _big(tmp_path)
    text = path.read_text()
    done = runner.invoke(app, ["fmt", str(path)])
    assert done.exit_code == 0 and done.stdout == canonical_text(text, str(path))
    crlf = tmp_path / "crlf.arb"
    crlf.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    os.chmod(crlf, 0o640)
    assert runner.invoke(app, ["fmt", "--check", str(crlf)]).exit_code == 1
    assert runner.invoke(app, ["fmt", "--in-place", str(crlf)]).exit_code == 0
    assert crlf.read_text() == canonical_text(text, str(path))
    assert stat.S_IMODE(crlf.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left
    assert runner.invoke(app, ["fmt", "--check", str(crlf)]).exit_code == 0


def test_fmt_of_a_file_with_a_syntax_error_prints_nothing_and_leaves_it(tmp_path: Path):
    path = _big(tmp_path)
    text = path.read_text()
    broken = text[: len(text) // 2] + "\n1. Ana d d Ma9@0,0 /Oa5\n" + text[len(text) // 2 :]
    path.write_text(broken)
    for args in (["fmt", str(path)], ["fmt", "--in-place", str(path)]):
        done = runner.invoke(app, args)
        assert (done.exit_code, done.stdout) == (1, "")
        assert ": error: " in done.stderr
    assert path.read_text() == broken


@pytest.mark.slow
def test_convert_both_ways_a_game_at_a_time_is_the_whole_conversion(tmp_path: Path):
    path = _big(tmp_path)
    games = parse(path.read_text(), str(path))
    to_json = runner.invoke(app, ["convert", str(path), "--to", "json"])
    assert to_json.exit_code == 0 and to_json.stdout == convert.dumps_json(games)
    json_path = tmp_path / "big.json"
    json_path.write_text(to_json.stdout)
    back = runner.invoke(app, ["convert", str(json_path), "--to", "arb"])
    assert back.exit_code == 0 and back.stdout == canonical_text(path.read_text(), str(path))
    to_yaml = runner.invoke(app, ["convert", str(path), "--to", "yaml"])
    assert to_yaml.exit_code == 0 and to_yaml.stdout == convert.dumps_yaml(games)
    yaml_path = tmp_path / "big.yaml"
    yaml_path.write_text(to_yaml.stdout)
    assert runner.invoke(app, ["convert", "--from", "yaml", str(yaml_path), "--to", "arb"]).stdout == back.stdout
    faulty_yaml = tmp_path / "faulty.yaml"
    faulty_yaml.write_text(to_yaml.stdout.replace("  turns:\n", "  turns: 7\n  x:\n", 1))
    done = runner.invoke(app, ["convert", str(faulty_yaml), "--to", "arb"])
    assert (done.exit_code, done.stdout) == (1, "")
    assert "games[0]" in done.stderr
    compact = tmp_path / "compact.json"
    compact.write_text(json.dumps(json.loads(to_json.stdout)["games"]))  # a list of games alone, on one line
    assert runner.invoke(app, ["convert", str(compact), "--to", "arb"]).stdout == back.stdout
    faulty = tmp_path / "faulty.json"
    faulty.write_text(to_json.stdout.replace('"turns": [', '"turns": 7, "x": [', 1))
    done = runner.invoke(app, ["convert", str(faulty), "--to", "arb"])
    assert (done.exit_code, done.stdout) == (1, "")
    assert "games[0]" in done.stderr


def test_score_of_many_games_prints_a_list_as_it_goes_and_one_game_alone(tmp_path: Path):
    path = _big(tmp_path)
    listed = json.loads(runner.invoke(app, ["score", "--json", str(path)]).stdout)
    assert [entry["game"] for entry in listed] == [i for i in range(1, 61) if i % 3]  # every third unfinished
    alone = json.loads(runner.invoke(app, ["score", "--json", "--game", "4", str(path)]).stdout)
    assert alone == {k: v for k, v in listed[2].items() if k != "game"}
    assert runner.invoke(app, ["score", "--game", "3", str(path)]).exit_code == 1


def test_the_last_games_lines_are_counted_only_when_asked():
    preamble, first, last = stream_games(["---\nplayers: [A]\n---\n1. x\n", "---\nb\n---\n1. y\n2. z"])
    assert preamble == ""
    assert (first.first_line, first.counted_last_line, first.last_line) == (1, 4, 4)
    assert (last.first_line, last.counted_last_line, last.last_line) == (5, UNCOUNTED, 9)
    assert last.text == "---\nb\n---\n1. y\n2. z" and last.closed
