"""A bot served over the protocol: the seat's own game kept from the messages, each request
answered by the bot on the seat's view, whatever the referee's spelling."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arbo_notation.bots import GreedyBot
from arbo_notation.bots.protocol import encode
from arbo_notation.bots.serve import serve
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError


GAME = {
    "type": "game",
    "game": "g1",
    "seat": "Ana",
    "players": ["Ana", "Ben"],
    "species": ["Ca", "Dw", "Ja", "Ma", "Oa", "Wi"],
    "hand": ["Ca1", "Ca2", "Ca3", "Dw1", "Dw2", "Dw3", "Ja1"],
}
ACT = {"type": "act", "phase": "draw", "legal": ["Ben", "d"], "view": {"not": "read"}}


class Stuck(GreedyBot):
    """A bot that cannot choose: serve() plays the request's first legal action."""

    def choose(self, view, rng):
        raise ArboError("lost")


def served(make, lines) -> tuple[list[dict], list[str]]:
    answers: list[bytes] = []
    logged: list[str] = []
    serve(make, lines, answers.append, name="test", log=logged.append)
    return [json.loads(line) for line in answers], logged


@pytest.mark.parametrize("spelling", ["arbo", "spaced"])
def test_serve_answers_a_request_however_spelt_and_reads_legal_only_when_its_bot_cannot_choose(spelling):
    # arbo's referee writes compact lines (encode), which serve() answers unread; another referee's
    # spacing is read whole: the same answers either way
    write = (lambda m: encode(m).decode()) if spelling == "arbo" else (lambda m: json.dumps(m) + "\n")
    lines = [write(m) for m in ({"type": "hello", "protocol": 1}, GAME, ACT, ACT)]
    assert lines[2].startswith('{"type":"act",') == (spelling == "arbo")
    answers, logged = served(GreedyBot, lines)
    assert answers == [{"type": "hello", "name": "test", "author": "arbo"}, {"action": "d"}, {"action": "d"}]
    assert logged == []
    if spelling == "arbo":  # unread indeed: a request cut short is answered all the same
        assert served(GreedyBot, [*lines[:2], lines[2][:40] + "\n"])[0][1:] == [{"action": "d"}]
    answers, logged = served(Stuck, lines)
    assert answers[1:] == [{"action": "Ben"}, {"action": "Ben"}]
    assert logged == ["the bot could not choose (lost): the first legal action is played"] * 2
    # a request without legal actions, or a line that only begins as one, is skipped, said once in the log
    answers, logged = served(Stuck, [*lines[:2], '{"type":"act", "phase": "draw"}\n', '{"type":"act",\n'])
    assert answers[1:] == []
    assert logged[0] == (
        'message skipped (the bot could not choose (lost), and the "act" gives no legal action to play): '
        '"{\\"type\\":\\"act\\", \\"phase\\": \\"draw\\"\\u007d"'
    )
    assert [text.split(" (")[0] for text in logged] == ["message skipped"] * 2


