"""The replayer's knowledge panel (key k): the unseen cards by species and the rights, at 80x24 and up."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbo_notation.api import read_games
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.tui.app import ReplayApp
from arbo_notation.tui.knowledge import KnowledgePanel
from tests.tui_support import screen_lines

ROOT = Path(__file__).resolve().parents[2]


def family_app() -> ReplayApp:
    model = ReplayModel.from_record(read_games(ROOT / "samples" / "four-players.arb")[0])
    model.goto(20)
    return ReplayApp(model)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_k_shows_what_cleo_knows_in_place_of_the_board(size):
    app = family_app()
    async with app.run_test(size=size) as pilot:
        board = "\n".join(screen_lines(app))
        assert "Rp3" in board and "Ca2 Cb1 Cb3 Tp2" in board.replace("  ", " ")
        await pilot.press("k")
        await pilot.pause()
        lines = screen_lines(app)
        text = "\n".join(lines)
        assert app.query_one(KnowledgePanel).display and not app.query_one("#board").display
        assert "What Cleo's seat knows · deck 22 · unseen 38 (16 in hands)" in text
        ca = next(line for line in lines if " Ca " in line and "6 7 8" in line)
        assert [cell for cell in ca.split() if "-" in cell or cell.isdigit()][-4:] == ["0-21", "2-23", "0", "0-21"]
        assert "✗ 0" in ca
        assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
        assert any("right to score: ✓ certain" in line for line in lines)  # the legend fits
        await pilot.press("right")  # the panel follows the cursor
        await pilot.pause()
        assert "What Cleo's seat knows · deck 20" in "\n".join(screen_lines(app))
        await pilot.press("k")
        await pilot.pause()
        assert app.query_one("#board").display and not app.query_one(KnowledgePanel).display


@pytest.mark.slow
async def test_the_panel_follows_the_view():
    app = family_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("k", "p")
        await pilot.pause()
        assert "What Dev's seat knows · deck 22" in "\n".join(screen_lines(app))
        await pilot.press("p")
        await pilot.pause()
        assert "What the record knows" in "\n".join(screen_lines(app))
