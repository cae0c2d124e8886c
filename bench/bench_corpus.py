"""Benchmark: a corpus as data: the Parquet export and `arbo stats` of a big record file, and
`arbo simulate` straight to Parquet.

Simulates ``--unique`` two-player games (greedy bots, seeded) and repeats them to make one record
file of ``--games`` games (100,000 by default), then runs each command on it as a whole process,
one at a time, and prints its wall time, its peak resident memory (the largest of its processes,
from resource.getrusage(RUSAGE_CHILDREN) in a process that runs only that command) and the bytes
it wrote. Then `arbo simulate --to parquet` and `--out -` of ``--simulate`` games, with -j 1 and
with every core, in games per second, and the bytes per game of each form.

    python bench/bench_corpus.py [--games 100000] [--unique 500] [--simulate 400]

Figures are noisy on a shared machine: compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arbo_notation.notation.writer import format_games
from arbo_notation.play.simulate import simulate_games

_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
with open(sys.argv[1], "wb") as out:
    done = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.PIPE)
took = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
print(done.returncode, peak, took)
sys.stderr.write(done.stderr.decode("utf-8", "replace")[-300:])
"""


def make_file(path: Path, games: int, unique: int) -> None:
    """``games`` games: ``unique`` simulated ones, repeated."""
    text = format_games(simulate_games(2, unique, "corpus-bench"))
    with path.open("w", encoding="utf-8") as out:
        written = 0
        while written < games:
            take = min(unique, games - written)
            if take == unique:
                out.write(text if not written else "\n" + text)
            else:
                out.write("\n" + format_games(simulate_games(2, take, "corpus-bench")))
            written += take


def measure(args: list[str], stdout: Path) -> tuple[int, float, float, str]:
    """(exit status, peak MiB, seconds, the end of stderr) of ``arbo ARGS``."""
    command = [sys.executable, "-m", "arbo_notation", *args]
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(stdout), *command], capture_output=True, text=True)
    status, peak, took = done.stdout.split()
    return int(status), int(peak) / 1024, float(took), done.stderr.strip()


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--unique", type=int, default=500)
    parser.add_argument("--simulate", type=int, default=400, help="games for the simulate figures")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arbo-corpus-"))
    try:
        record = work / "corpus.arb"
        start = time.perf_counter()
        make_file(record, options.games, min(options.unique, options.games))
        arb_bytes = record.stat().st_size
        print(
            f"{options.games:,} two-player games in one file: {arb_bytes:,} bytes of .arb "
            f"({arb_bytes / options.games:,.0f} a game), made in {time.perf_counter() - start:.0f} s"
        )
        out = work / "stdout"
        runs = [
            ("convert --to parquet", ["convert", str(record), "--to", "parquet", "-o", str(work / "tables"), "-q"]),
            ("stats (of the records)", ["stats", str(record)]),
            ("stats (of the export)", ["stats", str(work / "tables")]),
            ("check (for scale)", ["check", "-q", str(record)]),
        ]
        print(f"{'command':<26}{'seconds':>9}{'games/s':>10}{'peak MiB':>10}")
        for label, args in runs:
            status, peak, took, stderr = measure(args, out)
            if status:
                raise SystemExit(f"{label} exited {status}: {stderr}")
            print(f"{label:<26}{took:>9.1f}{options.games / took:>10,.0f}{peak:>10.0f}")
        parquet = folder_bytes(work / "tables")
        print(
            f"Parquet export: {parquet:,} bytes ({parquet / options.games:,.0f} a game; "
            f"{parquet / arb_bytes:.1%} of the .arb)"
        )
        for table in ("games", "turns", "scores"):
            print(f"  {table}: {folder_bytes(work / 'tables' / table):,} bytes")

        count = options.simulate
        print(f"\nsimulate, {count:,} two-player games (greedy bots), on {os.cpu_count()} cores")
        print(f"{'command':<34}{'seconds':>9}{'games/s':>10}{'peak MiB':>10}{'bytes/game':>12}")
        for jobs in ("1", "0"):
            for form in ("arb", "parquet"):
                target = work / f"sim-{form}-{jobs}"
                args = ["simulate", "-p", "2", "-n", str(count), "--seed", "bench", "-j", jobs, "-q"]
                args += ["--out", str(target), "--to", "parquet"] if form == "parquet" else ["--out", "-"]
                status, peak, took, stderr = measure(args, target if form == "arb" else out)
                if status:
                    raise SystemExit(f"simulate exited {status}: {stderr}")
                size = folder_bytes(target) if form == "parquet" else target.stat().st_size
                label = f"--to {form} -j {jobs}{' (every core)' if jobs == '0' else ''}"
                print(f"{label:<34}{took:>9.1f}{count / took:>10.1f}{peak:>10.0f}{size / count:>12,.0f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
