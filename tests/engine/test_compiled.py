"""The build in use: pure Python by default, the mypyc build only where CI installs it (.ci/run)."""

from __future__ import annotations

import os

from arbo_notation.engine import compiled, greedy, lean, totals


def test_the_build_is_the_one_expected():
    # .ci/run sets ARBO_EXPECT_COMPILED=1 when it runs these tests on the compiled build, so a build
    # that silently fell back to pure Python (or a pure install that loaded extensions) fails.
    assert compiled() is (os.environ.get("ARBO_EXPECT_COMPILED") == "1")


def test_the_compiled_modules_are_compiled_together():
    # hatch_build.py compiles the three together: one compiled, all compiled.
    loaded_from = [module.__file__.endswith(".py") for module in (greedy, lean, totals)]
    assert loaded_from == [not compiled()] * 3
