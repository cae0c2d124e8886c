"""Species, cards, coordinates and plantings: the small values every layer of arbo shares."""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from functools import total_ordering
from operator import attrgetter
from typing import NamedTuple, TypeVar

from arbo_notation.errors import ArboError
from arbo_notation.engine.lexicon import SPECIES, VALUE

MIN_VALUE = 1
MAX_VALUE = 8
HAND_SIZE = 7

SPECIES_CODE_RE = re.compile(rf"{SPECIES}\Z")
CARD_RE = re.compile(rf"({SPECIES})({VALUE})\Z")
_ANY_VALUE_RE = re.compile(rf"{SPECIES}([0-9]+)\Z")


def value_fault(word: str) -> str:
    """``: a card's value runs 1 to 8`` when ``word`` is a species code and a number outside that
    range (``Ma9``, ``Ma0``), to end a message that refuses it; else ''."""
    match = _ANY_VALUE_RE.match(word)
    if match is None or MIN_VALUE <= int(match.group(1)) <= MAX_VALUE:
        return ""
    return f": a card's value runs {MIN_VALUE} to {MAX_VALUE}"


class Species(NamedTuple):
    """A tree species: its code in records (1 to 3 letters) and its name. (A named tuple, not a
    frozen dataclass: made at every start-up, whose dataclass costs some 0.5 ms of a check's;
    bench/README.md, "Issue 49, point 3, fifth branch".)"""

    code: str
    name: str

    def __str__(self) -> str:
        return self.code


#: The Renegade edition's ten species with the project's default codes (RULES.md).
DEFAULT_SPECIES: tuple[Species, ...] = (
    Species("Bs", "Blue Spruce"),
    Species("Ca", "Cassia"),
    Species("Cb", "Cherry Blossom"),
    Species("Dw", "Dogwood"),
    Species("Ja", "Jacaranda"),
    Species("Ma", "Maple"),
    Species("Oa", "Oak"),
    Species("Rp", "Royal Poinciana"),
    Species("Tp", "Tulip Poplar"),
    Species("Wi", "Willow"),
)
#: The Z-Man edition's three species that Renegade replaced.
ZMAN_SPECIES: tuple[Species, ...] = (
    Species("Li", "Lilac"),
    Species("Mg", "Magnolia"),
    Species("Ol", "Olive"),
)
KNOWN_SPECIES_NAMES: dict[str, str] = {s.code: s.name for s in DEFAULT_SPECIES + ZMAN_SPECIES}

#: How many species a real game uses, by number of players.
SPECIES_COUNT_BY_PLAYERS: dict[int, int] = {2: 6, 3: 8, 4: 10}


def species_name(code: str, names: dict[str, str] | None = None) -> str:
    """The display name of a species code: the record's own name, the known name, or the code."""
    if names and code in names:
        return names[code]
    return KNOWN_SPECIES_NAMES.get(code, code)


def is_species_code(text: str) -> bool:
    return bool(SPECIES_CODE_RE.match(text))


#: How many cards and cells stay interned for good; past these, the others are interned only while
#: something holds them (weakly), so a long-lived process reading hostile records does not grow
#: without limit. (A legal game of the largest table uses 80 cards and fewer than 20,000 cells.)
MAX_KEPT_CARDS = 4096
MAX_KEPT_CELLS = 1 << 16


_Key = TypeVar("_Key")
_Value = TypeVar("_Value")


def _intern(
    kept: dict[_Key, _Value], others: weakref.WeakValueDictionary[_Key, _Value], key: _Key, value: _Value, bound: int
) -> _Value:
    """The one object for ``key``: kept for good while ``kept`` has room, else held weakly by ``others``."""
    if len(kept) < bound:
        return kept.setdefault(key, value)  # atomic: one object per key
    return others.setdefault(key, value)


