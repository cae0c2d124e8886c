"""Recording a game as it is played: a session that checks every entry with the engine and keeps
the record file valid after each one.

    session = open_session("tonight.arb", players=("Ana", "Ben"), seat="Ana")
    session.enter("Ca1 Ca4 Dw2 Ja2 Ma5 Oa6 Wi7")     # the recorder's dealt hand
    session.enter("d:Ma3 d Ma3@0,0 /Oa5")           # turn 1: number and player may be left out
    session.enter("!?")                             # a glyph (or a {comment}) on the last turn
    session.enter("undo")                           # takes the last turn back
    session.completions("d d M")                    # what may come next, legal now

An entry is refused with an ``EntryError`` saying what `arbo check` would say, and then nothing is
written. An accepted one is written at once: the file is rewritten whole in canonical form as a
new copy, flushed to the disk and renamed over the old one, so a crash leaves the old record or
the new one, never half a line. When the deck runs out the hands known to the record are revealed
by themselves, the others are asked for, and the result line is the engine's scoring.

Pure Python (no textual): `arbo record --plain`, the terminal screen and the tests share it.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence, TypedDict, Unpack

from arbo_notation.engine.cards import Card, HAND_SIZE, card_order, species_at_random, value_fault
from arbo_notation.engine.scoring import ScoreSheet
from arbo_notation.engine.state import Game, GameConfig
from arbo_notation.record.choices import TURN_NUMBER, Completions, Phase, completions
from arbo_notation.errors import ArboError, Diagnostic, NotationError, NotationErrors, RuleError, Severity, TurnError
from arbo_notation.engine.lexicon import MAX_GLYPHS, NAME_SHAPE
from arbo_notation.runtime.atomic import write_atomic
from arbo_notation.notation.model import GLYPHS, Comment, GameRecord, Header, Result, Reveal, Turn
from arbo_notation.notation.writer import format_game, format_turn
from arbo_notation.game.facts import game_for
from arbo_notation.game.replay import play_recorded_turn, replay_game, score_game
from arbo_notation.notation.header.keys import format_header
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.runtime.sources import decode

__all__ = [
    "Accepted",
    "Completions",
    "EntryError",
    "OptionMismatch",
    "Phase",
    "RecordingError",
    "RecordingSession",
    "open_session",
]

#: The glyphs that judge a move: a turn carries one of them at most (a new one replaces it).
MOVE_GLYPHS = frozenset(GLYPHS)

_NAME = re.compile(rf"{NAME_SHAPE}\Z")
_AT_LINE = re.compile(r"at line [0-9]+ column ([0-9]+)")


class RecordingError(ArboError):
    """A record file that cannot be recorded on: unreadable, not valid, finished, or not writable."""


class OptionMismatch(ArboError):
    """An option that does not fit the record being resumed (a usage error)."""


class EntryError(ArboError):
    """An entry refused: nothing was written. ``column`` (1-based, in the entry as typed) points at
    the fault when there is one; ``code`` is the code `arbo check` gives such a fault."""

    def __init__(self, message: str, code: str = "entry", column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.column = column


@dataclass(frozen=True, slots=True)
class Accepted:
    """An entry accepted: what it was, and the lines that now stand in the file for it."""

    kind: str  # hand, turn, undo, note, reveal, result
    lines: tuple[str, ...]


# ------------------------------------------------------------------------------------------------
# Files


# ------------------------------------------------------------------------------------------------
# The session


class _Changes(TypedDict, total=False):
    """What a session's ``_change`` may set: the record's parts, and the table after the last turn."""

    header: Header
    comments: list[Comment]
    turns: list[Turn]
    reveals: dict[str, Reveal]
    result: Result | None
    _position: Game


class RecordingSession:
    """One game being recorded into one file: its record so far, the table it leads to, and the
    entries that extend it."""

    def __init__(self, path: str | Path, record: GameRecord, written: str | None = None) -> None:
        self.path = Path(path)
        self.name = str(path)
        self.header: Header = record.header
        self.comments: list[Comment] = list(record.comments)
        self.turns: list[Turn] = list(record.turns)
        self.reveals: dict[str, Reveal] = {r.player: r for r in record.reveals}
        self.result: Result | None = record.result
        self.warnings: list[Diagnostic] = []
        self._written = written
        self._parse_header = _parsing_header(record.header)
        self._position: Game  # the table after the last turn: every turn pushed on it (undo pops)
        self._game: Game
        self._rebuild()

    # -- facts ------------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players

    @property
    def species(self) -> tuple[str, ...]:
        return self.header.species

    @property
    def seat(self) -> str | None:
        """Whose seat the record is written from (None: a referee's record)."""
        return self.header.perspective

    @property
    def game(self) -> Game:
        """The table now: after the last turn, with the hands revealed so far."""
        return self._game

    @property
    def phase(self) -> Phase:
        if self.result is not None and not self.result.unfinished:
            return Phase.DONE
        if self._game.is_over:
            return Phase.REVEAL
        if self.seat is not None and self.seat not in self.header.hands and not self.turns:
            return Phase.HAND
        return Phase.TURNS

    def pending_reveals(self) -> list[str]:
        """The players whose hands are still to be revealed (the deck being empty)."""
        if not self._game.is_over:
            return []
        return self._game.hidden_players()

    def record(self) -> GameRecord:
        """The record as it stands in the file."""
        turns = tuple(dataclasses.replace(t, number=n) if t.number != n else t for n, t in enumerate(self.turns, 1))
        reveals = tuple(self.reveals[p] for p in self.players if p in self.reveals)
        return GameRecord(self.header, turns, tuple(self.comments), reveals, self.result, file=self.name)

    def text(self) -> str:
        """The canonical text of the record."""
        return format_game(self.record())

    def sheet(self) -> ScoreSheet | None:
        """The scoring, once every hand is known at the end of the game."""
        game = self._game
        if not game.is_over or game.hidden_players():
            return None
        return score_game(game)

    def prompt(self) -> str:
        """What the session asks for now, in a line."""
        game = self._game
        phase = self.phase
        if phase is Phase.HAND:
            return f"{self.seat}'s dealt hand: the {HAND_SIZE} cards"
        if phase is Phase.TURNS:
            return f"turn {game.turn_number}: {game.current_player} to play · deck {game.deck_size}"
        if phase is Phase.REVEAL:
            player = self.pending_reveals()[0]
            hand = game.hand(player)
            known = f" (known: {' '.join(str(c) for c in hand.known)})" if hand.known else ""
            return f"the deck is empty: reveal {player}'s hand, {len(hand)} cards{known}"
        return "the game is recorded: " + _result_text(self.result)

    def reveal_prefill(self, player: str) -> str:
        """A reveal line with the cards the record places in the player's hand: the known ones,
        and when the player is the last whose hand is hidden, the cards nobody saw (they can be
        nowhere else). Whoever records checks it against the cards shown at the table."""
        game = self._game
        cards = list(game.hand(player).known)
        if self.pending_reveals() == [player]:
            cards += sorted(game.unlocated_cards(), key=card_order)
        return " ".join(["reveal", player, *(str(c) for c in cards)]) + " "

    # -- entries ----------------------------------------------------------------------------

    def enter(self, text: str) -> Accepted | None:
        """Take one entry: a turn, ``undo``, glyphs or comments for the last turn, the dealt hand,
        a reveal line or a result line. None for a blank entry; EntryError when refused."""
        entry = text.strip()
        offset = len(text) - len(text.lstrip())
        if not entry:
            return None
        word = entry.split(None, 1)[0]
        if entry.lower() == "undo":
            return self.undo()
        if entry[0] in "{;!?$":
            return self._annotate(entry, offset)
        if word == "reveal" or (self.phase is Phase.REVEAL and word in self.players and "@" not in entry):
            return self._reveal(entry, offset)
        if word == "result":
            return self._result(entry, offset)
        if self.phase is Phase.HAND:
            return self._hand(entry, offset)
        return self._turn(entry, offset)

    def undo(self) -> Accepted:
        """Take back the last entry: while the hands are being revealed, the last hand typed (not
        one the record knew and filled in); else the last turn (with the reveals and result that
        followed from it); before the first turn, the recorder's dealt hand."""
        if self.phase is Phase.REVEAL:
            typed = [p for p in self.reveals if not self._position.hand_known(p)]
            if typed:
                reveals = {p: r for p, r in self.reveals.items() if p != typed[-1]}
                taken = _reveal_text(self.reveals[typed[-1]])
                self._change(reveals=reveals, _position=self._position)
                return Accepted("undo", (taken,))
        if not self.turns:
            if self.seat is not None and self.seat in self.header.hands:
                hands = {p: c for p, c in self.header.hands.items() if p != self.seat}
                self._change(header=dataclasses.replace(self.header, hands=hands))
                return Accepted("undo", (f"hand {self.seat}",))
            raise EntryError("there is no turn to take back", "undo")
        last = self.turns[-1]
        number = len(self.turns)
        if last.variations:
            raise EntryError(
                f"turn {number} has variations, which taking it back would lose; edit {self.name} instead", "undo"
            )
        result = self.result if self.result is not None and self.result.unfinished else None
        taken_back = self._position.pop_known_turn()
        try:
            self._change(turns=self.turns[:-1], reveals={}, result=result, _position=self._position)
        except EntryError:
            self._position.push_known_turn(taken_back)  # (the file could not be written: nothing changes)
            raise
        return Accepted("undo", (format_turn(last, number),))

    # -- the dealt hand ---------------------------------------------------------------------

    def _hand(self, entry: str, offset: int) -> Accepted:
        seat = self.seat
        assert seat is not None
        cards: list[Card] = []
        for start, word in _words(entry.replace(",", " ")):
            if not cards and word in ("hand", seat):
                continue
            try:
                cards.append(Card.parse(word))
            except ArboError:
                raise EntryError(
                    f"expected a card such as Ma3, found {word!r}{value_fault(word)}", "setup", offset + start + 1
                ) from None
        hands = dict(self.header.hands)
        hands[seat] = tuple(sorted(cards, key=card_order))
        header = dataclasses.replace(self.header, hands=hands)
        try:
            game_for(header)
        except RuleError as error:
            raise EntryError(str(error), "setup") from None
        self._change(header=header)
        return Accepted("hand", (" ".join(["hand", seat, *(str(c) for c in hands[seat])]),))

    # -- turns ------------------------------------------------------------------------------

    def _turn(self, entry: str, offset: int) -> Accepted:
        expected = self._game.turn_number
        turn = self._pushed_turn(entry, expected)
        if turn is None:
            turn = self._pushed_turn_or_why(entry, offset, expected)
        try:
            lines = self._change(turns=[*self.turns, turn], _position=self._position)
        except EntryError:
            self._position.pop_known_turn()  # (the file could not be written: nothing changes)
            raise
        return Accepted("turn", (format_turn(turn, expected), *lines))

    def _pushed_turn(self, entry: str, expected: int) -> Turn | None:
        """The entry read by the engine (Game.parse_turn) and pushed on the table, as the record's
        turn; None, the table unchanged, when the engine cannot read it (comments, a syntax
        error) or refuses it: the parser and the replayer then say what is wrong, and where."""
        position = self._position
        try:
            read = position.parse_turn(entry)
        except ArboError:
            return None
        if (read.number is not None and read.number != expected) or len(read.glyphs) > MAX_GLYPHS:
            return None
        turn = Turn.of(dataclasses.replace(read, number=expected))
        try:
            position.push_known_turn(turn.known())
        except RuleError:
            return None
        return turn

    def _pushed_turn_or_why(self, entry: str, offset: int, expected: int) -> Turn:
        """The entry read by the parser under the record's header and pushed on the table, or
        EntryError saying what `arbo check` would say, at its column in the entry."""
        line, column, numbered = self._turn_line(entry, offset)
        turn = self._parse_turn(line, column)
        if numbered and int(numbered.group(1)) != expected:
            raise EntryError(f"turn {expected} is numbered {numbered.group(1)}", "turn-number", offset + 1)
        turn = dataclasses.replace(turn, number=expected)
        try:
            self._position.push_known_turn(turn.known())
        except RuleError:  # the replayer's single actions say which part is illegal, and where
            try:
                play_recorded_turn(self._position.copy(), turn)
            except TurnError as error:
                at = column(error.pos.column) if error.pos is not None else None
                raise EntryError(error.message, error.code, at) from None
            raise  # pragma: no cover - push and the single actions hold the same rules
        return turn

    def syntax_problem(self, text: str) -> str:
        """What `arbo check` says against the turn typed so far, when its fault stands in a word
        typed whole (the last word is whole once a space follows it); '' when nothing does."""
        entry = text.strip()
        if self.phase is not Phase.TURNS or not entry or entry[0] in "{;!?$":
            return ""  # not a turn (enter() tells them apart the same way)
        if entry.split()[0] in ("reveal", "result") or entry.lower() == "undo":
            return ""
        offset = len(text) - len(text.lstrip())
        typed = len(text.rstrip())  # the column of the last character
        whole = typed if text[-1].isspace() else typed - len(entry.split()[-1])
        try:
            self._parse_line(*self._turn_line(entry, offset)[:2])
        except EntryError as error:
            if error.column is not None and error.column <= whole:
                return error.message
        return ""

    def _turn_line(self, entry: str, offset: int) -> tuple[str, Callable[[int], int], re.Match[str] | None]:
        """The line the parser reads for a turn entry (its number and player put in when left
        out), how its columns map to the entry's, and the entry's turn number if it has one."""
        game = self._game
        expected = game.turn_number
        numbered = TURN_NUMBER.match(entry)
        rest = numbered.end() if numbered else 0
        head = re.split(r"[{;]", entry[rest:], maxsplit=1)[0]
        words = list(_words(head))
        plant_at = next((i for i, (_, word) in enumerate(words) if "@" in word), -1)
        if plant_at > 0 and words[plant_at][1].startswith("@"):
            plant_at -= 1  # 'Ma3 @0,0': one planting with a space in it, which the parser words
        player, player_at = game.current_player, None
        if words and _NAME.match(words[0][1]) and (plant_at >= 3 or (plant_at < 0 and len(words) >= 5)):
            player_at = rest + words[0][0]
            player = words[0][1]
            rest = rest + words[0][0] + len(player)
            rest += len(entry[rest:]) - len(entry[rest:].lstrip())
        prefix = f"{expected}. {player} "

        def column(at: int) -> int:
            """The column in the entry of a column in the line parsed."""
            if at > len(prefix):
                return offset + rest + at - len(prefix)
            return offset + (player_at + 1 if player_at is not None else 1)

        return prefix + entry[rest:], column, numbered

    def _parse_turn(self, line: str, column: Callable[[int], int]) -> Turn:
        record = self._parse_line(line, column)
        if len(record.turns) != 1 or record.reveals or record.result is not None or record.comments:
            raise EntryError("one turn at a time: the turn's moves, then its glyphs and comments")
        turn = record.turns[0]
        if turn.variations:
            raise EntryError("one turn at a time: variations are not recorded here", "syntax")
        return turn

    def _parse_line(self, line: str, column: Callable[[int], int]) -> GameRecord:
        """One line read by the parser under the record's header; EntryError at the column of
        the entry (``column`` maps the line's columns to the entry's) for a syntax error."""

        text = self._parse_header + line + "\n"
        outcome = parse_all(text, "<entry>")
        if outcome.errors:
            error: NotationError = outcome.errors[0]
            entry_line = self._parse_header.count("\n") + 1
            at = column(error.column) if error.line == entry_line else None
            message = _AT_LINE.sub(lambda m: f"at column {column(int(m.group(1)))}", error.message)
            raise EntryError(message, "syntax", at)
        return outcome.games[0]

    # -- annotations ------------------------------------------------------------------------

    def _annotate(self, entry: str, offset: int) -> Accepted:
        """Glyphs and comments typed alone: for the last turn (comments before the first turn
        are the game's)."""
        stand_in = f"1. {self.players[0]} d d {self.species[0]}1@0,0 /{self.species[0]}1 "

        def column(at: int) -> int:
            return offset + max(1, at - len(stand_in))

        record = self._parse_line(stand_in + entry, column)
        if len(record.turns) != 1 or record.turns[0].variations or record.reveals or record.result is not None:
            raise EntryError("a note is glyphs and comments only", "syntax", offset + 1)
        note = record.turns[0]
        if not self.turns:
            if note.glyphs:
                raise EntryError("there is no turn yet to put a glyph on", "glyph", offset + 1)
            self._change(comments=[*self.comments, *note.comments_after], _position=self._position)
            return Accepted("note", tuple(str(c) for c in note.comments_after))
        last = self.turns[-1]
        glyphs = list(last.glyphs)
        for glyph in note.glyphs:
            if glyph in MOVE_GLYPHS:
                glyphs = [g for g in glyphs if g not in MOVE_GLYPHS]
            if glyph not in glyphs:
                glyphs.append(glyph)
        comments = _with_comments(last.comments_after, note.comments_after)
        last = dataclasses.replace(last, glyphs=tuple(glyphs), comments_after=comments)
        self._change(turns=[*self.turns[:-1], last], _position=self._position)
        return Accepted("note", (format_turn(last, len(self.turns)),))

    # -- the end ----------------------------------------------------------------------------

    def _reveal(self, entry: str, offset: int) -> Accepted:
        shift = 0
        if not entry.startswith("reveal"):
            entry, shift = "reveal " + entry, len("reveal ")

        def column(at: int) -> int:
            return offset + max(1, at - shift)

        record = self._parse_line(entry, column)
        if len(record.reveals) != 1 or record.turns or record.result is not None:
            raise EntryError("one reveal line at a time: reveal, a player, the cards", "syntax", offset + 1)
        reveal = dataclasses.replace(record.reveals[0], pos=None)
        player = reveal.player
        if player not in self.players:
            raise EntryError(f"{player} is not a player of this game ({', '.join(self.players)})", "reveal", offset + 1)
        if not self._game.is_over:
            raise EntryError("hands are revealed only when the game is over", "reveal", offset + 1)
        line = _reveal_text(reveal)
        if player in self.reveals:
            if sorted(self.reveals[player].cards, key=card_order) == sorted(reveal.cards, key=card_order):
                return Accepted("reveal", (line,))  # said again: nothing changes
            raise EntryError(f"{player}'s hand is revealed twice", "reveal", offset + 1)
        try:
            self._game.copy().reveal(player, reveal.cards)
        except RuleError as error:
            raise EntryError(str(error), "reveal", offset + 1) from None
        lines = self._change(reveals={**self.reveals, player: reveal}, _position=self._position)
        return Accepted("reveal", (line, *lines))

    def _result(self, entry: str, offset: int) -> Accepted:
        record = self._parse_line(entry, lambda at: offset + at)
        result = record.result
        if result is None or record.turns or record.reveals:
            raise EntryError("one result line: result, then each player and score, or result *", "syntax", offset + 1)
        if result.unfinished:
            if self._game.is_over:
                raise EntryError(
                    "the game is over: its result is written when every hand is revealed", "result", offset + 1
                )
            self._change(result=dataclasses.replace(result, pos=None), _position=self._position)
            return Accepted("result", ("result *",))
        claimed = dataclasses.replace(self.record(), result=result)
        for diagnostic in replay_game(claimed).diagnostics:
            if diagnostic.severity is Severity.ERROR:
                raise EntryError(diagnostic.message, diagnostic.code, offset + 1)
        return Accepted("result", (_result_text(self.result),))  # the same as written: nothing changes

    # -- changing the record ----------------------------------------------------------------

    def _change(self, **changes: Unpack[_Changes]) -> tuple[str, ...]:
        """Make the changes (to the header, comments, turns, reveals, result; ``_position`` when
        the table after the last turn is known), complete the end of the game where the record knows it, and
        write the file. When it cannot be written nothing changes (EntryError). Returns the
        reveal and result lines that the end of the game added."""
        kept = (self.header, self.comments, self.turns, self.reveals, self.result, self._position, self._game)
        for name, value in changes.items():
            setattr(self, name, value)
        try:
            if "_position" not in changes:
                self._position = self._positions()
            self._game = self._table()
            added = self._complete_the_end()
            self._save()
        except RecordingError as error:
            (self.header, self.comments, self.turns, self.reveals, self.result, self._position, self._game) = kept
            raise EntryError(str(error), "file") from None
        return added

    def _rebuild(self) -> None:
        self._position = self._positions()
        self._game = self._table()

    def _positions(self) -> Game:
        """The table after the last turn, every turn pushed on it from the setup. The turns were
        each played before they were accepted, so the rules raise nothing here."""
        position = game_for(self.header)
        for turn in self.turns:
            position.push_known_turn(turn.known())
        return position

    def _table(self) -> Game:
        """The table after the last turn, with the hands revealed so far."""
        game = self._position.copy()
        if game.is_over:
            for player in self.players:
                if player in self.reveals:
                    game.reveal(player, self.reveals[player].cards)
        return game

    def _complete_the_end(self) -> tuple[str, ...]:
        """At the end of the game: reveal the hands the record knows and, once every hand is
        known, write the result (the engine's scores). Returns the lines this added."""
        game = self._game
        if not game.is_over:
            return ()
        added: list[str] = []
        reveals = dict(self.reveals)
        for player in self.players:
            if player not in reveals and game.hand_known(player):
                cards = game.hand(player).known
                game.reveal(player, cards)
                reveals[player] = Reveal(player, cards)
                added.append(_reveal_text(reveals[player]))
        self.reveals = reveals
        if not game.hidden_players() and (self.result is None or self.result.unfinished):
            sheet = score_game(game)
            comments = self.result.comments if self.result is not None else ()
            self.result = Result(tuple((p.name, p.total) for p in sheet.players), comments=comments)
            added.append(_result_text(self.result))
        return tuple(added)

    def _save(self) -> None:
        text = self.text()
        if text != self._written:
            _write_whole(self.path, text)
            self._written = text

    # -- completions ------------------------------------------------------------------------

    def completions(self, text: str) -> Completions:
        """What may replace the word being typed at the end of ``text``, legal now (record/choices.py)."""
        return completions(self, text)


def _with_comments(old: tuple[Comment, ...], new: Iterable[Comment]) -> tuple[Comment, ...]:
    """The turn's comments with new ones after them, a ';' comment kept last (nothing may follow
    it on the line)."""
    comments = list(old)
    for comment in new:
        if comments and comments[-1].line and not comment.line:
            comments.insert(len(comments) - 1, comment)
        else:
            comments.append(comment)
    return tuple(comments)


def _words(text: str) -> Iterable[tuple[int, str]]:
    """The words of a text with where each starts."""
    for match in re.finditer(r"\S+", text):
        yield match.start(), match.group()


def _reveal_text(reveal: Reveal) -> str:
    return " ".join(["reveal", reveal.player, *(str(c) for c in reveal.cards)])


def _result_text(result: Result | None) -> str:
    if result is None:
        return ""
    if result.unfinished:
        return "result *"
    return "result " + ", ".join(f"{name} {score}" for name, score in result.scores)


def _parsing_header(header: Header) -> str:
    """A header under which a single entry line is read (only the players and species matter)."""

    return format_header(Header(players=header.players, species=header.species))


# ------------------------------------------------------------------------------------------------
# Starting and resuming


def new_header(
    players: Sequence[str],
    species: Sequence[str],
    *,
    seat: str | None = None,
    names: dict[str, str] | None = None,
    event: str | None = None,
    site: str | None = None,
    date: str | None = None,
) -> Header:
    """The header of a new record; ArboError when it cannot be a table."""

    try:
        config = GameConfig(tuple(players), tuple(species))
        if seat is not None:
            config.seat(seat)
    except RuleError as error:
        raise OptionMismatch(str(error)) from None
    return Header(
        players=tuple(players),
        species=tuple(species),
        names=dict(names or {}),
        perspective=seat,
        event=event,
        site=site,
        date=date,
    )


def start_session(path: str | Path, header: Header, *, new_file: bool = False) -> RecordingSession:
    """A new record in ``path`` (which must not hold a game): its header is written at once. With
    ``new_file`` no file may have that name: RecordingError, nothing written, when one has."""
    session = RecordingSession(path, GameRecord(header, file=str(path)))
    if new_file:
        text = session.text()
        _write_whole(session.path, text, new=True)
        session._written = text
    else:
        session._save()
    return session


def resume_session(path: str | Path, text: str) -> RecordingSession:
    """The record of ``path`` (its text given), to be recorded on from its last turn.

    RecordingError when it cannot be: a syntax error, more than one game, a rule error, a
    finished game."""

    name = str(path)
    outcome = parse_all(text, name)
    if outcome.errors:
        shown = "\n".join(e.show() for e in outcome.errors)
        raise RecordingError(f"{name} cannot be read; fix it, then record on:\n{shown}")
    if len(outcome.games) != 1:
        raise RecordingError(f"{name} holds {len(outcome.games)} games; arbo record records one game per file")
    record = outcome.games[0]
    replay = replay_game(record, source_lines=text.split("\n"))
    if replay.errors:
        shown = "\n".join(d.show() for d in replay.errors)
        raise RecordingError(f"{name} does not check; fix it, then record on:\n{shown}")
    if record.finished:
        raise RecordingError(
            f"{name} holds a finished game ({_result_text(record.result)}); arbo record does not change it"
        )
    session = RecordingSession(path, record, written=text)
    session.warnings = [d for d in replay.diagnostics if d.severity is Severity.WARNING]
    if session.game.is_over:
        session._change()  # a record stopped at the end: reveal what it knows
    return session


def open_session(
    path: str | Path,
    *,
    players: Sequence[str] | None = None,
    species: Sequence[str] | None = None,
    seat: str | None = None,
    names: dict[str, str] | None = None,
    event: str | None = None,
    site: str | None = None,
    date: str | None = None,
    seed: int | str | None = None,
) -> RecordingSession:
    """Resume the record in ``path``, or start it when the file is missing or empty.

    A new record needs ``players``; its species are chosen at random (``seed`` repeats the
    choice) unless given. For a record resumed, the options given must agree with its header
    (OptionMismatch); ``seat`` may still be chosen before the first turn."""

    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = None
    except IsADirectoryError:
        raise RecordingError(f"{path}: is a directory, not a file") from None
    except OSError as error:
        raise RecordingError(f"{path}: cannot be read ({error.strerror or error})") from None
    if data is None or not data.strip():
        if players is None:
            raise OptionMismatch(f"{path} holds no game yet: give the players (--players Ana,Ben) to start one")
        chosen = tuple(species) if species is not None else species_at_random(len(players), seed)
        header = new_header(players, chosen, seat=seat, names=names, event=event, site=site, date=date)
        return start_session(path, header)
    try:
        text = decode(data, str(path))
    except NotationErrors as error:
        raise RecordingError("\n".join(e.show() for e in error.errors)) from None
    session = resume_session(path, text)
    header = session.header
    if players is not None and tuple(players) != header.players:
        raise OptionMismatch(f"--players {','.join(players)}: {path} records {', '.join(header.players)}")
    if species is not None and tuple(species) != header.species:
        raise OptionMismatch(f"--species {','.join(species)}: {path} is played with {', '.join(header.species)}")
    if seat is not None and seat != header.perspective:
        if header.perspective is not None or session.turns:
            held = f"from {header.perspective}'s seat" if header.perspective else "as a referee (no perspective)"
            raise OptionMismatch(f"--seat {seat}: {path} is recorded {held}")
        if seat not in header.players:
            raise OptionMismatch(f"--seat {seat}: not a player of this game ({', '.join(header.players)})")
        session._change(header=dataclasses.replace(header, perspective=seat))
    return session


def _write_whole(path: Path, text: str, *, new: bool = False) -> None:
    """Make ``text`` the file's content atomically (files.write_atomic); RecordingError if not."""
    try:
        write_atomic(path, text, new=new)
    except FileExistsError:
        raise RecordingError(f"{path.name}: a file of that name is there already; arbo leaves it alone") from None
    except OSError as error:
        raise RecordingError(f"{path}: cannot be written ({error.strerror or error})") from None
