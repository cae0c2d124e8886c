"""The protocol's seat table: its view is `arbo state --as SEAT --json` of the seat's own record."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine.actions import Draw
from arbo_notation.notation.writer import format_game
from arbo_notation.engine.bots import GreedyBot
from arbo_notation.errors import ArboError
from arbo_notation.play.protocol import SeatTable, as_seen_by, encode, perform, serve
from arbo_notation.play.simulate import simulate_game


def seat_record(record, seat: str):
    """The record as ``seat`` kept it: its own hand dealt, no deck, others' deck draws unnamed."""

    def seen(turn):
        draws = tuple(
            Draw() if isinstance(d, Draw) and d.owner is None and turn.player != seat else d for d in turn.draws
        )
        return replace(turn, draws=draws)

    header = replace(record.header, deck=None, hands={seat: record.header.hands[seat]}, perspective=seat)
    return replace(record, header=header, turns=tuple(map(seen, record.turns)), reveals=(), result=None)


@pytest.mark.parametrize(("players", "seat", "after"), [(2, "Ben", 0), (2, "Ana", 9), (3, "Cleo", 14), (4, "Dev", 21)])
def test_the_view_is_state_as_the_seat_of_its_own_record(tmp_path, players, seat, after):
    record = simulate_game(("Ana", "Ben", "Cleo", "Dev")[:players], "view", ["greedy", "random"][:1])
    header = record.header
    table = SeatTable(seat, header.players, header.species, header.hands[seat])
    for turn in record.turns[:after]:
        for action in turn.actions:
            perform(table.game, as_seen_by(action, turn.player, seat))
    path = tmp_path / "seat.arb"
    path.write_text(format_game(seat_record(record, seat)), encoding="utf-8")
    shown = CliRunner().invoke(app, ["state", str(path), "--as", seat, "--json", "--turn", str(after)])
    assert shown.exit_code == 0, shown.output
    assert table.view() == json.loads(shown.stdout)
    discarded = {str(turn.discard) for turn in record.turns[:after]}
    for other in (p for p in table.view()["players"] if p["name"] != seat):
        assert set(other["hand"]) <= discarded  # only cards seen taken from a pile
        assert len(other["hand"]) + other["hidden"] == 7


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

    def choose(self, game, rng):
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
