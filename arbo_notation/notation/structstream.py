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

from .convert import FORMAT, VERSION, _Dumper, _Reader, game_to_data
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
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)


def yaml_pieces(games: Iterable[GameRecord]) -> Iterator[str]:
    """dumps_yaml(games), a game at a time (a block sequence under a mapping is not indented, so
    each game is dumped as a list of one at the same columns)."""
    first = True
    for game in games:
        if first:
            yield "format: arbo\nversion: 1\ngames:\n"
            first = False
        yield _yaml([game_to_data(game)])
    if first:
        yield _yaml({"format": FORMAT, "version": VERSION, "games": []})


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
