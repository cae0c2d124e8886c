"""`arbo analyse FILE --turn N --try TURN`: the tried turn judged beside the played one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from typer.testing import CliRunner

from arbo_notation.analysis.game import add_variation, tried_note, tried_turn, what_if
from arbo_notation.cli import app
from arbo_notation.engine.cards import Card
from arbo_notation.game.knowledge import Hypothesis
from arbo_notation.game.tree import load_tree
from arbo_notation.notation.engine_notes import note_of, with_note
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_games

runner = CliRunner()
SAMPLE = str(Path(__file__).resolve().parents[2] / "samples" / "two-player-omniscient.arb")


def run(*args: str):
    return runner.invoke(app, list(args))


def test_the_played_turn_is_judged_as_analyse_judges_it():
    tried = run(
        "analyse", SAMPLE, "--turn", "5", "--try", "Ana Ben d Bs8@-2,0 /Ma3", "-b", "4", "--seed", "3", "--json"
    )
    analysed = run("analyse", SAMPLE, "--turn", "5", "-b", "4", "--seed", "3", "--json", "-j", "1")
    assert tried.exit_code == 0, tried.output
    judgement = json.loads(tried.stdout)
    [turn] = json.loads(analysed.stdout)["turns"]
    assert judgement["played"] == turn
    assert judgement["tried"]["played"] == "Ben:Bs3 d:Ma3 Bs8@-2,0 /Ma3"
    assert judgement["difference"] == round(judgement["tried"]["played_value"] - turn["played_value"], 2)
    assert judgement["better"] in ("tried", "played", None)


def test_the_text_gives_both_judgements_the_better_and_the_best():
    result = run("analyse", SAMPLE, "--turn", "5", "--try", "d d Bs8@-2,0 /Ma3", "-b", "4")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "turn 5, Ana: expected final margin (4 sampled worlds, the same for both)"
    assert lines[1].split()[:2] == ["played", "d:Ma3"] and lines[2].split()[:2] == ["tried", "d:Ma3"]
    assert lines[1].split()[-1] == lines[2].split()[-1]  # the same turn: the same value
    assert lines[3].startswith("  both are worth the same; the best found: ")
    assert len(lines) == 4


def test_an_illegal_try_is_bad_input_said_in_a_players_words():
    result = run("analyse", SAMPLE, "--turn", "5", "--try", "d d Ma3@-1,0 /Bs8", "-b", "4")
    assert result.exit_code == 1
    assert result.stderr == "arbo: --try 'd d Ma3@-1,0 /Bs8': Ana cannot plant Ma3 at (-1,0): Ma2 already grows there\n"
    assert result.stdout == ""


@pytest.mark.parametrize(
    "text, words",
    [
        ("Ben d d Bs8@-2,0 /Ma3", "turn 5 is Ana's, not Ben's"),
        (
            "Ben d Bs8@-2,0 /Ma3",
            "turn 5 is Ana's, and 'Ben' first reads as Ana drawing from Ben's pile: write "
            "'Ana Ben d Bs8@-2,0 /Ma3' for that, or a turn of Ana's such as 'd d Ma3@0,1 /Oa5'",
        ),
        ("99. Ana d d Bs8@-2,0 /Ma3", "the try is numbered 99, but it is tried in place of turn 5"),
        (
            "d d Bs8@-2,0 /Ma3 !",
            "a try carries no glyph (!): the engine judges it; a glyph of yours goes on a turn of the record",
        ),
    ],
)
def test_a_try_of_another_turn_is_a_usage_error_as_another_player_is(tmp_path, text, words):
    """Issue 45, points 8 and 19: each was judged (exit 0) or refused as bad data (exit 1); like
    --as Nobody they are the asker's slip: exit 2, nothing judged, nothing written."""
    out = tmp_path / "tried.arb"
    result = run("analyse", SAMPLE, "--turn", "5", "--try", text, "-b", "4", "-o", str(out))
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"arbo: --try {text!r}: {words}\n")
    assert not out.exists()
    assert run("analyse", SAMPLE, "--as", "Nobody").exit_code == 2


