"""The doors are optional extras: declared, tested, never loaded by arbo itself, and without them one clear message."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.not_installed import NOT_INSTALLED

ROOT = Path(__file__).resolve().parents[2]

#: Imports MODULE with the modules named in $ARBO_TEST_BLOCKED refused at import, as on a machine
#: where they are not installed, and prints the ArboError it raises.
BLOCKED = (
    NOT_INSTALLED
    + """from arbo_notation.errors import ArboError
try:
    __import__(sys.argv[1])
except ArboError as error:
    print(f"ArboError: {error}")
"""
)


def run(code: str, *args: str, blocked: str = "") -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "ARBO_TEST_BLOCKED": blocked,
    }
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize(
    ("door", "blocked", "extra"),
    [
        ("arbo_notation.doors.openspiel", "pyspiel,open_spiel", "openspiel"),
        ("arbo_notation.doors.pettingzoo", "pettingzoo", "pettingzoo"),
        ("arbo_notation.doors.pettingzoo", "gymnasium", "pettingzoo"),
    ],
)
def test_a_door_without_its_library_says_which_extra_to_install(door, blocked, extra):
    done = run(BLOCKED, door, blocked=blocked)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ArboError: the ") and f"pip install 'arbo-notation[{extra}]'" in done.stdout
    assert done.stdout.count("\n") == 1


def test_arbo_and_the_doors_own_modules_load_no_library_of_the_doors():
    code = (
        "import sys, arbo_notation, arbo_notation.api, arbo_notation.doors.actions, arbo_notation.doors.observation\n"
        "print(sorted(m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium', 'numpy') if m in sys.modules))"
    )
    done = run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_extras_are_declared_and_the_tests_install_them():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = config["project"]["optional-dependencies"]
    assert extras["openspiel"] == ["open_spiel>=1.5"]
    assert extras["pettingzoo"] == ["pettingzoo>=1.24", "gymnasium>=0.29"]
    assert {"arbo-notation[openspiel]", "arbo-notation[pettingzoo]"} <= set(extras["test"])
    names = {spec.split(">")[0].split("[")[0] for spec in config["project"]["dependencies"]}
    assert not names & {"open_spiel", "pettingzoo", "gymnasium"}
