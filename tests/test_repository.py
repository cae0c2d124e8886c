"""The repository itself: no merge left half done."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_file_holds_a_conflict_marker():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    paths = (
        listed.stdout.split()
        if listed.returncode == 0
        else [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts]
    )
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
    """object.__setattr__, or a slot's own setter taken from a class, only where the engine's value
    classes build themselves (interned cards and cells in __new__, a score's total in
    __post_init__, a seat's view's four fields where it is made): records are built whole
    (build.py)."""
    allowed = {
        "arbo_notation/engine/cards.py": 4,
        "arbo_notation/engine/scoring.py": 1,
        "arbo_notation/engine/view.py": 4,
    }
    found = {}
    for path in sorted((ROOT / "arbo_notation").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        count = text.count("object.__setattr__(") + len(re.findall(r"__dict__\[[^]]+\]\.__set__", text))
        if count:
            found[str(path.relative_to(ROOT))] = count
    assert found == allowed


def test_no_start_up_tricks():
    """No record is built as a draft turned frozen by assigning ``__class__``, no code is made by
    exec, no ``TYPE_CHECKING`` faked: the measured tricks kept are lazy imports, each with
    its reason beside it (docs/ARCHITECTURE.md, "Start-up and speed")."""
    found = []
    for path in sorted((ROOT / "arbo_notation").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        records = path.is_relative_to(ROOT / "arbo_notation" / "notation")  # cli/usage.py retypes click's params
        for trick in (".__class__ = ", "exec(", "CompiledOnFirstUse", "TYPE_CHECKING = False"):
            if trick in text and (records or trick != ".__class__ = "):
                found.append((str(path.relative_to(ROOT)), trick))
    assert found == []


def test_every_collected_test_has_a_short_readable_id(request):
    """A failing case names itself in a line: no id of a thousand '[' (conftest.short_id)."""
    names = [item.nodeid for item in request.session.items]
    assert request.node.nodeid in names
    cases = [name.partition("[")[2] for name in names]
    long = [case[:100] for case in cases if len(case) > 160 or "[[[[[[" in case]
    assert long == []


def test_short_ids_say_what_the_text_is():
    from tests.conftest import short_id

    assert short_id("x: " + "[" * 1000 + "]" * 1000 + "\n") == "x: [*1000]*1000"
    assert short_id("a: 1\n  b: 2\n") == "a: 1|b: 2"
    assert short_id("1. Ana d d Ma3@0,0 /Oa5\n" * 100) == "1. Ana d d Ma3@0,0 /Oa5|1. A...(2400 chars)"


def _function_level_imports_of_arbo(path: Path) -> list[int]:
    """The line of each import of arbo_notation inside a function body."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("arbo_notation"):
                    found.add(inner.lineno)
                elif isinstance(inner, ast.Import) and any(a.name.startswith("arbo_notation") for a in inner.names):
                    found.add(inner.lineno)
    return sorted(found)


def _reason_of(lines: list[str], number: int) -> bool:
    """A `# deferred:` comment on the import's line, or in the comment just above its block of imports."""
    if "# deferred:" in lines[number - 1]:
        return True
    at = number - 2
    while at >= 0 and (lines[at].strip().startswith(("from ", "import ", ")")) or lines[at].rstrip().endswith(",")):
        at -= 1
    while at >= 0 and lines[at].strip().startswith("#"):
        if lines[at].strip().startswith("# deferred:"):
            return True
        at -= 1
    return False


def test_every_deferred_import_says_why():
    """An import of arbo's own modules inside a function is a start-up decision, so it carries its
    reason: a `# deferred:` comment on its line or just above its block (docs/ARCHITECTURE.md)."""
    unexplained = []
    for path in sorted((ROOT / "arbo_notation").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number in _function_level_imports_of_arbo(path):
            if not _reason_of(lines, number):
                unexplained.append(f"{path.relative_to(ROOT)}:{number}: {lines[number - 1].strip()}")
    assert unexplained == []
