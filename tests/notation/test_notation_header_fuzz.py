"""Headers written with YAML's tags, anchors and odd scalars: the reader answers with a header or
located NotationErrors, never anything else; and whatever it accepts, fmt and the structured
forms (JSON, YAML) write and read back to the same header, in the same text."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.errors import NotationError, NotationErrors
from arbo_notation.notation import dumps_json, dumps_yaml, format_games, loads_json, loads_yaml, parse, parse_all

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Hypothesis draws the ends of a range and the first items of a list more often than the rest, so
# the rarer branches below test for a value inside a range, and lists start with their tamest items.
TAGS = [
    "!!str",
    "!!int",
    "!!float",
    "!!bool",
    "!!null",
    "!!timestamp",
    "!!binary",
    "!",
    "!!int",
    "!!float",
    "!!timestamp",
    "!foo",
    "!!python/object/apply:os.system",
    "!<tag:yaml.org,2002:int>",
]
WORDS = [
    "x",
    "Ana",
    "Ma3",
    "0",
    "010",
    "0x_",
    "0x1A",
    "0o17",
    "0b101",
    "1_000",
    "12:30:00",
    "190:20:30",
    "3.10",
    "1e3",
    "1e999",
    ".nan",
    ".inf",
    "-.inf",
    "~",
    "null",
    "yes",
    "No",
    "on",
    "2026-11-29",
    "2024-02-30",
    "2026-1-5",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43",
    "aGk=",
    "",
    "_",
    "Oa9",
    "d",
    "reveal",
    "12345678901234567890",
    "9" * 4400,
    "é",
    "\u2028",
    "<<",
    "=",
]
ODD_WORDS = ["a: b", "#", "-", "?", "a\\x00b", "{", "]", "*", "&", "!"]  # syntax: quoted or an error
KEYS = [
    "x",
    "notes",
    "event",
    "site",
    "date",
    "round",
    "annotator",
    "names",
    "perspective",
    "deck",
    "hands",
    "discards",
    "result",
    "<<",
    "yes",
    "1",
]


def _quoted(word: str, style: str) -> str:
    if style == "'":
        return "'" + word.replace("'", "''") + "'"
    if style == '"':
        return '"' + word.replace('"', '\\"') + '"'
    return word


@st.composite
def scalars(draw) -> str:
    word = draw(st.sampled_from(WORDS)) if draw(st.integers(0, 20)) != 11 else draw(st.sampled_from(ODD_WORDS))
    text = _quoted(word, draw(st.sampled_from(["", "", "'", '"'])))
    if draw(st.integers(0, 5)) == 3:
        text = f"{draw(st.sampled_from(TAGS))} {text}"
    if draw(st.integers(0, 60)) == 29:  # rare: one anchor or alias makes the whole header an error
        text = draw(st.sampled_from([f"&a {text}", "*a"]))
    return text


def flow_values(depth: int = 2):
    if depth == 0:
        return scalars()
    inner = flow_values(depth - 1)
    pairs = st.lists(st.tuples(scalars(), inner), max_size=3).map(lambda kv: ", ".join(f"{k}: {v}" for k, v in kv))
    items = st.lists(inner, max_size=3).map(", ".join)
    list_tags = st.sampled_from(["!!seq", "!!omap", "!!pairs", "!", "!!map"])
    map_tags = st.sampled_from(["!!set", "!!map", "!", "!!omap"])
    return st.one_of(
        scalars(),
        scalars(),
        scalars(),
        items.map(lambda text: f"[{text}]"),
        pairs.map(lambda text: f"{{{text}}}"),
        st.tuples(list_tags, items).map(lambda t: f"{t[0]} [{t[1]}]"),
        st.tuples(map_tags, pairs).map(lambda t: f"{t[0]} {{{t[1]}}}"),
    )


def _mostly(draw, usual: str, others: list[str]) -> str | None:
    """The usual line nine times in ten; else another, or none."""
    if draw(st.integers(0, 9)) != 5:
        return usual
    return draw(st.sampled_from(others + [None]))


FLOW_VALUES, SHALLOW_VALUES = flow_values(), flow_values(1)  # built once: hypothesis keeps what it is given


@st.composite
def header_texts(draw) -> str:
    entries = []  # each a key's lines: shuffled whole, so that block collections stay under their key
    players = _mostly(
        draw,
        "players: [Ana, Ben]",
        ["players: [Ana, 'No']", "players: !!seq [Ana, Ben]", "players: [Ana, !!str 12]", "players: {Ana: 1}"],
    )
    species = _mostly(
        draw,
        "species: [Ca, Dw, Ja, Ma, Oa, Wi]",
        ["species: [Ca, 'On', Oa]", "species: !!set {Ca, Dw}", "species: [Ca, !!binary aGk=]", "species: Ca"],
    )
    entries += [[line] for line in (players, species) if line is not None]
    for key in draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=4)):
        if draw(st.integers(0, 2)):
            entries.append([f"{key}: {draw(FLOW_VALUES)}"])
        else:  # a block list or mapping
            items = draw(st.lists(SHALLOW_VALUES, min_size=1, max_size=3))
            if draw(st.booleans()):
                entries.append([f"{key}:"] + [f"  - {item}" for item in items])
            else:
                names = ["Ana", "Ben", "Ca"]  # one or more items: the first names
                entries.append([f"{key}:"] + [f"  {w}: {item}" for w, item in zip(names, items, strict=False)])
    draw(st.randoms()).shuffle(entries)
    return "".join(line + "\n" for entry in entries for line in entry)


def canonical(value):
    """A value with its types spelled out and NaN comparable, sets in a fixed order."""
    if isinstance(value, dict):
        return ("dict", [(canonical(k), canonical(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [canonical(v) for v in value])
    if isinstance(value, (set, frozenset)):
        return ("set", sorted((canonical(v) for v in value), key=repr))
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def header_shape(header):
    return canonical({name: getattr(header, name) for name in header.__slots__ if name != "pos"})


@pytest.mark.slow
@FUZZ
@given(header_texts(), st.sampled_from(["", "1. Ana d d Ma3@0,0 /Oa5\n"]))
def test_headers_with_tags_and_odd_scalars_are_read_or_located_and_written_back_the_same(yaml_text, moves):
    text = f"---\n{yaml_text}---\n{moves}"
    outcome = parse_all(text, "h.arb")  # nothing but records and NotationErrors
    for error in outcome.errors:
        assert isinstance(error, NotationError)
        assert 1 <= error.line <= text.count("\n") + 1 and error.column >= 1, error.show()
        assert error.message and "Traceback" not in error.message
        error.show()
    if outcome.errors:
        return
    [game] = outcome.games
    written = format_games([game])
    [again] = parse(written)
    assert header_shape(again.header) == header_shape(game.header), written
    assert format_games([again]) == written
    for there_and_back in (loads_json(dumps_json([game])), loads_yaml(dumps_yaml([game]))):
        assert header_shape(there_and_back[0].header) == header_shape(game.header)
        assert format_games(there_and_back) == written


def test_the_fuzz_meets_both_answers():
    """The strategy is not all errors: it makes valid headers with tags and odd scalars too."""
    valid = parse("---\nplayers: [Ana, Ben]\nspecies: [Ca]\nround: 010\nx: !!set {b, a}\ny: !!float .nan\n---\n")
    assert valid[0].header.round == "010"
    try:
        parse("---\nplayers: [Ana, Ben]\nspecies: [Ca]\nx: !!int _\n---\n")
    except NotationErrors as errors:
        assert errors.errors[0].line == 4
    else:
        raise AssertionError("!!int _ was read")
