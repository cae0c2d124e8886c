"""The position format: what a table copies down at the end of a game, in YAML or JSON.

A position lists the species in play and, for each player, the trees with their cells and the
hand revealed at scoring::

    species: [Ca, Dw, Ja, Ma, Oa, Wi]
    players:
      - name: Ana
        trees: [[0, 0, Ma1], [1, 0, Wi3], [2, 0, Oa5], [3, 0, Ma8]]   # x, y, card
        hand: [Ja2, Oa6, Ca1, Ca4, Dw2, Wi7, Ma5]
      - name: Ben
        trees: [[0, 0, Oa2]]
        hand: [Ja1, Ja5]

A position taken before the end of the game (as `arbo state --turn N --json` writes one) says so
with ``game_over: false``; without the key a position is the end of a game.

This is the scoring's input: trees and hands, every hand known. The engine's position
(engine/position.py: a whole table, piles, deck and turn included, hidden cards as counts) is read
here too, as its line (``read_position``) and under the key ``position`` that `arbo state --json`
adds (which the scoring does not read, as it does not read the knowledge and the table's facts):
its trees and hands are scored, once every hand is known.

The reader checks everything a table could get wrong and raises one PositionError naming the
fault; the writers give the same shape back (trees sorted by x then y, hands in the given order).
YAML is read with the safe loader only, without anchors or aliases (notation/safeyaml.py).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from arbo_notation.engine.cards import Card, Coord, is_species_code
from arbo_notation.engine.scoring import PlayerPosition, ScoreSheet, score_position
from arbo_notation.engine.state import Game
from arbo_notation.errors import PositionError
from arbo_notation.engine.lexicon import MAX_COORDINATE_DIGITS, MAX_NAME_LENGTH, SPECIES


MAX_PLAYERS = 4

#: The PositionError of a fault of the position read, its message given.
Fault = Callable[[str], PositionError]
_CARDISH_RE = re.compile(rf"({SPECIES})([0-9]+)\Z")
_TOP_KEYS = ("species", "players")
# game_over false: taken before the end of the game; knowledge: what a point of view knows there;
# the table's facts of table_data (`arbo state --json` and the bot protocol's view write them,
# scoring does not read them)
_TABLE_KEYS = ("turn", "to_move", "phase", "draws_taken", "deck_size")
_OPTIONAL_TOP_KEYS = ("game_over", "knowledge", "position", *_TABLE_KEYS)
# hidden: unseen cards; discard: the pile, bottom first (`arbo state --json`; not scored)
_PLAYER_KEYS = ("name", "trees", "hand", "hidden", "discard")


@dataclass(frozen=True, slots=True)
class Position:
    """The end of a game as a table copies it down: the species in play and every player."""

    species: tuple[str, ...]
    players: tuple[PlayerPosition, ...]
    game_over: bool = True  # False: a position taken during the game, scored as if it ended there

    def score(self) -> ScoreSheet:
        """The score sheet of this position (rights, best paths, totals, winner)."""
        return score_position(self.species, self.players, game_over=self.game_over)

    def player(self, name: str) -> PlayerPosition:
        for player in self.players:
            if player.name == name:
                return player
        raise KeyError(name)


# -- reading -----------------------------------------------------------------------------------


def read_position(text: str, file: str = "<string>") -> Position:
    """Read a position written in YAML or JSON, or a position's line; PositionError with one clear
    message when it is bad."""
    if isinstance(text, str) and _looks_like_a_line(text):
        return position_from_line(text, file)
    data = _load(text, file)
    return position_from_data(data, file)


def _looks_like_a_line(text: str) -> bool:
    """Whether the text is a position's one line (its fields parted by '|'), not YAML or JSON."""
    line = text.strip(" \t\n\ufeff")
    return "|" in line and "\n" not in line and not _looks_like_json(line)


def position_from_line(text: str, file: str = "<string>") -> Position:
    """The trees and hands of a position's line (engine/position.py), for scoring: PositionError
    when it is no table of a game, or a hand holds cards nobody knows."""
    try:
        game = Game.from_position(text.strip(" \t\n\ufeff"))
    except PositionError as error:
        raise PositionError(error.message, file=file) from None
    hidden = game.hidden_players()
    if hidden:
        raise PositionError(
            f"the hands of {', '.join(hidden)} hold cards nobody knows: every hand must be known to score a position",
            file=file,
        )
    players = tuple(PlayerPosition(p, game.arboretum(p), game.hand(p).known) for p in game.players)
    return Position(game.config.species, players, game_over=game.is_over)


