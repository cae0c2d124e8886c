"""`arbo convert`: records to and from their structured JSON and YAML forms, losslessly; and a
corpus of records to Parquet tables (games, turns, scores) for DuckDB, Polars or Spark."""

from __future__ import annotations

from enum import Enum
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Iterable, Iterator, List, Optional

import typer

from arbo_notation.errors import ArboError, NotationError, NotationErrors
from arbo_notation.notation.model import GameRecord
from arbo_notation.notation.reading.reader import parse_all, read_pieces
from arbo_notation.notation.reading.split import GameText, stream_games
from arbo_notation.notation.structured import convert as structured
from arbo_notation.notation.structured.stream import NotStreamable, json_games, json_pieces, yaml_games, yaml_pieces
from arbo_notation.notation.writer import format_game, format_games
from arbo_notation.runtime.sources import text_blocks
from arbo_notation.runtime.spool import Spool
from arbo_notation.cli.common import (
    EXIT_INVALID,
    EXIT_USAGE,
    corpus_progress,
    echo_error,
    echo_text,
    fail,
    read_input,
    say_skipped,
    say_wrote,
    write_data,
)
from arbo_notation.cli.bounds import MOST_GAMES
from arbo_notation.cli.usage import a_path, one_of, whole_number

if TYPE_CHECKING:
    from arbo_notation.collection.rows import GameRows  # loaded with --to parquet (export_parquet)


class Format(str, Enum):
    arb = "arb"
    json = "json"
    yaml = "yaml"
    parquet = "parquet"


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


def read_records(text: str, name: str, form: Format) -> list[GameRecord]:
    if form is Format.json:
        return structured.loads_json(text, name)
    if form is Format.yaml:
        return structured.loads_yaml(text, name)
    outcome = parse_all(text, name)
    if outcome.errors:
        raise NotationErrors(outcome.errors)
    return outcome.games


def write_records(games: list[GameRecord], form: Format) -> str:
    if form is Format.json:
        return structured.dumps_json(games)
    if form is Format.yaml:
        return structured.dumps_yaml(games)
    return format_games(games)


FORMAT_NAMES = ("json", "yaml", "arb")
TARGET_NAMES = (*FORMAT_NAMES, "parquet")


def _format_names(incomplete: str) -> list[str]:
    return [name for name in FORMAT_NAMES if name.startswith(incomplete)]


def _target_names(incomplete: str) -> list[str]:
    return [name for name in TARGET_NAMES if name.startswith(incomplete)]


def _arb_games(pieces: Iterator[str | GameText], name: str) -> Iterator[GameRecord]:
    """The records of .arb text cut into games, a game at a time; NotationErrors at the end, with
    every syntax error, when there is any (the games before it were given already)."""
    errors: list[NotationError] = []
    for span, game in read_pieces(pieces, name):
        errors.extend(span.errors)
        if not errors and game is not None:
            yield game
    if errors:
        raise NotationErrors(errors)


def _streamed_games(path: str, name: str, form: Format) -> Iterator[GameRecord]:
    """The games of a file read a game at a time (NotStreamable: read it whole instead)."""
    if form is Format.arb:
        return _arb_games(stream_games(text_blocks(path)), name)
    if form is Format.json:
        return json_games(text_blocks(path, normalised=False), name)
    return yaml_games(text_blocks(path, normalised=False), name)


def _pieces(games: Iterable[GameRecord], form: Format) -> Iterator[str]:
    """write_records(games, form), a game at a time."""
    if form is Format.json:
        return json_pieces(games)
    if form is Format.yaml:
        return yaml_pieces(games)
    return (format_game(game) if index == 0 else "\n" + format_game(game) for index, game in enumerate(games))


def _first_text(path: str) -> str:
    """The start of a file's text, enough to tell JSON from .arb ('' for an empty file)."""
    seen = ""
    for block in text_blocks(path, 1 << 16, normalised=False):
        seen += block
        if seen.strip():
            break
    return seen


