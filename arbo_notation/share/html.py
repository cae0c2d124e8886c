"""The self-contained HTML replayer: one file with its data, script and style inside, no network.

The positions come from the engine as a JSON data block; the page's script (page.js) only shows
them. Record text reaches the page only inside that block, escaped so that no sequence in it can
close the block, and the script puts it in the document as text, never as markup. A
Content-Security-Policy allows the page's own script and style, found by their hashes, and nothing
else: no network, no inline handler, no other script.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from html import escape
from importlib import resources
from typing import Any, Iterable, Sequence

from arbo_notation.game.tree import GameTree
from arbo_notation.share.data import game_data
from arbo_notation.share.palette import species_colours

#: JSON text that could end a script element or start markup, written as escapes instead.
_JSON_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


@dataclass(frozen=True, slots=True)
class UnreadGame:
    """A game of the file that the page lists but cannot show, and why."""

    index: int
    message: str


def script_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` (so no ``</script>`` or
    ``<!--``), and no U+2028/U+2029, which old script parsers took for line breaks."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_JSON_ESCAPES)


def csp_hash(text: str) -> str:
    """A CSP source expression allowing exactly this inline script or style."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def species_style(species: Iterable[str]) -> str:
    """One CSS rule per species code: its card colour and text colour (codes are 1 to 3 letters)."""
    rules = []
    for code, colour in species_colours(dict.fromkeys(species)).items():
        rules.append(f".sp-{code}{{--fill:{colour.fill};--ink-on:{colour.ink}}}")
    return "\n".join(rules)


def page_data(
    trees: Sequence[GameTree], viewer: str | None = None, unread: Sequence[UnreadGame] = (), title: str = ""
) -> dict[str, Any]:
    """Everything the page shows: each game's positions, moves and scoring, and the games it cannot show."""
    return {
        "title": title,
        "games": [game_data(tree, viewer) for tree in trees],
        "failed": [{"index": game.index, "message": game.message} for game in unread],
    }


@dataclass(frozen=True, slots=True)
class Preview:
    """What a chat shows of a link to the page once it is hosted (Open Graph): a line about the
    game and a picture of its final position, embedded in the page as a PNG (some link previewers
    take only a picture at an address: ``image_url``)."""

    description: str
    png: bytes | None = None
    image_url: str | None = None  # where the picture is hosted, taken over the embedded one


def preview_tags(title: str, preview: Preview | None) -> str:
    """The Open Graph meta elements of a page, every value escaped as an attribute."""
    if preview is None:
        return ""
    tags = [("og:type", "website"), ("og:title", title), ("og:description", preview.description)]
    image = preview.image_url
    if image is None and preview.png is not None:
        image = "data:image/png;base64," + base64.b64encode(preview.png).decode("ascii")
    if image is not None:
        tags += [("og:image", image), ("og:image:type", "image/png"), ("og:image:alt", preview.description)]
    lines = [f'<meta property="{name}" content="{escape(value)}">' for name, value in tags]
    lines.append(f'<meta name="description" content="{escape(preview.description)}">')
    return "\n".join(lines) + "\n"


def build_page(
    trees: Sequence[GameTree],
    *,
    viewer: str | None = None,
    unread: Sequence[UnreadGame] = (),
    title: str = "arbo game",
    preview: Preview | None = None,
) -> str:
    """The HTML text of the replayer for these games (one game: opened at its start; more: a list)."""
    data = page_data(trees, viewer, unread, title)
    species = [code for tree in trees for code in tree.lines[()].states[0].config.species]
    return page_html(data, species, title=title, preview=preview)


def page_html(
    data: dict[str, Any],
    species: Iterable[str],
    *,
    title: str,
    preview: Preview | None = None,
    live_script: str = "",
    live_style: str = "",
) -> str:
    """The page of ``page_data``'s data. ``live_script`` runs before the replayer's script (`arbo
    serve` updates the page with it) and may then fetch from the page's own origin, nothing else;
    ``live_style`` follows the page's style."""
    style = _asset("page.css") + "\n" + species_style(species) + "\n" + live_style
    script = live_script + _asset("page.js")
    connect = "connect-src 'self'; " if live_script else ""
    policy = (
        f"default-src 'none'; script-src {csp_hash(script)}; style-src {csp_hash(style)}; {connect}"
        "img-src 'none'; base-uri 'none'; form-action 'none'"
    )
    return PAGE.format(
        policy=escape(policy),
        title=escape(title),
        preview=preview_tags(title, preview),
        style=style,
        data=script_json(data),
        script=script,
    )


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="arbo export">
<title>{title}</title>
{preview}<style>{style}</style>
</head>
<body>
<noscript><p>This page replays an Arboretum game with its own script: allow scripts for this file to step through it.</p></noscript>
<section id="games" aria-label="Games">
<h1>{title}</h1>
<ol id="game-list"></ol>
</section>
<header class="page-head">
<button type="button" id="back-to-list" hidden>&larr; Games</button>
<span class="brand">arbo</span>
<h1 id="game-title">{title}</h1>
<div class="about" id="game-about"></div>
</header>
<main id="game">
<div class="controls" role="toolbar" aria-label="Replay">
<div class="nav">
<button type="button" id="start" title="Start of the line (Home)" aria-label="Start"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 4h2v16H5zM20 4v16L9 12z"/></svg></button>
<button type="button" id="back" title="Previous turn (Left)" aria-label="Previous turn"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M17 4v16L6 12z"/></svg></button>
<button type="button" id="forward" title="Next turn (Right)" aria-label="Next turn"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4v16l11-8z"/></svg></button>
<button type="button" id="end" title="End of the line (End)" aria-label="End"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M17 4h2v16h-2zM4 4v16l11-8z"/></svg></button>
<button type="button" id="play" aria-pressed="false" title="Play the game turn by turn (p)">Play</button>
<select id="speed" aria-label="Speed of play" title="Speed of play">
<option value="2000">0.5&times;</option>
<option value="1000" selected>1&times;</option>
<option value="500">2&times;</option>
<option value="250">4&times;</option>
</select>
</div>
<div class="where" aria-live="polite"><span id="status"></span><span id="deck"></span></div>
<div class="options">
<button type="button" id="score-here" aria-pressed="false" title="Score as if the game ended here (s)">Score here</button>
<button type="button" id="knowledge-toggle" aria-pressed="false" title="What the view knows: unseen cards, rights to score (k)">Knowledge</button>
<label id="view-field">View <select id="view"></select></label>
</div>
<div class="keys"><kbd>&larr;</kbd> <kbd>&rarr;</kbd> turns, <kbd>Home</kbd> <kbd>End</kbd> ends of the line, <kbd>v</kbd> variations, <kbd>Esc</kbd> leave a variation, <kbd>s</kbd> scoring, <kbd>k</kbd> knowledge, <kbd>p</kbd> play / pause</div>
</div>
<div id="board" aria-label="Arboretums"></div>
<aside id="side">
<section id="notes" aria-live="polite"></section>
<section id="moves-box"><h2>Moves</h2><ol id="moves"></ol></section>
<section id="margin-box" hidden><h2>Expected margin (arbo analyse)</h2><div id="margin-graph"></div><ul id="accuracy" hidden></ul><p id="accuracy-rule"></p></section>
</aside>
<section id="scoring" hidden></section>
<section id="knowledge" hidden></section>
<section id="final">
<h2 id="final-title">Final position</h2>
<div id="final-board"></div>
<div id="final-scoring"></div>
</section>
</main>
<script type="application/json" id="arbo-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
