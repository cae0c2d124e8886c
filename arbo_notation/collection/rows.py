"""The rows of a corpus's three tables (games, turns, scores), a game at a time: what the Parquet
export writes and what `arbo stats` counts, made by the replayer; no pyarrow here.

The schema (columns, their types, its version) is written once, below, the header's columns
derived from the header's key rows (notation/header/keys.py: a column a key, its type told by
the key's kind); docs/DATA.md documents it and a test holds the two equal. Every game read gives one row of ``games``, a valid one or not
(``valid`` false and its first error in ``error``), so a bad game is flagged, never dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence

from arbo_notation.engine.scoring import ScoreSheet
from arbo_notation.engine.totals import score_totals
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError, Diagnostic, NotationErrors, Severity
from arbo_notation.notation.reading.split import GameText, SourceLines
from arbo_notation.notation.header.keys import HEADER_KEY_ROWS, HeaderKey
from arbo_notation.engine.actions import Draw
from arbo_notation.notation.model import GameRecord, Header, Turn, draw_kind
from arbo_notation.notation.reading import scanner
from arbo_notation.notation.reading.faults import preamble_error, unclosed_error
from arbo_notation.notation.reading.reader import read_game_text
from arbo_notation.notation.writer import first_turn
from arbo_notation.runtime.sources import read_text, records_under
from arbo_notation.checking.files import game_pieces
from arbo_notation.checking.games import GameLines
from arbo_notation.game.replay import replay_game

#: Raised whenever a column is added, removed, renamed or changes its type or meaning; written in
#: each Parquet file's metadata as ``arbo.schema_version``.
SCHEMA_VERSION = 3


def _map(items: Iterable[tuple[Any, Any]]) -> list[tuple[Any, Any]] | None:
    """A map column's value: its (key, value) pairs, in order; None when there are none."""
    pairs = list(items)
    return pairs or None


def _cards(cards: Iterable[Any]) -> list[str]:
    return [str(card) for card in cards]


#: The column of each kind of header value (a header key row's ``kind``): its type, and how the
#: Header's value of the key becomes the column's.
_HEADER_KINDS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "text": ("string", lambda value: value),
    "ISO date": ("string", lambda value: value),
    "a player": ("string", lambda value: value),
    "list of names": ("list<string>", list),
    "list of codes": ("list<string>", list),
    "code → text": ("map<string,string>", lambda value: _map(value.items())),
    "list of cards": ("list<string>", lambda value: None if value is None else _cards(value)),
    "player → cards": (
        "map<string,list<string>>",
        lambda value: _map((name, _cards(cards)) for name, cards in value.items()),
    ),
    "player → score": ("map<string,int32>", lambda value: None if value is None else _map(value.items())),
    "position": ("string", lambda value: None if value is None else str(value)),
}
#: A header key whose column has another name (``result`` is the column of the result line's scores).
_COLUMN_NAMES = {"result": "header_result"}
#: The columns that follow a header key's own, made from its value.
_DERIVED_COLUMNS: dict[str, tuple[tuple[str, str, Callable[[Any], Any]], ...]] = {
    "players": (("start_player", "string", lambda players: players[0] if players else None),),
}


@dataclass(frozen=True, slots=True)
class HeaderColumn:
    """A column of ``games`` made from a header key: its name, its type, the Header attribute
    it reads (the key's name) and how that value becomes the column's."""

    name: str
    type: str
    key: str
    value: Callable[[Any], Any]


def header_columns(rows: Iterable[HeaderKey] = HEADER_KEY_ROWS) -> tuple[HeaderColumn, ...]:
    """The header's columns of ``games``, from the header's key rows: a column a key (and the
    columns made from it), in the table's order."""
    columns: list[HeaderColumn] = []
    for row in rows:
        if row.kind not in _HEADER_KINDS:
            raise ArboError(
                f"the header key {row.name!r} is of the kind {row.kind!r}, which has no column "
                "type: give it one in corpus._HEADER_KINDS"
            )
        kind, value = _HEADER_KINDS[row.kind]
        columns.append(HeaderColumn(_COLUMN_NAMES.get(row.name, row.name), kind, row.name, value))
        columns += [HeaderColumn(name, kind, row.name, made) for name, kind, made in _DERIVED_COLUMNS.get(row.name, ())]
    return tuple(columns)


