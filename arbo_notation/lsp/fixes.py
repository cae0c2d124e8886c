"""Quick fixes for the faults people make most, each an edit of one line that `arbo check` then
accepts: a planting moved to the nearest legal cell, the space before '@' taken out or the one
after a word put in, a card named with the wrong case written right."""

from __future__ import annotations

import re
from dataclasses import dataclass

from arbo_notation.engine.cards import Coord
from arbo_notation.engine.lexicon import CARD_SHAPE
from arbo_notation.errors import Code
from arbo_notation.lsp.completion import header_players
from arbo_notation.lsp.documents import Cut
from arbo_notation.lsp.outline import CARD_WORD
from arbo_notation.lsp.tables import Replays, played_turns


@dataclass(frozen=True, slots=True)
class Fix:
    """Replace ``start`` to ``end`` of 0-based ``line`` with ``text``."""

    title: str
    line: int
    start: int
    end: int
    text: str


def fixes(cut: Cut, line: int, column: int, message: str, code: str, replays: Replays) -> list[Fix]:
    """The fixes of a diagnostic (as published: its line, start column, message and code)."""
    text = cut.lines(line + 1)
    found: list[Fix] = []
    if "no space is allowed before '@'" in message:
        space = re.compile(r"[ \t]+@").search(text, column)
        if space is not None:
            found.append(Fix("Take out the space before '@'", line, space.start(), space.end() - 1, ""))
    if message.startswith("expected a space after "):
        found.append(Fix("Put a space here", line, column, column, " "))
    glued = _glued(cut, line, text, column, message)
    if glued is not None:
        found.append(glued)
    case = _case(line, text, column, message)
    if case is not None:
        found.append(case)
    if code == Code.PLANT:
        cell = _nearest_cell(cut, line, text, replays)
        if cell is not None:
            found.append(cell)
    return found


def _glued(cut: Cut, line: int, text: str, column: int, message: str) -> Fix | None:
    """'dMa3@0,0' or 'AnaMa3@0,0': a draw and the planting written without the space between."""
    match = re.search(r"found '([^' ]+)'", message)
    if match is None or not text.startswith(match.group(1), column):
        return None
    word = match.group(1)
    game = cut.game_at(line)
    sources = {"d", *header_players(game.text.split("\n")[1:40])} if game is not None else {"d"}
    for at in range(1, len(word)):
        if word[:at] in sources and _PLANTING_START.match(word, at):
            return Fix(f"Put a space between '{word[:at]}' and '{word[at:]}'", line, column + at, column + at, " ")
    return None


_PLANTING_START = re.compile(rf"{CARD_SHAPE}@")
_NOT_IN_PLAY = re.compile(r"\b([A-Za-z]{1,3}) is not a species in play \(([^)]*)\)")


def _case(line: int, text: str, column: int, message: str) -> Fix | None:
    """A card whose species is in play but written in another case ('ma3', 'MA3')."""
    match = _NOT_IN_PLAY.search(message)
    if match is None:
        return None
    in_play = {code.strip().lower(): code.strip() for code in match.group(2).split(",")}
    written = match.group(1)
    right = in_play.get(written.lower())
    if right is None:
        return None
    for card in CARD_WORD.finditer(text, column):
        if card.group()[:-1] == written:
            fixed = right + card.group()[-1]
            return Fix(f"Write {fixed}", line, card.start(), card.end(), fixed)
    return None


def _nearest_cell(cut: Cut, line: int, text: str, replays: Replays) -> Fix | None:
    """The turn's planting moved to the free cell nearest the one written, among the player's."""
    game = cut.game_at(line)
    replay = replays.replay(game) if game is not None else None
    if replay is None:
        return None
    turn = next((p for p in played_turns(replay) if p.turn.pos is not None and p.turn.pos.line == line + 1), None)
    pos = turn.turn.plant_pos if turn is not None else None
    if turn is None or pos is None:
        return None
    written = turn.turn.plant.coord
    cells = turn.before.plant_cells(turn.turn.player)
    if written in cells or not cells:
        return None
    nearest = min(cells, key=lambda c: ((c.x - written.x) ** 2 + (c.y - written.y) ** 2, c.y, c.x))
    planting = re.compile(r"@(-?[0-9]+,-?[0-9]+)").search(text, pos.column - 1)
    if planting is None:
        return None
    return Fix(
        f"Plant {turn.turn.plant.card} at {_cell(nearest)}, the nearest free cell",
        line,
        planting.start(1),
        planting.end(1),
        _cell(nearest),
    )


def _cell(cell: Coord) -> str:
    return f"{cell.x},{cell.y}"