@total_ordering
@dataclass(frozen=True, slots=True, eq=False, init=False, weakref_slot=True)
class Card:
    """One card: a species code and a value from 1 to 8. ``str(Card("Ma", 3)) == "Ma3"``.

    Cards are interned: ``Card("Ma", 3) is Card("Ma", 3)``, so equality is identity and hashing
    is as cheap as for any object (the replayer compares cards millions of times).
    """

    species: str
    value: int

    def __new__(cls, species: str, value: int) -> "Card":
        card = _CARDS.get((species, value)) or _MORE_CARDS.get((species, value))
        if card is None:
            if type(value) is not int or not (MIN_VALUE <= value <= MAX_VALUE):
                raise ArboError(f"a card's value runs 1 to 8, not {value!r}")
            if not isinstance(species, str) or not is_species_code(species):
                raise ArboError(f"a species code is 1 to 3 letters, not {species!r}")
            card = object.__new__(cls)
            object.__setattr__(card, "species", species)
            object.__setattr__(card, "value", value)
            card = _intern(_CARDS, _MORE_CARDS, (species, value), card, MAX_KEPT_CARDS)
        return card

    def __reduce__(self) -> tuple[type["Card"], tuple[str, int]]:
        return (Card, (self.species, self.value))

    def __lt__(self, other: "Card") -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.species, self.value) < (other.species, other.value)

    def __str__(self) -> str:
        return f"{self.species}{self.value}"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read a card written as species code and value (``Ma3``); ArboError when malformed."""
        match = CARD_RE.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            hint = value_fault(text.strip()) if isinstance(text, str) else ""
            raise ArboError(f"expected a card such as Ma3, found {text!r}{hint}")
        return cls(match.group(1), int(match.group(2)))


_CARDS: dict[tuple[str, int], Card] = {}
_MORE_CARDS: weakref.WeakValueDictionary[tuple[str, int], Card] = weakref.WeakValueDictionary()

#: The sort key of a card: species code, then value, as ``<`` orders cards; sorting by it is
#: several times faster than sorting by ``<``, a Python method called for every comparison.
card_order = attrgetter("species", "value")


@total_ordering
@dataclass(frozen=True, slots=True, eq=False, init=False, weakref_slot=True)
class Coord:
    """A cell of an arboretum: x to the right, y up; the first tree stands at 0,0.

    Interned like cards: ``Coord(1, 0) is Coord(1, 0)``.
    """

    x: int
    y: int

    def __new__(cls, x: int, y: int) -> "Coord":
        coord = _COORDS.get((x, y)) or _MORE_COORDS.get((x, y))
        if coord is None:
            if type(x) is not int or type(y) is not int:
                raise ArboError(f"a cell's coordinates are whole numbers, not {x!r},{y!r}")
            coord = object.__new__(cls)
            object.__setattr__(coord, "x", x)
            object.__setattr__(coord, "y", y)
            coord = _intern(_COORDS, _MORE_COORDS, (x, y), coord, MAX_KEPT_CELLS)
        return coord

    def __reduce__(self) -> tuple[type["Coord"], tuple[int, int]]:
        return (Coord, (self.x, self.y))

    def __lt__(self, other: "Coord") -> bool:
        if not isinstance(other, Coord):
            return NotImplemented
        return (self.x, self.y) < (other.x, other.y)

    def __str__(self) -> str:
        return f"{self.x},{self.y}"

    def neighbours(self) -> tuple["Coord", "Coord", "Coord", "Coord"]:
        """The four orthogonally adjacent cells: right, left, up, down."""
        # Remembered: the cells where a bot may plant are asked at every planting, and four
        # interned cells made afresh were two thirds of it (bench/README.md, "A bot's view, kept
        # cheap"). Bounded as the interned cells are: emptied when full.
        around = _NEIGHBOURS.get(self)
        if around is None:
            x, y = self.x, self.y
            if len(_NEIGHBOURS) >= MAX_KEPT_CELLS:
                _NEIGHBOURS.clear()
            around = _NEIGHBOURS[self] = (Coord(x + 1, y), Coord(x - 1, y), Coord(x, y + 1), Coord(x, y - 1))
        return around

    def is_adjacent(self, other: "Coord") -> bool:
        return abs(self.x - other.x) + abs(self.y - other.y) == 1


_COORDS: dict[tuple[int, int], Coord] = {}
_MORE_COORDS: weakref.WeakValueDictionary[tuple[int, int], Coord] = weakref.WeakValueDictionary()

_NEIGHBOURS: dict[Coord, tuple[Coord, Coord, Coord, Coord]] = {}  # Coord.neighbours, remembered

ORIGIN = Coord(0, 0)


def full_deck(species: Iterable[str]) -> list[Card]:
    """Every card of the given species, in species order then value order."""
    return [Card(code, value) for code in species for value in range(MIN_VALUE, MAX_VALUE + 1)]


def default_species_for(players: int) -> tuple[str, ...]:
    """The first 6, 8 or 10 default species codes for 2, 3 or 4 players."""
    count = SPECIES_COUNT_BY_PLAYERS.get(players)
    if count is None:
        raise ArboError(f"a game has 2 to 4 players, not {players}")
    return tuple(s.code for s in DEFAULT_SPECIES[:count])


def species_at_random(players: int, seed: int | str | None = None) -> tuple[str, ...]:
    """6, 8 or 10 of the default species for 2, 3 or 4 players, chosen at random (the same for
    the same seed), in the default order."""
    count = SPECIES_COUNT_BY_PLAYERS.get(players)
    if count is None:
        raise ArboError(f"a game has 2 to 4 players, not {players}")
    import random  # here, not at the top: a check deals nothing, and random is 1 ms of start-up

    codes = [s.code for s in DEFAULT_SPECIES]
    chosen = set(random.Random(seed).sample(codes, count))
    return tuple(code for code in codes if code in chosen)