HEADER_COLUMNS = header_columns()

#: The columns of each table in order, with their types: string, bool, int32, list<T> and
#: map<K,V> as Arrow (and Parquet, DuckDB, Spark) name them.
SCHEMA: dict[str, tuple[tuple[str, str], ...]] = {
    "games": (
        ("file", "string"),
        ("game", "int32"),
        ("line", "int32"),
        ("valid", "bool"),
        ("error", "string"),
        *((column.name, column.type) for column in HEADER_COLUMNS),
        ("extra", "string"),
        ("turns", "int32"),
        ("finished", "bool"),
        ("result", "list<int32>"),
        ("scores", "list<int32>"),
        ("species_planted", "list<int32>"),
        ("winners", "list<string>"),
        ("tiebreak", "string"),
        ("judged", "list<int32>"),
        ("points_lost", "list<double>"),
        ("accuracy", "list<double>"),
    ),
    "turns": (
        ("file", "string"),
        ("game", "int32"),
        ("turn", "int32"),
        ("player", "string"),
        ("draw1_source", "string"),
        ("draw1_pile", "string"),
        ("draw1_card", "string"),
        ("draw2_source", "string"),
        ("draw2_pile", "string"),
        ("draw2_card", "string"),
        ("planted", "string"),
        ("x", "int32"),
        ("y", "int32"),
        ("discarded", "string"),
        ("glyphs", "list<string>"),
        ("legal", "bool"),
        ("score", "int32"),
    ),
    "scores": (
        ("file", "string"),
        ("game", "int32"),
        ("player", "string"),
        ("seat", "int32"),
        ("species", "string"),
        ("hand_sum", "int32"),
        ("has_right", "bool"),
        ("points", "int32"),
        ("path", "list<string>"),
        ("cards", "int32"),
        ("same_species", "int32"),
        ("starts_with_1", "int32"),
        ("ends_with_8", "int32"),
    ),
}

TABLES = tuple(SCHEMA)

#: What a command that needs pyarrow or duckdb says when they are not installed.
NEEDS_DATA_EXTRA = (
    "{module} is not installed: the Parquet export and `arbo stats` need arbo's 'data' extra, "
    "some 240 MB installed: pip install '.[data]' in arbo's checkout, or pip install pyarrow duckdb"
)


#: A row of a table: its columns' values in SCHEMA's order (strings, numbers, flags, lists, maps as
#: (key, value) pairs, nulls). Any, as a JSON object's values are: SCHEMA, not Python's types,
#: says what each column holds.
Row = tuple[Any, ...]


@dataclass(slots=True)
class GameRows:
    """The rows one game gives: one of ``games``, one per main-line turn, one per player and
    species once the game is scored; each row a tuple in the order of SCHEMA."""

    game: Row
    turns: list[Row] = field(default_factory=list)
    scores: list[Row] = field(default_factory=list)
    chars: int = 0  # of the game's text, for a progress bar

    def of(self, table: str) -> list[Row]:
        return [self.game] if table == "games" else self.turns if table == "turns" else self.scores

    @property
    def number(self) -> int:
        """The game's place in its file (its ``game``)."""
        number: int = self.game[1]
        return number

    @property
    def valid(self) -> bool:
        valid: bool = self.game[3]
        return valid

    @property
    def error(self) -> str | None:
        """Its first error, as `arbo check` prints it (None when valid)."""
        error: str | None = self.game[4]
        return error


def game_rows(file: str, piece: GameText, *, with_turns: bool = True) -> GameRows:
    """The rows of one game cut from the file ``file`` (as given), read and replayed; a game that
    cannot be read gives a ``games`` row with ``valid`` false, its syntax error, and what of its
    header could be read."""
    lines = GameLines(piece.text, piece.first_line)
    if not piece.closed:
        error = Diagnostic.from_notation_error(unclosed_error(piece.first_line, file, lines))
        return fit_columns(GameRows(_unread_row(file, piece, None, error)))
    header = scanner.read_header_of(piece.text, file, piece.first_line)
    records, errors = read_game_text(piece.text, file, piece.first_line, lines, header, index=piece.index)
    if errors:
        error = Diagnostic.from_notation_error(errors[0])
        return fit_columns(GameRows(_unread_row(file, piece, header[0] if header else None, error)))
    return record_rows(file, records[0], line=piece.first_line, source_lines=lines, with_turns=with_turns)


