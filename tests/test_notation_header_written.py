"""The reader of headers in the writer's own form: the same Header as the general path, or None."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from test_notation_header import written_headers, yaml_headers

from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError
from arbo_notation.notation import Header, format_header
from arbo_notation.notation.header import header_from_mapping, load_header_yaml
from arbo_notation.notation.headerwritten import read_written_header
from arbo_notation.notation.record import Pos

AT = Pos(1, 1)
DEALT = ("players: [Ana, Ben]\nspecies: [Ca, Dw]\ndeck: [Ca1, Ca2, Ca3, Ca4, Ca5, Ca6, Ca7, Ca8, Dw1, Dw2, Dw3,\n"
         "  Dw4, Dw5]\nhands:\n  Ana: [Dw6, Dw7]\n  Ben: [Dw8,\n    Ca8]\nperspective: Ben\n"
         "result: {Ana: 24, Ben: 0}\nevent: Club night 3\ndate: 2026-03-04\n")


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
        players=("Ana", "Ben"), species=("Ca", "Dw"), deck=tuple(cards),
        hands={"Ana": (Card("Dw", 6), Card("Dw", 7)), "Ben": (Card("Dw", 8), Card("Ca", 8))},
        perspective="Ben", result={"Ana": 24, "Ben": 0}, event="Club night 3", date="2026-03-04")
    assert_same_as_general(DEALT)


@pytest.mark.parametrize("text", [
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
    "players: [Ana]\nspecies: [Ca]\nnames: {Ca: Cassia}",
    "players: [Ana]\nspecies: [Ca]\nzeta: 1",
    "players: [Ana]",
    "players:\t[Ana]\nspecies: [Ca]",
    "players: [d]\nspecies: [Ca]",
])
def test_anything_else_is_left_to_the_general_path(text):
    assert read_written_header(text, AT) is None


@settings(max_examples=150, deadline=None)
@given(written_headers())
def test_it_reads_what_the_writer_writes_as_the_general_path_does(header):
    text = format_header(header).removeprefix("---\n").removesuffix("---\n")
    assert_same_as_general(text)
    simple = not (header.names or header.extra or any(getattr(header, k) for k in ("event", "site", "round", "annotator")))
    if simple and header.date is None and len(str(header.result)) < 60 and '"' not in text:  # quoted: general
        assert read_written_header(text, AT) == header, text


@settings(max_examples=150, deadline=None)
@given(yaml_headers())
def test_on_any_yaml_it_steps_aside_or_agrees(text):
    assert_same_as_general(text)


_edits = st.sampled_from(["", " ", "  ", "\n", ",", ", ", "[", "]", ":", ": ", "#", "'", '"', "No", "d", "Ca9", "~",
                          "\n  ", "\n    ", "{", "}", "-", "é", "\t"])


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_on_a_written_header_edited_it_steps_aside_or_agrees(data):
    text = DEALT
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        stop = data.draw(st.integers(start, min(len(text), start + 4)))
        text = text[:start] + data.draw(_edits) + text[stop:]
    assert_same_as_general(text)
