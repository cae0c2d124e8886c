"""Reading one game with the grammar: lark's parser (notation/reading/grammar.py) runs the builder here as
it reads, and build.py makes the records, as it does for the scanner; where the parser refuses a
game, the explainer of notation/reading/faults.py is asked about the line it refused (and names the
faults of the lines after it).

How a file is read: it is cut into games at its '---' header lines (a line that is '---' can only
open or close a header, so the cut is exact: notation/reading/split.py). Each game is first read by the
scanner (scanner.py, no lark) and only a game it is not sure of comes here (reading.py joins
the two): it goes through the LALR parser with the builder as its transformer (no tree is built),
in which runs of turns are single TURNS tokens. This module loads lark (through grammar.py):
reading.py imports it only when a game needs it.
"""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Any, Callable

from arbo_notation.errors import NotationError, capped, detached
from arbo_notation.notation.reading import build
from arbo_notation.notation.reading.parts import MAX_VARIATION_DEPTH, Run, TooLong
from arbo_notation.notation.reading.grammar import GrammarMismatch, GrammarParser
from arbo_notation.notation.header.read import read_header
from arbo_notation.notation.model import Comment, GameRecord, Header, Pos, Result, Reveal, Variation
from arbo_notation.notation.reading.faults import diagnose, faults_after_header

__all__ = ["MAX_VARIATION_DEPTH", "grammar_refusal", "parse_game"]

if TYPE_CHECKING:

    class Token(str):
        """A token as lark hands it to the builder: its text, its terminal's name and its place."""

        type: str
        line: int
        column: int


#: The children lark hands a rule, as its line of the grammar orders them: tokens and what the
#: builder made of the rules below (each method says which), untyped as lark hands them.
Children = list[Any]


@functools.cache
def _parser() -> tuple[GrammarParser, "_Builder"]:
    builder = _Builder()
    return GrammarParser(builder), builder


# ------------------------------------------------------------------------------------------------
# The builder: lark's tokens (strings with ``type``, ``line`` and ``column``) into records


