"""Benchmark: the guards of issue 46, a tree measured against the main before it, in one run.

Two sides, each run with its own code: `python -m arbo_notation ...` with the side's tree first on
PYTHONPATH, from a scratch folder (`python -m` and `-c` put the working folder first on the path,
so a command run inside another tree would import that tree). The base is a git ref (`--base`,
by default 657d07d, main before issue 46), its files copied out with `git archive` into a
temporary folder, so that nothing is registered in the repository and an interrupted run leaves
nothing behind; or a checkout (`--base-dir`). The head is this tree, or `--head-dir`. Timed runs
interleave the sides, the one first in a round and the other in the next, so that a busy spell
of the machine falls on both; every command runs once untimed first (bytecode compiled and
cached, as an installed arbo runs). Times are CPU times (user and system, the steadier on a
shared machine); wall times are in --json.

- check: `arbo check -q -j 1` of one file of 10,000 games of two greedy bots, made once by the
  base's `arbo simulate --seed S` (or --check-file): the median of the rounds' ratios head/base.
  Guard: at most 1.10.
- simulate: `arbo simulate -p P -n N --seed S -j 1 --bot B`, random and greedy bots, 2 and 4
  players (the random bots play five times as many games, which are cheaper): the head's file
  byte-identical to the base's (a diff when not), and the ratio of times as for check. Guard:
  not slower within noise, at most 1.05.
- start-up: `python -c "import arbo_notation"`, `arbo check` of samples/two-player-omniscient.arb
  and `arbo --help`: each side's fastest run, head less base. Guard: at most 20 ms. `python -c
  pass` beside them, the same interpreter for both, shows the noise.
- match: `arbo match greedy random --games G --seed S --sandbox off -j 1`: every record the head
  writes byte-identical to the base's.
- ARCHITECTURE.md: every module and package of the head's arbo_notation/ named in its
  docs/ARCHITECTURE.md, by the rule of tests/test_architecture.py (the head's, else this tree's).

    python bench/bench_guards.py [--base 657d07d | --base-dir PATH] [--head-dir PATH] [--rounds 5]
                                 [--check-games 10000] [--check-file FILE] [--quick] [--json]

--quick is a small version (1,000 games to check, 3 rounds, fewer games and runs). Prints a table
(or, with --json, the same as JSON on stdout; progress goes to stderr) and exits 1 when a guard
fails. With the defaults some 8-9 minutes on two cores shared with other work, 2 of them making
the file to check (--check-file FILE keeps it for the next run); --quick some 2 minutes.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent.parent
SMALL = Path("samples") / "two-player-omniscient.arb"

CHECK_LIMIT = 1.10  # head/base, CPU time
SIMULATE_LIMIT = 1.05  # head/base, CPU time: "not slower", within the noise of a shared machine
STARTUP_LIMIT_MS = 20.0  # head less base, fastest CPU time

#: The commands' environment: this one, with bytecode caching on.
_ENV = {key: value for key, value in os.environ.items() if key not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}


@dataclass
class Side:
    """One checkout: its name in the table, its folder, and what it is (a commit, a folder)."""

    name: str
    tree: Path
    label: str


@dataclass
class Guard:
    """One row of the table: what was measured, the figures of both sides, and the verdict."""

    guard: str
    base: str
    head: str
    measure: str
    limit: str
    ok: bool | None  # None: a figure shown for reading the others, not a guard
    detail: str = ""
    figures: dict[str, object] = field(default_factory=dict)


class CommandFailed(Exception):
    """A side's command exited non-zero: the guard it belongs to fails with its message."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(side: Side, arguments: list[str], scratch: Path, *, module: bool = True) -> tuple[float, float, bytes]:
    """(wall time, CPU time, stdout) of ``arbo ARGUMENTS`` (or ``python ARGUMENTS``) on ``side``'s code."""
    command = [sys.executable, "-m", "arbo_notation", *arguments] if module else [sys.executable, *arguments]
    start, start_cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(
        command, capture_output=True, cwd=scratch, env=dict(_ENV, PYTHONPATH=str(side.tree)), stdin=subprocess.DEVNULL
    )
    wall, cpu = time.perf_counter() - start, _children_cpu() - start_cpu
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise CommandFailed(f"{side.name}: `{' '.join(command[1:])}` exited {done.returncode}: {' | '.join(said)}")
    return wall, cpu, done.stdout


