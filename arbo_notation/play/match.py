"""A match between bot programs: seeded deals, seats rotated, games refereed, a summary with intervals.

No bot can derive a deal: the deals follow the match's seed (a secret drawn for the match unless
the user gives one), which no bot is told. A built-in bot's random numbers follow a seed of its
own, a keyed hash of the match's seed (:func:`bot_seed`), which gives the match's seed away to
no one; the game message names the game by its number alone. Each bot runs in the sandbox
(runtime/sandbox.py) where the system allows it, out of reach of the referee's command line and
memory and of the records written so far.

A game is one task, :class:`GameTask` (its deal's seed, the bots of the match and who sits where,
the options), that :func:`play_task` turns into a :class:`GameOutcome` (its record's text, the
scores, each seat's faults): a picklable function of picklable values, so that any pool of
processes can run it. Each process (each thread, on a Dask worker) keeps one bot process per bot
of the match, started on first use, reused game after game, started again after a fault stopped
it, and ended with the process (or by :func:`close_bots`). On a Dask cluster (``scheduler``) a
task is a span of games whose bot processes end with it (:func:`play_span`).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import shlex
import shutil
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbo_notation.bots import BOT_NAMES, make_bot
from arbo_notation.collection.ratings import Outcome, Rating, rate
from arbo_notation.errors import ArboError
from arbo_notation.notation.outside import quoted, safe_text
from arbo_notation.notation.writer import format_game
from arbo_notation.play.referee import (
    STARTUP_SECONDS,
    BotFault,
    BotProcess,
    FaultKind,
    ending_with_the_bots,
    greet,
    referee_game,
)
from arbo_notation.play.simulate import game_seed
from arbo_notation.runtime.descendants import ending_with_descendants
from arbo_notation.runtime.sandbox import SandboxUnavailable, confined, sandboxed
from arbo_notation.runtime.workers import in_order, worker_pool

#: A match decided by --until-decided has played at least this many deals (or games): below it
#: the interval of a few games is too rough to stop on.
LEAST_TO_DECIDE = 10
#: The normal quantile of a 95% interval.
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """What every game of a match shares: the match's seed (the key of its built-in bots' seeds,
    never given to a bot), the time a move may take, the fallback, the sandbox's mode
    (runtime/sandbox.py's MODES) and the folders hidden from the bots in it (the records')."""

    seed: str = "0"
    move_time: float = 10.0
    fallback: str = "greedy"
    sandbox: str = "auto"
    hidden: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game of a match: its number, its deal's seed, the match's bots (as given) and which of
    them sits in each seat (``seating[seat]``, an index into ``bots``)."""

    number: int
    deal: int
    deal_seed: str
    bots: tuple[str, ...]
    seating: tuple[int, ...]
    options: MatchOptions = field(default_factory=MatchOptions)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A game played: its number and deal, the record's text, who sat where (indexes into the
    match's bots), the scores and each seat's faults (kinds) in seat order; whether each seat was
    forfeited (played by the fallback, referee.is_forfeit) and the name each seat's bot gave in
    its hello (cut to NAME_SHOWN, None for none)."""

    number: int
    deal: int
    text: str
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    faults: tuple[tuple[FaultKind, ...], ...]
    forfeited: tuple[bool, ...] = ()
    said: tuple[str | None, ...] = ()

    @property
    def counted(self) -> bool:
        """Whether the game counts in the summary's figures and ratings: no seat was forfeited."""
        return not any(self.forfeited)


def is_built_in(bot: str) -> bool:
    return bot.strip().lower() in BOT_NAMES


def bot_seed(seed: str, index: int) -> str:
    """The seed of the match's built-in bot ``index``: a keyed hash (HMAC-SHA-256) of the bot's
    place with the match's ``seed`` as key, so that a bot that reads it learns nothing of the
    match's seed, and the same match seed gives the same choices."""
    key = seed.encode("utf-8", "surrogateescape")
    return hmac.new(key, f"bot {index}".encode("ascii"), hashlib.sha256).hexdigest()[:32]


