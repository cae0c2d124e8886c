"""Benchmark: `arbo check` turns/second against python-chess PGN plies/second, side by side.

Simulates 1,000 four-player games (random bots, seeded), writes them as one record file, and
writes a PGN file of random legal chess games with the same number of plies. Then it times, in
one run and alternating the two, arbo's check (parse + replay + score) and python-chess reading
and validating the PGN (`chess.pgn.read_game`, which replays every move on a board).

    pip install -e '.[bench]'     # python-chess, a benchmark-only dependency
    python bench/bench_check.py [--games 1000] [--rounds 3]

Four measures, each against python-chess measured the same way:
- one process: check_text on the file's text, warm, in this process (python-chess likewise);
- workers: the command's own path (check_files, one worker per core for a big file), warm;
- a new process: the command's path in a fresh interpreter, imports and start-up left out;
- the command: `python -m arbo_notation check FILE` against `python -c <read every game>`,
  wall time with interpreter start-up and imports.

The issue's target: a ratio of at least 2.0.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arbo_notation.notation.writer import format_games
from arbo_notation.checking.games import check_text
from arbo_notation.play.simulate import simulate_games


def arbo_file(games: int, seed: int) -> tuple[str, int]:
    records = list(simulate_games(4, games, seed, bots=("random",) * 4))
    turns = sum(len(r.turns) for r in records)
    return format_games(records), turns


def pgn_file(plies: int, seed: int) -> str:
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    made = 0
    while made < plies:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(min(120, plies - made)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
            made += 1
        print(game, file=out, end="\n\n")
    return out.getvalue()


def time_arbo(text: str) -> float:
    start = time.perf_counter()
    check = check_text(text, "bench.arb", keep_games=False)  # as arbo check does
    elapsed = time.perf_counter() - start
    assert check.valid, check.diagnostics[:3]
    return elapsed


def time_chess(text: str) -> float:
    import chess.pgn

    start = time.perf_counter()
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise SystemExit(f"python-chess found errors: {game.errors[:1]}")
    return time.perf_counter() - start


def time_parallel(path: Path, jobs: int) -> float:
    """The command's own path (files and runs of games shared out among workers), in process."""
    from arbo_notation.cli.check import check_files

    start = time.perf_counter()
    summaries = check_files([str(path)], jobs)
    elapsed = time.perf_counter() - start
    assert all(s.valid == s.games for s in summaries)
    return elapsed


_FRESH_ARBO = """
import sys, time
from arbo_notation.cli.check import check_files
start = time.perf_counter()
summaries = check_files([sys.argv[1]])
print(time.perf_counter() - start)
assert all(s.valid == s.games for s in summaries)
"""
_FRESH_CHESS = """
import sys, time
import chess.pgn
start = time.perf_counter()
with open(sys.argv[1]) as stream:
    while chess.pgn.read_game(stream) is not None:
        pass
print(time.perf_counter() - start)
"""


def time_fresh(script: str, path: Path) -> float:
    """The work of one run in a new process, its imports and interpreter start-up left out."""
    done = subprocess.run([sys.executable, "-c", script, str(path)], check=True, capture_output=True, text=True)
    return float(done.stdout)


def time_command(command: list[str]) -> float:
    """A whole command's wall time: interpreter start-up, imports and work."""
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def arbo_command(path: Path) -> list[str]:
    return [sys.executable, "-m", "arbo_notation", "check", str(path)]


def chess_command(path: Path) -> list[str]:
    return [sys.executable, "-c", _FRESH_CHESS, str(path)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    try:
        import chess  # noqa: F401 (only whether it is installed)
    except ImportError:
        raise SystemExit("python-chess is needed: pip install -e '.[bench]'") from None
    print(f"simulating {args.games} four-player games ...", file=sys.stderr)
    arbo_text, turns = arbo_file(args.games, seed=2026)
    pgn_text = pgn_file(turns, seed=2026)
    print(f"{turns} turns of Arboretum, {turns} plies of chess", file=sys.stderr)
    jobs = min(os.cpu_count() or 1, 8)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.arb"
        path.write_text(arbo_text, encoding="utf-8")
        pgn_path = Path(folder) / "bench.pgn"
        pgn_path.write_text(pgn_text, encoding="utf-8")
        times: dict[str, list[float]] = {
            k: [] for k in ("one", "workers", "fresh", "chess", "fresh chess", "command", "chess command")
        }
        for _ in range(args.rounds):
            times["one"].append(time_arbo(arbo_text))
            times["workers"].append(time_parallel(path, jobs))
            times["chess"].append(time_chess(pgn_text))
            times["fresh"].append(time_fresh(_FRESH_ARBO, path))
            times["fresh chess"].append(time_fresh(_FRESH_CHESS, pgn_path))
            times["command"].append(time_command(arbo_command(path)))
            times["chess command"].append(time_command(chess_command(pgn_path)))
    rate = {k: turns / statistics.median(v) for k, v in times.items()}
    print(
        f"python-chess read_game: {rate['chess']:,.0f} plies/s in this process, {rate['fresh chess']:,.0f} in a new one"
    )
    print(f"arbo check, one process: {rate['one']:,.0f} turns/s (ratio {rate['one'] / rate['chess']:.2f})")
    print(
        f"arbo check, {jobs} workers, in this process: {rate['workers']:,.0f} turns/s "
        f"(ratio {rate['workers'] / rate['chess']:.2f})"
    )
    print(
        f"arbo check as the command runs it, in a new process: {rate['fresh']:,.0f} turns/s "
        f"(ratio {rate['fresh'] / rate['fresh chess']:.2f} to python-chess in a new process)"
    )
    print(
        f"arbo check as a command, interpreter start-up included: {rate['command']:,.0f} turns/s "
        f"(ratio {rate['command'] / rate['chess command']:.2f} to python-chess run the same way: "
        f"{rate['chess command']:,.0f} plies/s)"
    )
    print("target: ratio >= 2.0")


if __name__ == "__main__":
    main()
