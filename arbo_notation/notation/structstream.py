"""The structured forms of records (convert.py) a game at a time: JSON and YAML written game by game,
and JSON read game by game, with memory for one game whatever the size of the file.

The text written is exactly what dumps_json and dumps_yaml give for all the games at once. JSON is
read a game at a time when it is laid out as dumps_json lays it out (the keys "format", "version"
and "games", in that order); any other JSON, and any fault, makes the reader give up (NotStreamable)
so that the caller reads the file whole with loads_json, which gives the one error message.
"""

from __future__ import annotations

import json
import re
from typing import Iterable, Iterator

import yaml

from .convert import FORMAT, VERSION, _Dumper, _Reader, _yaml_events, game_to_data
from .record import GameRecord


class NotStreamable(Exception):
    """The JSON is not laid out as dumps_json lays it out, or holds a fault: read it whole."""


# -- writing -------------------------------------------------------------------------------------


def json_pieces(games: Iterable[GameRecord]) -> Iterator[str]:
    """dumps_json(games), a game at a time."""
    yield '{\n  "format": "arbo",\n  "version": 1,\n  "games": ['
    first = True
    for game in games:
        text = json.dumps(game_to_data(game), indent=2, ensure_ascii=False, allow_nan=False)
        yield ("\n" if first else ",\n") + "\n".join("    " + line for line in text.split("\n"))
        first = False
    yield "]\n}\n" if first else "\n  ]\n}\n"


def _yaml(data: object) -> str:
    """Plain data as dumps_yaml writes it (PyYAML's emitter, without recursion)."""
    return yaml.emit(_yaml_events(data), Dumper=_Dumper, allow_unicode=True, width=100)


def yaml_pieces(games: Iterable[GameRecord]) -> Iterator[str]:
    """dumps_yaml(games), a game at a time (a block sequence under a mapping is not indented, so
    each game is written as a list of one at the same columns)."""
    first = True
    for game in games:
        if first:
            yield "format: arbo\nversion: 1\ngames:\n"
            first = False
        data = [game_to_data(game)]
        try:
            yield block_yaml(data)
        except _Unsure:
            yield _yaml(data)
    if first:
        yield _yaml({"format": FORMAT, "version": VERSION, "games": []})


# PyYAML's emitter is pure Python, and some 60 ms a game (an hour for 50,000 games): a record's
# data is written here instead, line by line, as the emitter writes it in block style. Each
# scalar is written as the emitter writes it alone (memoised), which is how it writes it anywhere
# on a line when the scalar is not empty, has no line break and cannot be folded at the width (it
# has no space, or ends within the width); for anything else the emitter writes the game.

_WIDTH = 100  # as dumps_yaml's width
_MAX_DEPTH = 200  # deeper data (variations in variations) is left to the emitter, which does not recurse
_LINE_BREAK = re.compile("[\n\r\x85\u2028\u2029]")
_SCALARS: dict[str, tuple[str, bool] | None] = {}  # a text -> as written, and whether it may fold


class _Unsure(Exception):
    """Data that block_yaml does not write as PyYAML's emitter would be sure to."""


def _scalar_text(text: str) -> tuple[str, bool] | None:
    found = _SCALARS.get(text, False)
    if found is False:
        found = None
        if text and len(text) <= 90 and not _LINE_BREAK.search(text):
            written = yaml.dump([text], Dumper=_Dumper, allow_unicode=True, width=_WIDTH, default_flow_style=False)
            if written.startswith("- ") and written.count("\n") == 1:
                body = written[2:-1]
                found = body, " " in text or body.startswith('"')
        if len(_SCALARS) >= 1 << 16:
            _SCALARS.clear()
        _SCALARS[text] = found
    return found  # type: ignore[return-value]


