"""The .arb notation: grammar, parser, typed records, canonical writer and structured conversions.

    from arbo_notation.notation import parse, parse_file, format_game

    games = parse_file("club.arb")          # NotationErrors if any game has a syntax error
    text = format_games(games)               # canonical text; parse(text) gives the same records
"""

from .convert import (
    DataError,
    dumps_json,
    dumps_yaml,
    game_from_data,
    game_to_data,
    games_from_data,
    games_to_data,
    loads_json,
    loads_yaml,
)
from .header import format_header, header_from_mapping, read_header
from .record import (
    GLYPHS,
    HEADER_KEYS,
    RESERVED_NAMES,
    Comment,
    Draw,
    DrawKind,
    GameRecord,
    Header,
    Pos,
    Result,
    Reveal,
    Turn,
    Variation,
)
from .syntax import GameSpan, ParseOutcome, parse, parse_all, parse_file, parse_file_all
from .writer import check_writable, format_game, format_games, format_turn, renumber

__all__ = [
    "GLYPHS",
    "HEADER_KEYS",
    "RESERVED_NAMES",
    "Comment",
    "DataError",
    "Draw",
    "DrawKind",
    "GameRecord",
    "GameSpan",
    "Header",
    "ParseOutcome",
    "Pos",
    "Result",
    "Reveal",
    "Turn",
    "Variation",
    "check_writable",
    "dumps_json",
    "dumps_yaml",
    "format_game",
    "format_games",
    "format_header",
    "format_turn",
    "game_from_data",
    "game_to_data",
    "games_from_data",
    "games_to_data",
    "header_from_mapping",
    "loads_json",
    "loads_yaml",
    "parse",
    "parse_all",
    "parse_file",
    "parse_file_all",
    "read_header",
    "renumber",
]
