"""Benchmark: stepping through a four-player game in the replayer's terminal UI.

Simulates a four-player game (seeded), opens the real app headlessly (``App.run_test``) and
presses Right once per turn to the end, timing each step: the key press and the screen refresh
that follows. Prints the median and the maximum milliseconds per step.

    python bench/bench_tui.py [--seed 7 | --record samples/four-players.arb] [--size 120x40] [--rounds 3]
                              [--load N]

``--load N`` runs N processes that keep a core busy while the steps are timed: "under load",
made the same on every run (``--load 2`` on this two-core machine: every core contended).

Two clocks, because textual's Pilot sleeps by design: ``pilot.press`` and ``pilot.pause`` each
wait for the process to look idle in steps of 20 ms (``textual._wait.SLEEP_GRANULARITY``), so
``press + pause`` costs about 60 ms even on an app that does nothing. The bench prints:

- step: the key goes to the app, every message it causes is handled and the screen is painted
  (the app's own cost, what a person waits for; the budget applies to this), in wall-clock
  time and in this process's CPU time (which other busy processes do not inflate);
- pilot: ``await pilot.press("right"); await pilot.pause()`` wall time, next to the same for a
  key the app ignores (textual's floor), so that the difference is again the app's cost.

The budget (the issue "Speed and memory on every kind of record"): a step under 50 ms at the
median and under 100 ms at most, on a machine under load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import statistics
import time

from textual import events

from arbo_notation.play.simulate import simulate_game
from arbo_notation.tui.app import ReplayApp
from arbo_notation.present.navigation import ReplayModel

BUDGET_MS = 50.0  # the median step
MAX_MS = 100.0  # the slowest step


async def _settle(app, pilot) -> None:
    """Wait until every widget has handled its messages, then paint what changed."""
    await pilot._wait_for_screen()
    await pilot._wait_for_screen()  # what the first round of handlers posted
    app.screen._on_timer_update()


async def step_times(model: ReplayModel, size: tuple[int, int]) -> tuple[list[float], list[float]]:
    """Milliseconds per step (wall clock, and this process's CPU time): the key delivered,
    handled, and the screen painted."""
    app = ReplayApp(model)
    times: list[float] = []
    cpu: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        while not model.at_end:
            start, start_cpu = time.perf_counter(), time.process_time()
            app._driver.send_message(events.Key("right", None))
            await _settle(app, pilot)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    return times, cpu


async def pilot_times(model: ReplayModel, size: tuple[int, int], key: str = "right") -> list[float]:
    """Milliseconds per ``await pilot.press(key); await pilot.pause()``."""
    app = ReplayApp(model)
    times: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(model.main_turns):
            start = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            times.append((time.perf_counter() - start) * 1000)
    return times


def _summary(times: list[float]) -> str:
    return f"median {statistics.median(times):5.1f} ms, max {max(times):5.1f} ms"


def _spin() -> None:
    while True:
        pass


@contextlib.contextmanager
def busy_cores(count: int):
    """``count`` processes spinning on the CPU while the block runs."""
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(count)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="7")
    parser.add_argument("--record", help="step through the first game of this record instead of a simulated one")
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--load", type=int, default=0, help="processes keeping a core busy meanwhile")
    args = parser.parse_args()
    with busy_cores(args.load):
        if args.load:
            print(f"under load: {args.load} busy process{'es' if args.load > 1 else ''}")
        measure(args)


def measure(args: argparse.Namespace) -> None:
    width, height = (int(v) for v in args.size.split("x"))
    size = (width, height)
    if args.record:
        from arbo_notation.api import read_games

        record = read_games(args.record)[0]
    else:
        record = simulate_game(("Ana", "Ben", "Cleo", "Dev"), args.seed)
    start = time.perf_counter()
    ReplayModel.from_record(record)
    print(
        f"{len(record.turns)} turns; model built in {(time.perf_counter() - start) * 1000:.1f} ms; screen {args.size}"
    )
    steps: list[float] = []
    cpu: list[float] = []
    for number in range(1, args.rounds + 1):
        times, cpu_times = asyncio.run(step_times(ReplayModel.from_record(record), size))
        steps += times
        cpu += cpu_times
        print(f"round {number}: step  {_summary(times)}  (CPU {_summary(cpu_times)})")
    pilot = asyncio.run(pilot_times(ReplayModel.from_record(record), size))
    floor = asyncio.run(pilot_times(ReplayModel.from_record(record), size, key="x"))
    print(f"pilot press+pause, Right:        {_summary(pilot)}")
    print(f"pilot press+pause, ignored key:  {_summary(floor)}  (textual's floor)")
    print(f"per step: {_summary(steps)} (CPU {_summary(cpu)}); budget: median {BUDGET_MS:.0f} ms, max {MAX_MS:.0f} ms")
    if max(steps) > 1.5 * max(cpu):
        print("(wall clock well above CPU time: another process is competing for the CPU)")
    within = statistics.median(steps) < BUDGET_MS and max(steps) < MAX_MS
    print("within budget" if within else "OVER BUDGET")


if __name__ == "__main__":
    main()
