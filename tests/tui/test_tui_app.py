"""The replayer's terminal UI driven by keys (textual's Pilot): what the screen shows after each."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbo_notation.present.report import sheet_to_json, winner_line
from arbo_notation.game.replay import replay_game
from arbo_notation.notation.reading.reader import parse
from arbo_notation.tui.plaintext import render_plain
from arbo_notation.tui.app import GotoScreen, HelpScreen, ReplayApp, ScoringScreen
from arbo_notation.present.navigation import MAIN, Cursor, ReplayModel
from arbo_notation.tui.widgets import CardsLine, MoveList, NotesPanel, PlayerPanel
from textual.widgets import DataTable, Static
from tests.tui_support import annotated, four_player

SIZE = (120, 40)


def make_app(record=None, **kwargs) -> ReplayApp:
    return ReplayApp(ReplayModel.from_record(record or annotated()), **kwargs)


def shown(widget) -> str:
    """The text a widget shows."""
    rendered = widget.render()
    return getattr(rendered, "plain", str(rendered))


def status(app: ReplayApp) -> str:
    return str(app.query_one("#status", Static).render())


@pytest.mark.slow
async def test_right_and_left_step_through_the_turns():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert "start: Ana to play turn 1" in status(app)
        await pilot.press("right")
        assert app.cursor == Cursor(MAIN, 1)
        assert "after turn 1: Ben to play turn 2" in status(app)
        assert "Ma1" in shown(app.query_one("#grid-p0"))
        assert shown(app.query_one("#pile-p0")).startswith("pile Wi4  (1 card)")
        assert "Turn 1: Ana d:Wi3 d:Ma5 Ma1@0,0 /Wi4" in shown(app.query_one(NotesPanel))
        assert "▶ Ben" in str(app.query_one("#p1", PlayerPanel).border_title)
        assert "▶" not in str(app.query_one("#p0", PlayerPanel).border_title)
        await pilot.press("l", "l", "h")
        assert app.model.turns_played == 2
        assert app.query_one(MoveList).highlighted == app.model.row_index() == 2


async def test_home_end_and_the_scoring_after_the_last_turn():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        assert app.model.turns_played == 7 and "game over" in status(app)
        await pilot.press("home")
        assert app.model.at_start
        await pilot.press("end", "right")
        assert isinstance(app.screen, ScoringScreen)
        await pilot.press("left")  # closes the scoring, stays at the end
        assert not isinstance(app.screen, ScoringScreen) and app.model.turns_played == 7


@pytest.mark.slow
async def test_go_to_a_turn_number():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        assert isinstance(app.screen, GotoScreen)
        await pilot.press("5", "enter")
        assert app.cursor == Cursor(MAIN, 5)
        await pilot.press("g", "9", "9", "enter")  # no such turn: a notice, no move
        assert app.cursor == Cursor(MAIN, 5)
        await pilot.press("g", "escape")
        assert not isinstance(app.screen, GotoScreen) and app.cursor == Cursor(MAIN, 5)


async def test_perspective_hides_the_other_hands_on_screen():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right")
        ben_hand = app.query_one("#hand-p1", CardsLine)
        assert "??" not in shown(ben_hand)
        await pilot.press("p")
        assert app.perspective == "Ana" and "view: Ana" in status(app)
        moves = app.query_one(MoveList)
        assert str(moves.get_option_at_index(2).prompt).startswith("2.  Ben d Ana:Wi4 ")
        assert moves.highlighted == 2
        # Ben took Wi4 from Ana's pile in front of her: she knows it, not the six others
        assert shown(ben_hand).count("??") == 6 and "Wi4" in shown(ben_hand) and "Ma" not in shown(ben_hand)
        assert "??" not in shown(app.query_one("#hand-p0", CardsLine))
        await pilot.press("p")
        assert "??" not in shown(ben_hand)
        assert shown(app.query_one("#hand-p0", CardsLine)).count("??") == 7
        await pilot.press("p")
        assert app.perspective is None and "??" not in shown(ben_hand)


@pytest.mark.slow
async def test_variations_enter_step_and_leave():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right", "v")
        assert app.cursor == Cursor(((1, 0),), 1)
        notes = shown(app.query_one(NotesPanel))
        assert "In variation 1 of 2 on turn 2" in notes and "Ben keeps his Maples." in notes
        await pilot.press("right")
        assert app.cursor == Cursor(((1, 0),), 2)
        assert app.query_one(MoveList).highlighted == app.model.row_index()
        await pilot.press("escape")
        assert app.cursor == Cursor(MAIN, 2)
        await pilot.press("v", "v")  # the second variation: illegal on its second turn
        assert app.cursor == Cursor(((1, 1),), 1)
        assert "its top card is Ma4" in shown(app.query_one(NotesPanel))
        await pilot.press("v")
        assert app.cursor == Cursor(MAIN, 2)


async def test_choosing_a_row_of_the_move_list_jumps_there():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        moves = app.query_one(MoveList)
        moves.focus()
        await pilot.press("down", "down", "down", "enter")
        assert app.cursor == moves.rows[3].target == Cursor(((1, 0),), 1)


@pytest.mark.slow
async def test_scoring_screen_numbers_are_the_score_sheets():
    record = four_player()
    expected = sheet_to_json(replay_game(record).sheet)
    app = make_app(record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end", "s")
        screen = app.screen
        assert isinstance(screen, ScoringScreen)
        table = screen.query_one("#score-table", DataTable)
        for player in expected["players"]:
            name = player["name"]
            for code, score in player["species"].items():
                hand = table.get_cell(code, f"{name}:hand")
                right = table.get_cell(code, f"{name}:right")
                points = table.get_cell(code, f"{name}:pts")
                assert int(str(hand)) == score["hand_sum"]
                assert str(right) == ("yes" if score["rights"] else "no")
                assert int(str(points)) == score["points"]
            assert int(str(table.get_cell("total", f"{name}:pts"))) == player["total"]
        winner = str(screen.query_one("#winner", Static).render())
        assert winner == winner_line(replay_game(record).sheet)
        assert f"{expected['winners'][0]} wins" in winner
        if expected["tiebreak"] == "species":  # this fixture's game: a tie decided by species planted
            assert "on species planted" in winner
        await pilot.press("s")
        assert not isinstance(app.screen, ScoringScreen)


@pytest.mark.slow
async def test_a_narrow_scoring_screen_marks_the_rights_beside_the_hand_sums_and_fits_four_players():
    record = four_player()
    expected = sheet_to_json(replay_game(record).sheet)
    app = make_app(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end", "s")
        table = app.screen.query_one("#score-table", DataTable)
        assert [str(c.label) for c in table.columns.values()][:3] == [
            "species\n(✓ right to score)",
            "Ana\nhand",
            "\npts",
        ]
        for player in expected["players"]:
            for code, score in player["species"].items():
                mark = "✓" if score["rights"] else " "
                assert str(table.get_cell(code, f"{player['name']}:hand")) == f"{score['hand_sum']}{mark}"
                assert int(str(table.get_cell(code, f"{player['name']}:pts"))) == score["points"]
        assert table.virtual_size.width <= table.size.width  # no column out of sight
        await pilot.resize_terminal(120, 40)  # wide enough again: a column of rights per player
        await pilot.pause()
        table = app.screen.query_one("#score-table", DataTable)
        assert str(table.get_cell("Bs", "Ana:right")) in ("yes", "no")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        table = app.screen.query_one("#score-table", DataTable)
        assert "Ana:right" not in table.columns


@pytest.mark.slow
async def test_scoring_highlights_the_scored_paths():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end", "s")
        panel = app.screen.query_one("#paths-0")
        assert panel.border_title == "★ Ana: 11"
        grid = panel.query_one("ArboretumGrid")
        assert {str(c) for c in grid.highlight} == {"0,0", "1,0", "2,0", "3,0"}


@pytest.mark.slow
async def test_full_discard_piles_help_and_screenshot(tmp_path):
    app = make_app(screenshot_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        pile = app.query_one("#pile-p0", CardsLine)
        assert shown(pile) == "pile Wi8  (3 cards)"
        await pilot.press("d")
        assert shown(pile) == "pile Wi6 Wi7 Wi8  (3)"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = "\n".join(str(w.render()) for w in app.screen.query(Static))
        assert "next turn" in help_text and "Maple" in help_text
        assert all(w.region.height > 0 and w.region.width > 20 for w in app.screen.query(Static))
        await pilot.press("right")  # any key closes the help, and does nothing else
        assert not isinstance(app.screen, HelpScreen) and app.model.turns_played == 7
        await pilot.press("S")
        await pilot.pause()
        [svg] = tmp_path.glob("*.svg")
        assert svg.name == "arbo-annotated-g1-t7.svg"
        assert svg.read_text().startswith("<svg")


@pytest.mark.slow
async def test_usable_at_80_by_24():
    app = make_app(four_player())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "right", "right")
        assert app.model.turns_played == 3
        assert app.screen.has_class("-narrow")
        side, turn_line = app.query_one("#side"), app.query_one("#turn-line", Static)
        assert not side.display and turn_line.display  # the board takes the width
        assert str(turn_line.render()).startswith("Turn 3: Cleo ")
        for panel in app.query(PlayerPanel):
            assert panel.region.width == 40 and panel.region.height >= 9
            hand = shown(panel.query_one(CardsLine))
            assert len(hand.split()) == 8  # 'hand' and seven cards: nothing cut
        await pilot.press("m")
        assert side.display
        await pilot.press("m", "end", "s")
        assert isinstance(app.screen, ScoringScreen)


def test_a_grid_too_large_for_its_space_is_packed_then_cropped_around_the_last_tree():
    from arbo_notation.engine.cards import Card, Coord
    from arbo_notation.tui.widgets import grid_text, grid_window, species_styles

    row = {Coord(x, 0): Card("Ma", 1 + x % 8) for x in range(10)}
    assert grid_window(row, (60, 5)).gap == 1  # 2 + 10 * 4 - 1 columns fit
    packed = grid_window(row, (33, 5))
    assert packed.gap == 0 and list(packed.xs) == list(range(10))
    cropped = grid_window(row, (20, 5), focus=Coord(9, 0))
    assert cropped.gap == 1 and list(cropped.xs) == [6, 7, 8, 9]  # 2 + 4 * 4 - 1 columns
    assert cropped.cropped(row) == (True, False, False, False)
    text = grid_text(row, species_styles(["Ma"]), window=cropped).plain
    assert text.splitlines()[0].startswith("◂")
    assert grid_window(row, (20, 5), focus=Coord(9, 0), shift=(-3, 0)).xs == range(3, 7)


@pytest.mark.parametrize("turn", [0, 12])
async def test_starting_at_a_turn(turn):
    model = ReplayModel.from_record(four_player())
    model.goto(turn)
    app = ReplayApp(model)
    async with app.run_test(size=SIZE):
        assert f"after turn {turn}" in status(app) or turn == 0
        assert app.query_one(MoveList).highlighted == turn


@pytest.mark.slow
async def test_a_position_with_unseen_hands_is_not_scored():
    from arbo_notation.notation.views import partial_record

    app = make_app(partial_record(annotated()))  # a spectator's record: no hand known until the reveals
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right", "s")
        assert isinstance(app.screen, ScoringScreen)
        reason = str(app.screen.query_one("#unscored", Static).render())
        assert reason == "cannot score: the hands of Ana, Ben are not known"
        await pilot.press("end")  # the reveals make the end scoreable
        assert not isinstance(app.screen, ScoringScreen)
        await pilot.press("s")
        assert str(app.screen.query_one("#score-table", DataTable).get_cell("total", "Ana:pts")) == "11"


@pytest.mark.slow
async def test_a_long_comment_scrolls_in_the_notes():
    from dataclasses import replace

    from arbo_notation.notation.model import Comment

    record = annotated()
    long = Comment(" ".join(["Ana weighs her Maples against Ben's Oaks."] * 30))
    first = replace(record.turns[0], comments_after=(long,))
    app = make_app(replace(record, turns=(first, *record.turns[1:])))
    async with app.run_test(size=SIZE) as pilot:
        box = app.query_one("#notes-box")
        await pilot.press("right")
        assert box.virtual_size.height > box.scrollable_content_region.height
        await pilot.press("right")
        assert box.virtual_size.height <= box.scrollable_content_region.height


@pytest.mark.slow
async def test_a_step_paints_what_a_fresh_screen_at_that_turn_paints():
    """A step repaints only what changed (a panel's border line alone when its title changes, the
    move list's old and new highlighted rows): the screen it leaves, characters and styles, is
    the screen opened at that turn."""

    def painted(app) -> list[list[tuple[str, str]]]:
        return [
            [(segment.text, str(segment.style)) for segment in strip]
            for strip in app.screen._compositor.render_strips()
        ]

    app = make_app(four_player())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        painted(app)  # painted once whole, then step by step
        for turn in [1, 2, 3, 4, 5, 6, 5, 4, 7]:
            app.cursor = Cursor(MAIN, turn)
            await pilot.pause()
            stepped = painted(app)
            model = ReplayModel.from_record(four_player())
            model.move_to(Cursor(MAIN, turn))
            fresh = ReplayApp(model)
            async with fresh.run_test(size=SIZE) as fresh_pilot:
                await fresh_pilot.pause()
                assert stepped == painted(fresh), turn
            assert sum(text.count("▶") for line in stepped for text, _ in line) == 1


async def test_a_screenshot_folder_named_like_markup_is_shown_as_written(tmp_path):
    folder = tmp_path / "club [bold]games"
    folder.mkdir()
    app = make_app(screenshot_dir=folder)
    told = []
    shown = app.notify
    app.notify = lambda message, **options: told.append((message, options)) or shown(message, **options)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        await pilot.pause()
        [svg] = folder.glob("*.svg")
        assert svg.read_text().startswith("<svg")
    [(message, options)] = told
    assert message == f"screenshot saved: {svg}" and options["markup"] is False  # '[bold]' shown as written


ANALYSED = "samples/analysed.arb"
ANALYSED_LINES = [
    "Points lost and accuracy, from the engine's notes:",
    "  Ana: accuracy 65.7%, 1.56 points lost a turn over 10 turns judged (?! 5, ? 0, ?? 0)",
    "  Ben: accuracy 61.4%, 2.04 points lost a turn over 9 turns judged (?! 3, ? 3, ?? 0)",
    "  (a turn's accuracy is 100·exp(-points lost / 3.5), a player's the mean of their turns')",
]


def analysed_sample():
    path = Path(__file__).resolve().parents[2] / ANALYSED
    return parse(path.read_text(), ANALYSED)[0]


async def test_the_scoring_screen_of_an_analysed_record_gives_each_player_s_accuracy():
    app = make_app(analysed_sample())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")  # at the start: the figures are the whole game's, from the notes
        assert isinstance(app.screen, ScoringScreen)
        assert shown(app.screen.query_one("#accuracy", Static)).split("\n") == ANALYSED_LINES


async def test_a_record_without_notes_has_no_accuracy_on_its_scoring_screen():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end", "s")
        assert isinstance(app.screen, ScoringScreen)
        assert not app.screen.query("#accuracy")


def test_the_plain_replay_of_an_analysed_record_ends_with_each_player_s_accuracy():
    text = render_plain(ReplayModel.from_record(analysed_sample()))
    assert text.endswith(
        "\n\n== points lost and accuracy (the engine's notes) ==\n"
        + "\n".join(line.strip() for line in ANALYSED_LINES[1:3])
        + "\n(a turn's accuracy is 100·exp(-points lost / 3.5), a player's the mean of their turns'; docs/ANALYSIS.md)\n"
    )
