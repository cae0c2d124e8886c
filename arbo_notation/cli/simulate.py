"""`arbo simulate`: bots play seeded games and the command writes them as omniscient records."""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, List, Optional, TypeVar

import typer

from arbo_notation.errors import ArboError
from arbo_notation.notation.model import GameRecord
from arbo_notation.notation.writer import format_game
from arbo_notation.bots import BOT_NAMES
from arbo_notation.play.simulate import simulate_jobs, simulate_run
from arbo_notation.runtime.atomic import write_atomic
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, echo_error, fail, say_wrote
from arbo_notation.cli.bounds import LEAST_BUDGET, MOST_BUDGET, MOST_GAMES, MOST_JOBS
from arbo_notation.cli.usage import a_path, one_of, whole_number

if TYPE_CHECKING:
    from arbo_notation.collection.rows import GameRows  # loaded with --parquet (_rows_then)

T = TypeVar("T")

#: From this many games on, a terminal gets a progress bar on stderr.
PROGRESS_FROM = 20


def _bot_names(values: list[str] | None, players: int) -> list[str]:
    """One bot name per seat from repeated and/or comma-separated --bot values."""
    names = [name.strip().lower() for value in values or ["greedy"] for name in value.split(",")]
    for name in names:
        if name not in BOT_NAMES:
            raise typer.BadParameter(
                f"no bot is called {name!r} (choose from {', '.join(sorted(BOT_NAMES))})", param_hint="'--bot'"
            )
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise typer.BadParameter(
            f"{len(names)} bots for {players} players: give one bot for every seat, or a single one",
            param_hint="'--bot'",
        )
    return names


def _with_progress(records: Iterator[T], total: int, label: str) -> Iterator[T]:
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield from records
        return
    with typer.progressbar(length=total, label=label, file=sys.stderr) as bar:
        for record in records:
            yield record
            bar.update(1)


def _write_dir(out: Path, texts: Iterable[tuple[int, str]], total: int) -> int:
    """Write each game's text as game-NNNN.arb in ``out`` (created with the first); how many were written. A
    file of that name already there is never written over (refused before any game is played)."""
    if out.exists() and not out.is_dir():
        fail(f"{out}: exists and is not a directory")
    width = max(4, len(str(total)))
    names = [out / f"game-{index:0{width}d}.arb" for index in range(1, total + 1)]
    if out.is_dir():
        _refuse_existing(next((path for path in names if os.path.lexists(path)), None), "folder")
    written = 0
    for index, text in texts:
        if not written:  # made with the first game: a run that ends before it (no Dask worker) leaves none
            try:
                out.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                fail(f"{out}: cannot create the directory ({error.strerror})")
        path = names[index - 1]
        _refuse_existing(path if os.path.lexists(path) else None, "folder")  # made meanwhile by another
        try:
            write_atomic(path, text)
        except OSError as error:
            fail(f"{path}: cannot be written ({error.strerror})")
        written += 1
    return written


def _refuse_existing(path: Path | None, other: str) -> None:
    if path is not None:
        fail(f"{path}: exists, and arbo simulate writes new files only: remove it, or give another {other}")


def _write_file(out: Path, texts: Iterable[tuple[int, str]]) -> int:
    """Write the games one after another into the new file ``out`` (as --out - writes them), a
    game at a time, the file whole once every game is played; how many were written."""
    _refuse_existing(out if os.path.lexists(out) else None, "name")
    written = 0

    def pieces() -> Iterator[str]:
        nonlocal written
        for index, text in texts:
            written += 1
            yield text if index == 1 else "\n" + text

    try:
        write_atomic(out, pieces())
    except OSError as error:
        fail(f"{out}: cannot be written ({error.strerror or error})")
    return written


def _write_stdout(texts: Iterable[tuple[int, str]]) -> None:
    """The games one after another on standard output, a game at a time, a blank line between."""
    for index, text in texts:
        sys.stdout.write(text if index == 1 else "\n" + text)
    sys.stdout.flush()


def _write_parquet(out: Path, rows: Iterable[GameRows]) -> tuple[int, int]:
    """The games' rows as Parquet tables in ``out``; how many games were written, in how many bytes."""
    # deferred: pyarrow (~90 ms) loads only for --parquet; ArboError when it is not installed
    from arbo_notation.collection.parquet import WRITE_ERRORS, ParquetCorpus, write_failure

    corpus = ParquetCorpus(out)
    try:
        for game in rows:
            corpus.add(game)
        corpus.close()
    except WRITE_ERRORS as error:
        corpus.abort()
        raise write_failure(out, error) from None
    except BaseException:
        corpus.abort()
        raise
    return corpus.written, corpus.bytes


class Target(str, Enum):
    arb = "arb"
    parquet = "parquet"


