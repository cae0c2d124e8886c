"""`arbo render` as pictures of pixels: the PNG drawn from the SVG with the shipped fonts, and the
whole game as an animation, each read back with Pillow (the comparison with Chromium's drawing of
the same SVG is in test_share_phone.py)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import resvg_py
from PIL import Image, ImageChops, ImageStat
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.share.raster import FONT_STYLE, font_files, png_of, png_size

ROOT = Path(__file__).resolve().parents[2]
FOUR = str(ROOT / "samples" / "four-players.arb")
TWO = str(ROOT / "samples" / "annotated.arb")  # 17 turns, scored at the end
runner = CliRunner()


def render(*args: str):
    return runner.invoke(app, ["render", *args])


def svg_size(svg: str) -> tuple[float, float]:
    width, height = re.search(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"', svg).groups()
    return float(width), float(height)


def picture(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def difference(a: Image.Image, b: Image.Image) -> float:
    """The mean difference of two pictures' pixels, 0 to 255."""
    assert a.size == b.size
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


@pytest.mark.slow
def test_o_png_writes_the_svg_at_twice_its_size_and_says_what_it_wrote(tmp_path):
    svg = render(FOUR, "--score").stdout
    result = render(FOUR, "--score", "-o", str(tmp_path / "end.png"))
    png = (tmp_path / "end.png").read_bytes()
    width, height = svg_size(svg)
    assert result.exit_code == 0 and result.stdout == ""
    assert png_size(png) == (round(width * 2), round(height * 2)) == picture(png).size
    assert (
        result.stderr
        == f"arbo: wrote {tmp_path / 'end.png'} (PNG {round(width * 2)}x{round(height * 2)} px, {len(png) / 1000:.0f} kB)\n"
    )
    assert png == png_of(svg)  # drawn from the very SVG that render writes


def test_format_png_and_scale_write_to_standard_output():
    svg = render(TWO).stdout
    result = render(TWO, "--format", "png", "--scale", "1")
    width, height = svg_size(svg)
    assert result.exit_code == 0 and result.stderr == ""
    assert png_size(result.stdout_bytes) == (round(width), round(height))


@pytest.mark.slow
def test_the_text_is_drawn_with_the_shipped_fonts_alone():
    """The same picture as with no font of the machine at all: a bare machine draws it so."""
    svg = render(FOUR, "--score").stdout
    bare = bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg, zoom=2, skip_system_fonts=True, font_files=font_files(), style_sheet=FONT_STYLE
        )
    )
    without_fonts = bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=2, skip_system_fonts=True))
    assert png_of(svg) == bare
    assert difference(picture(bare), picture(without_fonts)) > 1  # there is text, and it was drawn


def test_the_shipped_fonts_and_their_licence_are_in_the_package():
    names = sorted(Path(path).name for path in font_files())
    assert names == ["DejaVuSansArbo-Bold.ttf", "DejaVuSansArbo.ttf"]
    folder = ROOT / "arbo_notation" / "share" / "fonts"
    assert "Bitstream Vera" in (folder / "LICENSE").read_text() and (folder / "README.md").exists()


@pytest.mark.slow
def test_a_game_animation_is_a_frame_per_turn_and_the_scoring_last(tmp_path):
    out = tmp_path / "game.gif"
    result = render(TWO, "--game-animation", "-o", str(out))
    gif = picture(out.read_bytes())
    assert result.exit_code == 0 and result.stderr.startswith(f"arbo: wrote {out} (GIF of 19 frames, ")
    assert gif.format == "GIF" and gif.n_frames == 19 and gif.info["loop"] == 0  # the setup, 17 turns, the scoring
    durations = []
    for number in range(gif.n_frames):
        gif.seek(number)
        durations.append(gif.info["duration"])
    assert durations == [900] * 18 + [5000]
    scored = picture(png_of(render(TWO, "--score").stdout, 1))
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB").crop((0, 0, *scored.size))
    assert difference(last, scored) < 2  # the last frame is the scored end, in a palette
    assert out.stat().st_size < 400_000


@pytest.mark.slow
@pytest.mark.parametrize("suffix, kind", [("webp", "WEBP"), ("apng", "PNG")])
def test_a_game_animation_is_also_written_as_webp_or_apng(tmp_path, suffix, kind):
    out = tmp_path / f"game.{suffix}"
    result = render(TWO, "--game-animation", "--scale", "0.5", "-o", str(out))
    animation = picture(out.read_bytes())
    assert result.exit_code == 0
    assert animation.format == kind and animation.n_frames == 19


def og_tags(page: str) -> dict[str, str]:
    import html

    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<meta property="(og:[a-z:]+)" content="([^"]*)">', page)
    }


