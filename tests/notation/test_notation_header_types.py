"""The header's value types one by one: each checks, gives as data, writes and reads back its values."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings

from arbo_notation.engine.cards import Card
from arbo_notation.engine.position import Position
from arbo_notation.errors import HeaderFault
from arbo_notation.notation.header.keys import (
    CARD_LIST,
    CODE_LIST,
    CODE_MAP,
    HEADER_KEY_ROWS,
    ISO_DATE,
    NAME_LIST,
    OMIT,
    PLAYER_CARDS,
    PLAYER_REF,
    PLAYER_SCORES,
    POSITION_LINE,
    TEXT,
    NotWritten,
    ValueType,
)
from tests.notation.test_notation_header import written_headers

PLAYERS = ("Ana", "Ben")
SPECIES = ("Ca", "Li", "Ma", "Oa")


def read_back(value_type: ValueType[object], key: str, lines: list[str]) -> object:
    """What the quick reader makes of a key's written lines: a 'key: value' (wrapped lines joined
    with a space), or a 'key:' block of '  name: value' entries."""
    first, *more = lines
    if first != f"{key}:":
        return value_type.read(" ".join([first.removeprefix(f"{key}: "), *(line.lstrip(" ") for line in more)]))
    entries: list[tuple[str, str]] = []
    for line in more:
        if line.startswith("   "):  # a wrapped entry goes on
            name, text = entries[-1]
            entries[-1] = (name, f"{text} {line.lstrip(' ')}")
        else:
            name, _, text = line[2:].partition(": ")
            entries.append((name, text))
    return value_type.read_block(entries)


def round_trip(value_type: ValueType[object], key: str, data: object, among: tuple[str, ...] = ()) -> object:
    """The value checked from ``data``, written, read back; held to give the same data."""
    value = value_type.check(key, data, among)
    assert value_type.to_data(value) == data
    lines = value_type.write(key, value)
    assert read_back(value_type, key, lines) == value, lines
    return lines


def test_text_keeps_what_yaml_would_read_otherwise_as_text():
    assert round_trip(TEXT, "site", "The Greenhouse") == ["site: The Greenhouse"]
    assert round_trip(TEXT, "round", "010") == ['round: "010"']  # YAML 1.1 reads a bare 010 as 8
    assert TEXT.check("round", 3, ()) == "3"
    assert TEXT.to_data(None) is OMIT and TEXT.write("site", None) == []
    with pytest.raises(HeaderFault, match=r"^'event' must be text, found true \(YAML reads"):
        TEXT.check("event", True, ())


def test_an_iso_date_is_written_bare_and_read_as_written():
    assert round_trip(ISO_DATE, "date", "2026-11") == ["date: 2026-11"]
    assert ISO_DATE.check("date", dt.date(2026, 11, 29), ()) == "2026-11-29"
    assert ISO_DATE.check("date", 2026, ()) == "2026"
    assert ISO_DATE.read("2024-02-29") == "2024-02-29"
    with pytest.raises(NotWritten):
        ISO_DATE.read("2024-02-30")  # no day: the safe loader says so
    with pytest.raises(HeaderFault, match=r"^'date' must be an ISO date such as 2026-11-29, found '2024-02-30'$"):
        ISO_DATE.check("date", "2024-02-30", ())
    assert not ISO_DATE.plain_data and TEXT.plain_data


def test_names_and_codes_are_flow_lists_of_distinct_words_quoted_where_yaml_would_misread_them():
    assert round_trip(NAME_LIST, "players", ["Ana", "No"]) == ['players: [Ana, "No"]']
    assert round_trip(CODE_LIST, "species", ["Ca", "On"]) == ['species: [Ca, "On"]']
    with pytest.raises(HeaderFault, match=r"^'players' names Ana twice$"):
        NAME_LIST.check("players", ["Ana", "Ana"], ())
    with pytest.raises(HeaderFault, match=r"^'species' names no species$"):
        CODE_LIST.check("species", [], ())
    with pytest.raises(NotWritten):
        NAME_LIST.read("[Ana, Ana]")


def test_species_names_go_to_a_block_when_longer_than_a_line():
    assert round_trip(CODE_MAP, "names", {"Li": "Lilac"}, SPECIES) == ["names: {Li: Lilac}"]
    long = {"Ca": "Cassia " * 5, "Li": "Lilac of the " * 3}
    long = {code: name.strip() for code, name in long.items()}
    assert round_trip(CODE_MAP, "names", long, SPECIES) == ["names:", f"  Ca: {long['Ca']}", f"  Li: {long['Li']}"]
    assert CODE_MAP.to_data({}) is OMIT and CODE_MAP.refers_to == "species"
    with pytest.raises(HeaderFault, match=r"^'names': 'Wi' is not one of the species \(Ca, Li, Ma, Oa\)$"):
        CODE_MAP.check("names", {"Wi": "Willow"}, SPECIES)


def test_a_player_is_one_of_the_players():
    assert round_trip(PLAYER_REF, "perspective", "Ben", PLAYERS) == ["perspective: Ben"]
    assert list(PLAYER_REF.names_in("Ben")) == ["Ben"]
    with pytest.raises(HeaderFault, match=r"^'perspective' must be one of the players \(Ana, Ben\), found 'Cleo'$"):
        PLAYER_REF.check("perspective", "Cleo", PLAYERS)


def test_cards_are_their_codes_in_order():
    lines = round_trip(CARD_LIST, "deck", ["Ma3", "Oa5", "Wi7"])
    assert lines == ["deck: [Ma3, Oa5, Wi7]"]
    assert CARD_LIST.check("deck", ["Ma3"], ()) == (Card("Ma", 3),)
    with pytest.raises(HeaderFault, match=r"^'deck': expected a card such as Ma3, found 'Ma0'"):
        CARD_LIST.check("deck", ["Ma0"], ())
    wrapped = round_trip(CARD_LIST, "deck", ["Ma3"] * 30)
    # 'deck: [' and 14 cards make 76 columns, a 15th would pass 80; then '  ' and 15 cards, and one.
    assert wrapped == ["deck: [" + "Ma3, " * 13 + "Ma3,", "  " + "Ma3, " * 14 + "Ma3,", "  Ma3]"]


def test_a_players_cards_are_always_a_block():
    hands = {"Ana": ["Ja2", "Oa6"], "Ben": []}
    assert round_trip(PLAYER_CARDS, "hands", hands, PLAYERS) == ["hands:", "  Ana: [Ja2, Oa6]", "  Ben: []"]
    with pytest.raises(NotWritten):
        PLAYER_CARDS.read("{Ana: [Ja2, Oa6]}")
    assert sorted(PLAYER_CARDS.names_in({"Ben": (), "Ana": ()})) == ["Ana", "Ben"]
    with pytest.raises(HeaderFault, match=r"^'discards': 'Cleo' is not one of the players \(Ana, Ben\)$"):
        PLAYER_CARDS.check("discards", {"Cleo": ["Wi1"]}, PLAYERS)


def test_scores_are_whole_numbers_of_the_players():
    assert round_trip(PLAYER_SCORES, "result", {"Ana": 24, "Ben": 0}, PLAYERS) == ["result: {Ana: 24, Ben: 0}"]
    assert PLAYER_SCORES.read_block([("Ana", "24")]) == {"Ana": 24}
    assert PLAYER_SCORES.to_data({}) == {} and PLAYER_SCORES.to_data(None) is OMIT
    with pytest.raises(HeaderFault, match=r"^'result': Ana's score must be a whole number, found '-1'$"):
        PLAYER_SCORES.check("result", {"Ana": -1}, PLAYERS)
    with pytest.raises(NotWritten):
        PLAYER_SCORES.read("{Ana: 024}")  # YAML 1.1 reads 024 as 20


def test_a_position_is_its_line_in_double_quotes():
    line = "Ca Li | Ana: Ca1@0,0 / Li1 / +Ca2 ?6 | Ben: - / - / ?7 | deck 8 | 2. Ben draw1"
    assert round_trip(POSITION_LINE, "position", line) == [f'position: "{line}"']
    assert POSITION_LINE.check("position", line, ()) == Position.parse(line)
    assert POSITION_LINE.read("'" + line + "'") == Position.parse(line)  # as the safe loader reads it too
    assert POSITION_LINE.check("position", None, ()) is None and POSITION_LINE.to_data(None) is OMIT
    assert POSITION_LINE.write("position", None) == []
    with pytest.raises(HeaderFault, match=r"^'position' must be a position's line in quotes, found a list$"):
        POSITION_LINE.check("position", ["Ca"], ())
    with pytest.raises(HeaderFault, match=r"^'position': Ben's field has three parts, trees / pile / hand"):
        POSITION_LINE.check("position", line.replace("Ben: - / - / ?7", "Ben: - / ?7"), ())
    for written in (line, '"' + line.replace("deck 8", "deck 2 Li2") + '"', "[Ca]"):
        with pytest.raises(NotWritten):  # unquoted, a fault, not a text: for the safe loader to read or refuse
            POSITION_LINE.read(written)


def test_each_row_names_its_type_and_the_types_read_only_their_own_form():
    assert [row.kind for row in HEADER_KEY_ROWS] == [
        "text",
        "text",
        "ISO date",
        "text",
        "text",
        "list of names",
        "list of codes",
        "code → text",
        "a player",
        "list of cards",
        "player → cards",
        "player → cards",
        "position",
        "player → score",
    ]
    for value_type in (TEXT, ISO_DATE, NAME_LIST, CODE_LIST, PLAYER_REF, CARD_LIST, POSITION_LINE):
        with pytest.raises(NotWritten):
            value_type.read_block([("Ana", "1")])


@settings(max_examples=150, deadline=None)
@given(written_headers())
def test_every_key_of_any_header_round_trips_through_its_type(header):
    for row in HEADER_KEY_ROWS:
        value = getattr(header, row.name)
        value_type = row.value_type
        among = getattr(header, value_type.refers_to) if value_type.refers_to else ()
        data = value_type.to_data(value)
        if data is OMIT:
            assert value_type.write(row.name, value) == []
            continue
        assert value_type.check(row.name, data, among) == value
        lines = value_type.write(row.name, value)
        try:
            assert read_back(value_type, row.name, lines) == value, lines
        except NotWritten:
            # Only free text may be in a form the quick reader leaves to the safe loader.
            assert row.kind in ("text", "code → text"), lines
