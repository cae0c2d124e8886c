"""The .arb parser: the lark grammar (grammar/arbo.lark), the records it builds, and its error messages.

This is the only module of arbo that imports lark, and no lark type leaves it: every syntax error
becomes a NotationError whose message a person understands.

How it is fast: a file is cut into games at its '---' header lines (a line that is '---' can only
open or close a header, so the cut is exact); each game goes through lark's LALR parser with
``transformer=`` (no tree is built) in which runs of turns are single TURNS tokens decoded by a
compiled regular expression. When lark reports an error, a slower hand-written checker reads the
game again to name every fault of its lines and its exact column.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import lark
from lark import Token
from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken

from ..engine.cards import Card, Coord, Planting
from ..errors import ArboError, NotationError, NotationErrors
from ..gcpause import gc_paused
from ..sources import read_text
from .games import cut_games, game_texts, normalise, split_games
from .header import read_header
from .record import (
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

__all__ = [
    "GameSpan",
    "game_texts",
    "split_games",
    "MAX_VARIATION_DEPTH",
    "ParseOutcome",
    "grammar_text",
    "parse",
    "parse_all",
    "parse_file",
    "parse_file_all",
]

#: Variations may nest this deep (deeper is a syntax error: no record needs it, and tools recurse).
MAX_VARIATION_DEPTH = 100

GRAMMAR_FILE = "arbo.lark"


# ------------------------------------------------------------------------------------------------
# Loading the grammar and building the parser (once)


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
    repo = Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR_FILE
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


def _cache_file() -> str | bool:
    """Where lark keeps the built parser between runs (building it costs about 0.15 s a command):
    a private folder of the user's cache, never a shared temporary folder, since lark's cache is
    a pickle. False (no cache) when that folder cannot be made."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "arbo"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    if not os.access(folder, os.W_OK):
        return False
    python = "".join(map(str, sys.version_info[:2]))
    return str(folder / f"parser-lark{lark.__version__}-py{python}.cache")


@functools.cache
def _parser() -> tuple[lark.Lark, "_Builder"]:
    builder = _Builder()
    parser = lark.Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        strict=_strict_available(),
        transformer=builder,
        maybe_placeholders=False,
        cache=_cache_file(),  # lark checks the grammar's hash: a changed grammar is built anew
    )
    return parser, builder


# ------------------------------------------------------------------------------------------------
# Fast construction of the records' frozen dataclasses (values already checked by the grammar)

_new = object.__new__


def _fast_constructor(cls: type, names: tuple[str, ...]) -> Callable[..., Any]:
    """A constructor taking ``names`` positionally that skips the dataclass __init__ machinery.

    Frozen dataclasses set every field through object.__setattr__; setting the slots directly is
    about twice as fast. Fields added later to record.py get their defaults. Falls back to the
    class itself if it validates in __post_init__ or its fields no longer start with ``names``.
    """
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or tuple(f.name for f in fields[: len(names)]) != names \
            or "__slots__" not in cls.__dict__:
        return cls
    namespace: dict[str, Any] = {"_new": _new, "_cls": cls}
    body = ["    o = _new(_cls)"]
    for f in fields:
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.name in names:
            body.append(f"    _set_{f.name}(o, {f.name})")
        elif f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            body.append(f"    _set_{f.name}(o, _default_{f.name})")
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            namespace[f"_factory_{f.name}"] = f.default_factory  # type: ignore[misc]
            body.append(f"    _set_{f.name}(o, _factory_{f.name}())")
        else:
            return cls
    source = f"def construct({', '.join(names)}):\n" + "\n".join(body) + "\n    return o\n"
    exec(source, namespace)  # noqa: S102 - generated from dataclass field names only
    return namespace["construct"]


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[tuple[Callable[[Any, Any], None], ...],
                                                              Callable[[Any], None] | None]:
    """The slot setters of a record class for ``names``, and what else a new object needs.

    Parsing fills Pos, Draw and Turn objects through these setters, skipping the dataclass
    __init__. If record.py gives such a class more fields (or a __post_init__), the second value
    sets their defaults (and calls it) on each new object; None when there is nothing to do.
    """
    fields = dataclasses.fields(cls)
    known = {f.name for f in fields}
    missing = [name for name in names if name not in known]
    if missing:
        raise ArboError(f"syntax.py must be updated: record.{cls.__name__} has no field {missing[0]!r}")
    extra = []
    for f in fields:
        if f.name in names:
            continue
        if f.default is not dataclasses.MISSING:
            default = f.default
            extra.append((cls.__dict__[f.name].__set__, lambda default=default: default))
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            extra.append((cls.__dict__[f.name].__set__, f.default_factory))  # type: ignore[misc]
        else:
            raise ArboError(f"syntax.py must be updated: record.{cls.__name__}.{f.name} has no default")
    post_init = getattr(cls, "__post_init__", None)

    def finish(obj: Any) -> None:
        for setter, make in extra:
            setter(obj, make())
        if post_init is not None:
            post_init(obj)

    return tuple(cls.__dict__[name].__set__ for name in names), (finish if extra or post_init else None)


_POS_SET, _POS_FINISH = _slot_setters(Pos, ("line", "column"))
_DRAW_SET, _DRAW_FINISH = _slot_setters(Draw, ("kind", "owner", "card", "pos"))
_TURN_SET, _TURN_FINISH = _slot_setters(
    Turn,
    ("player", "draws", "plant", "discard", "number", "glyphs", "comments_before", "comments_after",
     "variations", "pos", "plant_pos", "discard_pos"),
)
#: The hot loop sets slots itself only while the three classes need nothing more.
_INLINE = _POS_FINISH is None and _DRAW_FINISH is None and _TURN_FINISH is None

