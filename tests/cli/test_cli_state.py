"""`arbo state`: the position as a seat sees it, in text and in JSON alike."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine.cards import Card
from arbo_notation.engine.position import Position
from arbo_notation.engine.state import Game

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


STUDY = OMNISCIENT.with_name("study.arb")


def test_the_json_carries_the_position_as_the_record_knows_it_or_as_the_seat_of_as_does():
    whole = state_json()["position"]
    deck = Position.from_json(whole).deck  # the omniscient record knows the deck's order
    assert deck is not None and deck[:4] == tuple(map(Card.parse, "Bs3 Cb2 Ma3 Ca2".split()))
    assert whole["text"].endswith(" | 4. Ben draw1") and whole["deck"]["size"] == 30
    seat = state_json("--as", "Ben")["position"]
    assert seat["deck"] == {"size": 30, "cards": None}
    assert [p["hand"]["hidden"] for p in seat["players"]] == [7, 0]  # Ana's hand, as Ben knows it
    assert Position.from_json(seat) == Game.from_position(whole["text"]).view("Ben").position


def test_the_text_ends_with_the_position_s_line_as_the_board_s_view_knows_it():
    result = CliRunner().invoke(app, ["state", str(OMNISCIENT), "--turn", "3", "--as", "Ana"])
    assert result.exit_code == 0, result.output
    line = result.stdout.rstrip("\n").rsplit("\n", 1)[1]
    assert line.startswith("position: Bs Ca Cb Dw Ja Ma | Ana: ")
    assert (
        Position.parse(line.removeprefix("position: "))
        == Game.from_position(state_json()["position"]["text"]).view("Ana").position
    )


def test_a_record_that_starts_from_a_position_counts_the_turns_of_the_game():
    def state(*args: str):
        return CliRunner().invoke(app, ["state", str(STUDY), *args])

    start = state("--turn", "15")
    assert start.exit_code == 0, start.output
    assert start.stdout.startswith("Endgame study, game 1, after turn 15\n\nturn 16: Ben to draw; deck: 6 cards\n")
    assert start.stdout.rstrip("\n").endswith(" | deck 6 Ma8 Ca8 Ja1 Ca5 Oa5 Dw1 | 16. Ben draw1")
    assert "after turn 20" in state().stdout
    before = state("--turn", "3")
    assert (before.exit_code, before.stderr) == (
        2,
        "arbo: game 1 starts from a position after turn 15; there is no position after turn 3\n",
    )
    after = state("--turn", "21")
    assert (after.exit_code, after.stderr) == (
        2,
        "arbo: game 1 has turns 16 to 20; there is no position after turn 21\n",
    )
    data = json.loads(state("--turn", "17", "--json").stdout)
    assert data["turn"] == 18 and data["position"]["text"].endswith(" | 18. Ben draw1")
