"""Building the records of a game from the pieces a reader has recognised, for both readers.

The grammar's parser (syntax.py, lark) and the scanner (scanner.py) recognise the same text
in their own ways; both hand the pieces to the functions here, so a record is built one way only:
turns from regular-expression matches of whole turns (one group per part of a turn, as
``TURN_GROUPS`` says), runs of turns with the comments and variations after them, then
variations, reveals, the result line and the game, with comments placed as docs/NOTATION.md
("Comments") tells.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from arbo_notation.engine.actions import Draw, DrawAction, Plant, Skip
from arbo_notation.engine.cards import Coord
from arbo_notation.engine.lexicon import CARD_SHAPE, GLYPH, NAME_SHAPE, REVEAL_WORD
from arbo_notation.notation.reading.parts import Cards, Run, TooLong
from arbo_notation.notation.model import (
    Comment,
    GameRecord,
    Header,
    Result,
    Reveal,
    Turn,
    Variation,
)

# The scanner makes its positions with build.Pos: it loads the records' module through this one only.
from arbo_notation.notation.model import Pos as Pos

#: A run of turns as the records have it: Turn records, then Comment and Variation records.
RecordRun = Run[Turn, Comment | Variation]

#: The groups of a whole-turn match, in order: the comments before the turn, its number, player,
#: first and second draw, planting, discarded card (without '/'), glyphs, {comments} on its line,
#: and the text of a ; comment closing the line.
TURN_GROUPS = ("before", "number", "player", "first", "second", "plant", "discard", "glyphs", "braces", "remark")


# ------------------------------------------------------------------------------------------------
# Decoding pieces (the reader has checked them; these only take them apart)

_BRACE_TEXT = re.compile(r"\{([^}]*)\}")
_COMMENTS = re.compile(r"\{([^}]*)\}|;([^\n]*)")
_SCORE_DECODE = re.compile(rf"({NAME_SHAPE})[ \t]+([0-9]+)")


def comments_in(text: str) -> tuple[Comment, ...]:
    """The comments of a run of {brace} and ; comments, in order."""
    return tuple(
        Comment(m.group(1).strip()) if m.group(1) is not None else Comment(m.group(2).strip(), line=True)
        for m in _COMMENTS.finditer(text)
    )


def comment_of(token: str) -> Comment:
    """The comment of one {brace} or ; comment."""
    if token[0] == "{":
        return Comment(token[1:-1].strip())
    return Comment(token[1:].strip(), line=True)


class _Draws(dict[tuple[str, str], tuple[DrawAction, DrawAction]]):
    """The two draws' texts of a turn ('d', 'd:Ma3', 'Ana', 'Ana:Ja2', '-') -> its draws."""

    def __init__(self, cards: Cards) -> None:
        super().__init__()
        self.cards = cards
        self.one: dict[str, DrawAction] = {}

    def __missing__(self, texts: tuple[str, str]) -> tuple[DrawAction, DrawAction]:
        draws = self[texts] = (self.draw(texts[0]), self.draw(texts[1]))
        return draws

    def draw(self, text: str) -> DrawAction:
        found = self.one.get(text)
        if found is None:
            if text == "-":
                found = Skip()
            else:
                owner, _, card_text = text.partition(":")
                found = Draw(None if owner == "d" else owner, self.cards[card_text] if card_text else None)
            self.one[text] = found
        return found


class _Plantings(dict[str, Plant]):
    """Planting text ('Ma3@1,-2') -> Plant."""

    def __init__(self, cards: Cards) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, text: str) -> Plant:
        card_text, _, cell = text.partition("@")
        x, _, y = cell.partition(",")
        planting = self[text] = Plant(self.cards[card_text], Coord(int(x), int(y)))
        return planting


class Pieces:
    """The decoded pieces of one reading (cards, a turn's two draws, plantings), each decoded once."""

    __slots__ = ("cards", "draws", "plantings")

    def __init__(self) -> None:
        self.cards = Cards()
        self.draws = _Draws(self.cards)
        self.plantings = _Plantings(self.cards)


