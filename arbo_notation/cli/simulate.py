"""`arbo simulate`: bots play seeded games and the command writes them as omniscient records."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable, Iterator, List, Optional

import typer

from ..errors import ArboError
from .common import EXIT_INVALID, echo_error, fail
from .usage import whole_number

#: From this many games on, a terminal gets a progress bar on stderr.
PROGRESS_FROM = 20


def _bot_names(values: list[str] | None, players: int) -> list[str]:
    """One bot name per seat from repeated and/or comma-separated --bot values."""
    from ..simulate import BOT_NAMES as BOTS

    names = [name.strip().lower() for value in values or ["greedy"] for name in value.split(",")]
    for name in names:
        if name not in BOTS:
            raise typer.BadParameter(
                f"no bot is called {name!r} (choose from {', '.join(sorted(BOTS))})", param_hint="'--bot'"
            )
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise typer.BadParameter(
            f"{len(names)} bots for {players} players: give one bot for every seat, or a single one",
            param_hint="'--bot'",
        )
    return names


def _with_progress(records: Iterator, total: int, label: str) -> Iterator:
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield from records
        return
    with typer.progressbar(length=total, label=label, file=sys.stderr) as bar:
        for record in records:
            yield record
            bar.update(1)


def _write_dir(out: Path, records: Iterable, total: int) -> int:
    """Write each record as game-NNNN.arb in ``out`` (created); how many were written."""
    from ..files import write_atomic
    from ..notation.writer import format_game

    if out.exists() and not out.is_dir():
        fail(f"{out}: exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"{out}: cannot create the directory ({error.strerror})")
    width = max(4, len(str(total)))
    written = 0
    for record in records:
        path = out / f"game-{record.index:0{width}d}.arb"
        try:
            write_atomic(path, format_game(record))
        except OSError as error:
            fail(f"{path}: cannot be written ({error.strerror})")
        written += 1
    return written


def simulate(
    players: int = typer.Option(
        ..., "--players", "-p", metavar="N", parser=whole_number("--players", 2, 4), help="Players per game: 2, 3 or 4."
    ),
    games: int = typer.Option(
        1, "--games", "-n", metavar="N", parser=whole_number("--games", 1), help="How many games to play."
    ),
    seed: str = typer.Option(
        "0", "--seed", "-s", metavar="SEED", help="Seed of the run: the same seed gives the same records."
    ),
    out: str = typer.Option(
        "-", "--out", "-o", metavar="DIR|-", help="Directory for game-0001.arb, ... (created), or '-' for stdout."
    ),
    bot: Optional[List[str]] = typer.Option(
        None,
        "--bot",
        "-b",
        metavar="greedy|random|engine",
        help="The bot of each seat, in seat order (repeat, or a comma list); one name plays every seat. "
        "[default: greedy]",
    ),
    house_discards: bool = typer.Option(
        False, "--house-discards", help="Deal one face-up card onto every discard pile but the start player's."
    ),
    event: Optional[str] = typer.Option(None, "--event", metavar="TEXT", help="The event to write in every header."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not say how many games were written to DIR."),
    budget: Optional[int] = typer.Option(
        None, "--budget", metavar="N", parser=whole_number("--budget", 1),
        help="The engine bot's sampled worlds per decision (default 48; docs/ANALYSIS.md).",
    ),
) -> None:
    """Let bots play seeded games and write them as omniscient records.

    Every record gives the deck, the dealt hands, every card drawn, the revealed hands and the
    result. Game i of a run is dealt from the seed "SEED:i", so the same seed gives the same
    bytes. Players are named Ana, Ben, Cleo and Dev.

    Examples:

        arbo simulate --players 2 --seed 7

        arbo simulate --players 4 --games 1000 --seed 1 --out sims/

        arbo simulate -p 3 -n 10 --bot greedy,random,random --out - > games.arb

        arbo simulate -p 2 --bot engine,greedy --budget 16
    """
    from ..simulate import simulate_games

    names = _bot_names(bot, players)
    try:
        records = _with_progress(
            simulate_games(players, games, seed, names, house_discards=house_discards, event=event, budget=budget),
            games,
            "simulating",
        )
        if out == "-":
            from ..notation.writer import format_games

            sys.stdout.write(format_games(list(records)))
            sys.stdout.flush()
        else:
            written = _write_dir(Path(out), records, games)
            if not quiet:
                typer.echo(f"wrote {written} game{'' if written == 1 else 's'} to {out}", err=True)
    except ArboError as error:
        echo_error(error)
        raise typer.Exit(EXIT_INVALID) from None


def register(app: typer.Typer) -> None:
    app.command("simulate", no_args_is_help=True)(simulate)
