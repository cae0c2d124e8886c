"""The replayer as plain text: each turn in notation and the board after it, then the scoring.

What `arbo replay --plain` prints, and what it prints when its output is not a terminal. No textual.
"""

from __future__ import annotations

from typing import Iterator

from arbo_notation.analysis.accuracy import ACCURACY_RULE, of_record
from arbo_notation.present.board import knowledge_lines, render_game
from arbo_notation.errors import visible
from arbo_notation.notation.model import Comment, Turn
from arbo_notation.game.replay import MAIN, Line
from arbo_notation.present.navigation import Cursor, ReplayModel, seen_notation
from arbo_notation.present.report import render_sheet


def _comments(comments: tuple[Comment, ...], indent: str = "  ") -> Iterator[str]:
    for comment in comments:
        yield f"{indent}{{{comment.text.strip()}}}"


def _turn_heading(number: int, turn: Turn, viewer: str | None) -> str:
    glyphs = (" " + " ".join(turn.glyphs)) if turn.glyphs else ""
    return f"{number}. {seen_notation(turn, viewer)}{glyphs}"


def _variation_lines(model: ReplayModel, path: tuple[tuple[int, int], ...], indent: str) -> Iterator[str]:
    """A variation as its turns in notation (no boards), nested variations indented under them."""
    line: Line = model.lines[path]
    _, number = path[-1]
    yield f"{indent}variation {number + 1}:"
    inner = indent + "  "
    if line.variation is not None:
        yield from _comments(line.variation.comments_before, inner)
    for index, turn in enumerate(line.turns[: line.legal]):
        yield f"{inner}{_turn_heading(line.start + index + 1, turn, model.perspective)}"
        yield from (f"{inner}  error: {fault}" for fault in line.faults_of(index))
        yield from _comments(turn.comments_before + turn.comments_after, inner + "  ")
        for sub in range(len(turn.variations)):
            yield from _variation_lines(model, path + ((index, sub),), inner + "  ")
    if line.error is not None:
        yield f"{inner}error: {line.error}"
    if line.variation is not None:
        yield from _comments(line.variation.comments_after, inner)


def plain_lines(model: ReplayModel, start: int = 0, *, knowledge: bool = False) -> Iterator[str]:
    """The main line from the position after turn ``start`` to its end, then the scoring; with
    ``knowledge``, what the view knows after each position (unseen cards, rights to score). Text
    from the record (header fields, comments) has its unprintable characters made visible, so a
    record cannot send the terminal commands."""
    return (visible(line, "\n") for line in _plain_lines(model, start, knowledge=knowledge))


def _plain_lines(model: ReplayModel, start: int = 0, *, knowledge: bool = False) -> Iterator[str]:

    main = model.lines[MAIN]
    record = model.record
    yield model.title()
    view = f"{model.perspective}'s view (other hands hidden)" if model.perspective else "all hands shown"
    yield f"game {record.index} of {record.file}; {len(record.turns)} turns recorded; {view}"
    first = max(0, min(start - main.start, main.legal))  # ``start`` counts the game's turns, a position's too
    for index in range(first, main.legal + 1):
        cursor = Cursor(MAIN, index)
        yield ""
        if index == 0:
            yield "== start of the game ==" if not main.start else f"== the position after turn {main.start} =="
            yield from _comments(record.comments)
        else:
            turn = main.turns[index - 1]
            yield f"== {_turn_heading(main.start + index, turn, model.perspective)} =="
            yield from (f"  error: {fault}" for fault in main.faults_of(index - 1))
            yield from _comments(turn.comments_before + turn.comments_after)
            for number in range(len(turn.variations)):
                yield from _variation_lines(model, ((index - 1, number),), "  ")
        yield render_game(model.state_at(cursor), hands=model.shown_hands(cursor))
        if knowledge:
            yield ""
            yield from knowledge_lines(model.knowledge(cursor))
    if main.error is not None:
        yield ""
        yield f"== the replay stops: {main.error} =="
    end = Cursor(MAIN, main.legal)
    state = model.state_at(end)
    yield ""
    if not state.is_over:
        if main.error is None:
            yield f"== the record stops before the end of the game ({state.deck_size} cards left in the deck) =="
        yield from _accuracy_lines(model)
        return
    sheet = model.sheet(end)
    if sheet is None:
        yield f"== scoring: {model.unscored_reason(end)} =="
        yield from _accuracy_lines(model)
        return
    yield "== scoring =="
    yield render_sheet(sheet).rstrip("\n")
    yield from _accuracy_lines(model)


def _accuracy_lines(model: ReplayModel) -> Iterator[str]:
    """Each player's points lost and accuracy, as the analysed record's notes say them."""
    judged = of_record(model.record)
    if judged:
        yield ""
        yield "== points lost and accuracy (the engine's notes) =="
        yield from (str(player) for player in judged)
        yield f"({ACCURACY_RULE}; docs/ANALYSIS.md)"


def render_plain(model: ReplayModel, start: int = 0) -> str:
    return "\n".join(plain_lines(model, start)) + "\n"
