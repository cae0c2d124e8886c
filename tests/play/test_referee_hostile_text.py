"""What a hostile bot sends, and its command line, reach a record escaped and bounded; a reply never stops a game."""

from __future__ import annotations

import sys
import textwrap

import pytest

from arbo_notation.checking.games import check_text
from arbo_notation.bots import GreedyBot
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_game
from arbo_notation.play import referee
from arbo_notation.play.referee import BotProcess, FaultKind, referee_game
from tests.play.bots_support import processes_running

#: A bot that answers its first request with what MODE names, then plays the first legal action.
HOSTILE = textwrap.dedent(
    """
    import json, sys
    MODE = sys.argv[1]
    REPLIES = {
        "brace": json.dumps({"action": "}"}),
        "nested": "[" * 1000,
        "long": json.dumps({"action": "x" * 60000}),
        "controls": json.dumps({"action": "\\x1b[2J\\u202e"}),
    }
    asked = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print("[" * 1000 if MODE == "nested-hello" else json.dumps({"type": "hello"}), flush=True)
        elif message["type"] == "quit":
            break
        elif message["type"] == "act":
            asked += 1
            reply = REPLIES.get(MODE) if asked == 1 else None
            print(reply or json.dumps({"action": message["legal"][0]}), flush=True)
    """
)


@pytest.fixture
def hostile(tmp_path):
    script = tmp_path / "hostile.py"
    script.write_text(HOSTILE, encoding="utf-8")
    started: list[BotProcess] = []

    def start(mode: str) -> BotProcess:
        started.append(BotProcess([sys.executable, str(script), mode]))
        return started[-1]

    yield start
    for bot in started:
        bot.close()
    assert processes_running(str(script)) == []


def play(bot: BotProcess, label: str = "hostile"):
    played = referee_game(
        "1", "7:1", [bot, None], [label, "greedy"], fallback=GreedyBot(), fallback_name="greedy", move_time=10.0
    )
    text = format_game(played.record)
    assert not [d for d in check_text(text, "match.arb").diagnostics if d.severity == "error"]
    return played, text


def fault_comments(text: str) -> list[str]:
    record = parse(text)[0]
    return [c.text for turn in record.turns for c in turn.comments_after if c.text.startswith("fault")]


@pytest.mark.parametrize(
    ("mode", "kind", "said"),
    [
        (
            "brace",
            FaultKind.ILLEGAL,
            'played "\\u007d", which is no action (a draw is d, d:Ma3, a player\'s name or -; a planting Ma3@0,1; '
            "a discard /Oa5); greedy played d",
        ),
        ("nested", FaultKind.MALFORMED, 'answered with JSON nested too deep to read; it sent "' + "[" * 200 + '"...'),
        ("controls", FaultKind.ILLEGAL, 'played "\\u001b[2J\\u202e", which is no action'),
    ],
)
def test_a_hostile_reply_is_one_fault_in_a_valid_record(hostile, mode, kind, said):
    played, text = play(hostile(mode))
    assert [fault.kind for fault in played.faults[0]] == [kind]
    (comment,) = fault_comments(text)
    assert comment.startswith("fault (") and said in comment
    assert "\x1b" not in text and "\u202e" not in text


def test_a_long_illegal_answer_is_quoted_once_and_cut_short(hostile):
    played, text = play(hostile("long"))
    (comment,) = fault_comments(text)
    assert comment.startswith(
        "fault (illegal): Ana's bot (hostile) played \"" + "x" * 200 + '"... (60,000 characters), '
    )
    assert text.count("x" * 200) == 1 and max(map(len, text.splitlines())) < 1000


def test_an_answer_to_hello_nested_too_deep_is_malformed_not_a_crash(hostile):
    with pytest.raises(referee.BotFault) as caught:
        referee.greet(hostile("nested-hello"), 10)
    assert (
        caught.value.kind is FaultKind.MALFORMED and caught.value.detail == "answered with JSON nested too deep to read"
    )


def test_a_bots_label_reaches_the_header_and_its_faults_escaped(hostile):
    label = 'python bot.py {x} "q" \x1b[31m \udcff'  # \udcff: the byte 0xff of a command line
    played, text = play(hostile("brace"), label)
    shown = 'python bot.py {x\\u007d "q" \\u001b[31m \ufffd'
    assert parse(text)[0].header.extra["bots"] == {"Ana": shown, "Ben": "greedy"}
    (comment,) = fault_comments(text)
    assert comment.startswith(f"fault (illegal): Ana's bot ({shown}) played")
