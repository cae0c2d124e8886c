"""Pictures for chat: the SVG diagrams drawn as PNG by resvg, and a game as an animated GIF/WebP/APNG.

resvg draws the very SVG that `arbo render` writes, with the DejaVu Sans fonts shipped in
``fonts/`` put first, so a picture is the same on every machine whatever fonts it has (the
machine's fonts only stand in for characters the shipped ones lack). Pillow puts frames together.
Both are imported only when a picture is asked for: other commands start without them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from typing import Sequence

FONT_FAMILY = "DejaVu Sans Arbo"
#: Put before the SVG's own style: its system font list finds nothing on a bare machine.
FONT_STYLE = f"text {{ font-family: '{FONT_FAMILY}', sans-serif !important; }}"
BACKGROUND = (0xF6, 0xF4, 0xEE)  # the diagrams' background, for frames of different sizes
DEFAULT_SCALE = 2.0  # for phone screens, whose pixels are two or three to a CSS pixel
ANIMATION_SCALE = 1.0  # a frame per turn: size matters more than sharpness
TURN_MS = 900
LAST_MS = 5000  # the scoring, shown longest


class Motion(str, Enum):
    """The animated formats, by the suffix of the file they are written to."""

    gif = "gif"
    webp = "webp"
    apng = "apng"


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of an animation and how long it is shown."""

    svg: str
    milliseconds: int


def font_files() -> list[str]:
    """The shipped fonts' paths (the package is installed as files, so they are real paths)."""
    folder = resources.files(__package__).joinpath("fonts")
    return sorted(str(item) for item in folder.iterdir() if item.name.endswith(".ttf"))


def png_of(svg: str, scale: float = DEFAULT_SCALE) -> bytes:
    """The PNG of an SVG diagram, ``scale`` pixels to a unit of its size."""
    import resvg_py

    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            zoom=scale,
            font_files=font_files(),
            font_family=FONT_FAMILY,
            sans_serif_family=FONT_FAMILY,
            style_sheet=FONT_STYLE,
        )
    )


def compact_png(svg: str, scale: float = ANIMATION_SCALE, colours: int = 128) -> bytes:
    """The PNG of an SVG diagram in a palette of ``colours`` (a third of the size or less: the
    diagrams have few colours besides the edges of their letters), for embedding."""
    from PIL import Image

    picture = Image.open(io.BytesIO(png_of(svg, scale))).convert("RGB")
    out = io.BytesIO()
    picture.quantize(colors=colours, method=Image.Quantize.MEDIANCUT).save(out, format="PNG", optimize=True)
    return out.getvalue()


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height in pixels, from its header."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def animation_of(frames: Sequence[Frame], motion: Motion, scale: float = ANIMATION_SCALE) -> bytes:
    """The frames drawn and put together as one looping animation, each on a canvas the size of
    the largest (a game's arboretums grow), from the top left."""
    from PIL import Image

    pictures = [Image.open(io.BytesIO(png_of(frame.svg, scale))).convert("RGB") for frame in frames]
    width = max(picture.width for picture in pictures)
    height = max(picture.height for picture in pictures)
    canvases = []
    for picture in pictures:
        canvas = Image.new("RGB", (width, height), BACKGROUND)
        canvas.paste(picture, (0, 0))
        canvases.append(canvas)
    if motion is Motion.gif:
        # One palette for every frame, so that the unchanged parts of a frame are left out.
        palette = canvases[-1].quantize(colors=128, method=Image.Quantize.MEDIANCUT)
        canvases = [canvas.quantize(palette=palette, dither=Image.Dither.NONE) for canvas in canvases]
    out = io.BytesIO()
    formats: dict[Motion, tuple[str, dict[str, object]]] = {
        Motion.gif: ("GIF", {"optimize": True, "disposal": 1}),
        Motion.webp: ("WEBP", {"lossless": True, "method": 4}),
        Motion.apng: ("PNG", {"optimize": True}),
    }
    kind, options = formats[motion]
    canvases[0].save(
        out,
        kind,
        save_all=True,
        append_images=canvases[1:],
        loop=0,
        duration=[frame.milliseconds for frame in frames],
        **options,
    )
    return out.getvalue()
