"""`arbo match`: bot programs play seeded games under a referee; each game a record, a summary with intervals."""

from __future__ import annotations

import json
import os
import secrets
import sys
from pathlib import Path
from typing import Generator, Iterator, List, Optional

import typer

from arbo_notation.cli.bounds import MOST_GAMES, MOST_JOBS, MOST_MOVE_TIME
from arbo_notation.cli.common import plural, text_table, EXIT_INVALID, EXIT_USAGE, echo_error, echo_text, fail
from arbo_notation.cli.ratings import leaderboard
from arbo_notation.cli.usage import a_path, one_of, whole_number
from arbo_notation.errors import ArboError
from arbo_notation.play.match import (
    BotSummary,
    Estimate,
    GameOutcome,
    MatchOptions,
    MatchSummary,
    command_of,
    decided_so_far,
    labels,
    match_tasks,
    play_match,
    start_failure,
    start_failure_here,
    summarise,
)
from arbo_notation.runtime.atomic import write_atomic
from arbo_notation.runtime.sandbox import MODES, SandboxUnavailable, sandboxed, unavailable
from arbo_notation.runtime.workers import jobs_for


#: From this many games on, a terminal gets a progress bar on stderr (as `arbo simulate`).
PROGRESS_FROM = 20

HELP = """Let bot programs play seeded games under a referee, write every game as a record, and say which bot is better.

Each BOT is a built-in bot (random, greedy, engine: run as `arbo bot NAME`) or a command line that starts a program speaking the bot protocol (docs/PROTOCOL.md), such as "python mybot.py"; two to four BOTs, one per seat. The referee sends each seat only what it sees, asks it for every action with the list of legal ones, and checks each answer. Game k seats the bots rotated k-1 places, so each bot starts as often as the others; with --seed SEED deal k is dealt as `arbo simulate` deals game k of the same --seed, and the same SEED gives the same records; without it the deals follow a secret drawn for the match. No bot is told the seed or can derive a deal. With --duplicate each deal is played once per rotation of the seats (--games a multiple of the seats), so every bot plays every seat of every deal.

Each bot is first started once and greeted: a bot that cannot start, or does not answer hello with a hello, stops the match before its first game (one message naming it, exit status 1, nothing written).

Each bot runs in a sandbox (bubblewrap's bwrap; --sandbox auto, the default, where the system allows it, else with a note on stderr; on: or fail; off: never): its own PID, mount and network namespaces, no network, the file system read-only, a private /tmp, the records' folder hidden. docs/PROTOCOL.md says what a bot can reach.

Faults never stop a match: an illegal or malformed answer, no answer within --move-time, a bot that exits, a line over 64 KiB, a bot that stops reading. Each is counted against its bot and written as a comment in the record, with what the bot sent; the --fallback bot plays that action. A bot that timed out, exited, flooded or stopped reading is killed, the fallback plays its seat to the end of the game, and it is started again for its next game. A seat the fallback chose an action for in more than half its turns is forfeited: that game is counted in the bots' games, forfeits and faults, in no win, estimate, share or rating, and its header says `forfeited` (so `arbo ratings` skips it too). No bot process outlives the match, however it ends. A bot's standard error is not kept.

Every game is written to DIR as game-0001.arb, ... (an omniscient record that `arbo check` finds valid; the header's `bots` names each seat's bot); a file already there is never written over. The summary, on stdout: for each bot (named by its command line, the name it gave in its hello beside it) its games, wins (a shared win counts as a share), mean score, mean margin (its score less the best other score), forfeits and faults, with 95% intervals (per deal with --duplicate; Wilson score intervals for the win rate and the share, which stay within 0-100%, normal ones for the score and the margin); with two bots, the first bot's share of their points and its interval; the bots' OpenSkill ratings (as `arbo ratings` rates). --until-decided stops once the share's interval leaves 50% (after 10 deals at least). Faults do not change the exit status.

Examples:

    arbo match greedy random --games 100 --seed 1 --out games/

    arbo match engine greedy --games 400 --duplicate --until-decided --out duel/

    arbo match "python mybot.py" greedy greedy --games 30 --move-time 2 --out club/ --json

    arbo match engine greedy --games 1000 --duplicate --out duel/ --scheduler tcp://10.0.0.5:8786

With --scheduler ADDRESS the games are played on the workers of that Dask cluster instead of local processes: the same records and the same summary as a local run of the same --seed. arbo (this version) must be installed on every worker, and every bot's program must exist there: a command line runs on the worker, in the worker's directory. Needs the 'cluster' extra: pip install 'arbo-notation[cluster]'.
"""


def _estimate(value: Estimate, digits: int = 1, percent: bool = False) -> str:
    scale = 100 if percent else 1
    if value.mean != value.mean:  # NaN: no game
        return "-"
    shown = f"{value.mean * scale:.{digits}f}"
    if value.low is None or value.high is None:
        return shown
    return f"{shown} [{value.low * scale:.{digits}f}, {value.high * scale:.{digits}f}]"


