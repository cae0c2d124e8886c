"""Lazy exports (runtime/lazy.py): each name loads its module on first use, and a type checker sees
the same names, with their real types, through imports under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "arbo_notation"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: Every module that calls lazy_exports.
LAZY = sorted(
    _module_name(path)
    for path in PACKAGE.rglob("*.py")
    if path.name != "lazy.py" and "lazy_exports(" in path.read_text(encoding="utf-8")
)


def type_checking_imports(source: str, package: str) -> dict[str, set[str]]:
    """The names imported under a module-level ``if TYPE_CHECKING:``, by module relative to ``package``;
    an import that is not ``X as X`` (re-exported under --strict and by pyright) is kept under ``!``."""
    found: dict[str, set[str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module, ast.unparse(statement)
                module = statement.module.removeprefix(package + ".")
                for alias in statement.names:
                    key = module if alias.asname == alias.name else "!"
                    found.setdefault(key, set()).add(alias.name)
    return found


def test_the_lazy_packages_are_found():
    assert LAZY == ["arbo_notation", "arbo_notation.cli", "arbo_notation.notation"]


@pytest.mark.parametrize("package", LAZY)
def test_a_type_checker_imports_every_lazy_name_and_no_other(package: str):
    path = PACKAGE.parent / package.replace(".", "/") / "__init__.py"
    exports = importlib.import_module(package)._EXPORTS
    imported = type_checking_imports(path.read_text(encoding="utf-8"), package)
    assert imported == {module: set(names) for module, names in exports.items()}


@pytest.mark.parametrize("package", LAZY)
def test_every_lazy_name_is_the_object_its_module_defines(package: str):
    loaded = importlib.import_module(package)
    for module, names in loaded._EXPORTS.items():
        source = importlib.import_module(f"{package}.{module}")
        for name in names:
            assert getattr(loaded, name) is getattr(source, name), f"{package}.{name}"
            assert name in loaded.__all__ and name in dir(loaded)


def test_the_comparison_sees_a_missing_name_and_a_plain_import():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.a import X as X, Y\n"
        "    from pkg.b.c import Z as Z\n"
    )
    assert type_checking_imports(source, "pkg") == {"a": {"X"}, "!": {"Y"}, "b.c": {"Z"}}


def test_the_imports_for_type_checkers_cost_nothing_at_run_time():
    """``import arbo_notation`` loads none of the modules its TYPE_CHECKING block names."""
    script = (
        "import sys, arbo_notation, arbo_notation.notation;"
        "print(sorted(m for m in sys.modules if m.startswith('arbo_notation.')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == repr(
        ["arbo_notation.notation", "arbo_notation.runtime", "arbo_notation.runtime.lazy"]
    )
