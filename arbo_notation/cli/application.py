"""The typer app of the `arbo` command line, whose commands live in the modules beside this one."""

from __future__ import annotations

import importlib

import typer
import typer.main
from typer.core import TyperCommand

from arbo_notation import __version__
from arbo_notation.cli.usage import ArboApp, ArboGroup, Listing

#: The commands, in the order of `arbo --help`, with their lines there (each command's own
#: ``short_help``, or the first sentence of its help: tests/cli/test_cli_listing.py holds them to
#: the commands'). Each lives in the module of its name, imported only when it is invoked: the help
#: lists them from here, so a command pays for its own imports only.
COMMANDS = {
    "record": Listing(short_help="Record a game at the table, each turn checked as it is entered."),
    "check": Listing(help="Check every game of the record files against the rules of Arboretum."),
    "score": Listing(short_help="Score a game or a position: rights, paths, totals, winner."),
    "state": Listing(help="Show the position after a turn of a recorded game."),
    "fmt": Listing(help="Print records in the canonical .arb form (or rewrite them with --in-place)."),
    "convert": Listing(
        help="Convert records between .arb and a lossless structured form (JSON or YAML), or export a corpus to Parquet tables."
    ),
    "simulate": Listing(help="Let bots play seeded games and write them as omniscient records, or as Parquet tables."),
    "bot": Listing(short_help="Run a built-in bot speaking the bot protocol."),
    "match": Listing(short_help="Let bot programs play a match under a referee."),
    "stats": Listing(short_help="Count a collection: per player, seat and species."),
    "ratings": Listing(short_help="Rate the players of a collection (OpenSkill)."),
    "grep": Listing(short_help="Print the games that match, or the games recorded twice."),
    "new": Listing(help="Print the header of a new game record, ready to record the turns."),
    "species": Listing(short_help="The species codes of both editions, and how many a table uses."),
    "replay": Listing(short_help="Step through a recorded game: terminal UI, or plain text."),
    "export": Listing(short_help="A game as a self-contained HTML page that replays it."),
    "render": Listing(short_help="One position as an SVG or PNG diagram, or the game as a GIF."),
    "merge": Listing(short_help="Join the records of one game made from different seats into one."),
    "analyse": Listing(help="Judge each turn of a recorded game from what its mover knew, and mark the mistakes."),
    "puzzles": Listing(help="Pick puzzles from analysed games: the turns where one finish is clearly best."),
    "serve": Listing(short_help="Follow records live in a browser, and record from a phone."),
    "train": Listing(help="Ask the puzzles of a file, the missed and due ones first, and keep the history."),
    "lsp": Listing(help="Run the language server for .arb records, over standard input and output."),
}

HELP = """Record, check, score and replay games of Arboretum written in the .arb notation.

Every command has --help with examples. Data goes to stdout, messages to stderr. The exit status is 0 when all is well, 1 for bad input data (a malformed, missing or unreadable file, an illegal move, a wrong result) and 2 for a usage error, including an option value that does not fit the record (such as --turn 99 of a 40-turn game, or --game 3 of a file of 2 games).
"""


def _load_command(name: str) -> TyperCommand:
    """The click command ``name``, built as typer builds it from its module's ``register``."""
    module = importlib.import_module(f"{__package__}.{name}")
    holder = ArboApp()
    module.register(holder)
    (info,) = holder.registered_commands
    command = typer.main.get_command_from_info(
        info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
    )
    assert isinstance(command, TyperCommand)  # an ArboApp's commands are ArboCommands
    return command


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
        # deferred: which build is installed (imports the greedy bot's module), for --version alone
        from arbo_notation.engine import compiled

        typer.echo(f"arbo {__version__}, compiled (mypyc)" if compiled() else f"arbo {__version__}")
        raise typer.Exit()


@app.callback()
def arbo(
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_print_version, help="Print arbo's version and exit."
    ),
) -> None:
    """The options of `arbo` itself (before the command)."""