_pos = _fast_constructor(Pos, ("line", "column"))
_reveal = _fast_constructor(Reveal, ("player", "cards", "pos", "comments"))
_turn = _fast_constructor(
    Turn,
    ("player", "draws", "plant", "discard", "number", "glyphs", "comments_before", "comments_after",
     "variations", "pos", "plant_pos", "discard_pos"),
)


# ------------------------------------------------------------------------------------------------
# Decoding tokens (the grammar has checked them; these expressions only take them apart)

_TURN_DECODE = re.compile(
    r"((?:(?:\{[^}]*\}|;[^\n]*+)[ \t\n]*)*)"  # comments before the turn
    r"(?:([0-9]+)\.[ \t]*)?(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+/([A-Za-z]{1,3}[1-8])"
    r"((?:[ \t]*(?:!!|\?\?|!\?|\?!|!|\?|\$[0-9]+)(?![^ \t\n{;()]))*)"  # glyphs
    r"((?:[ \t]*\{[^}]*\})*)"  # {comments} on the turn's line
    r"(?:[ \t]*;([^\n]*))?"  # ; comment
)
_BRACE_TEXT = re.compile(r"\{([^}]*)\}")
_COMMENTS = re.compile(r"\{([^}]*)\}|;([^\n]*)")
_REVEAL_DECODE = re.compile(r"reveal[ \t]+(\S+)((?:[ \t]+[A-Za-z]{1,3}[1-8])*)")


def _comments_in(text: str) -> tuple[Comment, ...]:
    """The comments of a run of {brace} and ; comments, in order."""
    return tuple(
        Comment(m.group(1).strip()) if m.group(1) is not None else Comment(m.group(2).strip(), line=True)
        for m in _COMMENTS.finditer(text)
    )


_SCORE_DECODE = re.compile(r"([A-Za-z][A-Za-z0-9_'-]*)[ \t]+([0-9]+)")


def _card_of(text: str) -> Card:
    return Card(text[:-1], int(text[-1]))


class _Cards(dict):
    """Card text -> Card, made once per parse (cards are values: they can be shared)."""

    def __missing__(self, text: str) -> Card:
        card = self[text] = _card_of(text)
        return card


class _Draws(dict):
    """Draw text ('d', 'd:Ma3', 'Ana', 'Ana:Ja2', '-') -> (kind, owner, card)."""

    def __init__(self, cards: _Cards) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, text: str) -> tuple[DrawKind, str | None, Card | None]:
        if text == "-":
            spec: tuple[DrawKind, str | None, Card | None] = (DrawKind.SKIP, None, None)
        else:
            owner, _, card_text = text.partition(":")
            card = self.cards[card_text] if card_text else None
            spec = (DrawKind.DECK, None, card) if owner == "d" else (DrawKind.DISCARD, owner, card)
        self[text] = spec
        return spec


class _Plantings(dict):
    """Planting text ('Ma3@1,-2') -> Planting."""

    def __init__(self, cards: _Cards) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, text: str) -> Planting:
        card_text, _, cell = text.partition("@")
        x, _, y = cell.partition(",")
        planting = self[text] = Planting(self.cards[card_text], Coord(int(x), int(y)))
        return planting


def _comment_of(token: str) -> Comment:
    if token[0] == "{":
        return Comment(token[1:-1].strip())
    return Comment(token[1:].strip(), line=True)


def _finish_turns(turns: list[Turn]) -> None:
    """Complete objects made slot by slot, when record.py has given their classes more to do."""
    for turn in turns:
        for pos in (turn.pos, turn.plant_pos, turn.discard_pos) + tuple(d.pos for d in turn.draws):
            if _POS_FINISH is not None:
                _POS_FINISH(pos)
        for draw in turn.draws:
            if _DRAW_FINISH is not None:
                _DRAW_FINISH(draw)
        if _TURN_FINISH is not None:
            _TURN_FINISH(turn)


class _Run:
    """Turns in a row (one TURNS token), then the comments on lines of their own and the
    variations that follow the last of them."""

    __slots__ = ("turns", "annotations")

    def __init__(self, turns: list[Turn]) -> None:
        self.turns = turns
        self.annotations: list[Comment | Variation] = []


