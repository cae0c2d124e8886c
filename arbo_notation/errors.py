"""The one error family of arbo: notation, position and rule errors, and located diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, TypeVar

_Kept = TypeVar("_Kept", bound=BaseException)


class ArboError(Exception):
    """Base of every error arbo raises on purpose; the CLI turns these into a message and exit 1."""


@dataclass(frozen=True, slots=True)
class Pos:
    """Where something stands in its source: the 1-based line and column (records carry one per
    token; a notation error or a diagnostic adds the file)."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


#: Columns of a source line shown at most under a diagnostic; a longer line is shown around the
#: column, its cut ends marked '...'.
EXCERPT_WIDTH = 100


def _shown(char: str) -> str:
    """A character as the excerpt shows it: a tab as one space, anything unseen (control bytes,
    invisible spaces and marks) escaped as Python writes it, e.g. ``\\x00``."""
    if char == "\t":
        return " "
    return char if char.isprintable() else char.encode("unicode_escape").decode("ascii")


def visible(text: str, keep: str = "") -> str:
    """``text`` safe to show on a terminal or in an SVG: every character that is not printable
    (control bytes such as ESC that start terminal commands, bidirectional controls that reorder
    what follows, invisible spaces and marks) written as Python escapes it, e.g. ``\\x1b`` or
    ``\\u202e``; the characters in ``keep`` (say a newline) are left as they are.

    The one sanitiser of record text on its way to a screen: `check`'s source excerpts, the
    replayer, `state`, `render` and the messages all show text through it; `fmt` and `convert`
    write records as they are and do not. Text from outside arbo (a bot's answer, its command
    line), on its way into a record, goes through notation/outside.py instead: bounded, and
    escaped so that a record can hold it."""
    if text.isprintable():
        return text
    return "".join(
        char if char.isprintable() or char in keep else char.encode("unicode_escape").decode("ascii") for char in text
    )


def _window(pieces: list[str], at: int, budget: int) -> tuple[int, int]:
    """The pieces to show, ``pieces[start:end]``, at most ``budget`` columns around index ``at``."""
    start = end = min(at, len(pieces))
    width = 0
    while start > 0 and width + len(pieces[start - 1]) <= budget // 2:
        start -= 1
        width += len(pieces[start])
    while end < len(pieces) and width + len(pieces[end]) <= budget:
        width += len(pieces[end])
        end += 1
    while start > 0 and width + len(pieces[start - 1]) <= budget:
        start -= 1
        width += len(pieces[start])
    return start, end


def caret_excerpt(source_line: str, column: int) -> str:
    """The source line and a caret under `column` (1-based), as compilers show it: printable text
    only (a record may hold any bytes), and no more than :data:`EXCERPT_WIDTH` columns of it."""
    line = source_line.rstrip("\r\n")
    at = max(column - 1, 0)
    first = max(0, at - EXCERPT_WIDTH)  # each character takes a column at least: no more is needed
    pieces = [_shown(char) for char in line[first : at + EXCERPT_WIDTH]]
    at -= first
    cut_after = first + len(pieces) < len(line)
    if first == 0 and not cut_after and sum(len(piece) for piece in pieces) <= EXCERPT_WIDTH:
        start, end = 0, len(pieces)
    else:
        start, end = _window(pieces, at, EXCERPT_WIDTH - 6)
    text = "".join(pieces[start:end])
    pad = sum(len(piece) for piece in pieces[start:at]) + max(at - len(pieces), 0)
    if start > 0 or first > 0:
        text = "..." + text
        pad += 3
    if end < len(pieces) or cut_after:
        text += "..."
    return f"    {text}\n    {' ' * pad}^"


