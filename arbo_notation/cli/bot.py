"""`arbo bot`: a built-in bot as a program speaking the bot protocol on standard input and output."""

from __future__ import annotations

from typing import Optional

import typer

from arbo_notation.cli.bounds import LEAST_BUDGET, LEAST_MOVE_TIME, MOST_BUDGET, MOST_MOVE_TIME
from arbo_notation.cli.usage import number_between, one_of, whole_number
from arbo_notation.cli.bot_direct import NAMES, BotArguments, run_bot

HELP = """Run a built-in bot as a program that speaks the bot protocol (docs/PROTOCOL.md).

The bot reads one JSON message a line on standard input and answers one a line on standard output; its standard error is its log. It plays any number of games, one after another, until it reads {"type": "quit"} or its input ends. A line it cannot use (over 64 KiB, not UTF-8, not JSON, an unknown message) is skipped and said in one line on standard error (docs/PROTOCOL.md, "Hostile input to `arbo bot`"). It keeps its seat's own game from the messages, and sees only what its seat sees. It speaks protocol 2 where the referee offers it (each request answered with the rest of its turn up to a draw from the deck), unless --protocol 1 says otherwise. `arbo match` starts the built-in bots this way; other referees may too.

BOT is random (a uniform choice among the legal actions), greedy (builds paths and guards its rights) or engine (the analysis engine, --budget sampled worlds a decision). With the same --seed, a bot makes the same choices in the same game (its random numbers are seeded with SEED and the game's id).

Examples:

    arbo bot greedy

    arbo bot engine --budget 16 --seed 3

    arbo bot greedy --protocol 1

    arbo bot engine --move-time 8

    arbo match "arbo bot greedy" "python mybot.py" --games 10 --out games/
"""


def register(app: typer.Typer) -> None:
    @app.command("bot", help=HELP, short_help="Run a built-in bot speaking the bot protocol.")
    def bot(
        name: str = typer.Argument(
            ..., metavar="BOT", parser=one_of("BOT", NAMES, str), help="random, greedy or engine."
        ),
        budget: Optional[int] = typer.Option(
            None,
            "--budget",
            metavar="N",
            parser=whole_number("--budget", LEAST_BUDGET, MOST_BUDGET),
            help="The engine bot's sampled worlds per decision (default 48; docs/ANALYSIS.md).",
        ),
        seed: str = typer.Option("0", "--seed", "-s", metavar="SEED", help="Seed of the bot's random choices."),
        protocol: int = typer.Option(
            2,
            "--protocol",
            metavar="1|2",
            parser=whole_number("--protocol", 1, 2),
            help="The highest version of the protocol the bot speaks (it takes the highest the referee offers).",
        ),
        move_time: Optional[float] = typer.Option(
            None,
            "--move-time",
            metavar="SECONDS",
            parser=number_between("--move-time", LEAST_MOVE_TIME, MOST_MOVE_TIME),
            help="The engine bot's time limit per move: its search stops in time and answers with what it has.",
        ),
    ) -> None:
        run_bot(BotArguments(name, budget, seed, protocol, move_time))
