"""The structured forms of records (convert.py) a game at a time: JSON and YAML written and read
game by game, with memory for one game whatever the size of the file.

The text written is exactly what dumps_json and dumps_yaml give for all the games at once. JSON
and YAML are read a game at a time when laid out as dumps_json and dumps_yaml lay them out (the
keys "format", "version" and "games", in that order); any other layout, and any fault, makes the
reader give up (NotStreamable) so that the caller reads the file whole with loads_json or
loads_yaml, which gives the one error message.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any, Iterable, Iterator, cast

import yaml

from arbo_notation.notation.structured.convert import FORMAT, VERSION, _Dumper, _Reader, _yaml_events, game_to_data
from arbo_notation.notation.model import GameRecord


#: Plain data, JSON's and YAML's values (text, numbers, booleans, None, and lists and mappings of
#: them): arbitrary, as a record's data or a text gives it.
Plain = Any


class NotStreamable(Exception):
    """The JSON or YAML is not laid out as dumps_json or dumps_yaml lays it out, or holds a fault:
    read it whole."""


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
    text = yaml.emit(_yaml_events(data), Dumper=_Dumper, allow_unicode=True, width=100)
    return cast(str, text)  # with no stream, emit returns the text (types-PyYAML says Any)


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
# text is quoted (or not) as the emitter quotes it alone (memoised), which is how it quotes it
# anywhere when it is not empty and has no line break; a plain or single-quoted text that goes
# past the width is folded at its spaces as the emitter folds it (write_plain and
# write_single_quoted), a double-quoted one is left to the emitter, which writes the game.

_WIDTH = 100  # as dumps_yaml's width
_KEY_LENGTH = 100  # a key is written as a simple key (no '? ') below 128 characters, its tag counted
_MAX_DEPTH = 200  # deeper data (variations in variations) is left to the emitter, which does not recurse
_LINE_BREAK = re.compile("[\n\r\x85\u2028\u2029]")
_SCALARS: dict[str, tuple[str, str] | None] = {}  # a text -> as written on one line, and its style


class _Unsure(Exception):
    """Data that block_yaml does not write as PyYAML's emitter would be sure to."""


def _scalar_text(text: str) -> tuple[str, str] | None:
    """A text as the emitter writes it on a line without folding, and its style: 'plain', "'"
    or '"' (None: empty or over lines, left to the emitter)."""
    found = _SCALARS.get(text, False)
    if found is False:
        found = None
        if text and not _LINE_BREAK.search(text):
            written = yaml.dump([text], Dumper=_Dumper, allow_unicode=True, width=1 << 30, default_flow_style=False)
            if written.startswith("- ") and written.count("\n") == 1:
                body = written[2:-1]
                style = body[0] if body[0] in "'\"" else "plain"
                if style != "plain" or body == text:
                    found = body, style
        if len(_SCALARS) >= 1 << 16:
            _SCALARS.clear()
        _SCALARS[text] = found
    return found  # type: ignore[return-value]  # False only when not met before, replaced above