def _scalar(value: object, column: int) -> str:
    """A scalar as the emitter writes it from ``column`` on; _Unsure when that is not sure."""
    kind = type(value)
    if kind is str:
        found = _scalar_text(value)  # type: ignore[arg-type]
        if found is None or (found[1] and column + len(found[0]) > _WIDTH):
            raise _Unsure
        return found[0]
    if kind is int and -10**30 < value < 10**30:  # type: ignore[operator]
        return str(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    raise _Unsure


def block_yaml(data: list) -> str:
    """A non-empty list of plain data as PyYAML writes it in block style at the top of a document
    (keys in order, no aliases, width 100); _Unsure when it is not sure to write it the same."""
    out: list[str] = []
    _sequence(data, 0, "", out, 0)
    return "".join(out)


def _sequence(items: list, column: int, lead: str, out: list[str], depth: int) -> None:
    """Items written as '- item' at ``column``, the first line opened by ``lead``."""
    if depth > _MAX_DEPTH:
        raise _Unsure
    pad = " " * column
    for item in items:
        start = lead + "- "
        lead = pad
        kind = type(item)
        if kind is dict:
            if item:
                _mapping(item, column + 2, start, out, depth + 1)
            else:
                out.append(start + "{}\n")
        elif kind is list:
            if item:
                _sequence(item, column + 2, start, out, depth + 1)
            else:
                out.append(start + "[]\n")
        else:
            out.append(start + _scalar(item, column + 2) + "\n")


def _mapping(mapping: dict, column: int, lead: str, out: list[str], depth: int) -> None:
    """Entries written as 'key: value' at ``column``, the first line opened by ``lead`` (a list
    under a key stands at the key's column, a mapping two further)."""
    if depth > _MAX_DEPTH:
        raise _Unsure
    pad = " " * column
    for key, value in mapping.items():
        start = lead + _scalar(key, column)
        lead = pad
        kind = type(value)
        if kind is dict:
            if value:
                out.append(start + ":\n")
                _mapping(value, column + 2, " " * (column + 2), out, depth + 1)
            else:
                out.append(start + ": {}\n")
        elif kind is list:
            if value:
                out.append(start + ":\n")
                _sequence(value, column, pad, out, depth + 1)
            else:
                out.append(start + ": []\n")
        else:
            out.append(start + ": " + _scalar(value, len(start) + 2) + "\n")


# -- reading JSON --------------------------------------------------------------------------------

_SPACE = re.compile(r"[ \t\n\r]*")
_LONGEST_WORD = len("-Infinity")
_KEY = re.compile(r'[ \t\n\r]*"(format|version|games)"[ \t\n\r]*:[ \t\n\r]*')


class _Buffer:
    """JSON text given in blocks, read from a position that only moves on."""

    __slots__ = ("blocks", "text", "pos", "ended")

    def __init__(self, blocks: Iterable[str]) -> None:
        self.blocks = iter(blocks)
        self.text = ""
        self.pos = 0
        self.ended = False

    def more(self) -> bool:
        """Read the next block (dropping what was read); False at the end."""
        block = next(self.blocks, None)
        if block is None:
            self.ended = True
            return False
        self.text = self.text[self.pos:] + block
        self.pos = 0
        return True

    def skip(self) -> str:
        """Skip white space; the next character ('' at the end)."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.more():
                return ""

    def expect(self, char: str) -> None:
        if self.skip() != char:
            raise NotStreamable
        self.pos += 1

    def key(self, name: str) -> None:
        while True:
            m = _KEY.match(self.text, self.pos)
            if m is not None and m.end() < len(self.text):
                if m.group(1) != name:
                    raise NotStreamable
                self.pos = m.end()
                return
            if not self.more():
                raise NotStreamable

    def value(self, decoder: json.JSONDecoder) -> object:
        """The next JSON value, reading more blocks while it is cut short."""
        while True:
            try:
                value, end = decoder.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as error:
                # Cut short by the end of the block: inside a string, or within a word's length
                # of the end (a block may end in the middle of 'true' or '-Infinity').
                cut_short = error.msg.startswith("Unterminated string") or \
                    error.pos >= len(self.text.rstrip(" \t\n\r")) - _LONGEST_WORD
                if cut_short and self.more():
                    continue
                raise NotStreamable from None
            except (ValueError, RecursionError):
                raise NotStreamable from None
            if end == len(self.text) and not self.ended and self.more():
                continue  # a number may go on in the next block
            self.pos = end
            return value


def json_games(blocks: Iterable[str], file: str) -> Iterator[GameRecord]:
    """The games of JSON text given in blocks, as loads_json reads them; NotStreamable (maybe after
    some games) when the text is not laid out as dumps_json lays it out or holds any fault."""
    decoder = json.JSONDecoder()
    source = _Buffer(blocks)
    source.expect("{")
    source.key("format")
    if source.value(decoder) != FORMAT:
        raise NotStreamable
    source.expect(",")
    source.key("version")
    if source.value(decoder) != VERSION:
        raise NotStreamable
    source.expect(",")
    source.key("games")
    source.expect("[")
    reader = _Reader(file)
    index = 0
    if source.skip() == "]":
        source.pos += 1
    else:
        while True:
            source.skip()
            data = source.value(decoder)
            try:
                yield reader.game(data, f"games[{index}]", index + 1)
            except Exception:  # the fault is named by loads_json, which also sees the JSON after it
                raise NotStreamable from None
            index += 1
            following = source.skip()
            source.pos += 1
            if following == "]":
                break
            if following != ",":
                raise NotStreamable
    source.expect("}")
    if source.skip() != "":
        raise NotStreamable
