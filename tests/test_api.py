"""The public library: read_games, parse_games, read_games_from, iter_games, replay into a game
tree, score, check, load_game."""

from __future__ import annotations

import io
import os
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import arbo_notation as arbo
from arbo_notation.cli import app
from arbo_notation.notation.writer import format_games
from arbo_notation.play.simulate import simulate_games

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.arb"))
ANNOTATED = ROOT / "samples" / "annotated.arb"
runner = CliRunner()


def test_the_readme_snippet_runs_on_every_sample():
    for path in SAMPLES:
        for game in arbo.read_games(path):
            tree = arbo.replay(game)
            nodes = list(tree.mainline())
            assert nodes[0].turn is None and nodes[0].parent is None
            # the turns of the game before the record's (those before its position, when it starts from one)
            start = 0 if game.header.position is None else game.header.position.turn - 1
            assert [node.number for node in nodes] == list(range(start, start + len(nodes)))
            assert len(nodes) == len(game.turns) + 1  # every sample's main line is legal
            for before, node in zip(nodes, nodes[1:], strict=False):
                assert node.parent is before and before.next() is node
                assert node.turn is game.turns[node.number - start - 1]
            assert tree.end() is nodes[-1]
            assert tree.valid == (not any(d.severity is arbo.Severity.ERROR for d in tree.diagnostics))


def test_each_kind_of_source_has_its_reader():
    text = ANNOTATED.read_text(encoding="utf-8")
    by_path = arbo.read_games(str(ANNOTATED))
    assert len(by_path) == 1 and by_path[0].file == str(ANNOTATED)
    assert arbo.read_games(ANNOTATED) == by_path
    assert arbo.parse_games(text, str(ANNOTATED)) == by_path
    assert arbo.parse_games(text)[0].file == "<string>"
    assert arbo.read_games_from(io.StringIO(text))[0].turns == by_path[0].turns
    with open(ANNOTATED, "rb") as binary:
        assert arbo.read_games_from(binary) == by_path
    with open(ANNOTATED, encoding="utf-8") as opened:
        assert list(arbo.iter_games(opened)) == by_path
    assert list(arbo.iter_games(ANNOTATED)) == list(arbo.iter_games(str(ANNOTATED))) == by_path


def test_a_path_is_never_taken_for_a_text_nor_a_text_for_a_path(tmp_path, monkeypatch):
    text = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n1. Ana d d Ma3@0,0 /Oa5\n"
    monkeypatch.chdir(tmp_path)
    named = "---players: [Ana, Ben]---"  # no line break, yet a record's words: still a file's name
    (tmp_path / named).write_text(text, encoding="utf-8")
    assert [str(t) for t in arbo.read_games(named)[0].turns] == ["Ana d d Ma3@0,0 /Oa5"]
    assert arbo.read_games(named)[0].file == named
    with pytest.raises(arbo.ArboError, match="no such file"):
        arbo.read_games(text)  # a text given as a path is a (missing) file, not read as a record
    assert [str(t) for t in arbo.read_games(io.StringIO(text))[0].turns] == ["Ana d d Ma3@0,0 /Oa5"]
    with pytest.raises(arbo.ArboError, match="expected a path or an open file, not bytes"):
        arbo.read_games(text.encode())
    with pytest.raises(arbo.ArboError, match="expected an open file, not str"):
        arbo.read_games_from(text)
    with pytest.raises(arbo.ArboError, match="expected a path or an open file, not bytes"):
        list(arbo.iter_games(text.encode()))


RECORD = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n1. Ana d d Ma3@0,0 /Oa5\n2. Ben d d Ca1@0,0 /Wi8\n"


def _sources(path: Path) -> dict:
    """Every kind of source read_games took since the library first shipped, each opening ``path``."""
    return {
        "text file": lambda: open(path, encoding="utf-8"),
        "binary file": lambda: open(path, "rb"),
        "StringIO": lambda: io.StringIO(path.read_text(encoding="utf-8")),
        "BytesIO": lambda: io.BytesIO(path.read_bytes()),
        "Path": lambda: path,
        "str path": lambda: str(path),
    }


def _read(path: Path, kind: str, reader):
    source = _sources(path)[kind]()
    try:
        return reader(source)
    finally:
        if hasattr(source, "close"):
            source.close()


