"""The exported page's screenshots in docs/, at a phone's width and a desktop's, made by the commands.

    python docs/screenshots.py [FOLDER]

exports samples/four-players.arb with `arbo export`, opens the page after turn 20 in Debian's
headless Chromium (through playwright, as the browser tests do) and writes page-phone.png
(360x800) and page-desktop.png (1280x900) into FOLDER (default: docs/); then exports
samples/analysed.arb and writes its margin graph, with the accuracy under it, as
analysed-margins.png (the graph's box at a desktop's width).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "four-players.arb"
FRAGMENT = "#turn=20"
SHOTS = {"page-phone.png": (360, 800), "page-desktop.png": (1280, 900)}
ANALYSED = ROOT / "samples" / "analysed.arb"
MARGINS = "analysed-margins.png"


def export(page: Path, sample: Path = SAMPLE) -> None:
    command = [sys.executable, "-m", "arbo_notation", "export", str(sample), "--to", "html", "-o", str(page)]
    subprocess.run(command, check=True, capture_output=True)


def screenshots(folder: Path, browser) -> list[Path]:
    """Write the screenshots into ``folder`` with a playwright browser; their paths."""
    written = []
    with tempfile.TemporaryDirectory() as work:
        page_file = Path(work) / "four-players.html"
        export(page_file)
        for name, (width, height) in SHOTS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(page_file.as_uri() + FRAGMENT)
            page.screenshot(path=str(folder / name))
            written.append(folder / name)
            page.close()
        analysed = Path(work) / "analysed.html"
        export(analysed, ANALYSED)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(analysed.as_uri())
        page.locator("#margin-box").screenshot(path=str(folder / MARGINS))
        written.append(folder / MARGINS)
        page.close()
    return written


def main(folder: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from browser_support import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            for path in screenshots(folder, browser):
                print(f"wrote {path}", file=sys.stderr)
        finally:
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs")
