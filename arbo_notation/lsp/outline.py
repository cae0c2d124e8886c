"""A record's outline and navigation: its games and turns as symbols, the folds of its games,
headers and variations, and where a card was drawn and planted."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arbo_notation.engine.actions import Draw
from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError
from arbo_notation.engine.lexicon import CARD_END, CARD_SHAPE
from arbo_notation.lsp.documents import MAX_CHECKED_CHARS, MAX_CHECKED_GAMES, Cut, header_end
from arbo_notation.lsp.tables import read_record
from arbo_notation.notation.model import GameRecord, Turn
from arbo_notation.notation.reading.split import GameText

#: A card written in a record, on its own or inside a draw, a planting or a discard.
CARD_WORD = re.compile(rf"(?<![A-Za-z0-9_]){CARD_SHAPE}{CARD_END}")


@dataclass(frozen=True, slots=True)
class Span:
    """Where something is written: 0-based lines, columns in characters."""

    line: int
    start: int
    end_line: int
    end: int


@dataclass(frozen=True, slots=True)
class Symbol:
    """A game, a turn or a variation of the outline, with what it holds."""

    name: str
    kind: str  # "game", "turn" or "variation"
    span: Span
    children: tuple[Symbol, ...] = field(default=())


def outlined_games(cut: Cut) -> list[GameText]:
    """The games the outline, folds and hints read: those the diagnostics check (documents.py)."""
    games, size = [], 0
    for game in cut.games[:MAX_CHECKED_GAMES]:
        size += len(game.text)
        if size > MAX_CHECKED_CHARS:
            break
        games.append(game)
    return games


def symbols(cut: Cut) -> list[Symbol]:
    """Each game, with its main line's turns, each with the variations that replace it."""
    found = []
    for game in outlined_games(cut):
        span = _game_span(cut, game)
        record = read_record(game.text, game.first_line, game.index)
        if record is None:
            found.append(Symbol(f"game {game.index} (not readable)", "game", span))
            continue
        turns = tuple(_turn_symbol(cut, turn) for turn in record.turns if turn.pos is not None)
        found.append(Symbol(_game_name(game.index, record), "game", span, turns))
    return found


def _game_name(index: int, record: GameRecord) -> str:
    header = record.header
    event = f"{header.event}: " if header.event else ""
    return f"game {index}: {event}{', '.join(header.players)}"


def _game_span(cut: Cut, game: GameText) -> Span:
    last = game.last_line
    return Span(game.first_line - 1, 0, last - 1, len(cut.lines(last)))


def _turn_symbol(cut: Cut, turn: Turn) -> Symbol:
    assert turn.pos is not None, "symbols are made of turns read from a text"
    line = turn.pos.line
    span = Span(line - 1, turn.pos.column - 1, line - 1, len(cut.lines(line)))
    number = f"{turn.number}. " if turn.number is not None else ""
    variations = tuple(
        Symbol(
            f"({' '.join(_short(t) for t in variation.turns[:1])} ...)",
            "variation",
            _variation_span(cut, variation.turns),
            tuple(_turn_symbol(cut, t) for t in variation.turns if t.pos is not None),
        )
        for variation in turn.variations
        if variation.turns and variation.turns[0].pos is not None and variation.turns[-1].pos is not None
    )
    if variations:  # a symbol's range holds its children's
        last = variations[-1].span
        span = Span(span.line, span.start, last.end_line, last.end)
    return Symbol(f"{number}{turn.notation()}", "turn", span, variations)


def _short(turn: Turn) -> str:
    return f"{turn.number}. {turn.player}" if turn.number is not None else turn.player


def _variation_span(cut: Cut, turns: tuple[Turn, ...]) -> Span:
    first, last = turns[0].pos, turns[-1].pos
    assert first is not None and last is not None, "checked by the caller"
    return Span(first.line - 1, 0, last.line - 1, len(cut.lines(last.line)))


def folds(cut: Cut) -> list[tuple[int, int]]:
    """The 0-based first and last lines of each game, each header and each variation written on
    more than one line."""
    found = []
    for game in outlined_games(cut):
        if game.last_line > game.first_line:
            found.append((game.first_line - 1, game.last_line - 1))
        lines = game.text.split("\n")
        closing = header_end(lines)
        if closing is not None and closing > 1:
            found.append((game.first_line - 1, game.first_line - 1 + closing))
            found += _variation_folds(lines, closing + 1, game.first_line - 1)
    return found


def _variation_folds(lines: list[str], body: int, shift: int) -> list[tuple[int, int]]:
    """The lines of each parenthesis and its closing one, comments skipped."""
    opened: list[int] = []
    found = []
    in_brace = False
    for number in range(body, len(lines)):
        text = lines[number]
        at = 0
        while at < len(text):
            char = text[at]
            if in_brace:
                in_brace = char != "}"
            elif char == "{":
                in_brace = True
            elif char == ";":
                break
            elif char == "(":
                opened.append(number)
            elif char == ")" and opened:
                start = opened.pop()
                if number > start:
                    found.append((start + shift, number + shift))
            at += 1
    return found


def card_at(text: str, column: int) -> tuple[int, int, str] | None:
    """The card written around ``column`` of a line: (start, end, its text)."""
    for match in CARD_WORD.finditer(text):
        if match.start() <= column <= match.end():
            return match.start(), match.end(), match.group()
    return None


def card_places(cut: Cut, line: int, column: int) -> list[Span]:
    """Where the card under the cursor was drawn by name and planted in its game: every such
    place but the cursor's own, in the order they are written."""
    game = cut.game_at(line)
    under = card_at(cut.lines(line + 1), column)
    if game is None or under is None:
        return []
    try:
        card = Card.parse(under[2])
    except ArboError:
        return []
    record = read_record(game.text, game.first_line, game.index)
    if record is None:
        return []
    places = []
    for turn in record.all_turns():
        for index, draw in enumerate(turn.draws):
            drawn = turn.draw_pos(index)
            if isinstance(draw, Draw) and draw.card is card and drawn is not None:
                places.append(_card_span(cut, drawn.line, drawn.column - 1, str(card)))
        planted = turn.plant_pos
        if turn.plant.card is card and planted is not None:
            places.append(_card_span(cut, planted.line, planted.column - 1, str(card)))
    return [p for p in places if not (p.line == line and p.start <= column <= p.end)]


def _card_span(cut: Cut, line: int, column: int, card: str) -> Span:
    """The card's own characters in the word written at ``column`` (a draw 'd:Ma3' or 'Ana:Ma3')."""
    text = cut.lines(line)
    at = text.find(card, column)
    start = at if at >= 0 else column
    return Span(line - 1, start, line - 1, start + len(card))
