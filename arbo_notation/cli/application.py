"""The typer app of the `arbo` command line, whose commands live in the modules beside this one."""

from __future__ import annotations

import importlib

import typer
import typer.main

from arbo_notation.cli.usage import ArboApp, ArboGroup

#: The commands, in the order of `arbo --help`; each lives in the module of its name, imported
#: when it is invoked (or when the help lists them all): a command pays for its own imports only.
COMMANDS = (
    "record",
    "check",
    "score",
    "state",
    "fmt",
    "convert",
    "simulate",
    "bot",
    "match",
    "stats",
    "ratings",
    "grep",
    "new",
    "species",
    "replay",
    "export",
    "render",
    "merge",
    "analyse",
)

HELP = """Record, check, score and replay games of Arboretum written in the .arb notation.

Every command has --help with examples. Data goes to stdout, messages to stderr. The exit status is 0 when all is well, 1 for bad input data (a malformed, missing or unreadable file, an illegal move, a wrong result) and 2 for a usage error, including an option value that does not fit the record (such as --turn 99 of a 40-turn game, or --game 3 of a file of 2 games).
"""


def _load_command(name: str) -> typer.main.click.Command:
    """The click command ``name``, built as typer builds it from its module's ``register``."""
    module = importlib.import_module(f"{__package__}.{name}")
    holder = ArboApp()
    module.register(holder)
    (info,) = holder.registered_commands
    return typer.main.get_command_from_info(
        info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
    )


app = ArboApp(
    name="arbo",
    cls=ArboGroup.of_commands(COMMANDS, _load_command),
    help=HELP,
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(wanted: bool) -> None:
    if wanted:
        from arbo_notation import __version__

        typer.echo(f"arbo {__version__}")
        raise typer.Exit()


@app.callback()
def arbo(
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_print_version, help="Print arbo's version and exit."
    ),
) -> None:
    """The options of `arbo` itself (before the command)."""
