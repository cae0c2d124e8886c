"""What the server shows under the cursor: on a turn, the table after it (present/board.py's
picture and the score so far); on a card, where it lies then; on an engine's note, what it says;
on the result line, the score sheet (present/report.py)."""

from __future__ import annotations

import re

from arbo_notation.engine.cards import Card
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError
from arbo_notation.game.replay import MAIN
from arbo_notation.lsp.documents import Cut
from arbo_notation.lsp.outline import card_at
from arbo_notation.lsp.tables import Replays, played_turns
from arbo_notation.notation.engine_notes import EngineNote, read_note
from arbo_notation.notation.model import Comment
from arbo_notation.present.board import render_game
from arbo_notation.present.report import render_sheet

_NOTE = re.compile(r"\{(arbo: [^}]*)\}")


def hover_text(cut: Cut, line: int, column: int, replays: Replays) -> str | None:
    """The hover's text (Markdown) at 0-based ``line`` and ``column``, None when there is none."""
    text = cut.lines(line + 1)
    for match in _NOTE.finditer(text):
        if match.start() <= column < match.end():
            note = read_note(Comment(match.group(1)))
            return note_text(note) if note is not None else None
    game = cut.game_at(line)
    if game is None:
        return None
    replay = replays.replay(game)
    if replay is None or MAIN not in replay.lines:
        return None
    turns = played_turns(replay)
    on_line = [p for p in turns if p.turn.pos is not None and p.turn.pos.line == line + 1]
    before = [p for p in turns if p.turn.pos is not None and p.turn.pos.line <= line + 1]
    table = before[-1].after if before else replay.lines[MAIN].states[0]
    sheet = replay.sheet
    if text.startswith("result") and sheet is not None:
        return f"```\n{render_sheet(sheet)}\n```"
    card = card_at(text, column)
    if card is not None and table is not None:
        return _card_text(table, card[2], f"after turn {before[-1].turn.number}" if before else "at the start")
    if not on_line:
        return None
    played = on_line[0]
    after = played.after
    if after is None:
        return f"turn {played.turn.number} is illegal: the table before it:\n\n```\n{render_game(played.before)}\n```"
    return f"After turn {played.turn.number}:\n\n```\n{render_game(after)}\n```\n\n{score_so_far(after)}"


def _card_text(table: Game, word: str, when: str) -> str | None:
    try:
        card = Card.parse(word)
    except ArboError:
        return None
    if card.species not in table.config.species:
        return f"{card}: {card.species} is not a species in play"
    where = table.where_is(card)
    return f"{card} {when}: {where or 'not seen yet (in the deck or a hidden hand)'}"


def score_so_far(table: Game) -> str:
    """Each player's score if the game ended at this table, when every hand is known."""
    totals = running_score(table)
    if totals is None:
        return "Score so far: not known (hidden hands)."
    return "Score so far: " + ", ".join(f"{player} {points}" for player, points in totals.items()) + "."


def running_score(table: Game) -> dict[str, int] | None:
    """Each player's total if the game ended here (engine/totals.py), None while a hand is hidden."""
    if table.hidden_players():
        return None
    return table.final_totals()


def note_text(note: EngineNote) -> str:
    """An engine's note in words (notation/engine_notes.py reads it)."""
    how = "solved exactly" if note.exact else f"{note.samples} sampled worlds a decision"
    lines = [f"The engine's note ({how}): the margin expected after this turn is {note.value:+.1f} points."]
    if note.glyph is not None:
        added = "added by the engine" if note.glyph_added else "the engine agrees"
        lines.append(f"Glyph {note.glyph} ({added}).")
    if note.best is not None:
        lines.append(f"Better: {note.best}, {note.gain:.1f} points better.")
    elif note.gain > 0:
        lines.append(f"{note.gain:.1f} points lost against the best turn found.")
    return "\n\n".join(lines)