@pytest.mark.parametrize("kind", list(_sources(Path("x"))))
def test_read_games_takes_a_path_or_an_open_file(tmp_path, kind):
    # issue 45, point 5: documented from the first (as python-chess's read_game takes a file),
    # an open file is read again; only a str is never taken for a record's text
    path = tmp_path / "club.arb"
    path.write_text(RECORD, encoding="utf-8")
    games = _read(path, kind, arbo.read_games)
    assert [[str(turn) for turn in game.turns] for game in games] == [["Ana d d Ma3@0,0 /Oa5", "Ben d d Ca1@0,0 /Wi8"]]
    named = str(path) if kind in ("text file", "binary file", "Path", "str path") else "<stream>"
    assert games[0].file == named
    assert _read(path, kind, lambda source: arbo.load_game(source, 1)).end().number == 2
    checked = _read(path, kind, arbo.check)
    assert (checked.file, checked.valid, checked.replayed) == (named, True, 1)


@pytest.mark.parametrize("kind", ["binary file", "BytesIO", "Path"])
def test_bytes_that_are_not_utf8_fail_alike_from_a_path_or_a_file(tmp_path, kind):
    path = tmp_path / "bad.arb"
    path.write_bytes(RECORD.encode().replace(b"Ana d d", b"Ana \xff d"))
    with pytest.raises(arbo.NotationErrors) as caught:
        arbo.read_games(_sources(path)[kind]())
    (error,) = caught.value.errors
    assert (error.line, error.column, error.message) == (5, 8, "the file is not UTF-8 text: byte 0xff cannot be read")


def test_an_open_file_that_cannot_be_read_raises_arbo_error(tmp_path):
    path = tmp_path / "bad.arb"
    path.write_bytes(b"---\n\xff\n")
    with open(path, encoding="utf-8") as opened, pytest.raises(arbo.ArboError) as caught:
        arbo.read_games(opened)
    assert str(caught.value) == f"{path}: the file is not utf-8 text: byte 0xff cannot be read"
    opened = open(path, "rb")
    opened.close()
    with pytest.raises(arbo.ArboError, match=r"bad.arb: cannot be read \(read of closed file\)"):
        arbo.read_games(opened)


def test_read_games_raises_every_syntax_error_located():
    path = ROOT / "samples" / "invalid" / "missing-discard.arb"
    text = path.read_text(encoding="utf-8")
    with pytest.raises(arbo.NotationErrors) as caught:
        arbo.parse_games(text)
    assert [(e.line, e.file) for e in caught.value.errors] == [(8, "<string>")]
    with pytest.raises(arbo.NotationErrors) as caught:
        arbo.read_games(path)
    assert [(e.line, e.file) for e in caught.value.errors] == [(8, str(path))]


def _corpus(games: int, seed: str) -> tuple[str, list]:
    records = list(simulate_games(2, games, seed))
    return format_games(records), records


@pytest.mark.parametrize("games, block", [(1, 1 << 20), (7, 1 << 20), (7, 97), (7, 1)])
def test_iter_games_yields_what_read_games_reads(tmp_path, games, block, monkeypatch):
    from arbo_notation import api

    text, _ = _corpus(games, f"iter{games}")
    text = text.replace("\n", "\r\n", 3)  # some CRLF line ends, one of them perhaps cut by a block
    path = tmp_path / "games.arb"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    whole = arbo.read_games(path)
    assert len(whole) == games
    monkeypatch.setattr(api, "BLOCK_SIZE", block)
    assert list(arbo.iter_games(path)) == whole
    with open(path, "rb") as binary:
        assert list(api.iter_games(binary)) == whole
    with open(path, encoding="utf-8-sig", newline="") as opened:
        assert list(api.iter_games(opened)) == whole


def _bad_game(number: int) -> str:
    return f"---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n{number}. Ana d d Ma3@0,0\n"


def test_iter_games_raises_at_the_first_game_it_cannot_read_after_the_games_before(tmp_path):
    text, records = _corpus(3, "broken")
    lines = text.count("\n")
    path = tmp_path / "broken.arb"
    path.write_text(text + _bad_game(1) + text, encoding="utf-8")
    read = []
    with pytest.raises(arbo.NotationErrors) as caught:
        for record in arbo.iter_games(path):
            read.append(record)
    assert len(read) == 3 and [r.turns for r in read] == [r.turns for r in records]
    [error] = caught.value.errors
    assert (error.file, error.line, error.column) == (str(path), lines + 5, 19)
    assert isinstance(error, arbo.ArboError)


