"""Benchmark: what the bot protocol costs a game, and the wall time of a duplicate match on every core.

1. The protocol's cost: the same deals played by the greedy bot at both seats, once in one
   process (play/simulate.py's simulate_game) and as `arbo match greedy greedy -j 1` plays them
   (play/match.py: the referee here, each bot an `arbo bot greedy` process, started once and
   reused), twice: its bots speaking protocol 1 (`arbo bot greedy --protocol 1`: a request an
   action, each with the seat's whole view) and protocol 2 (the built-in bots' default: a request
   for the rest of a turn, no view). Medians over the rounds, the three alternated in each round
   so that a busy spell of the machine slows them alike; wall time and CPU time (this process and
   its bots; the referee's, this process's, apart) per game; the added cost is the match's over
   the one process's, less one. And the bots' own work, never woken: protocol 2's match played
   again untimed with each bot's input recorded, then each seat's input served at once in a fresh
   process ("fed at once"); the bots' CPU in the match less this and their start-up is what
   waking them costs. And the referee's own work: each game refereed in this process with its
   bots' recorded answers replayed, no pipe and no bot woken ("referee alone"), its records
   checked to be the recorded match's. And where the wake-ups' cost comes from ("stepped"): the
   same recorded inputs served to two `arbo bot greedy` processes one request at a time by a
   driver that does nothing else, each bot alone, then the two together in the match's order.
   The last line is the floor: what the match would add with no wake-up at all.
   With ``--against TREE`` (another checkout, such as the code before a change), each round times
   both trees, one after the other, each in a process of its own whose bots run that tree's code
   (PYTHONPATH), so that a change is measured before and after in one run (each tree's match in
   its default protocol).
2. A duplicate match of greedy against random, 2 players, on every core (-j 0): its wall time.

    python bench/bench_match.py [--games 40] [--rounds 3] [--duplicate-games 1000] [--against TREE]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbo_notation.play.match import (
    MatchOptions,
    bot_seed,
    command_of,
    labels,
    match_tasks,
    play_match,
    start_failure,
    summarise,
)
from arbo_notation.bots import make_bot
from arbo_notation.notation.writer import format_game
from arbo_notation.play.referee import referee_game
from arbo_notation.play.simulate import game_seed, simulate_game
from arbo_notation.runtime.workers import jobs_for


def _cpu() -> tuple[float, float]:
    """CPU time so far of this process (the referee) and of its children reaped (the bots)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def one_process(games: int, seed: str) -> tuple[float, float, float]:
    """Wall time, CPU time and this process's CPU time of ``games`` simulated here."""
    wall, (here, bots) = time.perf_counter(), _cpu()
    for index in range(1, games + 1):
        simulate_game(("Ana", "Ben"), game_seed(seed, index), ["greedy"])
    after = _cpu()
    return time.perf_counter() - wall, after[0] - here + after[1] - bots, after[0] - here


def greedy_speaking(protocol: int, seed: str) -> list[str]:
    """The two greedy bots of a match seeded ``seed``, as commands that speak ``protocol``: the
    commands `arbo match` runs for `greedy greedy` (each bot's own seed), the version added."""
    return [shlex.join(command_of("greedy", bot_seed(seed, index))) + f" --protocol {protocol}" for index in range(2)]


def as_a_match(games: int, seed: str, protocol: int) -> tuple[float, float, float]:
    """Wall time, CPU time (the bots' included) and the referee's CPU time of a match of ``games``."""
    wall, (here, bots) = time.perf_counter(), _cpu()
    outcomes = list(play_match(match_tasks(greedy_speaking(protocol, seed), games, seed), jobs=1))
    assert all(not any(o.faults) or o.faults == ((), ()) for o in outcomes)
    after = _cpu()  # the bots are reaped: their CPU is counted
    return time.perf_counter() - wall, after[0] - here + after[1] - bots, after[0] - here


def started(games: int, seed: str) -> tuple[float, float, float]:
    """Wall time, CPU time and the referee's CPU time of starting the two bots of a match, greeting
    them and ending them (`arbo match`'s check before its first game, play/match.py's start_failure)."""
    wall, (here, bots) = time.perf_counter(), _cpu()
    assert start_failure(greedy_speaking(2, seed), MatchOptions(seed=seed)) is None
    after = _cpu()
    return time.perf_counter() - wall, after[0] - here + after[1] - bots, after[0] - here


#: One seat's recorded input served at once in a fresh process, as `arbo bot greedy` serves it
#: (its objects frozen after its start-up), its CPU from the first line to the last: the bot's own
#: work in a process of its own, never woken.
FED = """
import gc, sys, time
from arbo_notation.bots import make_bot
from arbo_notation.bots.serve import serve
seed, path = sys.argv[1], sys.argv[2]
with open(path, "rb") as recorded:
    lines = recorded.read().splitlines(keepends=True)
gc.freeze()
start = time.process_time()
serve(lambda: make_bot("greedy"), lines, lambda line: None, name="greedy", seed=seed)
print(time.process_time() - start)
"""


