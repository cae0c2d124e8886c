"""The `arbo` command line: one typer app whose commands live in the modules beside this one."""

from __future__ import annotations

import typer

from . import check, convert, fmt, new, record, replay, score, simulate, species, state

app = typer.Typer(
    name="arbo",
    help="Record, check, score and replay games of Arboretum written in the .arb notation.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

for module in (record, check, score, state, fmt, convert, simulate, new, species, replay):
    module.register(app)


def main() -> None:
    """The console-script entry point."""
    app()
