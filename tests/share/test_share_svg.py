"""`arbo render`: SVG diagrams that parse as XML, draw what the position holds, and keep their look
(snapshots: after a deliberate change, `pytest tests/share/test_share_svg.py --snapshot-update`, then look
at the files in tests/share/__snapshots__/test_share_svg/ before keeping them)."""

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

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.mark.parametrize(
    "args, status, message",
    [
        (
            ["samples/annotated.arb", "--turn", "18"],
            2,
            "arbo: game 1 has 17 turns; there is no position after turn 18\n",
        ),
        (
            ["samples/annotated.arb", "--turn", "-1"],
            2,
            "arbo: --turn must be 0 or more, not -1 (see 'arbo render --help')\n",
        ),
        (["samples/annotated.arb", "--game", "2"], 2, "arbo: samples/annotated.arb holds 1 game; there is no game 2\n"),
        (["samples/annotated.arb", "--player", "Zed"], 2, "arbo: --player Zed: not a player of this game (Ana, Ben)\n"),
        (["samples/annotated.arb", "--as", "Zed"], 2, "arbo: --as Zed: not a player of this game (Ana, Ben)\n"),
        (
            ["samples/annotated.arb", "-o", "board.jpg"],
            2,
            "arbo: -o board.jpg: a picture is written to a file ending in .svg or .png (.gif, .webp or .apng for an animation)\n",
        ),
        (
            ["samples/annotated.arb", "-o", "board.png", "--format", "svg"],
            2,
            "arbo: -o board.png and --format svg disagree: give the file the suffix .svg\n",
        ),
        (
            ["samples/annotated.arb", "-o", "game.gif"],
            2,
            "arbo: a gif is an animation of the whole game: add --game-animation (or write .svg or .png)\n",
        ),
        (
            ["samples/annotated.arb", "--game-animation", "-o", "game.png"],
            2,
            "arbo: --game-animation is written as gif, webp or apng, not png\n",
        ),
        (
            ["samples/annotated.arb", "--game-animation", "--turn", "3", "-o", "game.gif"],
            2,
            "arbo: --game-animation draws every turn: leave out --turn\n",
        ),
        (
            ["samples/annotated.arb", "--scale", "2"],
            2,
            "arbo: --scale is for pictures of pixels (png, gif, webp, apng): an SVG has no pixels\n",
        ),
        (
            ["samples/annotated.arb", "--scale", "0", "-o", "x.png"],
            2,
            "arbo: --scale must be 0.25 to 8, not 0 (see 'arbo render --help')\n",
        ),
        (
            ["samples/annotated.arb", "--scale", "big", "-o", "x.png"],
            2,
            "arbo: --scale takes a number (0.25 to 8), not 'big' (see 'arbo render --help')\n",
        ),
        (
            ["samples/annotated.arb", "--turn", "5", "--as", "Ana", "--score"],
            2,
            "arbo: --score shows every hand, and Ana's view hides the others' before the end\n",
        ),
        (
            ["samples/three-player-spectator.arb", "--turn", "5", "--score"],
            2,
            "arbo: --score: cannot score: the hands of Mia, Noah, Omar are not known after turn 5\n",
        ),
        (
            ["samples/invalid/rule-planting-not-adjacent.arb", "--turn", "4"],
            2,
            "arbo: game 1 has 3 legal turns; there is no position after turn 4\n",
        ),
        (["no-such.arb"], 1, "arbo: no-such.arb: no such file\n"),
        (["samples/invalid/bad-card-value.arb"], 1, None),
        (["tests/fixtures/share/empty.arb"], 1, "arbo: tests/fixtures/share/empty.arb holds no game\n"),
    ],
)
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


# -- the scoring paths over the grid --------------------------------------------------------

SCORED = [source for source in SAMPLES if runner.invoke(app, ["score", str(source)]).exit_code == 0]


