"""The grammar's ``position`` rule (grammar/arbo.lark) and the engine's reader of a position's line
(Position.parse) take and refuse the same lines: the lines of random games, written with their
spaces and tabs varied, and those lines mutated. The reader alone refuses, beyond the grammar, a
deck that lists other than as many cards as it counts and two trees on one cell."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.position import Position
from arbo_notation.errors import PositionError
from arbo_notation.notation.reading.grammar import GrammarMismatch, parse_position_line
from tests.engine.test_position import GOOD, SMALL_LINE, played_games

#: The reader's refusals of lines the grammar takes: what no context-free rule says.
BEYOND_THE_GRAMMAR = re.compile(r"the deck holds [0-9]+ cards, but [0-9]+ are listed|.*'s trees: two trees stand at")


def grammar_takes(line: str) -> bool:
    try:
        parse_position_line(line)
    except GrammarMismatch:
        return False
    return True


def assert_alike(line: str) -> None:
    """The grammar takes the line exactly when the reader does (or refuses it beyond the grammar)."""
    grammar = grammar_takes(line)
    try:
        Position.parse(line)
    except PositionError as error:
        assert not grammar or BEYOND_THE_GRAMMAR.match(error.message), (line, error.message)
        return
    assert grammar, line


def spaced(line: str, draw: st.DrawFn) -> str:
    """The line with each separator written another way the grammar allows: spaces and tabs
    around '|', on both sides of ' / ', between words and at the ends."""
    gaps = st.text(" \t", min_size=1, max_size=3)
    out = []
    for piece in re.split(r"( \| | / | )", line):
        if piece == " | ":
            out.append(draw(st.text(" \t", max_size=2)) + "|" + draw(st.text(" \t", max_size=2)))
        elif piece == " / ":
            out.append(draw(gaps) + "/" + draw(gaps))
        elif piece == " ":
            out.append(draw(gaps))
        else:
            out.append(piece)
    return draw(st.text(" \t\n", max_size=2)) + "".join(out) + draw(st.text(" \t\n", max_size=2))


#: What a mutation puts in: the line's own characters, and a few it never holds.
ALPHABET = "abcdwCDMW0123456789 \t|/?+@,-.:\n\r\xa0_'"


def mutated(line: str, draw: st.DrawFn) -> str:
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(line)))
        kind = draw(st.sampled_from(["delete", "insert", "replace", "repeat", "swap"]))
        if kind == "delete":
            line = line[:at] + line[at + draw(st.integers(1, 4)) :]
        elif kind == "insert":
            line = line[:at] + draw(st.text(ALPHABET, min_size=1, max_size=3)) + line[at:]
        elif kind == "replace":
            line = line[:at] + draw(st.sampled_from(ALPHABET)) + line[at + 1 :]
        elif kind == "repeat":
            length = draw(st.integers(1, 12))
            line = line[:at] + line[at : at + length] + line[at:]
        else:  # two neighbours swapped
            line = line[:at] + line[at + 1 : at + 2] + line[at : at + 1] + line[at + 2 :]
    return line


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games(most=120), st.data())
def test_the_grammar_and_the_reader_take_a_game_s_line_however_it_is_spaced(played, data):
    game, _ = played
    line = str(game.position())
    assert grammar_takes(line)
    loose = spaced(line, data.draw)
    assert grammar_takes(loose) and Position.parse(loose) == game.position()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([SMALL_LINE, GOOD]) | played_games(most=120).map(lambda played: str(played[0].position())),
    st.data(),
)
def test_the_grammar_and_the_reader_refuse_the_same_mutated_lines(line, data):
    assert_alike(mutated(line, data.draw))


@pytest.mark.parametrize(
    "line, taken",
    [
        (GOOD, True),
        (GOOD.replace("?6", "?06"), True),  # a number may have leading zeros, as a record's turn numbers
        (GOOD.replace("| Ben", "| deck: - / - / ?7 | Ben").replace("deck 8", "deck 1"), True),  # a player named deck
        (GOOD.replace("Ben:", "Ben :"), False),
        (GOOD.replace(" / - / ?7", " / - /?7"), False),
        (GOOD.replace("| Ben", "| Cleo: - / - / ?7 | Dev: - / - / ?7 | Eve: - / - / ?7 | Ben"), False),  # 5 players
        (GOOD.replace("2. Ben", "00. Ben"), False),
        (GOOD.replace("deck 8", "deck\xa08"), False),
        (GOOD.replace(" | deck", "\n| deck"), False),
        (GOOD + "\r", False),
        (GOOD.replace("Ca2 ?6", "Ca2 ?6 Dw2"), False),
        (GOOD.replace("Ca2 ?6", "Ca2 ?123"), False),
        (GOOD.replace("Ca1@0,0", "Ca1@0,0 Ca3@0,0"), True),  # read, then refused beyond the grammar
        (GOOD.replace("deck 8", "deck 2 Dw2"), True),  # the same
    ],
)
def test_lines_at_the_edges_of_the_grammar(line: str, taken: bool):
    assert grammar_takes(line) is taken
    assert_alike(line)
