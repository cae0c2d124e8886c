"""`arbo replay` on the command line: plain step-through, screenshots, bad input, lazy textual."""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.engine.actions import Draw
from arbo_notation.present.report import render_sheet
from arbo_notation.game.replay import replay_game
from tests.tui_support import ANNOTATED, FOUR_PLAYER, four_player

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, ["replay", *args], input=input)


def test_plain_prints_every_turn_its_board_and_the_scoring():
    result = run(str(FOUR_PLAYER), "--plain")
    assert result.exit_code == 0, result.output
    out = result.stdout
    record = four_player()
    for number, turn in enumerate(record.turns, 1):
        assert f"== {number}. {turn.notation()}" in out
    assert out.count("Ana (") == len(record.turns) + 1  # a board for the setup and after each turn
    assert out.rstrip().endswith(render_sheet(replay_game(record).sheet).rstrip())


def test_the_default_is_plain_when_the_output_is_not_a_terminal():
    plain = run(str(ANNOTATED), "--plain")
    default = run(str(ANNOTATED))  # CliRunner's output is not a terminal
    assert default.stdout == plain.stdout
    assert "== 7. Ana d:Wi8 Ben:Ma8 Ma8@3,0 /Wi8 !! ==" in default.stdout
    assert "{Ben gives the Maple 3 away.}" in default.stdout
    assert "variation 2:" in default.stdout
    # the illegal turn of a variation: shown in place, on stderr, and the status says so
    assert "error: turn 3 (Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6) is illegal" in default.stdout
    assert "its top card is Ma4 [draw]" in default.stderr
    assert default.exit_code == 1


def test_plain_numbers_a_record_that_starts_from_a_position_on_from_it():
    study = str(Path(__file__).resolve().parents[2] / "samples" / "study.arb")
    out = run(study, "--plain").stdout
    headings = [line for line in out.splitlines() if line.startswith("== ")]
    assert headings[:3] == [
        "== the position after turn 15 ==",
        "== 16. Ben d:Ma8 d:Ca8 Ca8@-6,0 /Wi3 ==",
        "== 17. Ana Ana:Ma5 d:Ja1 Ma5@-6,0 /Wi5 ?! ==",
    ]
    assert "    17. Ana d:Ja1 d:Ca5 Ca5@-6,0 /Ja1" in out  # the variation, numbered as the turn it replaces
    later = run(study, "--plain", "--turn", "19").stdout
    assert [line for line in later.splitlines() if line.startswith("== ")] == [
        "== 19. Ana d:Ca5 d:Oa5 Ca5@-7,0 /Oa5 ==",
        "== 20. Ben Ben:Wi5 d:Dw1 Dw1@-1,-2 /Wi5 ==",
        "== scoring ==",
    ]
    before = run(study, "--plain", "--turn", "2")
    assert (before.exit_code, before.stderr) == (
        2,
        "arbo: game 1 starts from a position after turn 15; there is no position after turn 2\n",
    )


def test_plain_from_a_turn_in_one_players_view():
    result = run(str(FOUR_PLAYER), "--plain", "--turn", "10", "--as", "Cleo")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "== start of the game ==" not in out and "== 9. " not in out
    tenth, eleventh = four_player().turns[9:11]
    assert tenth.player != "Cleo" and eleventh.player == "Cleo"
    unnamed = tenth.notation()
    for draw in tenth.draws:
        if isinstance(draw, Draw) and draw.owner is None:
            unnamed = unnamed.replace(f"d:{draw.card}", "d", 1)
    assert out.count(f"== 10. {unnamed} ==") == 1  # from after turn 10; others' deck draws unnamed
    assert f"== 11. {eleventh.notation()} ==" in out  # her own draws are named
    assert "Cleo's view (other hands hidden)" in out
    ana_hand = out.split("\nAna (")[1].split("\n  hand:    ")[1].split("\n")[0]
    assert ana_hand == " ".join(["??"] * 7)
    cleo_hand = out.split("\nCleo (")[1].split("\n  hand:    ")[1].split("\n")[0]
    assert "??" not in cleo_hand


def test_screenshot_writes_an_svg_of_the_turn(tmp_path):
    out = tmp_path / "turn5.svg"
    result = run(str(ANNOTATED), "--turn", "5", "--screenshot", str(out))
    assert out.exists(), result.output
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg")
    text = html.unescape(svg).replace("\xa0", " ")
    assert "after turn 5: Ben to play turn 6" in text
    assert result.exit_code == 1  # the record holds an illegal variation, reported on stderr


def test_screenshot_at_another_size(tmp_path):
    out = tmp_path / "small.svg"
    result = run(str(FOUR_PLAYER), "--turn", "3", "--screenshot", str(out), "--size", "80x24")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<svg")


@pytest.mark.parametrize(
    ("args", "status", "stderr"),
    [
        (["missing.arb"], 1, "arbo: missing.arb: no such file\n"),
        ([str(ANNOTATED), "--game", "2"], 2, f"arbo: {ANNOTATED} holds 1 game; there is no game 2\n"),
        ([str(ANNOTATED), "--turn", "8"], 2, "arbo: game 1 has 7 turns; there is no position after turn 8\n"),
    ],
)
def test_bad_input_is_status_1_and_an_option_past_the_record_status_2(args, status, stderr):
    result = run(*args)
    assert (result.exit_code, result.stderr) == (status, stderr)


def test_a_perspective_that_is_no_player_is_a_usage_error():
    result = run(str(ANNOTATED), "--as", "Zed")
    assert result.exit_code == 2
    assert result.stderr == "arbo: --as Zed: not a player of this game (Ana, Ben)\n"


def test_a_malformed_record_is_reported_without_a_traceback():
    result = run("-", input="---\nplayers: [Ana, Ben]\nspecies: [Ma]\n---\n1. Ana d d Ma3@0,0\n")
    assert result.exit_code == 1
    assert "<stdin>:5:" in result.stderr and "expected a discard" in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def _modules_after(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    return out.stdout


def test_help_and_plain_replay_do_not_import_textual():
    probe = (
        "import sys\n"
        "from arbo_notation.cli import app\n"
        "for args in ({args}):\n"
        "    try:\n"
        "        app(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('TEXTUAL' if 'textual' in sys.modules else 'NO-TEXTUAL')\n"
    )
    help_only = _modules_after(probe.format(args="['--help'], ['replay', '--help']"))
    assert help_only.rstrip().endswith("NO-TEXTUAL"), help_only
    plain = _modules_after(probe.format(args=f"[['replay', {str(FOUR_PLAYER)!r}, '--plain']]"))
    assert plain.rstrip().endswith("NO-TEXTUAL"), plain[-500:]