def command_of(bot: str, seed: str = "0") -> tuple[str, ...]:
    """The command line of a bot: a built-in name runs `arbo bot NAME --seed SEED` with this
    Python (SEED: the bot's own, :func:`bot_seed`); anything else is a command line, split as a
    shell splits it (no shell runs it)."""
    if is_built_in(bot):
        return (sys.executable, "-m", "arbo_notation", "bot", bot.strip().lower(), "--seed", seed)
    words = tuple(shlex.split(bot))
    if not words:
        raise ArboError(f"a bot is a built-in name ({', '.join(BOT_NAMES)}) or a command line, not {bot!r}")
    return words


def labels(bots: Sequence[str]) -> tuple[str, ...]:
    """Each bot's name in records, summaries and ratings: as given (its spaces made single, text
    from outside made safe, notation/outside.py), numbered when given twice."""
    given = [safe_text(" ".join(bot.split())) for bot in bots]
    names = []
    for at, name in enumerate(given):
        count = given[:at].count(name)
        names.append(name if count == 0 else f"{name} #{count + 1}")
    return tuple(names)


def match_tasks(
    bots: Sequence[str], games: int, seed: str, *, duplicate: bool = False, options: MatchOptions | None = None
) -> Iterator[GameTask]:
    """The games of a match: game k (1-based) seats the bots rotated k-1 places (the bot given
    first sits first in game 1, second in game 2...). Without ``duplicate`` each game has a deal
    of its own (deal k, seeded as `arbo simulate` seeds game k); with it, each deal is played
    once per rotation, so every bot plays every seat of every deal."""
    seats = len(bots)
    options = options or MatchOptions(seed=seed)
    for number in range(1, games + 1):
        deal = (number - 1) // seats + 1 if duplicate else number
        turn = (number - 1) % seats
        seating = tuple((seat - turn) % seats for seat in range(seats))
        yield GameTask(number, deal, game_seed(seed, deal), tuple(bots), seating, options)


# -- a game played, in whatever process runs it -----------------------------------------------------

#: Games a cluster's task plays with the same bot processes (started and ended by the task).
GAMES_PER_SPAN = 8


class _ThreadProcesses(threading.local):
    def __init__(self) -> None:  # run in each thread at its first use
        self.processes: dict[tuple[tuple[str, ...], int], BotProcess] = {}


#: This thread's bot processes, by (the match's bots, the bot's index among them): a Dask worker
#: plays games on several threads at once, and a bot process plays one game at a time.
_THREAD = _ThreadProcesses()
_FINALIZER_SET = False


def _processes() -> dict[tuple[tuple[str, ...], int], BotProcess]:
    return _THREAD.processes


def start_bot(bots: Sequence[str], index: int, options: MatchOptions) -> BotProcess | BotFault:
    """A new process of the match's bot ``index``, in the sandbox as ``options.sandbox`` says;
    a BotFault (EXITED) when it cannot be started."""
    command = command_of(bots[index], bot_seed(options.seed, index))
    try:
        if sandboxed(options.sandbox):
            command = confined(command, options.hidden)
    except SandboxUnavailable as error:
        return BotFault(FaultKind.EXITED, f"could not be started ({error})")
    try:
        return BotProcess(command)
    except BotFault as fault:
        return fault


def start_failure(bots: Sequence[str], options: MatchOptions) -> str | None:
    """Why the match cannot begin, in words (None: it can): each bot started once and greeted,
    the first that cannot start or does not answer hello with a hello named, and why."""
    with ending_with_descendants(), ending_with_the_bots():
        return start_failure_here((tuple(bots), options))


def start_failure_here(match: tuple[tuple[str, ...], MatchOptions]) -> str | None:
    """:func:`start_failure` of a match's ``(bots, options)``, its bots ended by it alone and no
    process-wide state changed: a task for a Dask worker, whose other threads play other games."""
    bots, options = match
    names = labels(bots)
    started: list[BotProcess] = []
    try:
        for index, bot in enumerate(bots):
            program = command_of(bot)[0]
            if shutil.which(program) is None:
                return f"the bot {names[index]!r} cannot start: no program {program!r} (not found, or not executable)"
            process = start_bot(bots, index, options)
            if isinstance(process, BotFault):
                return f"the bot {names[index]!r} cannot start: it {process.detail}"
            started.append(process)
        for name, process in zip(names, started, strict=True):
            try:
                greet(process, max(options.move_time, STARTUP_SECONDS))
            except BotFault as fault:
                said = f"; it sent {quoted(fault.sent)}" if fault.sent else ""
                return f"the bot {name!r} failed its hello: it {fault.detail}{said}"
    finally:
        for process in started:
            process.close()
    return None