def _scalar(value: object, column: int, indent: int | None) -> str:
    """A scalar as the emitter writes it from ``column`` on, a value folded to ``indent`` (None:
    a key, never folded); _Unsure when that is not sure."""
    kind = type(value)
    if kind is str:
        found = _scalar_text(value)  # type: ignore[arg-type]  # a str: its type is str
        if found is None:
            raise _Unsure
        body, style = found
        if indent is None:
            if len(value) >= _KEY_LENGTH:  # type: ignore[arg-type]  # a str: its type is str
                raise _Unsure
            return body
        if column + len(body) <= _WIDTH:
            return body
        if style == '"':
            raise _Unsure
        return _folded(value, style == "'", column, indent)  # type: ignore[arg-type]  # a str: its type is str
    if kind is int and -(10**30) < value < 10**30:  # type: ignore[operator]  # an int: its type is int
        return str(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    raise _Unsure


def _folded(text: str, quoted: bool, column: int, indent: int) -> str:
    """A text without line breaks written plain or single-quoted from ``column`` on, a single
    space past the width becoming a new line at ``indent`` (the emitter's write_plain and
    write_single_quoted)."""
    out = ["'"] if quoted else []
    column += quoted
    start = 0
    spaces = False
    size = len(text)
    for end in range(size + 1):
        char = text[end] if end < size else None
        if spaces:
            if char != " ":
                if start + 1 == end and column > _WIDTH and (not quoted or (start != 0 and end != size)):
                    out.append("\n" + " " * indent)
                    column = indent
                else:
                    out.append(text[start:end])
                    column += end - start
                start = end
        elif char is None or char == " " or (quoted and char == "'"):
            if start < end:
                out.append(text[start:end])
                column += end - start
            start = end
        if quoted and char == "'":
            out.append("''")
            column += 2
            start = end + 1
        spaces = char == " "
    if quoted:
        out.append("'")
    return "".join(out)


def block_yaml(data: list[Plain]) -> str:
    """A non-empty list of plain data as PyYAML writes it in block style at the top of a document
    (keys in order, no aliases, width 100); _Unsure when it is not sure to write it the same."""
    out: list[str] = []
    _sequence(data, 0, "", out, 0)
    return "".join(out)


def _sequence(items: list[Plain], column: int, lead: str, out: list[str], depth: int) -> None:
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
            out.append(start + _scalar(item, column + 2, column + 2) + "\n")


def _mapping(mapping: dict[Plain, Plain], column: int, lead: str, out: list[str], depth: int) -> None:
    """Entries written as 'key: value' at ``column``, the first line opened by ``lead`` (a list
    under a key stands at the key's column, a mapping two further)."""
    if depth > _MAX_DEPTH:
        raise _Unsure
    pad = " " * column
    for key, value in mapping.items():
        start = lead + _scalar(key, column, None)
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
            out.append(start + ": " + _scalar(value, len(start) + 2, column + 2) + "\n")


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
        if _HALF_PAIR.search(self.text[-5:] + block):
            raise NotStreamable  # half a UTF-16 pair, maybe: loads_json says whether, and where
        self.text = self.text[self.pos :] + block
        self.pos = 0
        return True

    def skip(self) -> str:
        """Skip white space; the next character ('' at the end)."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # it matches ''
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
                cut_short = (
                    error.msg.startswith("Unterminated string")
                    or error.pos >= len(self.text.rstrip(" \t\n\r")) - _LONGEST_WORD
                )
                if cut_short and self.more():
                    continue
                raise NotStreamable from None
            except (ValueError, RecursionError):
                raise NotStreamable from None
            if end == len(self.text) and not self.ended and self.more():
                continue  # a number may go on in the next block
            self.pos = end
            return value


def _once_each(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """An object whose keys are all different (else loads_json names the key given twice)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key given twice")
    return found


def json_games(blocks: Iterable[str], file: str) -> Iterator[GameRecord]:
    """The games of JSON text given in blocks, as loads_json reads them; NotStreamable (maybe after
    some games) when the text is not laid out as dumps_json lays it out (or as a list of games
    alone) or holds any fault."""
    decoder = json.JSONDecoder(object_pairs_hook=_once_each)
    source = _Buffer(blocks)
    listed = source.skip() == "["  # a list of games alone
    if not listed:
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
            except Exception:  # noqa: BLE001 - any fault: loads_json names it, seeing the JSON after it too
                raise NotStreamable from None
            index += 1
            following = source.skip()
            source.pos += 1
            if following == "]":
                break
            if following != ",":
                raise NotStreamable
    if not listed:
        source.expect("}")
    if source.skip() != "":
        raise NotStreamable


_HALF_PAIR = re.compile(r"\\u[dD][89a-fA-F]")


# -- reading YAML --------------------------------------------------------------------------------
#
# PyYAML composes a 50,000-game file whole (gigabytes of nodes), and even its C parser's events
# cost some 20 ms a game in Python. YAML laid out as dumps_yaml lays it out is cut into games at
# its lines '- ' (each game's entry in the list "games"), and each game's lines are read back as
# block_yaml writes them, scalars resolved as YAML resolves them; a game written any other way
# (quoted texts over lines, comments, flow style, ...) is loaded alone by the safe loader, and
# anything else makes the reader give up (NotStreamable), as for JSON.

_YAML_HEAD = "format: arbo\nversion: 1\ngames:\n"
_YAML_KEY = re.compile(r"([A-Za-z_]\w*):(?: |$)")
_PLAIN = re.compile(r"-?(?:0|[1-9][0-9]{0,17})|[A-Za-z][\w'-]*(?: [\w'-]+)*\Z")
_QUOTED = re.compile(r"'((?:[^'\n]|'')*)'\Z")
_RESOLVED: dict[str, object] = {}  # a plain scalar -> its value (_RESOLVED_UNSURE: not resolved here)
_RESOLVED_UNSURE = object()
_RESOLVER = yaml.resolver.Resolver()  # the safe loaders' own


class _Unread(Exception):
    """Lines that are not laid out as block_yaml lays them out."""


def _plain_value(text: str) -> object:
    found = _RESOLVED.get(text, _RESOLVED_UNSURE)
    if found is _RESOLVED_UNSURE and text not in _RESOLVED:
        if _PLAIN.fullmatch(text):
            tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]  # types-PyYAML leaves resolve untyped
            kind = tag.rsplit(":", 1)[-1]
            if kind == "str":
                found = text
            elif kind == "int" and text[0] in "-0123456789":
                found = int(text)
            elif kind == "bool":
                found = yaml.constructor.SafeConstructor.bool_values[text.lower()]
            elif kind == "null":
                found = None
        if len(_RESOLVED) >= 1 << 16:
            _RESOLVED.clear()
        _RESOLVED[text] = found
    if found is _RESOLVED_UNSURE:
        raise _Unread
    return found