def test_the_page_carries_open_graph_tags_with_the_final_position_embedded(tmp_path):
    import base64

    result = runner.invoke(app, ["export", FOUR, "--to", "html"])
    tags = og_tags(result.stdout)
    assert result.exit_code == 0
    assert tags["og:title"] == "Family table · 2026-11-01 · Ana, Ben, Cleo, Dev"
    assert tags["og:description"] == "Dev wins with 19 (Cleo 17, Ana 3, Ben 0) · 36 turns"
    prefix = "data:image/png;base64,"
    assert tags["og:image"].startswith(prefix) and tags["og:image:type"] == "image/png"
    embedded = picture(base64.b64decode(tags["og:image"][len(prefix) :]))
    scored = picture(png_of(render(FOUR, "--score").stdout, 1))
    assert embedded.size == scored.size and difference(embedded, scored) < 2
    assert len(tags["og:image"]) < 90_000


def test_a_players_view_shows_that_view_in_the_preview_and_no_preview_leaves_it_out():
    import base64

    unfinished = str(ROOT / "samples" / "unfinished.arb")
    tags = og_tags(runner.invoke(app, ["export", unfinished, "--to", "html", "--as", "Ana"]).stdout)
    assert tags["og:description"] == "after turn 14: Ana to play · deck 7 cards · Ana's view · 14 turns"
    embedded = picture(base64.b64decode(tags["og:image"].split(",", 1)[1]))
    view = picture(png_of(render(unfinished, "--as", "Ana").stdout, 1))
    assert difference(embedded, view) < 2  # the others' hands hidden, as in Ana's view
    bare = runner.invoke(app, ["export", unfinished, "--to", "html", "--no-preview"])
    assert bare.exit_code == 0 and og_tags(bare.stdout) == {} and "og:" not in bare.stdout


def test_image_url_puts_the_hosted_picture_in_the_preview_and_nothing_else():
    result = runner.invoke(app, ["export", TWO, "--to", "html", "--image-url", "https://example.org/end.png"])
    tags = og_tags(result.stdout)
    assert result.exit_code == 0 and tags["og:image"] == "https://example.org/end.png"
    assert "data:image/png" not in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--image-url", "end.png"],
        ["--image-url", "javascript:alert(1)"],
        ["--image-url", "http://"],
        ["--image-url", "https://"],
        ["--image-url", "http:///x"],
        ["--image-url", "https://:443/end.png"],
        ["--image-url", "https://example.org:port/end.png"],
        ["--image-url", "https://example.org/end png"],
        ["--image-url", "https://example.org/end.png", "--no-preview"],
    ],
)
def test_image_url_is_an_http_address_of_a_preview(args):
    result = runner.invoke(app, ["export", TWO, "--to", "html", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert (
        result.stderr == f"arbo: --image-url {args[1]}: give the http(s) address of the picture, without --no-preview\n"
    )


def test_a_title_of_thousands_of_characters_is_cut_short_not_drawn_as_a_line(tmp_path):
    record = tmp_path / "long.arb"
    text = Path(TWO).read_text(encoding="utf-8")
    record.write_text(text.replace('event: "Study game: paths and rights"', f"event: {'W' * 4000}"), encoding="utf-8")
    for name, source in (("plain.svg", TWO), ("long.svg", str(record))):
        assert render(source, "-o", str(tmp_path / name)).exit_code == 0
    long_svg = (tmp_path / "long.svg").read_text(encoding="utf-8")
    assert svg_size(long_svg) == svg_size((tmp_path / "plain.svg").read_text(encoding="utf-8"))  # it was 960x9: a line
    (drawn,) = re.findall(r'class="title">([^<]*)</text>', long_svg)
    assert drawn.startswith("WWW") and drawn.endswith("…") and len(drawn) < 100
    # Drawn, the cut title (the widest letters) stops short of the picture's right margin.
    assert render(str(record), "-o", str(tmp_path / "long.png")).exit_code == 0
    png = Image.open(tmp_path / "long.png").convert("RGB")
    title_rows = png.crop((png.width - 16 * 2, 16 * 2, png.width, 40 * 2))  # the right margin, at scale 2
    assert title_rows.getcolors() == [(title_rows.width * title_rows.height, (0xF6, 0xF4, 0xEE))]


@pytest.mark.parametrize(
    "command, name",
    [
        (["render"], "game.png"),
        (["render"], "game.svg"),
        (["export", "--to", "html"], "game.html"),
    ],
)
def test_a_picture_or_page_is_never_written_over_its_record(tmp_path, command, name):
    record = tmp_path / name  # a record whose name ends as the output's
    text = Path(TWO).read_text(encoding="utf-8")
    record.write_text(text, encoding="utf-8")
    (tmp_path / "link.arb").symlink_to(record)
    for read in (record, tmp_path / "link.arb"):  # the same file by its name or by another
        done = runner.invoke(app, [*command, str(read), "-o", str(record)])
        assert done.exit_code == 2 and "Traceback" not in done.output
        assert done.stderr == f"arbo: -o {record}: is the record read ({read}): write to another file\n"
    assert record.read_text(encoding="utf-8") == text
