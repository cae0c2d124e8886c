"""Shared by the replayer's tests: the fixture records under tests/fixtures/tui/."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from arbo_notation.notation.model import GameRecord

FIXTURES = Path(__file__).parent / "fixtures" / "tui"
ANNOTATED = FIXTURES / "annotated.arb"
FOUR_PLAYER = FIXTURES / "four-player.arb"

sys.path.insert(0, str(FIXTURES))
# The builders the .arb fixtures were written from: imported once the path is set, re-exported.
import make_fixtures  # noqa: E402, F401 (below the path it is found on; re-exported)


@lru_cache(maxsize=None)
def load(path: Path) -> GameRecord:
    """The first game of a fixture file, as the parser reads it."""
    from arbo_notation.notation.reading.reader import parse

    [record, *_] = parse(path.read_text(encoding="utf-8"), path.name)
    return record


def annotated() -> GameRecord:
    return load(ANNOTATED)


def four_player() -> GameRecord:
    return load(FOUR_PLAYER)


def screen_lines(app) -> list[str]:
    """The characters the app's screen paints, row by row (what a terminal of its size shows)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]