#: The matches played once untimed and recorded, by games and seed: their folder, their commands
#: (the records' labels) and their records.
_RECORDED: dict[tuple[int, str], tuple[Path, list[str], list[str]]] = {}


def recorded(games: int, seed: str) -> tuple[Path, list[str], list[str]]:
    """The folder holding each bot's input (``seatN.in``) and output (``seatN.out``) of protocol
    2's match of ``games`` seeded ``seed``, played once untimed (no sandbox, a `tee` on either side
    of each bot), the match's bots as commands, and its records."""
    if (games, seed) not in _RECORDED:
        folder = Path(tempfile.mkdtemp(prefix="bench-match-"))
        commands = []
        for index, command in enumerate(greedy_speaking(2, seed)):
            into, out = (shlex.quote(str(folder / f"seat{index}.{end}")) for end in ("in", "out"))
            commands.append(shlex.join(["sh", "-c", f"tee {into} | {command} | tee {out}"]))
        options = MatchOptions(seed=seed, sandbox="off")
        outcomes = play_match(match_tasks(commands, games, seed, options=options), jobs=1)
        _RECORDED[(games, seed)] = folder, commands, [outcome.text for outcome in outcomes]
    return _RECORDED[(games, seed)]


def fed_at_once(games: int, seed: str) -> tuple[float, float, float]:
    """The CPU time of both bots' own work in protocol 2, never woken: each seat's recorded input
    served at once in a fresh process (FED). No wall time (0)."""
    folder, _, _ = recorded(games, seed)
    cpu = 0.0
    for index in range(2):
        path = str(folder / f"seat{index}.in")
        done = subprocess.run(
            [sys.executable, "-c", FED, bot_seed(seed, index), path], capture_output=True, text=True, check=True
        )
        cpu += float(done.stdout)
    return 0.0, cpu, 0.0


def _chunks(path: Path) -> list[bytes]:
    """A seat's recorded input cut after each message the bot answers (hello, turn, act, view):
    what one wake-up of the bot reads."""
    chunks, chunk = [], b""
    for line in path.read_bytes().splitlines(keepends=True):
        chunk += line
        if line.strip() and json.loads(line).get("type") in ("hello", "turn", "act", "view"):
            chunks.append(chunk)
            chunk = b""
    return [*chunks, chunk] if chunk else chunks


def _waits(chunk: bytes, seat: str | None) -> tuple[bool, str | None]:
    """Whether a seat's next chunk must wait for the other seat (its events hold another player's
    action), and the seat's player after it (a ``game`` message names it)."""
    other = False
    for line in chunk.splitlines():
        message = json.loads(line) if line.strip() else {}
        if message.get("type") == "game":
            seat = message["seat"]
        elif message.get("type") == "turn":
            other = other or any(mover != seat for mover, _ in message["events"])
    return other, seat


def stepped(games: int, seed: str, together: bool) -> tuple[float, float, float]:
    """The CPU time of both bots served their recorded input of protocol 2 one wake-up at a time
    (each chunk written, its answer awaited) by a driver that does nothing else: each bot alone,
    one after the other, or ``together``, in the order of the match (a seat goes on until its
    next chunk holds the other's action). Their start-up included; no wall time."""
    folder, _, _ = recorded(games, seed)
    chunks = [_chunks(folder / f"seat{index}.in") for index in range(2)]
    commands = greedy_speaking(2, seed)
    bots = [subprocess.Popen(shlex.split(c), stdin=subprocess.PIPE, stdout=subprocess.PIPE) for c in commands]
    before = _cpu()[1]
    done: list[int] = [0, 0]
    seats: list[str | None] = [None, None]
    turn = 0
    while done != [len(chunks[0]), len(chunks[1])]:
        if done[turn] == len(chunks[turn]):
            turn = 1 - turn
        elif together and done[1 - turn] < len(chunks[1 - turn]) and _waits(chunks[turn][done[turn]], seats[turn])[0]:
            turn = 1 - turn  # (each pass serves a chunk: the other seat has gone on when it comes back)
        chunk = chunks[turn][done[turn]]
        seats[turn] = _waits(chunk, seats[turn])[1]
        bot = bots[turn]
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write(chunk)
        bot.stdin.flush()
        if _answered(chunk):
            bot.stdout.readline()
        done[turn] += 1
    for bot in bots:
        assert bot.stdin is not None
        bot.stdin.close()
        bot.wait()
    return 0.0, _cpu()[1] - before, 0.0