def test_iter_games_with_on_error_reads_on_and_hands_over_each_unreadable_game(tmp_path):
    text, _ = _corpus(2, "on")
    path = tmp_path / "broken.arb"
    path.write_text(_bad_game(1) + text + _bad_game(1), encoding="utf-8")
    faults = []
    read = list(arbo.iter_games(path, on_error=faults.append))
    assert [r.index for r in read] == [2, 3]
    assert [[e.line for e in f.errors] for f in faults] == [[5], [5 + 5 + text.count("\n")]]


def test_iter_games_of_bytes_that_are_not_utf8_names_their_line_and_column(tmp_path, monkeypatch):
    from arbo_notation import api

    text, _ = _corpus(4, "latin")
    data = text.encode() + "{caf\xe9}\n".encode("latin-1")
    path = tmp_path / "latin.arb"
    path.write_bytes(data)
    with pytest.raises(arbo.NotationErrors) as whole:
        arbo.read_games(path)
    monkeypatch.setattr(api, "BLOCK_SIZE", 1000)
    with open(path, "rb") as binary:
        for source in (path, binary):
            with pytest.raises(arbo.NotationErrors) as streamed:
                list(arbo.iter_games(source))
            [error], [expected] = streamed.value.errors, whole.value.errors
            assert (error.line, error.column, error.message) == (expected.line, expected.column, expected.message)
            assert error.line == text.count("\n") + 1 and error.column == 5


