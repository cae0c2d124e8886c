"""The collector's tuning of the programs (runtime/gcpause.py): what `arbo check` freezes."""

from __future__ import annotations

import subprocess
import sys

from arbo_notation.notation.writer import format_games
from arbo_notation.play.simulate import simulate_games


def test_a_check_freezes_what_its_imports_made_and_checks_as_before(tmp_path):
    """`arbo check` freezes the objects of its imports before it checks (freeze_imports): its
    collections no longer walk them. Run apart, so that this test's process is left alone."""
    record = tmp_path / "two.arb"
    record.write_text(format_games(list(simulate_games(2, 2, "freeze"))), encoding="utf-8")
    script = (
        "import gc, sys\nfrom arbo_notation.cli import main\n"
        "before = gc.get_freeze_count()\n"
        "sys.argv = ['arbo', 'check', '-q', '-j', '1', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit as end:\n"
        "    print(end.code, before, gc.get_freeze_count() > 1000)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(record)], capture_output=True, text=True)
    assert done.stdout.split("\n")[-2] == "0 0 True"
    assert done.stderr == ""


def test_modules_imported_with_the_collector_paused_are_frozen_and_it_runs_again_after():
    """imports_frozen pauses the collector while its block imports, then freezes what was made
    and turns it back on (left off when it was off). Run apart, so that this test's process is
    left alone."""
    script = (
        "import gc\nfrom arbo_notation.runtime.gcpause import imports_frozen\n"
        "before = gc.get_freeze_count()\n"
        "with imports_frozen():\n"
        "    inside = gc.isenabled()\n"
        "    import arbo_notation.checking.files\n"
        "print(before, inside, gc.isenabled(), gc.get_freeze_count() > 1000)\n"
        "gc.disable()\n"
        "with imports_frozen():\n"
        "    pass\n"
        "print(gc.isenabled())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split("\n")[:2] == ["0 False True True", "False"]
    assert done.stderr == ""
