"""`arbo export`: a recorded game as one self-contained HTML page that replays it in any browser."""

from __future__ import annotations

from enum import Enum
from pathlib import PurePath
from typing import Optional

import typer

from arbo_notation.game.tree import GameTree
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.present.report import winner_line
from arbo_notation.share.html import Preview, build_page
from arbo_notation.share.raster import compact_png
from arbo_notation.share.svg import position_diagram, render_diagram
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, fail, refuse_writing_over_input
from arbo_notation.cli.sharing import Loaded, load_games, viewer_for, write_output
from arbo_notation.cli.bounds import MOST_GAMES
from arbo_notation.cli.usage import a_path, whole_number

HELP = """Export a recorded game as one HTML file that replays it in any browser, with nothing to install and nothing fetched from the network.

The page shows every arboretum as cards in their species' colours with coordinates, the hands (as the record or --as allows), the discard piles, the deck and whose turn it is; the move list with glyphs, where a click jumps to a turn; the comments beside the board; variations to enter and leave; the scoring at the end (and at any turn, as if the game ended there) with each path shown on its grid. Keys: Left/Right, Home/End, v variations, s scoring. The link of a turn is in the page's address (#turn=12).

The engine computes every position and score; the page only shows them. A file of several games gives a page that lists them (--game N exports one). A record with rule errors is exported up to its last legal turn, the error shown there and on stderr (the exit status is then 1).

The page carries Open Graph tags (its title, who won, a picture of the final position embedded as a PNG), so a chat can show a preview of a link to it once it is hosted; --no-preview leaves them out (the page is then some 50 kB smaller). Some link previewers take only a picture at an address: host the PNG of `arbo render --score -o end.png` beside the page and give --image-url https://example.org/end.png.

--as PLAYER exports one player's view: the others' hands and the cards they drew from the deck are left out of the page until the end of the game.

Examples:

    arbo export samples/annotated.arb --to html -o annotated.html

    arbo export club.arb --to html --game 3 --as Ana > game3.html
"""


#: The biggest page export writes: past it a browser takes seconds to open the page and its
#: replay is no longer usable (8,000 one-turn variations made 44 MB). docs/NOTATION.md states it.
MAX_PAGE_BYTES = 16 << 20


class PageFormat(str, Enum):
    html = "html"


def export(
    file: str = typer.Argument(..., metavar="FILE", help="A record file ('-' reads standard input)."),
    to: PageFormat = typer.Option(
        ..., "--to", metavar="FORMAT", help="What to make: html, a page that replays the game."
    ),
    out: Optional[str] = typer.Option(
        None,
        "--out",
        "-o",
        metavar="OUT.html",
        parser=a_path("--out"),
        help="The file to write (default: standard output).",
    ),
    game_number: Optional[int] = typer.Option(
        None,
        "--game",
        "-g",
        metavar="N",
        parser=whole_number("--game", 1, MOST_GAMES),
        help="Only this game of the file (1-based).",
    ),
    as_player: Optional[str] = typer.Option(
        None, "--as", metavar="PLAYER", help="One player's view: the other hands left out ('all': every hand)."
    ),
    preview: bool = typer.Option(
        True,
        "--preview/--no-preview",
        help="Open Graph tags with a picture of the final position, for a link's preview in a chat.",
    ),
    image_url: Optional[str] = typer.Option(
        None,
        "--image-url",
        metavar="URL",
        help="The preview's picture at this http(s) address (made by render -o end.png) instead of embedded.",
    ),
) -> None:
    if out is not None and out != "-" and PurePath(out).suffix.lower() not in (".html", ".htm"):
        fail(f"-o {out}: an HTML page is written to a file ending in .html", EXIT_USAGE)
    if image_url is not None and (not preview or not _web_address(image_url)):
        fail(f"--image-url {image_url}: give the http(s) address of the picture, without --no-preview", EXIT_USAGE)
    refuse_writing_over_input(out, [file])
    loaded = load_games(file, game_number)
    viewer = viewer_for(as_player, loaded.trees)
    title = _title(loaded)
    card = _preview(loaded.trees[0], viewer, image_url) if preview else None
    page = build_page(loaded.trees, viewer=viewer, unread=loaded.unread, title=title, preview=card)
    size = len(page.encode("utf-8"))
    if size > MAX_PAGE_BYTES:
        fail(
            f"{file}: the page would be {size / (1 << 20):.1f} MB, more than a browser replays usably "
            f"(at most {MAX_PAGE_BYTES / (1 << 20):g} MB): export one game with --game, or fewer variations"
        )
    write_output(page, out, "HTML page")
    raise typer.Exit(EXIT_INVALID if loaded.findings else 0)


def _web_address(url: str) -> bool:
    """Whether ``url`` is an http(s) address with a host (``http://`` or ``http:///x`` names none)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        _ = parts.port  # a port that is no number raises ValueError here
        return parts.scheme in ("http", "https") and bool(parts.hostname) and url.isprintable() and " " not in url
    except ValueError:  # a port that is no number, a bracket left open
        return False


def _preview(tree: GameTree, viewer: str | None, image_url: str | None) -> Preview:
    """The first game's last legal position as the viewer sees it, scored where it can be (drawn
    unless its picture is at ``image_url``), and a line saying who won or where the game stands."""
    model = ReplayModel(tree)
    model.set_perspective(viewer)
    model.end()
    diagram = position_diagram(model, scored=True)
    about = winner_line(diagram.sheet) if diagram.sheet is not None else diagram.subtitle
    description = f"{about.rstrip('.')} · {model.turns_played} turns"
    if image_url is not None:
        return Preview(description, image_url=image_url)
    return Preview(description, compact_png(render_diagram(diagram)))


def _title(loaded: Loaded) -> str:
    if len(loaded.trees) == 1 and not loaded.unread:
        header = loaded.trees[0].record.header
        players = header.players
        title = " vs ".join(players) if len(players) == 2 else ", ".join(players)
        return " · ".join(part for part in (header.event, header.date, title) if part)
    games = len(loaded.trees) + len(loaded.unread)
    return f"{PurePath(loaded.name).name}: {games} games"


def register(app: typer.Typer) -> None:
    app.command("export", help=HELP, short_help="A game as a self-contained HTML page that replays it.")(export)
