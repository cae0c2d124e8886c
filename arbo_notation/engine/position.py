"""A table at one moment as a value: every tree, pile and hand, the deck, whose turn; one line of text.

A position is to a game of Arboretum what FEN is to chess: ``Game.position()`` gives it,
``Game.from_position()`` sets a table up from it, and a record may start from one (its header's
``position:`` key). ``str()`` is its line::

    Ca Dw Ja Ma Oa Wi | Ana: Ma3@0,0 / Oa5 / Ca1 +Ja4 ?5 | Ben: - / - / ?7 | deck 32 | 2. Ben draw1

The fields, parted by `` | ``: the species in play; each player in seat order, as their name, a
colon and three parts parted by `` / ``: their trees (``card@x,y``, by cell), their discard pile
(bottom first) and their hand (its known cards, ``+`` before a card every player saw them take
from a discard pile, then ``?N`` for N cards not known); the deck (``deck N``, then its N cards,
top first, when their order is known); the turn's number, the player to move and what is due
(``draw1``, ``draw2``, ``plant``, ``discard``, or ``over``). An empty part is ``-``.
``to_json()`` gives the same as a JSON object (docs/NOTATION.md, "Positions").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from arbo_notation.engine.actions import Phase as Phase  # its home is engine/actions.py
from arbo_notation.engine.cards import ORIGIN, Card, Coord, card_order
from arbo_notation.engine.lexicon import (
    CARD,
    COORDINATE,
    DECK_SIZE,
    DUE_WORDS,
    FIELD_SEP,
    HIDDEN_CARDS,
    NAME,
    PART_SEP,
    SPECIES,
    TURN_DIGITS,
    WORD_SEP,
)
from arbo_notation.errors import PositionError


@dataclass(frozen=True, slots=True)
class HandView:
    """What is known of a hand: the known cards (sorted) and how many are hidden."""

    known: tuple[Card, ...]
    hidden: int

    def __len__(self) -> int:
        return len(self.known) + self.hidden


def frontier(trees: Any) -> list[Coord]:
    """The empty cells where a tree may be planted in an arboretum (a mapping or set of its cells):
    (0,0) when it is empty, else every free cell next to a tree, sorted. The rule, written once
    (the lean engine's ``frontier_of`` is its fast path, held to it by tests/engine/test_lean.py)."""
    if not trees:
        return [ORIGIN]
    return sorted({n for cell in trees for n in cell.neighbours() if n not in trees}, key=_by_xy)


def sorted_trees(trees: Mapping[Coord, Card]) -> tuple[tuple[Coord, Card], ...]:
    """An arboretum's trees as a position holds them: (cell, card) pairs, by cell."""
    cells = sorted(trees, key=_by_xy)
    return tuple(zip(cells, map(trees.__getitem__, cells), strict=True))


#: The order of cells as Coord's ``<`` orders them (x, then y), as a sort key: some four times
#: faster than sorting by ``<``, a Python method called for every comparison (a bot asks for the
#: cells where it may plant at every planting).
_by_xy = attrgetter("x", "y")


@dataclass(frozen=True, slots=True)
class SeatPosition:
    """One player's part of a position: ``trees`` by cell, the discard ``pile`` bottom first, the
    ``hand``'s known cards (sorted), those of them every player saw taken from a pile (``shown``),
    and how many cards of the hand are not known (``hidden``)."""

    player: str
    trees: tuple[tuple[Coord, Card], ...] = ()
    pile: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    shown: frozenset[Card] = frozenset()
    hidden: int = 0

    @property
    def hand_size(self) -> int:
        return len(self.hand) + self.hidden

    def __str__(self) -> str:
        trees = " ".join(f"{card}@{cell}" for cell, card in self.trees) or "-"
        pile = " ".join(map(str, self.pile)) or "-"
        held = [f"+{card}" if card in self.shown else str(card) for card in self.hand]
        if self.hidden:
            held.append(f"?{self.hidden}")
        return f"{self.player}: {trees} / {pile} / {' '.join(held) or '-'}"


#: What is due, as the position's last field writes it: the phase and the draws taken.
_DUE_WORDS = dict(
    zip(
        ((Phase.DRAW, 0), (Phase.DRAW, 1), (Phase.PLANT, 2), (Phase.DISCARD, 2), (Phase.OVER, 0)),
        DUE_WORDS,
        strict=True,
    )
)
_DUE = {word: due for due, word in _DUE_WORDS.items()}


@dataclass(frozen=True, slots=True)
class Position:
    """A whole table at one moment (see the module's docstring for its line)."""

    species: tuple[str, ...]
    seats: tuple[SeatPosition, ...]
    deck_size: int
    deck: tuple[Card, ...] | None  # top first, when the order is known
    turn: int
    to_move: str
    phase: Phase
    draws_taken: int

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.player for seat in self.seats)

    def seat(self, player: str) -> SeatPosition:
        for seat in self.seats:
            if seat.player == player:
                return seat
        raise PositionError(f"{player} is not a player of this position ({', '.join(self.players)})")

    @property
    def due(self) -> str:
        """What is due, as the line's last word: draw1, draw2, plant, discard or over."""
        return _DUE_WORDS[(self.phase, self.draws_taken)]

    def __str__(self) -> str:
        deck = f"deck {self.deck_size}"
        if self.deck is not None and self.deck:
            deck += " " + " ".join(map(str, self.deck))
        fields = [" ".join(self.species), *map(str, self.seats), deck, f"{self.turn}. {self.to_move} {self.due}"]
        return " | ".join(fields)

    def to_json(self) -> dict[str, Any]:
        """The position as a JSON object (what ``arbo state --json`` and the protocol's view carry)."""
        return {
            "text": str(self),
            "species": list(self.species),
            "players": [
                {
                    "name": seat.player,
                    "trees": [{"card": str(card), "x": cell.x, "y": cell.y} for cell, card in seat.trees],
                    "discards": [str(card) for card in seat.pile],
                    "hand": {
                        "known": [str(card) for card in seat.hand],
                        "shown": [str(card) for card in seat.hand if card in seat.shown],
                        "hidden": seat.hidden,
                    },
                }
                for seat in self.seats
            ],
            "deck": {"size": self.deck_size, "cards": None if self.deck is None else [str(c) for c in self.deck]},
            "turn": self.turn,
            "to_move": self.to_move,
            "phase": self.phase.value,
            "draws_taken": self.draws_taken,
        }

    @classmethod
    def from_json(cls, data: Any) -> "Position":
        """A position from its JSON object (PositionError naming what is wrong). The object's
        ``text`` is what is read; the other keys are checked against it."""
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            raise PositionError('a position in JSON is an object with its line under "text"')
        position = cls.parse(data["text"])
        if data != position.to_json():
            raise PositionError('the position\'s keys disagree with its "text"')
        return position

    @classmethod
    def parse(cls, text: str) -> "Position":
        """Read a position's line (grammar/arbo.lark's ``position``, spaces and tabs free around
        the words); PositionError saying which field is wrong and why."""
        line = text.strip(" \t\n") if isinstance(text, str) else "\n"
        if "\n" in line:
            raise PositionError("a position is one line of text")
        fields = _FIELD_SEP.split(line)
        if not 5 <= len(fields) <= 7:
            found = f"{len(fields)} field{'s' if len(fields) != 1 else ''}"
            raise PositionError(
                "a position is: species | a field for each of 2 to 4 players | deck | turn, player and "
                f"what is due (found {found})"
            )
        species = tuple(_WORDS.split(fields[0]))
        if not all(_SPECIES.fullmatch(code) for code in species):
            raise PositionError(f"the first field lists the species in play (Ca Dw Ja ...), not {fields[0]!r}")
        seats = tuple(_seat(field) for field in fields[1:-2])
        deck_size, deck = _deck(fields[-2])
        turn, to_move, phase, draws = _due(fields[-1])
        return cls(species, seats, deck_size, deck, turn, to_move, phase, draws)


