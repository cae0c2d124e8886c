"""The .arb notation: grammar, parser, typed records, canonical writer and structured conversions.

    from arbo_notation.notation import parse, parse_file, format_game

    games = parse_file("club.arb")          # NotationErrors if any game has a syntax error
    text = format_games(games)               # canonical text; parse(text) gives the same records

Names are loaded on first use, so that importing one module of the notation (the records, say)
does not load lark and the YAML library with it.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "convert": (
        "DataError", "dumps_json", "dumps_yaml", "game_from_data", "game_to_data",
        "games_from_data", "games_to_data", "loads_json", "loads_yaml",
    ),
    "header": ("header_from_mapping", "read_header"),
    "headerwriter": ("format_header",),
    "record": (
        "GLYPHS", "HEADER_KEYS", "RESERVED_NAMES", "Comment", "Draw", "DrawKind", "GameRecord",
        "Header", "Pos", "Result", "Reveal", "Turn", "Variation",
    ),
    "reading": ("GameSpan", "ParseOutcome", "parse", "parse_all", "parse_file", "parse_file_all"),
    "writer": ("check_writable", "format_game", "format_games", "format_turn", "renumber"),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
