"""How fast the .arb parser reads a big multi-game file, and how that compares with python-chess.

Run: python bench/bench_parse.py [--games N] [--turns N] [--repeat N]

It builds a file in memory (by default 2,000 games of about 40 turns, with comments, glyphs and
variations, as annotated club records look), parses it, and prints turns per second. If python-chess
is installed, it also times chess.pgn on random games and prints plies per second and the ratio.
The requirement is at least 100,000 turns per second on the project's 2-core machine.

The last rows time the library as a program uses it on games of the length people play (greedy
bots' games of 2 and 4 players): ``parse_games`` of a file's text and ``replay`` of each game (every turn
checked by the rules), against python-chess's ``read_game`` (which plays every move on a board,
legality checked) of random chess games holding as many plies, one game for each arbo game. The
target: a ratio of at least 1 (arbo turns/s over python-chess plies/s).
"""

from __future__ import annotations

import argparse
import gc
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arbo_notation.notation import parse
from arbo_notation.notation.reading.syntax import _parser

SPECIES = ["Bs", "Ca", "Cb", "Dw", "Ja", "Ma", "Oa", "Rp", "Tp", "Wi"]
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]
REMARKS = [
    "a fine start",
    "keeps the 8 of oak",
    "blocks the maple path",
    "a risky discard",
    "now the willow row is open",
    "the only move",
    "Ben misses the cassia 1",
]


def make_records(games: int, turns: int, seed: int = 2026, annotated: bool = True) -> str:
    """Synthetic records: legal-looking turns; ``annotated`` adds comments, glyphs and variations."""
    rnd = random.Random(seed)
    rate = 1.0 if annotated else 0.0
    out: list[str] = []
    for g in range(games):
        players = rnd.sample(NAMES, rnd.choice((2, 2, 2, 3, 4)))
        species = SPECIES[: {2: 6, 3: 8, 4: 10}[len(players)]]
        out.append("---\n")
        out.append(f"event: Club night {g // 20 + 1}\nsite: The Greenhouse\n")
        out.append(f"date: 2026-{g % 12 + 1:02d}-{g % 28 + 1:02d}\nround: {g % 7 + 1}\n")
        out.append(f"players: [{', '.join(players)}]\nspecies: [{', '.join(species)}]\n")
        if g % 10 == 0:
            out.append("annotator: Ana\n")
        out.append("---\n")
        if annotated and g % 3 == 0:
            out.append("{" + rnd.choice(REMARKS) + "}\n")

        def card(species=species) -> str:
            return f"{rnd.choice(species)}{rnd.randint(1, 8)}"

        def draw(player: str, players=players) -> str:
            r = rnd.random()
            if r < 0.55:
                return "d"
            if r < 0.65:
                return f"d:{card()}"
            other = rnd.choice(players)
            return other if r < 0.9 else f"{other}:{card()}"

        def turn(n: int, indent: str = "", players=players) -> str:
            p = players[(n - 1) % len(players)]
            line = f"{indent}{n}. {p} {draw(p)} {draw(p)} {card()}@{rnd.randint(-4, 4)},{rnd.randint(-4, 4)} /{card()}"
            if rnd.random() < 0.06 * rate:
                line += " " + rnd.choice(["!", "?", "!!", "?!", "!?", "$14"])
            r = rnd.random() / rate if rate else 1.0
            if r < 0.10:
                line += " {" + rnd.choice(REMARKS) + "}"
            elif r < 0.13:
                line += " ; " + rnd.choice(REMARKS)
            return line

        for n in range(1, turns + 1):
            if rnd.random() < 0.03 * rate:
                out.append("{" + rnd.choice(REMARKS) + "}\n")
            out.append(turn(n) + "\n")
            if rnd.random() < 0.03 * rate:
                alt = [turn(n + k, "") for k in range(rnd.randint(1, 3))]
                close = "\n  )" if ";" in alt[-1] else ")"  # a ; comment runs to the line's end
                out.append("  (" + "\n   ".join(alt) + close + "\n")
        for p in players:
            out.append(f"reveal {p} " + " ".join(card() for _ in range(7)) + "\n")
        out.append("result " + ", ".join(f"{p} {rnd.randint(0, 40)}" for p in players) + "\n\n")
    return "".join(out)


def count_turns(games) -> int:
    return sum(1 for game in games for _ in game.all_turns())


def time_arbo(text: str, repeat: int) -> tuple[int, list[float]]:
    _parser()  # build the parser first: its one-time cost is not parsing
    parse(text[: text.index("\n\n---\n") + 1])  # and let lark compile its lexers
    times = []
    turns = 0
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        games = parse(text, "bench.arb")
        times.append(time.perf_counter() - start)
        turns = count_turns(games)
        del games
    return turns, times


