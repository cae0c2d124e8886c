"""One headless Chromium for the browser tests, driven by playwright's Python package.

The browser is Debian's ``chromium`` (``.ci/run`` installs it), never one that playwright would
download. Where it or playwright is missing the browser tests are skipped on a developer's machine
and fail in CI (``CI`` set), so a green CI always means they ran.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """The browser to drive: $ARBO_CHROMIUM, else Debian's chromium on the PATH."""
    return os.environ.get("ARBO_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def missing(reason: str):
    """Skip on a developer's machine; fail in CI, where the browser must be there."""
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def launch(playwright_module):
    executable = chromium_path()
    if executable is None or not Path(executable).exists():
        missing("no chromium on this machine (apt-get install chromium)")
    return playwright_module.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
