"""Benchmark: `arbo check` as a whole command on every kind of record, against python-chess.

Each row is one kind of record and one layout, timed as whole commands (interpreter start-up,
imports and work) in one run, alternating arbo and the peer:

- arbo: `python -m arbo_notation check FILES` with the default options, and with `-j 1`;
- the peer: a `python -c` script that reads and validates every game of PGN files holding the same
  number of plies with python-chess (`chess.pgn.read_game`, which replays every move).

Kinds: plain (omniscient, canonical), seat (one player's record: the others' deck draws unknown),
spectator (no deck draw known), annotated (glyphs and comments), variations, hand-typed (several
spaces and tabs between the parts of a turn), all of four random bots' games (about 50 turns);
and greedy-2p, greedy-4p: games of greedy bots, of the length people play (about 19 turns with 2
players, 29 with 4), where what a game costs beside its turns (header, setup, end, score) shows.
Layouts: one file, or one game per file.

    pip install -e '.[bench]'
    python bench/bench_kinds.py [--games 1000] [--rounds 3] [--kind spectator] [--layout per-file]
                                [--against ../before]   # another checkout, timed in the same rounds

Both tools run as installed ones do, from compiled bytecode: each command runs once untimed first,
with bytecode caching on whatever PYTHONDONTWRITEBYTECODE says (python-chess's is compiled at its
install; without this, every arbo command compiled its ~50 modules again, about 0.07 s a command).

The ratio is arbo turns/s over python-chess plies/s (the same count), so above 1 arbo is faster;
`CPU -j 1` is the ratio of the median CPU times with -j 1, steadier than wall times on a shared
machine, and `least` that of the least CPU times over the rounds, steadier still when another
process shares the cores (it slows a command, never speeds one).
The target of the issue "Speed and memory on every kind of record": every ratio >= 2, and the
default -j never slower than -j 1.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from arbo_notation.notation.model import Comment, GameRecord, Turn, Variation
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_games
from arbo_notation.play.simulate import simulate_games

KINDS = ("plain", "seat", "spectator", "annotated", "variations", "hand-typed", "greedy-2p", "greedy-4p")
LAYOUTS = ("one-file", "per-file")

_CHESS = """
import sys
import chess.pgn
for path in sys.argv[1:]:
    with open(path) as stream:
        while (game := chess.pgn.read_game(stream)) is not None:
            if game.errors:
                raise SystemExit(str(game.errors[0]))
"""


def _annotate(turn: Turn) -> Turn:
    number = turn.number or 0
    glyphs = ("!",) if number % 3 == 0 else ("?!",) if number % 7 == 0 else ()
    after = (Comment(f"turn {number}: a quiet move, nothing to add"),) if number % 4 == 0 else ()
    before = (Comment("the middle game", line=True),) if number % 11 == 0 else ()
    return replace(turn, glyphs=glyphs, comments_after=after, comments_before=before)


def _with_variation(turn: Turn) -> Turn:
    if (turn.number or 0) % 8:
        return turn
    alternative = replace(turn, number=None, glyphs=("?",), comments_after=(Comment("the same, played again"),))
    return replace(turn, variations=(Variation((alternative,)),))


def games_of_kind(kind: str, count: int, seed: int) -> list[GameRecord]:
    if kind.startswith("greedy-"):
        players = int(kind[len("greedy-") : -1])
        return list(simulate_games(players, count, seed, bots=("greedy",) * players))
    games = list(simulate_games(4, count, seed, bots=("random",) * 4))
    if kind == "seat":
        return [partial_record(g, seated=g.header.players[0]) for g in games]
    if kind == "spectator":
        return [partial_record(g) for g in games]
    if kind == "annotated":
        return [replace(g, turns=tuple(_annotate(t) for t in g.turns)) for g in games]
    if kind == "variations":
        return [replace(g, turns=tuple(_with_variation(t) for t in g.turns)) for g in games]
    return games


_TURN_LINE = re.compile(r"^(\d+\.) (\S+) (.*)$", re.MULTILINE)


def hand_typed(text: str) -> str:
    """Canonical text retyped by hand: tabs and runs of spaces between a turn's parts."""
    rng = random.Random(7)

    def retype(match: re.Match[str]) -> str:
        gaps = [rng.choice(("  ", "\t", " \t", "   ")) for _ in range(8)]
        parts = match.group(3).split(" ")
        rest = "".join(part + gaps[i % len(gaps)] for i, part in enumerate(parts)).rstrip()
        return f"{match.group(1)}{gaps[0]}{match.group(2)}{gaps[1]}{rest}"

    return _TURN_LINE.sub(retype, text)


def pgn_games(plies: int, games: int, seed: int) -> list[str]:
    """Random legal chess games, ``games`` of them, holding ``plies`` plies in all."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    texts = []
    for index in range(games):
        length = plies // games + (1 if index < plies % games else 0)
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        while board.ply() < length:
            moves = list(board.legal_moves)
            if not moves:  # mate or stalemate: start the game again, keeping the count
                board, game = chess.Board(), chess.pgn.Game()
                node = game
                continue
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        out = io.StringIO()
        print(game, file=out, end="\n\n")
        texts.append(out.getvalue())
    return texts


def write_layout(folder: Path, texts: list[str], suffix: str, layout: str) -> list[str]:
    if layout == "one-file":
        path = folder / f"all{suffix}"
        path.write_text("".join(texts), encoding="utf-8")
        return [str(path)]
    paths = []
    for number, text in enumerate(texts):
        path = folder / f"g{number:06d}{suffix}"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: The commands' environment: this one, with bytecode caching on (see the module's docstring).
_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str], folder: Path, cpu: list[float] | None = None, tree: str | None = None) -> float:
    """The wall time of a whole command; its CPU time (user and system, workers included) is
    appended to ``cpu``, which other busy processes do not inflate as they do the wall time.
    ``tree``: the source tree whose arbo runs (first on the path), else the environment's."""
    start, start_cpu = time.perf_counter(), _children_cpu()
    # From the temporary folder: `python -m` puts the working folder first on the path, and the
    # arbo measured must be the one the environment (PYTHONPATH) names.
    env = _ENV if tree is None else dict(_ENV, PYTHONPATH=tree)
    done = subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env)
    elapsed = time.perf_counter() - start
    if cpu is not None:
        cpu.append(_children_cpu() - start_cpu)
    if done.returncode != 0:
        raise SystemExit(f"{command[:5]}... failed ({done.returncode}): {done.stderr[-500:]}")
    return elapsed