def _translate(group: ET.Element) -> tuple[float, float]:
    x, y = group.get("transform").removeprefix("translate(").rstrip(")").split(",")
    return float(x), float(y)


def label_boxes(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """The box of every label on a grid card (its code and value), from the text's anchor, size
    and length: as wide as DejaVu Sans Bold's widest letters (0.72 em), from the cap height down to
    the baseline."""
    sizes = {"code": 10, "value": 19}
    boxes = []
    for group in root.iter(f"{SVG}g"):
        classes = (group.get("class") or "").split()
        if "card" not in classes or "small" in classes:
            continue
        ox, oy = _translate(group)
        for text in group.iter(f"{SVG}text"):
            size = sizes[text.get("class")]
            x, y, half = ox + float(text.get("x")), oy + float(text.get("y")), len(text.text) * size * 0.72 / 2
            boxes.append((x - half, y - size * 0.73, x + half, y))
    return boxes


def bar_boxes(root: ET.Element) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The box of every bar of a path, its round ends included."""
    bars = []
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "path":
            continue
        for line in group.findall(f"{SVG}line"):
            x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
            half = float(line.get("stroke-width")) / 2
            bars.append(
                (
                    group.get("data-species"),
                    (min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half),
                )
            )
    return bars


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("source", SCORED, ids=lambda p: p.name)
def test_no_bar_of_a_path_sits_on_a_cards_label(source):
    root = ET.fromstring(svg_of(str(source), "--score").encode("utf-8"))
    labels, bars = label_boxes(root), bar_boxes(root)
    assert bars and labels
    assert [(code, bar) for code, bar in bars if any(overlap(bar, label) for label in labels)] == []


def test_the_bar_test_sees_a_bar_drawn_on_a_label():
    """The box test above would catch a bar across the middle of a card."""
    root = ET.fromstring(svg_of(str(ROOT / "samples" / "annotated.arb"), "--score").encode("utf-8"))
    ((ox, oy),) = [_translate(g) for g in root.iter(f"{SVG}g") if "card" in (g.get("class") or "").split()][:1]
    assert any(overlap((ox, oy + 20, ox + 46, oy + 27), label) for label in label_boxes(root))


def test_paths_of_several_species_in_one_arboretum_are_told_apart():
    """Cleo's end in four-players.arb: Dogwood, Maple and Willow paths, two of them through Wi3 and Ca4."""
    root = ET.fromstring(svg_of(str(ROOT / "samples" / "four-players.arb"), "--score").encode("utf-8"))
    cleo = next(g for g in root.iter(f"{SVG}g") if g.get("data-player") == "Cleo")
    colours = species_colours(["Bs", "Ca", "Cb", "Dw", "Ja", "Ma", "Oa", "Rp", "Tp", "Wi"])
    drawn = {}
    for group in cleo.iter(f"{SVG}g"):
        if group.get("class") == "path":
            fills = {line.get("stroke") for line in group.findall(f"{SVG}line")} - {"#111111"}
            drawn[group.get("data-species")] = fills
    assert drawn == {code: {colours[code].fill} for code in ("Dw", "Ma", "Wi")}
    bars = [box for code, box in bar_boxes(cleo) if code in ("Dw", "Wi")]
    dogwood = {box for code, box in bar_boxes(cleo) if code == "Dw"}
    willow = {box for code, box in bar_boxes(cleo) if code == "Wi"}
    assert bars and not dogwood & willow  # in the gaps they share, side by side, not on each other
    texts = [t.text for t in cleo.iter(f"{SVG}text")]
    assert texts[-7:] == [
        "Dw  7 pts: Dw1 Wi3 Ca4 Dw8",
        "4 cards +0 same +1 start +2 end",
        "Ma  4 pts: Ma2 Ma8",
        "2 cards +0 same +0 start +2 end",
        "Wi  6 pts: Wi2 Wi3 Ca4 Wi8",
        "4 cards +0 same +0 start +2 end",
        "Total 17  (5 species planted)",
    ]
