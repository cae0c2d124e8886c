"""A game's YAML header read into a typed Header: the reader's entry point (read_header), the one
validator (header_from_mapping, which the .arb reader and the JSON/YAML converters use, with its
inverse header_to_mapping), and the location of a fault at its key or item.

A header as the writer writes it is read by headerfast.py; any other goes through PyYAML's safe
loader (safeyaml.py), which is imported only then: checking a file of written headers loads no
YAML library. The writer, headerwriter.py, stands beside them: ``read_header(format_header(h)) == h``.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any, Callable

from ..engine.cards import CARD_RE, Card, is_species_code
from ..errors import HeaderFault, NotationError
from ..lexicon import NAME_CHAR, NAME_SHAPE
from .headerfast import TEXT_KEYS, fast_load
from .headerwritten import read_written_header
from .record import HEADER_KEYS, RESERVED_NAMES, Header, Pos

PLAYER_NAME_RE = re.compile(rf"{NAME_SHAPE}\Z")
ISO_DATE_RE = re.compile(r"[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?\Z")

_KNOWN_KEYS = frozenset(HEADER_KEYS)
#: The keys that map players to cards.
PLAYER_MAPS = ("hands", "discards")
#: How deep a header's lists and mappings may nest, the header's own mapping counted: far more
#: than any header needs, and shallow enough for every writer (YAML, JSON) to write it back.
HEADER_MAX_DEPTH = 32


def is_text_path(path: tuple[str, ...]) -> bool:
    """Whether a header value is one of the text fields, read as written ('round: 010' is '010').

    The top-level text keys and the species' names; YAML 1.1 would read 010 as 8, 12:30:00 as
    45000 and 3.10 as 3.1.
    """
    return (len(path) == 1 and path[0] in TEXT_KEYS) or (len(path) == 2 and path[0] == "names")


def load_header_yaml(text: str, loader: type | None = None) -> Any:
    """The data of a header's YAML: safe types, no anchors or aliases, at most HEADER_MAX_DEPTH
    deep, text fields as written. yaml.YAMLError or YamlFault (located) when it cannot be read.
    ``loader``: a PyYAML safe loader class, by default safeyaml.SAFE_LOADER (the C one if built)."""
    from .safeyaml import SAFE_LOADER, load_yaml  # PyYAML: only for a header the fast reader cannot read

    return load_yaml(text, what="a header", max_depth=HEADER_MAX_DEPTH, text_at=is_text_path,
                     loader=loader or SAFE_LOADER)


def is_player_name(name: object) -> bool:
    """A valid player's name: a letter, then letters, digits, _ ' or -, and not a reserved word."""
    return isinstance(name, str) and bool(PLAYER_NAME_RE.match(name)) and name not in RESERVED_NAMES


# ------------------------------------------------------------------------------------------------
# The header as a mapping (as YAML or JSON gives it): validated into a Header, and back


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
    if not all(cards):  # not 'None in cards', which would call Card's comparisons
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
    for key in TEXT_KEYS:
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
    for key in PLAYER_MAPS:
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
        elif key in PLAYER_MAPS:
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


# ------------------------------------------------------------------------------------------------
# Reading: the fast reader or the careful one, and a fault located at its key or item


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
    written = read_written_header(yaml_text, Pos(opening, 1))
    if written is not None:
        return written
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
    import yaml  # the careful path: PyYAML, loaded only now

    from .safeyaml import YamlFault, refused_character

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
