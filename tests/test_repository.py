"""The repository itself: no merge left half done."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_file_holds_a_conflict_marker():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    paths = listed.stdout.split() if listed.returncode == 0 else [
        str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts
    ]
    marked = []
    for name in paths:
        path = ROOT / name
        if path.suffix in (".svg", ".png", ".pyc") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line == "=======":
                marked.append(f"{name}:{number}")
    assert marked == []


def test_no_code_writes_to_a_frozen_record():
    """object.__setattr__ only where the engine's value classes build themselves (interned cards and
    cells in __new__, a score's total in __post_init__): records are built whole (build.py)."""
    allowed = {"arbo_notation/engine/cards.py": 4, "arbo_notation/engine/scoring.py": 1}
    found = {}
    for path in sorted((ROOT / "arbo_notation").rglob("*.py")):
        count = path.read_text(encoding="utf-8").count("object.__setattr__(")
        if count:
            found[str(path.relative_to(ROOT))] = count
    assert found == allowed


def _run_time_nodes(tree):
    """The nodes of a module, but those under ``if TYPE_CHECKING:`` (imports for the type checker
    alone, never run)."""
    import ast

    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            test = getattr(child, "test", None) if isinstance(child, ast.If) else None
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                todo.extend(child.orelse)
                continue
            todo.append(child)


def _imports() -> dict[str, set[str]]:
    """Each module of arbo_notation and the modules of it that it imports when run, lazily or not."""
    import ast

    modules = {}
    for path in (ROOT / "arbo_notation").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _run_time_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                found = [target] + [f"{target}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            else:
                continue
            graph[name].update(f for f in found if f in modules and f != name)
    return graph


def test_no_module_imports_a_module_that_imports_it_back():
    """Layers, imports one way: no cycle, counting the imports made inside functions too (not
    those for the type checker alone)."""
    graph = _imports()
    reach: dict[str, set[str]] = {}

    def reached(name: str) -> set[str]:
        if name not in reach:
            reach[name] = set()
            todo, seen = list(graph[name]), set()
            while todo:
                module = todo.pop()
                if module not in seen:
                    seen.add(module)
                    todo.extend(graph[module])
            reach[name] = seen
        return reach[name]

    assert "arbo_notation.replayer" in graph["arbo_notation.gamecheck"]  # (the graph is read)
    assert sorted(name for name in graph if name in reached(name)) == []


def test_every_collected_test_has_a_short_readable_id(request):
    """A failing case names itself in a line: no id of a thousand '[' (conftest.short_id)."""
    names = [item.nodeid for item in request.session.items]
    assert request.node.nodeid in names
    cases = [name.partition("[")[2] for name in names]
    long = [case[:100] for case in cases if len(case) > 160 or "[[[[[[" in case]
    assert long == []


def test_short_ids_say_what_the_text_is():
    from conftest import short_id

    assert short_id("x: " + "[" * 1000 + "]" * 1000 + "\n") == "x: [*1000]*1000"
    assert short_id("a: 1\n  b: 2\n") == "a: 1|b: 2"
    assert short_id("1. Ana d d Ma3@0,0 /Oa5\n" * 100) == "1. Ana d d Ma3@0,0 /Oa5|1. A...(2400 chars)"