def measure(
    kind: str, layout: str, count: int, rounds: int, others: tuple[str, ...] | list[str] = ()
) -> dict[str, float]:
    """One row: the medians over ``rounds`` rounds, in each of which every command runs once, in
    turn (so a busy spell of the machine slows them alike). ``others``: source trees whose
    `check` and `check -j 1` run in each round too (before and after a change, in one run)."""
    records = games_of_kind(kind, count, seed=2026)
    texts = [format_games([g]) for g in records]
    if kind == "hand-typed":
        texts = [hand_typed(t) for t in texts]
    turns = sum(len(g.turns) for g in records)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "arb").mkdir()
        (folder / "pgn").mkdir()
        arb = write_layout(folder / "arb", texts, ".arb", layout)
        pgn = write_layout(folder / "pgn", pgn_games(turns, count, seed=2026), ".pgn", layout)
        base = [sys.executable, "-m", "arbo_notation", "check", "-q"]
        times: dict[str, list[float]] = {"default": [], "j1": [], "chess": [], "cpu j1": [], "cpu chess": []}
        for tree in others:
            times.update({f"default {tree}": [], f"cpu {tree}": []})
        # untimed: the bytecode compiled and cached, the files in the page cache
        for tree in [None, *others]:
            run(base + arb, folder, tree=tree)
        run([sys.executable, "-c", _CHESS] + pgn, folder)
        for _ in range(rounds):
            times["default"].append(run(base + arb, folder))
            times["j1"].append(run(base + ["-j", "1"] + arb, folder, times["cpu j1"]))
            for tree in others:
                times[f"default {tree}"].append(run(base + arb, folder, tree=tree))
                run(base + ["-j", "1"] + arb, folder, times[f"cpu {tree}"], tree=tree)
            times["chess"].append(run([sys.executable, "-c", _CHESS] + pgn, folder, times["cpu chess"]))
    median = {key: statistics.median(value) for key, value in times.items()}
    row = {
        "turns": turns,
        "default": median["default"],
        "j1": median["j1"],
        "chess": median["chess"],
        "ratio": median["chess"] / median["default"],
        "ratio_j1": median["chess"] / median["j1"],
        "ratio_cpu": median["cpu chess"] / median["cpu j1"],
        "least": min(times["cpu chess"]) / min(times["cpu j1"]),
    }
    for tree in others:
        row[f"ratio {tree}"] = median["chess"] / median[f"default {tree}"]
        row[f"ratio_cpu {tree}"] = median["cpu chess"] / median[f"cpu {tree}"]
        row[f"least {tree}"] = min(times["cpu chess"]) / min(times[f"cpu {tree}"])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kind", choices=KINDS, action="append", help="one kind (default: every kind)")
    parser.add_argument("--layout", choices=LAYOUTS, action="append", help="one layout (default: both)")
    parser.add_argument(
        "--against",
        action="append",
        default=[],
        metavar="TREE",
        help="another source tree (a checkout) whose check is timed in the same rounds",
    )
    args = parser.parse_args()
    try:
        import chess  # noqa: F401 (only whether it is installed)
    except ImportError:
        raise SystemExit("python-chess is needed: pip install -e '.[bench]'") from None
    print(
        f"{'kind':<11} {'layout':<9} {'turns':>7} {'arbo':>8} {'-j 1':>8} {'chess':>8} {'ratio':>6} {'-j 1':>6}"
        f" {'CPU -j 1':>8} {'least':>6}"
        + "".join(
            f" {'ratio ' + str(i + 1):>8} {'CPU ' + str(i + 1):>6} {'least ' + str(i + 1):>8}"
            for i in range(len(args.against))
        )
    )
    for kind in args.kind or KINDS:
        for layout in args.layout or LAYOUTS:
            row = measure(kind, layout, args.games, args.rounds, args.against)
            print(
                f"{kind:<11} {layout:<9} {row['turns']:>7} {row['default']:>7.2f}s {row['j1']:>7.2f}s "
                f"{row['chess']:>7.2f}s {row['ratio']:>6.2f} {row['ratio_j1']:>6.2f} {row['ratio_cpu']:>8.2f}"
                f" {row['least']:>6.2f}"
                + "".join(
                    f" {row['ratio ' + tree]:>8.2f} {row['ratio_cpu ' + tree]:>6.2f} {row['least ' + tree]:>8.2f}"
                    for tree in args.against
                ),
                flush=True,
            )
    print("ratio: python-chess time / arbo time for the same number of plies and turns; target >= 2")
    print("CPU -j 1: the same ratio in CPU time (user and system) of -j 1, which a busy machine does not inflate")
    print("least: the ratio of the least CPU times of -j 1 over the rounds (a busy core slows a run, never speeds it)")
    for number, tree in enumerate(args.against, 1):
        print(
            f"ratio {number}, CPU {number}, least {number}: the ratios of the arbo of {tree}, timed in the same rounds"
        )


if __name__ == "__main__":
    main()
