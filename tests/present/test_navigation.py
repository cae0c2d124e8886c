"""The replayer's navigation model (no textual): stepping, jumps, variations, perspective, errors."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.errors import ArboError
from arbo_notation.notation.views import partial_record
from arbo_notation.game.replay import replay_game
from arbo_notation.present.navigation import HIDDEN, MAIN, Cursor, ReplayModel
from tests.tui_support import annotated, four_player, make_fixtures


def test_the_fixture_files_are_the_games_they_should_be():
    assert annotated() == make_fixtures.annotated_record()
    replay = replay_game(four_player())
    assert replay.valid and replay.final.is_over and len(four_player().turns) > 20


@pytest.fixture
def model() -> ReplayModel:
    return ReplayModel.from_record(annotated())


def test_positions_are_the_replayers_states(model):
    replay = replay_game(annotated(), keep_states=True)
    main = model.lines[MAIN]
    assert main.legal == 7 and main.error is None
    for index in range(7):  # the last one is the final table, reveals applied
        assert main.states[index].arboretum("Ana") == replay.states[index].arboretum("Ana")
        assert main.states[index].hand("Ben") == replay.states[index].hand("Ben")


def test_stepping_forward_and_back(model):
    assert model.at_start and model.turn is None
    assert not model.previous()
    assert model.next()
    assert model.cursor == Cursor(MAIN, 1)
    assert model.turn.notation() == "Ana d:Wi3 d:Ma5 Ma1@0,0 /Wi4"
    assert model.state.arboretum("Ana") == {Coord(0, 0): Card("Ma", 1)}
    assert model.state.current_player == "Ben"
    steps = 1
    while model.next():
        steps += 1
    assert steps == 7 and model.at_end and model.state.is_over
    assert not model.next()
    assert model.previous() and model.turns_played == 6


def test_home_end_and_goto(model):
    assert model.end() and model.turns_played == 7
    assert model.home() and model.cursor == Cursor(MAIN, 0)
    assert model.goto(4) and model.cursor == Cursor(MAIN, 4)
    assert model.state.deck_size == 4  # six cards drawn from the deck in four turns
    assert not model.goto(8)  # no turn 8: the cursor stays
    assert model.cursor == Cursor(MAIN, 4)
    assert model.goto(0) and model.at_start


def test_enter_step_and_leave_a_variation(model):
    model.goto(2)
    notes = model.notes()
    assert notes.variations_here == 2
    assert "Ben gives the Maple 3 away." in [c.text for c in notes.before]
    assert model.toggle_variation() == "entered"
    assert model.cursor == Cursor(((1, 0),), 1)
    assert model.in_variation and model.turns_played == 2
    # the variation replaces turn 2: Ben discarded Wi1 instead of Ma3
    assert model.state.discard_pile("Ben") == (Card("Wi", 1),)
    assert model.notes().in_variation == "variation 1 of 2 on turn 2"
    assert [c.text for c in model.notes().variation_before] == ["Safer:"]
    assert model.next() and model.turns_played == 3
    assert model.state.arboretum("Ana")[Coord(1, 0)] == Card("Ma", 5)
    assert not model.next()  # the variation has two turns
    # a nested variation on the variation's turn 3
    assert model.enter_variation() and model.cursor == Cursor(((1, 0), (1, 0)), 1)
    assert model.notes().in_variation == "variation 1 of 1 on turn 3 (depth 2)"
    assert model.leave_variation() and model.cursor == Cursor(((1, 0),), 2)
    assert model.leave_variation() and model.cursor == Cursor(MAIN, 2)
    assert not model.leave_variation()
    assert model.state.discard_pile("Ben") == (Card("Ma", 3),)


def test_v_cycles_through_the_variations_of_a_turn_then_back(model):
    model.goto(2)
    assert model.toggle_variation() == "entered"
    assert model.cursor.line == ((1, 0),)
    assert model.toggle_variation() == "next"
    assert model.cursor == Cursor(((1, 1),), 1)
    assert model.toggle_variation() == "left"
    assert model.cursor == Cursor(MAIN, 2)
    model.goto(3)
    assert model.toggle_variation() == "none"


def test_back_from_a_variations_first_turn_is_the_branch_point(model):
    model.goto(5)
    model.enter_variation()
    assert model.cursor == Cursor(((4, 0),), 1)
    assert model.previous() and model.cursor == Cursor(MAIN, 4)


def test_goto_inside_a_variation_follows_its_line_then_its_parents(model):
    model.goto(5)
    model.enter_variation()
    assert model.goto(6) and model.cursor == Cursor(((4, 0),), 2)
    assert model.state.is_over  # this variation empties the deck a turn early
    assert not model.goto(7)
    assert model.goto(3) and model.cursor == Cursor(MAIN, 3)


def test_an_illegal_turn_in_a_variation_stops_it_with_the_message(model):
    line = model.lines[((1, 1),)]
    assert line.legal == 1
    assert line.error is not None and line.error.number == 3
    assert "Ana cannot draw Ma3 from Ben's discard pile: its top card is Ma4" in line.error.message
    model.goto(2)
    model.enter_variation(1)
    assert model.at_end and not model.next()
    assert any("its top card is Ma4" in p for p in model.notes().problems)
    statuses = [row.status for row in model.rows() if row.target.line == ((1, 1),)]
    assert statuses == ["ok", "error"]


def test_perspective_hides_the_other_hands(model):
    model.goto(3)
    assert model.perspective is None
    assert model.player_view("Ben").hand == tuple(str(c) for c in model.state.hand("Ben").known)
    assert model.cycle_perspective() == "Ana"
    ana, ben = model.player_view("Ana"), model.player_view("Ben")
    assert HIDDEN not in ana.hand and not ana.hand_hidden
    # turn 2 took Wi4 from Ana's pile in front of everyone: Ana knows it is in Ben's hand
    assert ben.hand == ("Wi4",) + (HIDDEN,) * 6 and not ben.hand_hidden
    assert ben.hand == model.knowledge().hands["Ben"].shown()
    model.goto(0)
    assert model.player_view("Ben").hand == (HIDDEN,) * 7 and model.player_view("Ben").hand_hidden
    model.goto(3)
    assert model.cycle_perspective() == "Ben"
    assert model.player_view("Ana").hand == (HIDDEN,) * 7
    assert model.cycle_perspective() is None
    model.set_perspective("Ben")
    model.end()  # at the end of the game every hand is shown
    assert HIDDEN not in model.player_view("Ana").hand
    with pytest.raises(ArboError):
        model.set_perspective("Zed")


def test_one_players_view_does_not_name_the_cards_others_drew_from_the_deck(model):
    model.set_perspective("Ana")
    rows = {row.target: row.notation for row in model.rows()}
    assert rows[Cursor(MAIN, 1)] == "Ana d:Wi3 d:Ma5 Ma1@0,0 /Wi4"  # her own draws
    assert rows[Cursor(MAIN, 2)] == "Ben d Ana:Wi4 Oa1@0,0 /Ma3"  # a pile's top card is public
    assert rows[Cursor(((1, 0),), 1)] == "Ben d d Oa1@0,0 /Wi1"
    model.goto(2)
    assert model.notes().heading == "Turn 2: Ben d Ana:Wi4 Oa1@0,0 /Ma3"
    model.set_perspective(None)
    assert model.notes().heading == "Turn 2: Ben d:Oa4 Ana:Wi4 Oa1@0,0 /Ma3"


def test_the_headers_perspective_is_the_default_and_unseen_cards_show_as_unknown():
    record = partial_record(annotated(), seated="Ben")
    model = ReplayModel.from_record(record)
    assert model.perspective == "Ben"
    model.goto(1)
    assert model.player_view("Ana").hand == (HIDDEN,) * 7
    model.set_perspective(None)  # omniscient view of a spectator's record: cards still unknown
    assert HIDDEN in model.player_view("Ana").hand
    assert HIDDEN not in model.player_view("Ben").hand
    assert model.sheet() is None and "not known" in model.unscored_reason()


def test_a_record_with_an_illegal_main_line_turn_opens_up_to_the_last_legal_turn():
    record = annotated()
    bad = replace(record.turns[3], plant=replace(record.turns[3].plant, coord=Coord(5, 5)))
    record = replace(record, turns=record.turns[:3] + (bad,) + record.turns[4:])
    model = ReplayModel.from_record(record)
    assert model.main_turns == 3
    assert model.end() and model.turns_played == 3
    [problem] = model.notes().problems
    assert problem.startswith("turn 4 (Ben d:Ma6 d:Oa5 Oa4@5,5 /Ma6) is illegal")
    assert "none of Ben's trees is adjacent" in problem
    rows = [row for row in model.rows() if not row.target.line]
    assert [row.status for row in rows] == ["start", "ok", "ok", "ok", "error", "unreached", "unreached", "unreached"]
    assert all(row.target == Cursor(MAIN, 3) for row in rows[4:])
    assert model.sheet() is not None  # omniscient: scored as if the game ended there


def test_a_record_that_cannot_be_set_up_is_an_error():
    record = annotated()
    record = replace(record, header=replace(record.header, players=("Ana", "Ana")))
    with pytest.raises(ArboError, match="cannot be set up"):
        ReplayModel.from_record(record)


def test_move_rows_are_the_tree_in_reading_order_and_select_their_position(model):
    rows = model.rows()
    assert rows[0].status == "start"
    labels = [(row.label, row.depth) for row in rows]
    assert labels[:6] == [("start", 0), ("1.", 0), ("2.", 0), ("2.", 1), ("3.", 1), ("3.", 2)]
    for number, row in enumerate(rows):
        if row.status in ("ok", "start"):
            assert model.move_to(row.target) or model.cursor == row.target
            assert model.row_index() == number
    assert rows[1].glyphs == ("!",) and rows[2].variations == 2


def test_notes_at_the_start_and_the_end(model):
    notes = model.notes()
    assert notes.heading == "Start of the game"
    assert [c.text for c in notes.before] == ["A hand-worked game for the replayer's tests."]
    model.end()
    notes = model.notes()
    assert notes.glyphs == ("!!",)
    assert notes.heading.endswith("(game over)")
    assert "a 2-player game uses 6 species, this one 3" in notes.warnings


def test_the_sheet_at_the_end_is_the_replayers(model):
    model.end()
    replay = replay_game(annotated())
    assert model.sheet() is not None
    assert model.sheet().totals() == replay.sheet.totals() == {"Ana": 11, "Ben": 4}


def test_a_four_player_game_steps_to_its_end():
    model = ReplayModel.from_record(four_player())
    count = 0
    while model.next():
        count += 1
    assert count == len(four_player().turns) == model.main_turns
    assert model.state.is_over and model.sheet() is not None
    assert all(len(model.player_view(p).hand) == 7 for p in model.players)


def test_every_glyph_has_its_name_nags_included():
    from arbo_notation.present.navigation import glyph_meaning

    assert [glyph_meaning(g) for g in ("!", "?", "!!", "??", "!?", "?!")] == [
        "good",
        "mistake",
        "brilliant",
        "blunder",
        "interesting",
        "dubious",
    ]
    assert [glyph_meaning(f"${n}") for n in range(1, 7)] == [
        "good",
        "mistake",
        "brilliant",
        "blunder",
        "interesting",
        "dubious",
    ]  # PGN's $1 to $6 are the symbols
    assert glyph_meaning("$7") == "forced" and glyph_meaning("$13") == "an unclear position"
    assert glyph_meaning("$14") == "numeric annotation glyph 14"  # a chess meaning (White is better) left out
    assert glyph_meaning("$255") == "numeric annotation glyph 255"


def test_the_replayers_notes_name_a_numeric_glyph():
    from arbo_notation.present.navigation import Notes
    from arbo_notation.tui.widgets import notes_text

    shown = notes_text(Notes("3. Ana d:Bs8 d:Ma7 Ma6@-1,0 /Ma2", glyphs=("$1", "!?"))).plain
    assert shown.splitlines()[1] == "$1 good, !? interesting"
