"""The replayer on a hand-worked short game: every rule fault located, hidden cards, scoring."""

from __future__ import annotations

import pytest

from arbo_notation.errors import Severity
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.views import partial_record
from arbo_notation.checking.games import check_text
from arbo_notation.game.replay import replay_game

# A hand-worked game with three species (24 cards): 10 cards in the deck, seven turns.
# Ana ends with Ma1 Ma3 Ma5 Ma8 in a row (11 points) and the right to Maple (15 to 4);
# Ben has Oa1 Oa4 Oa5 (4 points) and the right to Oak (17 to 9); Ana holds Willow (8 to 7)
# but has no Willow path. The deck runs out on Ana's first draw of turn 7.
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


def errors_of(text: str) -> list[tuple[str, int | None, int | None, str]]:
    check = check_text(text, "mini.arb")
    return [(d.code, d.line, d.column, d.message) for d in check.diagnostics if d.severity is Severity.ERROR]


def test_the_hand_worked_game_is_valid_and_scores_as_worked_out():
    check = check_text(MINI, "mini.arb")
    assert check.valid
    [game] = check.games
    assert game.legal_turns == 7
    assert game.final.is_over
    assert game.sheet.totals() == {"Ana": 11, "Ben": 4}
    assert game.sheet.winners == ("Ana",)
    ana = game.sheet.player("Ana")
    assert ana.species["Ma"].hand_sum == 15 and ana.species["Ma"].points == 11
    assert ana.species["Wi"].rights and ana.species["Wi"].points == 0
    assert game.sheet.player("Ben").species["Oa"].hand_sum == 17
    # three species for two players is not a real game: a warning, not an error
    assert [d.code for d in game.diagnostics] == ["species-count"]


def test_a_spectators_record_of_the_game_checks_clean():
    [record] = parse(MINI)
    replay = replay_game(partial_record(record))
    assert replay.valid, [d.message for d in replay.diagnostics]
    assert replay.sheet.totals() == {"Ana": 11, "Ben": 4}


def test_a_seated_players_record_checks_clean_and_knows_their_hand():
    [record] = parse(MINI)
    replay = replay_game(partial_record(record, seated="Ben"), keep_states=True)
    assert replay.valid
    after_one = replay.states[1]
    assert after_one.hand("Ana").hidden == 7  # Ana's hand: Ma1 planted and Wi4 discarded from hidden slots
    assert after_one.hand("Ben").hidden == 0


@pytest.mark.parametrize(
    ("old", "new", "code", "line", "column", "message"),
    [
        ("Oa4@1,0", "Oa4@1,1", "plant", 12, 20, "Ben cannot plant Oa4 at (1,1): none of Ben's trees is adjacent"),
        ("Ma1@0,0", "Ma1@1,0", "plant", 9, 20, "the first tree of an arboretum stands at (0,0)"),
        (
            "2. Ben d:Oa4 Ana:Wi4",
            "2. Ben d:Oa4 Ben:Wi4",
            "draw",
            10,
            14,
            "Ben cannot draw from their own discard pile: it is empty",
        ),
        ("d:Wi6 Ben:Ma3", "d:Wi7 Ben:Ma3", "draw", 11, 8, "Ana cannot draw Wi7 from the deck: its top card is Wi6"),
        ("Ma5@2,0 /Wi7", "Ma5@2,0 /Wi4", "discard", 13, 30, "Ana cannot discard Wi4: it is in Ben's hand"),
        ("3. Ana", "3. Ben", "turn-order", 11, 1, "it is Ana's turn, not Ben's"),
        (
            "result Ana 11, Ben 4",
            "result Ana 12, Ben 4",
            "result",
            18,
            1,
            "the result line gives Ana 12, but Ana scores 11 (Ma 11)",
        ),
        ("reveal Ben Ma4 Oa2", "reveal Ben Ma4 Oa3", "reveal", 17, 1, "Ben's revealed hand lacks Oa2, which Ben holds"),
        (
            "reveal Ana Ma2 Ma6 Ma7 Oa3 Oa6 Wi3 Wi5",
            "reveal Ana Ma2 Ma6 Ma7 Oa3 Oa6 Wi3",
            "reveal",
            16,
            1,
            "Ana reveals 6 cards but holds 7",
        ),
    ],
)
def test_each_rule_fault_is_reported_where_it_stands(old, new, code, line, column, message):
    text = MINI.replace(old, new, 1)
    assert text != MINI
    found = errors_of(text)
    assert found, "the fault was not reported"
    assert found[0][:3] == (code, line, column)
    assert message in found[0][3]


