"""`arbo export --to html` without a browser: the data block, its escaping, the policy, one
player's view left out of the data, exit statuses and whole writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

import arbo_notation as arbo
from arbo_notation.cli import app
from arbo_notation.share.data import game_data, line_key
from arbo_notation.share.html import build_page, csp_hash, script_json

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.arb"))
MALICIOUS = ROOT / "tests" / "fixtures" / "share" / "malicious.arb"
runner = CliRunner()


def export(*args: str):
    return runner.invoke(app, ["export", *args])


def page_parts(page: str) -> dict:
    """The policy, the style, the data and the script of a page, as the browser would cut them."""
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page).group(1)
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    data = re.search(r'<script type="application/json" id="arbo-data">(.*?)</script>', page, re.S).group(1)
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    return {"policy": policy, "style": style, "data": data, "script": script}


@settings(max_examples=60, deadline=None)
@given(st.text())
def test_script_json_round_trips_and_cannot_leave_its_script_element(text):
    written = script_json({"comment": text, "list": [text]})
    assert json.loads(written) == {"comment": text, "list": [text]}
    assert not set(written) & {"<", ">", "&", "\u2028", "\u2029"}


def test_script_json_escapes_exactly_the_dangerous_characters():
    assert script_json("</script><!--&\u2028\u2029é") == '"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029é"'


def test_the_policy_allows_only_the_pages_own_script_and_style():
    page = build_page([arbo.load_game(ROOT / "samples" / "annotated.arb")], title="t")
    parts = page_parts(page)
    assert parts["policy"] == (
        f"default-src 'none'; script-src {csp_hash(parts['script'])}; style-src {csp_hash(parts['style'])}; "
        "img-src 'none'; base-uri 'none'; form-action 'none'"
    ).replace("'", "&#x27;")
    assert page.count("<script") == 2 and page.count("<style") == 1
    assert " on" not in re.sub(r"<script.*?</script>|<style>.*?</style>", "", page, flags=re.S).lower().replace(
        " one", ""
    )  # no inline event handler anywhere


def test_record_text_reaches_the_page_only_inside_the_escaped_data():
    result = export(str(MALICIOUS), "--to", "html")
    assert result.exit_code == 0, result.output
    page = result.stdout
    parts = page_parts(page)
    outside = page.replace(parts["data"], "")
    for dangerous in ("canary", "javascript:", "onerror", "onload"):
        assert dangerous not in outside.replace("&lt;/title&gt;&lt;script&gt;window.canary", "")
    assert "<script>window.canary" not in page
    data = json.loads(parts["data"])
    start = data["games"][0]["positions"][0]
    assert start["notes"]["before"] == ["<script>window.canary = 'script'</script>"]
    assert data["games"][0]["header"][0] == ["event", "</title><script>window.canary = 'title'</script>"]


def test_the_data_holds_every_position_of_every_line_as_the_tree_has_it():
    tree = arbo.load_game(ROOT / "samples" / "annotated.arb")
    data = game_data(tree)
    lines = {line["key"]: line for line in data["lines"]}
    assert set(lines) == {line_key(path) for path in tree.lines}
    for path, line in tree.lines.items():
        for index, state in enumerate(line.states):
            position = data["positions"][lines[line_key(path)]["positions"][index]]
            assert position["deck"] == state.deck_size
            for seat, player in zip(position["players"], state.players, strict=True):
                assert seat["trees"] == [[c.x, c.y, str(card)] for c, card in sorted(state.arboretum(player).items())]
                assert seat["pile"] == [str(card) for card in state.discard_pile(player)]
    end = data["positions"][data["end"]]
    assert end["over"] and data["sheets"][end["sheet"]]["verdict"] == "Ana wins with 21 (Ben 7)."
    assert data["rows"][0]["notation"] == "start of the game" and data["rows"][0]["number"] is None
    assert [row["depth"] for row in data["rows"] if row["number"] == 8] == [
        2,
        1,
        0,
    ]  # nested variation, variation, main line


@pytest.mark.parametrize("source", SAMPLES, ids=lambda p: p.name)
def test_the_totals_in_the_data_are_those_of_arbo_score(source):
    tree = arbo.load_game(source)
    data = game_data(tree)
    end = data["positions"][data["end"]]
    score = runner.invoke(app, ["score", "--json", str(source)])
    if score.exit_code != 0:
        assert not end["over"] or end["sheet"] is None
        return
    sheet = data["sheets"][end["sheet"]]
    for player in sheet["players"]:  # what the page adds: why an 8 counts 0
        for species in player["species"].values():
            species.pop("eight_cancelled_by", None)
    assert {k: v for k, v in sheet.items() if k != "verdict"} == json.loads(score.stdout)


def test_one_players_view_leaves_the_others_hidden_cards_out_of_the_page():
    source = ROOT / "samples" / "two-player-omniscient.arb"
    tree = arbo.load_game(source)
    data = game_data(tree, viewer="Ana")
    assert data["views"] == ["Ana"]
    nodes = tree.line_nodes(())
    for position in data["positions"]:
        ben = position["players"][1]
        if position["over"]:
            assert "??" not in ben["hand"]
        else:
            # Ben's hand as Ana knows it: the cards he took from piles, ?? for the rest
            known = nodes[position["number"]].knowledge(arbo.View.of_seat("Ana")).hands["Ben"]
            assert ben["hand"] == list(known.shown()) and "??" in ben["hand"] and position["sheet"] is None
            assert position["unscored"] == "cannot score here: Ana's view hides the other hands"
    for row in data["rows"]:
        if row["player"] == "Ben":
            assert "d:" not in row["notation"] and row["masked"] is None
    own = [row["notation"] for row in data["rows"] if row["player"] == "Ana"]
    assert own[0] == "Ana d:Ja6 d:Ma7 Ma8@0,0 /Ma4"
    whole = json.dumps(data)
    final = tree.end().position.hand("Ben").known
    dealt_to_ben = [str(c) for c in tree.record.header.hands["Ben"] if c in final]  # never shown before the end
    assert dealt_to_ben
    early = json.dumps([p for p in data["positions"] if not p["over"]])
    assert all(card not in early for card in dealt_to_ben) and all(card in whole for card in dealt_to_ben)


def test_without_as_the_page_offers_the_seats_the_record_knows():
    omniscient = game_data(arbo.load_game(ROOT / "samples" / "two-player-omniscient.arb"))
    assert omniscient["views"] == [None, "Ana", "Ben"] and omniscient["view"] is None
    cleo = game_data(arbo.load_game(ROOT / "samples" / "four-players.arb"))
    assert cleo["views"] == [None, "Cleo"] and cleo["view"] == "Cleo"
    spectator = game_data(arbo.load_game(ROOT / "samples" / "three-player-spectator.arb"))
    assert spectator["views"] == [None]
    row = next(r for r in omniscient["rows"] if r["number"] == 2)
    assert (row["notation"], row["masked"]) == ("Ben d:Dw4 d:Cb7 Dw3@0,0 /Ma2", "Ben d d Dw3@0,0 /Ma2")


def test_export_writes_the_page_whole_and_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "game.html"
    out.write_text("the old page")
    result = export(str(ROOT / "samples" / "annotated.arb"), "--to", "html", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.html"]
    stdout = export(str(ROOT / "samples" / "annotated.arb"), "--to", "html")
    assert stdout.stdout == out.read_text(encoding="utf-8")


def test_a_record_with_rule_errors_is_exported_to_its_last_legal_turn_with_status_1(tmp_path):
    out = tmp_path / "broken.html"
    result = export(
        str(ROOT / "samples" / "invalid" / "rule-planting-not-adjacent.arb"), "--to", "html", "-o", str(out)
    )
    assert result.exit_code == 1
    assert "Ben cannot plant Oa4 at (2,1)" in result.stderr
    data = json.loads(page_parts(out.read_text(encoding="utf-8"))["data"])
    game = data["games"][0]
    end = game["positions"][game["end"]]
    assert end["number"] == 3
    assert end["notes"]["problems"][0].startswith("turn 4 (Ben d:Ma6 d:Oa5 Oa4@2,1 /Ma6) is illegal")
    assert [row["status"] for row in game["rows"]][4:] == ["error", "unreached", "unreached", "unreached"]


def test_a_file_of_several_games_lists_the_ones_it_cannot_show(tmp_path):
    source = tmp_path / "club.arb"
    broken = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n1. Ana d d Ma9@0,0 /Wi4\n"
    source.write_text((ROOT / "samples" / "annotated.arb").read_text() + broken, encoding="utf-8")
    result = export(str(source), "--to", "html")
    assert result.exit_code == 1
    assert "club.arb:50:12: error: expected a card such as Ma3 to plant, found 'Ma9'" in result.stderr
    data = json.loads(page_parts(result.stdout)["data"])
    assert [g["index"] for g in data["games"]] == [1]
    assert data["failed"][0]["index"] == 2 and "Ma9" in data["failed"][0]["message"]
    assert data["title"] == "club.arb: 2 games"
    one = export(str(source), "--to", "html", "--game", "1")
    assert one.exit_code == 0 and len(json.loads(page_parts(one.stdout)["data"])["games"]) == 1


@pytest.mark.parametrize(
    "args, status, message",
    [
        (["samples/annotated.arb", "--game", "2"], 2, "arbo: samples/annotated.arb holds 1 game; there is no game 2\n"),
        (
            ["samples/annotated.arb", "--game", "0"],
            2,
            "arbo: --game must be 1 or more, not 0 (see 'arbo export --help')\n",
        ),
        (["samples/annotated.arb", "--as", "Zed"], 2, "arbo: --as Zed: not a player of this game (Ana, Ben)\n"),
        (
            ["samples/annotated.arb", "-o", "page.png"],
            2,
            "arbo: -o page.png: an HTML page is written to a file ending in .html\n",
        ),
        (["no-such.arb"], 1, "arbo: no-such.arb: no such file\n"),
        (["samples/invalid/header-unclosed.arb"], 1, None),
        (["samples/annotated.arb", "-o", "no-such-folder/page.html"], 1, None),
    ],
)
def test_export_refuses_bad_input_and_usage_with_one_message(args, status, message, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = export(*args, "--to", "html")
    assert result.exit_code == status, result.output
    assert result.stdout == ""
    if message is not None:
        assert result.stderr == message
    assert "Traceback" not in result.stderr and result.stderr.strip()


def test_an_unknown_target_format_is_a_usage_error():
    result = export(str(ROOT / "samples" / "annotated.arb"), "--to", "pdf")
    assert result.exit_code == 2 and "--to must be one of html, not 'pdf'" in result.stderr and result.stdout == ""


def test_as_all_shows_every_hand():
    result = export(str(ROOT / "samples" / "four-players.arb"), "--to", "html", "--as", "all")
    data = json.loads(page_parts(result.stdout)["data"])
    assert result.exit_code == 0 and data["games"][0]["views"] == [None, "Cleo"]


@pytest.mark.slow
def test_the_sharing_commands_run_and_the_pictures_are_what_render_makes(tmp_path, monkeypatch):
    page = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    section = page.split("## Sharing a game", 1)[1].split("\n## ", 1)[0]
    commands = section.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert [c.split()[1] for c in commands] == ["export", "render", "render", "render"]
    monkeypatch.chdir(ROOT)
    for command in commands:
        words = command.split()[1:]
        out = words.index("-o") + 1
        target = words[out]
        words[out] = str(tmp_path / Path(target).name)
        result = runner.invoke(app, words)
        assert result.exit_code == 0, (command, result.output)
        if target.startswith("docs/"):  # the committed picture is the command's output today
            assert (tmp_path / Path(target).name).read_bytes() == (ROOT / target).read_bytes()
            assert f"]({Path(target).name})" in section  # the page is in docs/


def test_the_page_names_every_glyph_of_the_game_nags_included():
    tree = arbo.load_game(Path(__file__).resolve().parents[2] / "samples" / "annotated.arb", 1)
    data = game_data(tree)
    assert data["glyphs"]["$1"] == "good"  # turn 3's $1 showed raw where !? was explained
    assert set(data["glyphs"]) == {glyph for row in data["rows"] for glyph in row["glyphs"]}
    assert all(meaning and not meaning.startswith("$") for meaning in data["glyphs"].values())
