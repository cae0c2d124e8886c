"""The replayer's screen at common terminal sizes: what is actually painted, cell by cell.

Each test reads the characters the app paints (the screen a terminal would show) and checks the
facts a player relies on: every card of every hand, the pile's count, the whole status line, the
help and quit keys in the footer, in the same order whatever has the focus.
"""

from __future__ import annotations

import re

import pytest

from arbo_notation.tui.app import ReplayApp
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.tui.widgets import CardsLine, KeyBar, PlayerPanel, wrap_chips
from tests.tui_support import four_player, screen_lines

SIZES = [(80, 24), (90, 24), (100, 30), (120, 40), (160, 50)]


def app_at(turn: int = 14) -> ReplayApp:
    model = ReplayModel.from_record(four_player())
    model.goto(turn)
    return ReplayApp(model)


def painted(app: ReplayApp, widget) -> str:
    """The characters painted in a widget's region of the screen, one line per row."""
    lines = screen_lines(app)
    region = widget.region
    return "\n".join(line[region.x : region.right] for line in lines[region.y : region.bottom])


def footer_keys(app: ReplayApp) -> list[str]:
    """The footer's descriptions, left to right."""
    return re.findall(r"[A-Z][a-z]+(?: to)?", screen_lines(app)[-1])


async def assert_every_hand_card_painted(app: ReplayApp) -> None:
    for panel in app.query(PlayerPanel):
        hand = app.model.player_view(panel.player).hand
        assert len(hand) == 7
        hand_text = painted(app, panel.hand_line)
        assert [code for code in re.findall(r"\b[A-Z][a-z]\d\b", hand_text)] == list(hand), hand_text
        assert set(hand) <= set(painted(app, panel).split())


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_every_card_of_every_hand_is_on_the_screen(size):
    app = app_at()
    async with app.run_test(size=size) as pilot:
        await assert_every_hand_card_painted(app)
        await pilot.press("m")  # the move list shown (or hidden, where it was shown)
        await assert_every_hand_card_painted(app)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_footer_keeps_help_and_quit_in_one_order(size):
    app = app_at()
    async with app.run_test(size=size) as pilot:
        first = footer_keys(app)
        assert first[:2] == ["Prev", "Next"] and first[-2:] == ["Help", "Quit"], first
        await pilot.press("m")
        assert footer_keys(app) == first
        app.query_one("#moves").focus()
        await pilot.pause()
        assert footer_keys(app) == first


@pytest.mark.slow
async def test_the_footer_drops_the_least_needed_keys_first():
    app = app_at()
    async with app.run_test(size=(80, 24)):
        # the what-if's key stays; the knowledge panel's, the piles' and the move list's give way at 80 columns
        assert footer_keys(app) == ["Prev", "Next", "Variation", "View", "Score", "What", "Help", "Quit"]
    app = app_at()
    async with app.run_test(size=(160, 50)):
        assert footer_keys(app) == [
            "Prev",
            "Next",
            "Go to",
            "Variation",
            "View",
            "Score",
            "Known",
            "Piles",
            "Moves",
            "What",
            "Write",
            "Shot",
            "Help",
            "Quit",
        ]


async def test_the_footer_keys_can_be_clicked():
    app = app_at()
    async with app.run_test(size=(80, 24)) as pilot:
        bar = app.query_one(KeyBar)
        next_at = screen_lines(app)[-1].index("Next")
        await pilot.click(KeyBar, offset=(next_at - bar.region.x, 0))
        assert app.model.turns_played == 15


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_status_and_piles_are_not_cut(size):
    app = app_at()
    async with app.run_test(size=size) as pilot:
        for side in ("default", "toggled"):
            lines = screen_lines(app)
            assert "after turn 14: Cleo to play turn 15 · deck 25 · view: all hands" in lines[1], side
            for panel in app.query(PlayerPanel):
                pile = painted(app, panel.pile_line).strip()
                assert re.fullmatch(r"pile +[A-Z][a-z]\d +\(\d+( cards)?\)", pile), pile
            await pilot.press("m")


@pytest.mark.slow
async def test_the_move_list_is_shown_where_there_is_room():
    for size, shown in [((80, 24), False), ((89, 24), False), ((90, 24), True), ((100, 30), True), ((160, 50), True)]:
        app = app_at()
        async with app.run_test(size=size) as pilot:
            side = app.query_one("#side")
            assert side.display is shown, size
            assert app.query_one("#turn-line").display is not shown, size
            await pilot.press("m")
            assert side.display is not shown, size
            assert app.query_one("#turn-line").display is shown, size


@pytest.mark.slow
async def test_at_80_by_24_the_move_list_and_the_board_share_the_width():
    app = app_at()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        moves = painted(app, app.query_one("#moves"))
        assert "14. Ben d:Oa7 d:Ma1 Ma1@-3…" in moves  # a row too long ends in an ellipsis
        for panel in app.query(PlayerPanel):
            assert panel.hand_line.region.height == 2  # seven cards on two rows
            assert panel.query_one("ArboretumGrid").region.height >= 4


def test_wrap_chips_balances_the_rows_and_indents_them_under_the_label():
    cards = ["Bs1", "Cb7", "Ja6", "Rp6", "Rp7", "Wi6", "Wi7"]
    assert wrap_chips(cards, 5, 40) == [cards]
    assert wrap_chips(cards, 5, 32) == [cards]  # 5 + 7 * 4 - 1
    assert wrap_chips(cards, 5, 31) == [cards[:4], cards[4:]]
    assert wrap_chips(cards, 5, 20) == [cards[:4], cards[4:]]
    assert wrap_chips(cards, 5, 19) == [cards[:3], cards[3:6], cards[6:]]
    assert wrap_chips(cards, 5, 8) == [[card] for card in cards]
    assert wrap_chips(cards, 5, 3) == [[card] for card in cards]  # never fewer than one a row
    assert wrap_chips([], 5, 20) == [[]]


@pytest.mark.slow
async def test_a_hand_wrapped_on_a_narrow_panel_reads_in_order():
    app = app_at()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        hand = app.query_one("#hand-p0", CardsLine)
        assert painted(app, hand).splitlines() == ["hand Bs1 Cb7 Ja6 Rp6", "     Rp7 Wi6 Wi7    "]


async def test_a_title_too_long_for_the_screen_ends_in_an_ellipsis():
    from dataclasses import replace

    record = four_player()
    record = replace(record, header=replace(record.header, event="The autumn open of the Greenhouse club, final"))
    app = ReplayApp(ReplayModel.from_record(record))
    async with app.run_test(size=(80, 24)):
        title = screen_lines(app)[0].rstrip()
        assert title.startswith(" arbo replay  │  The autumn open of the Greenhouse club, final")
        assert title.endswith("…") and len(title) == 79