@pytest.mark.slow
def test_iter_games_reads_a_big_file_in_bounded_memory(tmp_path, monkeypatch):
    """The peak is a few blocks and a game, whatever the size of the file: a block is read, decoded
    and cut (some four copies of it at once), so the block is made small here to show the bound."""
    import tracemalloc

    from arbo_notation import api

    text, _ = _corpus(50, "big")
    path = tmp_path / "big.arb"
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(80):  # 4,000 games, some 4 MB
            out.write(text)
    size = path.stat().st_size
    assert size > 4 << 20
    monkeypatch.setattr(api, "BLOCK_SIZE", 64 << 10)
    list(arbo.iter_games(ANNOTATED))  # the modules loaded before the count starts
    tracemalloc.start()
    try:
        count = sum(1 for _ in arbo.iter_games(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 4000
    assert peak < min(size / 4, 1.5e6), (peak, size)  # 0.5 to 1 MB for 250 games as for 4,000


def _cli_json(path: Path, game: int) -> dict:
    done = runner.invoke(app, ["score", "--json", "--game", str(game), str(path)])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def test_score_of_the_end_equals_arbo_score_json_on_every_finished_sample():
    scored = 0
    for path in SAMPLES:
        for game in arbo.read_games(path):
            tree = arbo.replay(game)
            if tree.sheet is None:
                continue
            assert arbo.score(tree.end().position).to_json() == _cli_json(path, game.index)
            scored += 1
    assert scored >= 4


def test_score_of_the_end_equals_arbo_score_json_on_simulated_games(tmp_path):
    games = list(simulate_games(2, 2, "api")) + list(simulate_games(3, 1, "api")) + list(simulate_games(4, 1, "api"))
    for number, game in enumerate(games):
        path = tmp_path / f"g{number}.arb"
        path.write_text(format_games([game]), encoding="utf-8")
        tree = arbo.replay(arbo.read_games(path)[0])
        assert tree.valid
        assert arbo.score(tree.end().position).to_json() == _cli_json(path, 1)


def test_check_is_arbo_check_as_a_function():
    found = arbo.check(ROOT / "samples" / "invalid" / "rule-wrong-result.arb")
    assert not found.valid and found.game_count == 1
    [game] = found.games
    assert [d.code for d in game.diagnostics] == [d.code for d in found.diagnostics] == ["species-count", "result"]
    assert arbo.check(ANNOTATED).valid


def test_check_of_a_missing_or_binary_file_reports_instead_of_raising(tmp_path):
    missing = arbo.check(tmp_path / "gone.arb")
    assert not missing.valid and [d.code for d in missing.diagnostics] == ["file"]
    binary = tmp_path / "b.arb"
    binary.write_bytes(b"---\n\xff\xfe\n")
    found = arbo.check(binary)
    assert not found.valid and [(d.code, d.line) for d in found.diagnostics] == [("syntax", 2)]


def test_load_game_picks_one_game_and_names_the_missing(tmp_path):
    path = tmp_path / "two.arb"
    path.write_text(format_games(list(simulate_games(2, 2, "load"))), encoding="utf-8")
    assert arbo.load_game(path, 2).record.index == 2
    with pytest.raises(arbo.GameNotFound, match="holds 2 games; there is no game 3"):
        arbo.load_game(path, 3)


def test_importing_the_package_loads_neither_lark_nor_textual_nor_yaml():
    script = (
        "import sys, arbo_notation as arbo; arbo.__version__;"
        "print(sorted(m for m in ('lark', 'textual', 'yaml', 'arbo_notation.game.replay') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_state_after_the_last_legal_turn_is_not_the_illegal_turn_half_played():
    path = ROOT / "samples" / "invalid" / "rule-planting-not-adjacent.arb"
    done = runner.invoke(app, ["state", "--turn", "3", str(path)])
    assert done.exit_code == 0
    assert "turn 4: Ben to draw; deck: 6 cards" in done.stdout  # not 'Ben to plant; deck: 4'


def test_a_diagnostic_shows_its_own_source_line_after_a_comment_holding_a_line_separator():
    """U+2028 is text inside a comment, not a line break: splitting the source with splitlines()
    showed the line before the error under its caret."""
    text = (ROOT / "samples" / "invalid" / "rule-planting-not-adjacent.arb").read_text(encoding="utf-8")
    text = text.replace("1. Ana", "{a comment \u2028 with a line separator}\n1. Ana", 1)
    from arbo_notation.api import game_tree

    diagnostic = next(d for d in game_tree(text, "sep.arb").diagnostics if d.code == "plant")
    assert diagnostic.show().splitlines()[1].strip() == "4. Ben d:Ma6 d:Oa5 Oa4@2,1 /Ma6"


def test_the_lazy_exports_answer_like_plain_attributes():
    import arbo_notation.notation as notation

    assert {"read_games", "replay", "score", "check", "GameTree", "Card"} <= set(dir(arbo))
    assert set(arbo.__all__) <= set(dir(arbo))
    assert arbo.Card is __import__("arbo_notation.engine.cards", fromlist=["Card"]).Card
    assert notation.parse.__module__ == "arbo_notation.notation.reading.reader"
    with pytest.raises(AttributeError, match="module 'arbo_notation' has no attribute 'no_such_name'"):
        _ = arbo.no_such_name
    with pytest.raises(AttributeError, match="module 'arbo_notation.notation' has no attribute 'Tree'"):
        _ = notation.Tree


def test_tree_node_is_the_node_after_a_turn_of_the_main_line():
    import arbo_notation as arbo

    tree = arbo.load_game(ROOT / "samples" / "annotated.arb", 1)
    nodes = list(tree.mainline())
    assert [tree.node(n) for n in range(len(nodes))] == nodes and tree.node(0) is tree.root
    assert tree.node(17) is tree.end()
    for wrong in (18, -1, "3"):
        with pytest.raises(IndexError, match="the main line has 17 turns played; there is no node after turn"):
            tree.node(wrong)


def test_reading_leaves_the_host_garbage_collector_alone(monkeypatch):
    import gc

    def touched(*args):
        raise AssertionError("the library changed the host's garbage collector")

    for name in ("disable", "enable", "freeze", "unfreeze"):
        monkeypatch.setattr(gc, name, touched)
    text = (Path(__file__).resolve().parent.parent / "samples" / "annotated.arb").read_text(encoding="utf-8")
    games = arbo.parse_games(text)
    assert len(games) == 1 and arbo.replay(games[0]).root is not None


def _with_variations(record):
    """A legal game given variations that are its own turns played again: two on its first turn,
    two on its fourth, and inside the first of those a variation on its own first turn."""
    from dataclasses import replace

    from arbo_notation.notation.model import Variation

    turns = list(record.turns)

    def again(start, count, variations=()):
        played = [replace(t, number=None) for t in turns[start : start + count]]
        played[0] = replace(played[0], variations=variations)
        return Variation(tuple(played))

    inner = again(3, 1)
    turns[0] = replace(turns[0], variations=(again(0, 2), again(0, 1)))
    turns[3] = replace(turns[3], variations=(again(3, 3, (inner,)), again(3, 2)))
    return replace(record, turns=tuple(turns))


def test_nodes_are_made_when_walked_to_and_the_same_each_time():
    record = _with_variations(next(iter(simulate_games(2, 1, 5, bots=("greedy", "greedy")))))
    tree = arbo.replay(record)
    assert tree.valid
    main = tree.line_nodes(())
    assert [n.number for n in main] == list(range(len(record.turns) + 1))
    assert all(n.next() is n.next() for n in main)
    assert [n.parent for n in main[1:]] == main[:-1]

    def node_at(path, index):  # the node after ``index`` turns of a line (its parent line's for 0)
        if not path:
            return main[index]
        first = tree.line_nodes(path)[0]
        return first.parent if index == 0 else tree.line_nodes(path)[index - 1]

    hung = 0
    for path, line in tree.lines.items():
        if not path:
            continue
        (*outer, (index, number)) = path
        outer = tuple(outer)
        nodes = tree.line_nodes(path)
        assert nodes[0].parent is node_at(outer, index)
        assert [n.number for n in nodes] == [line.start + i for i in range(1, line.legal + 1)]
        assert [n.parent for n in nodes[1:]] == nodes[:-1]
        assert node_at(outer, index + 1).variations[number] is nodes[0]
        hung += 1
    assert hung == 5
    assert [(n.number, n.path) for n in tree.walk()][:6] == [
        (0, ()),
        (1, ()),
        (1, ((0, 0),)),
        (2, ((0, 0),)),
        (1, ((0, 1),)),
        (2, ()),
    ]


def test_a_tree_nobody_walks_is_freed_when_dropped_and_a_held_node_keeps_its_tree():
    import gc

    record = next(iter(simulate_games(2, 1, 5, bots=("greedy", "greedy"))))
    gc.collect()
    gc.disable()
    try:
        tree = arbo.replay(record)
        assert tree.root is tree.root and tree.sheet is not None
        del tree
        assert gc.collect() == 0  # no reference cycle was left for the collector
        end = arbo.replay(record).end()  # the node holds its tree, and the tree its line of nodes
        assert end.tree.end() is end and end.tree.root.next().parent is end.tree.root
        assert [n.number for n in end.tree.mainline()][-1] == end.number == len(record.turns)
    finally:
        gc.enable()


def test_a_users_mypy_sees_the_real_types(tmp_path):
    """py.typed and the TYPE_CHECKING imports beside the lazy loader: to a user's mypy, `arbo.Game` is
    the class and `arbo.read_games` a typed function, a wrong call and a misspelt name are errors."""
    user = tmp_path / "user.py"
    user.write_text(
        "import arbo_notation as arbo\n"
        "reveal_type(arbo.Game)\n"
        "reveal_type(arbo.read_games)\n"
        "reveal_type(arbo.Draw().owner)\n"
        "arbo.read_games(42)\n"
        "arbo.Gmae\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-error-summary",
            "--cache-dir",
            str(tmp_path / "cache"),
            "user.py",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # this checkout, searched as site-packages are: py.typed counts
        capture_output=True,
        text=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith('user.py:2: note: Revealed type is "def (config: arbo_notation.engine.state.GameConfig')
    assert lines[0].endswith('-> arbo_notation.engine.state.Game"')
    assert lines[1].startswith('user.py:3: note: Revealed type is "def (source: str | os.PathLike[str] |')
    assert lines[1].endswith('-> list[arbo_notation.notation.model.GameRecord]"')
    assert lines[2:] == [
        'user.py:4: note: Revealed type is "str | None"',
        'user.py:5: error: Argument 1 to "read_games" has incompatible type "int"; expected '
        '"str | PathLike[str] | IO[str] | IO[bytes]"  [arg-type]',
        'user.py:6: error: Module has no attribute "Gmae"  [attr-defined]',
    ]
    assert done.returncode == 1
