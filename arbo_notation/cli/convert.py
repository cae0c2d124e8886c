"""`arbo convert`: records to and from their structured JSON and YAML forms, losslessly."""

from __future__ import annotations

from enum import Enum
from pathlib import PurePath
from typing import Optional

import typer

from ..errors import ArboError, NotationErrors
from .common import EXIT_INVALID, echo_error, read_input


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


def convert(
    file: str = typer.Argument(..., help="A record: .arb, .json or .yaml ('-' reads standard input)."),
    to: Format = typer.Option(..., "--to", help="The form to write."),
    source: Optional[Format] = typer.Option(None, "--from", help="The input's form (default: by extension or content)."),
) -> None:
    """Convert records between .arb and a lossless structured form (JSON or YAML).

    Everything survives: headers with unknown keys, comments, glyphs, variations and unknown
    cards; converting to JSON and back to .arb gives what `arbo fmt` gives.

    Examples:

        arbo convert game.arb --to json > game.json

        arbo convert game.json --to arb
    """
    try:
        text, name = read_input(file)
        games = read_records(text, name, source or detect_format(name, text))
        typer.echo(write_records(games, to), nl=False)
    except NotationErrors as errors:
        for error in errors.errors:
            echo_error(error)
        raise typer.Exit(EXIT_INVALID)
    except ArboError as error:
        echo_error(error)
        raise typer.Exit(EXIT_INVALID)


def register(app: typer.Typer) -> None:
    app.command()(convert)
