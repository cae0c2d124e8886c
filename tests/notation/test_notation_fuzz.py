"""Mutated records: the parser answers with records or NotationErrors, never anything else.

And whatever it accepts, the writer writes and the parser reads back the same.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.errors import NotationError, NotationErrors
from arbo_notation.notation import format_games, parse, parse_all, renumber
from arbo_notation.runtime.sources import read_text

FIXTURES = Path(__file__).parent.parent / "fixtures" / "notation"
SEEDS = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("*.arb"))]
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_LARK_WORDS = re.compile(r"\b(?:TURNS?|REVEALS?|RESULT|HEADER|COMMENT|LPAR|RPAR|\$END|Token|Unexpected\w*|__ANON\w*)\b")
_INSERTS = st.one_of(
    st.sampled_from(
        list("{}();:!?$-@,/.0123456789 \t\n*#'\"[]dD")
        + [
            "---\n",
            "\n---\n",
            "reveal ",
            "result ",
            " d ",
            "Ana",
            ":Ma3",
            "@1,-1",
            " /Oa5",
            "é",
            "\r",
            "\ufeff",
            "\x00",
            "(1. Ana d d Ma3@0,0 /Oa5",
        ]
    ),
    st.text(max_size=3),
)


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        n = len(text)
        i = draw(st.integers(0, n))
        op = draw(st.sampled_from(["delete", "insert", "swap", "copy"]))
        if op == "delete":
            j = draw(st.integers(i, min(n, i + 12)))
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(_INSERTS) + text[i:]
        elif op == "swap" and n > 1:
            j = draw(st.integers(0, n - 1))
            i = min(i, n - 1)
            chars = list(text)
            chars[i], chars[j] = chars[j], chars[i]
            text = "".join(chars)
        elif op == "copy":
            j = draw(st.integers(i, min(n, i + 30)))
            k = draw(st.integers(0, n))
            text = text[:k] + text[i:j] + text[k:]
    return text


def _check_error(error: NotationError, text: str) -> None:
    assert isinstance(error, NotationError)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    assert 1 <= error.line <= len(lines) + 1, error.show()
    assert error.column >= 1
    assert error.message and not _LARK_WORDS.search(error.message), error.message
    error.show()


@pytest.mark.slow
@FUZZ
@given(mutated())
def test_mutations_end_in_records_or_notation_errors(text):
    outcome = parse_all(text, "fuzz.arb")
    for error in outcome.errors:
        _check_error(error, text)
    try:
        games = parse(text, "fuzz.arb")
    except NotationErrors as errors:
        assert [str(e) for e in errors.errors] == [str(e) for e in outcome.errors]
        return
    assert not outcome.errors
    written = format_games(games)
    again = parse(written)
    assert again == [renumber(g) for g in games]
    assert format_games(again) == written


@FUZZ
@given(st.sampled_from(SEEDS), st.binary(max_size=4), st.integers(0, 10**6))
def test_byte_mutations_of_files(tmp_path_factory, seed, junk, where):
    data = seed.encode("utf-8")
    at = where % (len(data) + 1)
    path = tmp_path_factory.mktemp("fuzz") / "record.arb"
    path.write_bytes(data[:at] + junk + data[at:])
    try:
        outcome = parse_all(*read_text(path))
    except NotationErrors as errors:  # not UTF-8
        assert "not UTF-8" in errors.errors[0].message
        return
    for error in outcome.errors:
        assert isinstance(error, NotationError)