@pytest.mark.parametrize("layout", ["a turn a line", "turns run on", "full replay"])
@pytest.mark.parametrize(
    ("result", "message"),
    [
        ("result Ana 11, Ana 11, Ben 4", "the result line names Ana twice"),
        ("result Ben 4, Ana 11, Ben 4", "the result line names Ben twice"),
        ("result Ana 11", "the result line has no score for Ben"),
        ("result Ana 11, Ben 4, Cleo 0", "the result line names Cleo, who is not a player"),
    ],
)
def test_a_result_line_names_each_player_once_whichever_reader_reads_it(layout, result, message):
    # Each reader path (the plain reader, the fast reader's moves, the records and the full
    # replay) reports the same located error: the rule is written once (game/facts.py, result_line_faults).
    text = MINI.replace("result Ana 11, Ben 4", result)
    if layout == "turns run on":
        text = text.replace("/Wi4\n2. Ben", "/Wi4 2. Ben")
    if layout == "full replay":
        [record] = parse(text)
        found = [
            (d.code, d.line, d.column, d.message)
            for d in replay_game(record).diagnostics
            if d.severity is Severity.ERROR
        ]
    else:
        found = errors_of(text)
    assert found == [("result", 18 - (layout == "turns run on"), 1, message)]


def test_a_result_line_is_checked_for_names_even_when_hands_are_hidden():
    [record] = parse(MINI.replace("result Ana 11, Ben 4", "result Ana 11, Ana 11, Ben 4"))
    messages = [d.message for d in replay_game(partial_record(record)).diagnostics]
    assert "the result line names Ana twice" in messages


def test_a_turn_after_the_end_is_an_error():
    text = MINI.replace("reveal Ana", "8. Ben d d Oa2@0,1 /Wi1\nreveal Ana")
    [(code, line, _, message)] = errors_of(text)
    assert (code, line) == ("game-over", 16)
    assert "the game is over" in message


def test_a_record_that_stops_early_must_say_so():
    stopped = MINI.split("5. Ana")[0] + "result Ana 3, Ben 1\n"
    [(code, _, _, message)] = errors_of(stopped)
    assert code == "unfinished"
    assert "result *" in message
    marked = MINI.split("5. Ana")[0] + "result *\n"
    assert errors_of(marked) == []


def test_a_record_without_a_result_line_is_fine_unfinished_or_not():
    """NOTATION.md: a game without a result line is fine; only 'result *' says it is unfinished."""
    stopped = MINI.split("5. Ana")[0]
    check = check_text(stopped, "mini.arb")
    assert [d.code for d in check.diagnostics] == ["species-count"]  # three species for two: a warning
    [game] = check.games
    assert game.valid and not game.final.is_over and game.sheet is None
    unrevealed = MINI.split("reveal Ana")[0]
    assert [d.code for d in check_text(unrevealed, "mini.arb").diagnostics] == ["species-count"]


def test_an_error_in_one_game_does_not_stop_the_next():
    bad = MINI.replace("Oa4@1,0", "Oa4@5,5")
    check = check_text(bad + "\n" + MINI, "two.arb")
    assert check.game_count == 2 and check.valid_count == 1
    assert [g.valid for g in check.games] == [False, True]


def test_variations_are_checked_from_the_position_before_their_turn():
    text = MINI.replace(
        "3. Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6\n",
        "3. Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6\n  (3. Ana d:Wi6 d:Ma6 Ma2@0,1 /Wi6 4. Ben Ana:Wi6 Ben:Ma3 Ma3@5,5 /Wi1)\n",
    )
    found = errors_of(text)
    assert [(c, line) for c, line, _, _ in found] == [("plant", 12)]
    assert "Ben cannot plant Ma3 at (5,5)" in found[0][3]


def spectator_text_errors(old: str, new: str) -> list[tuple[str, str]]:
    [record] = parse(MINI.replace(old, new, 1))
    replay = replay_game(partial_record(record))
    return [(d.code, d.message) for d in replay.errors]


def test_a_hidden_card_cannot_be_one_seen_elsewhere():
    found = spectator_text_errors("Oa1@0,0 /Ma3", "Ma1@0,0 /Ma3")
    assert found == [("plant", "Ben cannot plant Ma1 at (0,0): Ma1 is already planted in Ana's arboretum at 0,0")]


def test_a_revealed_hand_must_agree_with_the_cards_seen_going_into_it():
    found = spectator_text_errors("reveal Ana Ma2 Ma6", "reveal Ana Ma2 Ma4")
    assert found[0] == ("reveal", "Ana's revealed hand lacks Ma6, which Ana holds")


def test_a_revealed_card_cannot_be_in_two_hands():
    found = spectator_text_errors("reveal Ben Ma4 Oa2", "reveal Ben Ma4 Oa3")
    assert found[0] == ("reveal", "Ben reveals Oa3, but it is in Ana's hand")