def render(summary: MatchSummary, out: str) -> str:
    """The summary as text: a table of the bots, the score share, the ratings."""

    def row(bot: BotSummary) -> list[str]:
        faults = sum(bot.faults.values())
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(bot.faults.items()))
        return [
            bot.name + (f" (hello: {bot.hello})" if bot.hello and bot.hello != bot.name else ""),
            str(bot.games),
            f"{bot.wins:g}",
            _estimate(bot.win_rate, 1, percent=True),
            _estimate(bot.score),
            _estimate(bot.margin),
            str(bot.forfeits),
            f"{faults}" + (f" ({kinds})" if kinds else ""),
        ]

    head = ["bot", "games", "wins", "win %", "score", "margin", "forfeits", "faults"]
    parts = [
        f"{summary.games} game{'s' if summary.games != 1 else ''} written to {out}; 95% intervals in brackets\n",
        text_table(head, [row(bot) for bot in summary.bots], "lrrrrrrl"),
    ]
    if summary.forfeited:
        parts[0] += (
            f"{plural(summary.forfeited, 'game')} forfeited (a bot's seat played by the fallback in more than half "
            "its turns): counted in games, forfeits and faults only, not in wins, scores, shares or ratings\n"
        )
    if summary.share is not None and summary.units:
        first, second = summary.bots[0].name, summary.bots[1].name
        verdict = " (decided)" if summary.decided else ""
        parts.append(f"{first}'s share of the points against {second}: {_estimate(summary.share, 1, True)}%{verdict}\n")
    parts.append(leaderboard(summary.ratings) if summary.ratings else "no ratings: every game was forfeited\n")
    return "\n".join(parts)


def _files(out: Path, games: int) -> list[Path]:
    """The games' files in ``out`` (made by :func:`_make_folder`), refusing a folder that holds one of them already."""
    if out.exists() and not out.is_dir():
        fail(f"{out}: exists and is not a directory")
    width = max(4, len(str(games)))
    names = [out / f"game-{index:0{width}d}.arb" for index in range(1, games + 1)]
    there = next((path for path in names if os.path.lexists(path)), None) if out.is_dir() else None
    if there is not None:
        fail(f"{there}: exists, and arbo match writes new files only: remove it, or give another folder")
    return names


def _make_folder(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"{out}: cannot create the directory ({error.strerror})")


def _sandbox(mode: str, scheduler: str | None) -> None:
    """Fail for --sandbox on where no sandbox can be made; say so on stderr when auto runs the
    bots without one. On a cluster each worker decides for its own bots."""
    if scheduler is not None:
        return
    try:
        if sandboxed(mode) or mode == "off":
            return
    except SandboxUnavailable as error:
        fail(str(error))
    echo_text(
        f"arbo: the bots run without a sandbox: {unavailable()}. They can reach arbo's command line "
        "and environment, the records written so far and, where the system lets them, arbo's memory "
        "(docs/PROTOCOL.md); --sandbox off runs them so without this note",
        err=True,
    )


def _check_scheduler(address: str) -> None:
    """Exit 1 with one message unless the cluster extra is installed and a scheduler answers."""
    # deferred: Dask's distributed (~0.9 s, an optional extra) loads only for --scheduler
    from arbo_notation.runtime.cluster import check_scheduler

    try:
        check_scheduler(address)
    except ArboError as error:
        fail(str(error))


def _with_progress(outcomes: Iterator[GameOutcome], total: int) -> Generator[GameOutcome, None, None]:
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield from outcomes
        return
    with typer.progressbar(length=total, label="playing", file=sys.stderr) as bar:
        for outcome in outcomes:
            yield outcome
            bar.update(1)


def _move_time(text: object) -> float:
    if not isinstance(text, str):
        return float(text)  # type: ignore[arg-type]  # typer passes the default (a float) as it is
    try:
        seconds = float(text)
    except ValueError:
        raise typer.BadParameter(f"--move-time takes seconds (such as 10 or 0.5), not {text!r}") from None
    if not 0 < seconds <= MOST_MOVE_TIME:
        raise typer.BadParameter(f"--move-time must be more than 0 and at most {MOST_MOVE_TIME:g} seconds, not {text}")
    return seconds


_move_time.bounds = f"up to {MOST_MOVE_TIME:g}"  # type: ignore[attr-defined]  # what the help shows, as whole_number's parsers say