class NotationError(ArboError):
    """A record that does not follow the .arb syntax (or a header that is not valid)."""

    def __init__(
        self,
        message: str,
        *,
        file: str = "<string>",
        line: int = 1,
        column: int = 1,
        source_line: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.source_line = source_line

    @property
    def pos(self) -> Pos:
        return Pos(self.line, self.column)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"

    def excerpt(self) -> str:
        """The offending source line with a caret under the column ('' without a source line)."""
        if self.source_line is None:
            return ""
        return caret_excerpt(self.source_line, self.column)

    def show(self) -> str:
        """The error as a compiler prints it: location, message, source line and caret."""
        text = visible(f"{self.file}:{self.line}:{self.column}: error: {self.message}", "\n")
        excerpt = self.excerpt()
        return f"{text}\n{excerpt}" if excerpt else text


#: Syntax errors reported at most for one game: past these, one more error says how many were left
#: out (a line of 400 KB of ')' would otherwise be 400,000 errors). docs/NOTATION.md states it.
MAX_ERRORS_PER_GAME = 1000


def detached(error: _Kept) -> _Kept:
    """``error`` without its traceback and the exceptions it was raised during: an error that is
    kept (to be reported with the others of its file) must not keep the parser's frames, some
    8 KB each, alive with it."""
    error.__traceback__ = None
    error.__context__ = None
    error.__cause__ = None
    return error


def capped(errors: list[NotationError], total: int | None = None) -> list[NotationError]:
    """The first MAX_ERRORS_PER_GAME of one game's errors, then one (at the first left out) saying
    how many more there are; ``total`` counts them all when ``errors`` holds only the first ones
    (at least one past the cap)."""
    total = len(errors) if total is None else total
    if total <= MAX_ERRORS_PER_GAME:
        return errors
    first_left_out = errors[MAX_ERRORS_PER_GAME]
    left_out = total - MAX_ERRORS_PER_GAME
    return errors[:MAX_ERRORS_PER_GAME] + [
        NotationError(
            f"{left_out} more syntax error{'s' if left_out != 1 else ''} in this game, from here on, not shown "
            f"(at most {MAX_ERRORS_PER_GAME} are reported a game)",
            file=first_left_out.file,
            line=first_left_out.line,
            column=first_left_out.column,
            source_line=first_left_out.source_line,
        )
    ]


class NotationErrors(ArboError):
    """Every syntax error of one source text, in order (a game that cannot be read may have several)."""

    def __init__(self, errors: list[NotationError]) -> None:
        super().__init__("; ".join(str(e) for e in errors))
        self.errors = errors


class PositionError(ArboError):
    """A position file (YAML or JSON) that is malformed or describes an impossible table."""

    def __init__(self, message: str, *, file: str = "<string>") -> None:
        super().__init__(f"{file}: {message}")
        self.message = message
        self.file = file


class HeaderFault(ArboError):
    """A fault in a header's values: which key, what is wrong, and the offending text if any (the
    header reader turns it into a located NotationError)."""

    def __init__(self, message: str, key: str | None = None, item: object = None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.item = None if item is None else str(item)


class DataError(ArboError):
    """Structured input (JSON, YAML or a dict) that is not a valid game record; ``path`` says where
    in the data (``games[0].turns[3].plant``)."""

    def __init__(self, message: str, *, file: str = "<data>", path: str = "") -> None:
        where = f"{file}: {path}: " if path else f"{file}: "
        super().__init__(where + message)
        self.message = message
        self.file = file
        self.path = path


class RuleError(ArboError):
    """An action the rules forbid, said in a player's words (the engine raises it)."""


class TurnError(ArboError):
    """A rule error in a recorded turn, with the code and position of the part that broke it
    (the replayer makes it from the engine's RuleError)."""

    def __init__(self, code: "Code", message: str, pos: Pos | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.pos = pos


class Code(StrEnum):
    """What a diagnostic is about; shown in brackets after its message (``[draw]``)."""

    SYNTAX = "syntax"  # the text does not follow the notation
    FILE = "file"  # the file cannot be read
    SETUP = "setup"  # the header describes no legal table
    SPECIES_COUNT = "species-count"
    TURN_NUMBER = "turn-number"
    TURN_ORDER = "turn-order"
    GAME_OVER = "game-over"
    DRAW = "draw"
    PLANT = "plant"
    DISCARD = "discard"
    UNFINISHED = "unfinished"
    REVEAL = "reveal"
    RESULT = "result"
    NOTE = "note"  # an engine's note whose numbers are past the bounds of their options

    @property
    def about_a_turn(self) -> bool:
        """Whether the diagnostic is about one turn of play (rather than the game's set-up or end)."""
        return self in _TURN_CODES


_TURN_CODES = frozenset({Code.TURN_NUMBER, Code.TURN_ORDER, Code.GAME_OVER, Code.DRAW, Code.PLANT, Code.DISCARD})


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding of a validation run: a code, a message a player understands, and where."""

    code: Code
    message: str
    file: str = "<string>"
    line: int | None = None
    column: int | None = None
    game: int | None = None  # 1-based index of the game in its file
    turn: int | None = None
    player: str | None = None
    severity: Severity = Severity.ERROR
    source_line: str | None = field(default=None, compare=False)

    def location(self) -> str:
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}:{self.column or 1}"

    def show(self) -> str:
        text = visible(f"{self.location()}: {self.severity}: {self.message} [{self.code}]", "\n")
        if self.source_line is not None and self.line is not None:
            text += "\n" + caret_excerpt(self.source_line, self.column or 1)
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "game": self.game,
            "turn": self.turn,
            "player": self.player,
        }

    @classmethod
    def from_notation_error(cls, error: NotationError, game: int | None = None) -> "Diagnostic":
        return cls(
            code=Code.SYNTAX,
            message=error.message,
            file=error.file,
            line=error.line,
            column=error.column,
            game=game,
            source_line=error.source_line,
        )