# The pieces of a line, as the grammar spells them (engine/lexicon.py); the turn's number is read
# whole and held to 1 and more here, to say so.
_FIELD_SEP = re.compile(FIELD_SEP)
_PART_SEP = re.compile(PART_SEP)
_WORDS = re.compile(WORD_SEP)
_SPECIES = re.compile(SPECIES)
_SEAT = re.compile(rf"(?P<player>{NAME}):(?:{WORD_SEP})?(?P<parts>.*)\Z")
_TREE = re.compile(rf"(?P<card>{CARD})@(?P<x>{COORDINATE}),(?P<y>{COORDINATE})\Z")
_CARD = re.compile(rf"{CARD}\Z")
_HIDDEN = re.compile(rf"{HIDDEN_CARDS}\Z")
_DECK = re.compile(rf"deck{WORD_SEP}(?P<size>{DECK_SIZE})(?P<cards>(?:{WORD_SEP}[^ \t]+)*)\Z")
_DUE_FIELD = re.compile(rf"(?P<turn>{TURN_DIGITS})\.{WORD_SEP}(?P<player>{NAME}){WORD_SEP}(?P<due>[^ \t]+)\Z")


def _card(word: str, where: str) -> Card:
    if not _CARD.match(word):
        raise PositionError(f"{where}: {word!r} is no card (a card is a species and a value, such as Ma3)")
    return Card.parse(word)


