"""The referee's view of a seat: `arbo state --as SEAT --json` of the seat's own record."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.bots.protocol import as_seen_by, seat_game
from arbo_notation.engine.actions import Draw
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.notation.writer import format_game
from arbo_notation.play.protocol import view_message
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
    truth = Game(GameConfig(header.players, header.species), Setup(deck=header.deck, hands=header.hands))
    own = seat_game(seat, header.players, header.species, header.hands[seat])
    for turn in record.turns[:after]:
        for action in turn.actions:
            truth.push(action)
            own.push(as_seen_by(action, turn.player, seat))
    assert own.view(seat) == truth.view(seat)  # the seat's own game knows what its view of the truth does
    path = tmp_path / "seat.arb"
    path.write_text(format_game(seat_record(record, seat)), encoding="utf-8")
    shown = CliRunner().invoke(app, ["state", str(path), "--as", seat, "--json", "--turn", str(after)])
    assert shown.exit_code == 0, shown.output
    message = view_message(own, seat)
    assert message == json.loads(shown.stdout)
    discarded = {str(turn.discard) for turn in record.turns[:after]}
    for other in (p for p in message["players"] if p["name"] != seat):
        assert set(other["hand"]) <= discarded  # only cards seen taken from a pile
        assert len(other["hand"]) + other["hidden"] == 7
