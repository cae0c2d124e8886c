"""Benchmark: where the time of `arbo check` goes, by phase, per turn, on every kind of record.

The phases of a check's fast path, timed apart in one process (no profiler, whose cost per call
would swell the many small calls), in CPU time, the best of a few rounds:

- cut: the file cut into games (notation/reading/split.py);
- header: each game's header read and checked (notation/header/read.py, through scanner.read_header_of);
- read: the body's moves decoded (notation/reading/scanner.py's moves sink: the line loop, else the token loop);
- setup: the table the header deals (tablecheck.game_for);
- play: every turn and variation played (Game.play_known_turns, gamecheck._play_cleanly);
- end: the hands revealed and the final position taken (Game.reveal, final_hands);
- score: the totals the result line is checked against (engine/scoring.py's score_totals).

Start-up (the interpreter and the imports, about 0.09 s of CPU for `arbo check`) comes on top:
bench_startup.py measures it.

    python bench/bench_phases.py [--games 1000] [--kind plain]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_kinds import KINDS, games_of_kind, hand_typed

from arbo_notation.engine.scoring import PlayerPosition, score_totals
from arbo_notation.notation.reading import scanner
from arbo_notation.notation.reading.split import GameText, stream_games
from arbo_notation.notation.writer import format_games
from arbo_notation.checking.games import _play_cleanly
from arbo_notation.game.facts import game_for

PHASES = ("cut", "header", "read", "setup", "play", "end", "score")


def phases(text: str) -> tuple[dict[str, float], int]:
    """Seconds spent in each phase on the games of ``text``, and the turns of their main lines."""
    # This process's CPU time: on a machine others share, the wall clock counts their turns too (at a
    # load of 8 on two cores it gave 15 us a turn for 5). A reading costs a system call, some 7 a game.
    clock = time.process_time
    spent = dict.fromkeys(PHASES, 0.0)
    start = clock()
    games = [piece for piece in stream_games([text]) if isinstance(piece, GameText)]
    spent["cut"] = clock() - start
    turns = 0
    for game in games:
        a = clock()
        header = scanner.read_header_of(game.text, "bench.arb", game.first_line)
        b = clock()
        assert header is not None
        moves = scanner.read_moves(game.text, "bench.arb", game.first_line, header)
        c = clock()
        assert moves is not None
        table = game_for(moves.header)
        d = clock()
        _play_cleanly(table, moves.turns, moves.branches)
        e = clock()
        for player, cards in moves.reveals:
            table.reveal(player, cards)
        hands = table.final_hands()
        players = [PlayerPosition(p, table.arboretum(p), hands[p]) for p in table.players]
        f = clock()
        assert score_totals(table.config.species, players) == moves.scores
        g = clock()
        for phase, took in zip(PHASES[1:], (b - a, c - b, d - c, e - d, f - e, g - f), strict=False):
            spent[phase] += took
        turns += len(moves.turns)
    return spent, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kind", choices=KINDS, action="append", help="one kind (default: every kind)")
    args = parser.parse_args()
    print(f"{'kind':<11} {'turns/s':>8} {'µs/turn':>8}  " + "  ".join(f"{p:>6}" for p in PHASES) + "   (µs per turn)")
    texts = {}
    for kind in args.kind or KINDS:
        texts[kind] = format_games(games_of_kind(kind, args.games, seed=2026))
        if kind == "hand-typed":
            texts[kind] = hand_typed(texts[kind])
        phases(texts[kind])  # caches filled, as after the first games of a file
    best: dict[str, dict[str, float]] = {}
    turns: dict[str, int] = {}
    for _ in range(args.rounds):  # the kinds in turn each round, so that load from outside touches them alike
        for kind, text in texts.items():
            spent, turns[kind] = phases(text)
            best[kind] = {p: min(best[kind][p], spent[p]) for p in PHASES} if kind in best else spent
    for kind, spent in best.items():
        total = sum(spent.values())
        count = turns[kind]
        print(
            f"{kind:<11} {count / total:>8.0f} {total / count * 1e6:>8.2f}  "
            + "  ".join(f"{spent[p] / count * 1e6:>6.2f}" for p in PHASES)
        )


if __name__ == "__main__":
    main()
