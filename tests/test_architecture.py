"""docs/ARCHITECTURE.md names every module and package of arbo_notation/.

The rule, the one the page follows: a module is named by its path under arbo_notation/ or any
tail of it, in backticks (`scanner.py`, `reading/scanner.py`, `notation/reading/scanner.py`); a
package by its folder with a slash (`reading/`, `notation/reading/`). A file name that several
modules share (`state.py`: engine/ and cli/) names none of them: each is written with its
package at least (`engine/state.py`, `cli/state.py`).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "arbo_notation"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"


def modules(package: Path) -> list[str]:
    """Every module (a .py file but `__init__.py`) under ``package``, as a path relative to it."""
    return sorted(path.relative_to(package).as_posix() for path in package.rglob("*.py") if path.name != "__init__.py")


def packages(package: Path) -> list[str]:
    """Every package under ``package`` (itself left out), as a folder path with a slash."""
    return sorted(
        path.parent.relative_to(package).as_posix() + "/"
        for path in package.rglob("__init__.py")
        if path.parent != package
    )


def paths_named(text: str) -> set[str]:
    """The file and folder paths written in backticks in ``text`` (`a/b.py`, `a/`)."""
    return {word for span in re.findall(r"`([^`\n]+)`", text) for word in re.findall(r"[\w./]+", span)}


def tails(path: str) -> list[str]:
    """The ways to name ``path``, longest first: `a/b/c.py`, `b/c.py`, `c.py` (a folder keeps its slash)."""
    slash = "/" if path.endswith("/") else ""
    parts = path.rstrip("/").split("/")
    return ["/".join(parts[start:]) + slash for start in range(len(parts))]


def unnamed(module_paths: list[str], package_paths: list[str], named: set[str]) -> list[str]:
    """The modules and packages that ``named`` does not name, by the rule above."""
    shared = {name for name, count in Counter(path.rsplit("/", 1)[-1] for path in module_paths).items() if count > 1}
    missing = []
    for path in [*module_paths, *package_paths]:
        ways = tails(path)
        if path.rsplit("/", 1)[-1] in shared:
            ways = ways[:-1]  # the bare file name does not say which
        if not named.intersection(ways):
            missing.append(path)
    return missing


def test_architecture_names_every_module_and_package() -> None:
    missing = unnamed(modules(PACKAGE), packages(PACKAGE), paths_named(ARCHITECTURE.read_text(encoding="utf-8")))
    assert missing == [], (
        "docs/ARCHITECTURE.md does not name these modules and packages of arbo_notation/ (write each "
        "in backticks by its file name, or with its package where several modules share the name, "
        "e.g. `engine/state.py`; a package as `name/`): " + ", ".join(missing)
    )


def test_the_rule_by_hand() -> None:
    module_paths = ["engine/state.py", "cli/state.py", "engine/cards.py", "notation/reading/scanner.py"]
    package_paths = ["engine/", "cli/", "notation/", "notation/reading/"]
    named = paths_named("`cards.py` and `state.py`; `reading/scanner.py` in `notation/` and `engine/`, `cli/state.py`")
    # state.py alone names neither state module; the scanner is named by a tail; reading/ is not
    assert unnamed(module_paths, package_paths, named) == ["engine/state.py", "cli/", "notation/reading/"]
    assert tails("notation/reading/") == ["notation/reading/", "reading/"]
    assert tails("notation/reading/scanner.py") == ["notation/reading/scanner.py", "reading/scanner.py", "scanner.py"]
