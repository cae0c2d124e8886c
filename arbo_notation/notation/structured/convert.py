"""A lossless structured form of game records, for other programs: plain data, JSON and YAML.

``game_to_data(game)`` gives a dict of JSON types; ``game_from_data(data)`` reads it back and
checks it as the .arb syntax would (a DataError names the file, the place and the fault), so
``format_game(game_from_data(game_to_data(g))) == format_game(g)`` and JSON converted to .arb
reads back the same. Source positions are not part of the structured form.

Shape of one game (keys whose value is empty are left out)::

    {"header": {"players": ["Ana", "Ben"], "species": ["Ca", ...], "event": "...", ...},
     "comments": [{"text": "before the first turn"}],
     "turns": [{"number": 1, "player": "Ana",
                "draws": [{"from": "deck"}, {"from": "deck", "card": "Ma3"},
                          {"from": "discard", "owner": "Ben", "card": "Ja2"}, {"from": "skip"}],
                "plant": {"card": "Ma3", "x": 0, "y": 0}, "discard": "Oa5",
                "glyphs": ["!"], "comments_before": [...], "comments_after": [{"text": "...", "line": true}],
                "variations": [{"turns": [...], "comments_before": [...], "comments_after": [...]}]}],
     "reveals": [{"player": "Ana", "cards": ["Ja2", ...], "comments": [...]}],
     "result": {"scores": [["Ana", 24], ["Ben", 19]]}   or   {"unfinished": true}}

A file of games: ``{"format": "arbo", "version": 1, "games": [game, ...]}``. Header values that
JSON has no type for are tagged: a date as {"$date": "2026-11-29"}, a date and time as
{"$datetime": "..."}, a set as {"$set": [...]}, bytes as {"$binary": "<base64>"}, a mapping whose
keys are not all text (or start with '$') as {"$map": [[key, value], ...]}, a float that is not
finite as {"$float": "nan"}.
"""

from __future__ import annotations

import base64
import datetime as _dt
import json
import math
import re
from typing import Any, Callable, Iterable, cast

import yaml

from arbo_notation.engine.actions import Draw, DrawAction, Plant, Skip
from arbo_notation.engine.cards import CARD_RE, Card, Coord, value_fault
from arbo_notation.errors import ArboError, DataError, HeaderFault, NotationError, visible
from arbo_notation.engine.lexicon import (
    MAX_COORDINATE_DIGITS,
    MAX_GLYPH_DIGITS,
    MAX_GLYPHS,
    MAX_NAME_LENGTH,
    MAX_POINTS_DIGITS,
    MAX_TURN_NUMBER_DIGITS,
)
from arbo_notation.notation.header.keys import (
    HEADER_MAX_DEPTH,
    PLAIN_DATA_KEYS,
    header_from_mapping,
    header_to_mapping,
    is_player_name,
)
from arbo_notation.notation.model import GLYPHS, Comment, GameRecord, Result, Reveal, Turn, Variation, draw_kind
from arbo_notation.notation.safeyaml import YamlFault, deeper_than, load_yaml, refused_character
from arbo_notation.notation.writer import check_writable

__all__ = [
    "DataError",
    "FORMAT",
    "VERSION",
    "dumps_json",
    "dumps_yaml",
    "game_from_data",
    "game_to_data",
    "games_from_data",
    "games_to_data",
    "loads_json",
    "loads_yaml",
]

FORMAT = "arbo"
VERSION = 1
#: As the .arb reader (syntax.MAX_VARIATION_DEPTH, which this module cannot import: it loads lark).
MAX_VARIATION_DEPTH = 100
#: How deep a structured record's lists and mappings may nest: four levels a variation (its list,
#: its mapping, its turns, a turn), the file's and a turn's own, and a header (HEADER_MAX_DEPTH).
RECORD_MAX_DEPTH = 4 * MAX_VARIATION_DEPTH + 16 + HEADER_MAX_DEPTH
_GLYPH_RE = re.compile(rf"\$[0-9]{{1,{MAX_GLYPH_DIGITS}}}\Z")