def register(app: typer.Typer) -> None:
    @app.command("match", help=HELP, short_help="Let bot programs play a match under a referee.")
    def match(
        bots: List[str] = typer.Argument(
            ...,
            metavar="BOT...",
            help="A built-in bot (random, greedy, engine) or a command line, per seat.",
        ),
        games: int = typer.Option(
            ..., "--games", "-n", metavar="N", parser=whole_number("--games", 1, MOST_GAMES), help="How many games."
        ),
        out: str = typer.Option(
            ...,
            "--out",
            "-o",
            metavar="DIR",
            parser=a_path("--out"),
            help="The folder for game-0001.arb, ... (created).",
        ),
        seed: Optional[str] = typer.Option(
            None,
            "--seed",
            "-s",
            metavar="SEED",
            help="Seed of the deals and of the built-in bots (default: a secret drawn for the match). "
            "A bot can guess a seed that is easy to guess: keep it long and secret.",
        ),
        duplicate: bool = typer.Option(False, "--duplicate", help="Play each deal once per rotation of the seats."),
        until_decided: bool = typer.Option(
            False, "--until-decided", help="Stop once the score share's interval leaves 50% (two bots)."
        ),
        move_time: float = typer.Option(
            10.0,
            "--move-time",
            metavar="SECONDS",
            parser=_move_time,
            help="How long a bot may take to answer, in seconds (more than 0, up to 3600).",
        ),
        fallback: str = typer.Option(
            "greedy",
            "--fallback",
            metavar="greedy|random",
            parser=one_of("--fallback", ("greedy", "random"), str),
            help="The bot that plays for a bot at fault.",
        ),
        jobs: int = typer.Option(
            0,
            "--jobs",
            "-j",
            metavar="N",
            parser=whole_number("--jobs", 0, MOST_JOBS),
            help="Games played at once: 0 (the default) one per core; 1 plays in this process.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
        sandbox: str = typer.Option(
            "auto",
            "--sandbox",
            metavar="auto|on|off",
            parser=one_of("--sandbox", MODES, str),
            help="Run each bot in a sandbox (bubblewrap): auto where the system allows it, on or fail, off.",
        ),
        scheduler: Optional[str] = typer.Option(
            None,
            "--scheduler",
            metavar="ADDRESS",
            help="Play the games on the workers of the Dask cluster whose scheduler is at ADDRESS "
            "(such as tcp://10.0.0.5:8786) instead of local processes (-j is then unused). "
            "Every bot's program must exist on the workers; needs the 'cluster' extra.",
        ),
    ) -> None:

        if not 2 <= len(bots) <= 4:
            fail(f"a match has 2 to 4 bots, one per seat, not {len(bots)}", EXIT_USAGE)
        if duplicate and games % len(bots):
            fail(f"--duplicate plays each deal once per seating: --games must be a multiple of {len(bots)}", EXIT_USAGE)
        if until_decided and len(bots) != 2:
            fail("--until-decided compares two bots: give two", EXIT_USAGE)
        try:
            for bot in bots:
                command_of(bot)
        except (ArboError, ValueError) as error:
            fail(str(error), EXIT_USAGE)
        if scheduler is not None:
            _check_scheduler(scheduler)  # before the folder is made: a run that cannot start leaves none
        names = _files(Path(out), games)
        _sandbox(sandbox, scheduler)
        seed = secrets.token_hex(16) if seed is None else seed
        hidden = (os.path.abspath(out),)
        options = MatchOptions(seed=seed, move_time=move_time, fallback=fallback, sandbox=sandbox, hidden=hidden)
        try:
            if scheduler is None:
                why = start_failure(bots, options)
            else:
                # deferred: Dask's distributed loads only for --scheduler
                from arbo_notation.runtime.cluster import on_cluster

                why = next(on_cluster(scheduler, start_failure_here, [(tuple(bots), options)], "match"))
        except ArboError as error:  # a cluster unreachable or not installed
            fail(str(error))
        if why is not None:
            fail(f"{why}; no game was played")
        _make_folder(Path(out))
        tasks = match_tasks(bots, games, seed, duplicate=duplicate, options=options)
        workers = jobs_for(jobs, games)
        outcomes: list[GameOutcome] = []
        played = _with_progress(play_match(tasks, workers, scheduler), games)
        try:
            for outcome in played:
                path = names[outcome.number - 1]
                if os.path.lexists(path):  # made meanwhile by another
                    fail(f"{path}: exists, and arbo match writes new files only: remove it, or give another folder")
                try:
                    write_atomic(path, outcome.text)
                except OSError as error:
                    fail(f"{path}: cannot be written ({error.strerror})")
                outcomes.append(outcome)
                if until_decided and decided_so_far(outcomes, len(bots), duplicate):
                    played.close()  # the games in flight are dropped, their bots ended
                    break
        except ArboError as error:  # workers lost, a cluster unreachable or not installed
            echo_error(error)
            raise typer.Exit(EXIT_INVALID) from None
        summary = summarise(labels(bots), outcomes)
        if as_json:
            data = summary.to_json()
            data["out"] = out
            typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        else:
            echo_text(render(summary, out), nl=False)
        if not outcomes:
            raise typer.Exit(EXIT_INVALID)
