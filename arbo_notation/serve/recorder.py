"""The phone's recorder: what `arbo record` asks and checks (record/session.py), the file written
under the same lock (runtime/atomic.py), each entry made idempotent by the state it was typed on.

An entry carries the digest of the record it was typed against (``base``) and an id the page made
for it. Under the lock the file is read again: if it still has that digest the entry is taken,
else nothing is written and the page gets the record as it now is. So a retry after a dropped
answer, a reload, or a server killed and started again never writes an entry twice, and an entry
typed on a record that another writer has changed since is never applied to the wrong turn."""

from __future__ import annotations

import datetime
import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbo_notation.errors import ArboError, NotationErrors
from arbo_notation.notation.writer import format_turn
from arbo_notation.engine.cards import species_at_random
from arbo_notation.record.session import (
    EntryError,
    Phase,
    RecordingError,
    RecordingSession,
    new_header,
    resume_session,
    start_session,
)
from arbo_notation.record.starting import players_of, seat_of, species_of
from arbo_notation.runtime.atomic import FileBusy, LockRefused, held_for_writing
from arbo_notation.runtime.sources import decode
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.serve.paths import Served
from arbo_notation.serve.tables import MAX_RECORD_BYTES

#: The longest entry taken (a reveal of a four-player game's hand is some 40 characters).
MAX_ENTRY = 500
#: Games one server starts at most (a phone's mistakes, or a token leaked, fill no disk).
MAX_STARTED = 200
#: Answers kept for entry ids already taken (a retry of one of them is answered the same).
KEPT_ANSWERS = 1000


@dataclass(frozen=True, slots=True)
class Answer:
    """What the page is told: ``status`` ok, refused (the rules' or the notation's reason), changed
    (the record moved on: nothing written), busy (another writer holds the file) or closed."""

    status: str
    message: str = ""
    column: int | None = None
    state: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "message": self.message, "column": self.column, "state": self.state}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _text(path: Path) -> str:
    data = path.read_bytes()
    if len(data) > MAX_RECORD_BYTES:
        raise RecordingError(f"{path.name}: too big for a record")
    try:
        return decode(data, path.name)
    except NotationErrors:
        raise RecordingError(f"{path.name}: not UTF-8 text; fix it in an editor") from None


def _session(path: Path, text: str) -> RecordingSession:
    """The session on the record's text, for reading: nothing is written (resume_session may
    complete a game stopped at its end, so it runs only under the lock)."""
    outcome = parse_all(text, path.name)
    if outcome.errors or len(outcome.games) != 1:
        raise RecordingError(f"{path.name}: not one readable game; `arbo check {path.name}` says why")
    return RecordingSession(path, outcome.games[0], written=text)


def state_of(session: RecordingSession, name: str, text: str) -> dict[str, Any]:
    """What the phone shows: the prompt, the seat's hand, the turns so far, the digest to type on."""
    game = session.game
    seat = session.seat
    hand = [str(card) for card in game.hand(seat).known] if seat is not None else []
    return {
        "name": name,
        "base": digest(text),
        "phase": session.phase.value,
        "prompt": session.prompt(),
        "players": list(session.players),
        "seat": seat,
        "hand": hand,
        "turns": [format_turn(turn, number) for number, turn in enumerate(session.turns, 1)],
        "reveals": [f"reveal {r.player} {' '.join(str(c) for c in r.cards)}" for r in session.reveals.values()],
        "prefill": session.reveal_prefill(session.pending_reveals()[0]) if session.phase is Phase.REVEAL else "",
        "done": session.phase is Phase.DONE,
    }


class Recorder:
    """The phones' writes to the served records, one at a time per file under `arbo record`'s lock."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self._answers: OrderedDict[str, Answer] = OrderedDict()
        self.started = 0

    def state(self, name: str) -> dict[str, Any]:
        """The record's state now (ArboError when it cannot be recorded on)."""
        path = self.served.resolve(name)
        text = _text(path)
        return state_of(_session(path, text), name, text)

    def completions(self, name: str, typed: str) -> dict[str, Any]:
        """What is legal next after ``typed`` (record/choices.py)."""
        path = self.served.resolve(name)
        offered = _session(path, _text(path)).completions(typed[:MAX_ENTRY])
        return {
            "start": offered.start,
            "choices": list(offered.choices[:40]),
            "hint": offered.hint,
            "problem": offered.problem,
        }

    def enter(self, name: str, entry_id: str, base: str, entry: str) -> Answer:
        """Take one entry typed on the record whose digest is ``base``, unless ``entry_id`` was taken."""
        key = f"{name}\0{entry_id}"
        if key in self._answers:
            return self._answers[key]
        if len(entry) > MAX_ENTRY:
            return Answer("refused", f"an entry is at most {MAX_ENTRY} characters")
        path = self.served.resolve(name)
        try:
            with held_for_writing(path):
                answer = self._enter_held(path, name, base, entry)
        except FileBusy as error:
            by = f" ({error.holder})" if error.holder else ""
            return Answer("busy", f"another arbo is writing this record{by}; try again when it is done")
        except LockRefused as error:
            return Answer("busy", f"not recorded: the lock file {Path(error.lock).name} {error.reason}")
        if answer.status == "ok":
            self._answers[key] = answer
            while len(self._answers) > KEPT_ANSWERS:
                self._answers.popitem(last=False)
        return answer

    def _enter_held(self, path: Path, name: str, base: str, entry: str) -> Answer:
        try:
            text = _text(path)
            if digest(text) != base:
                return Answer(
                    "changed",
                    "the record changed since this page showed it; here it is now",
                    state=self._state(path, name, text),
                )
            session = resume_session(path, text)
            try:
                session.enter(entry)
            except EntryError as error:
                return Answer("refused", error.message, error.column, state_of(session, name, session.text()))
            return Answer("ok", state=state_of(session, name, _text(path)))
        except (OSError, ArboError) as error:
            return Answer("closed", str(error) if isinstance(error, ArboError) else "the record cannot be read now")

    def start(self, name: str, players: str, species: str, seat: str, event: str) -> Answer:
        """A new record, as `arbo record --players ... [--species ...] [--seat ...]` starts one:
        a new file of the folder (named ``name``, or ``tableN.arb``), never one that is there."""
        if self.started >= MAX_STARTED:
            return Answer("refused", f"this server has started {MAX_STARTED} games; start it again for more")
        if any(not _one_line(text) for text in (name, players, species, seat, event)):
            return Answer("refused", "each field is one line of text")
        try:
            table = players_of(players)
            chosen = species_of(species, len(table), {}) if species.strip() else species_at_random(len(table))
            header = new_header(
                table,
                chosen,
                seat=seat_of(seat.strip() or None, table),
                event=event.strip() or None,
                date=datetime.date.today().isoformat(),
            )
            path = self.served.fresh(name)
            with held_for_writing(path):
                session = start_session(path, header, new_file=True)
        except FileBusy:
            return Answer("busy", "another arbo is writing a file of that name; choose another name")
        except LockRefused as error:
            return Answer("busy", f"not started: the lock file {Path(error.lock).name} {error.reason}")
        except ArboError as error:
            return Answer("refused", str(error))
        self.started += 1
        return Answer("ok", state=state_of(session, path.name, session.text()))

    def _state(self, path: Path, name: str, text: str) -> dict[str, Any] | None:
        try:
            return state_of(_session(path, text), name, text)
        except ArboError:
            return None


def _one_line(text: str) -> bool:
    """A field of the new-game form: short UTF-8 text (JSON may carry lone surrogates) on one line."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return len(text) <= MAX_ENTRY and text.isprintable()
