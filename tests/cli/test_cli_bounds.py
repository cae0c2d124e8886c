"""Every number a command takes has bounds, shown in its help; a value past them is a usage error."""

from __future__ import annotations

import typing

import pytest
import typer
import typer.main
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.cli.application import COMMANDS

runner = CliRunner()


def number_options() -> list[tuple[str, str, object]]:
    """(command, option, parameter) of every int or float parameter of every command."""
    group = typer.main.get_command(app)
    found = []
    for name in COMMANDS:
        command = group.commands[name]
        hints = typing.get_type_hints(command.callback)
        for param in command.get_params(command.context_class(command)):
            kinds = set(typing.get_args(hints.get(param.name))) | {hints.get(param.name)}
            if kinds & {int, float}:
                option = next((o for o in param.opts if o.startswith("--")), param.name)
                found.append((name, option, param))
    return found


def test_every_number_option_has_a_maximum_shown_in_its_help():
    options = number_options()
    assert len(options) >= 18  # budget, jobs, games, turns... of nine commands
    for name, option, param in options:
        bounds = getattr(param.parse, "bounds", None)
        assert bounds is not None and "or more" not in bounds, (name, option, bounds)
        shown = " ".join(runner.invoke(app, [name, "--help"]).stdout.split())
        assert bounds in shown, (name, option)


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["analyse", "g.arb", "--turn", "1", "--budget", "1000000000000"],
            "arbo: --budget must be 100000 or less, not 1000000000000 (see 'arbo analyse --help')\n",
        ),
        (
            ["analyse", "g.arb", "-j", "1025"],
            "arbo: --jobs must be 1024 or less, not 1025 (see 'arbo analyse --help')\n",
        ),
        (
            ["simulate", "-p", "2", "-n", "100000001"],
            "arbo: --games must be 100000000 or less, not 100000001 (see 'arbo simulate --help')\n",
        ),
        (
            ["simulate", "-p", "2", "--bot", "engine", "--budget", "100001"],
            "arbo: --budget must be 100000 or less, not 100001 (see 'arbo simulate --help')\n",
        ),
        (["check", "-j", "5000", "g.arb"], "arbo: --jobs must be 1024 or less, not 5000 (see 'arbo check --help')\n"),
        (
            ["state", "g.arb", "--turn", "1001"],
            "arbo: --turn must be 1000 or less, not 1001 (see 'arbo state --help')\n",
        ),
        (
            ["score", "g.arb", "--game", "100000001"],
            "arbo: --game must be 100000000 or less, not 100000001 (see 'arbo score --help')\n",
        ),
        (
            ["convert", "g.arb", "--to", "parquet", "-o", "x", "--games-per-part", "100000001"],
            "arbo: --games-per-part must be 100000000 or less, not 100000001 (see 'arbo convert --help')\n",
        ),
    ],
)
def test_a_number_past_its_bounds_is_a_usage_error(args, message):
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stderr, result.stdout) == (2, message, "")


def test_check_read_without_typer_refuses_too_many_jobs_as_typer_does(tmp_path):
    """cli/direct.py reads a plain `arbo check` without typer: a -j past the bounds is left to typer."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "check", "-j", "1025", str(tmp_path / "g.arb")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("arbo: --jobs must be 1024 or less, not 1025 (see '")


@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_a_whole_number_is_taken_exactly_within_its_bounds(value):
    from arbo_notation.cli.usage import whole_number

    parse = whole_number("--n", 1, 1000)
    if 1 <= value <= 1000:
        assert parse(str(value)) == value
    else:
        with pytest.raises(typer.BadParameter, match="1 or more" if value < 1 else "1000 or less"):
            parse(str(value))