def _scalar_value(text: str) -> object:
    if text.startswith("'"):
        quoted = _QUOTED.match(text)
        if quoted is None:
            raise _Unread
        return quoted.group(1).replace("''", "'")
    if text == "[]":
        return []
    if text == "{}":
        return {}
    return _plain_value(text)


class _Lines:
    """The lines of one game, read as block_yaml writes them (the inverse of _sequence and _mapping)."""

    __slots__ = ("lines", "at")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.at = 0

    def opens(self, column: int, text: str) -> bool:
        """Whether the next line is ``column`` spaces, then ``text``, then something not a space."""
        if self.at >= len(self.lines):
            return False
        line = self.lines[self.at]
        end = column + len(text)
        return line.startswith(" " * column) and line.startswith(text, column) and line[end : end + 1] not in (" ", "")

    def item(self, column: int, depth: int) -> object:
        """What follows '- ' at ``column`` on the current line."""
        if depth > _MAX_DEPTH:
            raise _Unread
        line = self.lines[self.at]
        rest = line[column:]
        if rest.startswith("- "):
            return self.sequence(column, depth + 1)
        if _YAML_KEY.match(rest):
            return self.mapping(column, depth + 1)
        self.at += 1
        return _scalar_value(rest)

    def sequence(self, column: int, depth: int) -> list[Plain]:
        """Items at ``column``, the first on the current line from ``column`` on."""
        items = [self.item(column + 2, depth)]
        while self.opens(column, "- "):
            items.append(self.item(column + 2, depth))
        return items

    def mapping(self, column: int, depth: int) -> dict[Plain, Plain]:
        """Entries at ``column``, the first on the current line from ``column`` on."""
        entries: dict[Plain, Plain] = {}
        while True:
            line = self.lines[self.at]
            key = _YAML_KEY.match(line, column)
            if key is None:
                raise _Unread
            name = key.group(1)
            rest = line[key.end() :]
            self.at += 1
            if rest:
                entries[_plain_value(name)] = _scalar_value(rest)
            elif self.opens(column, "- "):
                entries[_plain_value(name)] = self.sequence(column, depth)
            elif self.opens(column + 2, "") and _YAML_KEY.match(self.lines[self.at], column + 2):
                entries[_plain_value(name)] = self.mapping(column + 2, depth)
            else:
                raise _Unread  # 'key:' alone is a null, which block_yaml writes 'key: null'
            if not (self.opens(column, "") and _YAML_KEY.match(self.lines[self.at], column)):
                return entries


def _game_data(lines: list[str]) -> object:
    """The data of a game's lines (its entry '- ...' in the list "games", through its last line)."""
    try:
        reader = _Lines(lines)
        data = reader.item(2, 0)
        if reader.at == len(lines):
            return data
    except (_Unread, IndexError):
        pass
    # deferred: convert and safeyaml load PyYAML (~26 ms), needed only for a game the line reader cannot read
    from arbo_notation.notation.structured.convert import RECORD_MAX_DEPTH
    from arbo_notation.notation.safeyaml import load_yaml

    try:
        loaded = load_yaml("".join(line + "\n" for line in lines), what="a record", max_depth=RECORD_MAX_DEPTH - 1)
    except Exception:  # noqa: BLE001 - any fault is named by loads_yaml, reading the whole text
        raise NotStreamable from None
    if not isinstance(loaded, list) or len(loaded) != 1:
        raise NotStreamable
    return loaded[0]


def _lines(blocks: Iterable[str]) -> Iterator[str]:
    carry = ""
    for block in blocks:
        lines = (carry + block).split("\n")
        carry = lines.pop()
        yield from lines
    if carry:
        yield carry


def yaml_games(blocks: Iterable[str], file: str) -> Iterator[GameRecord]:
    """The games of YAML text given in blocks, as loads_yaml reads them; NotStreamable (maybe
    after some games) when the text is not laid out as dumps_yaml lays it out (or as a list of
    games alone) or holds any fault."""
    lines = _lines(blocks)
    first = next(lines, None)
    game: list[str] = []
    if first is not None and first.startswith("- "):  # a list of games alone
        game = [first]
    else:
        for expected in _YAML_HEAD.split("\n")[:-1]:
            if first != expected:
                raise NotStreamable
            first = next(lines, None)
        if first is not None:
            lines = itertools.chain([first], lines)
    reader = _Reader(file)
    index = 0
    for line in lines:
        if line.startswith("-") and (line == "-" or line[1] == " "):
            if game:
                yield _game(reader, game, index)
                index += 1
            game = [line]
        elif not game or not line.startswith((" ", "#")) and line:
            raise NotStreamable  # the end of the list "games" before the end of the text
        else:
            game.append(line)
    if not game:
        raise NotStreamable  # no game: 'games: []', read whole
    yield _game(reader, game, index)


def _game(reader: _Reader, lines: list[str], index: int) -> GameRecord:
    data = _game_data(lines)
    try:
        return reader.game(data, f"games[{index}]", index + 1)
    except Exception:  # noqa: BLE001 - the fault is named by loads_yaml, which also sees the YAML after it
        raise NotStreamable from None
