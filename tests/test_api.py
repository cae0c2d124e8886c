"""The public library: read_games, replay into a game tree, score, check, load_game."""

from __future__ import annotations

import io
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
            assert [node.number for node in nodes] == list(range(len(nodes)))
            assert len(nodes) == len(game.turns) + 1  # every sample's main line is legal
            for before, node in zip(nodes, nodes[1:]):
                assert node.parent is before and before.next() is node
                assert node.turn is game.turns[node.number - 1]
            assert tree.end() is nodes[-1]
            assert tree.valid == (not any(d.severity is arbo.Severity.ERROR for d in tree.diagnostics))


def test_read_games_takes_a_path_a_text_or_an_open_file():
    text = ANNOTATED.read_text(encoding="utf-8")
    by_path = arbo.read_games(str(ANNOTATED))
    assert arbo.read_games(ANNOTATED) == by_path
    assert arbo.read_games(text) == [g for g in arbo.read_games(io.StringIO(text))]
    assert arbo.read_games(text)[0].turns == by_path[0].turns
    with open(ANNOTATED, "rb") as binary:
        assert arbo.read_games(binary)[0].turns == by_path[0].turns


def test_read_games_raises_every_syntax_error_located():
    text = (ROOT / "samples" / "invalid" / "missing-discard.arb").read_text(encoding="utf-8")
    with pytest.raises(arbo.NotationErrors) as caught:
        arbo.read_games(text)
    assert [(e.line, e.file) for e in caught.value.errors] == [(8, "<string>")]


def test_read_games_of_a_missing_file_says_so():
    with pytest.raises(arbo.ArboError, match="no-such.arb: no such file"):
        arbo.read_games("no-such.arb")


def test_variations_hang_on_the_node_whose_turn_they_replace():
    tree = arbo.replay(arbo.read_games(ANNOTATED)[0])
    sixth = [node for node in tree.mainline()][6]
    assert str(sixth.turn.plant) == "Bs4@-2,0" and sixth.glyphs == ("?!",)
    [first] = sixth.variations
    assert first.parent is sixth.parent  # the variation starts from the position before turn 6
    assert first.number == 6 and not first.is_mainline() and first.path == ((5, 0),)
    assert str(first.turn.plant) == "Bs5@-1,1"
    line = [first, first.next(), first.next().next()]
    assert [node.number for node in line] == [6, 7, 8] and line[2].next() is None
    [nested] = line[1].variations
    assert nested.path == ((5, 0), (1, 0)) and nested.parent is first
    # the position is the engine's, after that turn, a copy the caller may keep
    position = first.position
    assert position.arboretum("Ben")[arbo.Coord(-1, 1)] == arbo.Card("Bs", 5)
    assert first.position is not position


def test_walk_reads_the_tree_in_the_move_list_order():
    tree = arbo.replay(arbo.read_games(ANNOTATED)[0])
    numbers = [(node.number, node.path) for node in tree.walk()][5:12]
    assert numbers == [(5, ()), (6, ()), (6, ((5, 0),)), (7, ((5, 0),)), (7, ((5, 0), (1, 0))),
                       (8, ((5, 0), (1, 0))), (8, ((5, 0),))]


def test_comments_and_glyphs_of_nodes():
    tree = arbo.replay(arbo.read_games(ANNOTATED)[0])
    root = tree.root
    assert root.comments == tree.record.comments and root.glyphs == ()
    seventeenth = tree.end()
    assert seventeenth.number == 17 and seventeenth.glyphs == ("!!",)
    assert [c.text for c in seventeenth.comments] == [c.text for c in seventeenth.turn.comments_before + seventeenth.turn.comments_after]


def test_an_illegal_turn_ends_the_line_with_its_error_on_the_last_node():
    record = arbo.read_games(ROOT / "samples" / "invalid" / "rule-planting-not-adjacent.arb")[0]
    tree = arbo.replay(record)
    end = tree.end()
    assert end.number == 3 and not tree.valid
    assert end.error is not None and end.error.number == 4 and end.error.code == "plant"
    assert str(end.error) == (
        "turn 4 (Ben d:Ma6 d:Oa5 Oa4@2,1 /Ma6) is illegal: Ben cannot plant Oa4 at (2,1): none of Ben's trees is adjacent"
    )
    # the position is the one after turn 3, not turn 4 half played
    assert end.position.turn_number == 4 and end.position.deck_size == 6
    assert [d.code for d in tree.diagnostics] == ["species-count", "plant"]


def test_a_header_that_sets_up_no_game_raises():
    text = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\nhands: {Ana: [Ca1, Ca1]}\n---\n"
    with pytest.raises(arbo.ArboError, match="cannot be set up: Ana's dealt hand has 2 cards; a hand is 7"):
        arbo.replay(arbo.read_games(text)[0])


def test_score_refuses_hidden_hands():
    tree = arbo.replay(arbo.read_games(ROOT / "samples" / "three-player-spectator.arb")[0])
    with pytest.raises(arbo.ArboError, match="cannot score: the hand of"):
        arbo.score(tree.root.position)


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


def test_load_game_picks_one_game_and_names_the_missing():
    text = format_games(list(simulate_games(2, 2, "load")))
    assert arbo.load_game(text, 2).record.index == 2
    with pytest.raises(arbo.GameNotFound, match="holds 2 games; there is no game 3"):
        arbo.load_game(text, 3)


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
        arbo.no_such_name
    with pytest.raises(AttributeError, match="module 'arbo_notation.notation' has no attribute 'Tree'"):
        notation.Tree


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
    games = arbo.read_games(text)
    assert len(games) == 1 and arbo.replay(games[0]).root is not None


def _with_variations(record):
    """A legal game given variations that are its own turns played again: two on its first turn,
    two on its fourth, and inside the first of those a variation on its own first turn."""
    from dataclasses import replace

    from arbo_notation.notation.model import Variation

    turns = list(record.turns)

    def again(start, count, variations=()):
        played = [replace(t, number=None) for t in turns[start:start + count]]
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
        (0, ()), (1, ()), (1, ((0, 0),)), (2, ((0, 0),)), (1, ((0, 1),)), (2, ())]


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
