"""Every syntax-fault sample in samples/invalid/ fails where it should, with a message a person reads.

Only the files listed in EXPECTED are checked here: others in samples/invalid/ may be rule faults
(valid syntax) that the replayer's tests cover.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbo_notation.errors import NotationError, NotationErrors
from arbo_notation.api import read_games
from arbo_notation.notation import parse_all
from arbo_notation.runtime.sources import read_text

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "invalid"

#: file -> (line, column, part of the message)
EXPECTED = {
    "bad-card-value.arb": (9, 27, "expected a card such as Ma3 after '/', found 'Ma9': a card's value runs 1 to 8"),
    "bad-coordinate.arb": (
        9,
        18,
        "expected a cell x,y in whole numbers (such as 0,1 or -2,3) after '@', found '0,1.5'",
    ),
    "bad-draw-card.arb": (8, 18, "expected a card such as Ma3 after 'Ana:', found 'Oa0': a card's value runs 1 to 8"),
    "bad-draw.arb": (
        8,
        10,
        "expected a draw ('d', 'd:Ma3', a player's name, 'Ana:Ja2' or '-') after 'd', found 'Ana@'",
    ),
    "bad-header-yaml.arb": (4, 8, "the header is not valid YAML: did not find expected ',' or ']'"),
    "bad-planting-card.arb": (7, 12, "expected a card such as Ma3 to plant, found 'Mx'"),
    "bad-species-code.arb": (3, 23, "'species': 'Maple' is not a species code"),
    "bad-turn-number.arb": (8, 2, "expected '.' after the turn number 2"),
    "duplicate-header-key.arb": (5, 1, "the header gives 'event' twice"),
    "empty-variation.arb": (7, 26, "a variation holds at least one turn"),
    "extra-draw.arb": (
        7,
        12,
        "expected a planting such as Ma3@0,1 after 'd', found 'd' (a turn has exactly two draws)",
    ),
    "glued-draws.arb": (
        7,
        8,
        "expected two draws, found one: 'dd' is read as a player's name; separate the two draws with a space: 'd d'",
    ),
    "glyph-after-comment.arb": (7, 41, "a glyph goes right after the discard of its turn"),
    "header-bad-card.arb": (5, 8, "'deck': expected a card such as Ma3, found 'Xx9': a card's value runs 1 to 8"),
    "header-hands-unknown-player.arb": (6, 3, "'hands': 'Cleo' is not one of the players (Ana, Ben)"),
    "header-missing-players.arb": (1, 1, "the header has no 'players'"),
    "header-unclosed.arb": (1, 1, "unclosed header: '---' at line 1 has no closing '---' line"),
    "missing-discard.arb": (8, 21, "expected a discard such as /Oa5 after 'Oa5@0,0', found end of line"),
    "missing-draw.arb": (7, 10, "found 'Ma3@0,0' (a turn has two draws)"),
    "missing-planting.arb": (8, 14, "expected a planting such as Ma3@0,1 after 'Ana', found '/Wi7'"),
    "missing-space.arb": (7, 19, "expected a space after 'Ma3@0,0', found '/Oa5'"),
    "reserved-player-name.arb": (2, 16, "'players': 'result' cannot be a player's name"),
    "reserved-word-as-player.arb": (8, 4, "'d' cannot be a player's name"),
    "result-bad-score.arb": (8, 20, "expected Ben's score (a whole number) after 'Ben', found 'nineteen'"),
    "result-trailing-comma.arb": (8, 23, "expected a player's name after ',', found end of line"),
    "reveal-after-result.arb": (9, 1, "reveal lines come before the result line"),
    "reveal-bad-card.arb": (
        8,
        36,
        "expected a card such as Ma3 in Ana's reveal line, found 'Ma0': a card's value runs 1 to 8",
    ),
    "space-in-planting.arb": (7, 12, "found 'Ma3 @0,0': no space is allowed before '@'"),
    "stray-closing-brace.arb": (7, 38, "'}' has no matching '{'"),
    "text-before-header.arb": (1, 1, "a game starts with a header between two '---' lines, found 'Club'"),
    "turn-after-result.arb": (9, 1, "only comments may follow the result line"),
    "turn-after-reveal.arb": (9, 1, "expected a reveal line, the result line or a comment after the reveal lines"),
    "unclosed-comment.arb": (8, 31, "unclosed comment: '{' at line 8 column 31 has no '}'"),
    "unclosed-variation.arb": (9, 3, "unclosed variation: '(' at line 9 column 3 has no ')'"),
    "unknown-glyph.arb": (8, 31, "unknown glyph '!!!'"),
    "unmatched-parenthesis.arb": (8, 26, "')' has no matching '('"),
    "variation-before-turn.arb": (7, 1, "a variation '(' must follow the turn it replaces"),
}

#: words of lark and of its terminals that must never reach a person
_LARK_WORDS = re.compile(
    r"\b(?:TURNS?|REVEALS?|RESULT|HEADER|COMMENT|LPAR|RPAR|GLYPH|\$END|Token|"
    r"Unexpected\w*|__ANON\w*)\b"
)


def test_every_expected_sample_exists():
    for name in EXPECTED:
        assert (SAMPLES / name).is_file(), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_invalid_sample(name):
    line, column, message = EXPECTED[name]
    path = SAMPLES / name
    with pytest.raises(NotationErrors) as raised:
        read_games(path)
    first = raised.value.errors[0]
    assert isinstance(first, NotationError)
    assert (first.file, first.line, first.column) == (str(path), line, column), first.show()
    assert message in first.message
    assert not _LARK_WORDS.search(first.message), first.message
    source = path.read_text(encoding="utf-8").split("\n")[line - 1]
    assert first.source_line == source
    assert first.show().startswith(f"{path}:{line}:{column}: error: ")
    assert first.show().endswith("^")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_invalid_sample_is_one_error(name):
    outcome = parse_all(*read_text(SAMPLES / name))
    assert len(outcome.errors) == 1
