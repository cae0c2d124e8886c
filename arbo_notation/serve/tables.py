"""The served records as viewers see them: each file read again when it changes, made public (no
card the record keeps hidden, no comment, no variation) until its game ends, and published after
the broadcast's delay; the multiboard's line of each table."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbo_notation.engine.totals import best_points
from arbo_notation.errors import ArboError
from arbo_notation.game.tree import GameTree, load_tree
from arbo_notation.notation.model import GameRecord, Turn
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_turn
from arbo_notation.present.report import winner_line
from arbo_notation.runtime.sources import decode
from arbo_notation.share.html import page_data, script_json

#: The largest record a server reads (a game is some kilobytes; a bigger file is no table's record).
MAX_RECORD_BYTES = 1 << 20


def public_record(record: GameRecord) -> GameRecord:
    """What a viewer may see of a record: all of it once the game has its result; before, a
    spectator's record (no dealt hand, no card drawn from the deck: notation/views.py) without its
    comments and variations, which may name a card still in a hand (an engine note's best move)."""
    if record.finished:
        return record
    spectator = partial_record(record, None)
    return dataclasses.replace(
        spectator,
        comments=(),
        turns=tuple(_bare(turn) for turn in spectator.turns),
        reveals=tuple(dataclasses.replace(reveal, comments=()) for reveal in spectator.reveals),
        result=None if spectator.result is None else dataclasses.replace(spectator.result, comments=()),
    )


def _bare(turn: Turn) -> Turn:
    return dataclasses.replace(turn, comments_before=(), comments_after=(), variations=())


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One state of a record as viewers get it: the page's data and the multiboard's line."""

    version: int
    data: dict[str, Any]  # the replayer page's data (share/html.py page_data)
    summary: dict[str, Any]  # the multiboard's line for this table
    species: tuple[str, ...] = ()
    data_json: str = field(default="", repr=False)  # ``data`` as script-safe JSON, made once for every viewer

    @classmethod
    def of(cls, version: int, data: dict[str, Any], summary: dict[str, Any], species: tuple[str, ...]) -> Snapshot:
        return cls(version, data, summary, species, script_json(data))


def file_key(path: Path) -> tuple[int, int, int] | None:
    """What tells a change of the file without reading it: its inode, size and modification time
    (a record is always replaced whole, by a rename, so the inode changes with every write)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def read_snapshot(path: Path, name: str, version: int) -> Snapshot:
    """The public state of the record in ``path`` now. A file that cannot be read, or does not
    check, shows as such, its text never quoted (a syntax error's excerpt may show a hand)."""
    title = name
    try:
        data = path.read_bytes()
        if len(data) > MAX_RECORD_BYTES:
            raise _Unshown("the file is too big for a record")
        outcome = parse_all(decode(data, name), name)
        if outcome.errors or not outcome.games:
            raise _Unshown("the record cannot be read now")
        trees = [load_tree(public_record(game)) for game in outcome.games]
    except (OSError, ArboError) as error:
        # only our own words: a reader's or a replay's message may quote a hidden card
        message = (
            str(error) if isinstance(error, _Unshown) else f"the record does not check: arbo check {name} says why"
        )
        if isinstance(error, OSError):
            message = "the file cannot be read now"
        summary = {"name": name, "title": title, "status": "unreadable", "message": message}
        return Snapshot.of(version, {"title": title, "games": [], "failed": []}, summary, ())
    species = tuple(dict.fromkeys(code for game in outcome.games for code in game.header.species))
    return Snapshot.of(version, page_data(trees, None, (), title), _summary(name, trees[-1]), species)


class _Unshown(ArboError):
    """Why a record is not shown, in words that quote nothing of it."""


def _summary(name: str, tree: GameTree) -> dict[str, Any]:
    """The multiboard's line of a table: players, turns, who is to move, and the running score
    (the result once there is one; before, the points of each player's best paths on the table,
    as if they held every right: the hands that decide the rights are hidden)."""
    record = tree.record
    header = record.header
    game = tree.end().position
    if record.finished and record.result is not None:
        scores = [[player, points] for player, points in record.result.scores]
        status = "finished"
    else:
        scores = [
            [player, sum(best_points(game.arboretum(player), header.species).values())] for player in header.players
        ]
        status = "over" if game.is_over else "playing"
    sheet = tree.sheet
    return {
        "name": name,
        "title": " vs ".join(header.players) if len(header.players) == 2 else ", ".join(header.players),
        "about": " · ".join(str(part) for part in (header.event, header.site, header.date) if part),
        "status": status,
        "turns": len(record.turns),
        "toMove": None if game.is_over else game.current_player,
        "deck": game.deck_size,
        "scores": scores,
        "verdict": winner_line(sheet) if record.finished and sheet is not None else "",
        "last": format_turn(record.turns[-1], len(record.turns)) if record.turns else "",
    }


def event_text(event: str, ident: str, data: str) -> bytes:
    """One server-sent event (the data is one line of JSON: script_json never writes a newline)."""
    return f"id: {ident}\nevent: {event}\ndata: {data}\n\n".encode()


def board_json(summaries: list[dict[str, Any]]) -> str:
    """The multiboard's data, safe inside a script element as in an event."""
    return script_json({"tables": summaries})