def _rebuilt(turn: Turn, comments_before: tuple[Comment, ...] | None = None,
             comments_after: tuple[Comment, ...] | None = None,
             variations: tuple[Variation, ...] | None = None) -> Turn:
    return _turn(
        turn.player, turn.draws, turn.plant, turn.discard, turn.number, turn.glyphs,
        turn.comments_before if comments_before is None else comments_before,
        turn.comments_after if comments_after is None else comments_after,
        turn.variations if variations is None else variations,
        turn.pos, turn.plant_pos, turn.discard_pos,
    )


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
        self.depth = 0
        self.cards = _Cards()
        self.draws = _Draws(self.cards)
        self.plantings = _Plantings(self.cards)

    def reset(self, file: str) -> None:
        self.file = file
        self.offset = 0
        self.depth = 0
        self.cards = _Cards()
        self.draws = _Draws(self.cards)
        self.plantings = _Plantings(self.cards)

    # -- terminals --------------------------------------------------------------------------------

    def HEADER(self, token: Token) -> Header:  # noqa: N802 - named after the terminal
        text = str(token)
        first = text.index("\n") + 1
        last = text.rindex("\n")
        line = token.line + self.offset
        return read_header(text[first:last] if last >= first else "", file=self.file, line=line + 1,
                           header_line=line)

    def LPAR(self, token: Token) -> Token:  # noqa: N802
        self.depth += 1
        if self.depth > MAX_VARIATION_DEPTH:
            raise _Fault(f"variations nest deeper than {MAX_VARIATION_DEPTH} levels", token.line + self.offset,
                         token.column)
        return token

    def RPAR(self, token: Token) -> Token:  # noqa: N802
        self.depth -= 1
        return token

    def TURNS(self, token: Token) -> _Run:  # noqa: N802
        """Decode one or more turns; this is the hot loop of the parser.

        The records are made by setting their slots directly (see _slot_setters): a turn costs
        eight objects (the turn, two draws, five positions) and this is most of parsing's time.
        """
        text = str(token)
        line = token.line + self.offset
        line_start = 1 - token.column  # index in text of the current line's first character
        previous = 0
        cards = self.cards
        draws = self.draws
        plantings = self.plantings
        new = _new
        P, D, T = Pos, Draw, Turn
        p_line, p_column = _POS_SET
        d_kind, d_owner, d_card, d_pos = _DRAW_SET
        (t_player, t_draws, t_plant, t_discard, t_number, t_glyphs, t_before, t_after, t_variations,
         t_pos, t_plant_pos, t_discard_pos) = _TURN_SET
        turns = []
        append = turns.append
        count = text.count
        try:
            for m in _TURN_DECODE.finditer(text):
                before, number, player, d1, d2, plant, discard, glyphs, braces, remark = m.groups()
                start = m.start(2) if number else m.start(3)
                if start != previous:
                    breaks = count("\n", previous, start)
                    if breaks:
                        line += breaks
                        line_start = text.rindex("\n", previous, start) + 1
                previous = m.end()
                base = 1 - line_start
                kind1, owner1, card1 = draws[d1]
                kind2, owner2, card2 = draws[d2]
                first = new(D)
                d_kind(first, kind1)
                d_owner(first, owner1)
                d_card(first, card1)
                at = new(P)
                p_line(at, line)
                p_column(at, base + m.start(4))
                d_pos(first, at)
                second = new(D)
                d_kind(second, kind2)
                d_owner(second, owner2)
                d_card(second, card2)
                at = new(P)
                p_line(at, line)
                p_column(at, base + m.start(5))
                d_pos(second, at)
                turn = new(T)
                t_player(turn, player)
                t_draws(turn, (first, second))
                t_plant(turn, plantings[plant])
                t_discard(turn, cards[discard])
                t_number(turn, int(number) if number else None)
                if glyphs or braces or remark is not None:
                    t_glyphs(turn, tuple(glyphs.split()) if glyphs else ())
                    after = [Comment(t.strip()) for t in _BRACE_TEXT.findall(braces)] if braces else []
                    if remark is not None:
                        after.append(Comment(remark.strip(), line=True))
                    t_after(turn, tuple(after))
                else:
                    t_glyphs(turn, ())
                    t_after(turn, ())
                t_before(turn, _comments_in(before) if before else ())
                t_variations(turn, ())
                at = new(P)
                p_line(at, line)
                p_column(at, base + start)
                t_pos(turn, at)
                at = new(P)
                p_line(at, line)
                p_column(at, base + m.start(6))
                t_plant_pos(turn, at)
                at = new(P)
                p_line(at, line)
                p_column(at, base + m.start(7) - 1)
                t_discard_pos(turn, at)
                append(turn)
                if braces and "\n" in braces:  # a comment over several lines: the next turn is lower
                    line += braces.count("\n")
                    line_start = m.start(9) + braces.rindex("\n") + 1
        except ValueError:  # int() refuses a number of more digits than sys.get_int_max_str_digits()
            raise _Fault("a number of this turn has too many digits to be read", line, base + start) from None
        if not _INLINE:
            _finish_turns(turns)
        return _Run(turns)

    # -- rules ------------------------------------------------------------------------------------

    def run(self, children: list) -> _Run:
        run: _Run = children[0]
        if len(children) > 1:
            run.annotations = [_comment_of(str(c)) if isinstance(c, Token) else c for c in children[1:]]
        return run

    def variation(self, children: list) -> Variation:
        lpar = children[0]
        before: list[Comment] = []
        i = 1
        while isinstance(children[i], Token) and children[i].type == "COMMENT":
            before.append(_comment_of(str(children[i])))
            i += 1
        turns, trailing = _assemble(children[i:-1])
        if turns[0].comments_before:  # comments before the first turn open the variation
            before.extend(turns[0].comments_before)
            turns[0] = _rebuilt(turns[0], comments_before=())
        return Variation(tuple(turns), tuple(before), tuple(trailing),
                         _pos(lpar.line + self.offset, lpar.column))

    def reveals(self, children: list) -> list[Reveal]:
        token = children[0]
        text = str(token)
        line = token.line + self.offset
        line_start = 1 - token.column
        previous = 0
        cards = self.cards
        found = []
        for m in _REVEAL_DECODE.finditer(text):
            start = m.start()
            breaks = text.count("\n", previous, start)
            if breaks:
                line += breaks
                line_start = text.rindex("\n", previous, start) + 1
            previous = start
            found.append(_reveal(m.group(1), tuple([cards[w] for w in m.group(2).split()]),
                                 _pos(line, start - line_start + 1), ()))
        if len(children) > 1:
            last = found[-1]
            found[-1] = Reveal(last.player, last.cards, last.pos, tuple(_comment_of(str(c)) for c in children[1:]))
        return found

    def result(self, children: list) -> Result:
        token = children[0]
        text = str(token)
        rest = text[6:].strip()
        comments = tuple(_comment_of(str(c)) for c in children[1:])
        position = _pos(token.line + self.offset, token.column)
        if rest == "*":
            return Result((), True, position, comments)
        try:
            scores = tuple((name, int(points)) for name, points in _SCORE_DECODE.findall(rest))
        except ValueError:  # int() refuses a number of more digits than sys.get_int_max_str_digits()
            raise _Fault("a score of this result has too many digits to be read", position.line, position.column) from None
        return Result(scores, False, position, comments)

    def game(self, children: list) -> GameRecord:
        header: Header = children[0]
        comments: list[Comment] = []
        runs: list[_Run] = []
        reveals: list[Reveal] = []
        result: Result | None = None
        for child in children[1:]:
            kind = type(child)
            if kind is _Run:
                runs.append(child)
            elif kind is list:
                reveals.extend(child)
            elif kind is Result:
                result = child
            else:
                comments.append(_comment_of(str(child)))
        turns, trailing = _assemble(runs)
        if turns and turns[0].comments_before:  # comments before the first turn are the game's
            comments.extend(turns[0].comments_before)
            turns[0] = _rebuilt(turns[0], comments_before=())
        if trailing:
            last = turns[-1]
            turns[-1] = _rebuilt(last, comments_after=last.comments_after + tuple(trailing))
        return GameRecord(header, tuple(turns), tuple(comments), tuple(reveals), result, self.file)

    def start(self, children: list) -> list[GameRecord]:
        return children


