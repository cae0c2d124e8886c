"""The header's table of keys, and its quick reader of the writer's own form: the same Header as the
general path (the safe loader, then the table's checks), or None."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.notation.test_notation_header import written_headers, yaml_headers

from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError
from arbo_notation.notation import Header, format_header
from arbo_notation.notation.header.read import load_header_yaml
from arbo_notation.notation.header.keys import header_from_mapping, read_written_header
from arbo_notation.notation.model import Pos

AT = Pos(1, 1)
DEALT = (
    "players: [Ana, Ben]\nspecies: [Ca, Dw]\ndeck: [Ca1, Ca2, Ca3, Ca4, Ca5, Ca6, Ca7, Ca8, Dw1, Dw2, Dw3,\n"
    "  Dw4, Dw5]\nhands:\n  Ana: [Dw6, Dw7]\n  Ben: [Dw8,\n    Ca8]\nperspective: Ben\n"
    "result: {Ana: 24, Ben: 0}\nevent: Club night 3\ndate: 2026-03-04\n"
)


def general(text: str) -> Header | None:
    """The Header the general path (the safe loader, then header_from_mapping) reads, or None on a fault."""
    try:
        return header_from_mapping(load_header_yaml(text), AT)
    except (ArboError, ValueError, TypeError, yaml.YAMLError):
        return None


def assert_same_as_general(text: str) -> None:
    written = read_written_header(text, AT)
    if written is not None:
        assert written == general(text), text
        assert written.pos == AT


def test_a_dealt_header_is_read_whole():
    cards = [Card("Ca", v) for v in range(1, 9)] + [Card("Dw", v) for v in range(1, 6)]
    assert read_written_header(DEALT, AT) == Header(
        players=("Ana", "Ben"),
        species=("Ca", "Dw"),
        deck=tuple(cards),
        hands={"Ana": (Card("Dw", 6), Card("Dw", 7)), "Ben": (Card("Dw", 8), Card("Ca", 8))},
        perspective="Ben",
        result={"Ana": 24, "Ben": 0},
        event="Club night 3",
        date="2026-03-04",
    )
    assert_same_as_general(DEALT)


@pytest.mark.parametrize(
    "text",
    [
        "players: [Ana, No]\nspecies: [Ca]",  # YAML reads No as false
        "players: [Ana, Ana]\nspecies: [Ca]",
        "players: []\nspecies: [Ca]",
        "players: [Ana]\nspecies: [On]",
        "players: [Ana]\nspecies: [Ca]\nperspective: Zed",
        "players: [Ana]\nspecies: [Ca]\nplayers: [Ana]",
        "players: [Ana]\nspecies: [Ca]\nhands:\n  Ben: [Ca1]",
        "players: [Ana]\nspecies: [Ca]\nhands:\n  Ana: [Ca1]\n  Ana: [Ca2]",
        "players: [Ana]\nspecies: [Ca]\nhands:\n  Ana: [Ca1,\n  Ca2]",  # not indented deeper than its key
        "players: [Ana]\nspecies: [Ca]\nhands:",
        "players: [Ana]\nspecies: [Ca]\ndeck: [Ca1,\nCa2]",
        "players: [Ana]\nspecies: [Ca]\ndeck: [Ca1\n  , Ca2]",
        "players: [Ana]\nspecies: [Ca]\ndeck: [Ca1] # top",
        "players: [Ana]\nspecies: [Ca]\ndeck: [Ca9]",
        "players: [Ana]\nspecies: [Ca]\ndeck:",
        "players: [Ana]\nspecies: [Ca]\ndate: 2026-02-30",
        "players: [Ana]\nspecies: [Ca]\nresult: {Ana: 010}",
        "players: [Ana]\nspecies: [Ca]\nresult: {Ana: 1, Ana: 2}",
        "players: [Ana]\nspecies: [Ca]\nnames: {Dw: Dwarf}",  # not a species in play
        "players: [Ana]\nspecies: [Ca]\nnames: {Ca: Cassia, Ca: Cedar}",
        "players: [Ana]\nspecies: [Ca]\nnames: {Ca: [Cassia]}",
        "players: [Ana]\nspecies: [Ca]\nzeta: [1, [2]]",
        "players: [Ana]\nspecies: [Ca]\nyes: 1",  # the key True
        "players: [Ana]\nspecies: [Ca]\nzeta: 1\nzeta: 2",
        "players: [Ana]\nspecies: [Ca]\nzeta:\n  x: 1",
        "players: [Ana]\nspecies: [Ca]\nzeta: 1.5",
        "players: [Ana]",
        "players:\t[Ana]\nspecies: [Ca]",
        "players: [d]\nspecies: [Ca]",
    ],
)
def test_anything_else_is_left_to_the_general_path(text):
    assert read_written_header(text, AT) is None


def test_names_dates_and_unknown_keys_of_one_line_are_read_too():
    text = (
        "players: [Ana]\nspecies: [Ca, Dw]\nnames: {Ca: Cassia, Dw: 'Dogwood: tall'}\ndate: 2026-11\n"
        "zeta: 1\nseen: [1, a, null]\nwhen: 2026-01-02\nnote: 'a: b'\nflag: true\n"
    )
    assert read_written_header(text, AT) == Header(
        players=("Ana",),
        species=("Ca", "Dw"),
        names={"Ca": "Cassia", "Dw": "Dogwood: tall"},
        date="2026-11",
        extra={"zeta": 1, "seen": [1, "a", None], "when": dt.date(2026, 1, 2), "note": "a: b", "flag": True},
    )
    assert_same_as_general(text)
    long = "players: [Ana, Ben]\nspecies: [Ca]\nnames:\n  Ca: " + "C" * 80 + "\nresult:\n  Ana: 1\n  Ben: 0\n"
    assert read_written_header(long, AT) == Header(
        players=("Ana", "Ben"), species=("Ca",), names={"Ca": "C" * 80}, result={"Ana": 1, "Ben": 0}
    )
    assert_same_as_general(long)


def test_the_words_the_writer_quotes_are_read_too():
    text = (
        'players: [Ana, "No"]\nspecies: ["On", Ca]\nperspective: "No"\nhands:\n  "No": [Ca1]\n'
        'result: {Ana: 1, "No": 0}\n'
    )
    assert read_written_header(text, AT) == Header(
        players=("Ana", "No"),
        species=("On", "Ca"),
        perspective="No",
        hands={"No": (Card("Ca", 1),)},
        result={"Ana": 1, "No": 0},
    )
    assert_same_as_general(text)
    for wrong in (
        'players: [Ana, "d"]\nspecies: [Ca]',
        'players: [Ana, "A b"]\nspecies: [Ca]',
        'players: [Ana, "Ana"]\nspecies: [Ca]',
        'players: [Ana, "An]\nspecies: [Ca]',
        'players: [Ana, "No", Ben]\nspecies: [Ca]\nresult: {"No": 1, No: 2}',
    ):
        assert read_written_header(wrong, AT) is None, wrong


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(written_headers())
def test_it_reads_what_the_writer_writes_as_the_general_path_does(header):
    text = format_header(header).removeprefix("---\n").removesuffix("---\n")
    assert_same_as_general(text)
    if "alpha" not in header.extra and not any(mark in text for mark in ("\t", "\r", "\x85", "\u2028", "\u2029")):
        assert read_written_header(text, AT) == header, text


def test_the_table_is_the_notations_keys_in_canonical_order_and_the_docs_list_each_row():
    from pathlib import Path

    from arbo_notation.notation.header.keys import CHECK_ORDER, HEADER_KEY_ROWS, HEADER_KEYS

    assert HEADER_KEYS == tuple(row.name for row in HEADER_KEY_ROWS)
    assert set(HEADER_KEYS) == set(Header.__dataclass_fields__) - {"extra", "pos"}
    assert [row.name for row in CHECK_ORDER] == [
        "players",
        "species",
        "event",
        "site",
        "round",
        "annotator",
        "date",
        "names",
        "perspective",
        "deck",
        "hands",
        "discards",
        "position",
        "result",
    ]
    notation = (Path(__file__).resolve().parents[2] / "docs" / "NOTATION.md").read_text(encoding="utf-8")
    for row in HEADER_KEY_ROWS:
        required = "**yes**" if row.required else "no"
        example = row.example.replace("|", "\\|")  # (a table's cell writes its bars escaped)
        assert f"| `{row.name}` | {row.kind} | {required} | {row.meaning} | `{example}` |" in notation, row.name


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(yaml_headers())
def test_on_any_yaml_it_steps_aside_or_agrees(text):
    assert_same_as_general(text)


_edits = st.sampled_from(
    [
        "",
        " ",
        "  ",
        "\n",
        ",",
        ", ",
        "[",
        "]",
        ":",
        ": ",
        "#",
        "'",
        '"',
        "No",
        "d",
        "Ca9",
        "~",
        "\n  ",
        "\n    ",
        "{",
        "}",
        "-",
        "é",
        "\t",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_on_a_written_header_edited_it_steps_aside_or_agrees(data):
    text = DEALT.replace("Ben", '"No"') if data.draw(st.booleans()) else DEALT  # quoted words too
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        stop = data.draw(st.integers(start, min(len(text), start + 4)))
        text = text[:start] + data.draw(_edits) + text[stop:]
    assert_same_as_general(text)
