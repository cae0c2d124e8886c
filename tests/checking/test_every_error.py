"""Every independent error of a record in one run: syntax faults line by line, and the replay going
on after the rule errors whose outcome the record's facts give (docs/NOTATION.md, "Errors")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from arbo_notation.api import game_tree
from arbo_notation.cli import app
from arbo_notation.errors import NotationErrors, Severity
from arbo_notation.engine.actions import Draw
from arbo_notation.notation.reading.reader import parse, parse_all
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_games
from arbo_notation.checking.games import check_text
from arbo_notation.game.replay import MAIN, new_game, replay_game, replay_turn
from arbo_notation.play.simulate import simulate_games
from arbo_notation.game.tree import load_tree
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.tui.plaintext import render_plain

ROOT = Path(__file__).resolve().parents[2]
INVALID = ROOT / "samples" / "invalid"
runner = CliRunner()

# The hand-worked game of tests/game/test_replay.py: 24 cards, seven turns, the deck runs out on turn 7.
MINI = """\
---
players: [Ana, Ben]
species: [Ma, Oa, Wi]
deck: [Wi3, Ma5, Oa4, Wi6, Ma6, Oa5, Wi7, Ma8, Oa7, Wi8]
hands:
  Ana: [Ma1, Ma2, Oa3, Wi4, Wi5, Oa6, Ma7]
  Ben: [Oa1, Oa2, Wi1, Wi2, Ma3, Ma4, Oa8]