def convert(
    files: List[str] = typer.Argument(
        ...,
        metavar="FILE...",
        help="Records: .arb, .json or .yaml ('-' reads standard input); for --to parquet, any number of "
        "files and folders (their .arb files).",
    ),
    to: Format = typer.Option(
        ...,
        "--to",
        metavar="FORMAT",
        parser=one_of("--to", TARGET_NAMES, Format),
        autocompletion=_target_names,
        help="The form to write: json, yaml or arb (one FILE, to stdout), or parquet (tables in -o DIR).",
    ),
    source: Optional[Format] = typer.Option(
        None,
        "--from",
        metavar="FORMAT",
        parser=one_of("--from", FORMAT_NAMES, Format),
        autocompletion=_format_names,
        help="The input's form: json, yaml or arb (default: by extension or content).",
    ),
    output: Optional[str] = typer.Option(
        None,
        "--output",
        "-o",
        metavar="DIR",
        parser=a_path("--output"),
        help="For --to parquet: the folder of the tables (created; an earlier export there is replaced whole, "
        "a folder holding other files refused).",
    ),
    games_per_part: int = typer.Option(
        100_000,
        "--games-per-part",
        metavar="N",
        parser=whole_number("--games-per-part", 1, MOST_GAMES),
        help="For --to parquet: games in each part file of a table.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="For --to parquet: do not say what was written."),
) -> None:
    """Convert records between .arb and a lossless structured form (JSON or YAML), or export a
    corpus to Parquet tables.

    Everything survives JSON and YAML: headers with unknown keys, comments, glyphs, variations
    and unknown cards; converting to JSON and back to .arb gives what `arbo fmt` gives.

    --to parquet writes DIR/games, DIR/turns and DIR/scores, each a folder of part-00000.parquet,
    ... that DuckDB, Polars and Spark read as one table; the tables join on (file, game), and
    docs/DATA.md gives their columns. An invalid game is exported with valid = false and its
    first error, said on stderr too (exit status 1). Needs arbo's 'data' extra (pyarrow).

    Examples:

        arbo convert game.arb --to json > game.json

        arbo convert game.json --to arb

        arbo convert club/ games.arb --to parquet -o tables/
    """
    if to is Format.parquet:
        if source is not None and source is not Format.arb:
            fail(
                "--to parquet reads .arb records (and .json or .yaml by their extension): leave out --from", EXIT_USAGE
            )
        if output is None:
            fail("--to parquet needs -o DIR, the folder to write the tables in", EXIT_USAGE)
        raise typer.Exit(export_parquet(files, Path(output), games_per_part=games_per_part, quiet=quiet))
    if output is not None:
        fail(f"-o is for --to parquet; --to {to.value} writes to standard output", EXIT_USAGE)
    if len(files) != 1:
        fail(f"--to {to.value} converts one FILE, not {len(files)}", EXIT_USAGE)
    convert_one(files[0], to, source)


def export_parquet(paths: list[str], out: Path, *, games_per_part: int, quiet: bool) -> int:
    """Write the games of the paths as Parquet tables in ``out``; the exit status."""
    # deferred: the corpus's rows (~40 ms) load only for --to parquet
    from arbo_notation.collection.rows import expand_paths, load_files

    files = expand_paths(paths, skipped=say_skipped)
    try:
        # deferred: pyarrow (~90 ms) loads only for --to parquet; ArboError when it is not installed
        from arbo_notation.collection.parquet import WRITE_ERRORS, ParquetCorpus, write_failure

        corpus = ParquetCorpus(out, games_per_part=games_per_part)
    except ArboError as error:
        echo_error(error)
        return EXIT_INVALID

    with corpus_progress(files, "exporting") as advance:
        try:
            tally = load_files(files, corpus, invalid=_say_invalid, problem=_say, advance=advance)
            corpus.close()
        except WRITE_ERRORS as error:
            corpus.abort()
            echo_error(write_failure(out, error))
            return EXIT_INVALID
        except BaseException:
            corpus.abort()
            raise
    if not quiet:
        parts = max(1, corpus.part)
        say_wrote(
            out,
            f"{tally.games} game{'' if tally.games == 1 else 's'}, {tally.invalid} invalid: "
            f"games, turns and scores in {parts} part{'' if parts == 1 else 's'} each, {corpus.bytes:,} bytes",
        )
    return EXIT_INVALID if tally.invalid or tally.unreadable or tally.problems else 0


def _say(text: str) -> None:
    echo_text(text, err=True)  # it may quote the record: no terminal commands from it


def _say_invalid(rows: GameRows) -> None:
    echo_text(f"{rows.error} (game {rows.number}, exported with valid = false)", err=True)


def convert_one(file: str, to: Format, source: Optional[Format]) -> None:
    """Convert one record between .arb, JSON and YAML, to standard output."""
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
        raise typer.Exit(EXIT_INVALID) from None
    except ArboError as error:
        echo_error(error)
        raise typer.Exit(EXIT_INVALID) from None
    finally:
        out.close()


def register(app: typer.Typer) -> None:
    app.command()(convert)