def interleaved(
    sides: tuple[Side, Side], rounds: int, measure: Callable[[Side], tuple[float, float]]
) -> dict[str, list[tuple[float, float]]]:
    """Each side's (wall, CPU) over ``rounds`` rounds, after an untimed run; the sides take turns going first."""
    for side in sides:
        measure(side)
    times: dict[str, list[tuple[float, float]]] = {side.name: [] for side in sides}
    for number in range(rounds):
        for side in sides if number % 2 == 0 else sides[::-1]:
            times[side.name].append(measure(side))
    return times


def ratio_of(times: dict[str, list[tuple[float, float]]]) -> tuple[float, float, float, float]:
    """(median CPU ratio of the rounds, base's and head's median CPU, median wall ratio)."""
    cpu_ratio = statistics.median(h[1] / b[1] for b, h in zip(times["base"], times["head"], strict=True))
    wall_ratio = statistics.median(h[0] / b[0] for b, h in zip(times["base"], times["head"], strict=True))
    base_cpu = statistics.median(t[1] for t in times["base"])
    head_cpu = statistics.median(t[1] for t in times["head"])
    return cpu_ratio, base_cpu, head_cpu, wall_ratio


def first_difference(base: bytes, head: bytes, name: str, lines: int = 20) -> str:
    """A unified diff of two outputs, cut to its first ``lines`` lines."""
    diff = difflib.unified_diff(
        base.decode(errors="replace").splitlines(),
        head.decode(errors="replace").splitlines(),
        f"base/{name}",
        f"head/{name}",
        lineterm="",
        n=2,
    )
    return "\n".join(line for _, line in zip(range(lines), diff, strict=False))


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- the guards ------------------------------------------------------------------------------------


def guard_check(sides: tuple[Side, Side], scratch: Path, games_file: Path, games: int, rounds: int) -> Guard:
    name = f"check {games:,} games (-j 1)"
    say(f"{name}: {rounds} rounds")
    try:
        times = interleaved(
            sides, rounds, lambda side: run(side, ["check", "-q", "-j", "1", str(games_file)], scratch)[:2]
        )
    except CommandFailed as failure:
        return Guard(name, "", "", "failed", f"<= {CHECK_LIMIT:.2f}", False, str(failure))
    ratio, base_cpu, head_cpu, wall_ratio = ratio_of(times)
    return Guard(
        name,
        f"{base_cpu:.2f} s",
        f"{head_cpu:.2f} s",
        f"ratio {ratio:.3f}",
        f"<= {CHECK_LIMIT:.2f}",
        ratio <= CHECK_LIMIT,
        figures={"cpu_ratio": ratio, "wall_ratio": wall_ratio, "times": times},
    )


def guard_simulate(
    sides: tuple[Side, Side], scratch: Path, bot: str, players: int, games: int, seed: int, rounds: int
) -> Guard:
    name = f"simulate {bot} {players}p, {games:,} games"
    say(f"{name}: {rounds} rounds")
    limit = f"<= {SIMULATE_LIMIT:.2f}"
    written: dict[str, bytes] = {}

    def simulate(side: Side) -> tuple[float, float]:
        out = scratch / f"simulate-{side.name}.arb"
        out.unlink(missing_ok=True)
        arguments = ["simulate", "-p", str(players), "-n", str(games), "--seed", str(seed), "-j", "1"]
        wall, cpu, _ = run(side, [*arguments, "--bot", bot, "-q", "--out", str(out)], scratch)
        written[side.name] = out.read_bytes()
        return wall, cpu

    try:
        times = interleaved(sides, rounds, simulate)
    except CommandFailed as failure:
        return Guard(name, "", "", "failed", limit, False, str(failure))
    same = written["base"] == written["head"]
    ratio, base_cpu, head_cpu, wall_ratio = ratio_of(times)
    return Guard(
        name,
        f"{base_cpu:.2f} s",
        f"{head_cpu:.2f} s",
        f"ratio {ratio:.3f}, " + ("same bytes" if same else "BYTES DIFFER"),
        f"{limit}, identical",
        same and ratio <= SIMULATE_LIMIT,
        "" if same else first_difference(written["base"], written["head"], f"simulate-{bot}-{players}p.arb"),
        figures={"cpu_ratio": ratio, "wall_ratio": wall_ratio, "same_bytes": same, "times": times},
    )


