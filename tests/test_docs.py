"""The examples of docs/API.md run as doctests, from the repository's root."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_api_md_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / "API.md"), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert tried >= 20
    assert failures == 0
