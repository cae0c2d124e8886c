"""The replayer's what-if board: a try typed, judged beside the turn played, kept as a variation,
written into the record with every comment, variation and engine note it held."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from arbo_notation.game.tree import load_tree
from arbo_notation.notation.engine_notes import EngineNote, annotate
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import format_games
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.runtime.atomic import fingerprint
from arbo_notation.tui.app import ReplayApp
from arbo_notation.analysis.game import add_variation
from arbo_notation.tui.whatif import WhatIfScreen
from tests.tui_support import screen_lines
from tests.tui.test_tui_terminal import tmux, wait_for

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def annotated_file(tmp_path: Path) -> Path:
    """samples/annotated.arb (comments, glyphs, nested variations) with two engine notes as well."""
    [record] = parse((SAMPLES / "annotated.arb").read_text(encoding="utf-8"), "annotated.arb")
    notes = {0: EngineNote(1.5, 4, False), 4: EngineNote(-2.0, 4, False, "?", best="d d Ja8@0,1 /Ca1", gain=3.5)}
    path = tmp_path / "game.arb"
    path.write_text(format_games([annotate(record, notes)]), encoding="utf-8")
    return path


async def try_at(path: Path, turn: int, keys: list[str], after=None) -> tuple[list[str], ReplayApp]:
    read = fingerprint(path)
    [record] = parse(path.read_text(encoding="utf-8"), str(path))
    model = ReplayModel(load_tree(record))
    model.goto(turn)
    app = ReplayApp(model, source=str(path), read=read, budget=2)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, WhatIfScreen)
        await pilot.press(*keys)
        await pilot.press("enter")
        for _ in range(300):
            await pilot.pause(0.05)
            if not isinstance(app.screen, WhatIfScreen):
                break
        lines = screen_lines(app)
        if after is not None:
            after()
        await pilot.press("W")
        await pilot.pause()
    return lines, app


def test_a_try_is_judged_shown_kept_as_a_variation_and_written_with_everything_else(tmp_path):
    path = annotated_file(tmp_path)
    [before] = parse(path.read_text(encoding="utf-8"), str(path))
    # turn 5 of the sample is "Ana d:Ja1 d:Ca6 Ca5@-2,0 /Bs3": the try plants Ca5 elsewhere
    lines, app = asyncio.run(try_at(path, 5, [*"d d Ca5@0,1 /Bs3"]))
    screen = "\n".join(lines)
    assert "turn 5, Ana: expected final margin (2 sampled worlds, the same for both)" in screen
    assert "  played " in screen and "  tried  " in screen
    assert app.model.in_variation and app.model.cursor.index == 1
    [after] = parse(path.read_text(encoding="utf-8"), str(path))
    tried = app.model.record.turns[4].variations[-1].turns[0]
    expected, new_path = add_variation(before, (), 4, tried)
    assert after == expected  # every comment, glyph, variation and engine note kept; the try added
    assert new_path == ((4, len(before.turns[4].variations)),)
    assert tried.notation().startswith("Ana d:") and tried.comments_after[-1].text.startswith("arbo:")


def test_the_record_is_not_written_over_when_the_file_changed_meanwhile(tmp_path):
    path = annotated_file(tmp_path)

    def changed() -> None:
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")

    _, app = asyncio.run(try_at(path, 5, [*"d d Ca5@0,1 /Bs3"], after=changed))
    assert path.read_text(encoding="utf-8").endswith("\n\n")  # the other program's change kept
    assert app._tries == 1  # still to write


def test_w_keeps_the_header_comments(tmp_path):
    """The user's notes in the header survive W, as they survive `arbo analyse --try --in-place`."""
    path = annotated_file(tmp_path)
    text = path.read_text(encoding="utf-8").replace("---\n", "---\n# notes by Ana\n", 1)
    path.write_text(text, encoding="utf-8")
    _, app = asyncio.run(try_at(path, 5, [*"d d Ca5@0,1 /Bs3"]))
    assert app._tries == 0  # written
    written = path.read_text(encoding="utf-8")
    assert written.split("\n---\n", 1)[0] == text.split("\n---\n", 1)[0]
    assert written.splitlines()[1] == "# notes by Ana"