def _assemble(runs: list[_Run]) -> tuple[list[Turn], list[Comment]]:
    """Flatten runs into turns, placing the comments that stand on lines of their own.

    Comments after a turn and before its first variation are the turn's (comments_after);
    comments between two variations open the second one (its comments_before); other comments
    after a run go before the next turn (comments_before). Returns the turns and the comments
    after the last turn's line and variations, for the caller to place (docs/NOTATION.md).
    """
    turns: list[Turn] = []
    pending: tuple[Comment, ...] = ()
    for run in runs:
        run_turns = run.turns
        if pending:
            run_turns[0] = _rebuilt(run_turns[0], comments_before=pending + run_turns[0].comments_before)
            pending = ()
        annotations = run.annotations
        if not annotations:
            turns.extend(run_turns)
            continue
        loose: list[Comment] = []
        i = 0
        while i < len(annotations) and type(annotations[i]) is Comment:
            loose.append(annotations[i])  # type: ignore[arg-type]
            i += 1
        if i == len(annotations):
            turns.extend(run_turns)
            pending = tuple(loose)
            continue
        variations: list[Variation] = []
        waiting: list[Comment] = []
        for item in annotations[i:]:
            if type(item) is Comment:
                waiting.append(item)  # type: ignore[arg-type]
            else:
                if waiting:
                    item = dataclasses.replace(item, comments_before=tuple(waiting) + item.comments_before)
                    waiting = []
                variations.append(item)  # type: ignore[arg-type]
        last = run_turns[-1]
        run_turns[-1] = _rebuilt(last, comments_after=last.comments_after + tuple(loose),
                                 variations=tuple(variations))
        turns.extend(run_turns)
        pending = tuple(waiting)
    return turns, list(pending)


# ------------------------------------------------------------------------------------------------
# The outcome of reading a text


@dataclass(frozen=True, slots=True)
class GameSpan:
    """Where one game stands in its file, and whether it could be read: its syntax errors, in order."""

    index: int  # 1-based position of the game in the file
    first_line: int
    last_line: int
    errors: tuple[NotationError, ...] = ()

    @property
    def error(self) -> NotationError | None:
        """The game's first syntax error (None when it could be read)."""
        return self.errors[0] if self.errors else None


@dataclass(slots=True)
class ParseOutcome:
    """Every game that could be read, every syntax error (a game may have several), and which
    game each error belongs to."""

    games: list[GameRecord] = field(default_factory=list)
    errors: list[NotationError] = field(default_factory=list)
    game_spans: list[GameSpan] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def game_of(self, error: NotationError) -> int | None:
        """The 1-based index of the game an error belongs to (None: text before the first header)."""
        for span in self.game_spans:
            if any(e is error for e in span.errors):
                return span.index
        return None

    @property
    def unreadable(self) -> int:
        """How many games could not be read (text before the first header counts as one)."""
        return sum(1 for span in self.game_spans if span.errors)

    def raise_errors(self) -> None:
        if self.errors:
            raise NotationErrors(list(self.errors))


# ------------------------------------------------------------------------------------------------
# Reading


_LOCK = threading.Lock()


def parse_all(text: str, file: str = "<string>") -> ParseOutcome:
    """Read every game of a text; a game with a syntax error is reported and the next games read.

    Never raises for a syntax error: see ``ParseOutcome.errors`` and ``ParseOutcome.game_spans``.
    """
    if not isinstance(text, str):
        raise ArboError(f"expected the text of a record, not {type(text).__name__}")
    text = normalise(text)
    outcome = ParseOutcome()
    preamble_end, chunks = cut_games(text)
    lines: list[str] | None = None

    def source_line(number: int) -> str:
        nonlocal lines
        if lines is None:
            lines = text.split("\n")
        return lines[number - 1] if 0 < number <= len(lines) else ""

    preamble = text[:preamble_end]
    if preamble.strip():
        offset = len(preamble) - len(preamble.lstrip())
        line, column = _line_col(text, offset)
        error = NotationError(
            f"a game starts with a header between two '---' lines, found {_found(text, offset)} before any header",
            file=file, line=line, column=column, source_line=source_line(line))
        outcome.errors.append(error)
        outcome.game_spans.append(GameSpan(0, line, max(line, text.count("\n", 0, preamble_end)), (error,)))

    parser, builder = _parser()
    with _LOCK, gc_paused():
        builder.reset(file)
        if not outcome.errors and all(chunk.closed for chunk in chunks):
            # The whole text at once: the common case of a file without syntax errors.
            try:
                games = parser.parse(text)
            except (UnexpectedInput, NotationError, _Fault):
                games = None
            if games is not None and len(games) == len(chunks):
                for index, (game, chunk) in enumerate(zip(games, chunks), 1):
                    object.__setattr__(game, "index", index)
                    outcome.game_spans.append(GameSpan(index, chunk.first_line, chunk.last_line))
                outcome.games = games
                return outcome
        # Game by game, so that an error in one game does not hide the others.
        for index, chunk in enumerate(chunks, 1):
            errors: list[NotationError] = []
            line = chunk.first_line
            if not chunk.closed:
                errors.append(NotationError(
                    f"unclosed header: '---' at line {line} has no closing '---' line",
                    file=file, line=line, column=1, source_line=source_line(line)))
            else:
                part = text[chunk.start:chunk.end]
                builder.offset = line - 1
                builder.depth = 0
                try:
                    games = parser.parse(part)
                except NotationError as exc:  # in the header: the body's faults are found all the same
                    errors = [exc] + _faults_after_header(part, line, file, source_line)
                except _Fault as fault:
                    errors.append(NotationError(fault.message, file=file, line=fault.line, column=fault.column,
                                                source_line=source_line(fault.line)))
                except UnexpectedInput as exc:
                    errors = _diagnose(part, line, exc, file, source_line)
                except LarkError as exc:  # pragma: no cover - lark reports syntax as UnexpectedInput
                    errors.append(NotationError(f"cannot read this game: {exc}", file=file, line=line, column=1,
                                                source_line=source_line(line)))
                else:
                    for game in games:
                        object.__setattr__(game, "index", index)
                        outcome.games.append(game)
            outcome.errors += errors
            outcome.game_spans.append(GameSpan(index, line, chunk.last_line, tuple(errors)))
    return outcome


