"""The .arb notation: grammar, parser, typed records, canonical writer and structured conversions.

    from arbo_notation.notation import parse, format_games

    games = parse(text, "club.arb")          # NotationErrors if any game has a syntax error
    text = format_games(games)               # canonical text; parse(text) gives the same records

Names are loaded on first use, so that importing one module of the notation (the records, say)
does not load lark and the YAML library with it. A program reads files with the library's
readers (``arbo.read_games(path)``, ``arbo.iter_games(path)``: arbo_notation/api.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    # What a type checker reads instead of the lazy loader (as in arbo_notation/__init__.py)
    from arbo_notation.notation.header.keys import (
        HEADER_KEYS as HEADER_KEYS,
        format_header as format_header,
        header_from_mapping as header_from_mapping,
    )
    from arbo_notation.notation.header.read import read_header as read_header
    from arbo_notation.notation.model import (
        Comment as Comment,
        GLYPHS as GLYPHS,
        GameRecord as GameRecord,
        Header as Header,
        Pos as Pos,
        RESERVED_NAMES as RESERVED_NAMES,
        Result as Result,
        Reveal as Reveal,
        Turn as Turn,
        Variation as Variation,
    )
    from arbo_notation.notation.reading.reader import (
        GameSpan as GameSpan,
        ParseOutcome as ParseOutcome,
        parse as parse,
        parse_all as parse_all,
    )
    from arbo_notation.notation.structured.convert import (
        DataError as DataError,
        dumps_json as dumps_json,
        dumps_yaml as dumps_yaml,
        game_from_data as game_from_data,
        game_to_data as game_to_data,
        games_from_data as games_from_data,
        games_to_data as games_to_data,
        loads_json as loads_json,
        loads_yaml as loads_yaml,
    )
    from arbo_notation.notation.writer import (
        check_writable as check_writable,
        format_game as format_game,
        format_games as format_games,
        format_turn as format_turn,
        renumber as renumber,
    )
else:
    __all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