def guard_startup(
    sides: tuple[Side, Side], scratch: Path, name: str, arguments: list[str], runs: int, module: bool
) -> Guard:
    say(f"start-up, {name}: {runs} runs")
    limit = f"<= {STARTUP_LIMIT_MS:.0f} ms" if name != "python -c pass" else "(noise)"
    try:
        times = interleaved(sides, runs, lambda side: run(side, arguments, scratch, module=module)[:2])
    except CommandFailed as failure:
        return Guard(f"start-up: {name}", "", "", "failed", limit, False, str(failure))
    fastest = {key: min(cpu for _, cpu in runs) * 1000 for key, runs in times.items()}
    fastest_wall = {key: min(wall for wall, _ in runs) * 1000 for key, runs in times.items()}
    added = fastest["head"] - fastest["base"]
    return Guard(
        f"start-up: {name}",
        f"{fastest['base']:.1f} ms",
        f"{fastest['head']:.1f} ms",
        f"{added:+.1f} ms",
        limit,
        None if name == "python -c pass" else added <= STARTUP_LIMIT_MS,
        figures={
            "cpu_added_ms": added,
            "wall_added_ms": fastest_wall["head"] - fastest_wall["base"],
            "cpu_min_ms": fastest,
            "wall_min_ms": fastest_wall,
        },
    )


def guard_match(sides: tuple[Side, Side], scratch: Path, bots: list[str], games: int, seed: int) -> Guard:
    name = f"match {' '.join(bots)}, {games} games"
    say(name)
    folders = {side.name: scratch / f"match-{side.name}" for side in sides}
    try:
        for side in sides:
            shutil.rmtree(folders[side.name], ignore_errors=True)
            arguments = ["match", *bots, "--games", str(games), "--seed", str(seed), "--sandbox", "off", "-j", "1"]
            run(side, [*arguments, "--out", str(folders[side.name])], scratch)
    except CommandFailed as failure:
        return Guard(name, "", "", "failed", "identical", False, str(failure))
    records = {
        key: {path.name: path.read_bytes() for path in sorted(folder.iterdir())} for key, folder in folders.items()
    }
    count = f"{len(records['base'])} records"
    if records["base"] == records["head"]:
        return Guard(name, count, f"{len(records['head'])} records", "same bytes", "identical", True)
    if records["base"].keys() != records["head"].keys():
        detail = f"files: base {sorted(records['base'])}, head {sorted(records['head'])}"
    else:
        differ = [key for key in records["base"] if records["base"][key] != records["head"][key]]
        detail = f"{len(differ)} records differ: {', '.join(differ)}\n"
        detail += first_difference(records["base"][differ[0]], records["head"][differ[0]], differ[0])
    return Guard(name, count, f"{len(records['head'])} records", "bytes differ", "identical", False, detail)