# ------------------------------------------------------------------------------------------------
# Turns, runs of turns, variations, reveals, the result and the game


def turns_of(
    matches: Iterable[re.Match[str]], text: str, at: int, line: int, line_start: int, pieces: Pieces
) -> tuple[list[Turn], int]:
    """The turns of successive whole-turn matches in ``text`` from index ``at`` (groups as
    TURN_GROUPS), and the end of the last match. ``line`` is the line of index ``at`` and
    ``line_start`` the index in ``text`` where that line begins (negative when ``text`` starts
    inside the line).

    This is the hot loop of reading: a turn costs two records (the turn and its position) and
    the tuple of its parts' columns; its draws, planting and discard are values decoded once a
    reading.
    """
    previous = at
    cards = pieces.cards
    draws = pieces.draws
    plantings = pieces.plantings
    turns: list[Turn] = []
    append = turns.append
    count = text.count
    start = base = 0
    try:
        for m in matches:
            before, number, player, d1, d2, plant, discard, glyphs, braces, remark = m.groups()
            start = m.start(2) if number else m.start(3)
            if start != previous:
                breaks = count("\n", previous, start)
                if breaks:
                    line += breaks
                    line_start = text.rindex("\n", previous, start) + 1
            previous = m.end()
            base = 1 - line_start
            if glyphs or braces or remark is not None:
                marks = tuple(glyphs.split()) if glyphs else ()
                after = [Comment(t.strip()) for t in _BRACE_TEXT.findall(braces)] if braces else []
                if remark is not None:
                    after.append(Comment(remark.strip(), line=True))
                comments_after = tuple(after)
            else:
                marks = comments_after = ()
            append(
                Turn(
                    player,
                    draws[d1, d2],
                    plantings[plant],
                    cards[discard],
                    int(number) if number else None,
                    marks,
                    comments_in(before) if before else (),
                    comments_after,
                    (),
                    Pos(line, base + start),
                    (base + m.start(4), base + m.start(5), base + m.start(6), base + m.start(7) - 1),
                )
            )
            if braces and "\n" in braces:  # a comment over several lines: the next turn is lower
                line += braces.count("\n")
                line_start = m.start(9) + braces.rindex("\n") + 1
    except ValueError:  # int() refuses a number of more digits than sys.get_int_max_str_digits()
        raise TooLong("turn", line, base + start) from None
    return turns, previous


#: The turns of a TURNS token of the grammar's parser, in the groups TURN_GROUPS names (the
#: grammar has checked them: this only takes them apart).
_TURN_DECODE = re.compile(
    r"((?:(?:\{[^}]*\}|;[^\n]*+)[ \t\n]*)*)"  # comments before the turn
    rf"(?:([0-9]+)\.[ \t]*)?(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+/({CARD_SHAPE})"
    rf"((?:[ \t]*{GLYPH})*)"  # glyphs
    r"((?:[ \t]*\{[^}]*\})*)"  # {comments} on the turn's line
    r"(?:[ \t]*;([^\n]*))?"  # ; comment
)


def run_of_turns(text: str, line: int, line_start: int, pieces: Pieces) -> RecordRun:
    """The run of the turns in a TURNS token of the grammar's parser (``line`` and ``line_start``
    as for turns_of)."""
    turns, _ = turns_of(_TURN_DECODE.finditer(text), text, 0, line, line_start, pieces)
    return Run(turns)


def _rebuilt(
    turn: Turn,
    comments_before: tuple[Comment, ...] | None = None,
    comments_after: tuple[Comment, ...] | None = None,
    variations: tuple[Variation, ...] | None = None,
) -> Turn:
    return Turn(
        turn.player,
        turn.draws,
        turn.plant,
        turn.discard,
        turn.number,
        turn.glyphs,
        turn.comments_before if comments_before is None else comments_before,
        turn.comments_after if comments_after is None else comments_after,
        turn.variations if variations is None else variations,
        turn.pos,
        turn.columns,
    )