def parse(text: str, file: str = "<string>") -> list[GameRecord]:
    """Read every game of a text; raise NotationErrors (all of them) if any game has a syntax error."""
    outcome = parse_all(text, file)
    outcome.raise_errors()
    return outcome.games


def parse_file(path: str | Path) -> list[GameRecord]:
    """Read a .arb file (UTF-8, with or without BOM); NotationErrors on syntax errors, ArboError if unreadable."""
    text, name = read_text(path)
    return parse(text, name)


def parse_file_all(path: str | Path) -> ParseOutcome:
    """Like parse_all, for a file. An unreadable file raises ArboError; a non-UTF-8 one NotationErrors."""
    text, name = read_text(path)
    return parse_all(text, name)


# ------------------------------------------------------------------------------------------------
# Error messages: a hand-written checker that re-reads a game that lark rejected


_WORD = re.compile(r"[^ \t\n{};()]+")
_WORD_END = re.compile(r"[ \t\n]|\Z")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*(?![A-Za-z0-9_'-])")
_CARD = re.compile(r"[A-Za-z]{1,3}[1-8](?![A-Za-z0-9_])")
_COORDS = re.compile(r"(-?[0-9]+),(-?[0-9]+)(?![0-9])")
_BRACE_COMMENT = re.compile(r"\{[^}\n]*(?:\n(?!---[ \t]*(?:\n|\Z))[^}\n]*)*\}")
_GLYPH = re.compile(r"(?:!!|\?\?|!\?|\?!|!|\?|\$[0-9]+)(?![^ \t\n{;()])")
_HEADER_BLOCK = re.compile(r"---[ \t]*\n(?:(?!---[ \t]*(?:\n|\Z))[^\n]*\n)*---[ \t]*(?=\n|\Z)")
_TURN_END = frozenset(" \t\n{;()!?$")
_PLANTING_LIKE = re.compile(r"[A-Za-z]{1,3}[0-9]+@")
_SPACE_BEFORE_AT = re.compile(r"[A-Za-z]{1,3}[1-8][ \t]+@[^ \t\n{};()]*")
_SPACED_CELL = re.compile(r"[ \t]*-?[0-9]+[ \t]*,[ \t]*-?[0-9]+(?![0-9])")
_LINE_END = frozenset(" \t\n{;")

DRAW_FORMS = "a draw ('d', 'd:Ma3', a player's name, 'Ana:Ja2' or '-')"
TURN_EXAMPLE = "a turn such as '3. Ana d d Ma3@0,1 /Oa5'"


def _show(text: str) -> str:
    if len(text) > 24:
        text = text[:24] + "..."
    return repr(text) if not text.isprintable() else f"'{text}'"


def _found(text: str, pos: int) -> str:
    """What stands at ``pos``, for 'found ...' in a message."""
    if pos >= len(text) or text[pos] == "\n":
        return "end of line"
    if text[pos] in " \t":
        return "a space"
    m = _WORD.match(text, pos)
    return _show(m.group() if m else text[pos])


class _Stop(Exception):
    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


class _Checker:
    """Reads a game body token by token, the slow and careful way, and notes every fault.

    A fault within one line (a turn, a reveal or result line, a glyph, a stray bracket) is noted
    and the reading goes on at the next line, the rest of the faulty line skipped; a fault in the
    shape of the game (an unclosed comment or variation, lines out of order) ends the reading.
    """

    def __init__(self, text: str, pos: int, first_line: int = 1) -> None:
        self.text = text
        self.pos = pos
        self.n = len(text)
        self.first_line = first_line  # file line of the text's first line
        self.faults: list[_Stop] = []
        self.stack: list[list[int]] = []  # [offset of '(', turns read in it]
        self.faulty_opens: set[int] = set()  # offsets of the '(' met on the rest of a faulty line
        self.cut_short = -1  # the end of the last line cut short (a fault at its end)

    def where(self, p: int) -> str:
        line, column = _line_col(self.text, p)
        return f"line {line + self.first_line - 1} column {column}"

    def fail(self, pos: int, message: str) -> None:
        raise _Stop(pos, message)

    def note(self, pos: int, message: str) -> None:
        """A fault the reading goes on after."""
        self.faults.append(_Stop(pos, message))

    def on_line(self, read: Callable[[int], int], p: int) -> int:
        """Read one part of a line with ``read``; at a fault in it, note the fault and skip the line.

        Right after a line cut short (at fault for ending too soon: a line break typed too early),
        a line that does not even start as a turn (its first word is at fault) is taken for the
        rest of that line, not as a fault again."""
        try:
            return read(p)
        except _Stop as stop:
            if not (self.continues_cut_line(p) and stop.pos <= _WORD_END.search(self.text, p).start()):
                self.faults.append(stop)
            end = self.after_line(stop.pos, stop.pos)
            if self.at_line_end(stop.pos):
                self.cut_short = end
            return end

    def continues_cut_line(self, p: int) -> bool:
        """Whether ``p`` is on the line right after a line cut short."""
        return self.cut_short >= 0 and self.text.rfind("\n", 0, p) == self.cut_short

    def after_line(self, p: int, fault: int = -1) -> int:
        """The end of the line at ``p``, skipping what is left of it but its comments (which may span
        lines) and its parentheses (which open and close variations). What is part of the fault at
        offset ``fault`` is not told again: a '{' left open, a '(' never closed, a '(' glued to a word
        or not followed by a turn or comment, a ')' at the fault or glued to a word."""
        text = self.text
        while p < self.n and text[p] != "\n":
            c = text[p]
            if c == "{":
                m = _BRACE_COMMENT.match(text, p)
                p = m.end() if m is not None else p + 1
                continue
            if c == ";":
                end = text.find("\n", p)
                return end if end >= 0 else self.n
            if c == "(" and (p == 0 or text[p - 1] in " \t\n()") and self.opens_a_variation(p):
                self.stack.append([p, 1])  # a variation's own faults are found in its own lines
                self.faulty_opens.add(p)
            elif c == ")" and p != fault and self.stack and (p + 1 == self.n or text[p + 1] in " \t\n{};()"):
                self.stack.pop()
            p += 1
        return p

    def at_line_end(self, p: int) -> bool:
        return p >= self.n or self.text[p] == "\n"

    def spaces(self, p: int) -> int:
        text = self.text
        while p < self.n and text[p] in " \t":
            p += 1
        return p

    def separator(self, p: int, what: str, after: str) -> int:
        """One or more spaces or tabs on the same line, then something that is not a line end."""
        q = self.spaces(p)
        if q == p or self.at_line_end(q):
            self.fail(q if self.at_line_end(q) else p, f"expected {what} after '{after}', found {_found(self.text, q)}")
        return q

    def run(self) -> None:
        text = self.text
        stack = self.stack
        can_branch = False
        glyph_ok = False
        phase = "moves"  # then "reveals", then "result"
        while True:
            while self.pos < self.n and text[self.pos] in " \t\n":
                if text[self.pos] == "\n":
                    glyph_ok = False
                self.pos += 1
            p = self.pos
            if p >= self.n:
                break
            c = text[p]
            if c == "{":
                m = _BRACE_COMMENT.match(text, p)
                if m is None:
                    self.fail(p, f"unclosed comment: '{{' at {self.where(p)} has no '}}'")
                self.pos = m.end()
                glyph_ok = False
            elif c == ";":
                end = text.find("\n", p)
                self.pos = end if end >= 0 else self.n
                glyph_ok = False
            elif c == "(":
                if phase != "moves":
                    self.fail(p, "a variation '(' must follow a turn, not the reveal or result lines")
                if not can_branch:
                    self.note(p, "a variation '(' must follow the turn it replaces")
                if len(stack) >= MAX_VARIATION_DEPTH:
                    self.fail(p, f"variations nest deeper than {MAX_VARIATION_DEPTH} levels")
                stack.append([p, 0])
                can_branch = glyph_ok = False
                self.pos = p + 1
            elif c == ")":
                if not stack:
                    self.note(p, "')' has no matching '('")
                    self.pos = p + 1
                    continue
                if stack[-1][1] == 0:
                    self.note(p, "a variation holds at least one turn, found ')'")
                stack.pop()
                can_branch, glyph_ok = True, False
                self.pos = p + 1
            elif c == "}":
                self.note(p, "'}' has no matching '{'")
                self.pos = self.after_line(p + 1)
            elif c in "!?$":
                m = _GLYPH.match(text, p)
                if m is None:
                    self.note(p, f"unknown glyph {_found(text, p)}: the glyphs are ! ? !! ?? !? ?! and "
                                 "numeric glyphs such as $12")
                elif not glyph_ok:
                    self.note(p, "a glyph goes right after the discard of its turn, on its line and "
                                 "before any comment")
                else:
                    self.pos = m.end()
                    continue
                self.pos = self.after_line(p)
            elif _keyword(text, p, "reveal"):
                if stack:
                    self.unclosed(stack)
                if phase == "result":
                    self.fail(p, "reveal lines come before the result line")
                phase = "reveals"
                can_branch = glyph_ok = False
                self.pos = self.on_line(self.reveal, p)
            elif _keyword(text, p, "result"):
                if stack:
                    self.unclosed(stack)
                if phase == "result":
                    self.fail(p, "a game has one result line; a new game starts with a '---' header line")
                phase = "result"
                can_branch = glyph_ok = False
                self.pos = self.on_line(self.result, p)
            else:
                if phase != "moves" and self.continues_cut_line(p):  # the rest of a reveal or result line
                    self.pos = self.after_line(p)
                    continue
                if phase == "result":
                    self.fail(p, f"only comments may follow the result line (a new game starts with a '---' "
                                 f"header line), found {_found(text, p)}")
                if phase == "reveals":
                    self.fail(p, f"expected a reveal line, the result line or a comment after the reveal lines, "
                                 f"found {_found(text, p)}")
                end = text.find("\n", p)
                segment = text[p:end if end >= 0 else self.n]
                brace = segment.find("}")
                if brace >= 0 and "{" not in segment[:brace]:
                    self.note(p + brace, "'}' has no matching '{' (a comment is written {like this})")
                    self.pos = self.after_line(p + brace + 1)
                else:
                    self.pos = self.on_line(self.turn, p)
                can_branch = glyph_ok = True
                if stack:
                    stack[-1][1] += 1
        if stack:
            self.unclosed(stack)

    def opens_a_variation(self, p: int) -> bool:
        """Whether the '(' at ``p`` is followed by what a variation starts with: a turn or a comment."""
        q = self.spaces(p + 1)
        if q < self.n and self.text[q] in "0123456789{;(":
            return True
        m = _NAME.match(self.text, q)
        return m is not None and m.group() not in RESERVED_NAMES

    def unclosed(self, stack: list[list[int]]) -> None:
        while stack and stack[-1][0] in self.faulty_opens:
            stack.pop()
        if stack:
            p = stack[-1][0]
            self.fail(p, f"unclosed variation: '(' at {self.where(p)} has no ')'")

    def turn(self, p: int) -> int:
        text = self.text
        after: str | None = None
        m = re.compile(r"[0-9]+").match(text, p)
        if m:
            q = m.end()
            if q >= self.n or text[q] != ".":
                self.fail(q, f"expected '.' after the turn number {m.group()}, found {_found(text, q)}")
            after = text[p:q + 1]
            p = self.spaces(q + 1)
            if self.at_line_end(p):
                self.fail(p, f"expected a player's name after '{after}', found {_found(text, p)}")
        m = _NAME.match(text, p)
        if m is None or m.group() in RESERVED_NAMES:
            word = _found(text, p)
            if m is not None and m.group() == "d":
                self.fail(p, "'d' cannot be a player's name: it stands for a draw from the deck")
            if after is None:
                self.fail(p, f"expected {TURN_EXAMPLE}, found {word}")
            self.fail(p, f"expected a player's name after '{after}', found {word}")
        player = m.group()
        p = self.separator(m.end(), DRAW_FORMS, player)
        first = p
        q = self.draw(p, player, "first")
        previous = text[p:q]
        try:
            p = self.separator(q, DRAW_FORMS, previous)
            q = self.draw(p, previous, "second")
        except _Stop as stop:
            self.glued_draws(first, previous, stop)
            raise
        previous = text[p:q]
        p = self.separator(q, "a planting such as Ma3@0,1", previous)
        q = self.planting(p, previous)
        previous = text[p:q]
        p = self.separator(q, "a discard such as /Oa5", previous)
        if text[p] != "/":
            self.fail(p, f"expected a discard such as /Oa5 after '{previous}', found {_found(text, p)}")
        m = _CARD.match(text, p + 1)
        if m is None:
            self.fail(p + 1, f"expected a card such as Ma3 after '/', found {_found(text, p + 1)}")
        q = m.end()
        if q < self.n and text[q] not in _TURN_END:
            self.fail(q, f"unexpected {_found(text, q)} after the discard '{text[p:q]}'")
        return q

    def glued_draws(self, p: int, draw: str, stop: _Stop) -> None:
        """When the second draw is missing after 'dd' (two deck draws without a space), say so."""
        if draw.partition(":")[0] == "dd" and stop.message.startswith(f"expected {DRAW_FORMS}"):
            self.fail(p, f"expected two draws, found one: 'dd' is read as a player's name; "
                         f"separate the two draws with a space: 'd {draw[1:]}'")

    def draw(self, p: int, after: str, ordinal: str) -> int:
        text = self.text
        word = _WORD.match(text, p)
        token = word.group() if word else ""
        if token == "-":
            return p + 1
        owner, colon, card = token.partition(":")
        if owner == "d" or (_NAME.fullmatch(owner) and owner not in RESERVED_NAMES):
            if not colon:
                return p + len(owner)
            m = _CARD.match(text, p + len(owner) + 1)
            if m is None or m.end() != p + len(token):
                self.fail(p + len(owner) + 1,
                          f"expected a card such as Ma3 after '{owner}:', found {_found(text, p + len(owner) + 1)}")
            return m.end()
        hint = " (a turn has two draws)" if _PLANTING_LIKE.match(token) or token.startswith("/") else ""
        self.fail(p, f"expected {DRAW_FORMS} after '{after}', found {_found(text, p)}{hint}")
        raise AssertionError  # pragma: no cover

    def planting(self, p: int, after: str) -> int:
        text = self.text
        word = _WORD.match(text, p)
        token = word.group() if word else ""
        if "@" not in token:
            spaced = _SPACE_BEFORE_AT.match(text, p)
            if spaced:
                self.fail(p, f"expected a planting such as Ma3@0,1 after '{after}', found {_show(spaced.group())}: "
                             "no space is allowed before '@'")
            hint = ""
            if token == "d" or token == "-" or ":" in token or (_NAME.fullmatch(token) and token not in RESERVED_NAMES):
                hint = " (a turn has exactly two draws)"
            self.fail(p, f"expected a planting such as Ma3@0,1 after '{after}', found {_found(text, p)}{hint}")
        m = _CARD.match(text, p)
        if m is None or text[m.end():m.end() + 1] != "@":
            self.fail(p, f"expected a card such as Ma3 to plant, found {_show(token.split('@')[0] or '@')}")
        q = m.end() + 1
        c = _COORDS.match(text, q)
        if c is None:
            self.fail(q, f"expected a cell x,y in whole numbers (such as 0,1 or -2,3) after '@', "
                         f"found {self.cell_found(q)}")
        if c.end() < self.n and text[c.end()] not in " \t\n":
            if text[c.end()] == "/":
                self.fail(c.end(), f"expected a space after '{text[p:c.end()]}', found {_found(text, c.end())}")
            self.fail(q, f"expected a cell x,y in whole numbers (such as 0,1 or -2,3) after '@', "
                         f"found {_found(text, q)}")
        return c.end()

    def cell_found(self, q: int) -> str:
        """What stands after '@' where no cell does; when it is a cell with a space inside, the hint."""
        text = self.text
        spaced = _SPACED_CELL.match(text, q)
        if spaced is None or not any(c in " \t" for c in spaced.group()):
            return _found(text, q)
        cell = spaced.group()
        if cell[0] in " \t":
            return "a space: no space is allowed after '@'"
        comma = cell.index(",")
        where = "before ','" if cell[comma - 1] in " \t" else "after ','"
        return f"{_show(cell)}: no space is allowed {where}"

    def reveal(self, p: int) -> int:
        text = self.text
        q = self.separator(p + 6, "a player's name", "reveal")
        m = _NAME.match(text, q)
        if m is None or m.group() in RESERVED_NAMES:
            self.fail(q, f"expected a player's name after 'reveal', found {_found(text, q)}")
        player = m.group()
        q = m.end()
        while True:
            r = self.spaces(q)
            if r >= self.n or text[r] in "\n{;":
                if q < self.n and text[q] not in _LINE_END:
                    self.fail(q, f"unexpected {_found(text, q)} in {player}'s reveal line")
                return r
            if r == q:
                self.fail(q, f"expected a card such as Ma3 in {player}'s reveal line, found {_found(text, q)}")
            c = _CARD.match(text, r)
            if c is None or (c.end() < self.n and text[c.end()] not in _LINE_END):
                self.fail(r, f"expected a card such as Ma3 in {player}'s reveal line, found {_found(text, r)}")
            q = c.end()

    def result(self, p: int) -> int:
        text = self.text
        what = "'*' or the scores such as 'Ana 24, Ben 19'"
        q = self.separator(p + 6, what, "result")
        if text[q] == "*":
            r = q + 1
            if r < self.n and text[r] not in _LINE_END:
                self.fail(r, f"unexpected {_found(text, r)} after 'result *'")
            return r
        after = "result"
        while True:
            m = _NAME.match(text, q)
            if m is None or m.group() in RESERVED_NAMES:
                self.fail(q, f"expected {what if after == 'result' else 'a player name'} after '{after}', "
                             f"found {_found(text, q)}")
            name = m.group()
            r = self.separator(m.end(), f"{name}'s score", name)
            s = re.compile(r"[0-9]+").match(text, r)
            if s is None or (s.end() < self.n and text[s.end()] not in _LINE_END and text[s.end()] != ","):
                self.fail(r, f"expected {name}'s score (a whole number) after '{name}', found {_found(text, r)}")
            q = s.end()
            t = self.spaces(q)
            if t < self.n and text[t] == ",":
                after = ","
                q = self.spaces(t + 1)
                if self.at_line_end(q):
                    self.fail(q, f"expected a player's name after ',', found {_found(text, q)}")
                continue
            if t >= self.n or text[t] in "\n{;":
                return t
            after = text[r:s.end()]
            q = t


def _keyword(text: str, p: int, word: str) -> bool:
    end = p + len(word)
    return text.startswith(word, p) and (end >= len(text) or not (text[end].isalnum() or text[end] in "_'-:"))


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of an offset within ``text`` (relative to its start)."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


_TERMINAL_WORDS = {
    "HEADER": "a game header ('---')",
    "COMMENT": "a comment",
    "LPAR": "a variation '('",
    "RPAR": "')'",
    "TURNS": "a turn",
    "REVEALS": "a reveal line",
    "RESULT": "a result line",
    "$END": "the end of the game",
}


def _human_list(names: set[str]) -> str:
    words = sorted({_TERMINAL_WORDS.get(n, "something else") for n in names})
    if not words:
        return "nothing more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _body_faults(chunk: str, first_line: int, file: str, source_line: Callable[[int], str],
                 start: int) -> list[NotationError]:
    """Every fault the hand-written checker finds in a game's body, from offset ``start`` on."""
    checker = _Checker(chunk, start, first_line)
    try:
        checker.run()
    except _Stop as stop:
        checker.faults.append(stop)
    errors = []
    for fault in sorted(checker.faults, key=lambda fault: fault.pos):
        line, column = _line_col(chunk, fault.pos)
        absolute = line + first_line - 1
        errors.append(NotationError(fault.message, file=file, line=absolute, column=column,
                                    source_line=source_line(absolute)))
    return errors


#: A line of a game's body: a header that holds one has lost its closing '---' line.
_BODY_LINE = re.compile(r"^[ \t]*(?:[0-9]+\.|reveal[ \t]|result[ \t])", re.M)


def _faults_after_header(chunk: str, first_line: int, file: str, source_line: Callable[[int], str]) -> list[NotationError]:
    """The faults of the body of a game whose header is at fault, when it is clear where the body
    starts (not when the header holds lines of the body: where its '---' line was meant to be is a guess)."""
    header = _HEADER_BLOCK.match(chunk)
    if header is None or _BODY_LINE.search(header.group()):
        return []
    return _body_faults(chunk, first_line, file, source_line, header.end())


def _diagnose(chunk: str, first_line: int, exc: UnexpectedInput, file: str,
              source_line: Callable[[int], str]) -> list[NotationError]:
    """Turn lark's complaint about one game into NotationErrors a person understands: every fault
    of the game's lines that the checker finds."""
    header = _HEADER_BLOCK.match(chunk)
    errors = _body_faults(chunk, first_line, file, source_line, header.end() if header else 0)
    if errors:
        return errors
    # The checker found nothing: fall back on what lark saw (never naming its terminals).
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        line = getattr(token, "line", None) or 1
        column = getattr(token, "column", None) or 1
        expected = set(exc.expected or ())
        found = "the end of the game" if token.type == "$END" else _show(str(token).split("\n")[0])
    else:
        line = getattr(exc, "line", 1) or 1
        column = getattr(exc, "column", 1) or 1
        expected = set(getattr(exc, "allowed", None) or ())
        found = _found(chunk, getattr(exc, "pos_in_stream", 0) or 0)
    absolute = line + first_line - 1
    return [NotationError(f"expected {_human_list(expected)}, found {found}", file=file, line=absolute,
                          column=column, source_line=source_line(absolute))]
