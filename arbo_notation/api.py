"""The library's front door: read records, replay them into game trees, score and check them.

Every function here raises an ``ArboError`` (never a bare ``OSError`` or a lark exception) for
input it cannot use; ``check`` alone collects findings instead of raising.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Sequence, Union

from arbo_notation.engine.scoring import ScoreSheet
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError, NotationErrors
from arbo_notation.notation.model import GameRecord
from arbo_notation.checking.games import FileCheck, check_text
from arbo_notation.game.replay import score_game
from arbo_notation.runtime.sources import decode, read_text
from arbo_notation.game.tree import GameTree, load_tree

#: What the readers take: a path (``str`` without a line break, or ``os.PathLike``), the text of
#: a record (a ``str`` holding a line break: a record's header always spans lines), or an open file.
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


def read_source(source: Source) -> tuple[str, str]:
    """The text of a source and the name to show in messages ('-' reads standard input)."""
    if isinstance(source, os.PathLike):
        return read_text(Path(source))
    if isinstance(source, str):
        if "\n" in source:
            return source, "<string>"
        if source == "-":
            import sys

            from arbo_notation.runtime.sources import refuse_endless

            refuse_endless(sys.stdin.buffer, "<stdin>")
            return decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
        return read_text(source)
    if hasattr(source, "read"):
        name = str(getattr(source, "name", "<stream>"))
        data = source.read()
        return (decode(data, name) if isinstance(data, bytes) else data), name
    raise ArboError(f"expected a path, the text of a record or an open file, not {type(source).__name__}")


def read_games(source: Source) -> list[GameRecord]:
    """Every game of a record: a path, a text or an open file.

    Raises ``NotationErrors`` (every syntax error of the source, each located) when any game
    cannot be read, as ``parse_file`` does, and ``ArboError`` when the file cannot be read.
    """
    from arbo_notation.notation.reading.reader import parse

    text, name = read_source(source)
    return parse(text, name)


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


def check(source: Source) -> FileCheck:
    """What `arbo check` finds in one source: ``.games`` (each game's replay, with its
    ``diagnostics`` and ``valid``), the syntax errors, every diagnostic in order, ``.valid``.

    Bad input never raises: a file that cannot be read gives a check with one ``file``
    diagnostic, and text that is not UTF-8 a located ``syntax`` one.
    """
    from arbo_notation.errors import Code, Diagnostic

    try:
        text, name = read_source(source)
    except NotationErrors as error:
        name = error.errors[0].file
        unreadable = FileCheck(name, syntax=[Diagnostic.from_notation_error(e) for e in error.errors])
        unreadable.invalid_games = 1
        return unreadable
    except ArboError as error:
        name = str(source)
        unreadable = FileCheck(name, syntax=[Diagnostic(Code.FILE, str(error).removeprefix(f"{name}: "), name)])
        unreadable.invalid_games = 1
        return unreadable
    return check_text(text, name)


def load_game(source: Source, number: int = 1) -> GameTree:
    """Game ``number`` (1-based) of a source, replayed into its tree.

    Syntax errors of other games are not this game's business; its own raise ``NotationErrors``.
    Raises ``GameNotFound`` (an ``ArboError``) when the source holds no such game.
    """
    text, name = read_source(source)
    return game_tree(text, name, number)


def game_tree(text: str, name: str, number: int = 1) -> GameTree:
    """Game ``number`` (1-based) of a record's text, replayed into its tree (see ``load_game``)."""
    from arbo_notation.notation.reading.reader import parse_all

    outcome = parse_all(text, name)
    records = {record.index: record for record in outcome.games}
    count = len(outcome.games) + outcome.unreadable
    if number < 1 or number > count:
        raise GameNotFound(f"{name} holds {count} game{'s' if count != 1 else ''}; there is no game {number}")
    if number not in records:
        errors = [error for error in outcome.errors if outcome.game_of(error) in (number, None)]
        raise NotationErrors(errors or outcome.errors)
    from arbo_notation.notation.reading.split import normalise

    # not splitlines(): it breaks lines at U+2028 and the like, which a record holds as text
    return load_tree(records[number], normalise(text).split("\n"))


class GameNotFound(ArboError):
    """A game number that the source does not hold (a usage error at the command line)."""


__all__ = ["GameNotFound", "Source", "check", "game_tree", "load_game", "read_games", "read_source", "replay", "score"]
