"""The lexicon (arbo_notation/engine/lexicon.py) and the grammar spell each lexical rule alike, and the
rules take and refuse what docs/NOTATION.md says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbo_notation.engine import lexicon
from arbo_notation.engine.cards import CARD_RE
from arbo_notation.notation.model import RESERVED_NAMES

GRAMMAR = Path(__file__).resolve().parents[2] / "grammar" / "arbo.lark"

#: A terminal written as a regular expression: NAME: /.../, maybe followed by a // comment.
_REGEX_TERMINAL = re.compile(r"^([A-Z_]+): /(.*?)/(?:[ \t]+//.*)?$", re.M)
#: A terminal written as a string: NAME: "...".
_STRING_TERMINAL = re.compile(r'^([A-Z_]+): "([^"]*)"$', re.M)


def _terminals(pattern: re.Pattern[str]) -> dict[str, str]:
    return dict(pattern.findall(GRAMMAR.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "terminal, rule",
    [
        ("NAME", lexicon.NAME),
        ("CARD", lexicon.CARD),
        ("DECK_DRAW", lexicon.DECK_DRAW),
        ("COORDINATE", lexicon.COORDINATE),
        ("TURN_NUMBER", lexicon.TURN_NUMBER),
        ("POINTS", lexicon.POINTS),
        ("SCORE_SEP", lexicon.SCORE_SEP),
        ("GLYPH", lexicon.GLYPH),
        ("TURN_END", lexicon.TURN_END),
        ("LINE_END", lexicon.LINE_END),
        ("BRACE_COMMENT", lexicon.BRACE_COMMENT),
        ("LINE_COMMENT", lexicon.LINE_COMMENT),
        ("HEADER", lexicon.HEADER),
        ("FIELD_SEP", lexicon.FIELD_SEP),
        ("PART_SEP", lexicon.PART_SEP),
        ("SPACE", lexicon.WORD_SEP),
        ("HIDDEN_CARDS", lexicon.HIDDEN_CARDS),
        ("DECK_SIZE", lexicon.DECK_SIZE),
        ("POSITION_TURN", lexicon.POSITION_TURN),
        ("DUE_WORD", lexicon.DUE_WORD),
    ],
)
def test_each_regex_terminal_of_the_grammar_is_the_lexicons_rule(terminal: str, rule: str) -> None:
    assert _terminals(_REGEX_TERMINAL)[terminal] == rule


@pytest.mark.parametrize(
    "terminal, word",
    [
        ("REVEAL_WORD", lexicon.REVEAL_WORD),
        ("RESULT_WORD", lexicon.RESULT_WORD),
        ("SKIP_DRAW", lexicon.SKIP_DRAW),
    ],
)
def test_each_word_of_the_grammar_is_the_lexicons(terminal: str, word: str) -> None:
    assert _terminals(_STRING_TERMINAL)[terminal] == word


def test_the_composed_rules_are_spelt_as_the_grammar_spells_them() -> None:
    assert lexicon.NAME == r"(?!(?:d|reveal|result)(?![A-Za-z0-9_'-]))[A-Za-z][A-Za-z0-9_'-]{0,99}+(?![A-Za-z0-9_'-])"
    assert lexicon.CARD == r"[A-Za-z]{1,3}+[1-8](?![A-Za-z0-9_])"
    assert lexicon.DECK_DRAW == rf"d(?::{lexicon.CARD})?(?![^ \t])"
    assert lexicon.RESERVED_WORDS == ("d", "reveal", "result")
    assert RESERVED_NAMES == frozenset({"d", "reveal", "result"})
    assert (lexicon.DECK_WORD, lexicon.REVEAL_WORD, lexicon.RESULT_WORD) == lexicon.RESERVED_WORDS


def _whole(rule: str, text: str) -> bool:
    return re.fullmatch(rule, text) is not None


@pytest.mark.parametrize(
    "text, is_card",
    [
        ("Ma3", True),
        ("Mag8", True),
        ("a5", True),
        ("Rp8", True),
        ("Ma9", False),
        ("Ma0", False),
        ("Mabc3", False),
        ("M3a", False),
        ("3", False),
        ("Ma34", False),
    ],
)
def test_cards(text: str, is_card: bool) -> None:
    assert _whole(lexicon.CARD, text) is is_card
    assert (CARD_RE.match(text) is not None) is is_card  # the engine's reading of a card agrees


def test_a_card_is_not_taken_from_a_longer_word() -> None:
    assert re.match(lexicon.CARD, "Ma3x") is None and re.match(lexicon.CARD, "Ma3_") is None
    assert re.match(lexicon.CARD, "Ma3@0,0").group() == "Ma3"
    assert re.match(lexicon.CARD_SHAPE + lexicon.CARD_END, "Ma3 ").group() == "Ma3"


@pytest.mark.parametrize(
    "text, is_name",
    [
        ("Ana", True),
        ("O'Neil", True),
        ("x-1", True),
        ("Ben_2", True),
        ("dd", True),
        ("results", True),
        ("revealed", True),
        ("D", True),
        ("1a", False),
        ("d", False),
        ("reveal", False),
        ("result", False),
        ("_a", False),
        ("Ana!", False),
        ("", False),
        ("Zoë", False),
    ],
)
def test_names(text: str, is_name: bool) -> None:
    assert _whole(lexicon.NAME, text) is is_name


def test_the_shape_of_a_name_does_not_refuse_the_reserved_words() -> None:
    assert all(_whole(lexicon.NAME_SHAPE, word) for word in ("d", "reveal", "result", "Ana", "O'Neil"))
    assert not any(_whole(lexicon.NAME_SHAPE, word) for word in ("1a", "_a", "-x"))


def test_a_name_is_taken_whole() -> None:
    assert re.match(lexicon.NAME, "d:Ma3") is None  # the deck, not a player named d
    assert re.match(lexicon.NAME, "Ana:Ja2").group() == "Ana"
    assert re.match(lexicon.NAME + "a", "Anna") is None  # possessive: no backtracking into it


@pytest.mark.parametrize(
    "text, is_draw",
    [
        ("d", True),
        ("d:Ma3", True),
        ("d:Ma9", False),
        ("d:", False),
        ("dd", False),
        ("d!", False),
    ],
)
def test_deck_draws(text: str, is_draw: bool) -> None:
    assert _whole(lexicon.DECK_DRAW, text) is is_draw


@pytest.mark.parametrize(
    "text, is_glyph",
    [
        ("!", True),
        ("??", True),
        ("!?", True),
        ("$12", True),
        ("$", False),
        ("!!!", False),
        ("?x", False),
    ],
)
def test_glyphs(text: str, is_glyph: bool) -> None:
    assert _whole(lexicon.GLYPH, text) is is_glyph


@pytest.mark.parametrize(
    "text, is_coordinate", [("0", True), ("-12", True), ("+1", False), ("1.5", False), ("-", False)]
)
def test_coordinates(text: str, is_coordinate: bool) -> None:
    assert _whole(lexicon.COORDINATE, text) is is_coordinate


def test_comments_and_headers() -> None:
    assert _whole(lexicon.BRACE_COMMENT, "{two\nlines}")
    assert not _whole(lexicon.BRACE_COMMENT, "{a\n---\nb}")  # a '---' line always belongs to a header
    assert _whole(lexicon.LINE_COMMENT, "; to the end")
    assert _whole(lexicon.HEADER, "---\nplayers: [Ana, Ben]\n---")
    assert re.search(lexicon.HEADER, "x---\na: b\n---") is None  # its '---' opens a line