---
1. Ana d:Wi3 d:Ma5 Ma1@0,0 /Wi4
2. Ben d:Oa4 Ana:Wi4 Oa1@0,0 /Ma3
3. Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6
4. Ben d:Ma6 d:Oa5 Oa4@1,0 /Ma6
5. Ana d:Wi7 Ben:Ma6 Ma5@2,0 /Wi7
6. Ben d:Ma8 d:Oa7 Oa5@2,0 /Ma8
7. Ana d:Wi8 Ben:Ma8 Ma8@3,0 /Wi8
reveal Ana Ma2 Ma6 Ma7 Oa3 Oa6 Wi3 Wi5
reveal Ben Ma4 Oa2 Oa7 Oa8 Wi1 Wi2 Wi4
result Ana 11, Ben 4
"""

SIX = "---\nplayers: [Ana, Ben]\nspecies: [Ca, Dw, Ja, Ma, Oa, Wi]\n---\n"


def edited(*changes: tuple[str, str]) -> str:
    text = MINI
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def errors_of(text: str) -> list[tuple[str, int | None, int | None, str]]:
    check = check_text(text, "mini.arb")
    return [(d.code, d.line, d.column, d.message) for d in check.diagnostics if d.severity is Severity.ERROR]


def run(*args: str):
    return runner.invoke(app, list(args))


# -- arbo check: one located error for each fault, in one run --------------------------------------


def test_a_record_with_five_independent_rule_faults_gets_five_errors_in_one_run():
    path = INVALID / "rule-several-faults.arb"
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.stderr == "".join(
        f"{path}:{line}\n"
        for line in [
            "1:1: warning: a 2-player game uses 6 species, this one 3 [species-count]\n    ---\n    ^",
            "11:1: error: it is Ana's turn, not Ben's [turn-order]\n    3. Ben d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6\n    ^",
            "13:14: error: Ana cannot draw Ma4 from Ben's discard pile: its top card is Ma6 [draw]\n"
            "    5. Ana d:Wi7 Ben:Ma4 Ma5@2,0 /Wi7\n                 ^",
            "14:8: error: Ben cannot draw Oa7 from the deck: its top card is Ma8 [draw]\n"
            "    6. Ben d:Oa7 d:Ma8 Oa5@2,0 /Ma8\n           ^",
            "16:1: error: Ana's revealed hand lacks Wi5, which Ana holds [reveal]\n"
            "    reveal Ana Ma2 Ma6 Ma7 Oa3 Oa6 Wi3 Wi4\n    ^",
            "18:1: error: the result line gives Ben 6, but Ben scores 4 (Oa 4) [result]\n"
            "    result Ana 11, Ben 6\n    ^",
        ]
    )
    assert "1 invalid" in result.stdout


def test_a_game_with_five_faulty_lines_gets_five_syntax_errors_in_one_run():
    path = INVALID / "several-syntax-faults.arb"
    result = run("check", "--quiet", str(path))
    assert result.exit_code == 1
    found = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert found == [
        f"{path}:{where}: error: {message} [syntax]"
        for where, message in [
            ("7:23", "expected a card such as Ma3 after '/', found 'Ma9': a card's value runs 1 to 8"),
            ("8:25", "unknown glyph '!!!': the glyphs are ! ? !! ?? !? ?! and numeric glyphs such as $12"),
            (
                "11:13",
                "expected a draw ('d', 'd:Ma3', a player's name, 'Ana:Ja2' or '-') after 'd', found 'Ja2@0,1' "
                "(a turn has two draws)",
            ),
            ("12:20", "expected a discard such as /Oa5 after 'Ca1@2,0', found 'Dw2'"),
            ("13:36", "expected a card such as Ma3 in Ana's reveal line, found 'Ma0': a card's value runs 1 to 8"),
        ]
    ]
    check = check_text(path.read_text(), str(path))
    assert (check.game_count, check.valid_count, check.invalid_games) == (1, 0, 1)


def test_syntax_errors_of_one_game_and_rule_errors_of_the_next_in_one_run(tmp_path: Path):
    path = tmp_path / "two.arb"
    broken = SIX + "1. Ana d d Ma3@0,0 /Oa9\n2. Ben d d Ma9@0,0 /Oa4\n"
    slips = edited(("3. Ana d:Wi6", "3. Ben d:Wi6"), ("Ben:Ma6 Ma5", "Ben:Ma4 Ma5"))
    path.write_text(broken + "\n" + slips)
    result = run("check", "--quiet", "--json", str(path))
    assert result.exit_code == 1
    import json

    found = [
        (d["game"], d["line"], d["column"], d["code"]) for d in json.loads(result.stdout)["files"][0]["diagnostics"]
    ]
    assert found == [
        (1, 5, 21, "syntax"),
        (1, 6, 12, "syntax"),
        (2, 8, 1, "species-count"),
        (2, 18, 1, "turn-order"),
        (2, 20, 14, "draw"),
    ]
    data = json.loads(result.stdout)
    assert (data["games"], data["valid"], data["invalid"]) == (2, 0, 2)


def test_the_rule_error_example_of_notation_md_is_what_check_prints():
    text = (ROOT / "docs" / "NOTATION.md").read_text(encoding="utf-8")
    example = re.search(r"```text\n(club\.arb:14:8: error: .*?)\n```", text, re.S).group(1)
    path = INVALID / "rule-several-faults.arb"
    shown = run("check", str(path)).stderr.replace(f"{path}:", "club.arb:")
    assert example + "\n" in shown


# -- syntax: each faulty line, and nothing that only follows from one ------------------------------


def syntax_errors(text: str) -> list[tuple[int, int, str]]:
    return [(e.line, e.column, e.message) for e in parse_all(text, "s.arb").errors]


def test_each_faulty_turn_line_is_reported_and_the_good_ones_are_not():
    text = SIX + "1. Ana d d Ma3@0,0 /Oa9\n2. Ben d Ana Oa5@0,0 /Wi7\n3. Ana d d Ma4@1,0\n4. Ben d d Wi2@1,0 /Ja2\n"
    assert syntax_errors(text) == [
        (5, 21, "expected a card such as Ma3 after '/', found 'Oa9': a card's value runs 1 to 8"),
        (7, 19, "expected a discard such as /Oa5 after 'Ma4@1,0', found end of line"),
    ]


def test_a_comment_over_several_lines_after_a_fault_is_skipped_whole():
    text = SIX + "1. Ana d d Ma3@0,0 /Oa9 {a comment\n2. Ben d d is not a turn here}\n2. Ben d d Ma9@0,0 /Oa4\n"
    assert syntax_errors(text) == [
        (5, 21, "expected a card such as Ma3 after '/', found 'Oa9': a card's value runs 1 to 8"),
        (7, 12, "expected a card such as Ma3 to plant, found 'Ma9': a card's value runs 1 to 8"),
    ]


def test_the_parentheses_of_a_faulty_line_still_open_and_close_variations():
    opened = SIX + "1. Ana d d Ma3@0,0 /Oa5\n2. Ben d d Oa5@0,0 /Wi9 (2. Ben d d Ja2@0,0 /Wi7\n3. Ana d d x /Ca1)\n"
    assert syntax_errors(opened) == [
        (6, 21, "expected a card such as Ma3 after '/', found 'Wi9': a card's value runs 1 to 8"),
        (7, 12, "expected a planting such as Ma3@0,1 after 'd', found 'x' (a turn has exactly two draws)"),
    ]
    closed = SIX + "1. Ana d d Ma3@0,0 /Oa5\n  (1. Ana d Ma3@0,0 /Oa5)\n2. Ben d d Oa5@0,0 /Wi7 !!!\n"
    assert [line for line, _, _ in syntax_errors(closed)] == [6, 7]


def test_stray_brackets_and_misplaced_glyphs_are_each_reported_once():
    text = (
        SIX + "(1. Ana d d Ma3@0,0 /Oa5)\n1. Ana d d Ma3@0,0 /Oa5 )\n2. Ben d d Oa5@0,0 /Wi7 {x} !\n"
        "3. Ana d d Ma4@1,0 /Ca1 }\n"
    )
    assert syntax_errors(text) == [
        (5, 1, "a variation '(' must follow the turn it replaces"),
        (6, 25, "')' has no matching '('"),
        (7, 29, "a glyph goes right after the discard of its turn, on its line and before any comment"),
        (8, 25, "'}' has no matching '{' (a comment is written {like this})"),
    ]


def test_a_fault_in_the_shape_of_the_game_ends_its_reading():
    after_result = SIX + "1. Ana d d Ma3@0,9x /Oa5\nresult *\n2. Ben d d Oa5@0,0 /Wi7\n3. Ana d d Oa5@0,0 /Wi7\n"
    assert [(line, column) for line, column, _ in syntax_errors(after_result)] == [(5, 16), (7, 1)]
    unclosed = SIX + "1. Ana d d Ma3@0,0 /Oa5 {oops\n2. Ben d d Oa5@0,0 /Wi9\n"
    assert syntax_errors(unclosed) == [(5, 25, "unclosed comment: '{' at line 5 column 25 has no '}'")]


def test_what_only_follows_from_a_fault_on_its_line_is_not_told_again():
    draw = (
        "expected a draw ('d', 'd:Ma3', a player's name, 'Ana:Ja2' or '-') after 'd', found 'Ma3@0,0' "
        "(a turn has two draws)"
    )
    # a '{' left open on a faulty line, a '(' glued to a word, a ')' where the fault is
    for line in ("1. Ana d Ma3@0,0 /Oa5 {oops", "1. Ana d Ma3@0,0( /Oa5", "1. Ana d Ma3@0,0 /Oa5 (d d"):
        assert syntax_errors(SIX + line + "\n2. Ben d d Oa5@0,0 /Wi9\n") == [
            (5, 10, draw),
            (6, 21, "expected a card such as Ma3 after '/', found 'Wi9': a card's value runs 1 to 8"),
        ], line
    in_variation = SIX + "1. Ana d d Ma3@0,0 /Oa5\n  (1. Ana d d Ma3@0,0 ) /Oa5\n  2. Ben d d Oa5@0,0 /Wi7)\n"
    assert syntax_errors(in_variation) == [(6, 23, "expected a discard such as /Oa5 after 'Ma3@0,0', found ')'")]
    # a turn cut short by a line break: the rest of it on the next line is not another fault
    cut = SIX + "1. Ana\n  d d Ma3@0,0 /Oa5\n2. Ben d d Oa5@0,0 /Wi9\n"
    assert syntax_errors(cut) == [
        (5, 7, "expected a draw ('d', 'd:Ma3', a player's name, 'Ana:Ja2' or '-') after 'Ana', found end of line"),
        (7, 21, "expected a card such as Ma3 after '/', found 'Wi9': a card's value runs 1 to 8"),
    ]


def test_a_header_error_does_not_hide_the_faults_of_the_body():
    text = "---\nplayers: [Ana, Ana]\nspecies: [Ma, Oa]\n---\n1. Ana d d Ma3@0,0 /Oa9\n"
    [(line, _, header), body] = syntax_errors(text)
    assert line == 2 and "Ana" in header
    assert body == (5, 21, "expected a card such as Ma3 after '/', found 'Oa9': a card's value runs 1 to 8")


def test_a_header_that_lost_its_closing_line_hides_the_body_where_it_is_a_guess():
    game = SIX + "1. Ana d d Ma3@0,0 /Oa5\n"
    outcome = parse_all(game.replace("]\n---\n", "]\n--\n", 1) + game, "h.arb")
    # game 2's opening '---' closes game 1's header: its lines are game 1's body, not read as turns
    assert [(outcome.game_of(e), e.line) for e in outcome.errors] == [(1, 5), (2, 9)]
    assert outcome.errors[0].message.startswith("the header is not valid YAML")
    assert outcome.errors[1].message == "unclosed header: '---' at line 9 has no closing '---' line"


def test_every_error_belongs_to_its_game_and_a_game_counts_once():
    good = SIX + "1. Ana d d Ma3@0,0 /Oa5\n"
    bad = SIX + "1. Ana d d Ma3@0,0 /Oa9\n2. Ben d d Ma9@0,0 /Oa4\n"
    outcome = parse_all(good + bad + good + bad, "m.arb")
    assert [outcome.game_of(e) for e in outcome.errors] == [2, 2, 4, 4]
    assert [len(s.errors) for s in outcome.game_spans] == [0, 2, 0, 2]
    assert outcome.game_spans[1].error is outcome.errors[0] and outcome.unreadable == 2
    check = check_text(good + bad + good + bad, "m.arb")
    assert (check.game_count, check.valid_count) == (4, 2)
    with pytest.raises(NotationErrors) as raised:
        game_tree(good + bad, "m.arb", 2)
    assert [e.line for e in raised.value.errors] == [10, 11]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_independent_faults_on_separate_lines_are_each_reported_once(data):
    record = _SIMULATED[data.draw(st.integers(0, len(_SIMULATED) - 1))]
    lines = format_games([record]).split("\n")
    turn_lines = [i for i, line in enumerate(lines) if re.match(r"[0-9]+\. ", line)]
    chosen = sorted(data.draw(st.sets(st.sampled_from(turn_lines), min_size=1, max_size=4)))
    faults = {
        "discard": (
            lambda line: re.sub(r"/(\w+)$", "/Xx9", line),
            "expected a card such as Ma3 after '/', found 'Xx9': a card's value runs 1 to 8",
        ),
        "planting": (
            lambda line: re.sub(r" (\w+)@", " Xx0@", line),
            "expected a card such as Ma3 to plant, found 'Xx0': a card's value runs 1 to 8",
        ),
        "glyph": (lambda line: line + " !!!", "unknown glyph '!!!'"),
    }
    expected = []
    for at in chosen:
        kind = data.draw(st.sampled_from(sorted(faults)))
        change, message = faults[kind]
        lines[at] = change(lines[at])
        expected.append((at + 1, message))
    found = parse_all("\n".join(lines), "f.arb").errors
    # Not strict: a count that differs is reported by the next line.
    pairs = zip(found, expected, strict=False)
    assert [(e.line, message) for e, (_, message) in pairs if message in e.message] == expected
    assert len(found) == len(expected)


# -- rules: the replay goes on where the record's facts say what happened --------------------------


def test_a_wrong_name_is_played_by_the_player_whose_turn_it_is_and_the_game_goes_on():
    text = edited(("3. Ana d:Wi6", "3. Ben d:Wi6"), ("7. Ana d:Wi8", "7. Bob d:Wi8"))
    assert errors_of(text) == [
        ("turn-order", 11, 1, "it is Ana's turn, not Ben's"),
        ("turn-order", 15, 1, "Bob is not a player of this game (Ana, Ben)"),
    ]
    [game] = check_text(text, "mini.arb").games
    assert game.legal_turns == 7 and game.sheet.totals() == {"Ana": 11, "Ben": 4}


def test_a_missing_turn_is_not_taken_for_a_wrong_name():
    # Ana's turn 3 left out: the turns after it are all one seat off, so the replay stops once.
    text = edited(("3. Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6\n", ""))
    assert errors_of(text) == [("turn-order", 11, 1, "it is Ana's turn, not Ben's")]


def test_a_pile_draw_naming_another_card_draws_the_top_card():
    text = edited(("Ben:Ma6 Ma5@2,0", "Ben:Ma4 Ma5@2,0"), ("Ben:Ma8 Ma8@3,0", "Ben:Oa8 Ma8@3,0"))
    assert errors_of(text) == [
        ("draw", 13, 14, "Ana cannot draw Ma4 from Ben's discard pile: its top card is Ma6"),
        ("draw", 15, 14, "Ana cannot draw Oa8 from Ben's discard pile: its top card is Ma8"),
    ]
    [game] = check_text(text, "mini.arb").games
    assert game.sheet.totals() == {"Ana": 11, "Ben": 4}


def test_what_only_follows_from_a_wrong_draw_is_not_reported_again():
    # The record names Ma4 and plants it; Ma4 is in Ben's hand: the turn cannot be followed.
    text = edited(("d:Wi7 Ben:Ma6 Ma5@2,0 /Wi7", "d:Wi7 Ben:Ma4 Ma4@2,0 /Wi7"), ("result Ana 11", "result Ana 12"))
    assert errors_of(text) == [("draw", 13, 14, "Ana cannot draw Ma4 from Ben's discard pile: its top card is Ma6")]
    swapped = edited(("6. Ben d:Ma8 d:Oa7", "6. Ben d:Oa7 d:Ma8"))
    assert errors_of(swapped) == [("draw", 14, 8, "Ben cannot draw Oa7 from the deck: its top card is Ma8")]


def test_a_wrong_name_whose_cards_are_the_named_players_stops_with_that_error_alone():
    # Turn 3 written for Ben, with one of Ben's cards planted: not only the name is wrong.
    text = edited(("3. Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6", "3. Ben d:Wi6 Ben:Ma3 Ma4@1,0 /Wi6"))
    assert errors_of(text) == [("turn-order", 11, 1, "it is Ana's turn, not Ben's")]


def test_an_independent_fault_after_a_repair_in_the_same_turn_is_reported_and_stops():
    text = edited(("3. Ana d:Wi6 Ben:Ma3 Ma3@1,0", "3. Ben d:Wi6 Ben:Ma3 Ma3@5,5"))
    assert errors_of(text) == [
        ("turn-order", 11, 1, "it is Ana's turn, not Ben's"),
        ("plant", 11, 22, "Ana cannot plant Ma3 at (5,5): none of Ana's trees is adjacent"),
    ]
    [game] = check_text(text, "mini.arb").games
    assert game.legal_turns == 2


@pytest.mark.parametrize(
    ("old", "new", "code", "column"),
    [
        ("Oa4@1,0", "Oa1@0,0", "plant", 20),  # a planting on an occupied cell
        ("d:Wi6 Ben:Ma3", "d:Wi6 Ana:Ma3", "draw", 14),  # a draw from an empty pile
        ("Ma5@2,0 /Wi7", "Ma5@2,0 /Wi4", "discard", 30),  # a card that cannot be in the hand
    ],
)
def test_where_going_on_would_be_a_guess_the_game_stops_there(old, new, code, column):
    text = edited((old, new), ("result Ana 11", "result Ana 12"))
    [(found, _, at, _)] = errors_of(text)
    assert (found, at) == (code, column)


def test_a_spectators_deck_draw_naming_a_card_seen_elsewhere_stops():
    [record] = parse(edited(("4. Ben d:Ma6", "4. Ben d:Ma1")))
    replay = replay_game(partial_record(record, seated="Ben"))
    assert [(d.code, d.line) for d in replay.errors] == [("draw", 12)]
    assert "Ma1 is already planted in Ana's arboretum" in replay.errors[0].message


def test_a_wrong_reveal_in_a_spectators_record_is_not_told_twice():
    [record] = parse(edited(("reveal Ana Ma2 Ma6", "reveal Ana Ma2 Ma4")))
    replay = replay_game(partial_record(record))
    assert [(d.code, d.message) for d in replay.errors] == [
        ("reveal", "Ana's revealed hand lacks Ma6, which Ana holds")
    ]


def test_replay_turn_tells_the_repaired_faults_from_the_stop():
    [record] = parse(edited(("3. Ana d:Wi6 Ben:Ma3", "3. Ben d:Wi6 Ben:Ma4")))
    game = new_game(record)
    for turn in record.turns[:2]:
        assert not replay_turn(game, turn).repaired
    found = replay_turn(game, record.turns[2], record.turns[3])
    assert [e.code for e in found] == ["turn-order", "draw"] and found.stop is None
    assert game.arboretum("Ana")[record.turns[2].plant.coord] == record.turns[2].plant.card
    assert game.current_player == "Ben" and game.turn_number == 4


# -- the tree and the replay screen show a repaired turn where it stands ---------------------------


def test_a_repaired_turn_is_a_node_with_its_faults_and_the_line_goes_on():
    text = edited(("3. Ana d:Wi6", "3. Ben d:Wi6"), ("Oa5@2,0 /Ma8", "Oa5@2,5 /Ma8"))
    [record] = parse(text)
    tree = load_tree(record, text.splitlines())
    nodes = list(tree.mainline())
    assert [(n.number, [f.code for f in n.faults]) for n in nodes if n.faults] == [(3, ["turn-order"])]
    assert str(nodes[3].faults[0]) == "turn 3 (Ben d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6) is illegal: it is Ana's turn, not Ben's"
    assert nodes[3].error is None and nodes[0].faults == ()
    end = tree.end()
    assert end.number == 5 and end.error.code == "plant" and end.error.number == 6
    main = tree.lines[MAIN]
    assert (main.legal, [f.number for f in main.faults]) == (5, [3])


def test_a_repaired_turn_in_a_variation_goes_on_too():
    text = edited(
        (
            "3. Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6\n",
            "3. Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6\n  (3. Ben d:Wi6 Ben:Ma3 Ma2@0,1 /Wi6 4. Ben d:Ma6 d:Oa5 Oa4@1,0 /Ma6)\n",
        )
    )
    assert errors_of(text) == [("turn-order", 12, 4, "it is Ana's turn, not Ben's")]
    tree = load_tree(parse(text)[0], text.splitlines())
    [line] = [line for path, line in tree.lines.items() if path]
    assert line.legal == 2 and [f.index for f in line.faults] == [0] and line.error is None


def test_the_replay_screen_shows_a_repaired_turn_as_an_error_and_goes_on():
    text = edited(("3. Ana d:Wi6", "3. Ben d:Wi6"))
    [record] = parse(text)
    model = ReplayModel(load_tree(record, text.splitlines()))
    rows = model.rows()
    assert [(row.number, row.status) for row in rows][3:5] == [(3, "error"), (4, "ok")]
    assert model.goto(3)
    assert model.notes().problems == (
        "turn 3 (Ben d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6) is illegal: it is Ana's turn, not Ben's",
    )
    assert model.goto(7) and model.state.is_over
    plain = render_plain(model)
    assert "== 3. Ben d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6 ==\n  error: turn 3 (Ben d:Wi6" in plain
    assert "== scoring ==" in plain and "the replay stops" not in plain


# -- the fast check and the full check agree on records with several faults ------------------------

_SIMULATED = list(simulate_games(2, 3, "several", bots=("random",))) + list(
    simulate_games(3, 2, "several", bots=("random",))
)


def _slip(line: str, record, index: int, kind: str, value: int) -> str | None:
    """One slip in a turn's line whose outcome the record's facts give, or None when it does not fit."""
    turn = record.turns[index]
    players = record.header.players
    if kind == "name":
        other = players[(players.index(turn.player) + 1 + value % (len(players) - 1)) % len(players)]
        return line.replace(f". {turn.player} ", f". {other} ", 1)
    draws = [
        d for d in turn.draws if isinstance(d, Draw) and d.card is not None and (kind == "deck") == (d.owner is None)
    ]
    if not draws:
        return None
    draw = draws[value % len(draws)]
    used = {turn.plant.card, turn.discard} | {d.card for d in turn.draws}
    cards = [c for c in new_game(record).config.cards if c not in used]
    wrong = cards[value % len(cards)]
    return line.replace(f" {draw} ", f" {str(draw).split(':')[0]}:{wrong} ", 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_several_slips_each_get_one_error_and_the_fast_check_agrees(data):
    number = data.draw(st.integers(0, len(_SIMULATED) - 1))
    record = _SIMULATED[number]
    text = format_games([record])
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    # slips on turns that are not next to each other (a wrong name is told by the next turn's)
    picks = sorted(data.draw(st.sets(st.integers(0, len(record.turns) // 2 - 1), min_size=1, max_size=4)))
    expected = []
    for pick in picks:
        index = pick * 2
        kind = data.draw(st.sampled_from(["name", "pile", "deck"]))
        slipped = _slip(lines[first + index], record, index, kind, data.draw(st.integers(0, 1000)))
        if slipped is None:
            continue
        lines[first + index] = slipped
        expected.append((first + index + 1, "turn-order" if kind == "name" else "draw"))
    if not expected:
        return
    text = "\n".join(lines)
    full = check_text(text, "slips.arb")
    fast = check_text(text, "slips.arb", keep_games=False)
    assert (fast.valid, fast.diagnostics) == (full.valid, full.diagnostics)
    errors = [(d.line, d.code) for d in full.diagnostics if d.severity is Severity.ERROR]
    assert errors == expected
    [game] = full.games
    assert game.sheet is not None and game.sheet.totals() == record.result.as_dict()


@pytest.mark.parametrize("path", sorted(INVALID.glob("*several*.arb")), ids=lambda p: p.name)
def test_the_fast_check_finds_every_error_the_full_check_finds(path: Path):
    text = path.read_text(encoding="utf-8")
    full, fast = check_text(text, path.name), check_text(text, path.name, keep_games=False)
    assert (
        fast.diagnostics == full.diagnostics and len([d for d in full.diagnostics if d.severity is Severity.ERROR]) == 5
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_several_faults_are_located_and_the_fast_check_agrees(data):
    record = _SIMULATED[data.draw(st.integers(0, len(_SIMULATED) - 1))]
    lines = format_games([record]).split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    cards = [str(c) for c in new_game(record).config.cards]
    for index in data.draw(st.sets(st.integers(0, len(record.turns) - 1), min_size=2, max_size=4)):
        words = lines[first + index].split(" ")  # number, player, draw, draw, planting, discard
        part = data.draw(st.integers(1, 5))
        if part == 1:
            words[1] = data.draw(st.sampled_from(list(record.header.players) + ["Zed"]))
        elif part in (2, 3):
            owner = data.draw(st.sampled_from(["d"] + list(record.header.players)))
            words[part] = owner + ":" + data.draw(st.sampled_from(cards))
        elif part == 4:
            card, _, cell = words[4].partition("@")
            x, _, y = cell.partition(",")
            words[4] = f"{card}@{int(x) + data.draw(st.integers(-1, 1))},{y}"
        else:
            words[5] = "/" + data.draw(st.sampled_from(cards))
        lines[first + index] = " ".join(words)
    text = "\n".join(lines)
    full = check_text(text, "faults.arb")
    fast = check_text(text, "faults.arb", keep_games=False)
    assert (fast.valid, fast.diagnostics) == (full.valid, full.diagnostics)
    errors = [d for d in full.diagnostics if d.severity is Severity.ERROR]
    assert len({(d.line, d.column, d.message) for d in errors}) == len(errors)  # each told once
    for diagnostic in errors:
        assert diagnostic.line is not None and diagnostic.column is not None and diagnostic.message
