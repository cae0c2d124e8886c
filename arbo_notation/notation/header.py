"""A game's YAML header: reading it into a typed Header (safe YAML loading only) and writing it back.

The reader and the writer stand side by side so that ``read_header(format_header(h)) == h``.
``header_from_mapping`` is the one validator: the .arb reader and the JSON/YAML converters use it.
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
from typing import Any, Callable, Iterable

import yaml

from ..engine.cards import CARD_RE, Card, is_species_code
from ..errors import ArboError, HeaderFault, NotationError
from ..lexicon import NAME_CHAR, NAME_SHAPE
from .record import HEADER_KEYS, RESERVED_NAMES, Header, Pos
from .safeyaml import SAFE_LOADER, YamlFault, load_yaml, refused_character

PLAYER_NAME_RE = re.compile(rf"{NAME_SHAPE}\Z")
ISO_DATE_RE = re.compile(r"[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?\Z")
LINE_WIDTH = 80

_TEXT_KEYS = ("event", "site", "round", "annotator")
_KNOWN_KEYS = frozenset(HEADER_KEYS)
_PLAYER_MAPS = ("hands", "discards")
#: How deep a header's lists and mappings may nest, the header's own mapping counted: far more
#: than any header needs, and shallow enough for every writer (YAML, JSON) to write it back.
HEADER_MAX_DEPTH = 32


def safe_load(text: str) -> Any:
    """yaml.safe_load, with the C loader when available (for text the writer made itself)."""
    return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - a SafeLoader


def is_text_path(path: tuple[str, ...]) -> bool:
    """Whether a header value is one of the text fields, read as written ('round: 010' is '010').

    The top-level text keys and the species' names; YAML 1.1 would read 010 as 8, 12:30:00 as
    45000 and 3.10 as 3.1.
    """
    return (len(path) == 1 and path[0] in _TEXT_KEYS) or (len(path) == 2 and path[0] == "names")


def load_header_yaml(text: str, loader: type = SAFE_LOADER) -> Any:
    """The data of a header's YAML: safe types, no anchors or aliases, at most HEADER_MAX_DEPTH
    deep, text fields as written. yaml.YAMLError or YamlFault (located) when it cannot be read."""
    return load_yaml(text, what="a header", max_depth=HEADER_MAX_DEPTH, text_at=is_text_path, loader=loader)


# A header as the writer writes it is read here without PyYAML, some ten times faster: top-level
# 'key: value' lines, where a value is a plain scalar (text, a small int, a date, true/false or
# null), a quoted string, or a flow list or mapping of such scalars (wrapped onto lines indented
# deeper), and one level of block mapping ('hands:' then '  Ana: [Ma3, Oa5]' lines). Anything
# else (comments, anchors, tags, block lists, nesting, multi-line scalars, floats, tabs, ...)
# makes fast_load return None and the caller use load_header_yaml. Every line must match one of
# the regular expressions below in full, so nothing is skipped unread; the result is the same as
# load_header_yaml's (tests/test_notation_header.py checks it with hypothesis against both
# loaders): plain scalars are resolved with PyYAML's own table of implicit types, except those of
# the text fields (is_text_path), kept as written.
_IMPLICIT = getattr(yaml.SafeLoader, "yaml_implicit_resolvers", {})
_BOOLS = yaml.constructor.SafeConstructor.bool_values
_ESCAPES = yaml.scanner.Scanner.ESCAPE_REPLACEMENTS
# Printable characters other than space, without YAML's line breaks (\x85, \u2028, \u2029):
# written as what they are not, since a class of the wide ranges they are takes the regular
# expression compiler twelve times as long (a tenth of a second at every start, over all patterns).
_NONSPACE = r"[^\x00-\x20\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]"
_QUOTED_CHAR = rf"""(?!["'\\])(?: |{_NONSPACE})"""  # a quoted string stays on one line
_ESCAPED = r"""\\(?:[0abtnvfre"\\NL_P]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})"""
_DOUBLE = f"\"(?:{_QUOTED_CHAR}|'|{_ESCAPED})*\""
_SINGLE = rf"""'(?:{_QUOTED_CHAR}|["\\]|'')*'"""
_FLOW_PLAIN = r"[A-Za-z0-9_][A-Za-z0-9_ .'/()+-]*"  # as the writer's flow_scalar: no ',[]{}:#'
# Atomic, as YAML's scanner takes a scalar whole (and so failing matches do not backtrack for ages).
_FLOW_ITEM = f"(?>{_DOUBLE}|{_SINGLE}|{_FLOW_PLAIN})"
_FLOW_PAIR = f"{_FLOW_ITEM} *: +{_FLOW_ITEM}"
_SEP = "[ \n]*,[ \n]*"  # continuation lines are joined with '\n', their indentation dropped
_FLOW_LIST = re.compile(rf"\[[ \n]*(?:{_FLOW_ITEM}(?:{_SEP}{_FLOW_ITEM})*[ \n]*)?\]\Z")
_FLOW_MAP = re.compile(rf"\{{[ \n]*(?:{_FLOW_PAIR}(?:{_SEP}{_FLOW_PAIR})*[ \n]*)?\}}\Z")
_FLOW_ITEMS = re.compile(_FLOW_ITEM)
_FLOW_PAIRS = re.compile(f"({_FLOW_ITEM}) *: +({_FLOW_ITEM})")
# A one-line plain scalar in block context, as PyYAML's scanner takes it: no indicator first
# (but '-', '?' or ':' before a non-space), no ': ' or ':' last, no ' #' (a comment).
_BLOCK_PLAIN = re.compile(rf"""(?:(?![-?:,\[\]{{}}#&*!|>'"%@`]){_NONSPACE}|[-?:](?={_NONSPACE}))"""
                          rf"(?:(?!:){_NONSPACE}|:(?={_NONSPACE})| +(?=[^ #]))*\Z")
_QUOTED = re.compile(rf"(?:{_DOUBLE}|{_SINGLE})\Z")
_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?: |\Z)")  # the value: the rest of the line
_ENTRY_KEY = re.compile(rf"( *)({_DOUBLE}|{_SINGLE}|[A-Za-z_]{NAME_CHAR}*):(?: |\Z)")
_ESCAPE = re.compile(r"\\(x..|u....|U........|.)")
_FAST_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")
_FAST_INT = re.compile(r"(?:0|[1-9][0-9]{0,3999})\Z")  # Python refuses more than 4300 digits
_NO = object()  # what the fast reader cannot read
_MAX_KEY = 1000  # PyYAML looks at most 1024 characters back for a key's ':', so longer keys are errors
_CLOSING = {"[": "]", "{": "}"}


def _implicit_tag(word: str) -> str | None:
    """The type YAML gives this plain scalar (the first resolver that matches, as PyYAML picks); None for text."""
    for tag, regexp in _IMPLICIT.get(word[:1], ()):
        if regexp.match(word):
            return tag
    return None


_PLAINS: dict[str, Any] = {}


def _plain(word: str) -> Any:
    """A plain scalar as YAML resolves it (text, small int, date, bool, null); _NO for anything else."""
    value = _PLAINS.get(word, _NO)
    if value is not _NO:
        return value
    tag = _implicit_tag(word)
    if tag is None:
        value = word
    elif tag == "tag:yaml.org,2002:int" and _FAST_INT.match(word):
        value = int(word)
    elif tag == "tag:yaml.org,2002:timestamp" and (m := _FAST_DATE.match(word)):
        try:
            value = _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return _NO  # safe_load raises: let it say so
    elif tag == "tag:yaml.org,2002:bool":
        value = _BOOLS[word.lower()]
    elif tag == "tag:yaml.org,2002:null":
        value = None
    else:
        return _NO
    if len(_PLAINS) < 10000:  # card codes, names, numbers: a few hundred in practice
        _PLAINS[word] = value
    return value


def _unescape(m: re.Match) -> str:
    """The character a double-quoted string's escape (\\n, \\x41, \\u00e9, ...) stands for."""
    code = m.group(1)
    if len(code) == 1:
        return _ESCAPES[code]
    point = int(code[1:], 16)
    if point > 0x10FFFF or 0xD800 <= point <= 0xDFFF:  # libyaml refuses these
        raise ValueError(code)
    return chr(point)


def _as_text(word: str) -> str | None:
    """A plain scalar of a text field: the word as written, or None for YAML's nulls (~, null, empty)."""
    return None if _implicit_tag(word) == "tag:yaml.org,2002:null" else word


def _scalar(token: str, as_text: bool = False) -> Any:
    """A flow item or a quoted value (already matched by a regular expression above), or _NO."""
    if token[0] == '"':
        body = token[1:-1]
        if "\\" not in body:
            return body
        try:
            return _ESCAPE.sub(_unescape, body)
        except ValueError:
            return _NO
    if token[0] == "'":
        return token[1:-1].replace("''", "'")
    return _as_text(token.rstrip(" ")) if as_text else _plain(token.rstrip(" "))


_FLOW_WORDS: dict[str, Any] = {}  # plain flow items read before (card codes, names): word -> value


def _flow_list(text: str) -> Any:
    """The list '[a, b, ...]' (possibly over several lines), or _NO."""
    # The common case in one split and look-ups: a word met before is a whole _FLOW_PLAIN item
    # with no ',' or bracket in it, so such a list is one _FLOW_LIST would match.
    if text.endswith("]"):
        words = text[1:-1].replace(",\n", ", ").split(", ")
        values = list(map(_FLOW_WORDS.get, words))
        if None not in values:
            return values
    if not _FLOW_LIST.match(text):
        return _NO
    values = []
    for token in _FLOW_ITEMS.findall(text):
        value = _scalar(token)
        if value is _NO:
            return _NO
        if token[0] not in "\"'" and len(_FLOW_WORDS) < 10000:
            _FLOW_WORDS[token.rstrip(" ")] = value
        values.append(value)
    return values


def _flow_map(text: str, as_text: bool = False) -> Any:
    """The mapping '{a: b, ...}' (possibly over several lines), or _NO; its values as text if ``as_text``."""
    if not _FLOW_MAP.match(text):
        return _NO
    out = {}
    for key_token, value_token in _FLOW_PAIRS.findall(text):
        key = _scalar(key_token)
        value = _scalar(value_token, as_text and isinstance(key, str))  # as the careful reader's paths
        if key is _NO or value is _NO or len(key_token) > _MAX_KEY:
            return _NO
        out[key] = value  # a repeated key: the last value, at the first place, as PyYAML does
    return out


def _value(text: str, as_text: bool = False, values_as_text: bool = False) -> Any:
    """The value after 'key: ' (flow collections possibly over several lines), or _NO.

    A plain scalar stays text if ``as_text``; the values of a flow mapping if ``values_as_text``.
    """
    first = text[0]
    if first == "[":
        return _flow_list(text)
    if first == "{":
        return _flow_map(text, values_as_text)
    if first in "\"'":
        return _scalar(text) if _QUOTED.match(text) else _NO
    if not _BLOCK_PLAIN.match(text):
        return _NO
    return _as_text(text) if as_text else _plain(text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _read_value(text: str, lines: list[str], i: int, indent: int, as_text: bool = False,
                values_as_text: bool = False) -> tuple[Any, int]:
    """The value that starts as ``text`` on line i - 1, and the index of the line after it.

    A flow collection left open goes on over the following lines indented deeper than ``indent``.
    """
    close = _CLOSING.get(text[0])
    while close is not None and not text.endswith(close):
        if i == len(lines) or _indent(lines[i]) <= indent or not lines[i].strip(" "):
            return _NO, i
        text += "\n" + lines[i].strip(" ")
        i += 1
    return _value(text, as_text, values_as_text), i


def _read_block(lines: list[str], i: int, values_as_text: bool = False) -> tuple[Any, int]:
    """The value of a top-level 'key:' with nothing after it: null, or a mapping on the indented lines below."""
    while i < len(lines) and not lines[i].strip(" "):
        i += 1
    if i == len(lines) or lines[i][0] != " ":
        return None, i
    indent = _indent(lines[i])
    mapping: dict[Any, Any] = {}
    while i < len(lines):
        line = lines[i]
        if not line.strip(" "):
            i += 1
            continue
        if line[0] != " ":
            break
        m = _ENTRY_KEY.match(line)
        if m is None or len(m.group(1)) != indent:
            return _NO, i
        key = _scalar(m.group(2))
        if key is _NO or key in mapping or len(m.group(2)) > _MAX_KEY:
            return _NO, i
        rest = line[m.end():].strip(" ")
        if rest:
            value, i = _read_value(rest, lines, i + 1, indent, values_as_text and isinstance(key, str))
        else:  # 'key:' alone is null, unless more deeply indented lines follow (nesting: not here)
            value, i = None, i + 1
            while i < len(lines) and not lines[i].strip(" "):
                i += 1
            if i < len(lines) and _indent(lines[i]) > indent:
                return _NO, i
        if value is _NO:
            return _NO, i
        mapping[key] = value
    return mapping, i


def fast_load(text: str) -> dict[str, Any] | None:
    """The mapping of a header as the writer writes it, as load_header_yaml gives it; None when it is not one."""
    if "\t" in text or "\r" in text:
        return None
    data: dict[str, Any] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip(" "):
            i += 1
            continue
        m = _TOP_KEY.match(line)
        if m is None:
            return None
        key, rest = m.group(1), line[m.end():].strip(" ")
        if key in data or _plain(key) != key or len(key) > _MAX_KEY:
            return None  # a repeated key is an error read_header reports; 'yes:' is the key True
        if rest:
            value, i = _read_value(rest, lines, i + 1, 0, key in _TEXT_KEYS, key == "names")
        else:
            value, i = _read_block(lines, i + 1, key == "names")
        if value is _NO:
            return None
        data[key] = value
    return data or None


def is_player_name(name: object) -> bool:
    """A valid player's name: a letter, then letters, digits, _ ' or -, and not a reserved word."""
    return isinstance(name, str) and bool(PLAYER_NAME_RE.match(name)) and name not in RESERVED_NAMES


# ------------------------------------------------------------------------------------------------
# Reading


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


def _text(key: str, value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise HeaderFault(f"'{key}' must be text, found {_show(value)}{_yaml_word_hint(value)}", key)
    return str(value)


def _date(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        raise HeaderFault(f"'date' must be an ISO date such as 2026-11-29, found a date and time {value.isoformat()!r}", "date")
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999:
        return str(value)
    if isinstance(value, str) and _is_iso_date(value):
        return value
    raise HeaderFault(f"'date' must be an ISO date such as 2026-11-29, found {_show(value)}", "date", str(value))


def _is_iso_date(text: str) -> bool:
    """YYYY (1000 to 9999, as a year written bare), YYYY-MM, or YYYY-MM-DD of a real day: what
    the writer writes bare and reads back the same ('2024-02-30' is no date: YAML cannot build it)."""
    if not ISO_DATE_RE.match(text):
        return False
    parts = [int(part) for part in text.split("-")]
    if len(parts) == 1:
        return 1000 <= parts[0]
    if len(parts) == 2:
        return 1 <= parts[1] <= 12
    try:
        _dt.date(*parts)
    except ValueError:
        return False
    return True


def _list(key: str, value: object, example: str) -> list:
    if not isinstance(value, list):
        raise HeaderFault(f"'{key}' must be a list such as {example}, found {_show(value)}", key,
                          value if isinstance(value, str) else None)
    return value


def _name(key: str, value: object, what: str = "a player's name") -> str:
    if isinstance(value, str) and value in RESERVED_NAMES:
        raise HeaderFault(f"'{key}': {value!r} cannot be a player's name (the notation reserves d, reveal and result)", key, value)
    if not is_player_name(value):
        extra = " (a letter, then letters, digits, _ ' or -)" if isinstance(value, str) else _yaml_word_hint(value)
        raise HeaderFault(f"'{key}': {_show(value)} is not {what}{extra}", key,
                          value if isinstance(value, str) else None)
    return value  # type: ignore[return-value]


_CARD_TEXTS: dict[str, Card] = {}  # 'Ma3' -> Card('Ma', 3): a header's ~80 cards in look-ups, not regex matches


def _card(key: str, item: object) -> Card:
    if not isinstance(item, str) or not CARD_RE.match(item):
        raise HeaderFault(f"'{key}': expected a card such as Ma3, found {_show(item)}", key,
                          item if isinstance(item, (str, int)) else None)
    card = Card(item[:-1], int(item[-1]))
    if len(_CARD_TEXTS) < 10000:
        _CARD_TEXTS[item] = card
    return card


def _cards(key: str, value: object) -> tuple[Card, ...]:
    items = _list(key, value, "[Ma3, Oa5]")
    try:
        cards = list(map(_CARD_TEXTS.get, items))
    except TypeError:  # an unhashable item (a list, a mapping): _card says what is wrong
        cards = [None]
    if None in cards:
        cards = [_card(key, item) for item in items]
    return tuple(cards)


def _mapping(key: str, value: object, example: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise HeaderFault(f"'{key}' must be a mapping such as {example}, found {_show(value)}", key,
                          value if isinstance(value, str) else None)
    return value


def _player_key(key: str, name: object, players: tuple[str, ...]) -> str:
    if name not in players:
        raise HeaderFault(f"'{key}': {_show(name)} is not one of the players ({', '.join(players)})", key,
                          name if isinstance(name, str) else None)
    return name  # type: ignore[return-value]


def header_from_mapping(data: object, pos: Pos | None = None) -> Header:
    """Validate a header's key/value mapping (as YAML or JSON gives it) and build the Header.

    Raises HeaderFault naming the key at fault. Unknown keys are kept, in order, in ``extra``.
    """
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise HeaderFault("the header must be 'key: value' lines such as 'players: [Ana, Ben]', "
                          f"found {_show(data)}")
    for key in data:
        if not isinstance(key, str):
            raise HeaderFault(f"header keys are words, found the key {_show(key)}", None,
                              None if key is None or isinstance(key, bool) else str(key))
    if "players" not in data:
        raise HeaderFault("the header has no 'players': the list of the players' names in seat order, "
                          "start player first, such as 'players: [Ana, Ben]'")
    if "species" not in data:
        raise HeaderFault("the header has no 'species': the list of the species codes in play, "
                          "such as 'species: [Ca, Dw, Ja, Ma, Oa, Wi]'")

    players_list = _list("players", data["players"], "[Ana, Ben]")
    if not players_list:
        raise HeaderFault("'players' names no player", "players")
    players = tuple(_name("players", p) for p in players_list)
    for i, p in enumerate(players):
        if p in players[:i]:
            raise HeaderFault(f"'players' names {p} twice", "players", p)

    species_list = _list("species", data["species"], "[Ca, Dw, Ja, Ma, Oa, Wi]")
    if not species_list:
        raise HeaderFault("'species' names no species", "species")
    species: list[str] = []
    for code in species_list:
        if not isinstance(code, str) or not is_species_code(code):
            raise HeaderFault(f"'species': {_show(code)} is not a species code (1 to 3 letters such as Ma)"
                              f"{_yaml_word_hint(code)}", "species", code if isinstance(code, str) else None)
        if code in species:
            raise HeaderFault(f"'species' names {code} twice", "species", code)
        species.append(code)

    fields: dict[str, Any] = {"players": players, "species": tuple(species)}
    for key in _TEXT_KEYS:
        if key in data:
            fields[key] = _text(key, data[key])
    if "date" in data:
        fields["date"] = _date(data["date"])
    if "names" in data:
        names = {}
        for code, name in _mapping("names", data["names"], "{Ca: Cassia}").items():
            if code not in species:
                raise HeaderFault(f"'names': {_show(code)} is not one of the species ({', '.join(species)})", "names",
                                  code if isinstance(code, str) else None)
            names[code] = _text("names", name) or ""
        fields["names"] = names
    if data.get("perspective") is not None:
        perspective = data["perspective"]
        if perspective not in players:
            raise HeaderFault(f"'perspective' must be one of the players ({', '.join(players)}), found {_show(perspective)}",
                              "perspective", perspective if isinstance(perspective, str) else None)
        fields["perspective"] = perspective
    if data.get("deck") is not None:
        fields["deck"] = _cards("deck", data["deck"])
    for key in _PLAYER_MAPS:
        if key in data:
            mapping = _mapping(key, data[key], "{Ana: [Ja2, Oa6]}")
            fields[key] = {_player_key(key, k, players): _cards(key, v if v is not None else [])
                           for k, v in mapping.items()}
    if data.get("result") is not None:
        scores = {}
        for name, score in _mapping("result", data["result"], "{Ana: 24, Ben: 19}").items():
            _player_key("result", name, players)
            if isinstance(score, bool) or not isinstance(score, int) or score < 0:
                raise HeaderFault(f"'result': {name}'s score must be a whole number, found {_show(score)}", "result",
                                  str(score) if score is not None else None)
            scores[name] = score
        fields["result"] = scores
    fields["extra"] = {k: v for k, v in data.items() if k not in _KNOWN_KEYS}
    for key, value in fields["extra"].items():
        _check_extra(key, value)
    return Header(pos=pos, **fields)


#: What an unknown key's value may be made of: what the safe loader builds and the writer writes
#: back the same (a datetime is a date).
_EXTRA_LEAVES = (str, int, float, bool, type(None), _dt.date, bytes)


def _check_extra(key: str, value: object) -> None:
    """Raise HeaderFault if an unknown key's value could not be written and read back the same."""
    stack = [(value, 2)]  # the header's own mapping is the first level
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list = [*item.keys(), *item.values()]
        elif isinstance(item, (list, set)):
            children = list(item)
        elif isinstance(item, tuple):
            raise HeaderFault(f"'{key}': YAML's ordered mappings and pairs (!!omap, !!pairs) are not kept in a "
                              "header: write a mapping or a list", key)
        elif isinstance(item, _EXTRA_LEAVES):
            continue
        else:
            raise HeaderFault(f"'{key}' holds a {type(item).__name__}, which a header cannot hold", key)
        if depth > HEADER_MAX_DEPTH:
            raise HeaderFault(f"'{key}' nests lists and mappings more than {HEADER_MAX_DEPTH} deep "
                              "(the header counted)", key)
        stack.extend((child, depth + 1) for child in children)


_TOP_KEY_RE = re.compile(r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"\-?:,\[\]{}&*!|>%@`][^#\n]*?|-[^\s#\n][^#\n]*?))[ \t]*:(?=[ \t]|$)""")


def _key_lines(lines: list[str]) -> list[tuple[str, int]]:
    """Top-level keys of a YAML mapping and the 0-based line where each starts (best effort)."""
    found = []
    for i, line in enumerate(lines):
        m = _TOP_KEY_RE.match(line)
        if m:
            key = m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
            found.append((key, i))
    return found


def _locate(lines: list[str], key: str | None, item: str | None) -> tuple[int, int]:
    """0-based line and 1-based column of a key (and of an offending item within it), best effort."""
    keys = _key_lines(lines)
    start, stop = 0, len(lines)
    if key is not None:
        for i, (name, line) in enumerate(keys):
            if name == key:
                start = line
                stop = keys[i + 1][1] if i + 1 < len(keys) else len(lines)
                break
        else:
            return 0, 1
    if item:
        word = re.compile(rf"(?<!{NAME_CHAR})" + re.escape(item) + rf"(?!{NAME_CHAR})"
                          r"|(?<=')" + re.escape(item) + r"(?=')|(?<=\")" + re.escape(item) + r"(?=\")")
        for n in range(start, stop):
            text = lines[n]
            begin = text.index(":") + 1 if n == start and key is not None and ":" in text else 0
            m = word.search(text, begin)
            if m:
                return n, m.start() + 1
    return start, 1


def read_header(yaml_text: str, *, file: str = "<string>", line: int = 2, header_line: int | None = None) -> Header:
    """Read the YAML between a header's '---' lines; ``line`` is the file line of its first YAML line.

    Raises NotationError located at the offending key (or item) when the header is not valid.
    """
    opening = header_line if header_line is not None else line - 1
    lines = yaml_text.split("\n")

    def error(message: str, at: int | None = None, column: int = 1) -> NotationError:
        if at is None:
            return NotationError(message, file=file, line=opening, column=1, source_line="---")
        return NotationError(message, file=file, line=line + at, column=column,
                             source_line=lines[at] if 0 <= at < len(lines) else None)

    data = fast_load(yaml_text)
    if data is not None:
        try:
            return header_from_mapping(data, Pos(opening, 1))
        except HeaderFault:
            pass  # the careful path below locates the fault
    try:
        data = load_header_yaml(yaml_text)
    except YamlFault as fault:
        at = fault.line if fault.line is not None and fault.line < len(lines) else None
        raise error(fault.message, at, (fault.column or 0) + 1) from None
    except yaml.reader.ReaderError as exc:
        at_char = refused_character(yaml_text)
        if at_char is None:
            raise error(f"the header is not valid YAML: {str(exc).splitlines()[0]}") from None
        at = yaml_text.count("\n", 0, at_char)
        column = at_char - (yaml_text.rfind("\n", 0, at_char) + 1) + 1
        raise error(f"the header is not valid YAML: the character U+{ord(yaml_text[at_char]):04X} is not allowed",
                    at, column) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
        context = getattr(exc, "context", None)
        opened = getattr(exc, "context_mark", None)
        if context and opened is not None and (mark is None or opened.line != mark.line):
            context += f" that opens at line {line + opened.line} column {opened.column + 1}"
        message = f"the header is not valid YAML: {problem}" + (f" ({context})" if context else "")
        if mark is not None:
            at = min(mark.line, max(len(lines) - 1, 0))
            return_line = lines[at] if at < len(lines) else ""
            column = min(mark.column, len(return_line)) + 1
            raise error(message, at, column) from None
        raise error(message) from None

    keys = [k for k, _ in _key_lines(lines)]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            at = [n for k, n in _key_lines(lines) if k == key][1]
            raise error(f"the header gives '{key}' twice", at)
    try:
        return header_from_mapping(data, Pos(opening, 1))
    except HeaderFault as fault:
        if fault.key is None and fault.item is None:
            raise error(fault.message) from None
        at, column = _locate(lines, fault.key, fault.item)
        raise error(fault.message, at, column) from None


# ------------------------------------------------------------------------------------------------
# Writing


def _dump_scalar(value: object) -> str:
    """A scalar as YAML writes it in double quotes (every character representable)."""
    text = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=float("inf"))
    return text.rstrip("\n").removesuffix("\n...").rstrip("\n")


_PLAIN_CANDIDATE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ .'/()+-]*\Z")


@functools.lru_cache(maxsize=4096)
def flow_scalar(text: str) -> str:
    """A string written so YAML reads it back in a flow list or mapping: plain when safe, else quoted."""
    if _PLAIN_CANDIDATE.match(text) and not text.endswith(" "):
        try:
            if safe_load(f"[{text}]") == [text]:
                return text
        except Exception:  # noqa: BLE001 - any word YAML cannot read back ('0x_': ValueError) is quoted
            pass
    return _dump_scalar(text)


@functools.lru_cache(maxsize=1024)
def _block_text(text: str) -> str:
    """A text value (event, site, round, ...) for 'key: value': plain when YAML reads it back as the same text."""
    if text and "\n" not in text and text == text.strip():
        try:
            loaded = safe_load(f"k: {text}")
            if isinstance(loaded, dict) and list(loaded) == ["k"]:
                value = loaded["k"]
                if isinstance(value, str) and value == text:
                    return text
                if isinstance(value, (int, float)) and not isinstance(value, bool) and str(value) == text:
                    return text
        except Exception:  # noqa: BLE001 - any text YAML cannot read back ('!!int x': ValueError) is quoted
            pass
    return _dump_scalar(text)


def _flow_items(prefix: str, items: list[str], indent: str, close: str = "]", open_: str = "[") -> list[str]:
    """A flow collection wrapped at LINE_WIDTH columns; continuation lines start with ``indent``."""
    if not items:
        return [f"{prefix}{open_}{close}"]
    lines: list[str] = []
    current = prefix + open_
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else close)
        if current.endswith(open_) and current == prefix + open_:
            current += piece
        elif len(current) + 1 + len(piece) <= LINE_WIDTH:
            current += " " + piece
        else:
            lines.append(current)
            current = indent + piece
    lines.append(current)
    return lines


def _cards_line(prefix: str, cards: Iterable[Card], indent: str) -> list[str]:
    return _flow_items(prefix, [str(c) for c in cards], indent)


def _mapping_lines(key: str, mapping: dict[str, str]) -> list[str]:
    items = [f"{flow_scalar(k)}: {v}" for k, v in mapping.items()]
    line = f"{key}: {{{', '.join(items)}}}"
    if not items:
        return [f"{key}: {{}}"]
    if len(line) <= LINE_WIDTH:
        return [line]
    return [f"{key}:"] + [f"  {item}" for item in items]


class _PlainDumper(yaml.SafeDumper):
    """The safe dumper without anchors and aliases: a value met twice is written twice, so the
    canonical text does not depend on whether two equal values were one object."""

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def represent_sorted_set(self, data: set) -> yaml.Node:
        """A set in a fixed order: as Python keeps it, the order of its text changes with the hash seed."""
        ordered = sorted(data, key=lambda item: (type(item).__name__, repr(item)))
        return self.represent_mapping("tag:yaml.org,2002:set", dict.fromkeys(ordered))


_PlainDumper.add_representer(set, _PlainDumper.represent_sorted_set)


def _extra_lines(key: str, value: Any) -> list[str]:
    try:
        nested = isinstance(value, (dict, list, tuple, set, frozenset))  # leaf lists in flow style
        text = yaml.dump({key: value}, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=None if nested else False, width=LINE_WIDTH - 4)
        if re.search(r"^(?:---|\.\.\.)(?:[ \t]|$)", text, re.M):
            raise ValueError
    except yaml.YAMLError as exc:
        raise ArboError(f"cannot write the header key {key!r}: {exc}") from None
    except ValueError:
        text = yaml.dump({key: value}, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=True, default_style='"', width=float("inf"))
    return text.rstrip("\n").split("\n")


def check_header(header: Header) -> None:
    """Raise ArboError if a Header built by a program could not be written and read back."""
    try:
        header_from_mapping(header_to_mapping(header))
    except HeaderFault as fault:
        raise ArboError(f"cannot write this header: {fault.message}") from None
    for key in header.extra:
        if key in HEADER_KEYS:
            raise ArboError(f"cannot write this header: the unknown-key table holds the known key {key!r}")


def header_lines(header: Header) -> list[str]:
    """The YAML lines of a header in canonical form (without the '---' lines)."""
    lines: list[str] = []
    for key in ("event", "site", "date", "round", "annotator"):
        value = getattr(header, key)
        if value is not None:
            lines.append(f"{key}: {_block_text(value) if key != 'date' else _date_text(value)}")
    lines += _flow_items("players: ", [flow_scalar(p) for p in header.players], "  ")
    lines += _flow_items("species: ", [flow_scalar(s) for s in header.species], "  ")
    if header.names:
        lines += _mapping_lines("names", {k: flow_scalar(v) for k, v in header.names.items()})
    if header.perspective is not None:
        lines.append(f"perspective: {flow_scalar(header.perspective)}")
    if header.deck is not None:
        lines += _cards_line("deck: ", header.deck, "  ")
    for key in _PLAYER_MAPS:
        mapping: dict[str, tuple[Card, ...]] = getattr(header, key)
        if mapping:
            lines.append(f"{key}:")
            for player, cards in mapping.items():
                lines += _cards_line(f"  {flow_scalar(player)}: ", cards, "    ")
    if header.result is not None:
        lines += _mapping_lines("result", {k: str(v) for k, v in header.result.items()})
    for key, value in header.extra.items():
        lines += _extra_lines(key, value)
    return lines


def _date_text(value: str) -> str:
    return value if ISO_DATE_RE.match(value) else _block_text(value)


def format_header(header: Header) -> str:
    """The header block, '---' lines included, each line ending in a newline."""
    return "---\n" + "".join(line + "\n" for line in header_lines(header)) + "---\n"


def header_to_mapping(header: Header, encode_extra: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """The header as plain data in canonical key order (cards as text), unknown keys last."""
    data: dict[str, Any] = {}
    for key in HEADER_KEYS:
        value = getattr(header, key)
        if key in ("players", "species"):
            data[key] = list(value)
        elif key == "deck":
            if value is not None:
                data[key] = [str(c) for c in value]
        elif key in _PLAYER_MAPS:
            if value:
                data[key] = {p: [str(c) for c in cards] for p, cards in value.items()}
        elif key in ("names", "result"):
            if value:
                data[key] = dict(value)
            elif key == "result" and value is not None:
                data[key] = {}
        elif value is not None:
            data[key] = value
    for key, value in header.extra.items():
        data[key] = encode_extra(value) if encode_extra else value
    return data