def _seat(field: str) -> SeatPosition:
    match = _SEAT.match(field)
    if match is None:
        raise PositionError(f"a player's field is 'Name: trees / pile / hand', not {field!r}")
    player = match["player"]
    parts = [_WORDS.split(part) for part in _PART_SEP.split(match["parts"])]
    if len(parts) != 3 or any(part == [""] for part in parts):
        raise PositionError(f"{player}'s field has three parts, trees / pile / hand, each '-' when empty: {field!r}")
    trees_words, pile_words, hand_words = (part if part != ["-"] else [] for part in parts)
    trees: dict[Coord, Card] = {}
    for word in trees_words:
        tree = _TREE.match(word)
        if tree is None:
            raise PositionError(f"{player}'s trees: {word!r} is no tree (a tree is written Ma3@0,1)")
        cell = Coord(int(tree["x"]), int(tree["y"]))
        if cell in trees:  # (beyond the grammar, as a deck's count)
            raise PositionError(f"{player}'s trees: two trees stand at ({cell})")
        trees[cell] = Card.parse(tree["card"])
    pile = tuple(_card(word, f"{player}'s discard pile") for word in pile_words)
    hand: list[Card] = []
    shown: set[Card] = set()
    hidden = 0
    for index, word in enumerate(hand_words):
        if index == len(hand_words) - 1 and _HIDDEN.match(word):
            hidden = int(word[1:])
            continue
        card = _card(word.removeprefix("+"), f"{player}'s hand")
        if word.startswith("+"):
            shown.add(card)
        hand.append(card)
    hand.sort(key=card_order)
    return SeatPosition(player, tuple(sorted(trees.items())), pile, tuple(hand), frozenset(shown), hidden)


def _deck(field: str) -> tuple[int, tuple[Card, ...] | None]:
    match = _DECK.match(field)
    if match is None:
        raise PositionError(f"the deck's field is 'deck N', then its N cards top first when known, not {field!r}")
    size = int(match["size"])
    if not match["cards"]:
        return size, None if size else ()
    cards = tuple(_card(word, "the deck") for word in _WORDS.split(match["cards"])[1:])
    if len(cards) != size:  # (beyond the grammar, as two trees on one cell)
        raise PositionError(f"the deck holds {size} cards, but {len(cards)} are listed")
    return size, cards


def _due(field: str) -> tuple[int, str, Phase, int]:
    match = _DUE_FIELD.match(field)
    if match is None or match["due"] not in _DUE:
        raise PositionError(
            "the last field is the turn's number, the player to move and what is due "
            f"(draw1, draw2, plant, discard or over), such as '12. Ana draw1', not {field!r}"
        )
    phase, draws = _DUE[match["due"]]
    if int(match["turn"]) < 1:
        raise PositionError("a turn's number starts at 1")
    return int(match["turn"]), match["player"], phase, draws
