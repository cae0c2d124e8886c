"""Benchmark: the instructions of `arbo check -q -j 1` on every kind of record, by cachegrind.

Times on a machine that others share move by a tenth between runs (bench/README.md); counts of
instructions do not, so a change of a few percent shows here when bench_kinds.py cannot see it.
Each command runs under `valgrind --tool=cachegrind --cache-sim=no` with PYTHONHASHSEED=0, from
compiled bytecode (as bench_kinds.py runs it), on the files bench_kinds.py writes; with
``--chess``, python-chess's reading of as many plies is counted too (instructions are not time:
python-chess does more per instruction, so its ratio here is above the ratio of times).

    python bench/bench_instructions.py [--games 1000] [--kind variations] [--layout one-file]
                                       [--against ../before] [--chess]

Needs valgrind (Debian: apt-get install valgrind).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_kinds import _CHESS, KINDS, LAYOUTS, games_of_kind, hand_typed, pgn_games, write_layout

from arbo_notation.notation.writer import format_games

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(command: list[str], folder: Path, tree: str | None) -> float:
    """Millions of instructions of a whole command (``tree``: the source tree first on the path)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONHASHSEED"] = "0"
    if tree is not None:
        env["PYTHONPATH"] = tree
    subprocess.run(command, cwd=folder, env=env, capture_output=True, check=True)  # bytecode compiled
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )
    found = _REFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{command[:5]}... failed ({done.returncode}): {done.stderr[-500:]}")
    return int(found.group(1).replace(",", "")) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--kind", choices=KINDS, action="append", help="one kind (default: every kind)")
    parser.add_argument("--layout", choices=LAYOUTS, action="append", help="one layout (default: one-file)")
    parser.add_argument("--against", action="append", default=[], metavar="TREE", help="another source tree")
    parser.add_argument("--chess", action="store_true", help="python-chess's reading of as many plies too")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed: apt-get install valgrind")
    trees = [None, *args.against]
    print(
        f"{'kind':<11} {'layout':<9} {'turns':>7} {'arbo':>9}"
        + "".join(f" {'tree ' + str(i + 1):>9} {'ratio':>6}" for i in range(len(args.against)))
        + (f" {'chess':>9} {'ratio':>6}" if args.chess else "")
        + "   (millions of instructions)"
    )
    for kind in args.kind or KINDS:
        records = games_of_kind(kind, args.games, seed=2026)
        texts = [format_games([g]) for g in records]
        if kind == "hand-typed":
            texts = [hand_typed(t) for t in texts]
        turns = sum(len(g.turns) for g in records)
        for layout in args.layout or ["one-file"]:
            with tempfile.TemporaryDirectory() as name:
                folder = Path(name)
                (folder / "arb").mkdir()
                arb = write_layout(folder / "arb", texts, ".arb", layout)
                check = [sys.executable, "-m", "arbo_notation", "check", "-q", "-j", "1", *arb]
                counts = [instructions(check, folder, tree) for tree in trees]
                line = f"{kind:<11} {layout:<9} {turns:>7} {counts[0]:>9.1f}"
                line += "".join(f" {count:>9.1f} {counts[0] / count:>6.3f}" for count in counts[1:])
                if args.chess:
                    (folder / "pgn").mkdir()
                    pgn = write_layout(folder / "pgn", pgn_games(turns, args.games, seed=2026), ".pgn", layout)
                    chess = instructions([sys.executable, "-c", _CHESS, *pgn], folder, None)
                    line += f" {chess:>9.1f} {chess / counts[0]:>6.2f}"
                print(line, flush=True)
    print("ratio of a tree: this tree's instructions over that tree's (below 1: this tree does less)")
    if args.chess:
        print("ratio of chess: python-chess's instructions over this tree's")


if __name__ == "__main__":
    main()