def test_the_served_bot_of_the_api_page_answers_on_its_seats_view(tmp_path):
    """docs/API.md's program: a bot of one's own served by arbo, as `arbo match` would start it."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text(encoding="utf-8")
    body = next(
        block.split("```", 1)[0]
        for block in text.split("```python\n")[1:]
        if block.startswith('"""A bot of the arbo protocol, served by arbo')
    )
    program = tmp_path / "first.py"
    program.write_text(body, encoding="utf-8")
    messages = [
        {"type": "hello", "protocol": 1},
        GAME,
        {"type": "act", "phase": "draw", "legal": ["d"], "view": {}},
        {"type": "event", "player": "Ana", "action": "d:Ma3"},  # its own draw, named to it
        {"type": "act", "phase": "draw", "legal": ["d"], "view": {}},
        {"type": "event", "player": "Ana", "action": "d:Oa5"},
        {"type": "act", "phase": "plant", "legal": ["Ca1@0,0"], "view": {}},
        {"type": "quit"},
    ]
    done = subprocess.run(
        [sys.executable, str(program)],
        input=b"".join(encode(m) for m in messages),
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers == [
        {"type": "hello", "name": "first", "author": "arbo"},
        {"action": "d"},
        {"action": "d"},
        {"action": "Ca1@0,0"},  # the lowest card of Ana's hand, at the only cell
    ]


HELLO_2 = {"type": "hello", "protocol": 1, "protocols": [1, 2]}


def test_serve_speaks_protocol_2_when_offered_and_asked_to_unless_kept_to_1():
    assert served(GreedyBot, [json.dumps(HELLO_2)])[0] == [
        {"type": "hello", "name": "test", "author": "arbo", "protocol": 2}
    ]
    answers: list[bytes] = []
    serve(GreedyBot, [json.dumps(HELLO_2)], answers.append, name="test", protocol=1)
    assert json.loads(answers[0]) == {"type": "hello", "name": "test", "author": "arbo"}
    assert served(GreedyBot, [json.dumps({"type": "hello", "protocol": 1})])[0][0].get("protocol") is None


class Scripted(GreedyBot):
    """A bot that plays the actions it is given, in order, and says what it saw each time."""

    def __init__(self, actions):
        self.actions, self.seen = list(actions), []

    def choose(self, view, rng):
        self.seen.append((view.phase.value, view.draws_taken, len(view.hand("Ana").known)))
        return view.position and Game.from_position(view.position).parse_action(self.actions.pop(0))


#: Ben's first turn and his next; BEN_THEN_ANA: the lines up to Ana's turn asked for after her
#: draws (Ben's discard and the deck's card), Ben seated first.
BEN_TURN = [["Ben", "d"], ["Ben", "d"], ["Ben", "Oa4@0,0"], ["Ben", "/Oa5"]]
BEN_NEXT = [["Ben", "d"], ["Ben", "d"], ["Ben", "Oa7@0,1"], ["Ben", "/Oa6"]]
BEN_THEN_ANA = [
    json.dumps(HELLO_2),
    json.dumps(GAME | {"players": ["Ben", "Ana"]}),
    json.dumps({"type": "turn", "phase": "draw", "events": BEN_TURN}),
    json.dumps({"type": "turn", "phase": "plant", "events": [["Ana", "Ben:Oa5"], ["Ana", "d:Ma3"]]}),
]


def test_a_turn_is_answered_up_to_a_deck_draw_and_the_table_is_as_the_events_leave_it():
    """Asked for its turn, the bot chooses each action on the view after the ones before it
    (played on its table, then taken back): it stops at a draw from the deck, whose card it
    cannot know, and at its discard; the next request's events play what was played."""
    bot = Scripted(["Ben:Oa5", "d", "Ca1@0,0", "/Ca2", "Ben:Oa6", "Ana:Ca2", "Dw1@0,1", "/Dw2"])
    lines = [
        *BEN_THEN_ANA,
        json.dumps({"type": "turn", "phase": "draw", "events": [["Ana", "Ca1@0,0"], ["Ana", "/Ca2"], *BEN_NEXT]}),
    ]
    answers, logged = served(lambda: bot, lines)
    assert answers[1:] == [
        {"actions": ["Ben:Oa5", "d"]},  # the deck's card is not known: the rest is asked again
        {"actions": ["Ca1@0,0", "/Ca2"]},
        {"actions": ["Ben:Oa6", "Ana:Ca2", "Dw1@0,1", "/Dw2"]},  # both from the piles: the whole turn
    ]
    assert logged == []
    # each choice on the table after the actions before it: the hand's size says which were played
    assert bot.seen == [("draw", 0, 7), ("draw", 1, 8), ("plant", 2, 9), ("discard", 2, 8)] + [
        ("draw", 0, 7),
        ("draw", 1, 8),
        ("plant", 2, 9),
        ("discard", 2, 8),
    ]


def test_a_turn_the_bot_cannot_choose_is_its_tables_first_legal_action_or_with_no_table_the_views():
    lines = [json.dumps(HELLO_2), json.dumps(GAME), json.dumps({"type": "turn", "phase": "draw", "events": []})]
    answers, logged = served(Stuck, lines)
    assert answers[1:] == [{"actions": ["d"]}]
    assert logged == ["the bot could not choose (lost): the first legal action is played"]
    view = {"type": "view", "legal": ["Ben:Oa5", "d"], "view": {}}
    answers, logged = served(GreedyBot, [json.dumps(HELLO_2), lines[2], json.dumps(view)])
    assert answers[1:] == [{"view": "full"}, {"actions": ["Ben:Oa5"]}]
    assert logged == [
        "asked to act outside a game: the view is asked for",
        "asked to act outside a game: the first legal action is played",
    ]
    # events that are no actions of the table: the request is skipped, said once in the log
    bad = json.dumps({"type": "turn", "phase": "draw", "events": [["Ben", "d"]]})
    answers, logged = served(GreedyBot, [json.dumps(HELLO_2), json.dumps(GAME), bad])
    assert answers[1:] == [] and logged[0].startswith("message skipped (an event of Ben where Ana is to play)")


class Watching(Scripted):
    """A scripted bot that also notes Ana's hand and arboretum at each choice."""

    def choose(self, view, rng):
        self.tables = [*getattr(self, "tables", []), (sorted(map(str, view.hand("Ana").known)), view.arboretum("Ana"))]
        return super().choose(view, rng)


def test_a_plan_the_referee_did_not_follow_is_taken_back_and_the_events_played_instead():
    """The plan's planting is left on the bot's table; when the next request's events are not
    that plan (the referee refused it and its fallback played), the table is as the events leave it."""
    bot = Watching(["Ben:Oa5", "d", "Ca1@0,0", "/Ca2", "d"])
    lines = [
        *BEN_THEN_ANA,
        json.dumps({"type": "turn", "phase": "draw", "events": [["Ana", "Ca3@0,0"], ["Ana", "/Dw1"], *BEN_NEXT]}),
    ]
    answers, logged = served(lambda: bot, lines)
    assert answers[1:] == [{"actions": ["Ben:Oa5", "d"]}, {"actions": ["Ca1@0,0", "/Ca2"]}, {"actions": ["d"]}]
    assert logged == []
    hand, arboretum = bot.tables[-1]
    assert hand == ["Ca1", "Ca2", "Dw2", "Dw3", "Ja1", "Ma3", "Oa5"]
    assert {str(coord): str(card) for coord, card in arboretum.items()} == {"0,0": "Ca3"}


def test_a_plan_is_taken_back_when_the_referee_goes_on_with_events_instead_of_a_turn():
    """A referee that answers a plan with version 1's events (not a ``turn``): the plan left on
    the table is taken back, and the events played on the table as it was."""
    bot = Watching(["Ben:Oa5", "d", "Ca1@0,0", "/Ca2", "d"])
    lines = [
        *BEN_THEN_ANA,
        *(json.dumps({"type": "event", "player": "Ana", "action": action}) for action in ("Dw1@0,0", "/Ca3")),
        json.dumps({"type": "turn", "phase": "draw", "events": BEN_NEXT}),
    ]
    answers, logged = served(lambda: bot, lines)
    assert answers[1:] == [{"actions": ["Ben:Oa5", "d"]}, {"actions": ["Ca1@0,0", "/Ca2"]}, {"actions": ["d"]}]
    assert logged == []
    hand, arboretum = bot.tables[-1]
    assert hand == ["Ca1", "Ca2", "Dw2", "Dw3", "Ja1", "Ma3", "Oa5"]
    assert {str(coord): str(card) for coord, card in arboretum.items()} == {"0,0": "Dw1"}
