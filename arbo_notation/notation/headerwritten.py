"""The reader of headers in the writer's own form, straight to a Header; None for anything else.

headerwriter.py writes the keys a game needs as one-line scalars, flow lists of names, codes and
cards (wrapped after a ',' onto lines indented deeper), 'hands:' and 'discards:' as '  Name: [...]'
lines, and a short result as '{Ana: 24, Ben: 19}'. read_written_header reads exactly these and
builds the Header with no mapping in between and no second validation: every word it takes is
one it has checked the way headerfast.fast_load and header_from_mapping would take it (cached:
the same names, codes and cards recur in every game). It never raises: whatever it does not know
(another key or form, a word YAML would read otherwise, a fault of any kind) makes it answer
None, and read_header reads the header the general way, which reports faults.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..engine.cards import CARD_RE, Card, is_species_code
from ..lexicon import NAME_SHAPE
from .headerfast import NOT_READ, TEXT_KEYS, value_of, word_reads_as_itself
from .record import RESERVED_NAMES, Header, Pos

_PLAYER_NAME = re.compile(rf"{NAME_SHAPE}\Z")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_SCORE = re.compile(r"(?:0|[1-9][0-9]{0,8})\Z")
_PLAYER_MAPS = ("hands", "discards")
_MAX_CACHED = 10000  # words and lines remembered: a few hundred in practice


class _Unknown(Exception):
    """The header is not one this reader is sure of."""


def _cache(check: Callable[[str], Any]) -> Callable[[str], Any]:
    """``check`` remembered for the words it accepts (it raises _Unknown for the others)."""
    known: dict[str, Any] = {}

    def cached(word: str) -> Any:
        value = known.get(word)
        if value is None:
            value = check(word)
            if len(known) < _MAX_CACHED:
                known[word] = value
        return value

    cached.known = known  # type: ignore[attr-defined]
    return cached


@_cache
def _name(word: str) -> str:
    """A player's name written plain, which YAML reads as itself."""
    if _PLAYER_NAME.match(word) and word not in RESERVED_NAMES and word_reads_as_itself(word):
        return word
    raise _Unknown


@_cache
def _code(word: str) -> str:
    """A species code written plain, which YAML reads as itself."""
    if is_species_code(word) and word_reads_as_itself(word):
        return word
    raise _Unknown


@_cache
def _card(word: str) -> Card:
    """A card written plain, which YAML reads as its code."""
    if CARD_RE.match(word) and word_reads_as_itself(word):
        return Card(word[:-1], int(word[-1]))
    raise _Unknown


def _items(text: str) -> list[str]:
    """The words of a flow list '[a, b, c]' (continuation lines already joined with a space)."""
    if text[:1] != "[" or text[-1:] != "]":
        raise _Unknown
    inner = text[1:-1]
    return inner.split(", ") if inner else []


def _cards(text: str) -> tuple[Card, ...]:
    words = _items(text)
    cards = tuple(map(_card.known.get, words))  # type: ignore[attr-defined] # look-ups, no calls
    return cards if all(cards) else tuple(map(_card, words))  # all(): "None in" would call Card.__eq__


def _distinct(text: str, word: Callable[[str], str]) -> tuple[str, ...]:
    """A non-empty list of distinct words (players, species)."""
    words = tuple(map(word, _items(text)))
    if not words or len(set(words)) != len(words):
        raise _Unknown
    return words


@_cache
def _players(text: str) -> tuple[str, ...]:
    return _distinct(text, _name)


@_cache
def _species(text: str) -> tuple[str, ...]:
    return _distinct(text, _code)


def _result(text: str) -> dict[str, int]:
    """A flow mapping '{Ana: 24, Ben: 19}' of names to whole numbers."""
    if text[:1] != "{" or text[-1:] != "}":
        raise _Unknown
    scores: dict[str, int] = {}
    for pair in text[1:-1].split(", ") if text != "{}" else ():
        name, colon, score = pair.partition(": ")
        if not colon or not _SCORE.match(score) or _name(name) in scores:
            raise _Unknown
        scores[name] = int(score)
    return scores


def _text(text: str) -> str | None:
    """An event, site, round or annotator, as the fast reader takes it (a null word is None)."""
    if text[0] in "[{":
        raise _Unknown
    value = value_of(text, as_text=True)
    if value is NOT_READ or not (value is None or isinstance(value, str)):
        raise _Unknown
    return value


def _date(text: str) -> str:
    """A date written YYYY-MM-DD: a real day, which YAML reads as a date and the Header keeps as written."""
    if not _DATE.match(text) or value_of(text) is NOT_READ:
        raise _Unknown
    return text


_SCALARS: dict[str, Callable[[str], Any]] = {
    **dict.fromkeys(TEXT_KEYS, _text), "date": _date, "players": _players, "species": _species,
    "perspective": _name, "deck": _cards, "result": _result,
}


def _continued(text: str, lines: list[str], i: int, indent: str) -> tuple[str, int]:
    """A flow list that starts as ``text`` and, wrapped after a ',', goes on over lines indented
    deeper than ``indent``; and the index of the line after it."""
    if not text:  # 'Ana: ' with nothing after it: not the writer's
        raise _Unknown
    while text[0] == "[" and text[-1] != "]":
        if i == len(lines) or text[-1] != "," or not lines[i].startswith(indent) or not lines[i].strip(" "):
            raise _Unknown
        text += " " + lines[i].lstrip(" ")
        i += 1
    return text, i


def _player_map(lines: list[str], i: int) -> tuple[dict[str, tuple[Card, ...]], int]:
    """The '  Name: [cards]' lines from line i (at least one), and the index of the line after them."""
    cards: dict[str, tuple[Card, ...]] = {}
    while i < len(lines) and lines[i][:2] == "  " and lines[i][2:3] not in (" ", ""):
        name, colon, rest = lines[i][2:].partition(": ")
        if not colon or _name(name) in cards:
            raise _Unknown
        text, i = _continued(rest, lines, i + 1, "   ")
        cards[name] = _cards(text)
    if not cards:
        raise _Unknown
    return cards, i


def _fields(lines: list[str]) -> dict[str, Any]:
    """The Header's fields, key by key as written; _Unknown for anything else."""
    fields: dict[str, Any] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip(" "):
            continue
        key, colon, rest = line.partition(": ")
        if not colon and line[:-1] in _PLAYER_MAPS and line[-1] == ":":
            key = line[:-1]
            value, i = _player_map(lines, i)
        elif key in _SCALARS and rest:
            text, i = _continued(rest, lines, i, " ")
            value = _SCALARS[key](text)
        else:
            raise _Unknown
        if key in fields:
            raise _Unknown
        fields[key] = value
    return fields


def _well_placed(fields: dict[str, Any]) -> bool:
    """Whether the players named in the perspective, hands, discards and result are the header's."""
    players = fields.get("players")
    if players is None or "species" not in fields:
        return False
    named = [fields.get("perspective"), *fields.get("hands", ()), *fields.get("discards", ()),
             *(fields.get("result") or ())]
    return all(name is None or name in players for name in named)


def read_written_header(text: str, pos: Pos) -> Header | None:
    """The Header of a header's YAML as the writer writes it (``pos``: its opening '---'); None
    when the text is in any other form or has any fault."""
    if "\t" in text or "\r" in text:
        return None
    try:
        fields = _fields(text.split("\n"))
    except _Unknown:
        return None
    if not _well_placed(fields):
        return None
    return Header(pos=pos, **fields)
