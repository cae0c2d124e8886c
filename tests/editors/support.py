"""Shared by the editors' tests: the programs they drive (node, npm, nvim) and the npm packages.

A program that is missing skips the test on a developer's machine and fails it in CI (``CI`` set),
as the browser tests do: a green CI means they ran. The npm packages are editors/vscode's
package.json and package-lock.json, installed there by ``npm ci`` (``.ci/run`` does it first; the
fixture does it again only when node_modules is missing or older than the lock file).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
TOKENIZE = ROOT / "tests" / "editors" / "tokenize.mjs"
SNAPSHOTS = ROOT / "tests" / "editors" / "snapshots"
FAULTY = ROOT / "samples" / "invalid" / "rule-planting-not-adjacent.arb"


def program(name: str, package: str) -> str:
    """The path of a program the test drives; skip without it (fail in CI)."""
    found = shutil.which(name)
    if found is None:
        reason = f"no {name} on this machine (apt-get install {package})"
        if os.environ.get("CI"):
            pytest.fail(f"editor tests cannot run in CI: {reason}", pytrace=False)
        pytest.skip(reason)
    return found


def npm_packages() -> Path:
    """editors/vscode/node_modules as the lock file says, installed with `npm ci` when stale."""
    npm = program("npm", "npm")
    modules = EXTENSION / "node_modules"
    installed = modules / ".package-lock.json"  # npm writes it last, after a whole install
    lock = EXTENSION / "package-lock.json"
    with open(EXTENSION / ".npm-ci.lock", "w") as guard:  # one install when xdist workers race
        fcntl.flock(guard, fcntl.LOCK_EX)
        if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
            command = [npm, "ci", "--prefer-offline", "--no-audit", "--no-fund"]
            done = subprocess.run(command, cwd=EXTENSION, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"npm ci in editors/vscode failed:\n{done.stderr[-2000:]}"
    return modules


def tokenize(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run tests/editors/tokenize.mjs with node."""
    node = program("node", "nodejs")
    npm_packages()
    return subprocess.run([node, str(TOKENIZE), *arguments], capture_output=True, text=True, timeout=300)


def club_record(folder: Path) -> Path:
    """club.arb in ``folder``: two games, the sample whose turn 4 plants where none of Ben's trees
    is adjacent, then the same game written up to turn 3, to go on with."""
    faulty = FAULTY.read_text(encoding="utf-8")
    going_on = "".join(faulty.splitlines(keepends=True)[:11])
    assert going_on.endswith("3. Ana d:Wi6 Ben:Ma3 Ma3@1,0 /Wi6\n")
    record = folder / "club.arb"
    record.write_text(faulty + "\n" + going_on, encoding="utf-8")
    return record
