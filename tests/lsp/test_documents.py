"""An open record's diagnostics (arbo_notation/lsp/documents.py): `arbo check`'s, each game's
kept by its text, so that an edit re-checks only the games it touched."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.checking.games import check_text
from arbo_notation.errors import Code, Severity
from arbo_notation.lsp import documents
from arbo_notation.lsp.documents import Cut, DiagnosticsCache, check_cut
from tests.lsp.lsp_support import SAMPLES

SAMPLE_TEXTS = sorted(p.read_text() for p in SAMPLES.rglob("*.arb"))
#: Games of every sample, with faults of every kind, one after the other.
MIXED = "\n".join(SAMPLE_TEXTS)


def as_check(text: str):
    return [
        (d.line, d.column, d.message, d.code, d.severity)
        for d in check_text(text, "f.arb", keep_games=False).diagnostics
    ]


def as_lsp(text: str, cache: DiagnosticsCache):
    return [
        (f.line + 1, f.start + 1, f.diagnostic.message, f.diagnostic.code, f.diagnostic.severity)
        for f in check_cut(Cut(text), "f.arb", cache)
    ]


@pytest.mark.parametrize("text", SAMPLE_TEXTS + [MIXED, "", "no header here\n", "---\nplayers: [Ana"])
def test_the_diagnostics_are_arbo_checks(text):
    assert as_lsp(text, DiagnosticsCache()) == as_check(text)


def test_an_edit_rechecks_only_the_game_it_touched():
    games = [p.read_text() for p in (SAMPLES / "invalid").glob("rule-*.arb")][:3]
    text = "\n".join(games)
    cache = DiagnosticsCache()
    assert as_lsp(text, cache) == as_check(text)
    assert cache.checked == 3
    # a line added to the first game: it is checked again; the others move down a line
    lines = text.split("\n")
    first_body = lines.index("---", 1) + 1
    edited = "\n".join(lines[:first_body] + ["{a note}"] + lines[first_body:])
    assert as_lsp(edited, cache) == as_check(edited)
    assert cache.checked == 4
    assert as_lsp(text, cache) == as_check(text)  # undone: every game's diagnostics kept
    assert cache.checked == 4


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["drop", "blank", "copy"])), max_size=6))
def test_edits_seen_through_the_cache_are_checked_as_a_fresh_check(edits):
    """Whatever lines are taken out, blanked or doubled, the cached diagnostics are `arbo check`'s."""
    cache = DiagnosticsCache()
    lines = MIXED.split("\n")
    as_lsp(MIXED, cache)
    for at, how in edits:
        at %= len(lines)
        if how == "drop":
            lines = lines[:at] + lines[at + 1 :]
        elif how == "blank":
            lines = lines[:at] + [""] + lines[at + 1 :]
        else:
            lines = lines[: at + 1] + lines[at:]
        text = "\n".join(lines)
        assert as_lsp(text, cache) == as_check(text)


def test_the_cache_is_bounded():
    cache = DiagnosticsCache(size=4)
    for n in range(10):
        text = f"---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n{{note {n}}}\n"
        check_cut(Cut(text), "f.arb", cache)
    assert len(cache) == 4


def test_past_the_first_games_one_warning_says_where_the_check_stopped(monkeypatch):
    monkeypatch.setattr(documents, "MAX_CHECKED_GAMES", 2)
    game = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n1. Ana d d Ma3@9,9 /Oa5\n"
    found = check_cut(Cut(game * 5), "f.arb", DiagnosticsCache())
    assert [(f.line, f.diagnostic.code, f.diagnostic.severity) for f in found] == [
        (4, Code.PLANT, Severity.ERROR),
        (9, Code.PLANT, Severity.ERROR),
        (10, Code.FILE, Severity.WARNING),
    ]
    assert found[-1].diagnostic.message == (
        "the editor checks the first 2 games and 4 MB of a file: 3 games from here on not checked "
        "(run arbo check on the file)"
    )


def test_the_game_at_a_line():
    text = "preamble\n" + "---\nplayers: [Ana, Ben]\nspecies: [Ca]\n---\n1. x\n" * 3
    cut = Cut(text)
    assert [None if (g := cut.game_at(line)) is None else g.index for line in range(0, 17)] == (
        [None] + [1] * 5 + [2] * 5 + [3] * 6
    )


def test_a_word_range_is_one_character_at_least():
    assert documents.word_end("abc def", 4) == 7
    assert documents.word_end("abc", 3) == 4
    assert documents.word_end("abc  ", 3) == 4


def test_the_lines_of_a_text_by_number():
    lines = documents.Lines("a\nbb\n\nccc")
    assert [lines(n) for n in range(0, 7)] == ["", "a", "bb", "", "ccc", "", ""]
    rng = random.Random(4)
    text = "".join(rng.choice("ab\n") for _ in range(300))
    lines = documents.Lines(text)
    assert [lines(n) for n in range(1, text.count("\n") + 2)] == text.split("\n")
