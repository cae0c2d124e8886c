"""`arbo render`: a diagram of one position of a recorded game, as clean vector SVG or a PNG for
chat, or the whole game as an animation."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import PurePath
from typing import Optional

import typer

from arbo_notation.present.navigation import ReplayModel
from arbo_notation.share.raster import (
    ANIMATION_SCALE,
    DEFAULT_SCALE,
    LAST_MS,
    TURN_MS,
    Frame,
    Motion,
    animation_of,
    png_of,
    png_size,
)
from arbo_notation.share.svg import position_diagram, render_diagram
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, fail, refuse_writing_over_input
from arbo_notation.cli.sharing import load_games, viewer_for, write_output
from arbo_notation.cli.bounds import MOST_GAMES, MOST_TURNS
from arbo_notation.cli.usage import a_path, number_between, whole_number

HELP = """Draw one position of a recorded game as an SVG diagram for forums, blogs and documents, or as a PNG picture for chat; or the whole game as an animated GIF.

The arboretums (or one player's, with --player) as cards in their species' colours on a grid with its coordinates, the hands as the record or --as allows (unseen cards as ??), the discard piles, whose turn it is and the deck. With --score the position is scored as if the game ended there: each scoring path is drawn over its grid, with the points and totals below.

--turn N draws the position after N turns of the main line (default: the last legal one; 0: the setup).

-o x.png (or --format png) draws the same diagram as a PNG, at --scale 2 pixels a unit (sharp on a phone), with fonts shipped with arbo, so it looks the same on every machine. --game-animation -o game.gif draws every turn of the main line, a frame each, and the scoring last (.webp and .apng too).

Examples:

    arbo render samples/four-players.arb -o end.svg

    arbo render samples/annotated.arb --score -o scoring.svg

    arbo render games.arb --game 2 --turn 12 --player Ana --as Ana -o ana.svg

    arbo render samples/four-players.arb --score -o end.png

    arbo render samples/four-players.arb --game-animation -o game.gif
"""


class PictureFormat(str, Enum):
    svg = "svg"
    png = "png"
    gif = "gif"
    webp = "webp"
    apng = "apng"


STILL = (PictureFormat.svg, PictureFormat.png)


def render(
    file: str = typer.Argument(..., metavar="FILE", help="A record file ('-' reads standard input)."),
    out: Optional[str] = typer.Option(
        None,
        "--out",
        "-o",
        metavar="OUT",
        parser=a_path("--out"),
        help="The file to write, .svg or .png (.gif, .webp or .apng with --game-animation; default: standard output).",
    ),
    turn: Optional[int] = typer.Option(
        None,
        "--turn",
        "-t",
        metavar="N",
        parser=whole_number("--turn", 0, MOST_TURNS),
        help="After this many turns of the main line (default: the end).",
    ),
    game_number: int = typer.Option(
        1,
        "--game",
        "-g",
        metavar="N",
        parser=whole_number("--game", 1, MOST_GAMES),
        help="Which game of the file (1-based).",
    ),
    as_player: Optional[str] = typer.Option(
        None, "--as", metavar="PLAYER", help="One player's view: the other hands hidden ('all': every hand shown)."
    ),
    player: Optional[str] = typer.Option(
        None, "--player", metavar="NAME", help="Draw only this player's arboretum, hand and pile."
    ),
    score: bool = typer.Option(
        False, "--score", help="Score the position: the paths drawn over the grids, points and totals."
    ),
    picture_format: Optional[PictureFormat] = typer.Option(
        None,
        "--format",
        "-f",
        metavar="FORMAT",
        help="svg, png (gif, webp, apng: an animation); default: from -o's suffix, else svg.",
    ),
    scale: Optional[float] = typer.Option(
        None,
        "--scale",
        metavar="X",
        parser=number_between("--scale", 0.25, 8),
        help="Pixels to a unit of the SVG, for PNG and animations (default: 2 for PNG, 1 for an animation).",
    ),
    game_animation: bool = typer.Option(
        False,
        "--game-animation",
        help="The whole game, a frame per turn of the main line and the scoring last, as a GIF (or WebP, APNG).",
    ),
) -> None:
    kind = _format_of(out, picture_format, game_animation)
    if scale is not None and kind is PictureFormat.svg:
        fail("--scale is for pictures of pixels (png, gif, webp, apng): an SVG has no pixels", EXIT_USAGE)
    if game_animation and turn is not None:
        fail("--game-animation draws every turn: leave out --turn", EXIT_USAGE)
    if kind not in STILL and out in (None, "-") and sys.stdout.isatty():
        fail(f"a {kind.value} animation is not written to a terminal: give -o game.{kind.value}", EXIT_USAGE)
    if kind is PictureFormat.png and out in (None, "-") and sys.stdout.isatty():
        fail("a PNG is not written to a terminal: give -o picture.png", EXIT_USAGE)
    refuse_writing_over_input(out, [file])
    loaded = load_games(file, game_number)
    tree = loaded.trees[0]
    model = ReplayModel(tree)
    if as_player is not None:
        model.set_perspective(viewer_for(as_player, [tree]))
    if player is not None and player not in model.players:
        fail(f"--player {player}: not a player of this game ({', '.join(model.players)})", EXIT_USAGE)
    if turn is not None and not model.goto(turn):
        legal = model.main_turns
        reason = "legal " if legal < len(model.record.turns) else ""
        fail(
            f"game {game_number} has {legal} {reason}turn{'s' if legal != 1 else ''}; "
            f"there is no position after turn {turn}",
            EXIT_USAGE,
        )
    if turn is None:
        model.end()
    if game_animation:
        _write_animation(model, player, kind, scale, out)
    else:
        svg = _position_svg(model, player, score)
        if kind is PictureFormat.png:
            png = png_of(svg, scale or DEFAULT_SCALE)
            width, height = png_size(png)
            write_output(png, out, f"PNG {width}x{height} px")
        else:
            write_output(svg, out, "SVG")
    raise typer.Exit(EXIT_INVALID if loaded.findings and turn is None else 0)


def _format_of(out: str | None, asked: PictureFormat | None, animation: bool) -> PictureFormat:
    """The format to write: --format, else -o's suffix, else SVG (GIF for an animation); status
    2 when they disagree or the format does not fit what is drawn."""
    suffix = PurePath(out).suffix.lower().lstrip(".") if out not in (None, "-") else ""
    by_suffix = {item.value: item for item in PictureFormat}.get(suffix)
    if out not in (None, "-") and by_suffix is None:
        fail(
            f"-o {out}: a picture is written to a file ending in .svg or .png (.gif, .webp or .apng for an animation)",
            EXIT_USAGE,
        )
    if asked is not None and by_suffix is not None and asked is not by_suffix:
        fail(f"-o {out} and --format {asked.value} disagree: give the file the suffix .{asked.value}", EXIT_USAGE)
    kind = asked or by_suffix or (PictureFormat.gif if animation else PictureFormat.svg)
    if animation and kind in STILL:
        fail(f"--game-animation is written as gif, webp or apng, not {kind.value}", EXIT_USAGE)
    if not animation and kind not in STILL:
        fail(
            f"a {kind.value} is an animation of the whole game: add --game-animation (or write .svg or .png)",
            EXIT_USAGE,
        )
    return kind


def _position_svg(model: ReplayModel, player: str | None, score: bool) -> str:
    """The SVG of the model's current position (scored when asked: status 2 when it cannot be)."""
    if score:
        if model.hidden_hands():
            fail(
                f"--score shows every hand, and {model.perspective}'s view hides the others' before the end", EXIT_USAGE
            )
        if model.sheet() is None:
            fail(f"--score: {model.unscored_reason()} after turn {model.turns_played}", EXIT_USAGE)
    return render_diagram(position_diagram(model, player=player, scored=score))


def _write_animation(
    model: ReplayModel, player: str | None, kind: PictureFormat, scale: float | None, out: str | None
) -> None:
    """Every position of the main line up to the model's (its last legal one), then that one scored
    where it can be, as one animation."""
    last = model.turns_played
    frames = []
    for number in range(last + 1):
        model.goto(number)
        frames.append(Frame(_position_svg(model, player, False), TURN_MS))
    if model.sheet() is not None and not model.hidden_hands():
        frames.append(Frame(_position_svg(model, player, True), LAST_MS))
    else:
        frames[-1] = Frame(frames[-1].svg, LAST_MS)
    animation = animation_of(frames, Motion(kind.value), scale or ANIMATION_SCALE)
    write_output(animation, out, f"{kind.value.upper()} of {len(frames)} frames")


def register(app: typer.Typer) -> None:
    app.command("render", help=HELP, short_help="One position as an SVG or PNG diagram, or the game as a GIF.")(render)
