"""The packages' layers: every import (inside functions and for type checkers too) goes down or
sideways, never up, no module imports itself back through others, and the engine is the standard
library alone (docs/ARCHITECTURE.md, "Layers")."""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "arbo_notation"

#: Each package's layer, lowest first: a module may import its own layer's and lower layers' modules.
LAYERS = {
    "errors": 0,
    "engine": 1,
    "runtime": 2,
    "notation": 3,
    "game": 4,
    "checking": 5,
    "analysis": 5,
    "present": 5,
    "record": 5,
    "bots": 6,
    "collection": 7,
    "learn": 7,
    "play": 7,
    "share": 7,
    "api": 8,
    "doors": 8,
    "": 8,
    "tui": 8,
    "lsp": 8,
    "serve": 8,
    "cli": 9,
    "__main__": 9,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imports(path: Path) -> tuple[set[str], set[str]]:
    """The arbo modules a module imports, anywhere in it, and the top-level names of the others."""
    own: set[str] = set()
    other: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, f"{path}: relative import"
            if node.module.split(".")[0] != "arbo_notation":
                other.add(node.module.split(".")[0])
                continue
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                own.add(full if full in MODULES else node.module)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "arbo_notation":
                    name = alias.name
                    while name not in MODULES:
                        name = name.rsplit(".", 1)[0]
                    own.add(name)
                else:
                    other.add(alias.name.split(".")[0])
    return own, other


GRAPH = {name: imports(path) for name, path in MODULES.items()}


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS[parts[1] if len(parts) > 1 else ""]


def test_every_package_has_a_layer():
    assert sorted({m.split(".")[1] for m in MODULES if "." in m} - set(LAYERS)) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_or_sideways(module):
    upward = sorted(target for target in GRAPH[module][0] if layer(target) > layer(module))
    assert upward == [], f"{module} (layer {layer(module)}) imports a higher layer"


def test_no_module_imports_itself_back():
    edges = {module: {t for t in own if t != module} for module, (own, _) in GRAPH.items()}
    state: dict[str, int] = defaultdict(int)  # 0 unseen, 1 on the path, 2 done
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges[module]):
            if state[target] == 1:
                cycles.append(path[path.index(target) :] + [target])
            elif state[target] == 0:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(edges):
        if state[module] == 0:
            visit(module, [module])
    assert cycles == []


def test_the_engine_is_the_standard_library_alone():
    foreign = {
        module: sorted(name for name in other if name not in sys.stdlib_module_names)
        for module, (own, other) in GRAPH.items()
        if module.startswith("arbo_notation.engine")
    }
    assert {module: names for module, names in foreign.items() if names} == {}
    own_targets = {t for module, (own, _) in GRAPH.items() if module.startswith("arbo_notation.engine") for t in own}
    assert sorted(t for t in own_targets if not t.startswith(("arbo_notation.engine", "arbo_notation.errors"))) == []


def test_one_module_imports_lark():
    assert sorted(module for module, (_, other) in GRAPH.items() if "lark" in other) == [
        "arbo_notation.notation.reading.grammar"
    ]


def test_the_layer_test_sees_an_upward_import(tmp_path):
    """The test can fail: an engine module importing the notation is an upward import."""
    probe = tmp_path / "probe.py"
    probe.write_text("from arbo_notation.notation.model import Turn\n", encoding="utf-8")
    own, _ = imports(probe)
    assert [layer(t) > LAYERS["engine"] for t in own] == [True]