def record_rows(
    file: str,
    record: GameRecord,
    *,
    line: int | None = None,
    source_lines: Sequence[str] | None = None,
    with_turns: bool = True,
) -> GameRows:
    """The rows of one game's record, replayed (``record.index`` is its ``game``)."""
    mover_scores: list[int | None] = []

    def score_each_turn(turn: Turn, game: Game, depth: int) -> None:
        if depth == 0:
            mover_scores.append(_score_as_if_over(game, turn.player))

    replay = replay_game(record, source_lines=source_lines, hook=score_each_turn if with_turns else None)
    errors = [d for d in replay.diagnostics if d.severity is Severity.ERROR]
    first = min(errors, key=lambda d: (d.line or 0, d.column or 0)) if errors else None  # as check orders them
    rows = GameRows(_game_row(file, record, line, first, replay.sheet))
    if with_turns:
        number = first_turn(record)
        rows.turns = [
            _turn_row(file, record.index, index, number + index, turn, mover_scores)
            for index, turn in enumerate(record.turns)
        ]
    if replay.sheet is not None:
        rows.scores = list(_score_rows(file, record.index, replay.sheet))
    return fit_columns(rows)


#: The values an int32 column holds.
INT32_RANGE = range(-(1 << 31), 1 << 31)


def _fit(value: Any, kind: str) -> tuple[Any, int | None]:
    """A value of a column of type ``kind`` made to fit it (a number out of int32's range
    becomes null, in a list or a map too), and the first number that did not fit (None if all did)."""
    if value is None:
        return None, None
    if kind == "int32":
        return (value, None) if value in INT32_RANGE else (None, value)
    if kind == "list<int32>":
        wide = next((item for item in value if item is not None and item not in INT32_RANGE), None)
        return ([item if item is None or item in INT32_RANGE else None for item in value], wide)
    if kind == "map<string,int32>":
        wide = next((item for _, item in value if item is not None and item not in INT32_RANGE), None)
        return ([(key, item if item is None or item in INT32_RANGE else None) for key, item in value], wide)
    return value, None


#: The columns of each table that hold int32 numbers: (index, name, type).
_NUMBER_COLUMNS = {
    table: tuple((index, name, kind) for index, (name, kind) in enumerate(columns) if "int32" in kind)
    for table, columns in SCHEMA.items()
}


def _shown_number(value: int) -> str:
    """A number as a message gives it: whole when short, else its size (Python refuses to
    write out a number of more than some 4,300 digits)."""
    return (
        str(value)
        if value.bit_length() <= 128
        else f"a number of some {int(value.bit_length() * 0.30103) + 1:,} digits"
    )


def _utf8(text: str) -> str:
    """The text as a string column holds it: a file name's bytes that are not UTF-8 (held as
    lone surrogates) written as ``\\xff``; the same object when there are none."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def fit_columns(rows: GameRows) -> GameRows:
    """The rows with every number that does not fit its int32 column made null; the game is
    then not valid, its error naming the first such column (a game already invalid keeps its
    own error), so the game is exported flagged, never the whole corpus lost. A file name that
    is not UTF-8 is written with its other bytes as ``\\xff``."""
    first: tuple[str, int] | None = None
    file = rows.game[0]
    shown_file = _utf8(file)
    for table in TABLES:
        numbers = _NUMBER_COLUMNS[table]
        fitted_rows = []
        for row in rows.of(table):
            values = list(row)
            if shown_file is not file:  # a file name that is not UTF-8: its bytes written as \xff
                values[0] = shown_file
                if table == "games" and values[4] is not None:
                    values[4] = _utf8(values[4])
            for index, name, kind in numbers:
                values[index], wide = _fit(values[index], kind)
                if wide is not None and first is None:
                    first = (f"{table}.{name}", wide)
            fitted_rows.append(tuple(values))
        if table == "games":
            rows.game = fitted_rows[0]
        elif table == "turns":
            rows.turns = fitted_rows
        else:
            rows.scores = fitted_rows
    if first is not None and rows.valid:
        file, line = rows.game[0], rows.game[2]
        where = f"{file}:{line}" if line is not None else file
        error = (
            f"{where}: error: {first[0]} cannot hold {_shown_number(first[1])}: the export's numbers are "
            f"32-bit (written as null) [range]"
        )
        rows.game = (*rows.game[:3], False, error, *rows.game[5:])
    return rows


def _score_as_if_over(game: Game, player: str) -> int | None:
    """The player's total were the game to end now (None while a hand is not known)."""
    if game.hidden_players():
        return None
    return score_totals(game.config.species, game.end_table(), only=player)[player]


