"""An analysed record in the replayer and the exported page: the engine's judgement of the current
turn, flagged turns in the move list, the margin graph that jumps to a turn; read from the record."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.notation.engine_notes import note_of
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_game
from arbo_notation.share.data import margins
from arbo_notation.play.simulate import simulate_game
from arbo_notation.game.tree import load_tree
from arbo_notation.tui.app import ReplayApp
from arbo_notation.tui.widgets import MoveList, NotesPanel
from tests.browser_support import launch, missing

runner = CliRunner()


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("views")
    source = folder / "game.arb"
    source.write_text(format_game(simulate_game(("Ana", "Ben"), 30)))
    out = folder / "analysed.arb"
    result = runner.invoke(app, ["analyse", str(source), "--budget", "2", "-j", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def flagged_turn(record) -> int:
    return next(i for i, t in enumerate(record.turns, 1) if note_of(t).glyph and note_of(t).glyph in t.glyphs)


@pytest.mark.slow
def test_the_page_data_gives_each_turns_margin_from_the_notes(analysed):
    (record,) = parse(analysed.read_text())
    found = margins(load_tree(record))
    assert [m["index"] for m in found] == list(range(1, len(record.turns) + 1))
    assert [m["value"] for m in found] == [note_of(t).value for t in record.turns]
    assert [m["glyph"] for m in found] == [note_of(t).glyph for t in record.turns]


async def test_the_replayer_shows_the_turns_evaluation_and_marks_flagged_turns(analysed):
    (record,) = parse(analysed.read_text())
    number = flagged_turn(record)
    note = note_of(record.turns[number - 1])
    replay = ReplayApp(ReplayModel.from_record(record))
    async with replay.run_test(size=(120, 40)) as pilot:
        for _ in range(number):
            await pilot.press("right")
        panel = replay.query_one(NotesPanel).render()
        text = getattr(panel, "plain", str(panel))
        assert f"Engine: expected margin {note.value:+.1f} (2 samples)" in text
        assert f"better {note.best}: {note.gain:.1f} points better" in text
        rows = replay.query_one(MoveList)
        assert rows.row_text(rows.rows[number]).plain.endswith(" " + note.glyph)


@pytest.mark.slow
def test_the_page_draws_the_margins_and_a_point_jumps_to_its_turn(analysed, tmp_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed (pip install -e '.[test]')")
    page_path = tmp_path / "page.html"
    result = runner.invoke(app, ["export", str(analysed), "--to", "html", "-o", str(page_path)])
    assert result.exit_code == 0, result.output
    (record,) = parse(analysed.read_text())
    number = flagged_turn(record)
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        page = chromium.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_path.as_uri())
        assert page.is_visible("#margin-box")
        assert page.locator("#margin-graph circle").count() == len(record.turns)
        assert page.locator("#margin-graph circle.flagged").count() == sum(1 for t in record.turns if note_of(t).glyph)
        page.locator(f"#margin-graph circle[data-index='{number}']").click()
        assert page.text_content("#status").startswith(f"After turn {number}:")
        assert "here" in page.get_attribute(f"#margin-graph circle[data-index='{number}']", "class")
        chromium.close()
    assert errors == []
