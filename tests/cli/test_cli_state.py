"""`arbo state`: the position as a seat sees it, in text and in JSON alike."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arbo_notation.cli import app

OMNISCIENT = Path(__file__).resolve().parents[2] / "samples" / "two-player-omniscient.arb"


def state_json(*args: str) -> dict:
    result = CliRunner().invoke(app, ["state", str(OMNISCIENT), "--turn", "3", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_as_a_seat_the_json_hides_the_other_hands_as_the_text_does():
    players = {p["name"]: p for p in state_json("--as", "Ana")["players"]}
    assert players["Ana"]["hand"] == ["Bs7", "Bs8", "Ca6", "Ja6", "Ma5", "Ma6", "Ma7"]
    assert "hidden" not in players["Ana"]
    assert players["Ben"]["hand"] == []
    assert players["Ben"]["hidden"] == 7


def test_without_a_seat_an_omniscient_record_shows_every_hand():
    players = {p["name"]: p for p in state_json()["players"]}
    assert players["Ben"]["hand"] == ["Bs6", "Ca4", "Cb7", "Dw4", "Dw5", "Ja7", "Ma1"]
    assert "hidden" not in players["Ben"]
