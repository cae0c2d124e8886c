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


def test_the_json_gives_the_discard_piles_the_turn_the_player_to_move_and_the_deck():
    # turns 1-3: /Ma4, /Ma2, then Ana takes both back (Ana:Ma4 Ben:Ma2) and discards Ma4 again;
    # four deck draws from 34 cards
    data = state_json("--as", "Ben")
    assert [p["discard"] for p in data["players"]] == [["Ma4"], []]
    table = {key: data[key] for key in ("turn", "to_move", "phase", "draws_taken", "deck_size")}
    assert table == {"turn": 4, "to_move": "Ben", "phase": "draw", "draws_taken": 0, "deck_size": 30}
    assert data["deck_size"] == data["knowledge"]["deck_size"]


def test_the_json_of_the_end_still_scores_and_names_no_player_to_move(tmp_path: Path):
    end = CliRunner().invoke(app, ["state", str(OMNISCIENT), "--json"])
    data = json.loads(end.stdout)
    assert (data["to_move"], data["phase"], data["deck_size"], "game_over" in data) == (None, None, 0, False)
    (tmp_path / "end.json").write_text(end.stdout, encoding="utf-8")
    scored = CliRunner().invoke(app, ["score", str(tmp_path / "end.json"), "--json"])
    assert scored.exit_code == 0, scored.output