def _bot_process(task: GameTask, index: int) -> BotProcess | BotFault:
    """The bot process of the match's bot ``index``: the one running, or a new one."""
    global _FINALIZER_SET
    key = (task.bots, index)
    running = _processes().get(key)
    if running is not None and running.running:
        return running
    if not _FINALIZER_SET:
        # multiprocessing runs its finalizers when a worker ends in order: the bots say goodbye
        import multiprocessing.util

        multiprocessing.util.Finalize(None, close_bots, exitpriority=10)
        _FINALIZER_SET = True
    started = start_bot(task.bots, index, task.options)
    if isinstance(started, BotProcess):
        _processes()[key] = started
    return started


def close_bots() -> None:
    """Tell every bot process of this thread to quit, and end them."""
    processes = _processes()
    while processes:
        _, bot = processes.popitem()
        bot.close()


def play_task(task: GameTask) -> GameOutcome:
    """Play one game of a match with this process's bot processes (started when needed)."""
    names = labels(task.bots)
    started = [_bot_process(task, index) for index in task.seating]
    played = referee_game(
        str(task.number),
        task.deal_seed,
        started,
        [names[index] for index in task.seating],
        fallback=make_bot(task.options.fallback),
        fallback_name=task.options.fallback,
        move_time=task.options.move_time,
    )
    text = format_game(played.record)
    faults = tuple(tuple(fault.kind for fault in seat) for seat in played.faults)
    said = tuple(
        shown_name(bot.name) if isinstance(bot, BotProcess) and not is_built_in(task.bots[index]) else None
        for bot, index in zip(started, task.seating, strict=True)
    )  # a built-in bot's hello name is arbo's own: its label says it already
    return GameOutcome(task.number, task.deal, text, task.seating, played.scores, faults, played.forfeited, said)


#: The longest hello name the summary shows, in characters (a longer one is cut, "..." after it).
NAME_SHOWN = 40


def shown_name(name: str | None) -> str | None:
    """A bot's hello name as the summary shows it: on one line, escaped as every text from a bot
    is (notation/outside.py), at most NAME_SHOWN characters; None for no name."""
    if not name or not name.strip():
        return None
    return safe_text(" ".join(name[: NAME_SHOWN * 4].split()), NAME_SHOWN)


def play_span(tasks: Sequence[GameTask]) -> list[GameOutcome]:
    """Play games one after another, and end the bot processes that played them: a task of a
    Dask worker, whose bots must not outlive it (the worker is not arbo's, and lives on)."""
    try:
        return [play_task(task) for task in tasks]
    finally:
        close_bots()


def spans(tasks: Iterable[GameTask], size: int = GAMES_PER_SPAN) -> Iterator[tuple[GameTask, ...]]:
    """The tasks in consecutive groups of ``size`` (the last one shorter)."""
    span: list[GameTask] = []
    for task in tasks:
        span.append(task)
        if len(span) == size:
            yield tuple(span)
            span = []
    if span:
        yield tuple(span)


def play_match(tasks: Iterable[GameTask], jobs: int = 1, scheduler: str | None = None) -> Iterator[GameOutcome]:
    """The outcome of each task, in order: played here (``jobs`` 1), by ``jobs`` worker
    processes, or by the workers of the Dask cluster whose scheduler is at ``scheduler``; no bot
    process, nor any process a bot starts, outlives the run, however it ends (on a cluster: its
    task; there a bot's children that leave its process group end with it in the sandbox only)."""
    if scheduler is not None:
        # deferred: Dask's distributed (~0.9 s, an optional extra) loads only for --scheduler
        from arbo_notation.runtime.cluster import on_cluster

        for span in on_cluster(scheduler, play_span, spans(tasks), "match"):
            yield from span
        return
    with ending_with_descendants(), ending_with_the_bots():
        if jobs <= 1:
            try:
                yield from map(play_task, tasks)
            finally:
                close_bots()
            return
        with worker_pool(jobs, "match") as pool:
            yield from in_order(pool, play_task, tasks, jobs * 2)


