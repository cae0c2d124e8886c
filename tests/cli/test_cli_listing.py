"""`arbo --help` lists the commands from their listings (cli/application.py), importing none of them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from arbo_notation.cli import app
from arbo_notation.cli.application import COMMANDS, _load_command

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_listing_is_the_line_click_makes_of_the_command(name):
    command = _load_command(name)
    for limit in range(1, 160):
        assert COMMANDS[name].get_short_help_str(limit) == command.get_short_help_str(limit), limit


def test_the_help_lists_every_command_in_order_by_its_line():
    result = CliRunner().invoke(app, ["--help"], terminal_width=80)
    assert result.exit_code == 0
    listed = result.output.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == list(COMMANDS)
    assert "  check     Check every game of the record files against the rules of..." in listed
    assert "  record    Record a game at the table, each turn checked as it is entered." in listed


def test_the_help_is_the_one_click_makes_of_the_commands_built():
    group = typer.main.get_command(app)
    listed = group.get_help(group.context_class(group, info_name="arbo"))
    group.lazy_listings = {}  # this group only: each command built and asked for its line
    assert group.get_help(group.context_class(group, info_name="arbo")) == listed


def test_the_help_imports_no_command_module():
    code = "import sys\nfrom arbo_notation.cli import main\nsys.argv = ['arbo', '--help']\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
    code += "print(' '.join(sys.modules))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    loaded = set(out.splitlines()[-1].split())
    assert "arbo_notation.cli.application" in loaded
    assert not loaded & {f"arbo_notation.cli.{name}" for name in COMMANDS if name != "check"}  # (check: direct.py)
