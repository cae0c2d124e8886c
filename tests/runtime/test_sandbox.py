"""The bots' sandbox: what a program under /tmp still reaches in it."""

from __future__ import annotations

import os
import subprocess
import sys

from arbo_notation.runtime.sandbox import confined


def test_a_module_of_the_import_path_under_tmp_is_importable_in_the_sandbox(tmp_path, monkeypatch):
    # A built-in bot is `python -m arbo_notation bot ...`: where arbo is a checkout under /tmp (as
    # CI's clone may be), the sandbox's empty /tmp hid it and the bot failed its hello.
    library = tmp_path / "lib"
    library.mkdir()
    (library / "probe_module.py").write_text("WHERE = 'found'\n", encoding="utf-8")
    assert str(tmp_path).startswith("/tmp/")
    monkeypatch.syspath_prepend(str(library))
    command = confined([sys.executable, "-c", "import probe_module; print(probe_module.WHERE)"])
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(library)},
        stdin=subprocess.DEVNULL,
    )
    assert (done.returncode, done.stdout) == (0, "found\n"), done.stderr
