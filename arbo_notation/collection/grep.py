"""Finding games in a collection: filters on a game's header and winners, and the games recorded
more than once (the same game twice, or the same game from different seats).

A filter reads a game's header alone unless it asks who won (the game is then replayed and
scored by the engine); duplicates compare the games' deals and turns, whatever their headers,
comments, glyphs and variations, by two digests a game (what every seat sees, and all the record
knows); the few games recorded in more than one way are read again to tell records from other
seats, which agree wherever both know a card, from records that disagree.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Iterator

from arbo_notation.engine.view import view_of
from arbo_notation.notation.reading.split import GameText
from arbo_notation.engine.actions import Draw
from arbo_notation.engine.cards import Card
from arbo_notation.notation.model import GameRecord, Header, draw_kind
from arbo_notation.game.replay import replay_game

#: What --date takes: a year, a month or a day, as the header writes dates.
DATE_PREFIX = re.compile(r"\d{4}(?:-\d{2}(?:-\d{2})?)?")


@dataclass(frozen=True, slots=True)
class Filters:
    """What a game must have to match; an empty filter matches every game."""

    players: tuple[str, ...] = ()  # every one of them plays
    won: bool = False  # ... and wins (a shared win counts)
    species: tuple[str, ...] = ()  # every one of them is in play
    date: str | None = None  # the date starts with it (2026, 2026-11, 2026-11-29)
    event: str | None = None  # the event holds it, whatever the case
    site: str | None = None  # the site holds it, whatever the case

    def header_matches(self, header: Header) -> bool:
        if any(name not in header.players for name in self.players):
            return False
        if any(code not in header.species for code in self.species):
            return False
        if self.date is not None and not (header.date or "").startswith(self.date):
            return False
        if self.event is not None and self.event.casefold() not in (header.event or "").casefold():
            return False
        return self.site is None or self.site.casefold() in (header.site or "").casefold()

    def winners_match(self, winners: tuple[str, ...]) -> bool:
        return all(name in winners for name in self.players)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a game stands: its file (as given), its line and its number in the file."""

    file: str
    line: int
    game: int
    perspective: str | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line} (game {self.game}{f', as {self.perspective}' if self.perspective else ''})"


def winners_of(record: GameRecord) -> tuple[str, ...] | None:
    """The engine's winners of a valid, scored game (None for any other)."""

    replay = replay_game(record)
    return replay.sheet.winners if replay.valid and replay.sheet is not None else None


# -- duplicates ----------------------------------------------------------------------------------


def _digest(parts: list[str]) -> bytes:
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=16).digest()


def _table(header: Header) -> list[str]:
    """What every seat sees of the table a header sets: the players, the species, the face-up
    discards, or the position as a spectator sees it."""
    discards = sorted((name, " ".join(map(str, cards))) for name, cards in header.discards.items())
    table = [" ".join(header.players), " ".join(header.species), repr(discards)]
    if header.position is not None:
        table.append(str(view_of(header.position, None)))
    return table


def public_key(record: GameRecord) -> bytes:
    """What every seat sees of a game: the players, the species, the face-up discards at setup,
    and each turn's player, the piles drawn from, the planting and the discard."""
    parts = _table(record.header)
    for turn in record.turns:
        draws = " ".join(
            f"pile {draw.owner}" if isinstance(draw, Draw) and draw.owner is not None else draw_kind(draw)
            for draw in turn.draws
        )
        parts.append(f"{turn.player} {draws} {turn.plant} /{turn.discard}")
    return _digest(parts)


def record_key(record: GameRecord) -> bytes:
    """All a record knows of its game: what every seat sees, the deal (or the position), each card
    drawn and the revealed hands; not the rest of the header, the comments, the glyphs or the
    variations."""
    header = record.header
    parts = _table(header)
    parts.append(" ".join(map(str, header.deck)) if header.deck is not None else "-")
    if header.position is not None:
        parts.append(str(header.position))
    parts += [f"{name}: {' '.join(sorted(map(str, cards)))}" for name, cards in sorted(header.hands.items())]
    parts += [turn.notation() for turn in record.turns]
    parts += [f"reveal {r.player} {' '.join(sorted(map(str, r.cards)))}" for r in record.reveals]
    return _digest(parts)


#: What a record knows of the hidden cards: the deck, the dealt hands (cards' notation, sorted),
#: the card of each draw (None where it does not say), the revealed hands.
RecordKnowledge = tuple[tuple[Card, ...] | None, dict[str, list[str]], list[Card | None], dict[str, list[str]]]


def knowledge(record: GameRecord) -> RecordKnowledge:
    """What a record knows of the hidden cards: the deck, the dealt hands, the card of each draw
    (None where it does not say) and the revealed hands."""
    header = record.header
    return (
        header.deck,
        {name: sorted(map(str, cards)) for name, cards in header.hands.items()},
        [draw.card if isinstance(draw, Draw) else None for turn in record.turns for draw in turn.draws],
        {reveal.player: sorted(map(str, reveal.cards)) for reveal in record.reveals},
    )


def compatible(one: RecordKnowledge, other: RecordKnowledge) -> bool:
    """Whether two records of the same play (the same public key) can be of one game: wherever
    both know a card, they know the same."""
    (deck, hands, draws, reveals), (deck2, hands2, draws2, reveals2) = one, other
    if deck is not None and deck2 is not None and deck != deck2:
        return False
    if any(hands2.get(name, cards) != cards for name, cards in hands.items()):
        return False
    # One record may stop earlier than the other: only the draws both hold are compared.
    if any(a is not None and b is not None and a != b for a, b in zip(draws, draws2, strict=False)):
        return False
    return all(reveals2.get(name, cards) == cards for name, cards in reveals.items())


@dataclass(slots=True)
class Duplicates:
    """The games seen so far, by what every seat sees of them and by all their record knows."""

    seen: dict[bytes, dict[bytes, list[Place]]] = field(default_factory=dict)

    def add(self, record: GameRecord, place: Place) -> None:
        records = self.seen.setdefault(public_key(record), {})
        records.setdefault(record_key(record), []).append(place)

    def to_compare(self) -> set[Place]:
        """A place of each way a game was recorded, for the games recorded in more than one way:
        their records are read again (a game at a time, so that no record is kept meanwhile)."""
        return {places[0] for records in self.seen.values() if len(records) > 1 for places in records.values()}

    def groups(self, known: dict[Place, RecordKnowledge]) -> Iterator[tuple[str, list[Place]]]:
        """In the order the games were met: ("same game", the places of a game recorded the same
        way more than once); ("other seats", a place of each way the same game was recorded, more
        than one, that agree wherever both know a card); ("conflicting", a place of each way
        that disagrees with the others on a card). ``known`` gives the knowledge of each place
        of to_compare()."""
        for records in self.seen.values():
            for places in records.values():
                if len(places) > 1:
                    yield "same game", places
            if len(records) < 2:
                continue
            clusters: list[list[Place]] = []
            for places in records.values():
                place = places[0]
                cluster = next((c for c in clusters if all(compatible(known[place], known[p]) for p in c)), None)
                if cluster is None:
                    clusters.append([place])
                else:
                    cluster.append(place)
            for cluster in clusters:
                if len(cluster) > 1:
                    yield "other seats", cluster
            if len(clusters) > 1:
                yield "conflicting", [cluster[0] for cluster in clusters]


def piece_place(file: str, piece: GameText, header: Header | None) -> Place:
    return Place(file, piece.first_line, piece.index, header.perspective if header else None)
