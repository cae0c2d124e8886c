"""The installed package works on its own: the grammar ships inside it, start-up stays lean."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_carries_the_grammar_beside_the_parser():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    force = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert force == {"grammar/arbo.lark": "arbo_notation/notation/arbo.lark"}


def test_the_wheel_carries_the_typed_marker():
    """PEP 561: without arbo_notation/py.typed a user's mypy treats the package as untyped (Any). The
    wheel takes the package folder whole: nothing in its build configuration may leave the marker out."""
    assert (ROOT / "arbo_notation" / "py.typed").is_file()
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == ["arbo_notation"]
    assert not {"exclude", "only-include", "sources"} & set(wheel)
    ignored = subprocess.run(["git", "check-ignore", "-q", "arbo_notation/py.typed"], cwd=ROOT)
    assert ignored.returncode != 0  # hatch leaves out what .gitignore names


def test_a_package_laid_out_as_the_wheel_parses_without_the_repository(tmp_path: Path):
    site = tmp_path / "site"
    shutil.copytree(ROOT / "arbo_notation", site / "arbo_notation", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "grammar" / "arbo.lark", site / "arbo_notation" / "notation" / "arbo.lark")
    script = (
        "import arbo_notation.notation.reading.syntax as s, arbo_notation.notation.reading.grammar as g, sys;"
        "games, _ = s.parse_game(open(sys.argv[1]).read(), 'a.arb', 1, lambda n: '');"
        "print(g._grammar_path(), len(games[0].turns))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "samples" / "annotated.arb")],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        check=True,
    )
    grammar, turns = done.stdout.split()
    assert Path(grammar) == site / "arbo_notation" / "notation" / "arbo.lark"
    assert int(turns) == 17


def test_commands_that_need_no_tui_do_not_load_textual_or_lark_at_start():
    script = "import sys, arbo_notation.cli; print(sorted(m for m in ('textual', 'lark', 'yaml') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["replay", "--help"]])
def test_version_and_help_load_neither_textual_nor_lark(args: list[str]):
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "arbo_notation", *args], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-500:]
    loaded = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "arbo_notation.cli" in loaded  # the probe sees the imports
    assert {name for name in loaded if name.split(".")[0] in ("textual", "lark", "rich", "pydantic")} == set()


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--version"], []),
        (["check", "-q", "-j", "1", "SAMPLE"], ["arbo_notation.cli.check"]),
        (["score", "SAMPLE"], ["arbo_notation.cli.score"]),
    ],
)
def test_a_command_imports_its_own_module_and_no_other_commands(args: list[str], expected: list[str]):
    """The command table is lazy (cli/__init__.py): a command pays for its own imports only."""
    sample = str(ROOT / "samples" / "two-player-omniscient.arb")
    script = (
        "import sys; from arbo_notation.cli import COMMANDS, app\n"
        "try:\n    app(sys.argv[1:])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(f'arbo_notation.cli.{c}' for c in COMMANDS if f'arbo_notation.cli.{c}' in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *(sample if a == "SAMPLE" else a for a in args)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip().splitlines()[-1] == repr(expected)


def test_the_help_lists_every_command_of_the_lazy_table():
    from arbo_notation.cli import COMMANDS, app
    from typer.testing import CliRunner

    lines = CliRunner().invoke(app, ["--help"]).output.split("Commands:")[1].splitlines()
    listed = [line.split()[0] for line in lines if line.startswith("  ") and not line.startswith("   ")]
    assert listed == list(COMMANDS)
    assert len(COMMANDS) == 23


@pytest.mark.parametrize("command", ["check", "score", "state"])
def test_a_command_on_a_small_record_loads_neither_pydantic_nor_rich(command: str):
    # typer 0.29 would build a pydantic adapter for every option value, and its rich help a
    # markdown parser: together half the start-up of a small command (cli/usage.py).
    sample = str(ROOT / "samples" / "two-player-omniscient.arb")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "arbo_notation", command, "-g", "1", sample]
        if command != "check"
        else [sys.executable, "-X", "importtime", "-m", "arbo_notation", command, "-j", "1", sample],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-500:]
    loaded = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "arbo_notation.cli" in loaded
    assert {name for name in loaded if name.split(".")[0] in ("pydantic", "rich", "textual")} == set()


def test_export_and_render_never_import_textual(tmp_path: Path):
    sample = str(ROOT / "samples" / "annotated.arb")
    page, picture = str(tmp_path / "page.html"), str(tmp_path / "board.svg")
    script = (
        "import sys; from typer.testing import CliRunner; from arbo_notation.cli import app;"
        f"r = [CliRunner().invoke(app, ['export', {sample!r}, '--to', 'html', '-o', {page!r}]).exit_code,"
        f"     CliRunner().invoke(app, ['render', {sample!r}, '--score', '-o', {picture!r}]).exit_code];"
        "print(r, 'textual' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[0, 0] False"


def test_the_page_script_and_style_ship_inside_the_package(tmp_path: Path):
    """The wheel carries the whole package folder, page.js and page.css included (read through
    importlib.resources, never from the repository)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["arbo_notation"]
    site = tmp_path / "site"
    shutil.copytree(ROOT / "arbo_notation", site / "arbo_notation", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "grammar" / "arbo.lark", site / "arbo_notation" / "notation" / "arbo.lark")
    script = (
        "import sys, arbo_notation as arbo; from arbo_notation.share.html import build_page;"
        "page = build_page([arbo.load_game(sys.argv[1])]); print('use strict' in page, 'grid-template' in page)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "samples" / "annotated.arb")],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "True True"


def test_check_and_score_never_import_textual():
    sample = str(ROOT / "samples" / "four-players.arb")
    script = (
        "import sys; from typer.testing import CliRunner; from arbo_notation.cli import app;"
        f"r = [CliRunner().invoke(app, [c, {sample!r}]).exit_code for c in ('check', 'score', 'state')];"
        "print(r, 'textual' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[0, 0, 0] False"


@pytest.mark.slow
def test_checking_plain_records_does_not_load_the_parser(tmp_path: Path):
    """Simulated and fmt-written games are read by the plain reader, annotated ones by the fast
    reader: lark's tenth of a second of loading is paid only for a game with a syntax error."""
    plain = tmp_path / "plain.arb"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arbo_notation",
            "simulate",
            "--players",
            "3",
            "--games",
            "2",
            "--seed",
            "7",
            "--out",
            "-",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    plain.write_text(done.stdout, encoding="utf-8")
    script = (
        "import sys; from arbo_notation.cli.check import check_files;"
        "s = check_files([sys.argv[1]], 1); print(s[0].valid, 'lark' in sys.modules)"
    )
    for path, expected in (
        (plain, "2 False"),
        (ROOT / "samples" / "annotated.arb", "1 False"),
        (ROOT / "samples" / "invalid" / "unknown-glyph.arb", "0 True"),
    ):
        done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
        assert done.stdout.strip() == expected


@pytest.mark.slow
def test_the_parser_cache_lives_in_a_private_folder_and_is_optional(tmp_path: Path):
    script = (
        "import sys; from arbo_notation.notation.reading import grammar, syntax;"
        "print(grammar._cache_file()); print(len(syntax.parse_game(open(sys.argv[1]).read(), 'a.arb', 1, str)[0]))"
    )
    sample = str(ROOT / "samples" / "annotated.arb")
    cache = tmp_path / "cache"
    for _ in range(2):  # built and saved, then loaded from the cache
        done = subprocess.run(
            [sys.executable, "-c", script, sample],
            env={"XDG_CACHE_HOME": str(cache)},
            capture_output=True,
            text=True,
            check=True,
        )
        where, games = done.stdout.split()
        assert Path(where).parent == cache / "arbo" and games == "1"
    assert oct((cache / "arbo").stat().st_mode & 0o777) == "0o700"
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    done = subprocess.run(
        [sys.executable, "-c", script, sample],
        env={"XDG_CACHE_HOME": str(blocked)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["False", "1"]


@pytest.mark.parametrize(
    "args",
    [
        ["check", "-q", "-j", "1", "SAMPLE"],
        ["grep", "SAMPLE", "--player", "Ana", "--won", "--list"],
        ["convert", "SAMPLE", "--to", "json"],
        ["simulate", "-p", "2", "-j", "1"],
    ],
)
def test_commands_that_need_no_tables_import_neither_pyarrow_nor_duckdb(args: list[str]):
    sample = str(ROOT / "samples" / "two-player-omniscient.arb")
    script = (
        "import sys; from arbo_notation.cli import app\n"
        "try:\n    app(sys.argv[1:])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in ('pyarrow', 'duckdb') if m in sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *(sample if a == "SAMPLE" else a for a in args)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stderr.strip().splitlines()[-1] == "[]"


def test_the_data_extra_is_declared_and_the_tests_install_it():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = config["project"]["optional-dependencies"]
    assert {spec.split(">")[0] for spec in extras["data"]} == {"pyarrow", "duckdb"}
    assert "arbo-notation[data]" in extras["test"]
    assert not {"pyarrow", "duckdb"} & {spec.split(">")[0] for spec in config["project"]["dependencies"]}


def test_no_module_imports_a_private_name_of_a_dependency():
    """typer floats within its major version (pyproject.toml): arbo reaches only its public names."""
    import ast

    private = []
    for path in sorted((ROOT / "arbo_notation").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            private += [
                f"{path.name}: {name}"
                for name in names
                if not name.startswith("arbo_notation.")
                and any(part.startswith("_") and not part.startswith("__") for part in name.split("."))
            ]
    assert private == []
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert "typer>=0.29,<1" in dependencies


def test_the_spark_extra_is_declared_the_tests_install_it_and_arbo_never_imports_it():
    import ast

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extras["spark"] == ["pyspark>=4.3,<5"]
    assert "arbo-notation[spark]" in extras["test"]
    importers = []
    for path in sorted((ROOT / "arbo_notation").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.partition(".")[0] == "pyspark":
                importers.append(path.name)
            elif isinstance(node, ast.Import) and any(a.name.partition(".")[0] == "pyspark" for a in node.names):
                importers.append(path.name)
    assert importers == []  # the queries and the benchmark use Spark; arbo's commands do not
    assert "missing+=(openjdk-17-jre-headless)" in (ROOT / ".ci" / "run").read_text()  # Spark's Java, in CI