def make_pgn(games: int, plies: int, seed: int = 2026) -> str:
    import chess
    import chess.pgn

    rnd = random.Random(seed)
    out = []
    for g in range(games):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = f"Club night {g}"
        node = game
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rnd.choice(moves)
            board.push(move)
            node = node.add_variation(move)
        out.append(str(game))
    return "\n\n".join(out) + "\n"


def time_chess(pgn: str, repeat: int) -> tuple[int, list[float]]:
    import chess.pgn

    times = []
    plies = 0
    for _ in range(repeat):
        gc.collect()
        stream = io.StringIO(pgn)
        start = time.perf_counter()
        games = []
        while (game := chess.pgn.read_game(stream)) is not None:
            games.append(game)
        times.append(time.perf_counter() - start)
        plies = sum(sum(1 for _ in g.mainline_moves()) for g in games)
        del games
    return plies, times


def time_read_replay(players: int, games: int, repeat: int) -> tuple[int, float, int, float, float]:
    """CPU times of arbo's read_games + replay of ``games`` greedy games and of python-chess's
    read_game of as many chess games of as many plies, alternated round by round: (turns, best s,
    plies, best s, the median over the rounds of each round's ratio of turns/s over plies/s).
    CPU time, and a ratio within each round, because other work on a shared machine slows both
    sides of a round alike but not the rounds alike."""
    import chess.pgn

    from arbo_notation import api
    from arbo_notation.notation.writer import format_games
    from arbo_notation.play.simulate import simulate_games

    records = list(simulate_games(players, games, 2026, bots=("greedy",) * players))
    text = format_games(records)
    turns = sum(len(r.turns) for r in records)
    rnd = random.Random(2026)
    pgn = []
    for record in records:  # a chess game of as many plies for each arbo game
        pgn.append(make_pgn(1, len(record.turns), seed=rnd.randrange(10**9)))
    pgn_text = "\n\n".join(pgn)
    del records
    arbo_times, chess_times = [], []
    plies = 0
    for record in api.parse_games(format_games(list(simulate_games(players, 5, 1)))):  # warm: lazy imports
        api.replay(record)
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        for record in api.parse_games(text):
            api.replay(record)
        arbo_times.append(time.process_time() - start)
        gc.collect()
        stream = io.StringIO(pgn_text)
        start = time.process_time()
        plies = 0
        while (game := chess.pgn.read_game(stream)) is not None:
            plies += game.end().ply()
        chess_times.append(time.process_time() - start)
    ratios = [(turns / a) / (plies / c) for a, c in zip(arbo_times, chess_times, strict=False)]
    return turns, min(arbo_times), plies, min(chess_times), statistics.median(ratios)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--chess-games", type=int, default=300)
    ap.add_argument("--replay-games", type=int, default=200, help="greedy games for the read_games + replay rows")
    ap.add_argument("--replay-rounds", type=int, default=15, help="alternated rounds of the read_games + replay rows")
    args = ap.parse_args()

    text = make_records(args.games, args.turns)
    turns, times = time_arbo(text, args.repeat)
    best, median = min(times), statistics.median(times)
    rate = turns / best
    print(f"arbo, annotated records: {args.games} games, {turns} turns (variations included), {len(text) / 1e6:.1f} MB")
    print(
        f"arbo, annotated records: best {best:.3f} s, median {median:.3f} s -> {rate:,.0f} turns/s "
        f"(median {turns / median:,.0f} turns/s)"
    )
    plain = make_records(args.games, args.turns, annotated=False)
    plain_turns, plain_times = time_arbo(plain, args.repeat)
    print(
        f"arbo, plain records (no comments, glyphs or variations): {plain_turns} turns -> "
        f"{plain_turns / min(plain_times):,.0f} turns/s"
    )
    try:
        import chess  # noqa: F401 (only whether it is installed)
    except ImportError:
        print("python-chess is not installed: no comparison")
        return
    pgn = make_pgn(args.chess_games, 80)
    plies, ctimes = time_chess(pgn, max(2, args.repeat // 2))
    crate = plies / min(ctimes)
    print(f"python-chess: {args.chess_games} games, {plies} plies -> {crate:,.0f} plies/s")
    print(f"ratio: arbo parses {rate / crate:.2f}x as many turns per second as python-chess parses plies")
    print(f"TURNS/S {rate:.0f}")
    for players in (2, 4):
        turns, arbo_s, plies, chess_s, ratio = time_read_replay(players, args.replay_games, args.replay_rounds)
        print(
            f"read_games + replay, greedy {players}p: {args.replay_games} games, {turns} turns -> "
            f"{turns / arbo_s:,.0f} turns/s; python-chess read_game: {plies} plies -> {plies / chess_s:,.0f} "
            f"plies/s (best CPU times); ratio, the median of {args.replay_rounds} rounds: {ratio:.2f}"
        )


if __name__ == "__main__":
    main()