def _module_from(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("architecture_rule", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def guard_architecture(head: Side) -> Guard:
    """Every module of the head named in its ARCHITECTURE.md, by the rule of tests/test_architecture.py."""
    rule_file = head.tree / "tests" / "test_architecture.py"
    if not rule_file.exists():
        rule_file = HERE / "tests" / "test_architecture.py"
    rule = _module_from(rule_file)
    package = head.tree / "arbo_notation"
    text = (head.tree / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    modules = rule.modules(package)
    missing = rule.unnamed(modules, rule.packages(package), rule.paths_named(text))
    return Guard(
        "ARCHITECTURE.md names every module",
        "",
        f"{len(modules)} modules",
        f"{len(missing)} unnamed",
        "0",
        not missing,
        ", ".join(missing),
        figures={"missing": missing},
    )


# -- the sides -------------------------------------------------------------------------------------


def describe(tree: Path) -> str:
    """A checkout's commit, and whether its files differ from it."""
    head = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return str(tree)
    status = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    )
    return f"{tree} at {head.stdout.strip()}" + (" with uncommitted changes" if status.stdout.strip() else "")


def export(ref: str, folder: Path) -> str:
    """``ref``'s files written into ``folder`` (git archive); its commit, short."""
    commit = subprocess.run(
        ["git", "-C", str(HERE), "rev-parse", "--short", "--verify", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if commit.returncode != 0:
        raise SystemExit(f"--base {ref}: not a commit of {HERE}")
    folder.mkdir(parents=True)
    archive = subprocess.Popen(["git", "-C", str(HERE), "archive", "--format=tar", ref], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(folder)], stdin=archive.stdout, check=True)
    assert archive.stdout is not None
    archive.stdout.close()
    if archive.wait() != 0:
        raise SystemExit(f"git archive {ref} failed")
    return commit.stdout.strip()


def table(guards: list[Guard]) -> str:
    rows = [("guard", "base", "head", "measured", "limit", "")]
    for guard in guards:
        verdict = "-" if guard.ok is None else "ok" if guard.ok else "FAIL"
        rows.append((guard.guard, guard.base, guard.head, guard.measure, guard.limit, verdict))
    widths = [max(len(row[column]) for row in rows) for column in range(6)]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), *(row[c].rjust(widths[c]) for c in (1, 2)), row[3].ljust(widths[3])]
        lines.append("  ".join([*cells, row[4].ljust(widths[4]), row[5]]).rstrip())
    for guard in guards:
        if guard.detail and not guard.ok:
            lines.append(f"\n{guard.guard}:\n{guard.detail}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="657d07d", help="the git ref to measure against (default: 657d07d)")
    parser.add_argument("--base-dir", type=Path, help="a checkout to measure against, instead of --base")
    parser.add_argument("--head-dir", type=Path, default=HERE, help="the checkout measured (default: this tree)")
    parser.add_argument("--rounds", type=int, help="rounds of check and simulate (default 5; --quick 3)")
    parser.add_argument("--check-games", type=int, help="games in the file to check (default 10,000; --quick 1,000)")
    parser.add_argument("--check-file", type=Path, help="the file to check: made there by the base when missing")
    parser.add_argument("--simulate-games", type=int, help="greedy games a simulate row (default 200; --quick 40)")
    parser.add_argument("--startup-runs", type=int, help="runs of each start-up command (default 15; --quick 5)")
    parser.add_argument("--match-games", type=int, help="games of the match (default 6; --quick 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a small version: fewer games, rounds and runs")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    options = parser.parse_args()
    quick = options.quick
    rounds = options.rounds or (3 if quick else 5)
    check_games = options.check_games or (1_000 if quick else 10_000)
    simulate_games = options.simulate_games or (40 if quick else 200)
    startup_runs = options.startup_runs or (5 if quick else 15)
    match_games = options.match_games or (2 if quick else 6)

    for option, tree in (("--base-dir", options.base_dir), ("--head-dir", options.head_dir)):
        if tree is not None and not (tree / "arbo_notation" / "__init__.py").is_file():
            parser.error(f"{option} {tree}: not a checkout of arbo (no arbo_notation/ in it)")

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="arbo-guards-") as name:
        scratch = Path(name)
        if options.base_dir:
            base = Side("base", options.base_dir.resolve(), describe(options.base_dir.resolve()))
        else:
            say(f"base: {options.base}'s files into {scratch / 'base'}")
            commit = export(options.base, scratch / "base")
            named = options.base if commit.startswith(options.base) else f"{options.base} ({commit})"
            base = Side("base", scratch / "base", f"{named}, its files in a temporary folder")
        head = Side("head", options.head_dir.resolve(), describe(options.head_dir.resolve()))
        sides = (base, head)
        work = scratch / "work"
        work.mkdir()

        games_file = options.check_file.resolve() if options.check_file else work / "check.arb"
        if not games_file.exists():
            say(f"making {check_games:,} games to check with the base's simulate (-j 0) into {games_file}")
            arguments = ["simulate", "-p", "2", "-n", str(check_games), "--seed", str(options.seed), "-q"]
            try:
                run(base, [*arguments, "-j", "0", "--out", str(games_file)], work)
            except CommandFailed as failure:
                raise SystemExit(str(failure)) from None
        in_file = sum(line.startswith(b"players:") for line in games_file.read_bytes().splitlines())

        guards = [guard_check(sides, work, games_file, in_file, rounds)]
        for bot, players in (("random", 2), ("random", 4), ("greedy", 2), ("greedy", 4)):
            games = simulate_games * (5 if bot == "random" else 1)
            guards.append(guard_simulate(sides, work, bot, players, games, options.seed, rounds))
        small = work / SMALL.name
        shutil.copyfile(base.tree / SMALL, small)
        startup = {
            "python -c pass": (["-c", "pass"], False),
            "import arbo_notation": (["-c", "import arbo_notation"], False),
            f"arbo check {SMALL.name}": (["check", str(small)], True),
            "arbo --help": (["--help"], True),
        }
        for label, (arguments, module) in startup.items():
            guards.append(guard_startup(sides, work, label, arguments, startup_runs, module))
        guards.append(guard_match(sides, work, ["greedy", "random"], match_games, options.seed))
        guards.append(guard_architecture(head))

    failed = [guard.guard for guard in guards if guard.ok is False]
    heading = {
        "base": base.label,
        "head": head.label,
        "rounds": rounds,
        "startup_runs": startup_runs,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cores": os.cpu_count(),
    }
    if options.json:
        print(json.dumps({**heading, "guards": [asdict(guard) for guard in guards], "failed": failed}, indent=2))
    else:
        print(f"base: {base.label}\nhead: {head.label}")
        print(
            f"CPU times, medians of {rounds} rounds (start-up: fastest of {startup_runs}); load average "
            f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after, on {os.cpu_count()} cores\n"
        )
        print(table(guards))
        print(f"\n{len(failed)} guards failed: {'; '.join(failed)}" if failed else "\nevery guard holds")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
