"""`arbo bot` run straight from plain arguments, without loading typer, as cli/direct.py runs `arbo check`.

`arbo match` starts each of its built-in bots as `python -m arbo_notation bot NAME --seed SEED`, in
every worker and again after a fault stopped one, and typer's import was some 40 ms of the bot's
120 ms of start-up (bench/README.md, "the bot protocol's cost"). That plain form (a bot's name as
the command lists it, `--seed SEED` or none, then `--protocol 1` or `2` or none) is read here;
anything else (`--budget`, `-s`, help, a misspelt name, a shell's completion request) is left to
the typer app, which reads all of them.
tests/cli/test_cli_bot_direct.py holds this reading to typer's.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: The longest line of a bot's log: a message quotes at most OUTSIDE_LIMIT characters of its input.
LOG_LIMIT = 1000
#: The built-in bots by the names the command takes.
NAMES = ("engine", "greedy", "random")


@dataclass(frozen=True, slots=True)
class BotArguments:
    """What `arbo bot` runs: the bot's name, the engine's budget (None: its default), the seed, the
    engine's time limit per move in seconds (None: none)."""

    name: str
    budget: int | None = None
    seed: str = "0"
    protocol: int = 2
    move_time: float | None = None


def plain_bot_arguments(args: Sequence[str], environ: Mapping[str, str] = os.environ) -> BotArguments | None:
    """The arguments of ``arbo ARGS`` when it is `arbo bot NAME [--seed SEED] [--protocol 1|2]`,
    else None (for typer)."""
    if len(args) not in (2, 4, 6) or args[0] != "bot" or args[1] not in NAMES or _completing(environ):
        return None
    seed, protocol = "0", 2
    options = list(args[2:])
    if options[:1] == ["--seed"]:
        if options[1].startswith("-"):
            return None
        seed, options = options[1], options[2:]
    if options:
        if len(options) != 2 or options[0] != "--protocol" or options[1] not in ("1", "2"):
            return None
        protocol = int(options[1])
    return BotArguments(args[1], seed=seed, protocol=protocol)


def _completing(environ: Mapping[str, str]) -> bool:
    """Whether a shell asks for completions (click's ``_ARBO_COMPLETE``, whatever the program's name)."""
    return any(key.startswith("_") and key.endswith("_COMPLETE") for key in environ)


def run_bot(arguments: BotArguments) -> None:
    """Serve the bot on standard input and output until ``quit`` or the end of the input; its log
    on standard error. A referee that stops reading, or Ctrl-C, ends it quietly."""
    # deferred: arbo's start-up imports this module to read any `arbo bot ...` line; one typer
    # then runs (`--help`, a misspelt name) does not load the protocol and the bots
    from arbo_notation.notation.outside import safe_text
    from arbo_notation.bots import make_bot
    from arbo_notation.bots.serve import read_lines, serve

    name, budget, move_time = arguments.name, arguments.budget, arguments.move_time

    def log(text: str) -> None:
        # what the referee sent is quoted safely in the text already; this holds the whole line
        print(f"arbo bot {name}: {safe_text(text, LOG_LIMIT)}", file=sys.stderr, flush=True)

    def write(line: bytes) -> None:
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()

    # The objects of the start-up (the modules, their tables) live as long as the bot: frozen, the
    # collector no longer walks them at each of its passes. serve() on one seat's 30 recorded games
    # of a greedy match (protocol 2, bench/README.md "Protocol 2"): 7.6 ms of CPU a game, 7.2 frozen.
    gc.freeze()
    try:
        lines = read_lines(sys.stdin.buffer, log)  # bytes: the locale's encoding is not the protocol's
        serve(
            lambda: make_bot(name, budget, move_time),
            lines,
            write,
            name=f"arbo {name}",
            seed=arguments.seed,
            log=log,
            protocol=arguments.protocol,
        )
    except (BrokenPipeError, KeyboardInterrupt):
        pass
