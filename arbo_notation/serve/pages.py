"""The pages `arbo serve` sends: the replayer of `arbo export` made live (share/html.py), the
multiboard and the phone's recorder. Each carries a Content-Security-Policy allowing its own
script and style (by their hashes) and requests to its own origin, nothing else; record text
reaches a page only as escaped JSON put in as text."""

from __future__ import annotations

from html import escape
from importlib import resources

from arbo_notation.serve.tables import Snapshot, board_json
from arbo_notation.share.html import csp_hash, page_html
from typing import Any


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def viewer_page(snapshot: Snapshot, title: str) -> str:
    """The replayer page of a record's public state, kept up to date by live.js."""
    return page_html(
        snapshot.data, snapshot.species, title=title, live_script=_asset("live.js"), live_style=_asset("live.css")
    )


def policy(script: str, style: str) -> str:
    return (
        f"default-src 'none'; script-src {csp_hash(script)}; style-src {csp_hash(style)}; "
        "connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'"
    )


def board_page(tables: list[dict[str, Any]], title: str) -> str:
    """The multiboard: every table of the folder with its running score."""
    script, style = _asset("board.js"), _asset("serve.css") + _asset("live.css")
    return BOARD.format(
        policy=escape(policy(script, style)),
        title=escape(title),
        style=style,
        data=board_json(tables),
        script=script,
    )


def recorder_page() -> str:
    """The phone's recorder (it holds nothing of a record: it asks with the token)."""
    script, style = _asset("recorder.js"), _asset("serve.css")
    return RECORDER.format(policy=escape(policy(script, style)), style=style, script=script)


_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="arbo serve">
"""

BOARD = (
    _HEAD
    + """<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header><h1>{title}</h1><span id="live" class="live" role="status">connecting</span></header>
<main><ol id="tables" aria-live="polite"></ol></main>
<script type="application/json" id="board-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
)

RECORDER = (
    _HEAD
    + """<title>arbo record</title>
<style>{style}</style>
</head>
<body class="recorder">
<header><h1>arbo record</h1></header>
<main>
<label for="game">Table</label>
<select id="game"></select>
<p id="prompt"></p>
<p id="hand"></p>
<form id="form" autocomplete="off">
<label for="entry">Entry</label>
<input type="text" id="entry" autocapitalize="off" autocorrect="off" spellcheck="false" maxlength="500" placeholder="d d:Ma3 Ma3@0,1 /Oa5">
<ul id="choices" aria-label="Legal now"></ul>
<p id="hint"></p>
<div class="row"><button type="submit" id="send" class="primary">Record</button><button type="button" id="undo">Undo</button></div>
</form>
<p id="message" aria-live="polite"></p>
<ol id="turns"></ol>
<details id="new" hidden>
<summary>New game</summary>
<form id="new-form" autocomplete="off">
<label for="new-players">Players, the start player first</label>
<input type="text" id="new-players" autocapitalize="words" autocorrect="off" spellcheck="false" maxlength="200" placeholder="Ana,Ben">
<label for="new-seat">Recorded from the seat of</label>
<select id="new-seat"><option value="">nobody (a referee's record)</option></select>
<label for="new-species">Species (blank: at random)</label>
<input type="text" id="new-species" autocapitalize="off" autocorrect="off" spellcheck="false" maxlength="200" placeholder="Bs,Ca,Dw,Ja,Ma,Oa">
<label for="new-event">Event</label>
<input type="text" id="new-event" maxlength="200" placeholder="Club night">
<label for="new-name">File (blank: the next tableN.arb)</label>
<input type="text" id="new-name" autocapitalize="off" autocorrect="off" spellcheck="false" maxlength="200" placeholder="table3">
<div class="row"><button type="submit" id="new-start" class="primary">Start the game</button></div>
</form>
</details>
<p id="new-note" hidden>A new game needs a folder: this server shows one file (arbo serve FOLDER).</p>
</main>
<script>{script}</script>
</body>
</html>
"""
)
