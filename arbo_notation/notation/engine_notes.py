"""The analysis engine's annotations in a record: the ``{arbo: ...}`` comment, read and written.

A comment whose text starts with ``arbo:`` is the engine's (docs/NOTATION.md, "The engine's
annotations"); every other comment is a person's and is never touched. The comment says the
expected final margin of the turn as played, how it was found, and on a flagged turn the glyph
and the better turn::

    {arbo: +1.3 (48 samples)}
    {arbo: ?? -3.2 (48 samples); better d d:Ca8 Ca8@1,0 /Wi2, 4.5 points better}
    {arbo: (?) +0.5 (exact); better ...}      the glyph in brackets: a person's glyph stood, so
                                              the engine added none to the turn
    {arbo: +2.4 (48 samples); 0.4 points lost}  an unflagged turn that lost a little

Taking the engine's annotations off a turn removes its comments and the glyph it added. Its
numbers have the bounds of their options (notation/bounds.py): a note past them is no note to
the readers here, and a fault that `arbo check` reports where it stands (:func:`note_fault`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from arbo_notation.engine.lexicon import ENGINE_MARK as ENGINE_MARK  # (the marker, exported here as before)
from arbo_notation.notation.bounds import budget_fault, points_fault

if TYPE_CHECKING:  # the records' model is loaded by whoever has records: a clean `arbo check` never does
    from arbo_notation.notation.model import Comment, GameRecord, Turn


_NOTE_RE = re.compile(
    r"arbo: (?:(?P<open>\()?(?P<glyph>\?\?|\?!|\?)\)? )?(?P<value>[+-]\d+(?:\.\d+)?) "
    r"\((?:(?P<samples>\d+) samples?|(?P<exact>exact))\)"
    r"(?:; better (?P<best>.+), (?P<gain>\d+(?:\.\d+)?) points? better|; (?P<lost>\d+(?:\.\d+)?) points? lost)?\Z"
)


@dataclass(frozen=True, slots=True)
class EngineNote:
    """What the engine says of one turn. ``glyph_added``: the glyph is on the turn by its hand."""

    value: float  # the expected final margin of the turn as played
    samples: int  # sampled worlds per decision (1 when exact)
    exact: bool
    glyph: str | None = None
    glyph_added: bool = False
    best: str | None = None  # the better turn, in the notation, on a flagged turn
    gain: float = 0.0  # how many points of margin the turn lost against the best found

    def __str__(self) -> str:
        text = ENGINE_MARK
        if self.glyph is not None:
            text += f" {self.glyph}" if self.glyph_added else f" ({self.glyph})"
        text += f" {self.value:+.1f} " + ("(exact)" if self.exact else f"({self.samples} samples)")
        if self.best is not None:
            text += f"; better {self.best}, {self.gain:.1f} points better"
        elif self.gain > 0:
            text += f"; {self.gain:.1f} points lost"
        return text

    def comment(self) -> Comment:
        from arbo_notation.notation.model import Comment  # deferred: see the imports

        return Comment(str(self))


def is_engine_comment(comment: Comment) -> bool:
    return comment.text.startswith(ENGINE_MARK)


#: Where an engine's note may stand in a record's text: from each ``arbo:`` to the end of its
#: line or its ``}`` (a note is one line: its pattern holds no line break).
_NOTE_IN_TEXT = re.compile(r"(?=(arbo: [^}\n]*))")


def note_fault(text: str) -> str | None:
    """What is wrong with the numbers of an engine's note (a comment's text), past the bounds of
    their options; None for a note within them, or a comment that is no note of the engine's."""
    match = _NOTE_RE.match(text)
    if match is None:
        return None
    if match["samples"] is not None:
        samples = int(match["samples"])
        fault = budget_fault(samples)
        if fault is not None:
            return f"the engine's note says {samples} samples: {fault}"
    for name in ("value", "gain", "lost"):
        if match[name] is not None:
            fault = points_fault(float(match[name]))
            if fault is not None:
                return f"the engine's note says {match[name]} points: {fault}"
    return None


def may_hold_note_faults(text: str) -> bool:
    """Whether a record's text may hold an engine's note with a :func:`note_fault`: never false
    when one does (a quick look for checks that skip reading the comments)."""
    if ENGINE_MARK not in text:
        return False
    return any(note_fault(match[1].rstrip()) is not None for match in _NOTE_IN_TEXT.finditer(text))


def read_note(comment: Comment) -> EngineNote | None:
    """The engine's note in a comment; None for a person's comment (or one it cannot read, its
    numbers past their bounds among them)."""
    match = _NOTE_RE.match(comment.text) if is_engine_comment(comment) else None
    if match is None or note_fault(comment.text) is not None:
        return None
    exact = match["exact"] is not None
    return EngineNote(
        value=float(match["value"]),
        samples=1 if exact else int(match["samples"]),
        exact=exact,
        glyph=match["glyph"],
        glyph_added=match["glyph"] is not None and match["open"] is None,
        best=match["best"],
        gain=float(match["gain"] or match["lost"] or 0.0),
    )


def note_of(turn: Turn) -> EngineNote | None:
    """The engine's note on a turn, if it has one."""
    for comment in turn.comments_after:
        note = read_note(comment)
        if note is not None:
            return note
    return None


def without_notes(turn: Turn) -> Turn:
    """The turn without the engine's comments and the glyphs they say it added."""
    mine = [c for c in turn.comments_after + turn.comments_before if is_engine_comment(c)]
    if not mine:
        return turn
    glyphs = list(turn.glyphs)
    for comment in mine:
        note = read_note(comment)
        if note is not None and note.glyph_added and note.glyph in glyphs:
            glyphs.remove(note.glyph)
    return replace(
        turn,
        glyphs=tuple(glyphs),
        comments_before=tuple(c for c in turn.comments_before if not is_engine_comment(c)),
        comments_after=tuple(c for c in turn.comments_after if not is_engine_comment(c)),
    )


def with_note(turn: Turn, note: EngineNote) -> Turn:
    """The turn (its engine notes taken off first) with this note; the note's glyph goes on the
    turn only when the turn carries no glyph of a person's."""
    turn = without_notes(turn)
    glyph = None if turn.glyphs else note.glyph  # (None: no glyph added)
    note = replace(note, glyph_added=glyph is not None)
    glyphs = turn.glyphs + (() if glyph is None else (glyph,))
    return replace(turn, glyphs=glyphs, comments_after=turn.comments_after + (note.comment(),))


def annotate(record: GameRecord, notes: dict[int, EngineNote], *, clear: bool = True) -> GameRecord:
    """The record with its main line's turns annotated (``notes`` by turn index, 0-based); with
    ``clear``, the engine's older notes are taken off every other turn of the main line too."""
    turns = []
    for index, turn in enumerate(record.turns):
        if index in notes:
            turns.append(with_note(turn, notes[index]))
        else:
            turns.append(without_notes(turn) if clear else turn)
    return replace(record, turns=tuple(turns))
