"""Text from outside made safe: escaped as JSON, bounded, and read back from a record as written."""

from __future__ import annotations

import dataclasses
import json

from hypothesis import given, settings, strategies as st

from arbo_notation.checking.games import check_text
from arbo_notation.notation.model import Comment
from arbo_notation.notation.outside import OUTSIDE_LIMIT, quoted, safe_text
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_game
from tests.play.bots_support import ROOT

GAME = parse((ROOT / "samples" / "two-player-omniscient.arb").read_text(encoding="utf-8"))[0]


def test_a_bots_answer_is_shown_as_the_json_string_it_was():
    sent = b'{"action": "}"}\x1b[31m\xff\n'
    assert quoted(sent) == '"{\\"action\\": \\"\\u007d\\"\\u007d\\u001b[31m\ufffd\\n"'
    assert json.loads(quoted(sent)) == '{"action": "}"}\x1b[31m\ufffd\n'


def test_a_command_line_keeps_its_quotes_and_loses_its_controls():
    # \udcff: the byte 0xff of a command line, as Python reads it into sys.argv
    assert (
        safe_text(' python bot.py {x} "q" \x1b[2J \udcff\u202e \n')
        == 'python bot.py {x\\u007d "q" \\u001b[2J \ufffd\\u202e'
    )


def test_a_long_text_is_cut_to_its_bound_and_never_inside_an_escape():
    assert quoted(b"x" * 60_000) == '"' + "x" * OUTSIDE_LIMIT + '"... (60,000 bytes)'
    assert quoted("y" * 300, 10) == '"yyyyyyyyyy"... (300 characters)'
    assert safe_text("}" * 1000) == "\\u007d" * 32 + "..."  # a 33rd would pass 197 characters
    assert safe_text("z" * 1000) == "z" * (OUTSIDE_LIMIT - 3) + "..."


def _written_and_read(comments: list[Comment]) -> list[str]:
    turn = dataclasses.replace(GAME.turns[0], comments_after=tuple(comments))
    text = format_game(dataclasses.replace(GAME, turns=(turn, *GAME.turns[1:])))
    assert not [d for d in check_text(text, "outside.arb").diagnostics if d.severity == "error"]
    return [comment.text for comment in parse(text)[0].turns[0].comments_after]


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(), st.binary()))
def test_any_text_is_safe_bounded_and_read_back_from_a_record_as_written(text):
    shown, said = safe_text(text), quoted(text)
    for safe in (shown, said):
        assert safe.isprintable() and "}" not in safe
    assert len(shown) <= OUTSIDE_LIMIT and safe_text(shown) == shown
    if said.endswith('"'):  # not cut: a JSON reader reads back what was sent
        assert json.loads(said) == (text.decode("utf-8", "replace") if isinstance(text, bytes) else text)
    # the writer writes either as a {comment}, and the reader reads back the very text
    assert _written_and_read([Comment(said), Comment(shown)] if shown else [Comment(said)]) == (
        [said, shown] if shown else [said]
    )
