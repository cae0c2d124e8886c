"""The library's front door: read records, replay them into game trees, score and check them.

Every function here raises an ``ArboError`` (never a bare ``OSError`` or a lark exception) for
input it cannot use; ``check`` alone collects findings instead of raising.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable, Iterator
from typing import IO, Sequence, Union

from arbo_notation.engine.scoring import ScoreSheet
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError, Code, Diagnostic, NotationErrors
from arbo_notation.notation.model import GameRecord
from arbo_notation.notation.reading.reader import parse, parse_all, read_pieces
from arbo_notation.notation.reading.split import stream_games
from arbo_notation.checking.games import FileCheck, check_text
from arbo_notation.game.replay import score_game
from arbo_notation.runtime.sources import BLOCK_SIZE, decode, normalise, read_text, refuse_endless, text_blocks
from arbo_notation.game.tree import GameTree, load_tree

#: A path: a ``str`` (``"-"``: standard input) or an ``os.PathLike``. Never the text of a record:
#: that is ``parse_games``'s, so a file named like a record is read as a file, not as its name.
PathArg = Union[str, "os.PathLike[str]"]
#: An open file, text or binary (bytes are read as UTF-8, a byte order mark dropped).
OpenFile = Union[IO[str], IO[bytes]]


def read_games(source: PathArg | OpenFile) -> list[GameRecord]:
    """Every game of the record file at ``source``: a path (``"-"``: standard input) or an open
    file, text or binary, read to its end.

    Raises ``NotationErrors`` (every syntax error of the file, each located) when any game
    cannot be read, and ``ArboError`` when the file cannot be read.
    """
    text, name = _read_source(source)
    return parse_games(text, name)


def parse_games(text: str, name: str = "<string>") -> list[GameRecord]:
    """Every game of the text of a record; ``name`` is the file its messages name.

    Raises ``NotationErrors`` as ``read_games`` does.
    """
    return parse(text, name)


def read_games_from(file: OpenFile) -> list[GameRecord]:
    """Every game of an open file, text or binary, read to its end; messages name ``file.name``.

    Raises ``NotationErrors`` as ``read_games`` does (text that is not UTF-8 included).
    """
    return parse_games(*_read_file(file))


def iter_games(
    source: PathArg | OpenFile, *, on_error: Callable[[NotationErrors], object] | None = None
) -> Iterator[GameRecord]:
    """The games of a file (a path, ``"-"``, or an open file), each yielded as it is read.

    Memory holds one game and a block of text, whatever the size of the file: the file is read
    block by block and cut into games as `arbo check` does. At the first game that cannot be read
    it raises ``NotationErrors`` (that game's syntax errors, located), after yielding the games
    before it; with ``on_error``, it calls ``on_error(errors)`` instead and reads on.
    ``ArboError`` when the file cannot be read.
    """
    if isinstance(source, (str, os.PathLike)):
        if source == "-":
            import sys

            refuse_endless(sys.stdin.buffer, "<stdin>")
            name, blocks = "<stdin>", _stream_blocks(sys.stdin.buffer, "<stdin>", BLOCK_SIZE)
        else:
            name, blocks = str(source), text_blocks(source, BLOCK_SIZE)
    elif hasattr(source, "read"):
        name = _file_name(source)
        blocks = _stream_blocks(source, name, BLOCK_SIZE)
    else:
        raise ArboError(f"expected a path or an open file, not {type(source).__name__}")
    seen = None
    for span, record in read_pieces(stream_games(blocks), name):
        if span.errors and span is not seen:
            seen = span
            errors = NotationErrors(list(span.errors))
            if on_error is None:
                raise errors
            on_error(errors)
        if record is not None:
            yield record


def _read_source(source: PathArg | OpenFile) -> tuple[str, str]:
    """The text of a path ('-': standard input) or of an open file, and the name its messages
    give. An open file is what the readers took from the first (as python-chess's read_game
    does); only a str is never guessed to be a record's text (that is parse_games's)."""
    if isinstance(source, (str, os.PathLike)):
        return _read_path(source)
    if hasattr(source, "read"):
        return _read_file(source)
    raise ArboError(f"expected a path or an open file, not {type(source).__name__}")


def _read_path(path: PathArg) -> tuple[str, str]:
    """The text of the file at ``path`` ('-': standard input) and the name its messages give."""
    if path == "-":
        import sys

        refuse_endless(sys.stdin.buffer, "<stdin>")
        return decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    return read_text(path)


def _read_file(file: OpenFile) -> tuple[str, str]:
    """The text of an open file read to its end, and its name: bytes decoded as a path's are
    (NotationErrors at a byte that is not UTF-8); a text file that cannot be read or decoded
    raises ArboError, never a bare OSError or UnicodeDecodeError."""
    name = _file_name(file)
    try:
        data = file.read()
    except UnicodeDecodeError as error:  # a text file opened with an encoding its bytes break
        bad = error.object[error.start]
        raise ArboError(f"{name}: the file is not {error.encoding} text: byte 0x{bad:02x} cannot be read") from None
    except (OSError, ValueError) as error:  # ValueError: a closed file
        raise ArboError(f"{name}: cannot be read ({getattr(error, 'strerror', None) or error})") from None
    if isinstance(data, bytes):
        return decode(data, name), name
    if not isinstance(data, str):
        raise ArboError(f"{name}: read() gave {type(data).__name__}, not text or bytes")
    return data, name


def _file_name(file: OpenFile) -> str:
    if not hasattr(file, "read"):
        raise ArboError(f"expected an open file, not {type(file).__name__}")
    return str(getattr(file, "name", "<stream>"))


def _stream_blocks(file: OpenFile, name: str, size: int) -> Iterator[str]:
    """The normalised text of an open file a block at a time (as text_blocks gives a path's).
    Bytes that are not UTF-8 raise NotationErrors at their line and column in the file."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    lines_before = 0  # line ends in the text given so far
    tail = b""  # the bytes of the line not yet ended, for the column of a bad byte
    held = ""  # a CR at the end of a block, which may open a CRLF
    first = True
    while True:
        data = file.read(size)
        if isinstance(data, bytes):
            try:
                text = decoder.decode(data, final=not data)
            except UnicodeDecodeError:
                _raise_located(tail + data, name, lines_before)
                raise
            end = data.rfind(b"\n")
            tail = tail + data if end < 0 else data[end + 1 :]
        else:
            text = data
        lines_before += text.count("\n")
        if first and text:
            first = False
            if text.startswith("\ufeff"):  # as normalise: a mark in text, or a second one in bytes
                text = text[1:]
        text = held + text
        held = ""
        if data and text.endswith("\r"):
            text, held = text[:-1], "\r"
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text:
            yield text
        if not data:
            return


def _raise_located(data: bytes, name: str, lines_before: int) -> None:
    """NotationErrors for the bad byte in ``data``, whose first line is line ``lines_before + 1``."""
    try:
        decode(data, name)
    except NotationErrors as error:
        for located in error.errors:
            located.line += lines_before
        raise


def replay(record: GameRecord, source_lines: Sequence[str] | None = None) -> GameTree:
    """Replay a game once into its tree: every turn played in every line a node with its position.

    ``source_lines`` (the record's text split into lines) lets diagnostics show the source line.
    Raises ``ArboError`` when the header sets up no game; rule errors of the turns are the tree's
    ``diagnostics``. Each line goes on past the slips whose outcome the record's facts give (their
    nodes' ``faults``) and stops at any other illegal turn (the ``error`` of the node before it).
    """
    return load_tree(record, source_lines)


def score(position: Game) -> ScoreSheet:
    """The scoring of a position, as if the game ended there: rights, best paths, totals, winner.

    Raises ``ArboError`` when a hand in it is not known (a record's hidden cards).
    """
    hidden = position.hidden_players()
    if hidden:
        raise ArboError(f"cannot score: the hand of {', '.join(hidden)} is not known")
    return score_game(position)


def check(source: PathArg | OpenFile) -> FileCheck:
    """What `arbo check` finds in one source: ``.games`` (each game's replay, with its
    ``diagnostics`` and ``valid``), the syntax errors, every diagnostic in order, ``.valid``.

    Bad input never raises: a file that cannot be read gives a check with one ``file``
    diagnostic, and text that is not UTF-8 a located ``syntax`` one.
    """
    try:
        text, name = _read_source(source)
    except NotationErrors as error:
        name = error.errors[0].file
        unreadable = FileCheck(name, syntax=[Diagnostic.from_notation_error(e) for e in error.errors])
        unreadable.invalid_games = 1
        return unreadable
    except ArboError as error:
        name = str(getattr(source, "name", "<stream>")) if hasattr(source, "read") else str(source)
        unreadable = FileCheck(name, syntax=[Diagnostic(Code.FILE, str(error).removeprefix(f"{name}: "), name)])
        unreadable.invalid_games = 1
        return unreadable
    return check_text(text, name)


def load_game(source: PathArg | OpenFile, number: int = 1) -> GameTree:
    """Game ``number`` (1-based) of the record file at ``source`` (a path or an open file, as
    ``read_games`` takes), replayed into its tree.

    Syntax errors of other games are not this game's business; its own raise ``NotationErrors``.
    Raises ``GameNotFound`` (an ``ArboError``) when the source holds no such game.
    """
    text, name = _read_source(source)
    return game_tree(text, name, number)


def game_tree(text: str, name: str, number: int = 1) -> GameTree:
    """Game ``number`` (1-based) of a record's text, replayed into its tree (see ``load_game``;
    `arbo state` reads its file itself, then this)."""
    outcome = parse_all(text, name)
    records = {record.index: record for record in outcome.games}
    count = len(outcome.games) + outcome.unreadable
    if number < 1 or number > count:
        raise GameNotFound(f"{name} holds {count} game{'s' if count != 1 else ''}; there is no game {number}")
    if number not in records:
        errors = [error for error in outcome.errors if outcome.game_of(error) in (number, None)]
        raise NotationErrors(errors or outcome.errors)
    # not splitlines(): it breaks lines at U+2028 and the like, which a record holds as text
    return load_tree(records[number], normalise(text).split("\n"))


class GameNotFound(ArboError):
    """A game number that the source does not hold (a usage error at the command line)."""


__all__ = [
    "GameNotFound",
    "OpenFile",
    "PathArg",
    "check",
    "game_tree",
    "iter_games",
    "load_game",
    "parse_games",
    "read_games",
    "read_games_from",
    "replay",
    "score",
]
