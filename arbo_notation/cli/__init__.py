"""The `arbo` command line: one typer app whose commands live in the modules beside this one."""

from __future__ import annotations

import typer

from . import check, convert, fmt, new, replay, score, simulate, state
from .common import ArboGroup

app = typer.Typer(
    name="arbo",
    cls=ArboGroup,
    help="Record, check, score and replay games of Arboretum written in the .arb notation.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

for module in (check, score, state, fmt, convert, simulate, new, replay):
    module.register(app)


def main() -> None:
    """The console-script entry point."""
    app()
