"""`arbo convert`: records to and from their structured JSON and YAML forms, losslessly."""

from __future__ import annotations

from enum import Enum
from pathlib import PurePath
from typing import Iterable, Iterator, Optional

import typer

from ..errors import ArboError, NotationErrors
from .common import EXIT_INVALID, echo_error, read_input, write_data
from .usage import one_of


class Format(str, Enum):
    arb = "arb"
    json = "json"
    yaml = "yaml"


def detect_format(name: str, text: str) -> Format:
    """A file's format by its extension, else by its first character."""
    suffix = PurePath(name).suffix.lower()
    if suffix == ".json":
        return Format.json
    if suffix in (".yaml", ".yml"):
        return Format.yaml
    if suffix == ".arb":
        return Format.arb
    return Format.json if text.lstrip().startswith(("{", "[")) else Format.arb


def read_records(text: str, name: str, form: Format):
    from ..notation import convert as structured
    from ..notation.reading import parse_all

    if form is Format.json:
        return structured.loads_json(text, name)
    if form is Format.yaml:
        return structured.loads_yaml(text, name)
    outcome = parse_all(text, name)
    if outcome.errors:
        raise NotationErrors(outcome.errors)
    return outcome.games


def write_records(games, form: Format) -> str:
    from ..notation import convert as structured
    from ..notation.writer import format_games

    if form is Format.json:
        return structured.dumps_json(games)
    if form is Format.yaml:
        return structured.dumps_yaml(games)
    return format_games(games)


FORMAT_NAMES = ("json", "yaml", "arb")


def _format_names(incomplete: str) -> list[str]:
    return [name for name in FORMAT_NAMES if name.startswith(incomplete)]


def _arb_games(pieces: Iterator, name: str) -> Iterator:
    """The records of .arb text cut into games, a game at a time; NotationErrors at the end, with
    every syntax error, when there is any (the games before it were given already)."""
    from ..notation.reading import read_pieces

    errors = []
    for span, game in read_pieces(pieces, name):
        errors.extend(span.errors)
        if not errors and game is not None:
            yield game
    if errors:
        raise NotationErrors(errors)


def _streamed_games(path: str, name: str, form: Format) -> Iterator:
    """The games of a file read a game at a time (NotStreamable: read it whole instead)."""
    from ..notation.games import stream_games
    from ..notation.structstream import json_games, yaml_games
    from ..sources import text_blocks

    if form is Format.arb:
        return _arb_games(stream_games(text_blocks(path)), name)
    if form is Format.json:
        return json_games(text_blocks(path, normalised=False), name)
    return yaml_games(text_blocks(path, normalised=False), name)


def _pieces(games: Iterable, form: Format) -> Iterator[str]:
    """write_records(games, form), a game at a time."""
    from ..notation.structstream import json_pieces, yaml_pieces
    from ..notation.writer import format_game

    if form is Format.json:
        return json_pieces(games)
    if form is Format.yaml:
        return yaml_pieces(games)
    return (format_game(game) if index == 0 else "\n" + format_game(game) for index, game in enumerate(games))


def _first_text(path: str) -> str:
    """The start of a file's text, enough to tell JSON from .arb ('' for an empty file)."""
    from ..sources import text_blocks

    seen = ""
    for block in text_blocks(path, 1 << 16, normalised=False):
        seen += block
        if seen.strip():
            break
    return seen


def convert(
    file: str = typer.Argument(
        ..., metavar="FILE", help="A record: .arb, .json or .yaml ('-' reads standard input)."
    ),
    to: Format = typer.Option(
        ..., "--to", metavar="FORMAT", parser=one_of("--to", FORMAT_NAMES, Format), autocompletion=_format_names,
        help="The form to write: json, yaml or arb.",
    ),
    source: Optional[Format] = typer.Option(
        None, "--from", metavar="FORMAT", parser=one_of("--from", FORMAT_NAMES, Format), autocompletion=_format_names,
        help="The input's form: json, yaml or arb (default: by extension or content).",
    ),
) -> None:
    """Convert records between .arb and a lossless structured form (JSON or YAML).

    Everything survives: headers with unknown keys, comments, glyphs, variations and unknown
    cards; converting to JSON and back to .arb gives what `arbo fmt` gives.

    Examples:

        arbo convert game.arb --to json > game.json

        arbo convert game.json --to arb
    """
    from ..notation.structstream import NotStreamable
    from ..spool import Spool

    try:
        out = Spool()
        try:
            if file == "-":
                raise NotStreamable
            form = source or detect_format(file, _first_text(file))
            for piece in _pieces(_streamed_games(file, file, form), to):
                out.write(piece)
        except NotStreamable:  # standard input, JSON or YAML laid out otherwise or with a fault: whole
            out.close()
            out = Spool()
            text, name = read_input(file)
            games = read_records(text, name, source or detect_format(name, text))
            for piece in _pieces(games, to):
                out.write(piece)
        for piece in out.pieces():  # a game at a time, as one echo of the whole
            write_data(piece)
    except NotationErrors as errors:
        for error in errors.errors:
            echo_error(error)
        raise typer.Exit(EXIT_INVALID)
    except ArboError as error:
        echo_error(error)
        raise typer.Exit(EXIT_INVALID)
    finally:
        out.close()


def register(app: typer.Typer) -> None:
    app.command()(convert)
