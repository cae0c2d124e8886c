"""Benchmark: the peak memory (RSS) of each command that reads a whole record file, on a big file.

Simulates ``--unique`` four-player games (random bots, seeded) and repeats them to make one record
file of ``--games`` games (50,000 by default: about 127 MB of text), then runs each command on it
as a whole process, one at a time, and prints its peak resident memory: the largest of the
command's processes (workers included), taken from resource.getrusage(RUSAGE_CHILDREN) in a
process that runs only that command. The JSON and YAML forms read by `convert --from` are what
`convert --to json` and `--to yaml` wrote (made first when those are not measured).

    python bench/bench_memory.py [--games 50000] [--unique 1000] [--command check ...]

The target of the issue "Speed and memory on every kind of record": every command under 200 MiB,
whatever the size of the file (a game at a time).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arbo_notation.notation.writer import format_games
from arbo_notation.play.simulate import simulate_games

TARGET_MIB = 200

#: Each command, with {arb}, {json}, {yaml} and {copy} standing for the record, its JSON and YAML
#: forms and a copy of the record to rewrite in place.
COMMANDS = {
    "check": ["check", "-q", "{arb}"],
    "check -j 1": ["check", "-q", "-j", "1", "{arb}"],
    "fmt": ["fmt", "{arb}"],
    "fmt --check": ["fmt", "--check", "{arb}"],
    "fmt --in-place": ["fmt", "--in-place", "{copy}"],
    "convert --to json": ["convert", "{arb}", "--to", "json"],
    "convert --to yaml": ["convert", "{arb}", "--to", "yaml"],
    "convert --from json": ["convert", "--from", "json", "{json}", "--to", "arb"],
    "convert --from yaml": ["convert", "--from", "yaml", "{yaml}", "--to", "arb"],
    "score": ["score", "{arb}"],
    "score --json": ["score", "--json", "{arb}"],
}
#: The commands whose output is a form another command reads, and that form.
WRITES = {"convert --to json": "json", "convert --to yaml": "yaml"}
READS = {"convert --from json": "json", "convert --from yaml": "yaml"}

_MEASURE = """
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    done = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.PIPE)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
print(done.returncode, peak)
sys.stderr.write(done.stderr.decode("utf-8", "replace")[-300:])
"""


def make_file(path: Path, games: int, unique: int) -> None:
    """``games`` games: ``unique`` simulated ones, repeated (each stays valid on its own)."""
    text = format_games(simulate_games(4, unique, seed=2026, bots=("random",) * 4))
    with path.open("w", encoding="utf-8") as out:
        for done in range(0, games, unique):
            if done:
                out.write("\n")
            count = min(unique, games - done)
            out.write(
                text if count == unique else format_games(simulate_games(4, count, seed=2026, bots=("random",) * 4))
            )


def measure(args: list[str], out: Path) -> tuple[int, float, float]:
    """(exit status, peak RSS in MiB, seconds) of ``arbo ARGS``, its stdout written to ``out``."""
    start = time.perf_counter()
    # Run from the output's folder: `python -m` puts the working folder first on the path, and
    # the arbo measured must be the one the environment (PYTHONPATH) names.
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(out), sys.executable, "-m", "arbo_notation", *args],
        capture_output=True,
        text=True,
        cwd=out.parent,
    )
    elapsed = time.perf_counter() - start
    status, peak = done.stdout.split()
    return int(status), int(peak) / 1024, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--unique", type=int, default=1000, help="games simulated, then repeated")
    parser.add_argument("--command", choices=list(COMMANDS), action="append", help="one command (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        arb = folder / "big.arb"
        forms = {"json": folder / "big.json", "yaml": folder / "big.yaml"}
        print(f"making {args.games} games ({args.unique} simulated, repeated) ...", file=sys.stderr)
        make_file(arb, args.games, min(args.unique, args.games))
        print(f"{arb.name}: {args.games} games, {arb.stat().st_size / 2**20:.0f} MiB of text")
        wanted = [label for label in COMMANDS if label in (args.command or COMMANDS)]
        for label, form in WRITES.items():  # a form read but not written by a command measured: made first
            if any(READS[reader] == form for reader in wanted if reader in READS) and label not in wanted:
                status, _, _ = measure(["convert", str(arb), "--to", form], forms[form])
                if status:
                    raise SystemExit(f"could not make the {form} form")
        print(f"{'command':<24} {'peak RSS':>10} {'time':>8}  status")
        over = []
        for label in wanted:
            copy = folder / "copy.arb"
            if label == "fmt --in-place":
                shutil.copy(arb, copy)
            command = [part.format(arb=arb, copy=copy, **forms) for part in COMMANDS[label]]
            out = forms[WRITES[label]] if label in WRITES else folder / "out"
            status, peak, elapsed = measure(command, out)
            mark = "" if peak < TARGET_MIB else "  over the target"
            if peak >= TARGET_MIB:
                over.append(label)
            print(f"{label:<24} {peak:>6.0f} MiB {elapsed:>7.1f}s  {status}{mark}", flush=True)
            if label in WRITES:
                print(f"  ({out.name}: {out.stat().st_size / 2**20:.0f} MiB)", flush=True)
            (folder / "out").unlink(missing_ok=True)
    print(f"target: every command under {TARGET_MIB} MiB: " + (f"over for {', '.join(over)}" if over else "met"))


if __name__ == "__main__":
    main()