# ------------------------------------------------------------------------------------------------
# Header values JSON cannot carry


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"$float": repr(value)}
    if isinstance(value, _dt.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, _dt.date):
        return {"$date": value.isoformat()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return {"$set": [_encode(v) for v in sorted(value, key=repr)]}
    if isinstance(value, bytes):
        return {"$binary": base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"$map": [[_encode(k), _encode(v)] for k, v in value.items()]}
    raise ArboError(f"a header value of type {type(value).__name__} has no structured form")


def _freeze(value: Any) -> Any:
    """A decoded value usable as a mapping key or set member (lists become tuples)."""
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _decode(value: Any, path: str, fail: Callable[[str, str], DataError]) -> Any:
    if isinstance(value, list):
        return [_decode(v, f"{path}[{i}]", fail) for i, v in enumerate(value)]
    if isinstance(value, dict):
        if len(value) == 1:
            ((tag, inner),) = value.items()
            if isinstance(tag, str) and tag.startswith("$"):
                try:
                    if tag == "$date":
                        return _dt.date.fromisoformat(inner)
                    if tag == "$datetime":
                        return _dt.datetime.fromisoformat(inner)
                    if tag == "$set":
                        return {_freeze(_decode(v, path, fail)) for v in inner}
                    if tag == "$binary":
                        return base64.b64decode(inner.encode("ascii"), validate=True)
                    if tag == "$float":
                        return float(inner)
                    if tag == "$map":
                        return {_freeze(_decode(k, path, fail)): _decode(v, path, fail) for k, v in inner}
                except (TypeError, ValueError, AttributeError) as exc:
                    raise fail(path, f"a bad {tag} value: {exc}") from None
                raise fail(path, f"unknown tag {tag!r}")
        return {k: _decode(v, f"{path}.{k}", fail) for k, v in value.items()}
    return value


# ------------------------------------------------------------------------------------------------
# To data


def _comments(comments: Iterable[Comment]) -> list[dict[str, Any]]:
    return [{"text": c.text, "line": True} if c.line else {"text": c.text} for c in comments]


def _draw(draw: DrawAction) -> dict[str, Any]:
    data: dict[str, Any] = {"from": draw_kind(draw)}
    if isinstance(draw, Draw):
        if draw.owner is not None:
            data["owner"] = draw.owner
        if draw.card is not None:
            data["card"] = str(draw.card)
    return data


def _turn(turn: Turn) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if turn.number is not None:
        data["number"] = turn.number
    data["player"] = turn.player
    data["draws"] = [_draw(d) for d in turn.draws]
    data["plant"] = {"card": str(turn.plant.card), "x": turn.plant.coord.x, "y": turn.plant.coord.y}
    data["discard"] = str(turn.discard)
    if turn.glyphs:
        data["glyphs"] = list(turn.glyphs)
    if turn.comments_before:
        data["comments_before"] = _comments(turn.comments_before)
    if turn.comments_after:
        data["comments_after"] = _comments(turn.comments_after)
    if turn.variations:
        data["variations"] = [_variation(v) for v in turn.variations]
    return data


def _variation(variation: Variation) -> dict[str, Any]:
    data: dict[str, Any] = {"turns": [_turn(t) for t in variation.turns]}
    if variation.comments_before:
        data["comments_before"] = _comments(variation.comments_before)
    if variation.comments_after:
        data["comments_after"] = _comments(variation.comments_after)
    return data


def game_to_data(game: GameRecord) -> dict[str, Any]:
    """One game as plain data (JSON types only), in the shape this module's docstring shows."""
    data: dict[str, Any] = {"header": header_to_mapping(game.header, _encode)}
    if game.comments:
        data["comments"] = _comments(game.comments)
    data["turns"] = [_turn(t) for t in game.turns]
    if game.reveals:
        data["reveals"] = []
        for reveal in game.reveals:
            item: dict[str, Any] = {"player": reveal.player, "cards": [str(c) for c in reveal.cards]}
            if reveal.comments:
                item["comments"] = _comments(reveal.comments)
            data["reveals"].append(item)
    if game.result is not None:
        result: dict[str, Any] = (
            {"unfinished": True}
            if game.result.unfinished
            else {"scores": [[name, score] for name, score in game.result.scores]}
        )
        if game.result.comments:
            result["comments"] = _comments(game.result.comments)
        data["result"] = result
    return data


def games_to_data(games: Iterable[GameRecord]) -> dict[str, Any]:
    """A file of games as plain data: {"format": "arbo", "version": 1, "games": [...]}."""
    return {"format": FORMAT, "version": VERSION, "games": [game_to_data(g) for g in games]}


# ------------------------------------------------------------------------------------------------
# From data


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, path: str, message: str) -> DataError:
        return DataError(message, file=self.file, path=path)

    def mapping(self, value: Any, path: str, keys: Iterable[str], required: Iterable[str] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a mapping, found {_kind(value)}")
        allowed = set(keys)
        for key in value:
            if key not in allowed:
                raise self.fail(path, f"unknown key {key!r} (known: {', '.join(sorted(allowed))})")
        for key in required:
            if key not in value:
                raise self.fail(path, f"missing key {key!r}")
        return value

    def items(self, value: Any, path: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, found {_kind(value)}")
        return value

    def text(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected text, found {_kind(value)}")
        return value

    def integer(self, value: Any, path: str, digits: int = 0) -> int:
        """A whole number; of at most ``digits`` digits, when given (the bounds of the .arb notation)."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected a whole number, found {_kind(value)}")
        if digits and not -(10**digits) < value < 10**digits:
            raise self.fail(
                path, f"expected a whole number of at most {digits} digits, found one of {len(str(abs(value)))}"
            )
        return value

    def name(self, value: Any, path: str) -> str:
        if not (isinstance(value, str) and is_player_name(value)):
            shown = (
                f"{value[:24]!r}... ({len(value)} characters)"
                if isinstance(value, str) and len(value) > 24
                else repr(value)
            )
            raise self.fail(
                path,
                f"{shown} is not a player's name (a letter, then letters, digits, _ ' or -, "
                f"at most {MAX_NAME_LENGTH} characters; not d, reveal or result)",
            )
        return value

    def card(self, value: Any, path: str) -> Card:
        if not isinstance(value, str) or not CARD_RE.match(value):
            raise self.fail(
                path,
                f"expected a card such as Ma3, found {value!r}{value_fault(value) if isinstance(value, str) else ''}",
            )
        return Card(value[:-1], int(value[-1]))

    def comments(self, value: Any, path: str) -> tuple[Comment, ...]:
        out = []
        for i, item in enumerate(self.items(value, path)):
            here = f"{path}[{i}]"
            if isinstance(item, str):
                item = {"text": item}
            self.mapping(item, here, ("text", "line"), ("text",))
            text = self.text(item["text"], f"{here}.text").replace("\r\n", "\n").replace("\r", "\n").strip()
            line = item.get("line", False)
            if not isinstance(line, bool):
                raise self.fail(f"{here}.line", f"expected true or false, found {_kind(line)}")
            if line and "\n" in text:
                raise self.fail(here, "a ';' comment cannot run over lines")
            if not line and "}" in text:
                raise self.fail(here, "a {comment} cannot hold '}'")
            if not line and re.search(r"\n---[ \t]*\n", text):  # a line of its own once written
                raise self.fail(here, "a {comment} cannot hold a line '---'")
            out.append(Comment(text, line))
        return tuple(out)

    def draw(self, value: Any, path: str) -> DrawAction:
        self.mapping(value, path, ("from", "owner", "card"), ("from",))
        kind = value["from"]
        if not isinstance(kind, str) or kind not in ("deck", "discard", "skip"):
            raise self.fail(f"{path}.from", f"expected 'deck', 'discard' or 'skip', found {kind!r}")
        owner = value.get("owner")
        card = self.card(value["card"], f"{path}.card") if value.get("card") is not None else None
        if kind == "discard":
            owner = self.name(owner, f"{path}.owner")
        elif owner is not None:
            raise self.fail(f"{path}.owner", f"a draw from the {kind} has no owner")
        if kind == "skip":
            if card is not None:
                raise self.fail(f"{path}.card", "a skipped draw has no card")
            return Skip()
        return Draw(owner, card)

    def turn(self, value: Any, path: str, depth: int) -> Turn:
        self.mapping(
            value,
            path,
            (
                "number",
                "player",
                "draws",
                "plant",
                "discard",
                "glyphs",
                "comments_before",
                "comments_after",
                "variations",
            ),
            ("player", "draws", "plant", "discard"),
        )
        number = value.get("number")
        if number is not None:
            number = self.integer(number, f"{path}.number", MAX_TURN_NUMBER_DIGITS)
            if number < 0:
                raise self.fail(f"{path}.number", "a turn number is not negative")
        draws = self.items(value["draws"], f"{path}.draws")
        if len(draws) != 2:
            raise self.fail(f"{path}.draws", f"a turn has two draws, not {len(draws)}")
        plant = self.mapping(value["plant"], f"{path}.plant", ("card", "x", "y"), ("card", "x", "y"))
        glyphs = tuple(
            self.text(g, f"{path}.glyphs[{i}]") for i, g in enumerate(self.items(value.get("glyphs"), f"{path}.glyphs"))
        )
        if len(glyphs) > MAX_GLYPHS:
            raise self.fail(f"{path}.glyphs", f"a turn has at most {MAX_GLYPHS} glyphs, found {len(glyphs)}")
        for i, glyph in enumerate(glyphs):
            if glyph not in GLYPHS and not _GLYPH_RE.match(glyph):
                raise self.fail(
                    f"{path}.glyphs[{i}]",
                    f"unknown glyph {glyph[:24]!r} (! ? !! ?? !? ?! or $n, n of at most {MAX_GLYPH_DIGITS} digits)",
                )
        listed = self.items(value.get("variations"), f"{path}.variations")
        if listed and depth >= MAX_VARIATION_DEPTH:
            raise self.fail(f"{path}.variations", f"variations nest deeper than {MAX_VARIATION_DEPTH} levels")
        variations = tuple(self.variation(v, f"{path}.variations[{i}]", depth + 1) for i, v in enumerate(listed))
        return Turn(
            player=self.name(value["player"], f"{path}.player"),
            draws=tuple(self.draw(d, f"{path}.draws[{i}]") for i, d in enumerate(draws)),
            plant=Plant(
                self.card(plant["card"], f"{path}.plant.card"),
                Coord(
                    self.integer(plant["x"], f"{path}.plant.x", MAX_COORDINATE_DIGITS),
                    self.integer(plant["y"], f"{path}.plant.y", MAX_COORDINATE_DIGITS),
                ),
            ),
            discard=self.card(value["discard"], f"{path}.discard"),
            number=number,
            glyphs=glyphs,
            comments_before=self.comments(value.get("comments_before"), f"{path}.comments_before"),
            comments_after=self.comments(value.get("comments_after"), f"{path}.comments_after"),
            variations=variations,
        )

    def variation(self, value: Any, path: str, depth: int) -> Variation:
        self.mapping(value, path, ("turns", "comments_before", "comments_after"), ("turns",))
        turns = self.items(value["turns"], f"{path}.turns")
        if not turns:
            raise self.fail(f"{path}.turns", "a variation holds at least one turn")
        return Variation(
            tuple(self.turn(t, f"{path}.turns[{i}]", depth) for i, t in enumerate(turns)),
            self.comments(value.get("comments_before"), f"{path}.comments_before"),
            self.comments(value.get("comments_after"), f"{path}.comments_after"),
        )

    def game(self, value: Any, path: str, index: int) -> GameRecord:
        self.mapping(value, path, ("header", "comments", "turns", "reveals", "result"), ("header",))
        header_data = value["header"]
        if not isinstance(header_data, dict):
            raise self.fail(f"{path}.header", f"expected a mapping, found {_kind(header_data)}")
        if deeper_than(header_data, HEADER_MAX_DEPTH):
            raise self.fail(f"{path}.header", f"the header nests lists and mappings more than {HEADER_MAX_DEPTH} deep")
        decoded = {
            k: (_decode(v, f"{path}.header.{k}", self.fail) if k not in PLAIN_DATA_KEYS else v)
            for k, v in header_data.items()
        }
        try:
            header = header_from_mapping(decoded)
        except HeaderFault as fault:
            raise self.fail(f"{path}.header" + (f".{fault.key}" if fault.key else ""), fault.message) from None
        reveals = []
        for i, item in enumerate(self.items(value.get("reveals"), f"{path}.reveals")):
            here = f"{path}.reveals[{i}]"
            self.mapping(item, here, ("player", "cards", "comments"), ("player", "cards"))
            reveals.append(
                Reveal(
                    self.name(item["player"], f"{here}.player"),
                    tuple(
                        self.card(c, f"{here}.cards[{j}]")
                        for j, c in enumerate(self.items(item["cards"], f"{here}.cards"))
                    ),
                    None,
                    self.comments(item.get("comments"), f"{here}.comments"),
                )
            )
        result = None
        if value.get("result") is not None:
            here = f"{path}.result"
            item = self.mapping(value["result"], here, ("scores", "unfinished", "comments"))
            unfinished = item.get("unfinished", False)
            if not isinstance(unfinished, bool):
                raise self.fail(f"{here}.unfinished", f"expected true or false, found {_kind(unfinished)}")
            scores = []
            for j, pair in enumerate(self.items(item.get("scores"), f"{here}.scores")):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise self.fail(f"{here}.scores[{j}]", "expected [name, score]")
                score = self.integer(pair[1], f"{here}.scores[{j}][1]", MAX_POINTS_DIGITS)
                if score < 0:
                    raise self.fail(f"{here}.scores[{j}][1]", "a score is not negative")
                scores.append((self.name(pair[0], f"{here}.scores[{j}][0]"), score))
            if unfinished and scores:
                raise self.fail(here, "an unfinished game has no scores")
            if not unfinished and not scores:
                raise self.fail(here, 'give the scores, or "unfinished": true')
            result = Result(tuple(scores), unfinished, None, self.comments(item.get("comments"), f"{here}.comments"))
        game = GameRecord(
            header=header,
            turns=tuple(
                self.turn(t, f"{path}.turns[{i}]", 0)
                for i, t in enumerate(self.items(value.get("turns"), f"{path}.turns"))
            ),
            comments=self.comments(value.get("comments"), f"{path}.comments"),
            reveals=tuple(reveals),
            result=result,
            file=self.file,
            index=index,
        )
        try:
            check_writable(game)
        except ArboError as exc:  # pragma: no cover - the checks above should have caught it
            raise self.fail(path, str(exc)) from None
        return game


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def game_from_data(data: Any, file: str = "<data>", index: int = 1) -> GameRecord:
    """Read one game from plain data (as game_to_data gives it); DataError names the fault."""
    return _Reader(file).game(data, "game", index)


def games_from_data(data: Any, file: str = "<data>") -> list[GameRecord]:
    """Read games from plain data: a file mapping with "games", a list of games, or one game."""
    reader = _Reader(file)
    if isinstance(data, dict) and "games" in data:
        reader.mapping(data, "", ("format", "version", "games"), ("games",))
        if data.get("format", FORMAT) != FORMAT:
            raise reader.fail("format", f"expected {FORMAT!r}, found {data.get('format')!r}")
        version = data.get("version", VERSION)
        if version != VERSION:
            raise reader.fail("version", f"this arbo reads version {VERSION}, found {version!r}")
        items = reader.items(data["games"], "games")
        return [reader.game(g, f"games[{i}]", i + 1) for i, g in enumerate(items)]
    if isinstance(data, list):
        return [reader.game(g, f"games[{i}]", i + 1) for i, g in enumerate(data)]
    if isinstance(data, dict) and "header" in data:
        return [reader.game(data, "game", 1)]
    raise reader.fail("", 'expected {"games": [...]}, a list of games or one game')


# ------------------------------------------------------------------------------------------------
# JSON and YAML text


def dumps_json(games: Iterable[GameRecord], indent: int | None = 2) -> str:
    """Games as JSON text (UTF-8 characters kept as they are)."""
    return json.dumps(games_to_data(games), indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def loads_json(text: str, file: str = "<json>") -> list[GameRecord]:
    """Games from JSON text. NotationError (with line and column) if it is not JSON; DataError if
    it is JSON but not a record (a key given twice in an object included)."""
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys(file))
    except json.JSONDecodeError as exc:
        lines = text.split("\n")
        source = lines[exc.lineno - 1] if 0 < exc.lineno <= len(lines) else None
        raise NotationError(
            f"not valid JSON: {exc.msg}", file=file, line=exc.lineno, column=exc.colno, source_line=source
        ) from None
    except RecursionError:
        raise NotationError("not valid JSON: nested too deeply", file=file) from None
    except ValueError as exc:  # a number of more digits than int() reads
        raise NotationError(f"not valid JSON: {exc}", file=file) from None
    if _SURROGATE_ESCAPE.search(text):
        _refuse_lone_surrogates(text, file)
    return games_from_data(data, file)


def _unique_keys(file: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """A JSON object hook refusing a key given twice: readers differ on which value they keep
    (Python's the last, others the first), so a record with one is not read at all."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(pairs)
        if len(found) != len(pairs):
            keys = [key for key, _ in pairs]
            twice = next(key for index, key in enumerate(keys) if key in keys[:index])
            raise DataError(
                f"the key '{visible(twice)}' appears twice in one JSON object (readers differ on "
                "which value they keep)",
                file=file,
            )
        return found

    return hook


#: A JSON escape of half a UTF-16 pair (``\ud800``): JSON reads it, but alone it is no character
#: and no UTF-8 text can hold it.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _refuse_lone_surrogates(text: str, file: str) -> None:
    """NotationError at the first escape of half a UTF-16 pair that has not its other half."""
    matches = list(_SURROGATE_ESCAPE.finditer(text))
    index = 0
    while index < len(matches):
        here = matches[index]
        high = here.group()[3].lower() in "89ab"
        following = matches[index + 1] if index + 1 < len(matches) else None
        if (
            high
            and following is not None
            and following.start() == here.end()
            and following.group()[3].lower() in "cdef"
        ):
            index += 2  # a pair: one character
            continue
        if _escaped_backslash(text, here.start()):
            index += 1  # '\\ud800': a backslash, then letters
            continue
        line = text.count("\n", 0, here.start()) + 1
        line_start = text.rfind("\n", 0, here.start()) + 1
        source = text[line_start:].split("\n", 1)[0]
        raise NotationError(
            f"not valid JSON text: {here.group()} is half of a UTF-16 pair, alone: no character",
            file=file,
            line=line,
            column=here.start() - line_start + 1,
            source_line=source,
        )


def _escaped_backslash(text: str, at: int) -> bool:
    """Whether the backslash at ``at`` is itself escaped (an odd run of backslashes before it)."""
    run = 0
    while at - run - 1 >= 0 and text[at - run - 1] == "\\":
        run += 1
    return run % 2 == 1


class _Dumper(yaml.SafeDumper):
    """Safe YAML that keeps long texts on one line and key order as given, without aliases."""

    def ignore_aliases(self, data: object) -> bool:
        return True


#: Line breaks besides LF that YAML folds into a space in a plain or single-quoted text, and that
#: its double-quoted style writes as escapes (\N, \L, \P): a text holding one is written so.
_FOLDED_BREAKS = re.compile("[\r\x85\u2028\u2029]")


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = '"' if _FOLDED_BREAKS.search(text) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _represent_text)


_END_MAPPING, _END_SEQUENCE = object(), object()


def _yaml_events(data: Any) -> Iterable[yaml.Event]:
    """The events yaml.dump would emit for plain data (block style, keys in order, no aliases),
    made without recursion: a record's variations nest some 400 lists and mappings deep, deeper
    than PyYAML's recursive representer and serializer can go."""
    scalars = _Dumper(None)  # type: ignore[arg-type]  # no stream: its representer and resolver, for scalars only
    yield yaml.StreamStartEvent()
    yield yaml.DocumentStartEvent(explicit=False)
    pending = [data]
    while pending:
        item = pending.pop()
        if item is _END_MAPPING:
            yield yaml.MappingEndEvent()
        elif item is _END_SEQUENCE:
            yield yaml.SequenceEndEvent()
        elif isinstance(item, dict):
            yield yaml.MappingStartEvent(None, None, True, flow_style=False)
            pending.append(_END_MAPPING)
            for key, value in reversed(item.items()):
                pending += [value, key]
        elif isinstance(item, list):
            yield yaml.SequenceStartEvent(None, None, True, flow_style=False)
            pending.append(_END_SEQUENCE)
            pending.extend(reversed(item))
        else:
            node = cast(yaml.ScalarNode, scalars.represent_data(item))  # a scalar's node: a ScalarNode
            implicit = (
                node.tag == scalars.resolve(yaml.ScalarNode, node.value, (True, False)),  # type: ignore[no-untyped-call]  # types-PyYAML leaves resolve untyped
                node.tag == scalars.resolve(yaml.ScalarNode, node.value, (False, True)),  # type: ignore[no-untyped-call]  # types-PyYAML leaves resolve untyped
            )
            yield yaml.ScalarEvent(None, node.tag, implicit, node.value, style=node.style)
    yield yaml.DocumentEndEvent(explicit=False)
    yield yaml.StreamEndEvent()


def dumps_yaml(games: Iterable[GameRecord]) -> str:
    """Games as YAML text (safe types only)."""
    text = yaml.emit(_yaml_events(games_to_data(games)), Dumper=_Dumper, allow_unicode=True, width=100)
    return cast(str, text)  # with no stream, emit returns the text (types-PyYAML says Any)


def loads_yaml(text: str, file: str = "<yaml>") -> list[GameRecord]:
    """Games from YAML text (safe loading only, no anchors or aliases). NotationError if it is not
    YAML; DataError if it is YAML but not a record."""
    try:
        data = load_yaml(text, what="a record", max_depth=RECORD_MAX_DEPTH)
    except YamlFault as fault:
        line = (fault.line or 0) + 1
        lines = text.split("\n")
        source = lines[line - 1] if 0 < line <= len(lines) else None
        raise NotationError(
            f"not valid YAML: {fault.message}", file=file, line=line, column=(fault.column or 0) + 1, source_line=source
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
        line = mark.line + 1 if mark is not None else 1
        column = mark.column + 1 if mark is not None else 1
        refused = refused_character(text) if isinstance(exc, yaml.reader.ReaderError) else None
        if refused is not None:  # the C reader counts bytes: find the character itself
            problem = f"the character U+{ord(text[refused]):04X} is not allowed"
            line = text.count("\n", 0, refused) + 1
            column = refused - (text.rfind("\n", 0, refused) + 1) + 1
        lines = text.split("\n")
        source = lines[line - 1] if 0 < line <= len(lines) else None
        raise NotationError(
            f"not valid YAML: {problem}", file=file, line=line, column=column, source_line=source
        ) from None
    return games_from_data(data, file)
