"""`arbo score` through the typer app: text and JSON reports of the sample positions, and errors.

The expected totals of every sample are worked out by hand in tests/engine/test_scoring.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.scoring import PlayerPosition, score_position
from arbo_notation.present.report import render_sheet, sheet_to_json, winner_line
from arbo_notation.cli import app

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "positions"
runner = CliRunner()


def run(*args: str, input: str | bytes | None = None):
    result = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


EXPECTED_TEXT = {
    "club-final.yaml": (
        ["  Ana  17  (6 species planted)  = Ca 4 + Dw 4 + Ma 9", "  Ben  17  (5 species planted)  = Oa 15 + Wi 2"],
        "Ana and Ben tie on 17; Ana wins on species planted (6 to 5).",
    ),
    "three-player.yaml": (
        [
            "  Ana   8  (6 species planted)  = Bs 5 + Rp 3",
            "  Ben  10  (5 species planted)  = Ca 5 + Ja 5",
            "  Cy   14  (4 species planted)  = Ma 14",
        ],
        "Cy wins with 14 (Ben 10, Ana 8).",
    ),
    "four-player.yaml": (
        [
            "  Ana  13  (3 species planted)  = Tp 13",
            "  Ben  15  (2 species planted)  = Ja 11 + Oa 4",
            "  Cy   11  (3 species planted)  = Cb 2 + Ma 4 + Rp 5",
            "  Dee  12  (3 species planted)  = Ca 8 + Dw 4",
        ],
        "Ben wins with 15 (Ana 13, Dee 12, Cy 11).",
    ),
    "shared-win.json": (
        ["  Eve   12  (3 species planted)  = Bs 9 + Ca 3", "  Finn  12  (3 species planted)  = Ja 12"],
        "Eve and Finn tie on 12 and on species planted (3 each); they share the win.",
    ),
}


@pytest.mark.parametrize("name", sorted(EXPECTED_TEXT))
def test_text_report_of_each_sample(name):
    result = run("score", str(SAMPLES / name))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    totals, winner = EXPECTED_TEXT[name]
    start = lines.index("Totals")
    assert lines[start + 1 : start + 1 + len(totals)] == totals
    assert lines[-1] == winner
    assert all(len(line) <= 100 for line in lines)


def test_text_report_shows_rights_paths_and_split():
    result = run("score", str(SAMPLES / "club-final.yaml"))
    out = result.stdout
    assert "Maple (Ma)\n" in out and "Willow (Wi)\n" in out
    assert "  * Ana  hand 11  right yes   9 pts  Ma1@0,0 Ca3@0,-1 Ca4@1,-1 Wi5@2,-1 Ca7@3,-1 Ma8@3,0\n" in out
    assert "6 cards +0 same +1 start +2 end = 9" in out
    assert "    Ben  hand  7  right no    0 pts\n" in out
    assert "  * Ben  hand 12  right yes   0 pts  (no path)\n" in out  # Jacaranda
    assert "6 cards +6 same +1 start +2 end = 15" in out


def test_text_report_says_when_nobody_holds_a_species():
    out = run("score", str(SAMPLES / "four-player.yaml")).stdout
    assert "Tulip Poplar (Tp)  (no hand holds it: every player may score it)" in out
    assert "5 cards +5 same +1 start +2 end = 13" in out


def _species(hand_sum, rights, points=0, path=(), cells=(), breakdown=(0, 0, 0, 0)):
    return {
        "hand_sum": hand_sum,
        "rights": rights,
        "points": points,
        "path": list(path),
        "cells": [list(c) for c in cells],
        "breakdown": dict(zip(("cards", "same_species", "starts_with_1", "ends_with_8"), breakdown, strict=True)),
    }


SHARED_WIN_JSON = {
    "species": ["Bs", "Ca", "Cb", "Dw", "Ja", "Ma"],
    "players": [
        {
            "name": "Eve",
            "total": 12,
            "species_planted": 3,
            "species": {
                "Bs": _species(
                    5,
                    True,
                    9,
                    ["Bs1", "Bs3", "Bs4", "Ca6", "Bs7", "Bs8"],
                    [(0, 0), (0, 1), (1, 1), (2, 1), (2, 0), (2, -1)],
                    (6, 0, 1, 2),
                ),
                "Ca": _species(4, True, 3, ["Ca2", "Bs4", "Ca6"], [(1, 0), (1, 1), (2, 1)], (3, 0, 0, 0)),
                "Cb": _species(2, False),
                "Dw": _species(9, True),  # the right, no path: 0, and Finn's Dw 5 is denied
                "Ja": _species(0, False),
                "Ma": _species(9, True),  # likewise denies Finn's Ma3 Ja5 Ja6 Ma7 (4)
            },
        },
        {
            "name": "Finn",
            "total": 12,
            "species_planted": 3,
            "species": {
                "Bs": _species(2, False),
                "Ca": _species(3, False),
                "Cb": _species(13, True),
                "Dw": _species(7, False),
                "Ja": _species(
                    3,
                    True,
                    12,
                    ["Ja2", "Ja4", "Ja5", "Ja6", "Ja8"],
                    [(0, 1), (1, 1), (1, 0), (2, 0), (2, -1)],
                    (5, 5, 0, 2),
                ),
                "Ma": _species(6, False),
            },
        },
    ],
    "winners": ["Eve", "Finn"],
    "tiebreak": "shared",
    "game_over": True,  # a position file without `game_over: false` is the end of a game
}


def test_json_report_is_exactly_the_sheet():
    result = run("score", "--json", str(SAMPLES / "shared-win.json"))
    assert result.exit_code == 0
    assert json.loads(result.stdout) == SHARED_WIN_JSON


@pytest.mark.parametrize(
    "name, totals, winners, tiebreak",
    [
        ("club-final.yaml", {"Ana": 17, "Ben": 17}, ["Ana"], "species"),
        ("three-player.yaml", {"Ana": 8, "Ben": 10, "Cy": 14}, ["Cy"], None),
        ("four-player.yaml", {"Ana": 13, "Ben": 15, "Cy": 11, "Dee": 12}, ["Ben"], None),
    ],
)
def test_json_totals_and_winners(name, totals, winners, tiebreak):
    data = json.loads(run("score", "--json", str(SAMPLES / name)).stdout)
    assert {p["name"]: p["total"] for p in data["players"]} == totals
    assert data["winners"] == winners and data["tiebreak"] == tiebreak
    for player in data["players"]:
        assert player["total"] == sum(s["points"] for s in player["species"].values())
        for entry in player["species"].values():
            assert entry["points"] == sum(entry["breakdown"].values())
            assert len(entry["path"]) == len(entry["cells"]) == entry["breakdown"]["cards"]
            if not entry["rights"]:
                assert entry["points"] == 0 and entry["path"] == []


def test_three_player_rp_right_goes_to_the_holder_of_the_1():
    data = json.loads(run("score", "--json", str(SAMPLES / "three-player.yaml")).stdout)
    rp = {p["name"]: p["species"]["Rp"] for p in data["players"]}
    assert {n: (e["hand_sum"], e["rights"], e["points"]) for n, e in rp.items()} == {
        "Ana": (6, True, 3),
        "Ben": (0, False, 0),
        "Cy": (4, False, 0),  # Rp8 + Rp4, the 8 cancelled by Ana's Rp1
    }


def test_reads_standard_input():
    text = (SAMPLES / "club-final.yaml").read_text(encoding="utf-8")
    result = run("score", "-", input=text)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "Ana and Ben tie on 17; Ana wins on species planted (6 to 5)."
    assert not result.stdout.startswith("<stdin>")
    data = json.loads(run("score", "--json", "-", input=text).stdout)
    assert data["winners"] == ["Ana"]


def test_json_from_standard_input():
    text = (SAMPLES / "shared-win.json").read_text(encoding="utf-8")
    assert json.loads(run("score", "--json", "-", input=text).stdout) == SHARED_WIN_JSON


def test_missing_file_is_one_line_on_stderr_and_exit_1(tmp_path):
    missing = tmp_path / "nope.yaml"
    result = run("score", str(missing))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"arbo: {missing}: no such file\n"


def test_directory_is_refused(tmp_path):
    result = run("score", str(tmp_path))
    assert result.exit_code == 1
    assert "is a directory" in result.stderr and result.stderr.count("\n") == 1


def test_malformed_yaml_names_the_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("species: [Ma, Oa]\nplayers:\n  - name: Ana\n    trees: [[0, 0, Ma1]\n    hand: []\n")
    result = run("score", str(bad))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"arbo: {bad}: malformed YAML at line 5")
    assert result.stderr.count("\n") == 1


def test_malformed_json_on_stdin_names_the_line():
    result = run("score", "--json", "-", input='{\n  "species": ["Ma"],\n  "players": [,]\n}\n')
    assert result.exit_code == 1
    assert result.stderr.startswith("arbo: <stdin>: malformed JSON at line 3, column 15: Expecting value")


def test_impossible_position_is_one_message(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("species: [Ma]\nplayers:\n  - {name: Ana, trees: [[0, 0, Ma1]], hand: [Ma1]}\n")
    result = run("score", str(bad))
    assert result.exit_code == 1
    assert result.stderr == (f"arbo: {bad}: Ma1 appears twice: planted in Ana's arboretum at 0,0 and in Ana's hand\n")


def test_binary_input_is_refused():
    result = run("score", "-", input=b"\xff\xfe\x00species")
    assert result.exit_code == 1
    assert result.stderr == "arbo: <stdin>:1:1: the file is not UTF-8 text: byte 0xff cannot be read\n"


def test_usage_errors_exit_2():
    result = run("score")
    assert result.exit_code == 2
    result = run("score", "--nope", str(SAMPLES / "club-final.yaml"))
    assert result.exit_code == 2


def test_help_shows_an_example():
    result = run("score", "--help")
    assert result.exit_code == 0
    assert "arbo score samples/positions/club-final.yaml" in result.stdout
    assert "--json" in result.stdout


# -- the report itself ---------------------------------------------------------------------------------


def player(name: str, trees: str, hand: str = "") -> PlayerPosition:
    cells = {}
    for item in trees.split():
        card, cell = item.split("@")
        x, y = cell.split(",")
        cells[Coord(int(x), int(y))] = Card.parse(card)
    return PlayerPosition(name, cells, tuple(Card.parse(c) for c in hand.split()))


def test_winner_line_when_three_tie_and_species_decide():
    ana = player("Ana", "Ma2@0,0 Oa3@1,0 Ma4@2,0 Wi5@3,0", "Ma1")  # 3 points, 3 species
    ben = player("Ben", "Oa2@0,0 Wi4@1,0 Oa6@2,0", "Oa1")  # 3 points, 2 species
    cy = player("Cy", "Wi2@0,0 Wi5@1,0 Wi6@2,0", "Wi8")  # 3 points, 1 species
    sheet = score_position(["Ma", "Oa", "Wi"], [ana, ben, cy])
    assert winner_line(sheet) == "Ana, Ben and Cy tie on 3; Ana wins on species planted (3 to 2 and 1)."


def test_winner_line_when_some_of_the_tied_share():
    ana = player("Ana", "Ma2@0,0 Oa3@1,0 Ma4@2,0", "Ma1")
    ben = player("Ben", "Oa2@0,0 Wi4@1,0 Oa6@2,0", "Oa1")
    cy = player("Cy", "Wi2@0,0 Wi5@1,0 Wi6@2,0", "Wi8")
    sheet = score_position(["Ma", "Oa", "Wi"], [ana, ben, cy])
    assert winner_line(sheet) == (
        "Ana, Ben and Cy tie on 3; Ana and Ben share the win on species planted (2 each; Cy 1)."
    )
    assert sheet_to_json(sheet)["winners"] == ["Ana", "Ben"]
    assert sheet_to_json(sheet)["tiebreak"] == "shared"


def test_long_paths_wrap_within_100_columns():
    trees = " ".join(f"Ma{v}@{-10 - v},-10" for v in range(1, 9))
    sheet = score_position(["Ma"], [player("Bartholomew", trees, "Ma2"), player("X", "Oa2@0,0")])
    text = render_sheet(sheet, title="A long one")
    assert text.startswith("A long one\n==========\n")
    assert all(len(line) <= 100 for line in text.splitlines())
    assert "8 cards +8 same +1 start +2 end = 19" in text
    flat = " ".join(text.split())
    assert "Ma1@-11,-10 Ma2@-12,-10 Ma3@-13,-10 Ma4@-14,-10 Ma5@-15,-10 Ma6@-16,-10 Ma7@-17,-10 Ma8@-18,-10" in flat


def test_a_single_player_position_scores():
    sheet = score_position(["Ma"], [player("Solo", "Ma1@0,0 Ma8@1,0")])
    assert winner_line(sheet) == "Solo scores 5."
    assert sheet_to_json(sheet)["players"][0]["species"]["Ma"]["breakdown"] == {
        "cards": 2,
        "same_species": 0,
        "starts_with_1": 1,
        "ends_with_8": 2,
    }


def test_an_eight_cancelled_by_an_opponents_one_says_why_its_hand_is_0(tmp_path):
    from arbo_notation.engine.cards import Card
    from arbo_notation.engine.scoring import cancelled_eights
    from arbo_notation.share.data import sheet_data

    position = tmp_path / "cancel.yaml"
    position.write_text(
        "species: [Ma, Oa]\nplayers:\n  - name: Ana\n    trees: [[0, 0, Ma2], [1, 0, Ma3]]\n"
        "    hand: [Ma8]\n  - name: Ben\n    trees: [[0, 0, Oa2]]\n    hand: [Ma1]\n"
    )
    result = CliRunner().invoke(app, ["score", str(position)])
    assert "    Ana  hand  0  right no    0 pts  (Ma8 counts 0: Ben holds Ma1)\n" in result.stdout
    assert "  * Ben  hand  1  right yes   0 pts  (no path)\n" in result.stdout
    hands = {"Ana": [Card("Ma", 8), Card("Ma", 1)], "Ben": [Card("Oa", 8)], "Cleo": [Card("Oa", 1), Card("Ma", 1)]}
    assert cancelled_eights(["Ma", "Oa"], hands) == {("Ma", "Ana"): "Cleo", ("Oa", "Ben"): "Cleo"}  # one's own 1: no
    from arbo_notation.notation.structured.position import read_position

    sheet = read_position(position.read_text(), str(position)).score()
    assert sheet.player("Ana").species["Ma"].eight_cancelled_by == "Ben"
    assert sheet.player("Ben").species["Ma"].eight_cancelled_by is None
    data = sheet_data(sheet)  # the page says it too
    assert data["players"][0]["species"]["Ma"]["eight_cancelled_by"] == "Ben"
    assert "eight_cancelled_by" not in data["players"][1]["species"]["Ma"]
    assert "eight_cancelled_by" not in json.dumps(sheet.to_json())  # arbo score --json is as before


#: The end of a game as a position's line (docs/NOTATION.md, "Positions"): every hand known.
ENDED = (
    "Ca Dw Wi | Ana: Ca1@0,0 Ca2@1,0 Ca3@2,0 Ca4@3,0 Ca5@4,0 Wi8@5,0 / Dw1 / Dw2 Dw3 Dw4 Dw5 Dw6 Dw7 "
    "| Ben: Ca6@0,0 Ca7@0,1 Ca8@0,2 Wi1@0,3 / - / Dw8 Wi2 Wi3 Wi4 Wi5 Wi6 Wi7 | deck 0 | 10. Ana over"
)


def test_a_position_s_line_is_scored_once_every_hand_is_known():
    result = run("score", "-", input=ENDED + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "Ana wins with 11 (Ben 5)."
    hidden = run("score", "-", input=ENDED.replace("Dw8 Wi2 Wi3 Wi4 Wi5 Wi6 Wi7", "Dw8 ?6"))
    assert (hidden.exit_code, hidden.stderr) == (
        1,
        "arbo: <stdin>: the hands of Ben hold cards nobody knows: every hand must be known to score a position\n",
    )
    wrong = run("score", "-", input=ENDED.replace("deck 0", "deck 1"))
    assert (wrong.exit_code, wrong.stderr) == (
        1,
        "arbo: <stdin>: Ana holds 6 cards; 7 are due at this point of the turn\n",  # over with a card left: no skip
    )
