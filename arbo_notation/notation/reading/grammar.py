"""The grammar's parser: grammar/arbo.lark found and loaded, lark's LALR parser built from it (and
kept in the user's cache), and lark's complaints turned into an error of our own.

This is the only module of arbo that imports lark, and no lark type leaves it. It is imported
lazily (notation/reading/syntax.py, which only reading.py loads, for a game the scanner is not sure
of): a plain check never pays lark's tenth of a second of loading.
"""

from __future__ import annotations

import functools
import os
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken

from arbo_notation.errors import ArboError

GRAMMAR_FILE = "arbo.lark"


def _grammar_path() -> Path | None:
    try:
        packaged = resources.files("arbo_notation.notation").joinpath(GRAMMAR_FILE)
        if packaged.is_file():
            return Path(str(packaged))
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        pass
    beside = Path(__file__).resolve().with_name(GRAMMAR_FILE)
    if beside.is_file():
        return beside
    repo = Path(__file__).resolve().parents[3] / "grammar" / GRAMMAR_FILE
    if repo.is_file():
        return repo
    return None


@functools.cache
def grammar_text() -> str:
    """The text of arbo.lark: the packaged copy, else <repo>/grammar/arbo.lark (editable install)."""
    path = _grammar_path()
    if path is None:
        raise ArboError("the grammar file arbo.lark is missing: reinstall arbo-notation")
    return path.read_text(encoding="utf-8")


def _strict_available() -> bool:
    try:
        import interegular  # noqa: F401  (lark's strict mode needs it to check terminal collisions)
    except ImportError:
        return False
    return True


def _cache_file(start: str = "start") -> str | bool:
    """Where lark keeps the built parser of the ``start`` rule between runs (building it costs
    about 0.15 s a command): a private folder of the user's cache, never a shared temporary folder,
    since lark's cache is a pickle. False (no cache) when that folder cannot be made."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "arbo"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    if not os.access(folder, os.W_OK):
        return False
    python = "".join(map(str, sys.version_info[:2]))
    rule = "" if start == "start" else f"-{start}"
    return str(folder / f"parser{rule}-lark{lark.__version__}-py{python}.cache")


class GrammarMismatch(Exception):
    """Where the grammar's parser stopped in a text, and what it expected there (terminal names).

    ``token_type`` and ``token_text`` are those of the token it could not take (``$END`` for the
    end of the text, placed at the last token read), None when it stopped inside a token; ``pos``
    is the offset where it stopped (the token's start); ``failure`` is lark's own words when it
    stopped for another reason (which no text is known to cause)."""

    def __init__(
        self,
        line: int,
        column: int,
        expected: set[str],
        token_type: str | None = None,
        token_text: str = "",
        pos: int = 0,
        failure: str | None = None,
    ) -> None:
        super().__init__(failure or f"unexpected input at line {line} column {column}")
        self.line = line
        self.column = column
        self.expected = expected
        self.token_type = token_type
        self.token_text = token_text
        self.pos = pos
        self.failure = failure


def _mismatch(exc: UnexpectedInput) -> GrammarMismatch:
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        return GrammarMismatch(
            getattr(token, "line", None) or 1,
            getattr(token, "column", None) or 1,
            set(exc.expected or ()),
            token.type,
            str(token),
            pos=getattr(token, "start_pos", None) or 0,
        )
    return GrammarMismatch(
        getattr(exc, "line", 1) or 1,
        getattr(exc, "column", 1) or 1,
        set(getattr(exc, "allowed", None) or ()),
        pos=getattr(exc, "pos_in_stream", 0) or 0,
    )


class GrammarParser:
    """The grammar's LALR parser of the ``start`` rule (a file of games; ``position``: a position's
    line), calling ``transformer``'s methods as it shifts tokens and reduces rules (methods named
    like terminals run on each such token, the others on each rule; no tree is built). Lark's
    tokens reach them as strings with ``type``, ``line`` and ``column``."""

    def __init__(self, transformer: Any, start: str = "start") -> None:
        self._lark = lark.Lark(
            grammar_text(),
            parser="lalr",
            lexer="contextual",
            strict=_strict_available(),
            transformer=transformer,
            maybe_placeholders=False,
            start=start,
            cache=_cache_file(start),  # lark checks the grammar's hash: a changed grammar is built anew
        )

    def parse(self, text: str) -> Any:
        """What the transformer makes of ``text``; GrammarMismatch where the text leaves the grammar.
        What the transformer raises goes through as it is."""
        try:
            return self._lark.parse(text)
        except UnexpectedInput as exc:
            raise _mismatch(exc) from None
        except LarkError as exc:  # pragma: no cover - lark reports syntax as UnexpectedInput
            raise GrammarMismatch(1, 1, set(), failure=str(exc)) from None


@functools.cache
def _position_parser() -> GrammarParser:
    return GrammarParser(None, start="position")


def parse_position_line(text: str) -> None:
    """Read ``text`` by the grammar's ``position`` rule (the reference of engine/position.py's
    reader): GrammarMismatch where the text leaves the grammar."""
    _position_parser().parse(text)
