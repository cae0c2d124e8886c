"""The protocol's JSON Schema (arbo_notation/play/protocol.schema.json) against what a real referee
sends a real bot in a real match, the view's discard piles and turn against the events, and a
request with `-` as the only legal draw."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest

from arbo_notation.engine.actions import Skip
from arbo_notation.bots import GreedyBot
from arbo_notation.engine.position import Position
from arbo_notation.engine.state import Game, Phase
from arbo_notation.play import referee
from arbo_notation.play.referee import BotProcess

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(resources.files("arbo_notation.play").joinpath("protocol.schema.json").read_text("utf-8"))

#: A bot that writes every line it reads, and every answer, to the file it is given; it plays the
#: first legal action.
SPY = textwrap.dedent(
    """
    import json, sys
    log = open(sys.argv[1], "a", encoding="utf-8")
    for line in sys.stdin:
        log.write(json.dumps({"got": line}) + "\\n")
        message = json.loads(line)
        answer = None
        if message["type"] == "hello":
            answer = {"type": "hello", "name": "spy", "author": "the tests"}
        elif message["type"] == "act":
            answer = {"action": message["legal"][0]}
        if answer is not None:
            log.write(json.dumps({"sent": answer}) + "\\n")
            log.flush()
            print(json.dumps(answer), flush=True)
        if message["type"] == "quit":
            break
    """
)


@functools.cache
def validator(name: str) -> jsonschema.protocols.Validator:
    """A validator of one message of the schema's $defs (the schema itself checked first)."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"})


def problems(name: str, message: object) -> list[str]:
    return [error.message for error in validator(name).iter_errors(message)]


