"""The .arb notation: grammar, parser, typed records, canonical writer and structured conversions.

    from arbo_notation.notation import parse, format_games

    games = parse(text, "club.arb")          # NotationErrors if any game has a syntax error
    text = format_games(games)               # canonical text; parse(text) gives the same records

Names are loaded on first use, so that importing one module of the notation (the records, say)
does not load lark and the YAML library with it. A program reads files with the library's
readers (``arbo.read_games(path)``, ``arbo.iter_games(path)``: arbo_notation/api.py).
"""

from __future__ import annotations

from arbo_notation.runtime.lazy import lazy_exports

_EXPORTS = {
    "structured.convert": (
        "DataError",
        "dumps_json",
        "dumps_yaml",
        "game_from_data",
        "game_to_data",
        "games_from_data",
        "games_to_data",
        "loads_json",
        "loads_yaml",
    ),
    "header.read": ("read_header",),
    "header.keys": ("HEADER_KEYS", "format_header", "header_from_mapping"),
    "model": (
        "GLYPHS",
        "RESERVED_NAMES",
        "Comment",
        "Draw",
        "DrawKind",
        "GameRecord",
        "Header",
        "Pos",
        "Result",
        "Reveal",
        "Turn",
        "Variation",
    ),
    "reading.reader": ("GameSpan", "ParseOutcome", "parse", "parse_all"),
    "writer": ("check_writable", "format_game", "format_games", "format_turn", "renumber"),
}

__all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
