"""What may be typed at the cursor of a record, legal there: record/choices.py's choices for the
turn being written, asked of the table before it; the header's keys and their values."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from arbo_notation.engine.cards import DEFAULT_SPECIES, ZMAN_SPECIES
from arbo_notation.engine.lexicon import NAME
from arbo_notation.engine.state import Game
from arbo_notation.game.replay import MAIN, replay_game
from arbo_notation.lsp.documents import Cut, header_end
from arbo_notation.lsp.tables import played_turns, read_record
from arbo_notation.notation.model import GameRecord
from arbo_notation.notation.header.keys import HEADER_KEY_ROWS
from arbo_notation.notation.reading.split import GameText
from arbo_notation.record.choices import Phase, completions
from arbo_notation.errors import RuleError


@dataclass(frozen=True, slots=True)
class Choice:
    """One completion: ``text`` replaces the line's characters from ``start`` to the cursor; a
    choice that ends in a space is a whole word."""

    text: str
    start: int
    kind: str  # "move", "key" or "value"

    @property
    def label(self) -> str:
        """What the editor lists: the choice without its space (and a key without its ':')."""
        text = self.text.strip()
        return text if self.kind == "move" else text.removesuffix(":")


@dataclass(frozen=True, slots=True)
class _Table:
    """What record/choices.py reads of a session, for a table of a record being edited."""

    species: tuple[str, ...]
    seat: str | None
    game: Game

    @property
    def phase(self) -> Phase:
        return Phase.REVEAL if self.game.is_over else Phase.TURNS

    def pending_reveals(self) -> list[str]:
        return self.game.hidden_players() if self.game.is_over else []

    def syntax_problem(self, text: str) -> str:
        return ""  # the diagnostics say it


def choices_at(cut: Cut, line: int, column: int) -> list[Choice]:
    """What may be typed at 0-based ``line`` and ``column`` of the record: legal there."""
    game = cut.game_at(line)
    if game is None:
        return []
    lines = game.text.split("\n")
    at = line + 1 - game.first_line
    if not 0 <= at < len(lines):
        return []
    typed = lines[at][:column]
    closing = header_end(lines)
    if closing is None or at < closing:
        header = lines[1:at] if closing is None else lines[1:closing]
        return _header_choices(header, lines[1:at], typed, lambda: _known_players(cut)) if at > 0 else []
    if at == closing:
        return []
    return _turn_choices(game, lines, at, typed)


def _turn_choices(game: GameText, lines: list[str], at: int, typed: str) -> list[Choice]:
    table = _table_before(game, lines, at, typed.lstrip().startswith("("))
    if table is None:
        return []
    lead = len(typed) - len(typed.lstrip(" \t("))
    entry = typed[lead:]
    if entry[:1] in ("{", ";") or "}" in entry:
        return []
    state = table.game
    offered: list[Choice] = []
    if not entry.strip() and not state.is_over:
        offered.append(Choice(f"{state.turn_number}. {state.current_player} ", lead, "move"))
    mover = _MOVER.match(entry)
    if mover is not None and not state.is_over and mover.group(1) == state.current_player:
        # a record's turn names its player: the words after the name are the draws
        lead += mover.end()
        entry = entry[mover.end() :]
    if not state.is_over or entry.startswith("reveal"):
        found = completions(table, entry)
        offered += [Choice(text, lead + found.start, "move") for text in found.choices]
    elif not entry.strip():
        offered += [Choice(f"reveal {player} ", lead, "move") for player in table.pending_reveals()]
    if state.is_over and not state.hidden_players():
        totals = state.final_totals()
        result = "result " + ", ".join(f"{player} {points}" for player, points in totals.items())
        if result.startswith(entry):
            offered.append(Choice(result, lead, "move"))
    return offered


#: A turn's number and player, as a record writes them before its draws.
_MOVER = re.compile(rf"[0-9]+\.[ \t]*({NAME})[ \t]+")


def _table_before(game: GameText, lines: list[str], at: int, variation: bool) -> _Table | None:
    """The table where line ``at`` of the game is written: after the last turn written before
    it, or before that turn when the line opens a variation of it."""
    record = read_record("\n".join(lines[:at]) + "\n", game.first_line, game.index)
    if record is None:  # an open variation, a fault above: the game with this line left out
        record = read_record("\n".join(lines[:at] + [""] + lines[at + 1 :]), game.first_line, game.index)
    if record is None:
        return None
    state = _state_before(record, game.first_line + at, variation)
    if state is None:
        return None
    return _Table(record.header.species, record.header.perspective, state)


def _state_before(record: GameRecord, line: int, variation: bool) -> Game | None:
    try:
        replay = replay_game(record, keep_states=True)
    except RuleError:
        return None
    if MAIN not in replay.lines:
        return None
    before = [p for p in played_turns(replay) if p.turn.pos is not None and p.turn.pos.line < line]
    if not before:
        return replay.lines[MAIN].states[0]
    last = before[-1]
    return last.before if variation else last.after


_KEY_VALUE = re.compile(r"([a-z_]+):[ \t]*(.*)")
_ALL_SPECIES = tuple(s.code for s in DEFAULT_SPECIES + ZMAN_SPECIES)


def _header_choices(
    header: list[str], above: list[str], typed: str, known_players: Callable[[], list[str]]
) -> list[Choice]:
    """The header's keys not given yet, at a line's start; a key's values: species codes, the
    names of the file's players for ``players``, the players for the seats (perspective, hands,
    discards). ``above``: the header's lines before the cursor's."""
    players = header_players(header)
    if typed[:1] in (" ", "\t") and re.fullmatch(r"[ \t]*[A-Za-z_]*", typed):
        if _block_key(above) not in ("hands", "discards"):
            return []
        indent = len(typed) - len(typed.lstrip())
        return [Choice(f"{p}: ", indent, "value") for p in players]
    if re.fullmatch(r"[a-z_]*", typed):
        given = {m.group(1) for m in map(_KEY_VALUE.match, header) if m}
        return [Choice(f"{row.name}: ", 0, "key") for row in HEADER_KEY_ROWS if row.name not in given]
    match = _KEY_VALUE.match(typed)
    if match is None:
        return []
    key, value = match.groups()
    start = len(typed) - len(re.split(r"[\[\], ]", value)[-1])
    if key == "species":
        written = set(re.findall(r"[A-Za-z]+", value))
        return [Choice(code, start, "value") for code in _ALL_SPECIES if code not in written]
    if key == "perspective":
        return [Choice(p, start, "value") for p in players]
    if key == "players":
        written = set(re.findall(r"[^\[\], ]+", value))
        return [Choice(p, start, "value") for p in known_players() if p not in written]
    return []


#: Games whose players are offered for a new header's (a file's first games: names recur).
MAX_GAMES_FOR_NAMES = 200


def _known_players(cut: Cut) -> list[str]:
    """The players named in the file's first games, in the order they first appear."""
    names: dict[str, None] = {}
    for game in cut.games[:MAX_GAMES_FOR_NAMES]:
        names.update(dict.fromkeys(header_players(game.text.split("\n", 12)[:12])))
    return list(names)


def header_players(header: list[str]) -> list[str]:
    for line in header:
        match = re.match(r"players:[ \t]*\[(.*)\]", line)
        if match:
            return [name.strip() for name in match.group(1).split(",") if name.strip()]
    return []


def _block_key(header: list[str]) -> str:
    """The key of the block the next line of the header would be in (its last unindented key)."""
    for line in reversed(header):
        match = _KEY_VALUE.match(line)
        if match:
            return match.group(1)
    return ""
