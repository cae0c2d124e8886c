"""The replayer's hypotheticals: from a seat's view, an unseen card supposed in another hand; the
board, the knowledge panel and a what-if follow it, and the record never holds it."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from arbo_notation.game.tree import load_tree
from arbo_notation.notation.reading.reader import parse
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.runtime.atomic import fingerprint
from arbo_notation.tui.app import ReplayApp
from arbo_notation.tui.hypotheses import SupposeScreen
from arbo_notation.analysis.game import add_variation
from arbo_notation.tui.whatif import WhatIfScreen
from tests.tui_support import screen_lines

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def app_at(path: Path, turn: int, seat: str | None = "Ana") -> ReplayApp:
    [record] = parse(path.read_text(encoding="utf-8"), str(path))
    model = ReplayModel(load_tree(record))
    model.set_perspective(seat)
    model.goto(turn)
    return ReplayApp(model, source=str(path), read=fingerprint(path), budget=2)


def test_a_hypothetical_shows_on_the_board_and_in_the_knowledge_and_is_never_written(tmp_path):
    path = tmp_path / "game.arb"
    shutil.copy(SAMPLES / "annotated.arb", path)
    [before] = parse(path.read_text(encoding="utf-8"), str(path))
    # after turn 5, Ana's seat knows none of Ben's seven cards; Bs1 may be among them
    app = app_at(path, 5)
    seen: dict[str, str] = {}

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, SupposeScreen)
            await pilot.press("B", "tab", "B", "s")
            await pilot.pause()
            seen["picker"] = "\n".join(screen_lines(app))
            await pilot.press("1", "enter")
            await pilot.pause()
            seen["board"] = "\n".join(screen_lines(app))
            await pilot.press("k")
            await pilot.pause()
            seen["knowledge"] = "\n".join(screen_lines(app))
            await pilot.press("k", "w", *"d d Ca5@0,1 /Bs3", "enter")
            for _ in range(300):
                await pilot.pause(0.05)
                if not isinstance(app.screen, WhatIfScreen):
                    break
            seen["judged"] = "\n".join(screen_lines(app))
            await pilot.press("W")
            await pilot.pause()
            await pilot.press("C")
            await pilot.pause()
            seen["cleared"] = "\n".join(screen_lines(app))

    asyncio.run(run())
    assert "Ben " in seen["picker"] and "Tab ▸  Bs1  Bs4  Bs5  Bs6  Bs7 " in seen["picker"]
    assert "hand Bs1* ??  ??  ??" in seen["board"]  # the hand wraps: 1 supposed and 6 unknown cards
    assert "supposing Bs1 in Ben's hand (C clears)" in seen["knowledge"]
    assert "judged supposing Bs1 in Ben's hand: the record keeps the try without its value" in seen["judged"]
    assert "Bs1*" in seen["judged"]  # the hypothetical stands in the try's variation too
    assert "Bs1*" not in seen["cleared"]
    written = path.read_text(encoding="utf-8")
    [after] = parse(written, str(path))
    tried = app.model.record.turns[4].variations[-1].turns[0]
    assert tried.notation() == "Ana d:Ja1 d:Ca6 Ca5@0,1 /Bs3" and not tried.comments_after  # no engine note
    assert after == add_variation(before, (), 4, tried)[0]  # the try alone: no trace of the hypothetical
    assert "*" not in written and "Bs1 in Ben" not in written


def test_an_impossible_hypothetical_is_refused_in_the_picker(tmp_path):
    path = tmp_path / "game.arb"
    shutil.copy(SAMPLES / "annotated.arb", path)
    app = app_at(path, 5)

    async def run() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("c", "B", "tab", *"Ca6", "enter")  # Ana drew Ca6 at turn 5: she holds it
            await pilot.pause()
            assert isinstance(app.screen, SupposeScreen)
            return "\n".join(screen_lines(app))

    screen = asyncio.run(run())
    assert "✗ Ca6 cannot be supposed in Ben's hand: it is known in Ana's hand as Ana's" in screen  # 80 columns wrap
    assert app._hypotheses == ()


def test_hypotheticals_need_a_seat(tmp_path):
    path = tmp_path / "game.arb"
    shutil.copy(SAMPLES / "annotated.arb", path)
    app = app_at(path, 5, seat=None)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("c")
            await pilot.pause()
            assert not isinstance(app.screen, SupposeScreen)

    asyncio.run(run())
    assert app._hypotheses == ()