def _assemble(runs: list[RecordRun]) -> tuple[list[Turn], list[Comment]]:
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
        for item in annotations:
            if not isinstance(item, Comment):
                break
            loose.append(item)
        i = len(loose)
        if i == len(annotations):
            turns.extend(run_turns)
            pending = tuple(loose)
            continue
        variations: list[Variation] = []
        waiting: list[Comment] = []
        for item in annotations[i:]:
            if isinstance(item, Comment):
                waiting.append(item)
            else:
                if waiting:
                    item = dataclasses.replace(item, comments_before=tuple(waiting) + item.comments_before)
                    waiting = []
                variations.append(item)
        last = run_turns[-1]
        run_turns[-1] = _rebuilt(last, comments_after=last.comments_after + tuple(loose), variations=tuple(variations))
        turns.extend(run_turns)
        pending = tuple(waiting)
    return turns, list(pending)


def variation(runs: list[RecordRun], comments: list[Comment], at: Pos) -> Variation:
    """A variation: the comments right after its '(', its runs of turns; ``at`` is its '('."""
    turns, trailing = _assemble(runs)
    before = list(comments)
    if turns[0].comments_before:  # comments before the first turn open the variation
        before.extend(turns[0].comments_before)
        turns[0] = _rebuilt(turns[0], comments_before=())
    return Variation(tuple(turns), tuple(before), tuple(trailing), at)


_REVEAL_DECODE = re.compile(rf"{REVEAL_WORD}[ \t]+(\S+)((?:[ \t]+{CARD_SHAPE})*)")


def reveals(text: str, line: int, line_start: int, comments: Iterable[Comment], pieces: Pieces) -> list[Reveal]:
    """The reveal lines of ``text`` (one or more, separated by white space, nothing after the
    last card); ``comments`` follow the last of them. ``line`` and ``line_start`` as for turns_of."""
    previous = 0
    cards = pieces.cards
    found: list[Reveal] = []
    for m in _REVEAL_DECODE.finditer(text):
        start = m.start()
        breaks = text.count("\n", previous, start)
        if breaks:
            line += breaks
            line_start = text.rindex("\n", previous, start) + 1
        previous = start
        found.append(
            Reveal(m.group(1), tuple([cards[w] for w in m.group(2).split()]), Pos(line, start - line_start + 1))
        )
    comments = tuple(comments)
    if comments:
        last = found[-1]
        found[-1] = Reveal(last.player, last.cards, last.pos, comments)
    return found


def result(text: str, at: Pos, comments: Iterable[Comment]) -> Result:
    """The result line ``text`` ('result *' or 'result Ana 24, Ben 19') standing at ``at``."""
    rest = text[6:].strip()
    comments = tuple(comments)
    if rest == "*":
        return Result((), True, at, comments)
    try:
        scores = tuple((name, int(points)) for name, points in _SCORE_DECODE.findall(rest))
    except ValueError:  # int() refuses a number of more digits than sys.get_int_max_str_digits()
        raise TooLong("result", at.line, at.column) from None
    return Result(scores, False, at, comments)


def game(
    header: Header,
    comments: list[Comment],
    runs: list[RecordRun],
    found: list[Reveal],
    end: Result | None,
    file: str,
    index: int = 1,
) -> GameRecord:
    """A game: its header, the comments before its first run, its runs, reveals and result;
    ``index`` is its place in its file (1-based)."""
    comments = list(comments)
    turns, trailing = _assemble(runs)
    if turns and turns[0].comments_before:  # comments before the first turn are the game's
        comments.extend(turns[0].comments_before)
        turns[0] = _rebuilt(turns[0], comments_before=())
    if trailing:
        last = turns[-1]
        turns[-1] = _rebuilt(last, comments_after=last.comments_after + tuple(trailing))
    return GameRecord(header, tuple(turns), tuple(comments), tuple(found), end, file, index)