def _error_text(error: Diagnostic) -> str:
    """The first line `arbo check` prints for the error."""
    return error.show().split("\n", 1)[0]


def _header_columns(header: Header | None) -> Row:
    """The columns of HEADER_COLUMNS, then ``extra`` (the unknown keys, as JSON)."""
    if header is None:
        return (None,) * (len(HEADER_COLUMNS) + 1)
    return (
        *(column.value(getattr(header, column.key)) for column in HEADER_COLUMNS),
        json.dumps(header.extra, default=str, ensure_ascii=False) if header.extra else None,
    )


def _unread_row(file: str, piece: GameText, header: Header | None, error: Diagnostic) -> Row:
    return (
        file,
        piece.index,
        piece.first_line,
        False,
        _error_text(error),
        *_header_columns(header),
        None,
        False,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    )


def _judged_columns(
    record: GameRecord,
) -> tuple[list[int], list[float], list[float | None]] | tuple[None, None, None]:
    """``judged``, ``points_lost`` and ``accuracy`` in seat order, from the engine's notes (all
    null when no turn of the game carries one)."""
    # deferred: the analysis package (~20 ms: its search and rollouts), at the first game's row, not for `arbo grep`
    from arbo_notation.analysis.accuracy import Accuracy, of_record

    found = {summary.player: summary for summary in of_record(record)}
    if not found:
        return None, None, None
    players = [found.get(name, Accuracy(name)) for name in record.header.players]
    return (
        [p.turns for p in players],
        [p.points_lost for p in players],
        [p.accuracy if p.turns else None for p in players],
    )


def _game_row(
    file: str, record: GameRecord, line: int | None, error: Diagnostic | None, sheet: ScoreSheet | None
) -> Row:
    players = record.header.players
    result = record.result
    written = result.as_dict() if result is not None and not result.unfinished else None  # None: unfinished
    return (
        file,
        record.index,
        line,
        error is None,
        None if error is None else _error_text(error),
        *_header_columns(record.header),
        len(record.turns),
        written is not None,
        [written.get(name) for name in players] if written is not None else None,
        [sheet.player(name).total for name in players] if sheet is not None else None,
        [sheet.player(name).species_planted for name in players] if sheet is not None else None,
        list(sheet.winners) if sheet is not None else None,
        None if sheet is None or sheet.tiebreak is None else str(sheet.tiebreak),
        *_judged_columns(record),
    )


def _draw_columns(turn: Turn, index: int) -> tuple[str | None, str | None, str | None]:
    if index >= len(turn.draws):
        return None, None, None
    draw = turn.draws[index]
    if not isinstance(draw, Draw):
        return draw_kind(draw), None, None
    return draw_kind(draw), draw.owner, None if draw.card is None else str(draw.card)


def _turn_row(file: str, game: int, index: int, number: int, turn: Turn, scores: list[int | None]) -> Row:
    """The row of the main line's turn of that ``index`` (its ``number`` in the game)."""
    legal = index < len(scores)
    cell = turn.plant.coord
    return (
        file,
        game,
        number,
        turn.player,
        *_draw_columns(turn, 0),
        *_draw_columns(turn, 1),
        str(turn.plant.card),
        cell.x,
        cell.y,
        str(turn.discard),
        list(turn.glyphs),
        legal,
        scores[index] if legal else None,
    )


