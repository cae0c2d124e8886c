"""The header's keys as typed rows: each key a name, the type of its value, its meaning and example.

A value type (Text, IsoDate, NameList, CodeList, CodeMap, PlayerRef, CardList, PlayerCards,
PositionLine, PlayerScores) owns how a value of its kind is checked from YAML or JSON data, given as plain data,
written as canonical lines and read back from the writer's lines, as sgfmill's Presenter gives each
property type one serialiser and one interpreter and a table maps each property to its type.

Around the rows: the header validated from a mapping and given back as one (header_from_mapping,
header_to_mapping, which the .arb reader and the JSON/YAML converters use); the header written in
canonical YAML (format_header, header_lines, check_header); and the quick reader of exactly that
form, straight into a Header (read_written_header), which answers None for anything else so that
header.py reads it with the safe YAML loader: ``read_header(format_header(h)) == h``. Reading
loads no YAML library (yamlwords.py reads the few YAML words the writer writes); writing loads
PyYAML on first use.
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeGuard, TypeVar, cast

from arbo_notation.engine.cards import CARD_RE, Card, is_species_code, value_fault
from arbo_notation.engine.lexicon import MAX_NAME_LENGTH, MAX_POINTS_DIGITS, NAME_SHAPE, RESERVED_NAMES
from arbo_notation.notation.bounds import MOST_POINTS
from arbo_notation.errors import ArboError, HeaderFault, Pos, PositionError
from arbo_notation.notation.header import yamlwords

if TYPE_CHECKING:
    import yaml

    from arbo_notation.engine.position import Position

PLAYER_NAME_RE = re.compile(rf"{NAME_SHAPE}\Z")
ISO_DATE_RE = re.compile(r"[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?\Z")
#: How deep a header's lists and mappings may nest, the header's own mapping counted: far more
#: than any header needs, and shallow enough for every writer (YAML, JSON) to write it back.
HEADER_MAX_DEPTH = 32
#: The longest text a header holds (an event, a site, a species' name, any text of an unknown key,
#: a key): far more than any real one, and short enough for pictures and pages that draw it.
MAX_HEADER_TEXT = 4000
#: The largest whole number of an unknown key, as a 64-bit number holds it (19 digits).
MAX_HEADER_NUMBER = 2**63 - 1
#: The highest score, as on the result line (lexicon.MAX_POINTS_DIGITS digits).
MAX_SCORE = MOST_POINTS
LINE_WIDTH = 80
#: What a value type's to_data answers for a value the mapping leaves out.
OMIT = object()

T = TypeVar("T")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Header:
    """A game's YAML header, typed (its keys: HEADER_KEY_ROWS, below). ``extra`` keeps unknown
    keys verbatim, in their order."""

    players: tuple[str, ...]
    species: tuple[str, ...]
    event: str | None = None
    site: str | None = None
    date: str | None = None  # ISO 8601, YYYY-MM-DD
    round: str | None = None
    annotator: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    perspective: str | None = None
    deck: tuple[Card, ...] | None = None  # the draw pile after the deal, top card first
    hands: dict[str, tuple[Card, ...]] = field(default_factory=dict)  # dealt hands
    discards: dict[str, tuple[Card, ...]] = field(default_factory=dict)  # face up at setup, bottom first
    position: Position | None = None  # the table the record starts from, in place of a deal
    result: dict[str, int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    pos: Pos | None = field(default=None, compare=False)


# ------------------------------------------------------------------------------------------------
# Checking a value of YAML or JSON data


def is_player_name(name: object) -> TypeGuard[str]:
    """A valid player's name: a letter, then letters, digits, _ ' or -, and not a reserved word."""
    return isinstance(name, str) and bool(PLAYER_NAME_RE.match(name)) and name not in RESERVED_NAMES


def _show(value: object) -> str:
    """A value as a person wrote it in YAML (true/false/null rather than Python's spelling)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(str(value))


def _yaml_word_hint(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return " (YAML reads words such as No, Yes, On, Off, True, False and Null as true/false/null: put such a name in quotes)"
    return ""


def _as_item(value: object) -> str | None:
    """What a fault points at in the header's lines: the value when it is text."""
    return value if isinstance(value, str) else None


def _text(key: str, value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise HeaderFault(f"'{key}' must be text, found {_show(value)}{_yaml_word_hint(value)}", key)
    text = str(value)
    if len(text) > MAX_HEADER_TEXT:
        raise HeaderFault(f"'{key}' holds {len(text)} characters: a header's text holds at most {MAX_HEADER_TEXT}", key)
    return text


def is_iso_date(text: str) -> bool:
    """YYYY (1000 to 9999, as a year written bare), YYYY-MM, or YYYY-MM-DD of a real day: what
    the writer writes bare and reads back the same ('2024-02-30' is no date: YAML cannot build it)."""
    if not ISO_DATE_RE.match(text):
        return False
    import datetime  # (here and below, not at the top: a header with no date needs none of it, 1-2 ms of start-up)

    parts = [int(part) for part in text.split("-")]
    if len(parts) == 1:
        return 1000 <= parts[0]
    if len(parts) == 2:
        return 1 <= parts[1] <= 12
    try:
        datetime.date(*parts)
    except ValueError:
        return False
    return True


def _list(key: str, value: object, example: str) -> list[object]:
    if not isinstance(value, list):
        raise HeaderFault(f"'{key}' must be a list such as {example}, found {_show(value)}", key, _as_item(value))
    return value


def _mapping(key: str, value: object, example: str) -> dict[object, object]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise HeaderFault(f"'{key}' must be a mapping such as {example}, found {_show(value)}", key, _as_item(value))
    return value


def _name(key: str, value: object) -> str:
    if isinstance(value, str) and len(value) > MAX_NAME_LENGTH:
        raise HeaderFault(
            f"'{key}': a player's name has at most {MAX_NAME_LENGTH} characters, found one of {len(value)}", key
        )
    if isinstance(value, str) and value in RESERVED_NAMES:
        raise HeaderFault(
            f"'{key}': {value!r} cannot be a player's name (the notation reserves d, reveal and result)", key, value
        )
    if not is_player_name(value):
        extra = " (a letter, then letters, digits, _ ' or -)" if isinstance(value, str) else _yaml_word_hint(value)
        raise HeaderFault(f"'{key}': {_show(value)} is not a player's name{extra}", key, _as_item(value))
    return value


def _among(key: str, name: object, among: tuple[str, ...], what: str) -> str:
    """``name``, one of ``among`` (the players or the species, which ``what`` names)."""
    if not isinstance(name, str) or name not in among:
        raise HeaderFault(f"'{key}': {_show(name)} is not one of the {what} ({', '.join(among)})", key, _as_item(name))
    return name


#: 'Ma3' -> Card('Ma', 3): a header's ~80 cards in look-ups, not regex matches. Keyed by any item
#: of a list so that the look-up takes the items as YAML gives them (all text, in practice).
_CARD_TEXTS: dict[object, Card] = {}


def _card(key: str, item: object) -> Card:
    if not isinstance(item, str) or not CARD_RE.match(item):
        fault = value_fault(item) if isinstance(item, str) else ""
        raise HeaderFault(
            f"'{key}': expected a card such as Ma3, found {_show(item)}{fault}",
            key,
            item if isinstance(item, (str, int)) else None,
        )
    card = Card(item[:-1], int(item[-1]))
    if len(_CARD_TEXTS) < 10000:
        _CARD_TEXTS[item] = card
    return card


def _cards(key: str, value: object) -> tuple[Card, ...]:
    items = _list(key, value, "[Ma3, Oa5]")
    try:
        known = tuple(map(_CARD_TEXTS.get, items))
    except TypeError:  # an unhashable item (a list, a mapping): _card says what is wrong
        known = (None,)
    if all(known):  # not 'None in known', which would call Card's comparisons
        return cast("tuple[Card, ...]", known)  # all() above: no None among them
    return tuple(_card(key, item) for item in items)


# ------------------------------------------------------------------------------------------------
# Writing: canonical YAML (PyYAML on first use, for the words it must quote and the unknown keys)


def _safe_load(text: str) -> Any:
    """yaml.safe_load, with the C loader when available (for text the writer made itself)."""
    import yaml

    # deferred: safeyaml loads PyYAML (26-28 ms of start-up), which only writing a header needs
    from arbo_notation.notation.safeyaml import SAFE_LOADER

    return yaml.load(text, Loader=SAFE_LOADER)


def _dump_scalar(value: object) -> str:
    """A scalar as YAML writes it in double quotes (every character representable)."""
    import yaml

    text = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=float("inf"))
    return text.rstrip("\n").removesuffix("\n...").rstrip("\n")


_PLAIN_CANDIDATE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ .'/()+-]*\Z")


@functools.lru_cache(maxsize=4096)
def flow_scalar(text: str) -> str:
    """A string written so YAML reads it back in a flow list or mapping: plain when safe, else quoted."""
    if _PLAIN_CANDIDATE.match(text) and not text.endswith(" "):
        try:
            if _safe_load(f"[{text}]") == [text]:
                return text
        except Exception:  # noqa: BLE001 - any word YAML cannot read back ('0x_': ValueError) is quoted
            pass
    return _dump_scalar(text)


@functools.lru_cache(maxsize=1024)
def _block_text(text: str) -> str:
    """A text value (event, site, round, ...) for 'key: value': plain when YAML reads it back as the same text."""
    if text and "\n" not in text and text == text.strip():
        try:
            loaded = _safe_load(f"k: {text}")
            if isinstance(loaded, dict) and list(loaded) == ["k"]:
                value = loaded["k"]
                if isinstance(value, str) and value == text:
                    return text
                if isinstance(value, (int, float)) and not isinstance(value, bool) and str(value) == text:
                    return text
        except Exception:  # noqa: BLE001 - any text YAML cannot read back ('!!int x': ValueError) is quoted
            pass
    return _dump_scalar(text)


def _flow_items(prefix: str, items: list[str], indent: str) -> list[str]:
    """A flow list wrapped at LINE_WIDTH columns; continuation lines start with ``indent``."""
    if not items:
        return [f"{prefix}[]"]
    lines: list[str] = []
    current = prefix + "["
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "]")
        if current == prefix + "[":
            current += piece
        elif len(current) + 1 + len(piece) <= LINE_WIDTH:
            current += " " + piece
        else:
            lines.append(current)
            current = indent + piece
    lines.append(current)
    return lines


def _mapping_lines(key: str, mapping: dict[str, str]) -> list[str]:
    """A flow mapping on the key's line, or, when longer than a line, a block of 'name: value' lines."""
    items = [f"{flow_scalar(k)}: {v}" for k, v in mapping.items()]
    line = f"{key}: {{{', '.join(items)}}}"
    if not items:
        return [f"{key}: {{}}"]
    if len(line) <= LINE_WIDTH:
        return [line]
    return [f"{key}:"] + [f"  {item}" for item in items]


@functools.cache
def _plain_dumper() -> type[yaml.SafeDumper]:
    """The safe dumper without anchors and aliases: a value met twice is written twice, so the
    canonical text does not depend on whether two equal values were one object."""
    import yaml

    class PlainDumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:
            return True

        def represent_sorted_set(self, data: set[Any]) -> yaml.Node:
            """A set in a fixed order: as Python keeps it, the order of its text changes with the hash seed."""
            ordered = sorted(data, key=lambda item: (type(item).__name__, repr(item)))
            return self.represent_mapping("tag:yaml.org,2002:set", dict.fromkeys(ordered))

    PlainDumper.add_representer(set, PlainDumper.represent_sorted_set)
    return PlainDumper


def write_extra(key: str, value: Any) -> list[str]:
    """An unknown key and its value, as PyYAML's safe dumper writes them (leaf lists in flow style)."""
    import yaml

    dumper = _plain_dumper()
    try:
        nested = isinstance(value, (dict, list, tuple, set, frozenset))
        text = yaml.dump(
            {key: value},
            Dumper=dumper,
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=None if nested else False,
            width=LINE_WIDTH - 4,
        )
        if re.search(r"^(?:---|\.\.\.)(?:[ \t]|$)", text, re.M):
            raise ValueError
    except yaml.YAMLError as exc:
        raise ArboError(f"cannot write the header key {key!r}: {exc}") from None
    except ValueError:
        text = yaml.dump(
            {key: value},
            Dumper=dumper,
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=True,
            default_style='"',
            width=float("inf"),
        )
    return text.rstrip("\n").split("\n")


# ------------------------------------------------------------------------------------------------
# Reading the writer's own form back: every word checked the way the safe loader and the checks
# above would take it (cached: the same names, codes and cards recur in every game), and anything
# else, a fault included, NotWritten, so that the safe loader reads it and reports the fault.


class NotWritten(Exception):
    """The header is not in the writer's form as far as this reader is sure of it."""


_MAX_CACHED = 10000  # words and lines remembered: a few hundred in practice
_SCORE = re.compile(rf"(?:0|[1-9][0-9]{{0,{MAX_POINTS_DIGITS - 1}}})\Z")
_EXTRA_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _cache(read: Callable[[str], V]) -> Callable[[str], V]:
    """``read`` remembered for the words it accepts (it raises NotWritten for the others)."""
    known: dict[str, V] = {}

    def cached(word: str) -> V:
        value = known.get(word)
        if value is None:
            value = read(word)
            if len(known) < _MAX_CACHED:
                known[word] = value
        return value

    return cached


def _word(word: str) -> tuple[str, bool]:
    """A name or code as written: plain, or in double quotes as the writer quotes a word YAML
    would read otherwise ("No", "null"); and whether it was quoted."""
    if word[:1] != '"':
        return word, False
    text = yamlwords.value_of(word)
    if not isinstance(text, str):
        raise NotWritten
    return text, True


@_cache
def read_name(word: str) -> str:
    """A player's name written plain (which YAML reads as itself) or quoted."""
    name, quoted = _word(word)
    if PLAYER_NAME_RE.match(name) and name not in RESERVED_NAMES and (quoted or yamlwords.reads_as_itself(name)):
        return name
    raise NotWritten


@_cache
def read_code(word: str) -> str:
    """A species code written plain (which YAML reads as itself) or quoted."""
    code, quoted = _word(word)
    if is_species_code(code) and (quoted or yamlwords.reads_as_itself(code)):
        return code
    raise NotWritten


_CARDS_READ: dict[str, Card] = {}  # 'Ma3' -> Card('Ma', 3), as _CARD_TEXTS for the checks


def _read_card(word: str) -> Card:
    """A card written plain, which YAML reads as its code."""
    card = _CARDS_READ.get(word)
    if card is None:
        if not (CARD_RE.match(word) and yamlwords.reads_as_itself(word)):
            raise NotWritten
        card = Card(word[:-1], int(word[-1]))
        if len(_CARDS_READ) < _MAX_CACHED:
            _CARDS_READ[word] = card
    return card


def _items(text: str) -> list[str]:
    """The words of a flow list '[a, b, c]' (continuation lines already joined with a space)."""
    if text[:1] != "[" or text[-1:] != "]":
        raise NotWritten
    inner = text[1:-1]
    return inner.split(", ") if inner else []


def read_cards(text: str) -> tuple[Card, ...]:
    words = _items(text)
    known = tuple(map(_CARDS_READ.get, words))  # look-ups, no calls: the common case
    if all(known):  # not "None in known", which would call Card.__eq__
        return cast("tuple[Card, ...]", known)  # all() above: no None among them
    return tuple(map(_read_card, words))


def _distinct(text: str, word: Callable[[str], str]) -> tuple[str, ...]:
    """A non-empty list of distinct words (players, species)."""
    words = tuple(map(word, _items(text)))
    if not words or len(set(words)) != len(words):
        raise NotWritten
    return words


@_cache  # the same line in every game
def _read_players(text: str) -> tuple[str, ...]:
    return _distinct(text, read_name)


@_cache
def _read_species(text: str) -> tuple[str, ...]:
    return _distinct(text, read_code)


def read_score(text: str) -> int:
    if not _SCORE.match(text):
        raise NotWritten
    return int(text)


def _read_text(text: str) -> str | None:
    """A text as the safe loader takes it (a null word is None)."""
    value = yamlwords.value_of(text, as_text=True)
    if value is None or isinstance(value, str):
        return value
    raise NotWritten


def read_species_name(text: str) -> str:
    """A species' name in 'names': text as written, a null word ''."""
    if text[0] in "[{,]}":
        raise NotWritten
    return _read_text(text) or ""


def _flow_pairs(text: str) -> list[tuple[str, str]]:
    """The 'name: value' pairs of a flow mapping '{Ana: 24, Ben: 19}', as written."""
    if text[:1] != "{" or text[-1:] != "}":
        raise NotWritten
    pairs = []
    for pair in text[1:-1].split(", ") if text != "{}" else ():
        name, colon, rest = pair.partition(": ")
        if not colon:
            raise NotWritten
        pairs.append((name, rest))
    return pairs


def _entries(pairs: Iterable[tuple[str, str]], key: Callable[[str], str], item: Callable[[str], V]) -> dict[str, V]:
    """A mapping's (name, value) pairs as written, read by ``key`` and ``item``, each name once."""
    entries: dict[str, V] = {}
    for name, text in pairs:
        if (name := key(name)) in entries:
            raise NotWritten
        entries[name] = item(text)
    return entries


# ------------------------------------------------------------------------------------------------
# The types of the keys' values


class ValueType(ABC, Generic[T]):
    """The type of a header key's value (T, the Header's field): how a value of it is checked from
    YAML or JSON data, given as plain data, written as canonical lines and read back from them.
    The key comes as an argument: the messages and the lines name it."""

    #: The type in the words of docs/NOTATION.md's table of keys (corpus columns are typed by it).
    kind: ClassVar[str]
    #: The key whose items a value names (the players, the species): the check is given them,
    #: and the quick reader holds the value to them.
    refers_to: ClassVar[str | None] = None
    #: JSON carries the value as it is; False: it may come as a '$date' to decode.
    plain_data: ClassVar[bool] = True

    @abstractmethod
    def check(self, key: str, value: object, among: tuple[str, ...]) -> T:
        """The field of ``value`` as YAML or JSON gives it (``among``: the items of refers_to, or
        none); HeaderFault naming the key at fault."""

    def to_data(self, value: T) -> object:
        """The field as plain data (cards as text), or OMIT when the mapping leaves it out."""
        return OMIT if value is None else value

    @abstractmethod
    def write(self, key: str, value: T) -> list[str]:
        """The canonical lines of the key and its field ([] when it is left out)."""

    def read(self, text: str) -> T:
        """The field of the writer's 'key: value' (a flow collection's lines joined); NotWritten
        for any other form, and for a type the writer never writes so."""
        raise NotWritten

    def read_block(self, entries: list[tuple[str, str]]) -> T:
        """The field of a key written as a block ('key:', then '  name: value' lines), from those
        (name, value) pairs as written; NotWritten for a type the writer never writes so."""
        raise NotWritten

    def names_in(self, value: T) -> Iterable[str]:
        """The items of refers_to that a value names: the value, when a name, or a mapping's keys."""
        if isinstance(value, dict):
            return value.keys()
        return (value,) if isinstance(value, str) else ()


class Text(ValueType["str | None"]):
    """Any text, as written: a plain scalar stays text ('round: 010' is '010', not 8)."""

    kind = "text"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> str | None:
        return _text(key, value)

    def write(self, key: str, value: str | None) -> list[str]:
        return [] if value is None else [f"{key}: {_block_text(value)}"]

    def read(self, text: str) -> str | None:
        if text[0] in "[{":
            raise NotWritten
        return _read_text(text)


class IsoDate(ValueType["str | None"]):
    """YYYY-MM-DD, or YYYY-MM / YYYY, kept as text; YAML and JSON may give it as a date."""

    kind = "ISO date"
    plain_data = False

    def check(self, key: str, value: object, among: tuple[str, ...]) -> str | None:
        if value is None:
            return None
        import datetime

        if isinstance(value, datetime.datetime):
            raise HeaderFault(
                f"'{key}' must be an ISO date such as 2026-11-29, found a date and time {value.isoformat()!r}", key
            )
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999:
            return str(value)
        if isinstance(value, str) and is_iso_date(value):
            return value
        raise HeaderFault(f"'{key}' must be an ISO date such as 2026-11-29, found {_show(value)}", key, str(value))

    def write(self, key: str, value: str | None) -> list[str]:
        return [] if value is None else [f"{key}: {value if ISO_DATE_RE.match(value) else _block_text(value)}"]

    def read(self, text: str) -> str:
        """A date written bare (YYYY, YYYY-MM or a real YYYY-MM-DD), kept as written."""
        if not is_iso_date(text) or yamlwords.value_of(text) is yamlwords.NOT_READ:
            raise NotWritten
        return text


class _WordList(ValueType["tuple[str, ...]"]):
    """A non-empty list of distinct words, written as a flow list."""

    def to_data(self, value: tuple[str, ...]) -> object:
        return list(value)

    def write(self, key: str, value: tuple[str, ...]) -> list[str]:
        return _flow_items(f"{key}: ", [flow_scalar(word) for word in value], "  ")


class NameList(_WordList):
    """The players' names, in seat order."""

    kind = "list of names"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> tuple[str, ...]:
        items = _list(key, value, "[Ana, Ben]")
        if not items:
            raise HeaderFault(f"'{key}' names no player", key)
        names = tuple(_name(key, item) for item in items)
        for i, name in enumerate(names):
            if name in names[:i]:
                raise HeaderFault(f"'{key}' names {name} twice", key, name)
        return names

    def read(self, text: str) -> tuple[str, ...]:
        return _read_players(text)


class CodeList(_WordList):
    """The species codes in play."""

    kind = "list of codes"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> tuple[str, ...]:
        items = _list(key, value, "[Ca, Dw, Ja, Ma, Oa, Wi]")
        if not items:
            raise HeaderFault(f"'{key}' names no species", key)
        codes: list[str] = []
        for code in items:
            if not isinstance(code, str) or not is_species_code(code):
                raise HeaderFault(
                    f"'{key}': {_show(code)} is not a species code (1 to 3 letters such as Ma){_yaml_word_hint(code)}",
                    key,
                    _as_item(code),
                )
            if code in codes:
                raise HeaderFault(f"'{key}' names {code} twice", key, code)
            codes.append(code)
        return tuple(codes)

    def read(self, text: str) -> tuple[str, ...]:
        return _read_species(text)


class CodeMap(ValueType["dict[str, str]"]):
    """Species codes to their names (any text)."""

    kind = "code → text"
    refers_to = "species"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> dict[str, str]:
        return {
            _among(key, code, among, "species"): _text(key, name) or ""
            for code, name in _mapping(key, value, "{Ca: Cassia}").items()
        }

    def to_data(self, value: dict[str, str]) -> object:
        return dict(value) if value else OMIT

    def write(self, key: str, value: dict[str, str]) -> list[str]:
        return _mapping_lines(key, {k: flow_scalar(v) for k, v in value.items()}) if value else []

    def read(self, text: str) -> dict[str, str]:
        """'{Ca: Cassia, Dw: "Dwarf: tall"}': the names as written."""
        if text[:1] != "{":
            raise NotWritten
        pairs = yamlwords.value_of(text, values_as_text=True)
        if not isinstance(pairs, dict):
            raise NotWritten
        names = {}
        for code, name in pairs.items():
            if not isinstance(code, str) or not is_species_code(code) or not (name is None or isinstance(name, str)):
                raise NotWritten
            names[code] = name or ""
        return names

    def read_block(self, entries: list[tuple[str, str]]) -> dict[str, str]:
        return _entries(entries, read_code, read_species_name)


class PlayerRef(ValueType["str | None"]):
    """One of the players."""

    kind = "a player"
    refers_to = "players"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or value not in among:
            raise HeaderFault(
                f"'{key}' must be one of the players ({', '.join(among)}), found {_show(value)}", key, _as_item(value)
            )
        return value

    def write(self, key: str, value: str | None) -> list[str]:
        return [] if value is None else [f"{key}: {flow_scalar(value)}"]

    def read(self, text: str) -> str:
        return read_name(text)


class CardList(ValueType["tuple[Card, ...] | None"]):
    """Cards in order, written by their codes."""

    kind = "list of cards"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> tuple[Card, ...] | None:
        return None if value is None else _cards(key, value)

    def to_data(self, value: tuple[Card, ...] | None) -> object:
        return OMIT if value is None else [str(c) for c in value]

    def write(self, key: str, value: tuple[Card, ...] | None) -> list[str]:
        return [] if value is None else _flow_items(f"{key}: ", [str(c) for c in value], "  ")

    def read(self, text: str) -> tuple[Card, ...]:
        return read_cards(text)


class PlayerCards(ValueType["dict[str, tuple[Card, ...]]"]):
    """Some of the players' cards, each player's in order; always written as a block."""

    kind = "player → cards"
    refers_to = "players"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> dict[str, tuple[Card, ...]]:
        return {
            _among(key, player, among, "players"): _cards(key, cards if cards is not None else [])
            for player, cards in _mapping(key, value, "{Ana: [Ja2, Oa6]}").items()
        }

    def to_data(self, value: dict[str, tuple[Card, ...]]) -> object:
        return {p: [str(c) for c in cards] for p, cards in value.items()} if value else OMIT

    def write(self, key: str, value: dict[str, tuple[Card, ...]]) -> list[str]:
        if not value:
            return []
        lines = [f"{key}:"]
        for player, cards in value.items():
            lines += _flow_items(f"  {flow_scalar(player)}: ", [str(c) for c in cards], "    ")
        return lines

    def read_block(self, entries: list[tuple[str, str]]) -> dict[str, tuple[Card, ...]]:
        return _entries(entries, read_name, read_cards)


class PositionLine(ValueType["Position | None"]):
    """A position's line (engine/position.py), written as YAML text: the line has ': ' in it, so
    the writer quotes it."""

    kind = "position"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> Position | None:
        if value is None:
            return None
        if not isinstance(value, str):
            raise HeaderFault(
                f"'{key}' must be a position's line in quotes, found {_show(value)}", key, _as_item(value)
            )
        # deferred: a record with no position key never loads engine/position.py (35M instructions
        # of a one-game check's 280M; bench/README.md, "Issue 49, point 3")
        from arbo_notation.engine.position import Position

        try:
            return Position.parse(value)
        except PositionError as error:
            raise HeaderFault(f"'{key}': {error.message}", key) from None

    def to_data(self, value: Position | None) -> object:
        return OMIT if value is None else str(value)

    def write(self, key: str, value: Position | None) -> list[str]:
        return [] if value is None else [f"{key}: {_block_text(str(value))}"]

    def read(self, text: str) -> Position:
        line = _read_text(text) if text[0] not in "[{" else None
        if line is None:
            raise NotWritten
        from arbo_notation.engine.position import Position  # deferred: as in check() above

        try:
            return Position.parse(line)
        except PositionError:
            raise NotWritten from None


class PlayerScores(ValueType["dict[str, int] | None"]):
    """Some of the players' scores, whole numbers of at most MAX_POINTS_DIGITS digits."""

    kind = "player → score"
    refers_to = "players"

    def check(self, key: str, value: object, among: tuple[str, ...]) -> dict[str, int] | None:
        if value is None:
            return None
        scores = {}
        for name, score in _mapping(key, value, "{Ana: 24, Ben: 19}").items():
            player = _among(key, name, among, "players")
            if isinstance(score, bool) or not isinstance(score, int) or score < 0:
                raise HeaderFault(
                    f"'{key}': {player}'s score must be a whole number, found {_show(score)}",
                    key,
                    str(score) if score is not None else None,
                )
            if score > MAX_SCORE:
                raise HeaderFault(
                    f"'{key}': {player}'s score must be at most {MAX_SCORE}, found a number of {len(str(score))} digits",
                    key,
                    player,
                )
            scores[player] = score
        return scores

    def to_data(self, value: dict[str, int] | None) -> object:
        return OMIT if value is None else dict(value)

    def write(self, key: str, value: dict[str, int] | None) -> list[str]:
        return [] if value is None else _mapping_lines(key, {k: str(v) for k, v in value.items()})

    def read(self, text: str) -> dict[str, int]:
        return self.read_block(_flow_pairs(text))

    def read_block(self, entries: list[tuple[str, str]]) -> dict[str, int]:
        return _entries(entries, read_name, read_score)


TEXT = Text()
ISO_DATE = IsoDate()
NAME_LIST = NameList()
CODE_LIST = CodeList()
CODE_MAP = CodeMap()
PLAYER_REF = PlayerRef()
CARD_LIST = CardList()
PLAYER_CARDS = PlayerCards()
POSITION_LINE = PositionLine()
PLAYER_SCORES = PlayerScores()


# ------------------------------------------------------------------------------------------------
# The keys


class HeaderKey(NamedTuple):
    """One key of the header: its name, the type of its value, its meaning and an example (as
    docs/NOTATION.md's table of keys gives them), and whether every header gives it. (A named
    tuple, not a frozen dataclass: made at every start-up, whose dataclass costs some 0.7 ms of a
    check's; bench/README.md, "Issue 49, point 3, fifth branch".)"""

    name: str
    value_type: ValueType[Any]
    meaning: str
    example: str
    required: bool = False

    @property
    def kind(self) -> str:
        return self.value_type.kind


#: The header keys the notation defines, in canonical order (the order the writer writes them).
HEADER_KEY_ROWS: tuple[HeaderKey, ...] = (
    HeaderKey("event", TEXT, "the event", "event: Club night"),
    HeaderKey("site", TEXT, "where the game was played", "site: The Greenhouse"),
    HeaderKey("date", ISO_DATE, "when: `YYYY-MM-DD`, or `YYYY-MM` / `YYYY` when not known exactly", "date: 2026-11-29"),
    HeaderKey("round", TEXT, "round of the event (a number is fine)", "round: 3"),
    HeaderKey("annotator", TEXT, "who wrote the comments", "annotator: Cleo"),
    HeaderKey(
        "players",
        NAME_LIST,
        "the players in seat order; the first is the start player",
        "players: [Ana, Ben]",
        required=True,
    ),
    HeaderKey(
        "species",
        CODE_LIST,
        "species in play, 1 to 3 letters each, all different",
        "species: [Ca, Dw, Ja, Ma, Oa, Wi]",
        required=True,
    ),
    HeaderKey("names", CODE_MAP, "names of the species, when not the usual ones", "names: {Li: Lilac}"),
    HeaderKey("perspective", PLAYER_REF, "whose hand the record follows (for tools)", "perspective: Ana"),
    HeaderKey(
        "deck",
        CARD_LIST,
        "the draw pile after the deal, top card first (an omniscient record)",
        "deck: [Ma3, Oa5, Wi7]",
    ),
    HeaderKey(
        "hands",
        PLAYER_CARDS,
        "the dealt hands, of some or all players",
        "hands: {Ana: [Ja2, Oa6, Ca1, Ca4, Dw2, Wi7, Ma5]}",
    ),
    HeaderKey(
        "discards",
        PLAYER_CARDS,
        "cards face up on a discard pile at setup, bottom first (house variant)",
        "discards: {Ben: [Wi1]}",
    ),
    HeaderKey(
        "position",
        POSITION_LINE,
        "the table the record starts from, in place of a deal (see [Positions](#positions))",
        'position: "Ca Dw Ja Ma Oa Wi | Ana: Ma3@0,0 / Oa5 / Ca1 Ja4 ?5 | Ben: - / - / ?7 | deck 32 | 2. Ben draw1"',
    ),
    HeaderKey(
        "result", PLAYER_SCORES, "the final scores, when known without a result line", "result: {Ana: 24, Ben: 19}"
    ),
)
HEADER_KEYS = tuple(row.name for row in HEADER_KEY_ROWS)
ROW_OF_KEY: dict[str, HeaderKey] = {row.name: row for row in HEADER_KEY_ROWS}
#: The keys whose values are text as written (read so by the careful reader too).
TEXT_KEYS = tuple(row.name for row in HEADER_KEY_ROWS if isinstance(row.value_type, Text))
#: The order keys are checked in, which decides the fault reported first: the required ones
#: (which the others refer to), the text, the rest.
CHECK_ORDER = (
    tuple(row for row in HEADER_KEY_ROWS if row.required)
    + tuple(row for row in HEADER_KEY_ROWS if row.name in TEXT_KEYS)
    + tuple(row for row in HEADER_KEY_ROWS if not (row.required or row.name in TEXT_KEYS))
)
#: The keys whose values JSON carries as they are (the others may be '$date' and such).
PLAIN_DATA_KEYS = frozenset(row.name for row in HEADER_KEY_ROWS if row.value_type.plain_data)


# ------------------------------------------------------------------------------------------------
# The header as a mapping (as YAML or JSON gives it): validated into a Header, and back


def header_from_mapping(data: object, pos: Pos | None = None) -> Header:
    """Validate a header's key/value mapping (as YAML or JSON gives it) and build the Header.

    Raises HeaderFault naming the key at fault. Unknown keys are kept, in order, in ``extra``.
    """
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise HeaderFault(f"the header must be 'key: value' lines such as 'players: [Ana, Ben]', found {_show(data)}")
    for key in data:
        if not isinstance(key, str):
            raise HeaderFault(
                f"header keys are words, found the key {_show(key)}",
                None,
                None if key is None or isinstance(key, bool) else str(key),
            )
        if len(key) > MAX_HEADER_TEXT:
            raise HeaderFault(f"a header key holds {len(key)} characters: at most {MAX_HEADER_TEXT}")
    if "players" not in data:
        raise HeaderFault(
            "the header has no 'players': the list of the players' names in seat order, "
            "start player first, such as 'players: [Ana, Ben]'"
        )
    if "species" not in data:
        raise HeaderFault(
            "the header has no 'species': the list of the species codes in play, "
            "such as 'species: [Ca, Dw, Ja, Ma, Oa, Wi]'"
        )
    fields: dict[str, Any] = {}
    for row in CHECK_ORDER:
        if row.name in data:
            refers_to = row.value_type.refers_to
            among = fields[refers_to] if refers_to is not None else ()
            fields[row.name] = row.value_type.check(row.name, data[row.name], among)
    clash = _clash_with_position(fields)
    if clash is not None:
        raise clash
    fields["extra"] = {k: v for k, v in data.items() if k not in ROW_OF_KEY}
    for key, value in fields["extra"].items():
        _check_extra(key, value)
    return Header(pos=pos, **fields)


#: The keys of a deal, which a position replaces.
_DEAL_KEYS = ("deck", "hands", "discards")


def _clash_with_position(fields: dict[str, Any]) -> HeaderFault | None:
    """The fault of a header whose position disagrees with it: other players or species, a key
    of a deal beside it (the position holds every hand, pile and the deck), or a point in the middle
    of a turn (a record's turns are whole); None when there is none, or no position."""
    position: Position | None = fields.get("position")
    if position is None:
        return None
    if position.players != fields["players"]:
        return HeaderFault(
            f"'position' seats {', '.join(position.players)}; the players are {', '.join(fields['players'])}",
            "position",
        )
    if position.species != fields["species"]:
        return HeaderFault(
            f"'position' has the species {' '.join(position.species)}; the header's are {' '.join(fields['species'])}",
            "position",
        )
    for key in _DEAL_KEYS:
        if fields.get(key) not in (None, {}):  # (no hands, no discards: what a Header holds by default)
            return HeaderFault(
                f"'{key}' gives a deal, but the record starts from its 'position', which holds every hand, "
                f"pile and the deck: leave '{key}' out",
                key,
            )
    if position.due not in ("draw1", "over"):
        return HeaderFault(
            f"'position': a record starts at the start of a turn (draw1) or at the end (over), not at "
            f"{position.due}: its turns are whole",
            "position",
            position.due,
        )
    return None


#: What an unknown key's value may be made of: what the safe loader builds and the writer writes
#: back the same, dates aside (a datetime is a date).
_EXTRA_LEAVES = (str, int, float, bool, type(None), bytes)


def _check_extra(key: str, value: object) -> None:
    """Raise HeaderFault if an unknown key's value could not be written and read back the same."""
    import datetime  # (here: the unknown keys of a header are rare)

    leaves = (*_EXTRA_LEAVES, datetime.date)
    stack: list[tuple[object, int]] = [(value, 2)]  # the header's own mapping is the first level
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[object] = [*item.keys(), *item.values()]
        elif isinstance(item, (list, set)):
            children = list(item)
        elif isinstance(item, tuple):
            raise HeaderFault(
                f"'{key}': YAML's ordered mappings and pairs (!!omap, !!pairs) are not kept in a "
                "header: write a mapping or a list",
                key,
            )
        elif isinstance(item, (str, bytes)) and len(item) > MAX_HEADER_TEXT:
            raise HeaderFault(
                f"'{key}' holds a text of {len(item)} characters: a header's text holds at most {MAX_HEADER_TEXT}", key
            )
        elif isinstance(item, int) and not -MAX_HEADER_NUMBER - 1 <= item <= MAX_HEADER_NUMBER:
            raise HeaderFault(
                f"'{key}' holds a number of {len(str(abs(item)))} digits: a header's numbers fit in "
                "64 bits (at most 19 digits)",
                key,
            )
        elif isinstance(item, leaves):
            continue
        else:
            raise HeaderFault(f"'{key}' holds a {type(item).__name__}, which a header cannot hold", key)
        if depth > HEADER_MAX_DEPTH:
            raise HeaderFault(
                f"'{key}' nests lists and mappings more than {HEADER_MAX_DEPTH} deep (the header counted)", key
            )
        stack.extend((child, depth + 1) for child in children)


def header_to_mapping(header: Header, encode_extra: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """The header as plain data in canonical key order (cards as text), unknown keys last."""
    data: dict[str, Any] = {}
    for row in HEADER_KEY_ROWS:
        value = row.value_type.to_data(getattr(header, row.name))
        if value is not OMIT:
            data[row.name] = value
    for key, value in header.extra.items():
        data[key] = encode_extra(value) if encode_extra else value
    return data


# ------------------------------------------------------------------------------------------------
# The canonical text, written and read back


def check_header(header: Header) -> None:
    """Raise ArboError if a Header built by a program could not be written and read back."""
    try:
        header_from_mapping(header_to_mapping(header))
    except HeaderFault as fault:
        raise ArboError(f"cannot write this header: {fault.message}") from None
    for key in header.extra:
        if key in ROW_OF_KEY:
            raise ArboError(f"cannot write this header: the unknown-key table holds the known key {key!r}")


def header_lines(header: Header) -> list[str]:
    """The YAML lines of a header in canonical form (without the '---' lines)."""
    lines: list[str] = []
    for row in HEADER_KEY_ROWS:
        lines += row.value_type.write(row.name, getattr(header, row.name))
    for key, value in header.extra.items():
        lines += write_extra(key, value)
    return lines


def format_header(header: Header) -> str:
    """The header block, '---' lines included, each line ending in a newline."""
    return "---\n" + "".join(line + "\n" for line in header_lines(header)) + "---\n"


_CLOSING = {"[": "]", "{": "}"}
# The types' readers as the quick reader looks them up, once (bound methods: a header's every
# line looks one up): a key's 'key: value' reader, and, by the line 'key:' that opens a block of
# '  name: value' lines, the key and its block's reader (the types never written so say NotWritten).
_READERS = {row.name: row.value_type.read for row in HEADER_KEY_ROWS}
_BLOCKS = {f"{row.name}:": (row.name, row.value_type.read_block) for row in HEADER_KEY_ROWS}
#: The keys that name players or species, the key they name them of, and how to find the names.
_REFERRING = tuple(
    (row.name, row.value_type.refers_to, row.value_type.names_in)
    for row in HEADER_KEY_ROWS
    if row.value_type.refers_to is not None
)
_BLANK_STARTS = ("", " ")  # how a blank line starts (any other line is a key's)


def _continued(text: str, lines: list[str], i: int, indent: str) -> tuple[str, int]:
    """A flow collection that starts as ``text`` and, wrapped after a ',', goes on over lines
    indented deeper than ``indent``; and the index of the line after it."""
    if not text:  # 'Ana: ' with nothing after it: not the writer's
        raise NotWritten
    close = _CLOSING.get(text[0])
    if close is None or text[-1] == close:  # all on its line, as most values are
        return text, i
    while text[-1] != close:
        if i == len(lines) or text[-1] != "," or not lines[i].startswith(indent) or not lines[i].strip(" "):
            raise NotWritten
        text += " " + lines[i].lstrip(" ")
        i += 1
    return text, i


def _block(lines: list[str], i: int) -> tuple[list[tuple[str, str]], int]:
    """The (name, value) pairs of a key written as a block, as written, from its '  name: value'
    lines from line i (at least one), and the index of the line after them."""
    entries = []
    while i < len(lines) and lines[i][:2] == "  " and lines[i][2:3] not in (" ", ""):
        name, colon, rest = lines[i][2:].partition(": ")
        if not colon:
            raise NotWritten
        text, i = _continued(rest, lines, i + 1, "   ")
        entries.append((name, text))
    if not entries:
        raise NotWritten
    return entries, i


def _extra(key: str, text: str) -> Any:
    """An unknown key's one-line value, as the safe loader reads it."""
    if not _EXTRA_KEY.match(key) or not yamlwords.plain_key(key):
        raise NotWritten
    value = yamlwords.value_of(text)
    if value is yamlwords.NOT_READ:
        raise NotWritten
    return value


def _fields(lines: list[str]) -> dict[str, Any]:
    """The Header's fields, key by key as written (unknown keys in 'extra'); NotWritten for anything else."""
    fields: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line[:1] in _BLANK_STARTS and not line.strip(" "):
            continue
        key, colon, rest = line.partition(": ")
        read = _READERS.get(key)
        value: object
        if read is not None and rest:
            text, i = _continued(rest, lines, i, " ")
            value = read(text)
        elif not colon and line in _BLOCKS:  # 'hands:', then its lines
            key, read_block = _BLOCKS[line]
            entries, i = _block(lines, i)
            value = read_block(entries)
        elif rest and read is None:
            text, i = _continued(rest, lines, i, " ")
            if key in extra:
                raise NotWritten
            extra[key] = _extra(key, text)
            continue
        else:
            raise NotWritten
        if key in fields:
            raise NotWritten
        fields[key] = value
    if extra:
        fields["extra"] = extra
    return fields


def _well_placed(fields: dict[str, Any]) -> bool:
    """Whether the header has its players and species, the keys that name them name its own, and
    its position (if any) agrees with it."""
    if "players" not in fields or "species" not in fields or _clash_with_position(fields) is not None:
        return False
    for key, refers_to, names_in in _REFERRING:
        value = fields.get(key)
        if value is not None and not all(name in fields[refers_to] for name in names_in(value)):
            return False
    return True


def read_written_header(text: str, pos: Pos) -> Header | None:
    """The Header of a header's YAML as the writer writes it (``pos``: its opening '---'); None
    when the text is in any other form or has any fault."""
    if "\t" in text or "\r" in text:
        return None
    try:
        fields = _fields(text.split("\n"))
    except NotWritten:
        return None
    if not _well_placed(fields) or not _within_bounds(fields):
        return None
    return Header(pos=pos, **fields)


#: The keys whose values _within_bounds holds to bounds: the texts, the species' names, unknown keys.
_BOUNDED_KEYS = frozenset((*TEXT_KEYS, "names", "extra"))


def _within_bounds(fields: dict[str, Any]) -> bool:
    """Whether the header's texts and numbers are within the bounds its check holds them to (the
    careful reader reports the one that is not)."""
    if fields.keys().isdisjoint(_BOUNDED_KEYS):  # (one call: most headers give none of them)
        return True
    texts = [fields.get(key) for key in TEXT_KEYS]
    texts += fields.get("names", {}).values()
    if any(text is not None and len(text) > MAX_HEADER_TEXT for text in texts):
        return False
    extra = fields.get("extra", {})
    try:
        for key, value in extra.items():
            _check_extra(key, value)
    except HeaderFault:
        return False
    return all(len(key) <= MAX_HEADER_TEXT for key in extra)