def test_an_illegal_try_is_refused_in_a_players_words_and_the_screen_stays(tmp_path):
    path = tmp_path / "game.arb"
    shutil.copy(SAMPLES / "annotated.arb", path)

    async def run() -> list[str]:
        [record] = parse(path.read_text(encoding="utf-8"), str(path))
        model = ReplayModel(load_tree(record))
        model.goto(5)
        app = ReplayApp(model, source=str(path), read=fingerprint(path), budget=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("w", *"d d Ca5@0,0 /Bs3", "enter")
            await pilot.pause()
            assert isinstance(app.screen, WhatIfScreen)
            return screen_lines(app)

    screen = "\n".join(asyncio.run(run()))
    assert "✗ Ana cannot plant Ca5 at (0,0): " in screen


@pytest.mark.parametrize(
    "keys, completed",
    [
        ([*"d d Ca5@", "tab"], "d d Ca5@-2,0 "),
        ([*"d d C", "tab"], "d d Ca1@"),
        ([*"d d ", "tab", "tab", "down", "tab"], "d d Bs3@-2,0 /Ca1 "),
    ],
)
def test_tab_completes_the_text_as_it_stands_however_fast_it_was_typed(tmp_path, keys, completed):
    """Issue 45, point 6: keys that come in a burst reach the line before their changes reach the
    screen; Tab took the candidates of the text before them (``d:Ja1 `` for each of these)."""
    from textual import events
    from textual.widgets import Input

    path = tmp_path / "game.arb"
    shutil.copy(SAMPLES / "annotated.arb", path)

    async def run() -> str:
        [record] = parse(path.read_text(encoding="utf-8"), str(path))
        model = ReplayModel(load_tree(record))
        model.goto(5)
        app = ReplayApp(model, source=str(path), read=fingerprint(path), budget=2)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("w")
            await pilot.pause()
            entry = app.screen.query_one("#try-entry", Input)
            for key in keys:  # all at once, before any is handled: no pause for a Changed to land
                entry.post_message(events.Key(key, {"tab": "\t", "down": None}.get(key, key)))
            await pilot.pause()
            return entry.value

    assert asyncio.run(run()) == completed


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_what_if_board_in_a_real_terminal(tmp_path, size):
    """tmux: w opens the entry line, Tab completes, Enter judges (a spinner meanwhile), W writes."""
    assert shutil.which("tmux"), "this test needs tmux (.ci/run installs it)"
    path = annotated_file(tmp_path)
    root = Path(__file__).resolve().parents[2]
    socket = f"arbo-test-{uuid.uuid4().hex[:8]}"
    command = (
        f"env PYTHONPATH={root} {sys.executable} -m arbo_notation replay {path} --turn 5; echo exit status $?; sleep 60"
    )
    width, height = size
    tmux(socket, "-f", os.devnull, "new-session", "-d", "-s", "arbo", "-x", str(width), "-y", str(height), command)
    try:
        wait_for(socket, "w What if")
        tmux(socket, "send-keys", "-t", "arbo", "w")
        wait_for(socket, "What if: turn 5, Ana")
        tmux(socket, "send-keys", "-t", "arbo", "-l", "d d Ca")
        wait_for(socket, "Tab ▸  Ca1@  Ca5@ ")  # the completions: the cards of the hand that start so
        tmux(socket, "send-keys", "-t", "arbo", "-l", "5")
        wait_for(socket, "Tab ▸  Ca5@ ")
        tmux(socket, "send-keys", "-t", "arbo", "Tab")
        wait_for(socket, "d d Ca5@")
        tmux(socket, "send-keys", "-t", "arbo", "-l", "0,1 /Bs3")
        tmux(socket, "send-keys", "-t", "arbo", "Enter")
        screen = wait_for(socket, "the same for both", 60)
        assert "turn 5, Ana: expected final margin (48 sampled worlds, the same for both)" in screen
        assert "W writes the try" in screen
        tmux(socket, "send-keys", "-t", "arbo", "W")
        wait_for(socket, "wrote")
        tmux(socket, "send-keys", "-t", "arbo", "q")
        assert "exit status 0" in wait_for(socket, "exit status")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
    [record] = parse(path.read_text(encoding="utf-8"), str(path))
    assert record.turns[4].variations[-1].turns[0].notation() == "Ana d:Ja1 d:Ca6 Ca5@0,1 /Bs3"