def test_try_without_turn_or_with_a_record_to_write_is_a_usage_error(tmp_path):
    result = run("analyse", SAMPLE, "--try", "d d Bs8@-2,0 /Ma3")
    assert (result.exit_code, result.stderr) == (2, "arbo: --try needs --turn N: the turn it is tried in place of\n")
    result = run("analyse", SAMPLE, "--turn", "5", "--try", "d d Bs8@-2,0 /Ma3", "--as", "Ana")
    assert (result.exit_code, result.stderr) == (2, "arbo: --try judges the mover of turn N: it takes no --as\n")
    assert not list(tmp_path.iterdir())


def _with_try(record, text: str, *, note: bool, **judging):
    """The record as the replayer's W writes it after trying ``text`` at turn 5."""
    node = load_tree(record).node(5)
    tried = tried_turn(node, text)
    if note:
        tried = with_note(tried, tried_note(what_if(node, text, **judging)))
    return add_variation(record, (), 4, tried)[0]


def test_a_try_is_written_into_the_record_as_a_variation_on_request(tmp_path):
    out = tmp_path / "tried.arb"
    text = "Ana Ben d Bs8@-2,0 /Ma3"
    result = run("analyse", SAMPLE, "--turn", "5", "--try", text, "-b", "4", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("turn 5, Ana: expected final margin")  # the judgement still printed
    assert result.stderr == f"arbo: wrote {out} (the try as a variation of turn 5)\n"
    [record] = parse(Path(SAMPLE).read_text(encoding="utf-8"), SAMPLE)
    expected = _with_try(record, text, note=True, budget=4, seed="0")
    assert out.read_text(encoding="utf-8") == format_games([expected])
    [written] = parse(out.read_text(encoding="utf-8"), str(out))
    [variation] = written.turns[4].variations
    assert str(variation.turns[0].draws[0]) == "Ben:Bs3"
    assert note_of(variation.turns[0]) is not None  # its value, as arbo analyse notes a turn


def test_in_place_tries_add_up_and_a_hypothetical_leaves_no_note(tmp_path):
    copy = tmp_path / "game.arb"
    copy.write_text(Path(SAMPLE).read_text(encoding="utf-8"), encoding="utf-8")
    first = run("analyse", str(copy), "--turn", "5", "--try", "Ana Ben d Bs8@-2,0 /Ma3", "-b", "4", "--in-place")
    second = run("analyse", str(copy), "-t", "5", "--try", "d d Bs8@-2,0 /Ma3", "-b", "4", "-i", "--suppose", "Ben:Ja7")
    assert (first.exit_code, second.exit_code) == (0, 0), first.output + second.output
    [record] = parse(Path(SAMPLE).read_text(encoding="utf-8"), SAMPLE)
    once = _with_try(record, "Ana Ben d Bs8@-2,0 /Ma3", note=True, budget=4, seed="0")
    twice = _with_try(once, "d d Bs8@-2,0 /Ma3", note=False)
    assert copy.read_text(encoding="utf-8") == format_games([twice])
    assert [note_of(v.turns[0]) is None for v in twice.turns[4].variations] == [False, True]


def test_a_turn_the_game_does_not_reach_is_a_usage_error():
    result = run("analyse", SAMPLE, "--turn", "99", "--try", "d d Bs8@-2,0 /Ma3")
    assert result.exit_code == 2
    assert result.stderr.startswith("arbo: game 1: the main line has ")


def test_a_hypothetical_judges_both_turns_as_the_library_does_under_it():
    args = ("analyse", SAMPLE, "--turn", "5", "--try", "d d Bs8@-2,0 /Ma3", "-b", "4", "--seed", "3")
    supposed = run(*args, "--suppose", "Ben:Ja7", "--suppose", "Ben:Ca1", "--json")
    assert supposed.exit_code == 0, supposed.output
    judged = json.loads(supposed.stdout)
    assert judged["supposed"] == ["Ja7 in Ben's hand", "Ca1 in Ben's hand"]
    [record] = parse(Path(SAMPLE).read_text(encoding="utf-8"), SAMPLE)
    hypotheses = [Hypothesis("Ben", Card.parse("Ja7")), Hypothesis("Ben", Card.parse("Ca1"))]
    expected = what_if(load_tree(record).node(5), "d d Bs8@-2,0 /Ma3", budget=4, seed="3", hypotheses=hypotheses)
    assert {k: v for k, v in judged.items() if k != "supposed"} == json.loads(json.dumps(expected.to_json()))
    text = run(*args, "--suppose", "Ben:Ja7").stdout.splitlines()
    assert text[0] == "supposing Ja7 in Ben's hand (a hypothetical: never written into the record)"
    # the same --suppose twice is one fact, supposed and said once (issue 45, point 19)
    twice = run(*args, "--suppose", "Ben:Ja7", "--suppose", "Ben:Ja7")
    assert (twice.exit_code, twice.stdout.splitlines()) == (0, text)


def test_a_hypothetical_the_view_rules_out_or_malformed_is_one_message():
    args = ("analyse", SAMPLE, "--turn", "5", "--try", "d d Bs8@-2,0 /Ma3", "-b", "4")
    on_table = run(*args, "--suppose", "Ben:Ma4")
    assert (on_table.exit_code, on_table.stderr) == (
        1,
        "arbo: --try 'd d Bs8@-2,0 /Ma3': Ma4 cannot be supposed in Ben's hand: it is on the table as Ana's seat knows\n",
    )
    # issue 45, point 19: a code in the wrong case was refused as a card "on the table"
    wrong_case = run(*args, "--suppose", "Ben:ja7")
    assert (wrong_case.exit_code, wrong_case.stderr) == (
        2,
        "arbo: --suppose 'Ben:ja7': no species is written ja (case matters): write Ben:Ja7\n",
    )
    not_in_play = run(*args, "--suppose", "Ben:Zz7")
    assert (not_in_play.exit_code, not_in_play.stderr) == (
        2,
        "arbo: --suppose 'Ben:Zz7': Zz is not a species in play (Bs, Ca, Cb, Dw, Ja, Ma)\n",
    )
    malformed = run(*args, "--suppose", "Ja7")
    assert (malformed.exit_code, malformed.stderr) == (
        2,
        "arbo: --suppose 'Ja7': expected PLAYER:CARD (such as Ben:Ma3)\n",
    )
    alone = run("analyse", SAMPLE, "--turn", "5", "--suppose", "Ben:Ja7")
    assert (alone.exit_code, alone.stderr) == (
        2,
        "arbo: --suppose needs --try: a hypothetical is judged in a what-if\n",
    )


def _commented(path: Path) -> list[str]:
    """samples/two-player-omniscient.arb at ``path``, its header holding the user's notes: the
    comment lines (one before a key, one inside the deck's list, one after the last key) and an
    inline one."""
    text = Path(SAMPLE).read_text(encoding="utf-8")
    notes = ["# from Ana's scoresheet", "  # the deck as the dealer wrote it", "# checked twice"]
    text = text.replace("event: Club night\n", f"{notes[0]}\nevent: Club night  # the Tuesday one\n", 1)
    text = text.replace("deck: [", f"deck:\n{notes[1]}\n  [", 1)
    text = text.replace("\n---\n1. ", f"\n{notes[2]}\n---\n1. ", 1)
    path.write_text(text, encoding="utf-8")
    return [*notes, "event: Club night  # the Tuesday one"]


@pytest.mark.parametrize("where", ["--in-place", "-o"])
def test_a_try_written_into_the_record_keeps_the_header_comments(tmp_path, where):
    """Issue 45, point 19: --in-place wrote the canonical header, which has no comments, and the
    user's notes in it were lost."""
    copy = tmp_path / "game.arb"
    notes = _commented(copy)
    before = copy.read_text(encoding="utf-8")
    out = copy if where == "--in-place" else tmp_path / "tried.arb"
    args = ["--in-place"] if where == "--in-place" else ["-o", str(out)]
    result = run("analyse", str(copy), "--turn", "5", "--try", "d d Ma5@-2,0 /Ca6", "-b", "4", *args)
    assert result.exit_code == 0, result.output
    written = out.read_text(encoding="utf-8")
    header = written.split("\n---\n", 1)[0] + "\n---\n"
    assert header == before.split("\n---\n", 1)[0] + "\n---\n"  # as written, every line
    assert all(note in header.splitlines() for note in notes)
    [record] = parse(written, str(out))
    assert str(record.turns[4].variations[-1].turns[0].draws[0]) == "d:Ma3"
    again = run("analyse", str(out), "--turn", "5", "--try", "d d Ma5@-2,0 /Ca6", "-b", "4", "--in-place")
    assert again.exit_code == 0 and out.read_text(encoding="utf-8").startswith(header)
