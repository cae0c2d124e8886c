"""The YAML header: reading (safe loading only), validation with located errors, writing back."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.engine.cards import Card
from arbo_notation.errors import NotationError
from arbo_notation.notation import HEADER_KEYS, Header, format_header, parse, read_header
from arbo_notation.notation.header import fast_load, header_lines


def read(yaml_text: str) -> Header:
    return read_header(yaml_text, file="h.arb", line=2)


def test_known_keys_and_types():
    h = read("event: Club night\nsite: Oslo\ndate: 2026-11-29\nround: 4\nannotator: Ana\n"
             "players: [Ana, Ben]\nspecies: [Ca, Dw]\nnames: {Ca: Cassia}\nperspective: Ben\n"
             "deck: [Ma3, Oa5]\nhands: {Ana: [Ja2]}\ndiscards: {Ben: [Wi1]}\nresult: {Ana: 3, Ben: 0}\n")
    assert (h.event, h.site, h.date, h.round, h.annotator) == ("Club night", "Oslo", "2026-11-29", "4", "Ana")
    assert h.players == ("Ana", "Ben") and h.species == ("Ca", "Dw") and h.names == {"Ca": "Cassia"}
    assert h.deck == (Card("Ma", 3), Card("Oa", 5)) and h.hands == {"Ana": (Card("Ja", 2),)}
    assert h.discards == {"Ben": (Card("Wi", 1),)} and h.result == {"Ana": 3, "Ben": 0} and h.perspective == "Ben"


@pytest.mark.parametrize("value, expected", [("2026-11-29", "2026-11-29"), ("'2026-11'", "2026-11"), ("2026", "2026"),
                                             ("", None)])
def test_dates(value, expected):
    assert read(f"players: [A]\nspecies: [Ca]\ndate: {value}\n").date == expected


def test_unknown_keys_are_kept_in_order_and_written_after_the_known_ones():
    h = read("zeta: 1\nplayers: [Ana]\nalpha: {x: [1, 2]}\nspecies: [Ca]\nevent: E\nmid: null\n")
    assert list(h.extra.items()) == [("zeta", 1), ("alpha", {"x": [1, 2]}), ("mid", None)]
    assert header_lines(h) == ["event: E", "players: [Ana]", "species: [Ca]", "zeta: 1", "alpha:",
                               "  x: [1, 2]", "mid: null"]


def test_words_yaml_would_misread_are_quoted_when_written():
    h = Header(players=("No", "True", "null", "Ana"), species=("On", "Ca"), event="3.10", round="7",
               site="yes", annotator="Ana: the best # ever", names={"On": "x, y"})
    lines = header_lines(h)
    assert 'players: ["No", "True", "null", Ana]' in lines
    assert 'species: ["On", Ca]' in lines
    assert "round: 7" in lines and 'event: "3.10"' in lines and 'site: "yes"' in lines
    back = read("\n".join(lines) + "\n")
    assert back == h


def test_long_lists_wrap_within_80_columns():
    deck = tuple(Card(s, v) for s in ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi") for v in range(1, 9))
    h = Header(players=("Ana", "Ben"), species=("Ca", "Dw", "Ja", "Ma", "Oa", "Wi"), deck=deck,
               hands={"Ana": deck[:20]}, names={c: f"A rather long species name {c}" for c in ("Ca", "Dw", "Ja")})
    text = format_header(h)
    assert all(len(line) <= 80 for line in text.split("\n"))
    assert read(text.split("---\n")[1]) == h


@pytest.mark.parametrize(
    "yaml_text, line, column, message",
    [
        ("species: [Ca]\n", 1, 1, "the header has no 'players'"),
        ("players: [Ana]\n", 1, 1, "the header has no 'species'"),
        ("players: Ana\nspecies: [Ca]\n", 2, 10, "'players' must be a list such as [Ana, Ben], found 'Ana'"),
        ("players: [Ana, No]\nspecies: [Ca]\n", 2, 1, "'players': false is not a player's name (YAML reads words such"),
        ("players: [Ana, 'd']\nspecies: [Ca]\n", 2, 17, "'players': 'd' cannot be a player's name"),
        ("players: [Ana, Ana]\nspecies: [Ca]\n", 2, 11, "'players' names Ana twice"),
        ("players: [Ana]\nspecies: [Ca, Ca]\n", 3, 11, "'species' names Ca twice"),
        ("players: [Ana]\nspecies: [Ca]\nperspective: Ben\n", 4, 14, "'perspective' must be one of the players (Ana)"),
        ("players: [Ana]\nspecies: [Ca]\nresult: {Ana: x}\n", 4, 15, "'result': Ana's score must be a whole number"),
        ("players: [Ana]\nspecies: [Ca]\nnames: {Xx: Foo}\n", 4, 9, "'names': 'Xx' is not one of the species"),
        ("players: [Ana]\nspecies: [Ca]\ndate: tomorrow\n", 4, 7, "'date' must be an ISO date"),
        ("players: [Ana]\nspecies: [Ca]\nevent: [a, b]\n", 4, 1, "'event' must be text, found a list"),
        ("players: [Ana]\nspecies: [Ca]\n1: x\n", 4, 1, "header keys are words"),
        ("- a\n- b\n", 1, 1, "the header must be 'key: value' lines"),
        ("players: [Ana\nspecies: [Ca]\n", 3, 8, "not valid YAML"),
        ("players: [Ana]\nspecies: [Ca]\nplayers: [Ben]\n", 4, 1, "the header gives 'players' twice"),
    ],
)
def test_header_faults_are_located(yaml_text, line, column, message):
    with pytest.raises(NotationError) as raised:
        read(yaml_text)
    error = raised.value
    assert message in error.message
    assert (error.file, error.line, error.column) == ("h.arb", line, column), error.show()


def test_header_is_never_loaded_unsafely():
    text = "---\nplayers: [Ana]\nspecies: [Ca]\nx: !!python/object/apply:os.system ['echo hi']\n---\n"
    outcome_error = None
    try:
        parse(text)
    except Exception as exc:  # noqa: BLE001 - the point is which error
        outcome_error = exc
    assert outcome_error is not None and type(outcome_error).__name__ == "NotationErrors"


# ------------------------------------------------------------------------------------------------
# The fast reader of simple headers gives what yaml.safe_load gives, or steps aside


_words = st.sampled_from(["Ana", "Ben", "No", "yes", "On", "off", "null", "Null", "NULL", "true", "y", "n", "Ca",
                          "Ma3", "x_1", "O'Neil", "a-b", "NaN", "inf", "e1", "E", "nan"])
_texts = st.sampled_from(["Club night", "Club night, round 3", "A (b) c/d", "x.y", "1st round", "a - b", "a #b",
                          "a: b", "'q'", '"d"', "text ", "1e3", "0x1F", "1_000", "12:30", "2026-02-30", "2026-11-29",
                          "0123", "123", "-5", "+5", "3.10", ".5", "~", "", "[a, b]", "[a,, b]", "[a, b,]", "[]",
                          "[ Ana , Ben ]", "[Ana, [x]]", "{a: 1}", "&a x", "*a", "!x y", "|", ">", "@x", "`x"])
_keys = st.sampled_from(["players", "species", "event", "x", "yes", "on", "null", "_k", "k1", "round", "date"])


@st.composite
def simple_headers(draw):
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        key = draw(_keys)
        kind = draw(st.integers(0, 4))
        if kind == 0:
            value = draw(_texts)
        elif kind == 1:
            value = "[" + ", ".join(draw(st.lists(_words, max_size=5))) + "]"
        elif kind == 2:
            items = draw(st.lists(_words, min_size=2, max_size=6))
            value = "[" + ", ".join(items[:2]) + ",\n  " + ", ".join(items[2:]) + "]"
        elif kind == 3:
            value = draw(_words)
        else:
            value = draw(st.sampled_from(["", "  ", " # c", "\n  - a", "\n  a: 1", "\t1"]))
        lines.append(f"{key}:{'' if value.startswith((chr(10), chr(9))) or value == '' else ' '}{value}")
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["", "# note", "  indented", "---x", "..."])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


@settings(max_examples=300, deadline=None)
@given(simple_headers())
def test_fast_reader_agrees_with_yaml(text):
    fast = fast_load(text)
    if fast is None:
        return
    assert fast == yaml.safe_load(text)
    assert all(type(fast[k]) is type(v) for k, v in yaml.safe_load(text).items())


def test_fast_reader_handles_the_common_header():
    text = "event: Club night 3\ndate: 2026-03-04\nround: 4\nplayers: [Ana, Ben]\nspecies: [Ca, Dw,\n  Ja]\n"
    assert fast_load(text) == {"event": "Club night 3", "date": dt.date(2026, 3, 4), "round": 4,
                               "players": ["Ana", "Ben"], "species": ["Ca", "Dw", "Ja"]}


def test_header_keys_constant_is_the_canonical_order():
    h = Header(players=("Ana",), species=("Ca",), event="e", site="s", date="2026", round="r", annotator="a",
               names={"Ca": "C"}, perspective="Ana", deck=(), hands={"Ana": ()}, discards={"Ana": ()},
               result={"Ana": 1})
    keys = [line.split(":")[0] for line in header_lines(h) if not line.startswith(" ")]
    assert keys == list(HEADER_KEYS)
    assert read("\n".join(header_lines(h))) == h