def _answered(chunk: bytes) -> bool:
    """Whether a chunk ends with a message the bot answers."""
    last = chunk.splitlines()[-1] if chunk.strip() else b""
    return bool(last.strip()) and json.loads(last).get("type") in ("hello", "turn", "act", "view")


class Replayed:
    """A bot process stood in for by the answers its bot gave in a recorded match, in order: the
    referee's own work with no pipe and no bot woken."""

    def __init__(self, path: Path) -> None:
        self.answers = path.read_bytes().splitlines()
        self.greeted, self.name, self.protocol, self.running = False, None, 2, True

    def send(self, message: object) -> None:
        pass

    def request(self, message: object, seconds: float) -> bytes:
        return self.answers.pop(0)

    def request_by(self, message: object, deadline: float, seconds: float) -> bytes:
        return self.answers.pop(0)


def referee_alone(games: int, seed: str) -> tuple[float, float, float]:
    """The referee's CPU time of protocol 2's match, each game refereed and written here with its
    bots' recorded answers replayed (Replayed), its records the recorded match's. No wall time."""
    folder, commands, texts = recorded(games, seed)
    bots = [Replayed(folder / f"seat{index}.out") for index in range(2)]
    names = labels(commands)
    written = []
    start = time.process_time()
    for task in match_tasks(commands, games, seed):
        seated = [bots[index] for index in task.seating]
        played = referee_game(
            str(task.number),
            task.deal_seed,
            seated,  # type: ignore[arg-type]  # (Replayed answers as a BotProcess does)
            [names[index] for index in task.seating],
            fallback=make_bot("greedy"),
            fallback_name="greedy",
            move_time=10.0,
        )
        written.append(format_game(played.record))
    cpu = time.process_time() - start
    assert written == texts, "the referee replayed wrote other records"
    return 0.0, cpu, cpu


def in_this_process(games: int, rounds: int) -> None:
    """The one process and the match in protocols 1 and 2, alternated in every round, in this
    process; and the bots' start-up alone, which a match pays once (so a game 1/games of it)."""
    kinds: dict[str, Callable[[int, str], tuple[float, float, float]]] = {"one process": one_process}
    kinds["protocol 1"] = partial(as_a_match, protocol=1)
    kinds["protocol 2"] = partial(as_a_match, protocol=2)
    kinds["start-up"] = started
    kinds["fed at once"] = fed_at_once
    kinds["referee alone"] = referee_alone
    kinds["stepped alone"] = partial(stepped, together=False)
    kinds["stepped together"] = partial(stepped, together=True)
    rows: dict[str, list[tuple[float, float, float]]] = {name: [] for name in kinds}
    started(1, "warm")  # untimed: the bots' bytecode compiled, as an installed arbo has it
    for round_number in range(rounds):
        seed = f"bench{round_number}"
        for name, measure in kinds.items():
            rows[name].append(measure(games, seed))
    print(f"the protocol's cost: {games} games of greedy against greedy, median of {rounds} rounds")
    print(f"  {'':12} {'wall':>8} {'CPU':>8} {'referee':>8} {'bots':>8}  (ms a game; CPU: bots included)")
    for name, timings in rows.items():
        wall, cpu, referee = (statistics.median(t[i] for t in timings) / games * 1000 for i in range(3))
        print(f"  {name:12} {wall:8.1f} {cpu:8.1f} {referee:8.1f} {cpu - referee:8.1f}")
    print(f"  (start-up: the two bots started, greeted and ended once, shared by the {games} games;")
    print("   fed at once: protocol 2's bots' own work, each seat's recorded input served in one go;")
    print("   referee alone: protocol 2's referee, its bots' recorded answers replayed in process;")
    print("   stepped: the two bots served their recorded input one wake-up at a time, start-up included,")
    print("   each alone, or together in the match's order: the cost of the two bots taking turns)")
    for name in ("protocol 1", "protocol 2"):
        added = [
            statistics.median(m[i] / o[i] - 1 for m, o in zip(rows[name], rows["one process"], strict=True))
            for i in (0, 1)
        ]
        print(f"  added by {name} (median of the rounds' own): {added[0]:+.0%} wall, {added[1]:+.0%} CPU")
    floors = [
        (fed[1] + up[1] + alone[1]) / one[1] - 1
        for fed, up, alone, one in zip(
            rows["fed at once"], rows["start-up"], rows["referee alone"], rows["one process"], strict=True
        )
    ]
    print(f"  with no wake-up cost (fed at once + start-up + referee alone): {statistics.median(floors):+.0%} CPU")
    print(f"  load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


#: One measure in a process of its own, with whichever tree PYTHONPATH puts first (this script's
#: own functions, written with what every tree since the match has: play_match, simulate_game).
MEASURE = """
import json, resource, sys, time
from arbo_notation.play.match import match_tasks, play_match
from arbo_notation.play.simulate import game_seed, simulate_game
kind, games, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def cpu():
    own, bots = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + bots.ru_utime + bots.ru_stime, own.ru_utime + own.ru_stime
def run(games, seed):
    if kind == "one process":
        for index in range(1, games + 1):
            simulate_game(("Ana", "Ben"), game_seed(seed, index), ["greedy"])
    else:  # its bots started, and ended once it is over
        list(play_match(match_tasks(["greedy", "greedy"], games, seed), jobs=1))
run(1, "warm")  # untimed: the modules either loads when first used
wall, (used, own) = time.perf_counter(), cpu()
run(games, seed)
after = cpu()
print(json.dumps([time.perf_counter() - wall, after[0] - used, after[1] - own]))
"""


def measured_in(tree: str, kind: str, games: int, seed: str) -> tuple[float, float, float]:
    """Wall and CPU time of ``kind`` ("one process" or "match") run with ``tree``'s code: the
    measuring process's and its bots' (their start-up included), after an untimed game of the
    same kind (the modules loaded when first used, as in a round after the first in one process);
    and the measuring process's own CPU time (the referee's, in a match)."""
    environment = {**os.environ, "PYTHONPATH": tree}
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, kind, str(games), seed],
        env=environment,
        cwd=tree,  # the bots' `python -m` puts their working directory first on their path
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu, own = json.loads(done.stdout)
    return wall, cpu, own