class _Fault(Exception):
    """A syntax error found while building records: message and 1-based line/column."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class _Builder:
    """The lark transformer: its methods run as the LALR parser shifts tokens and reduces rules.

    Methods named like terminals (HEADER, TURNS, LPAR, RPAR) run on each such token; the others
    on each rule. State (file name, line offset of the game being read, caches) is per parse.
    """

    def __init__(self) -> None:
        self.file = "<string>"
        self.offset = 0  # lines before the text being parsed
        self.index = 1  # the game's place in its file
        self.depth = 0
        self.pieces = build.Pieces()
        self.body_only = False  # the header not read: the body judged alone (its header is at fault)

    def reset(self, file: str, index: int = 1, body_only: bool = False) -> None:
        self.file = file
        self.offset = 0
        self.index = index
        self.depth = 0
        self.pieces = build.Pieces()
        self.body_only = body_only

    # -- terminals --------------------------------------------------------------------------------

    def HEADER(self, token: Token) -> Header | None:
        if self.body_only:
            return None
        text = str(token)
        first = text.index("\n") + 1
        last = text.rindex("\n")
        line = token.line + self.offset
        return read_header(text[first:last] if last >= first else "", file=self.file, line=line + 1, header_line=line)

    def LPAR(self, token: Token) -> Token:
        self.depth += 1
        if self.depth > MAX_VARIATION_DEPTH:
            raise _Fault(
                f"variations nest deeper than {MAX_VARIATION_DEPTH} levels", token.line + self.offset, token.column
            )
        return token

    def RPAR(self, token: Token) -> Token:
        self.depth -= 1
        return token

    def TURNS(self, token: Token) -> build.RecordRun:
        """Decode one or more turns (the hot loop of parsing is build.turns_of)."""
        text = str(token)
        try:
            return build.run_of_turns(text, token.line + self.offset, 1 - token.column, self.pieces)
        except TooLong as fault:
            raise _Fault(fault.message, fault.line, fault.column) from None

    # -- rules ------------------------------------------------------------------------------------

    def run(self, children: Children) -> build.RecordRun:
        run: build.RecordRun = children[0]
        if len(children) > 1:
            run.annotations = [build.comment_of(str(c)) if isinstance(c, str) else c for c in children[1:]]
        return run

    def variation(self, children: Children) -> Variation:
        lpar = children[0]
        before: list[Comment] = []
        i = 1
        while isinstance(children[i], str):  # the COMMENT tokens before the variation's first run
            before.append(build.comment_of(str(children[i])))
            i += 1
        return build.variation(children[i:-1], before, Pos(lpar.line + self.offset, lpar.column))

    def reveals(self, children: Children) -> list[Reveal]:
        token = children[0]
        return build.reveals(
            str(token),
            token.line + self.offset,
            1 - token.column,
            [build.comment_of(str(c)) for c in children[1:]],
            self.pieces,
        )

    def result(self, children: Children) -> Result:
        token = children[0]
        at = Pos(token.line + self.offset, token.column)
        try:
            return build.result(str(token), at, [build.comment_of(str(c)) for c in children[1:]])
        except TooLong as fault:
            raise _Fault("a score of this result has too many digits to be read", fault.line, fault.column) from None

    def game(self, children: Children) -> GameRecord | None:
        if self.body_only:
            return None
        header: Header = children[0]
        comments: list[Comment] = []
        runs: list[build.RecordRun] = []
        reveals: list[Reveal] = []
        result: Result | None = None
        for child in children[1:]:
            kind = type(child)
            if kind is Run:
                runs.append(child)
            elif kind is list:
                reveals.extend(child)
            elif kind is Result:
                result = child
            else:
                comments.append(build.comment_of(str(child)))
        return build.game(header, comments, runs, reveals, result, self.file, self.index)

    def start(self, children: Children) -> list[GameRecord]:
        return children


# ------------------------------------------------------------------------------------------------
# Reading one game with the grammar (reading.py reads a whole text: the scanner first, then
# this parser for each game the scanner is not sure of)


_LOCK = threading.Lock()


def parse_game(
    part: str, file: str, line: int, source_line: Callable[[int], str], index: int = 1
) -> tuple[list[GameRecord], list[NotationError]]:
    """Read one game's text (as notation/reading/split.py cuts it, its opening '---' at ``line`` of the
    file, the game ``index`` of it) with the grammar's parser: its record, or its syntax errors
    (every fault of its lines that the checker finds, in order). ``source_line(n)`` gives line
    ``n`` of the file."""
    parser, builder = _parser()
    errors: list[NotationError] = []
    games: list[GameRecord] = []
    with _LOCK:
        builder.reset(file, index)
        builder.offset = line - 1
        try:
            games = parser.parse(part)
        except NotationError as exc:  # in the header: the body's faults are found all the same
            detached(exc)
            refused_at = _body_refusal(parser, builder, part, file, index)
            errors = capped([exc] + faults_after_header(part, line, file, source_line, refused_at))
        except _Fault as fault:
            errors = [
                NotationError(
                    fault.message, file=file, line=fault.line, column=fault.column, source_line=source_line(fault.line)
                )
            ]
        except GrammarMismatch as mismatch:
            if mismatch.failure is None:
                errors = diagnose(part, line, mismatch, file, source_line)
            else:  # pragma: no cover - lark reports syntax as an unexpected token or character
                errors = [
                    NotationError(
                        f"cannot read this game: {mismatch.failure}",
                        file=file,
                        line=line,
                        column=1,
                        source_line=source_line(line),
                    )
                ]
    return games, errors


def grammar_refusal(part: str) -> int | None:
    """Where the grammar refuses one game's text (as parse_game takes it), its header's text taken
    as it stands and not read: the offset in ``part`` of the token or character it stopped at, None
    when it takes the game. (The explainer is asked from the line of that offset.)"""
    parser, builder = _parser()
    with _LOCK:
        return _body_refusal(parser, builder, part, "<string>", 1)


def _body_refusal(parser: GrammarParser, builder: _Builder, part: str, file: str, index: int) -> int | None:
    """Where the grammar refuses the body of a game whose header is at fault (its offset in
    ``part``), read with the header's text taken as it stands and not read; None when it takes it."""
    builder.reset(file, index, body_only=True)
    try:
        parser.parse(part)
    except GrammarMismatch as mismatch:
        return mismatch.pos
    except _Fault as fault:  # (the builder's offset is 0 here: its line is one of ``part``)
        return _offset_of_line(part, fault.line)
    finally:
        builder.reset(file, index)
    return None


def _offset_of_line(text: str, line: int) -> int:
    pos = 0
    for _ in range(line - 1):
        pos = text.index("\n", pos) + 1
    return pos
