"""`arbo check` run without typer (cli/direct.py): it reads a command line as the typer app reads
it, or leaves it to the app; and the command it runs prints and ends exactly as the app's."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.cli import app
from arbo_notation.cli.check import CheckArguments
from arbo_notation.cli.direct import plain_check_arguments
from arbo_notation.cli.usage import UsageError

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def typer_reading(tokens: list[str]) -> CheckArguments | None:
    """What the typer app reads from ``arbo check TOKENS``: the arguments, or None for a usage
    error or the help (which it prints and ends)."""
    command = typer.main.get_command(app).commands["check"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            context = command.make_context("check", list(tokens))
        except (UsageError, typer.Exit, SystemExit):
            return None
    params = context.params
    return CheckArguments(tuple(params["files"]), params["as_json"], params["jobs"], params["quiet"])


# Tokens of every kind: the plain forms, the values of -j, and what only typer reads or refuses
# (help, '--', unknown and misspelt options, clusters, values that are not plain whole numbers).
TOKENS = [
    "-q",
    "--quiet",
    "--json",
    "-j",
    "--jobs",
    "-j1",
    "-j0",
    "-j12",
    "--jobs=2",
    "--jobs=007",
    "1",
    "0",
    "007",
    "99",
    "a.arb",
    "b c.arb",
    "-",
    "",
    "check",
    "games/",
    "--",
    "-x",
    "-qj",
    "-jq",
    "-h",
    "--help",
    "--jso",
    "--jobs=",
    "--jobs=x",
    "-j-1",
    "-j=1",
    " 1",
    "1_000",
    "\u0661",
    "-1",
    "--quiet=1",
    "--json=yes",
    "-q1",
    "--1",
    "-x2",
    "1024",
    "1025",
    "-j1025",
    "--jobs=99999999999999999999",
]


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=7))
def test_a_command_line_read_here_is_read_as_typer_reads_it(tokens):
    direct = plain_check_arguments(["check", *tokens], environ={})
    if direct is not None:
        assert direct == typer_reading(tokens)


@pytest.mark.parametrize(
    "tokens, expected",
    [
        (["a.arb"], CheckArguments(("a.arb",))),
        (["-", "b.arb"], CheckArguments(("-", "b.arb"))),
        (["-q", "-j", "1", "a.arb", "b.arb"], CheckArguments(("a.arb", "b.arb"), jobs=1, quiet=True)),
        (["a.arb", "--json", "--jobs", "2", "c.arb"], CheckArguments(("a.arb", "c.arb"), as_json=True, jobs=2)),
        (["-j3", "--quiet", "a.arb", "--jobs=0"], CheckArguments(("a.arb",), jobs=0, quiet=True)),
        (["--jobs=007", "a.arb", "-q", "-q"], CheckArguments(("a.arb",), jobs=7, quiet=True)),
    ],
)
def test_the_plain_forms_are_read_here(tokens, expected):
    assert plain_check_arguments(["check", *tokens], environ={}) == expected
    assert typer_reading(tokens) == expected


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["check"],
        ["check", "-q"],
        ["check", "--help"],
        ["check", "-h", "a.arb"],
        ["check", "--", "-a.arb"],
        ["check", "-j", "a.arb"],
        ["check", "a.arb", "-j"],
        ["check", "-j", " 1", "a.arb"],
        ["check", "-jq", "a.arb"],
        ["check", "--jobs=", "a.arb"],
        ["check", "-x", "a.arb"],
        ["score", "a.arb"],
        ["--version"],
        ["--version", "check", "a.arb"],
        ["check", "-j", "1025", "a.arb"],
        ["check", "--jobs=10000", "a.arb"],
    ],
)
def test_what_typer_reads_otherwise_is_left_to_it(args):
    assert plain_check_arguments(args, environ={}) is None


def test_a_shells_completion_request_is_left_to_typer():
    assert plain_check_arguments(["check", "a.arb"], environ={"_ARBO_COMPLETE": "bash_complete"}) is None
    assert plain_check_arguments(["check", "a.arb"], environ={"HOME": "/root"}) == CheckArguments(("a.arb",))


def arbo(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.endswith("_COMPLETE")}
    return subprocess.run(
        [sys.executable, "-m", "arbo_notation", *args], input=stdin, capture_output=True, cwd=ROOT, env=env, timeout=120
    )


@pytest.mark.parametrize(
    "options, files",
    [
        ([], ["samples/annotated.arb"]),
        (["-q"], ["samples/invalid/rule-wrong-result.arb", "samples/annotated.arb"]),
        (["-j", "1"], sorted(str(p.relative_to(ROOT)) for p in (SAMPLES / "invalid").glob("*.arb"))[:12]),
        (["-q", "-j", "1"], ["samples/invalid"]),
        (["--json", "-j", "1"], ["samples/two-player-omniscient.arb", "samples/invalid/rule-wrong-result.arb"]),
        ([], ["samples/no-such-file.arb", "samples/annotated.arb"]),
        ([], ["samples"]),
        (["--json"], ["-"]),
    ],
)
def test_the_command_run_here_prints_and_ends_as_the_apps(options, files):
    stdin = (SAMPLES / "invalid" / "rule-wrong-result.arb").read_bytes()
    direct = arbo("check", *options, *files, stdin=stdin)
    through_typer = arbo("check", *options, "--", *files, stdin=stdin)  # '--' is typer's alone to read
    assert (direct.returncode, direct.stdout, direct.stderr) == (
        through_typer.returncode,
        through_typer.stdout,
        through_typer.stderr,
    )
    assert direct.stdout or direct.stderr  # something was checked and said


def test_a_plain_check_never_imports_typer():
    script = (
        "import sys; sys.argv = ['arbo', 'check', '-q', '-j', '1', sys.argv[1]]\n"
        "from arbo_notation.cli import main\n"
        "try:\n    main()\nexcept SystemExit as end:\n    print(end.code, 'typer' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(SAMPLES / "annotated.arb")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.stdout == "0 False\n", done.stderr