def _score_rows(file: str, game: int, sheet: ScoreSheet) -> Iterator[Row]:
    for seat, player in enumerate(sheet.players, 1):
        for code in sheet.species:
            scored = player.species[code]
            path = scored.path
            parts = (path.card_points, path.same_species_bonus, path.start_bonus, path.end_bonus) if path else (0,) * 4
            plantings = [f"{card}@{cell}" for card, cell in zip(path.cards, path.cells, strict=True)] if path else []
            yield (
                file,
                game,
                player.name,
                seat,
                code,
                scored.hand_sum,
                scored.rights,
                scored.points,
                plantings,
                *parts,
            )


# -- the games of files and folders --------------------------------------------------------------


def expand_paths(paths: Iterable[str], skipped: Callable[[str, str], object] | None = None) -> list[str]:
    """The record files of the paths given (sources.records_under: a folder's .arb files at any
    depth, sorted, its regular files only, ``skipped`` told of the others; a folder without one
    adds no game)."""
    return records_under(list(paths), keep_empty=False, skipped=skipped)


def file_pieces(path: str) -> Iterator[str | GameText]:
    """A record file's games as stream_games cuts them (the text before the first header first),
    read block by block ('-': standard input, read whole). Raises ArboError when the file cannot
    be read (NotationErrors when it is not UTF-8)."""
    return game_pieces(path)


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def file_rows(
    path: str, *, with_turns: bool = True, report: Callable[[Diagnostic], object] | None = None
) -> Iterator[GameRows]:
    """The rows of every game of a record file (.arb; JSON or YAML read whole), a game at a time,
    with ``file`` the path as given. ``report(diagnostic)`` hears of text before the first header
    that is not a game. Raises ArboError when the file cannot be read."""
    name = display_name(path)
    if path.endswith((".json", ".yaml", ".yml")):
        yield from _structured_rows(path, name, with_turns)
        return
    for piece in file_pieces(path):
        if isinstance(piece, GameText):
            rows = game_rows(name, piece, with_turns=with_turns)
            rows.chars = len(piece.text)
            yield rows
        elif piece.strip() and report is not None:
            error, _, _ = preamble_error(piece, len(piece), name, SourceLines(piece))
            report(Diagnostic.from_notation_error(error))


def _structured_rows(path: str, name: str, with_turns: bool) -> Iterator[GameRows]:
    # deferred: the JSON and YAML readers, PyYAML with them (~25 ms), are loaded only for such a file
    from arbo_notation.notation.structured.convert import loads_json, loads_yaml

    text, _ = read_text(path)
    records = loads_json(text, name) if path.endswith(".json") else loads_yaml(text, name)
    for record in records:
        yield record_rows(name, record, with_turns=with_turns)


@dataclass(slots=True)
class Tally:
    """What a run over a corpus met: games (valid or not), and the files it could not read."""

    games: int = 0
    invalid: int = 0
    unreadable: list[str] = field(default_factory=list)
    problems: int = 0  # text before a first header that is no game


class RowSink(Protocol):
    """Where :func:`load_files` puts each game's rows."""

    def add(self, rows: GameRows) -> None: ...


def load_files(
    files: Iterable[str],
    sink: RowSink,
    *,
    with_turns: bool = True,
    invalid: Callable[[GameRows], object] | None = None,
    problem: Callable[[str], object] | None = None,
    advance: Callable[[int], object] | None = None,
) -> Tally:
    """Every game of the files into ``sink`` (its ``add(rows)``), a game at a time.

    ``invalid(rows)`` hears of each invalid game (added all the same, flagged), ``problem(text)``
    of each file that cannot be read and of text that is no game; ``advance(n)`` of each ``n``
    characters of .arb read. Never raises for bad input."""
    tally = Tally()

    def preamble(diagnostic: Diagnostic) -> None:
        tally.problems += 1
        if problem is not None:
            problem(diagnostic.show())

    for path in files:
        try:
            for rows in file_rows(path, with_turns=with_turns, report=preamble):
                sink.add(rows)
                tally.games += 1
                if not rows.valid:
                    tally.invalid += 1
                    if invalid is not None:
                        invalid(rows)
                if advance is not None:
                    advance(rows.chars)
        except NotationErrors as errors:
            tally.unreadable.append(path)
            if problem is not None:
                for error in errors.errors:
                    problem(error.show())
        except ArboError as error:
            tally.unreadable.append(path)
            if problem is not None:
                problem(f"arbo: {error}")
    return tally