def _looks_like_json(text: str) -> bool:
    return text.lstrip().startswith(("{", "["))


#: How deep a position's lists and mappings may nest (a tree, [x, y, card], is the third level).
POSITION_MAX_DEPTH = 32


def _load(text: str, file: str) -> Any:
    if not isinstance(text, str):
        raise PositionError("a position is text (YAML or JSON)", file=file)
    text = text.lstrip("\ufeff")
    json_error: json.JSONDecodeError | None = None
    if _looks_like_json(text):
        try:
            data = json.loads(text, object_pairs_hook=_json_object(file))
        except json.JSONDecodeError as error:
            json_error = error  # JSON-looking but not JSON: YAML flow style may still read it
        except RecursionError:
            raise PositionError("the JSON is nested too deeply to be a position", file=file) from None
        except ValueError as error:  # a number of more digits than int() reads
            raise PositionError(f"the JSON cannot be read: {error}", file=file) from None
        else:
            # deferred: safeyaml loads PyYAML (~26 ms), which a JSON position does not need
            from arbo_notation.notation.safeyaml import deeper_than

            if deeper_than(data, POSITION_MAX_DEPTH):
                raise PositionError(
                    f"the JSON nests lists and mappings more than {POSITION_MAX_DEPTH} deep: it is not a position",
                    file=file,
                )
            return data
    import yaml  # only here: keep `arbo --help` fast

    # deferred: safeyaml loads PyYAML (~26 ms), imported with yaml just above
    from arbo_notation.notation.safeyaml import YamlFault, load_yaml

    try:
        return load_yaml(text, what="a position", max_depth=POSITION_MAX_DEPTH)
    except YamlFault as fault:
        if json_error is not None:
            raise PositionError(_json_message(json_error), file=file) from None
        where = f" at line {fault.line + 1}, column {(fault.column or 0) + 1}" if fault.line is not None else ""
        raise PositionError(f"malformed YAML{where}: {fault.message}", file=file) from None
    except yaml.MarkedYAMLError as error:
        if json_error is not None:
            raise PositionError(_json_message(json_error), file=file) from None
        raise PositionError(_yaml_message(error), file=file) from None
    except yaml.YAMLError as error:
        if json_error is not None:
            raise PositionError(_json_message(json_error), file=file) from None
        raise PositionError(_yaml_other_message(error, text), file=file) from None