@pytest.fixture(scope="module")
def spied(tmp_path_factory) -> tuple[list[dict], list[dict], Path]:
    """What a spy bot got and sent in a match of two games against greedy, and the match's folder."""
    folder = tmp_path_factory.mktemp("spy")
    (folder / "spy.py").write_text(SPY, encoding="utf-8")
    log = folder / "log.jsonl"
    command = f"{sys.executable} {folder / 'spy.py'} {log}"
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "match", command, "greedy", "--games", "2", "--out", str(folder / "m")]
        # no sandbox: the spy writes its log beside the test, and a sandbox's file system is read-only
        + ["-j", "1", "--seed", "4", "--sandbox", "off"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    got = [json.loads(line["got"]) for line in lines if "got" in line]
    sent = [line["sent"] for line in lines if "sent" in line]
    return got, sent, folder / "m"


def test_every_message_the_referee_sends_and_the_bot_answers_is_the_schemas(spied):
    got, sent, _ = spied
    framing = [m["type"] for m in got if m["type"] not in ("event", "act")]
    # the first process is the match's start check (greeted, then told to quit); the second plays
    assert framing == ["hello", "quit", "hello", "game", "end", "game", "end", "quit"]
    assert {m["type"] for m in got} == {"hello", "game", "event", "act", "end", "quit"}
    whole = jsonschema.Draft202012Validator(SCHEMA)
    for message in got:
        assert problems(message["type"], message) == [], message
        assert whole.is_valid(message)
    assert got[0] == {"type": "hello", "protocol": 1, "protocols": [1, 2]}
    hellos = [answer for answer in sent if answer.get("type") == "hello"]
    assert len(hellos) == 2 and all(problems("hello_answer", answer) == [] for answer in hellos)
    assert all(problems("action_answer", answer) == [] for answer in sent if answer not in hellos)


def test_the_view_holds_the_discard_piles_the_turn_and_the_deck_as_the_events_made_them(spied):
    got, _, _ = spied
    piles: dict[str, list[str]] = {}
    turn = 1
    asked = 0
    for message in got:
        kind = message["type"]
        if kind == "game":
            piles, turn, seat = {p: [] for p in message["players"]}, 1, message["seat"]
        elif kind == "event":
            action = message["action"]
            if action.startswith("/"):
                piles[message["player"]].append(action[1:])
                turn += 1
            elif ":" in action and not action.startswith("d:"):
                owner, card = action.split(":")
                assert piles[owner].pop() == card
        elif kind == "act":
            asked += 1
            view = message["view"]
            assert {p["name"]: p["discard"] for p in view["players"]} == piles
            assert (view["turn"], view["to_move"], view["phase"]) == (turn, seat, message["phase"])
            assert view["deck_size"] == view["knowledge"]["deck_size"]
            if message["phase"] == "draw":
                assert view["draws_taken"] in (0, 1)
    assert asked > 60 and any(pile for pile in piles.values())


def test_the_view_s_position_is_the_seat_s_view_of_the_table_and_says_what_the_view_says(spied):
    got, _, _ = spied
    asked = 0
    for message in got:
        if message["type"] == "game":
            seat = message["seat"]
        elif message["type"] == "act":
            asked += 1
            view = message["view"]
            data = view["position"]
            position = Position.from_json(data)  # its text and its keys agree
            assert Game.from_position(data["text"]).view(seat).position == position  # a seat's view, whole
            players = {p["name"]: p for p in view["players"]}
            for part in data["players"]:
                assert part["discards"] == players[part["name"]]["discard"]
                assert part["hand"]["known"] == sorted(players[part["name"]]["hand"], key=_card_order)
                assert part["hand"]["hidden"] == players[part["name"]].get("hidden", 0)
            assert data["deck"] == {"size": view["deck_size"], "cards": None if view["deck_size"] else []}
            assert (data["turn"], data["to_move"], data["phase"]) == (view["turn"], seat, message["phase"])
            assert data["draws_taken"] == view["draws_taken"]
    assert asked > 60


def _card_order(text: str) -> tuple[str, int]:
    return text[:-1], int(text[-1])


def test_state_as_a_seat_prints_a_view_of_the_schema(spied):
    _, _, folder = spied
    record = str(folder / "game-0001.arb")
    for turn in ("0", "7"):
        shown = subprocess.run(
            [sys.executable, "-m", "arbo_notation", "state", record, "--turn", turn, "--as", "Ben", "--json"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        view = json.loads(shown.stdout)
        assert problems("view", view) == []
        assert view["turn"] == int(turn) + 1 and view["to_move"] == ("Ana", "Ben")[int(turn) % 2]


def test_the_schema_refuses_a_view_without_its_piles_and_a_key_it_does_not_name(spied):
    got, _, _ = spied
    view = next(m for m in got if m["type"] == "act")["view"]
    unpiled = {**view, "players": [{k: v for k, v in p.items() if k != "discard"} for p in view["players"]]}
    assert problems("view", unpiled) == ["'discard' is a required property"] * len(view["players"])
    assert problems("view", {**view, "score": 3}) == ["Additional properties are not allowed ('score' was unexpected)"]
    assert problems("event", {"type": "event", "player": "Ben", "action": "Zz9@0,0"}) != []


def test_a_bot_is_asked_when_the_only_legal_draw_is_a_skip(tmp_path, monkeypatch):
    """The referee asks for every action, a skipped draw too (legal: ["-"]): a turn is always four
    requests, as docs/PROTOCOL.md says."""
    (tmp_path / "spy.py").write_text(SPY, encoding="utf-8")
    log = tmp_path / "log.jsonl"
    bot = BotProcess([sys.executable, str(tmp_path / "spy.py"), str(log)])
    try:
        game = referee._Game("1", "7:1", [bot, None], ["spy", "b"], GreedyBot(), "greedy", 10.0)
        game.start()
        skip_only = SimpleNamespace(legal_actions=lambda: [Skip()], phase=Phase.DRAW)
        game.seats["Ana"] = SimpleNamespace(view=lambda player: skip_only)  # the seat's view at a skip
        monkeypatch.setattr(referee, "view_message", lambda own, seat: {})
        assert game.choose(0) == (Skip(), True)
    finally:
        bot.close()
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    asked = next(at for at in range(len(lines) - 1, -1, -1) if '"act"' in lines[at].get("got", ""))
    assert json.loads(lines[asked]["got"]) == {"type": "act", "phase": "draw", "legal": ["-"], "view": {}}
    assert lines[asked + 1]["sent"] == {"action": "-"}


#: A bot of protocol 2 that writes every line it reads, and every answer, to the file it is given:
#: it asks for the view at each request (whole at every third, else its delta), keeps the view by
#: the deltas, and plays the first legal action, one action a request.
SPY_2 = textwrap.dedent(
    """
    import json, sys
    from arbo_notation.bots.protocol import apply_delta
    log = open(sys.argv[1], "a", encoding="utf-8")
    asked, kept = 0, None
    def say(answer):
        log.write(json.dumps({"sent": answer}) + "\\n")
        log.flush()
        print(json.dumps(answer), flush=True)
    for line in sys.stdin:
        log.write(json.dumps({"got": line}) + "\\n")
        message = json.loads(line)
        if message["type"] == "hello":
            say({"type": "hello", "name": "spy 2", "protocol": 2})
        elif message["type"] == "game":
            kept = None
        elif message["type"] == "turn":
            asked += 1
            say({"view": "full" if asked % 3 == 0 else "delta"})
        elif message["type"] == "view":
            kept = message["view"] if "view" in message else apply_delta(kept, message["delta"])
            log.write(json.dumps({"kept": kept}) + "\\n")
            say({"actions": [message["legal"][0]]})
        elif message["type"] == "quit":
            break
    """
)


@pytest.fixture(scope="module")
def spied_2(tmp_path_factory) -> list[dict]:
    """What a spy bot of protocol 2 got, sent and kept in a match of two games against greedy."""
    folder = tmp_path_factory.mktemp("spy2")
    (folder / "spy.py").write_text(SPY_2, encoding="utf-8")
    log = folder / "log.jsonl"
    command = f"{sys.executable} {folder / 'spy.py'} {log}"
    done = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "match", command, "greedy", "--games", "2", "--out", str(folder / "m")]
        + ["-j", "1", "--seed", "4", "--sandbox", "off", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # the spy applies deltas with arbo's apply_delta
    )
    assert done.returncode == 0, done.stderr
    assert [bot["faults"] for bot in json.loads(done.stdout)["bots"]] == [0, 0]
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_every_message_of_protocol_2_is_the_schemas_and_a_kept_view_is_the_whole_one(spied_2):
    got = [json.loads(line["got"]) for line in spied_2 if "got" in line]
    sent = [line["sent"] for line in spied_2 if "sent" in line]
    framing = [m["type"] for m in got if m["type"] not in ("turn", "view")]
    assert framing == ["hello", "quit", "hello", "game", "end", "game", "end", "quit"]
    kinds = {"view": "view_answer"}  # (the message of type view; $defs/view is the position it carries)
    for message in got:
        assert problems(kinds.get(message["type"], message["type"]), message) == [], message
    assert [problems("hello_answer", answer) for answer in sent if answer.get("type") == "hello"] == [[], []]
    asks = [answer for answer in sent if "view" in answer]
    assert len(asks) > 60 and all(problems("view_ask", answer) == [] for answer in asks)
    assert all(problems("actions_answer", a) == [] for a in sent if "actions" in a)
    # each view kept by the deltas is the view a whole one would have given: the next whole view
    # follows two deltas, so the turn's events between compare the two, by the turn and the piles
    views = [line["kept"] for line in spied_2 if "kept" in line]
    wholes = [m for m in got if m["type"] == "view" and "view" in m]
    deltas = [m for m in got if m["type"] == "view" and "delta" in m]
    assert len(wholes) > 20 and len(deltas) > 40
    assert all(problems("view", view) == [] for view in views)
    first_of_game = [m["delta"] for m in deltas if m["delta"][0]["path"] == ""]
    assert len(first_of_game) == 2  # one a game: no view given yet, the whole one as a replace
    assert all(len(delta) == 1 and delta[0]["op"] == "replace" for delta in first_of_game)
    ends = [m for m in got if m["type"] == "end"]
    assert all(problems("end", m) == [] and m["events"] for m in ends)