def simulate(
    players: int = typer.Option(
        ..., "--players", "-p", metavar="N", parser=whole_number("--players", 2, 4), help="Players per game: 2, 3 or 4."
    ),
    games: int = typer.Option(
        1, "--games", "-n", metavar="N", parser=whole_number("--games", 1, MOST_GAMES), help="How many games to play."
    ),
    seed: str = typer.Option(
        "0", "--seed", "-s", metavar="SEED", help="Seed of the run: the same seed gives the same records."
    ),
    out: str = typer.Option(
        "-",
        "--out",
        "-o",
        metavar="DIR|FILE.arb|-",
        parser=a_path("--out"),
        help="A directory for game-0001.arb, ... (created), a FILE.arb of all the games, or '-' for stdout. "
        "A file already there is never written over.",
    ),
    to: Target = typer.Option(
        Target.arb,
        "--to",
        metavar="FORMAT",
        parser=one_of("--to", ("arb", "parquet"), Target),
        help="arb: a record per game; parquet: the tables games, turns and scores in DIR, as "
        "`arbo convert --to parquet` writes them.",
    ),
    jobs: int = typer.Option(
        0,
        "--jobs",
        "-j",
        metavar="N",
        parser=whole_number("--jobs", 0, MOST_JOBS),
        help="Worker processes: 0 (the default) uses every core this process may run on; 1 plays in this process. The same games either way.",
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
        None,
        "--budget",
        metavar="N",
        parser=whole_number("--budget", LEAST_BUDGET, MOST_BUDGET),
        help="The engine bot's sampled worlds per decision (default 48; docs/ANALYSIS.md).",
    ),
    scheduler: Optional[str] = typer.Option(
        None,
        "--scheduler",
        metavar="ADDRESS",
        help="Play the games on the workers of the Dask cluster whose scheduler is at ADDRESS "
        "(such as tcp://10.0.0.5:8786) instead of local processes (-j is then unused): the same records. "
        "arbo (this version) must be installed on the workers; needs the 'cluster' extra.",
    ),
) -> None:
    """Let bots play seeded games and write them as omniscient records, or as Parquet tables.

    Every record gives the deck, the dealt hands, every card drawn, the revealed hands and the
    result. Game i of a run is dealt from the seed "SEED:i", so the same seed gives the same
    bytes, whatever -j. Players are named Ana, Ben, Cleo and Dev. The games are played on every
    core and written a game at a time, so a run of any length needs the memory of a few games.

    --out DIR writes game-0001.arb, ... in DIR; --out FILE.arb writes every game into that one
    file. Neither writes over a file that is there already (exit 1, naming it).

    With --to parquet, game i has file "seed:SEED" and game i in the tables (docs/DATA.md).

    Examples:

        arbo simulate --players 2 --seed 7

        arbo simulate --players 4 --games 1000 --seed 1 --out sims/

        arbo simulate -p 2 -n 100000 --seed 1 --out corpus/ --to parquet

        arbo simulate -p 3 -n 10 --bot greedy,random,random --out games.arb

        arbo simulate -p 2 --bot engine,greedy --budget 16

        arbo simulate -p 2 -n 10000 --seed 1 --out sims/ --scheduler tcp://10.0.0.5:8786
    """
    names = _bot_names(bot, players)
    if to is Target.parquet and out == "-":
        fail("--to parquet writes tables in a directory: give --out DIR", EXIT_USAGE)
    play = _Play(players, games, seed, names, house_discards, event, jobs, budget, scheduler)
    try:
        if scheduler is not None:
            # deferred: Dask's distributed (~0.9 s, an optional extra) loads only for --scheduler
            from arbo_notation.runtime.cluster import check_scheduler

            check_scheduler(scheduler)  # before a folder or file is made: a run that cannot start leaves none
        what = ""
        if to is Target.parquet:
            written, size = _write_parquet(Path(out), play.run(_rows_then(seed)))
            what = f" as Parquet tables: games, turns, scores, {size:,} bytes"
        elif out == "-":
            _write_stdout(play.run(_text))
            return
        elif out.lower().endswith(".arb") and not Path(out).is_dir():
            written = _write_file(Path(out), play.run(_text))
        else:
            written = _write_dir(Path(out), play.run(_text), games)
        if not quiet:
            say_wrote(out, f"{written} game{'' if written == 1 else 's'}{what}")
    except ArboError as error:
        echo_error(error)
        raise typer.Exit(EXIT_INVALID) from None


class _Play:
    """A run of simulate as the options set it."""

    def __init__(
        self,
        players: int,
        games: int,
        seed: str,
        bots: list[str],
        house_discards: bool,
        event: str | None,
        jobs: int,
        budget: int | None = None,
        scheduler: str | None = None,
    ) -> None:
        self.players, self.games, self.seed, self.bots = players, games, seed, bots
        self.house_discards, self.event, self.budget = house_discards, event, budget
        self.scheduler = scheduler
        self.jobs = simulate_jobs(games, jobs)

    def run(self, then: Callable[[GameRecord], T]) -> Iterator[T]:
        """``then(record)`` of each game, in order, with a progress bar on a terminal."""
        made = simulate_run(
            self.players,
            self.games,
            self.seed,
            self.bots,
            house_discards=self.house_discards,
            event=self.event,
            jobs=self.jobs,
            then=then,
            budget=self.budget,
            scheduler=self.scheduler,
        )
        return _with_progress(made, self.games, "simulating")


def _text(record: GameRecord) -> tuple[int, str]:
    return record.index, format_game(record)


def _rows_then(seed: str) -> Callable[[GameRecord], GameRows]:
    import functools

    # deferred: the corpus's rows (~40 ms) load only for --parquet
    from arbo_notation.collection.rows import record_rows

    return functools.partial(record_rows, f"seed:{seed}")


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)