def _json_object(file: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise PositionError(f"malformed JSON: the key {key!r} appears twice in one object", file=file)
            result[key] = value
        return result

    return hook


def _json_message(error: json.JSONDecodeError) -> str:
    return f"malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}"


def _yaml_message(error: Any) -> str:
    mark = error.problem_mark or error.context_mark
    problem = error.problem or error.context or "cannot be read"
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    context = f" ({error.context})" if error.context and error.problem else ""
    return f"malformed YAML{where}: {problem}{context}"


def _yaml_other_message(error: Any, text: str) -> str:
    """A YAML error without marks (the reader's): on one line, located when possible."""
    # deferred: safeyaml loads PyYAML (~26 ms), only for a position that fails to read
    from arbo_notation.notation.safeyaml import refused_character

    position = refused_character(text)  # the C reader's position counts bytes, not characters
    character = getattr(error, "character", None)
    if position is not None and character is not None:
        line = text.count("\n", 0, position) + 1
        column = position - (text.rfind("\n", 0, position) + 1) + 1
        shown = f"U+{ord(character):04X}" if isinstance(character, str) else f"#x{character:02x}"
        return f"malformed YAML at line {line}, column {column}: the character {shown} is not allowed"
    return "malformed YAML: " + " ".join(str(error).split())


def _describe(value: Any) -> str:
    """A value as the message shows it, with a hint when YAML read a bare word as something else."""
    if isinstance(value, bool) or value is None:
        word = {True: "true", False: "false", None: "null"}[value]
        return f"{word} (YAML reads bare words such as No, Yes, On, Off and null as {word}: quote them)"
    if isinstance(value, (dict, list)):
        flow = _flow(value)
        if len(flow) <= 40:
            return flow
        return f"a {'mapping' if isinstance(value, dict) else 'list'} of {len(value)} items"
    return repr(value) if isinstance(value, str) else str(value)


def _flow(value: Any) -> str:
    """Loaded data written back in YAML flow style, for messages: ``[0, Ma1]``, ``{name: Ana}``."""
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return str(value)


def position_from_data(data: Any, file: str = "<string>") -> Position:
    """Check loaded YAML/JSON data (dicts, lists, strings, ints) and build the Position it describes."""

    def fault(message: str) -> PositionError:
        return PositionError(message, file=file)

    if data is None:
        raise fault("the file is empty: a position needs 'species' and 'players'")
    if not isinstance(data, dict):
        raise fault(f"a position is a mapping with 'species' and 'players', not {_describe(data)}")
    for key in data:
        if key not in _TOP_KEYS + _OPTIONAL_TOP_KEYS:
            raise fault(f"unknown key {_describe(key)}: a position has only 'species', 'players' and 'game_over'")
    game_over = data.get("game_over", True)
    if not isinstance(game_over, bool):
        raise fault(f"'game_over' is true or false, not {_describe(game_over)}")
    for key in _TOP_KEYS:
        if key not in data:
            raise fault(f"missing '{key}': a position needs 'species' and 'players'")

    species = _read_species(data["species"], fault)
    raw_players = data["players"]
    if not isinstance(raw_players, list):
        raise fault(f"'players' must be a list of players, not {_describe(raw_players)}")
    if not 1 <= len(raw_players) <= MAX_PLAYERS:
        raise fault(f"a position has 1 to {MAX_PLAYERS} players, not {len(raw_players)}")

    seen_names: set[str] = set()
    seen_cards: dict[Card, str] = {}  # card -> where it was first found, in words
    players: list[PlayerPosition] = []
    for index, raw in enumerate(raw_players, start=1):
        if not isinstance(raw, dict):
            raise fault(f"player {index} must be a mapping with name, trees and hand, not {_describe(raw)}")
        name = _read_name(raw, index, fault)
        if name in seen_names:
            raise fault(f"two players are named {name!r}")
        seen_names.add(name)
        for key in raw:
            if key not in _PLAYER_KEYS:
                raise fault(f"{name} has an unknown key {_describe(key)}: a player has name, trees and hand")
        hidden = raw.get("hidden", 0)
        if hidden is None:
            hidden = 0
        if isinstance(hidden, bool) or not isinstance(hidden, int) or hidden < 0:
            raise fault(f"{name}'s hidden count must be a whole number of cards, not {_describe(hidden)}")
        if hidden:
            raise fault(
                f"{name}'s hand holds {hidden} unseen card(s) (hidden: {hidden}): "
                "every hand must be known to score a position"
            )
        for key in ("trees", "hand"):
            if key not in raw:
                empty = "trees: []" if key == "trees" else "hand: []"
                raise fault(f"{name} has no '{key}' (write {empty} when there is none)")

        arboretum = _read_trees(raw["trees"], name, species, seen_cards, fault)
        hand = _read_hand(raw["hand"], name, species, seen_cards, fault)
        players.append(PlayerPosition(name=name, arboretum=arboretum, hand=hand))
    return Position(species=species, players=tuple(players), game_over=game_over)


def _read_species(raw: Any, fault: Fault) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise fault(f"'species' must be a list of species codes such as [Ma, Oa], not {_describe(raw)}")
    if not raw:
        raise fault("'species' lists no species")
    codes: list[str] = []
    for index, code in enumerate(raw, start=1):
        if not isinstance(code, str):
            raise fault(f"species {index} is {_describe(code)}, not a species code such as Ma")
        if not is_species_code(code):
            raise fault(f"species {index} is {code!r}: a species code is 1 to 3 letters")
        if code in codes:
            raise fault(f"the species {code} is listed twice")
        codes.append(code)
    return tuple(codes)


def _read_name(raw: dict[str, Any], index: int, fault: Fault) -> str:
    if "name" not in raw:
        raise fault(f"player {index} has no 'name'")
    name = raw["name"]
    if isinstance(name, bool) or name is None:
        raise fault(f"player {index}'s name is {_describe(name)}")
    if not isinstance(name, str):
        raise fault(f"player {index}'s name is {_describe(name)}, not text: quote it ('{_flow(name)}')")
    name = name.strip()
    if not name:
        raise fault(f"player {index}'s name is empty")
    if len(name) > MAX_NAME_LENGTH:
        raise fault(f"player {index}'s name has {len(name)} characters: at most {MAX_NAME_LENGTH}")
    return name


def _read_card(raw: Any, species: tuple[str, ...], where: str, fault: Fault) -> Card:
    if not isinstance(raw, str):
        raise fault(f"{where}: expected a card such as Ma3, found {_describe(raw)}")
    text = raw.strip()
    match = _CARDISH_RE.match(text)
    if match is None:
        raise fault(f"{where}: expected a card such as Ma3, found {raw!r}")
    code, value = match.group(1), int(match.group(2))
    if not 1 <= value <= 8:
        raise fault(f"{where}: {text} is not a card: a card's value runs 1 to 8")
    if code not in species:
        same = [s for s in species if s.lower() == code.lower()]
        hint = f"; did you mean {same[0]}{value}?" if same else ""
        raise fault(f"{where}: {text} is not of a listed species ({', '.join(species)}){hint}")
    return Card(code, value)


def _claim(card: Card, where: str, seen_cards: dict[Card, str], fault: Fault) -> None:
    first = seen_cards.get(card)
    if first is not None:
        raise fault(f"{card} appears twice: {first} and {where}")
    seen_cards[card] = where


def _read_coordinate(raw: Any, axis: str, where: str, fault: Fault) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise fault(f"{where}: the {axis} coordinate must be an integer, not {_describe(raw)}")
    if not -(10**MAX_COORDINATE_DIGITS) < raw < 10**MAX_COORDINATE_DIGITS:
        largest = 10**MAX_COORDINATE_DIGITS - 1
        raise fault(
            f"{where}: the {axis} coordinate must be from -{largest} to {largest}, "
            f"not a number of {len(str(abs(raw)))} digits"
        )
    return raw


def _read_trees(
    raw: Any, name: str, species: tuple[str, ...], seen_cards: dict[Card, str], fault: Fault
) -> dict[Coord, Card]:
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise fault(f"{name}'s trees must be a list of [x, y, card] such as [[0, 0, Ma1]], not {_describe(raw)}")
    arboretum: dict[Coord, Card] = {}
    for index, tree in enumerate(raw, start=1):
        where = f"{name}'s tree {index}"
        if not isinstance(tree, list) or len(tree) != 3:
            raise fault(f"{where} must be [x, y, card] such as [0, 0, Ma1], not {_describe(tree)}")
        x = _read_coordinate(tree[0], "x", where, fault)
        y = _read_coordinate(tree[1], "y", where, fault)
        card = _read_card(tree[2], species, where, fault)
        coord = Coord(x, y)
        if coord in arboretum:
            raise fault(f"{name} has two trees at {coord}: {arboretum[coord]} and {card}")
        _claim(card, f"planted in {name}'s arboretum at {coord}", seen_cards, fault)
        arboretum[coord] = card
    _check_connected(arboretum, name, fault)
    return arboretum


def _check_connected(arboretum: Mapping[Coord, Card], name: str, fault: Fault) -> None:
    if not arboretum:
        return
    cells = sorted(arboretum)
    reached = {cells[0]}
    frontier = [cells[0]]
    while frontier:
        cell = frontier.pop()
        for n in cell.neighbours():
            if n in arboretum and n not in reached:
                reached.add(n)
                frontier.append(n)
    if len(reached) != len(arboretum):
        stray = next(c for c in cells if c not in reached)
        raise fault(
            f"{name}'s trees are not one orthogonally connected group: {arboretum[stray]} at {stray} "
            f"is cut off from {arboretum[cells[0]]} at {cells[0]}"
        )


def _read_hand(
    raw: Any, name: str, species: tuple[str, ...], seen_cards: dict[Card, str], fault: Fault
) -> tuple[Card, ...]:
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise fault(f"{name}'s hand must be a list of cards such as [Ja2, Oa6], not {_describe(raw)}")
    hand: list[Card] = []
    for index, item in enumerate(raw, start=1):
        card = _read_card(item, species, f"{name}'s hand (card {index})", fault)
        _claim(card, f"in {name}'s hand", seen_cards, fault)
        hand.append(card)
    return tuple(hand)


# -- writing -----------------------------------------------------------------------------------


def _sorted_trees(arboretum: Mapping[Coord, Card]) -> list[list[Any]]:
    return [[coord.x, coord.y, str(arboretum[coord])] for coord in sorted(arboretum, key=lambda c: (c.x, c.y))]


def position_to_data(position: Position) -> dict[str, Any]:
    """The position as JSON-able data, in the file format's shape ('game_over' only when false)."""
    data: dict[str, Any] = {
        "species": list(position.species),
        "players": [
            {
                "name": player.name,
                "trees": _sorted_trees(player.arboretum),
                "hand": [str(card) for card in player.hand],
            }
            for player in position.players
        ],
    }
    if not position.game_over:
        data["game_over"] = False
    return data


def add_table(data: dict[str, Any], game: Game) -> dict[str, Any]:
    """Add to a position's data (position_to_data's, of ``game``'s players) what the table shows
    besides: each player's discard pile (bottom first, the top last), the turn in progress (the
    last once the game is over), the player to move, the phase and the draws taken in it (None,
    None and 0 once over), the deck's size. Returns ``data``."""
    over = game.is_over
    for entry in data["players"]:
        entry["discard"] = [str(card) for card in game.discard_pile(entry["name"])]
    data["turn"] = game.turn_number
    data["to_move"] = None if over else game.current_player
    data["phase"] = None if over else game.phase.value
    data["draws_taken"] = 0 if over else game.draws_taken
    data["deck_size"] = game.deck_size
    return data


_PLAIN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_ .'-]*\Z")
_YAML_WIDTH = 100


def _yaml_scalar(text: str) -> str:
    """A string as a YAML scalar: bare when YAML reads it back unchanged, else double-quoted."""
    if _PLAIN_RE.match(text) and not text.endswith(" "):
        import yaml

        try:
            if yaml.safe_load(text) == text:
                return text
        except yaml.YAMLError:
            pass
    return _double_quoted(text)


def _double_quoted(text: str) -> str:
    """A YAML double-quoted scalar; characters that are not printable are escaped."""
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def _yaml_flow(items: list[str], lead: str) -> list[str]:
    """A flow sequence after ``lead``, wrapped to the width with continuation lines aligned."""
    if not items:
        return [f"{lead}[]"]
    indent = " " * (len(lead) + 1)
    lines: list[str] = []
    current = f"{lead}["
    for i, item in enumerate(items):
        piece = item + ("]" if i == len(items) - 1 else ",")
        if i == 0:
            current += piece
        elif len(current) + 1 + len(piece) > _YAML_WIDTH:
            lines.append(current)
            current = indent + piece
        else:
            current += " " + piece
    lines.append(current)
    return lines


def write_position_yaml(position: Position) -> str:
    """The position as YAML in the format's usual layout (flow lists for trees and hands)."""
    data = position_to_data(position)
    lines = _yaml_flow([_yaml_scalar(code) for code in data["species"]], "species: ")
    lines.append("players:")
    for player in data["players"]:
        lines.append(f"  - name: {_yaml_scalar(player['name'])}")
        trees = [f"[{x}, {y}, {_yaml_scalar(card)}]" for x, y, card in player["trees"]]
        lines += _yaml_flow(trees, "    trees: ")
        lines += _yaml_flow([_yaml_scalar(card) for card in player["hand"]], "    hand: ")
    if not position.game_over:
        lines.append("game_over: false")
    return "\n".join(lines) + "\n"


def write_position_json(position: Position) -> str:
    """The position as JSON: one line per list, two-space indentation."""
    data = position_to_data(position)
    dump = functools.partial(json.dumps, ensure_ascii=False)
    players = []
    for player in data["players"]:
        players.append(
            "    {\n"
            f'      "name": {dump(player["name"])},\n'
            f'      "trees": {dump(player["trees"])},\n'
            f'      "hand": {dump(player["hand"])}\n'
            "    }"
        )
    body = ",\n".join(players)
    players_text = f"[\n{body}\n  ]" if players else "[]"
    over = "" if position.game_over else ',\n  "game_over": false'
    return f'{{\n  "species": {dump(data["species"])},\n  "players": {players_text}{over}\n}}\n'
