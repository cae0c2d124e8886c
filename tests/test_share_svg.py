"""`arbo render`: SVG diagrams that parse as XML, draw what the position holds, and keep their look
(snapshots: after a deliberate change, `pytest tests/test_share_svg.py --snapshot-update`, then look
at the files in tests/__snapshots__/test_share_svg/ before keeping them)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from typer.testing import CliRunner

import arbo_notation as arbo
from arbo_notation.cli import app
from arbo_notation.share.palette import NATURAL, species_colours
from arbo_notation.share.svg import Diagram, render_diagram, seats_of, xml_text

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.arb"))
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


class SVGSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    _file_extension = "svg"


@pytest.fixture
def svg_snapshot(snapshot):
    return snapshot.use_extension(SVGSnapshot)


def render(*args: str):
    return runner.invoke(app, ["render", *args])


def svg_of(*args: str) -> str:
    result = render(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def cards_drawn(root: ET.Element, player: str) -> list[str]:
    """The cards on a player's grid, as the diagram writes them (code then value)."""
    seat = next(g for g in root.iter(f"{SVG}g") if g.get("data-player") == player)
    cards = []
    for group in seat.iter(f"{SVG}g"):
        if "card" in (group.get("class") or "").split() and "small" not in group.get("class").split():
            texts = [t.text for t in group.iter(f"{SVG}text")]
            cards.append("".join(texts))
    return cards


def test_the_whole_board(svg_snapshot):
    svg = svg_of(str(ROOT / "samples" / "four-players.arb"), "--turn", "20")
    assert svg == svg_snapshot


def test_one_players_arboretum(svg_snapshot):
    svg = svg_of(str(ROOT / "samples" / "annotated.arb"), "--turn", "12", "--player", "Ben", "--as", "Ben")
    assert svg == svg_snapshot


def test_the_scoring_paths(svg_snapshot):
    svg = svg_of(str(ROOT / "samples" / "annotated.arb"), "--score")
    assert svg == svg_snapshot


@pytest.mark.parametrize("source", SAMPLES, ids=lambda p: p.name)
def test_every_sample_renders_valid_xml_with_every_tree_on_its_grid(source):
    result = render(str(source))
    root = ET.fromstring(result.stdout.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    x, y, width, height = (float(v) for v in root.get("viewBox").split())
    assert (x, y) == (0, 0) and 200 < width and 200 < height
    assert float(root.get("width")) <= 960
    end = arbo.load_game(source).end().position
    for player in end.players:
        trees = sorted(f"{card.species}{card.value}" for card in end.arboretum(player).values())
        assert sorted(cards_drawn(root, player)) == trees


def test_the_scored_paths_are_drawn_and_totalled():
    root = ET.fromstring(svg_of(str(ROOT / "samples" / "annotated.arb"), "--score").encode("utf-8"))
    paths = [g.get("data-species") for g in root.iter(f"{SVG}g") if g.get("class") == "path"]
    assert paths == ["Ca", "Cb", "Ma", "Bs", "Ja"]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Total 21  (4 species planted)" in texts
    assert "Ana wins with 21 (Ben 7)." in texts
    ca_links = next(g for g in root.iter(f"{SVG}g") if g.get("data-species") == "Ca")
    assert len(ca_links.findall(f"{SVG}line")) == 2 * 4  # 5 cards: 4 links, each a casing and a line


def test_hidden_hands_are_drawn_as_unseen_cards():
    root = ET.fromstring(svg_of(str(ROOT / "samples" / "annotated.arb"), "--turn", "5", "--as", "Ana").encode("utf-8"))
    ben = next(g for g in root.iter(f"{SVG}g") if g.get("data-player") == "Ben")
    hidden = [t.text for t in ben.iter(f"{SVG}text") if t.get("class") == "hidden"]
    assert hidden == ["??"] * 7


def test_record_text_is_escaped_xml():
    game = arbo.load_game(ROOT / "tests" / "fixtures" / "share" / "malicious.arb").end().position
    diagram = Diagram(seats_of(game), game.config.species, title="</text><script>x</script> & \x01", subtitle="\"'")
    root = ET.fromstring(render_diagram(diagram).encode("utf-8"))
    assert root.find(f"{SVG}script") is None
    title = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "title")
    assert title.text == "</text><script>x</script> & \\x01"
    assert xml_text("a<b&c\x00") == "a&lt;b&amp;c\\x00"
    assert xml_text("Ana \u202eniB\ud800") == "Ana \\u202eniB\\ud800"  # no reordering, nothing XML refuses


def test_species_keep_their_natural_colours_and_others_get_distinct_ones():
    colours = species_colours(["Ca", "Ma", "Xy", "Zz"])
    assert colours["Ca"].fill == NATURAL["Ca"] and colours["Ma"].fill == NATURAL["Ma"]
    fills = [c.fill for c in colours.values()]
    assert len(set(fills)) == 4
    assert colours["Ca"].ink == "#111111" and species_colours(["Bs"])["Bs"].ink == "#ffffff"


@pytest.mark.parametrize("args, status, message", [
    (["samples/annotated.arb", "--turn", "18"], 2, "arbo: game 1 has 17 turns; there is no position after turn 18\n"),
    (["samples/annotated.arb", "--turn", "-1"], 2, "arbo: --turn must be 0 or more, not -1 (see 'arbo render --help')\n"),
    (["samples/annotated.arb", "--game", "2"], 2, "arbo: samples/annotated.arb holds 1 game; there is no game 2\n"),
    (["samples/annotated.arb", "--player", "Zed"], 2, "arbo: --player Zed: not a player of this game (Ana, Ben)\n"),
    (["samples/annotated.arb", "--as", "Zed"], 2, "arbo: --as Zed: not a player of this game (Ana, Ben)\n"),
    (["samples/annotated.arb", "-o", "board.png"], 2, "arbo: -o board.png: an SVG diagram is written to a file ending in .svg\n"),
    (["samples/annotated.arb", "--turn", "5", "--as", "Ana", "--score"], 2,
     "arbo: --score shows every hand, and Ana's view hides the others' before the end\n"),
    (["samples/three-player-spectator.arb", "--turn", "5", "--score"], 2,
     "arbo: --score: cannot score: the hands of Mia, Noah, Omar are not known after turn 5\n"),
    (["samples/invalid/rule-planting-not-adjacent.arb", "--turn", "4"], 2,
     "arbo: game 1 has 3 legal turns; there is no position after turn 4\n"),
    (["no-such.arb"], 1, "arbo: no-such.arb: no such file\n"),
    (["samples/invalid/bad-card-value.arb"], 1, None),
    (["tests/fixtures/share/empty.arb"], 1, "arbo: tests/fixtures/share/empty.arb holds no game\n"),
])
def test_render_refuses_bad_input_and_usage_with_one_message(args, status, message, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = render(*args)
    assert result.exit_code == status, result.output
    assert result.stdout == ""
    if message is not None:
        assert result.stderr.endswith(message)
    assert "Traceback" not in result.stderr


def test_a_record_with_rule_errors_is_drawn_at_its_last_legal_turn_with_status_1(tmp_path):
    out = tmp_path / "broken.svg"
    result = render(str(ROOT / "samples" / "invalid" / "rule-planting-not-adjacent.arb"), "-o", str(out))
    assert result.exit_code == 1 and "cannot plant Oa4" in result.stderr
    root = ET.parse(out).getroot()
    assert "after turn 3" in next(t.text for t in root.iter(f"{SVG}text") if t.get("class") == "sub")
    assert [p.name for p in tmp_path.iterdir()] == ["broken.svg"]
