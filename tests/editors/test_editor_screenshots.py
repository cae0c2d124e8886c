"""docs/editor_screenshots.py makes the pictures docs/EDITORS.md shows, from the real programs."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from PIL import Image

from tests.browser_support import launch, missing
from tests.editors.support import ROOT, npm_packages, program

SCRIPT = ROOT / "docs" / "editor_screenshots.py"


@pytest.mark.slow  # Neovim in tmux waits for the server and its completion: some 6 s
def test_the_neovim_screenshot_shows_the_fault_and_the_legal_cells(tmp_path: Path):
    program("tmux", "tmux")
    program("nvim", "neovim")
    script = runpy.run_path(str(SCRIPT))
    screen = script["neovim_screen"](tmp_path)
    plain = script["terminal_svg"](screen, "title")
    assert "Ben cannot plant Oa4 at (2,1)" in screen
    assert all(cell in screen for cell in ("Oa4@-1,0", "Oa4@0,-1", "Oa4@0,1", "Oa4@1,0"))
    assert "-- INSERT --" in screen
    assert "cannot&#160;plant" in plain  # rich writes the spaces of its SVG's text as &#160;
    kept = (ROOT / "docs" / "editor-neovim.svg").read_text(encoding="utf-8")
    assert "Ben&#160;cannot&#160;plant&#160;Oa4" in kept and "Oa4@1,0" in kept


@pytest.mark.slow  # node, then Chromium: some 6 s
def test_the_grammar_picture_is_made_as_the_kept_one(tmp_path: Path):
    program("node", "nodejs")
    npm_packages()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed (pip install -e '.[test]')")
    script = runpy.run_path(str(SCRIPT))
    page = script["grammar_page"](ROOT / "samples" / "annotated.arb")
    assert '<span style="color:#C586C0">?!</span>' in page  # a glyph: keyword.control
    assert '<span style="color:#4EC9B0">Bs4</span>' in page  # a card: entity.name.type
    assert "not a VS Code window" in page
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            made = script["grammar_png"](tmp_path, browser, tmp_path)
        finally:
            browser.close()
    assert Image.open(made).size == Image.open(ROOT / "docs" / "editor-vscode-grammar.png").size
    doc = (ROOT / "docs" / "EDITORS.md").read_text(encoding="utf-8")
    assert "](editor-vscode-grammar.png)" in doc and "](editor-neovim.svg)" in doc
    assert "python docs/editor_screenshots.py" in doc
