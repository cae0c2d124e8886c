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
from ..errors import ArboError, NotationError
from .record import HEADER_KEYS, RESERVED_NAMES, Header, Pos

#: The C implementation of PyYAML's safe loader when libyaml is there (same safe tag set, ~7x faster).
SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

PLAYER_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*\Z")
ISO_DATE_RE = re.compile(r"[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?\Z")
LINE_WIDTH = 80

_TEXT_KEYS = ("event", "site", "round", "annotator")
_KNOWN_KEYS = frozenset(HEADER_KEYS)
_PLAYER_MAPS = ("hands", "discards")


def safe_load(text: str) -> Any:
    """yaml.safe_load, with the C loader when available."""
    return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - a SafeLoader


# A header as most records write it ('key: word or text', 'key: [word, word, ...]', dates and
# small numbers) is read here without PyYAML, about five times faster; anything else (quotes,
# mappings, comments, tabs, words YAML reads as true/false/null, ...) goes to safe_load. The
# result is the same as safe_load's (tests/test_notation_header.py checks it with hypothesis):
# plain scalars are resolved with PyYAML's own table of implicit types.
_FAST_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?: +(.*?))? *\Z")
_FAST_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9 _'.,()/+-]*\Z")
_FAST_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*\Z")
_FAST_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z")
_FAST_INT = re.compile(r"(?:0|[1-9][0-9]{0,17})\Z")
_IMPLICIT = getattr(yaml.SafeLoader, "yaml_implicit_resolvers", {})


_TEXT_WORDS: dict[str, bool] = {}


def _plain_is_text(word: str) -> bool:
    """True if YAML reads this plain scalar as a string (no bool, null, number, date, ...)."""
    known = _TEXT_WORDS.get(word)
    if known is not None:
        return known
    answer = True
    for _tag, regexp in _IMPLICIT.get(word[:1], ()):
        if regexp.match(word):
            answer = False
            break
    if len(_TEXT_WORDS) < 10000:
        _TEXT_WORDS[word] = answer
    return answer


_FAST_VALUES: dict[str, tuple[bool, Any]] = {}


def _fast_value(value: str) -> tuple[bool, Any]:
    """(True, what safe_load reads for this value) or (False, None) when the fast reader steps aside."""
    known = _FAST_VALUES.get(value)
    if known is None:
        known = _fast_value_of(value)
        if len(_FAST_VALUES) < 10000:
            _FAST_VALUES[value] = known
    ok, result = known
    return (ok, list(result)) if type(result) is list else known


def _fast_value_of(value: str) -> tuple[bool, Any]:
    if value.startswith("["):
        if not value.endswith("]"):
            return False, None
        inner = value[1:-1].strip()
        if not inner:
            return True, []
        items = [item.strip() for item in inner.split(",")]
        for item in items:
            if not _FAST_WORD.match(item) or not _plain_is_text(item):
                return False, None
        return True, items
    if _FAST_TEXT.match(value):
        value = value.rstrip()
        return (True, value) if _plain_is_text(value) else (False, None)
    m = _FAST_DATE.match(value)
    if m:
        try:
            return True, _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return False, None
    if _FAST_INT.match(value):
        return True, int(value)
    return False, None


def fast_load(text: str) -> dict[str, Any] | None:
    """The mapping of a simple header, as safe_load would give it; None when it is not simple."""
    if "\t" in text or "#" in text or "\r" in text:
        return None
    data: dict[str, Any] = {}
    key: str | None = None
    pending: str | None = None  # a flow list still open on the key's line
    for line in text.split("\n"):
        if not line.strip():
            if pending is not None:
                return None
            continue
        if line[0] == " ":
            if pending is None:
                return None
            pending += " " + line.strip()
            if pending.endswith("]"):
                ok, value = _fast_value(pending)
                if not ok:
                    return None
                data[key] = value  # type: ignore[index]
                pending = None
            continue
        if pending is not None:
            return None
        m = _FAST_KEY_LINE.match(line)
        if m is None:
            return None
        key, value_text = m.group(1), m.group(2)
        if key in data or not _plain_is_text(key) or not value_text:
            return None
        if value_text.startswith("[") and not value_text.endswith("]"):
            pending = value_text
            continue
        ok, value = _fast_value(value_text)
        if not ok:
            return None
        data[key] = value
    if pending is not None or not data:
        return None
    return data


def is_player_name(name: object) -> bool:
    """A valid player's name: a letter, then letters, digits, _ ' or -, and not a reserved word."""
    return isinstance(name, str) and bool(PLAYER_NAME_RE.match(name)) and name not in RESERVED_NAMES


class HeaderFault(ArboError):
    """A fault in a header's values: which key, what is wrong, and the offending text if any."""

    def __init__(self, message: str, key: str | None = None, item: object = None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.item = None if item is None else str(item)


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
    if isinstance(value, str) and ISO_DATE_RE.match(value):
        return value
    raise HeaderFault(f"'date' must be an ISO date such as 2026-11-29, found {_show(value)}", "date", str(value))


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


def _cards(key: str, value: object) -> tuple[Card, ...]:
    items = _list(key, value, "[Ma3, Oa5]")
    cards = []
    for item in items:
        if not isinstance(item, str) or not CARD_RE.match(item):
            raise HeaderFault(f"'{key}': expected a card such as Ma3, found {_show(item)}", key,
                              item if isinstance(item, (str, int)) else None)
        cards.append(Card(item[:-1], int(item[-1])))
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
    return Header(pos=pos, **fields)


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
        word = re.compile(r"(?<![A-Za-z0-9_'-])" + re.escape(item) + r"(?![A-Za-z0-9_'-])"
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
        data = safe_load(yaml_text)
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
    except (ValueError, TypeError, OverflowError) as exc:  # e.g. a timestamp YAML reads but Python can't hold
        raise error(f"the header is not valid YAML: {exc}") from None

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
        except yaml.YAMLError:
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
        except yaml.YAMLError:
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


def _extra_lines(key: str, value: Any) -> list[str]:
    try:
        nested = isinstance(value, (dict, list, tuple, set, frozenset))  # leaf lists in flow style
        text = yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True,
                              default_flow_style=None if nested else False, width=LINE_WIDTH - 4)
        if re.search(r"^(?:---|\.\.\.)(?:[ \t]|$)", text, re.M):
            raise ValueError
    except yaml.YAMLError as exc:
        raise ArboError(f"cannot write the header key {key!r}: {exc}") from None
    except ValueError:
        text = yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True, default_flow_style=True,
                              default_style='"', width=float("inf"))
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