# -- the summary ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean and its 95% interval (None when fewer than two units give no spread): normal for
    scores and margins (:meth:`of`), Wilson's for shares (:meth:`of_shares`)."""

    mean: float
    low: float | None
    high: float | None

    @classmethod
    def of(cls, values: Sequence[float], lowest: float = -math.inf) -> "Estimate":
        """The mean and its normal interval, cut at ``lowest`` where the mean cannot be lower (a
        score): an interval met with the values the mean can take covers it as often."""
        if not values:
            return cls(math.nan, None, None)
        mean = sum(values) / len(values)
        if len(values) < 2:
            return cls(mean, None, None)
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        half = Z95 * spread / math.sqrt(len(values))
        return cls(mean, max(lowest, mean - half), mean + half)

    @classmethod
    def of_shares(cls, values: Sequence[float]) -> "Estimate":
        """The mean of shares (each in [0, 1]: a game's win, a deal's share of the points) and its
        95% Wilson score interval, which never leaves [0, 1]. Its sample size is the effective one,
        n p(1-p) / v (v the values' variance, over n), as for survey data with a design effect: for
        wins and losses alone (v = p(1-p)) the textbook Wilson interval of k wins in n games;
        narrower when the values vary less than wins and losses would (a share of the points).
        No interval below two values, as :meth:`of`."""
        if len(values) < 2:
            return cls.of(values)
        n = len(values)
        mean = sum(values) / n
        variance = sum((v - mean) ** 2 for v in values) / n
        bernoulli = mean * (1 - mean)
        if bernoulli <= 0:  # every value 0, or every value 1: the Wilson interval of 0 (or n) wins in n
            size = float(n)
        elif variance <= 0:  # the same share every time, inside (0, 1): nothing spreads
            return cls(mean, mean, mean)
        else:
            size = n * bernoulli / variance  # at least n: values in [0, 1] vary at most p(1-p)
        z2 = Z95 * Z95
        centre = (mean + z2 / (2 * size)) / (1 + z2 / size)
        half = Z95 / (1 + z2 / size) * math.sqrt(bernoulli / size + z2 / (4 * size * size))
        # the interval holds the mean and lies in [0, 1]: the bounds guard float rounding only
        return cls(mean, max(0.0, min(mean, centre - half)), min(1.0, max(mean, centre + half)))

    def to_json(self) -> dict[str, Any]:
        return {"mean": None if math.isnan(self.mean) else self.mean, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class BotSummary:
    """One bot's games, wins (a shared win counted as a share), scores, margins (its score less
    the best other), faults by kind; the estimates are per game, or per deal in a duplicate match.
    ``games`` counts every game it sat at; ``counted`` those without a forfeit (GameOutcome.counted),
    the only ones its wins and estimates count; ``forfeits`` the games its own seat was forfeited;
    ``hello`` the name it gave in its hello (shown_name), if any."""

    name: str
    games: int
    wins: float
    win_rate: Estimate
    score: Estimate
    margin: Estimate
    faults: dict[str, int]
    counted: int = 0
    forfeits: int = 0
    hello: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.name,
            "hello_name": self.hello,
            "games": self.games,
            "counted": self.counted,
            "forfeits": self.forfeits,
            "wins": self.wins,
            "win_rate": self.win_rate.to_json(),
            "score": self.score.to_json(),
            "margin": self.margin.to_json(),
            "faults": sum(self.faults.values()),
            "faults_by_kind": self.faults,
        }


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match's summary: each bot's, the first bot's score share against the second (two bots),
    whether that share's interval has left 50%, and the bots' ratings; ``forfeited`` games (a
    seat forfeited) count in none of them."""

    games: int
    bots: tuple[BotSummary, ...]
    share: Estimate | None
    ratings: tuple[Rating, ...]
    units: int = 0  # the samples of the estimates: deals in a duplicate match, else games
    forfeited: int = 0

    @property
    def decided(self) -> bool:
        return is_decided(self.share, self.units)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "forfeited": self.forfeited,
            "bots": [bot.to_json() for bot in self.bots],
            "share": None if self.share is None else self.share.to_json(),
            "decided": self.decided,
            "ratings": [rating.to_json() for rating in self.ratings],
        }


def summarise(names: Sequence[str], outcomes: Sequence[GameOutcome]) -> MatchSummary:
    """The summary of the games played; estimates per deal (the mean of its games) when a deal
    was played more than once, so that the games of one deal count as the one sample they are.
    A game with a forfeited seat is counted apart: in each bot's games and faults, in the
    forfeits of the bot whose seat it was, in no win, estimate, share or rating."""
    units = _units(outcomes)
    summaries = []
    for index, name in enumerate(names):
        wins: list[float] = []
        scores: list[float] = []
        margins: list[float] = []
        games = forfeits = 0
        won = 0.0
        faults: dict[str, int] = {}
        said = (o.said[o.seating.index(index)] for o in outcomes if o.said)
        hello = next((given for given in said if given), None)
        for outcome in outcomes:
            for seat, who in enumerate(outcome.seating):
                if who == index:
                    games += 1
                    forfeits += bool(outcome.forfeited) and outcome.forfeited[seat]
                    for kind in outcome.faults[seat]:
                        faults[kind.value] = faults.get(kind.value, 0) + 1
        for unit in units:
            w, s, m = [], [], []
            for outcome in unit:
                for seat, who in enumerate(outcome.seating):
                    if who != index:
                        continue
                    mine = outcome.scores[seat]
                    others = [score for other, score in enumerate(outcome.scores) if other != seat]
                    best = max(outcome.scores)
                    part = 1 / outcome.scores.count(best) if mine == best else 0.0
                    won += part
                    w.append(part)
                    s.append(mine)
                    m.append(mine - max(others))
            if w:
                wins.append(sum(w) / len(w))
                scores.append(sum(s) / len(s))
                margins.append(sum(m) / len(m))
        rates = (Estimate.of_shares(wins), Estimate.of(scores, lowest=0.0), Estimate.of(margins))
        counted = sum(map(len, units))  # every bot sits at every game of a match
        summaries.append(BotSummary(name, games, won, *rates, faults, counted, forfeits, hello))
    share = score_share(units) if len(names) == 2 else None
    ratings = rate(Outcome(tuple(names[who] for who in o.seating), o.scores) for o in outcomes if o.counted)
    forfeited = sum(not o.counted for o in outcomes)
    return MatchSummary(len(outcomes), tuple(summaries), share, ratings, len(units), forfeited)


def _units(outcomes: Iterable[GameOutcome]) -> list[list[GameOutcome]]:
    """The samples of the estimates: the counted games grouped by deal (a game each, but in a
    duplicate match), in the order played."""
    by_deal: dict[int, list[GameOutcome]] = {}
    for outcome in outcomes:
        if outcome.counted:
            by_deal.setdefault(outcome.deal, []).append(outcome)
    return list(by_deal.values())


def score_share(units: Iterable[Sequence[GameOutcome]]) -> Estimate:
    """The first bot's share of the two bots' points, per deal (or game): its estimate."""
    shares = []
    for unit in units:
        mine = sum(o.scores[o.seating.index(0)] for o in unit)
        theirs = sum(o.scores[o.seating.index(1)] for o in unit)
        shares.append(0.5 if mine + theirs == 0 else mine / (mine + theirs))
    return Estimate.of_shares(shares)


def is_decided(share: Estimate | None, units: int) -> bool:
    """Whether a score share's interval has left 50%, over LEAST_TO_DECIDE samples or more."""
    if share is None or share.low is None or share.high is None or units < LEAST_TO_DECIDE:
        return False
    return share.low > 0.5 or share.high < 0.5


def decided_so_far(outcomes: Sequence[GameOutcome], seats: int, duplicate: bool) -> bool:
    """Whether the whole deals of a two-bot match played so far decide it (--until-decided)."""
    size = seats if duplicate else 1
    whole = len(outcomes) - len(outcomes) % size
    return is_decided(score_share(units := _units(outcomes[:whole])), len(units))