def compare(trees: list[str], games: int, rounds: int) -> None:
    """Each tree's one process and match, alternated in every round; medians, and the added cost."""
    for tree in trees:  # untimed: compiles each tree's bytecode, as an installed arbo has it
        measured_in(tree, "match", 2, "warm")
    rows: dict[tuple[str, str], list[tuple[float, float, float]]] = {
        (t, k): [] for t in trees for k in ("one process", "match")
    }
    for round_number in range(rounds):
        seed = f"bench{round_number}"
        for tree in trees:
            for kind in ("one process", "match"):
                rows[(tree, kind)].append(measured_in(tree, kind, games, seed))
    print(f"the protocol's cost: {games} games of greedy against greedy, median of {rounds} rounds, trees alternated")
    for tree in trees:
        medians = {}
        for kind in ("one process", "match"):
            timings = rows[(tree, kind)]
            medians[kind] = [statistics.median(t[i] for t in timings) / games * 1000 for i in (0, 1, 2)]
        added = [
            statistics.median(
                m[i] / o[i] - 1 for m, o in zip(rows[(tree, "match")], rows[(tree, "one process")], strict=True)
            )
            for i in (0, 1)
        ]
        print(f"  {tree}")
        for kind, (wall, cpu, own) in medians.items():
            print(f"    {kind:12} {wall:7.1f} ms a game (wall)  {cpu:7.1f} ms a game (CPU, bots included)", end="")
            print(f"  {own:7.1f} the referee's, {cpu - own:7.1f} the bots'" if kind == "match" else "")
        print(f"    added by the protocol (median of the rounds' own): {added[0]:+.0%} wall, {added[1]:+.0%} CPU")
    print(f"  load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per round of the protocol's cost")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duplicate-games", type=int, default=1000, help="games of the duplicate match (0: none)")
    parser.add_argument(
        "--against", action="append", default=[], metavar="TREE", help="another source tree, timed in the same rounds"
    )
    options = parser.parse_args()
    # The bots run from bytecode compiled once, as an installed arbo's do: with
    # PYTHONDONTWRITEBYTECODE set (as in the helpers' shells) and a tree never compiled, each bot
    # compiled every module it imports at its every start: 90-110 ms of CPU a bot against 50
    # (`/usr/bin/time` of `arbo bot greedy` told to quit, 5 runs each, load 5).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

    if options.against:
        here = str(Path(__file__).resolve().parent.parent)
        compare([here, *options.against], options.games, options.rounds)
    else:
        try:
            in_this_process(options.games, options.rounds)
        finally:
            for folder, _, _ in _RECORDED.values():
                shutil.rmtree(folder, ignore_errors=True)

    if options.duplicate_games:
        games = options.duplicate_games
        jobs = jobs_for(0, games)
        started = time.perf_counter()
        outcomes = list(play_match(match_tasks(["greedy", "random"], games, "1", duplicate=True), jobs=jobs))
        wall = time.perf_counter() - started
        summary = summarise(labels(["greedy", "random"]), outcomes)
        share = summary.share
        print(f"a duplicate match: {games} games of greedy against random, -j {jobs}: {wall:.1f} s wall")
        if share is not None:
            print(f"  greedy's share of the points: {share.mean:.3f} [{share.low:.3f}, {share.high:.3f}]")


if __name__ == "__main__":
    main()
