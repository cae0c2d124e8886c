"""The position format: reading YAML and JSON, every fault named, and writing it back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.scoring import PlayerPosition
from arbo_notation.errors import ArboError, PositionError
from arbo_notation.notation.structured.position import (
    Position,
    position_to_data,
    read_position,
    write_position_json,
    write_position_yaml,
)

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "positions"

EXAMPLE = """\
species: [Ca, Dw, Ja, Ma, Oa, Wi]
players:
  - name: Ana
    trees: [[0, 0, Ma1], [1, 0, Wi3], [2, 0, Oa5], [3, 0, Ma8]]   # x, y, card
    hand: [Ja2, Oa6, Ca1, Ca4, Dw2, Wi7, Ma5]
  - name: Ben
    trees: [[0, 0, Oa2]]
    hand: [Ja1, Ja5]
"""


def test_reads_the_example():
    position = read_position(EXAMPLE, "example.yaml")
    assert position.species == ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi")
    ana, ben = position.players
    assert ana.name == "Ana" and ben.name == "Ben"
    assert ana.arboretum == {
        Coord(0, 0): Card("Ma", 1),
        Coord(1, 0): Card("Wi", 3),
        Coord(2, 0): Card("Oa", 5),
        Coord(3, 0): Card("Ma", 8),
    }
    assert [str(c) for c in ana.hand] == ["Ja2", "Oa6", "Ca1", "Ca4", "Dw2", "Wi7", "Ma5"]
    assert ben.arboretum == {Coord(0, 0): Card("Oa", 2)} and len(ben.hand) == 2
    assert isinstance(ana, PlayerPosition)
    assert position.player("Ben") is ben


def test_position_to_data_has_the_files_shape_with_trees_sorted_by_x_then_y():
    position = read_position(
        "species: [Ma, Oa]\nplayers:\n  - name: Ana\n"
        "    trees: [[1, 0, Oa5], [0, 1, Ma2], [0, 0, Ma1], [1, -1, Oa7]]\n    hand: [Oa2, Ma8]\n"
    )
    assert position_to_data(position) == {
        "species": ["Ma", "Oa"],
        "players": [
            {
                "name": "Ana",
                "trees": [[0, 0, "Ma1"], [0, 1, "Ma2"], [1, -1, "Oa7"], [1, 0, "Oa5"]],
                "hand": ["Oa2", "Ma8"],
            }
        ],
    }


def test_writers_give_the_usual_layout():
    position = read_position(EXAMPLE)
    assert write_position_yaml(position) == (
        "species: [Ca, Dw, Ja, Ma, Oa, Wi]\n"
        "players:\n"
        "  - name: Ana\n"
        "    trees: [[0, 0, Ma1], [1, 0, Wi3], [2, 0, Oa5], [3, 0, Ma8]]\n"
        "    hand: [Ja2, Oa6, Ca1, Ca4, Dw2, Wi7, Ma5]\n"
        "  - name: Ben\n"
        "    trees: [[0, 0, Oa2]]\n"
        "    hand: [Ja1, Ja5]\n"
    )
    assert write_position_json(position) == (
        "{\n"
        '  "species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"],\n'
        '  "players": [\n'
        "    {\n"
        '      "name": "Ana",\n'
        '      "trees": [[0, 0, "Ma1"], [1, 0, "Wi3"], [2, 0, "Oa5"], [3, 0, "Ma8"]],\n'
        '      "hand": ["Ja2", "Oa6", "Ca1", "Ca4", "Dw2", "Wi7", "Ma5"]\n'
        "    },\n"
        "    {\n"
        '      "name": "Ben",\n'
        '      "trees": [[0, 0, "Oa2"]],\n'
        '      "hand": ["Ja1", "Ja5"]\n'
        "    }\n"
        "  ]\n"
        "}\n"
    )


def test_reads_json_and_yaml_flow_style_alike():
    position = read_position(EXAMPLE)
    as_json = json.dumps(position_to_data(position))
    assert read_position(as_json, "p.json") == position
    flow = (
        "{species: [Ca, Dw, Ja, Ma, Oa, Wi], players: [{name: Ana, trees: [[0, 0, Ma1], [1, 0, Wi3], "
        "[2, 0, Oa5], [3, 0, Ma8]], hand: [Ja2, Oa6, Ca1, Ca4, Dw2, Wi7, Ma5]}, {name: Ben, "
        "trees: [[0, 0, Oa2]], hand: [Ja1, Ja5]}]}"
    )
    assert read_position(flow) == position


def test_hidden_zero_is_accepted():
    # `arbo state --json` writes a player's unseen cards as `hidden: N`; none is no fault.
    assert read_position(position_with() + "    hidden: 0\n") == read_position(position_with())


def test_bom_comments_and_empty_lists():
    text = "\ufeff# copied at the club\nspecies: [Ma]\nplayers:\n  - name: Ana\n    trees: []\n    hand: []\n"
    position = read_position(text)
    assert position.players[0].arboretum == {} and position.players[0].hand == ()


def test_trees_may_be_shifted_away_from_0_0_and_hands_any_size():
    text = (
        "species: [Ma, Oa]\nplayers:\n  - name: Ana\n    trees: [[5, 5, Ma1], [5, 6, Ma2], [4, 6, Oa3]]\n"
        "    hand: [Ma3, Ma4, Ma5, Ma6, Ma7, Ma8, Oa1, Oa2, Oa4]\n"
    )
    position = read_position(text)
    assert Coord(0, 0) not in position.players[0].arboretum
    assert len(position.players[0].hand) == 9


def test_one_to_four_players_any_species_codes():
    text = "species: [A, Bcd]\nplayers:\n  - name: Solo\n    trees: [[0, 0, A1], [0, 1, Bcd2]]\n    hand: []\n"
    position = read_position(text)
    assert position.species == ("A", "Bcd")
    assert position.score().totals() == {"Solo": 0}


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir()))
def test_samples_round_trip(name):
    position = read_position((SAMPLES / name).read_text(encoding="utf-8"), name)
    assert read_position(write_position_yaml(position)) == position
    assert read_position(write_position_json(position)) == position
    assert json.loads(write_position_json(position)) == position_to_data(position)
    assert yaml.safe_load(write_position_yaml(position)) == position_to_data(position)


# -- faults --------------------------------------------------------------------------------------------

PLAYER = "  - name: Ana\n    trees: [[0, 0, Ma1]]\n    hand: []\n"


def position_with(trees: str = "[[0, 0, Ma1]]", hand: str = "[]", species: str = "[Ma, Oa]") -> str:
    return f"species: {species}\nplayers:\n  - name: Ana\n    trees: {trees}\n    hand: {hand}\n"


FAULTS = [
    # malformed YAML and JSON, located
    ("species: [Ma, Oa\nplayers: []\n", "malformed YAML at line 2, column 8"),
    ("species: [Ma]\nplayers:\n  - name: Ana\n   trees: []\n", "malformed YAML at line 4, column 4"),
    ("species: [Ma]\nplayers:\n\t- name: Ana\n", "malformed YAML at line 3, column 1"),
    ("species: [Ma]\n  \x07\n", "malformed YAML at line 2, column 3: the character #x07 is not allowed"),
    ('{"species": ["Ma"], "players": [}', "malformed JSON at line 1, column 33: Expecting value"),
    (
        '{"species": ["Ma"],\n "players": [\n  {"name": "Ana" "trees": []}]}',
        "malformed JSON at line 3, column 18: Expecting ',' delimiter",
    ),
    ('{"species": ["Ma"], "species": ["Oa"], "players": []}', "the key 'species' appears twice"),
    ("[" * 3000, "nested too deeply"),
    # not a position
    ("", "the file is empty"),
    ("# only a comment\n", "the file is empty"),
    ("- Ana\n- Ben\n", "a position is a mapping with 'species' and 'players', not [Ana, Ben]"),
    ("hello\n", "a position is a mapping with 'species' and 'players', not 'hello'"),
    ("players:\n" + PLAYER, "missing 'species'"),
    ("species: [Ma]\n", "missing 'players'"),
    ("species: [Ma]\nplayer: []\n", "unknown key 'player'"),
    # species
    ("species: Ma\nplayers: []\n", "'species' must be a list of species codes"),
    ("species: []\nplayers: []\n", "'species' lists no species"),
    ("species: [Ma, Oa, Ma]\nplayers: []\n", "the species Ma is listed twice"),
    ("species: [Maple]\nplayers: []\n", "species 1 is 'Maple': a species code is 1 to 3 letters"),
    ("species: [Ma, No]\nplayers: []\n", "species 2 is false (YAML reads bare words such as No"),
    # players
    ("species: [Ma]\nplayers: []\n", "a position has 1 to 4 players, not 0"),
    (
        "species: [Ma]\nplayers:\n" + "".join(f"  - {{name: P{i}, trees: [], hand: []}}\n" for i in range(5)),
        "a position has 1 to 4 players, not 5",
    ),
    ("species: [Ma]\nplayers: Ana\n", "'players' must be a list of players"),
    ("species: [Ma]\nplayers: [Ana]\n", "player 1 must be a mapping with name, trees and hand, not 'Ana'"),
    ("species: [Ma]\nplayers:\n  - trees: []\n    hand: []\n", "player 1 has no 'name'"),
    ("species: [Ma]\nplayers:\n  - name: 42\n    trees: []\n    hand: []\n", "player 1's name is 42, not text"),
    ("species: [Ma]\nplayers:\n  - name: ''\n    trees: []\n    hand: []\n", "player 1's name is empty"),
    ("species: [Ma]\nplayers:\n" + PLAYER + PLAYER.replace("Ma1", "Ma2"), "two players are named 'Ana'"),
    ("species: [Ma]\nplayers:\n  - name: Ana\n    trees: []\n", "Ana has no 'hand' (write hand: []"),
    ("species: [Ma]\nplayers:\n  - name: Ana\n    hand: []\n", "Ana has no 'trees' (write trees: []"),
    (position_with().replace("hand:", "hands:"), "Ana has an unknown key 'hands'"),
    (position_with() + "    hidden: 3\n", "Ana's hand holds 3 unseen card(s) (hidden: 3): every hand must be known"),
    (position_with() + "    hidden: many\n", "Ana's hidden count must be a whole number of cards, not 'many'"),
    # cards
    (position_with(trees="[[0, 0, Ja1]]"), "Ana's tree 1: Ja1 is not of a listed species (Ma, Oa)"),
    (position_with(hand="[Ma2, Wi4]"), "Ana's hand (card 2): Wi4 is not of a listed species (Ma, Oa)"),
    (position_with(hand="[ma2]"), "ma2 is not of a listed species (Ma, Oa); did you mean Ma2?"),
    (position_with(trees="[[0, 0, Ma9]]"), "Ana's tree 1: Ma9 is not a card: a card's value runs 1 to 8"),
    (position_with(hand="[Oa0]"), "Ana's hand (card 1): Oa0 is not a card: a card's value runs 1 to 8"),
    (position_with(hand="[Maple]"), "Ana's hand (card 1): expected a card such as Ma3, found 'Maple'"),
    (position_with(hand="[5]"), "Ana's hand (card 1): expected a card such as Ma3, found 5"),
    (position_with(hand="Ma2 Ma3"), "Ana's hand must be a list of cards such as [Ja2, Oa6], not 'Ma2 Ma3'"),
    # trees
    (position_with(trees="[[0, Ma1]]"), "Ana's tree 1 must be [x, y, card] such as [0, 0, Ma1], not [0, Ma1]"),
    (position_with(trees="[Ma1]"), "Ana's tree 1 must be [x, y, card]"),
    (position_with(trees="[[0.5, 0, Ma1]]"), "Ana's tree 1: the x coordinate must be an integer, not 0.5"),
    (position_with(trees="[[0, '1', Ma1]]"), "Ana's tree 1: the y coordinate must be an integer, not '1'"),
    (position_with(trees="[[true, 0, Ma1]]"), "the x coordinate must be an integer, not true"),
    (position_with(trees="[[0, 0, Ma1], [0, 0, Ma2]]"), "Ana has two trees at 0,0: Ma1 and Ma2"),
    (
        position_with(trees="[[0, 0, Ma1], [1, 1, Ma2]]"),
        "Ana's trees are not one orthogonally connected group: Ma2 at 1,1 is cut off from Ma1 at 0,0",
    ),
    (
        position_with(trees="[[0, 0, Ma1], [1, 0, Ma2], [3, 0, Oa4], [4, 0, Oa5]]"),
        "Oa4 at 3,0 is cut off from Ma1 at 0,0",
    ),
    # a card twice
    (
        position_with(trees="[[0, 0, Ma1], [1, 0, Ma1]]"),
        "Ma1 appears twice: planted in Ana's arboretum at 0,0 and planted in Ana's arboretum at 1,0",
    ),
    (position_with(hand="[Ma1]"), "Ma1 appears twice: planted in Ana's arboretum at 0,0 and in Ana's hand"),
    (position_with(hand="[Oa2, Oa2]"), "Oa2 appears twice: in Ana's hand and in Ana's hand"),
    (
        "species: [Ma]\nplayers:\n" + PLAYER + "  - name: Ben\n    trees: [[0, 0, Ma1]]\n    hand: []\n",
        "Ma1 appears twice: planted in Ana's arboretum at 0,0 and planted in Ben's arboretum at 0,0",
    ),
    (
        "species: [Ma]\nplayers:\n  - {name: Ana, trees: [], hand: [Ma3]}\n  - {name: Ben, trees: [], hand: [Ma3]}\n",
        "Ma3 appears twice: in Ana's hand and in Ben's hand",
    ),
]


@pytest.mark.parametrize("text, fragment", FAULTS)
def test_faults_are_named_in_one_message(text, fragment):
    with pytest.raises(PositionError) as caught:
        read_position(text, "pos.yaml")
    error = caught.value
    assert fragment in error.message
    assert error.file == "pos.yaml"
    assert str(error) == f"pos.yaml: {error.message}"
    assert "\n" not in str(error)


def test_position_error_is_an_arbo_error():
    assert issubclass(PositionError, ArboError)


def test_json_faults_in_a_json_file():
    text = json.dumps(
        {"species": ["Ma"], "players": [{"name": "Ana", "trees": [[0, 0, "Ma1"], [0, 0, "Ma2"]], "hand": []}]}
    )
    with pytest.raises(PositionError, match="Ana has two trees at 0,0: Ma1 and Ma2"):
        read_position(text, "p.json")
    with pytest.raises(PositionError, match="the x coordinate must be an integer, not 1.0"):
        read_position(text.replace('[0, 0, "Ma2"]', '[1.0, 0, "Ma2"]'), "p.json")


# -- round trip of any position ---------------------------------------------------------------------

CODES = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", min_size=1, max_size=3)
NAMES = (
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)
    .map(str.strip)
    .filter(bool)
)


def _neighbours(cell):
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


@st.composite
def positions(draw):
    species = draw(st.lists(CODES, min_size=1, max_size=10, unique=True))
    deck = [Card(code, value) for code in species for value in range(1, 9)]
    deck = draw(st.permutations(deck))
    names = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
    players = []
    for name in names:
        size = draw(st.integers(0, min(12, len(deck))))
        origin = (draw(st.integers(-3, 3)), draw(st.integers(-3, 3)))
        cells = [origin] if size else []
        while len(cells) < size:
            frontier = sorted({n for c in cells for n in _neighbours(c)} - set(cells))
            cells.append(frontier[draw(st.integers(0, len(frontier) - 1))])
        trees = {Coord(x, y): deck.pop() for x, y in cells}
        hand = tuple(deck.pop() for _ in range(draw(st.integers(0, min(8, len(deck))))))
        players.append(PlayerPosition(name, trees, hand))
    return Position(tuple(species), tuple(players), game_over=draw(st.booleans()))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(positions())
def test_any_position_round_trips_through_yaml_and_json(position):
    yaml_text = write_position_yaml(position)
    json_text = write_position_json(position)
    assert read_position(yaml_text, "p.yaml") == position
    assert read_position(json_text, "p.json") == position
    assert json.loads(json_text) == position_to_data(position)
    assert all(len(line) <= 100 for line in yaml_text.splitlines() if "name:" not in line)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_a_position_or_a_position_error(text):
    try:
        read_position(text, "fuzz")
    except PositionError as error:
        assert "\n" not in str(error)


def test_a_position_s_line_gives_its_trees_and_hands_to_score():
    line = (
        "Ca Dw | Ana: Ca1@0,0 Ca2@1,0 / Dw1 / Ca3 Dw2 Dw3 Dw4 Dw5 Dw6 Dw7 | Ben: Ca8@0,0 / - / Ca4 Ca5 Ca6 Ca7 Dw8 "
        "+Ca2 | deck 0 | 2. Ben over"
    )
    with pytest.raises(PositionError, match="Ca2 in Ben's hand is placed twice in the position"):
        read_position(line)
    line = line.replace(" +Ca2", " +Ca1").replace("Ca1@0,0 Ca2@1,0", "Ca2@0,0")
    position = read_position(f"  {line}\n", "end.txt")
    assert position.species == ("Ca", "Dw") and position.game_over
    assert position.player("Ana") == PlayerPosition(
        "Ana", {Coord(0, 0): Card("Ca", 2)}, tuple(map(Card.parse, "Ca3 Dw2 Dw3 Dw4 Dw5 Dw6 Dw7".split()))
    )
    assert position.player("Ben").hand == tuple(map(Card.parse, "Ca1 Ca4 Ca5 Ca6 Ca7 Dw8".split()))
    assert position.score().totals() == {"Ana": 0, "Ben": 0}
    with pytest.raises(PositionError, match=r"^end.txt: the hands of Ana hold cards nobody knows"):
        read_position(line.replace("Ca3 Dw2 Dw3 Dw4 Dw5 Dw6 Dw7", "Ca3 ?6"), "end.txt")
