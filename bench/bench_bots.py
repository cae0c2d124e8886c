"""Benchmark: the bots' ladder, random < greedy < engine, as win rates with 95% intervals.

Targets (issue 20): at the default budget the engine wins at least 65% of two-player games
against greedy (a tie counts half), and at a four-player table of one engine seat and three
greedy ones it finishes first at least twice as often as a greedy seat does (so at least 40%
of the games, a greedy seat's share being a third of the rest).

The ladder starts with the rollouts' light player (analysis/policy.py) against greedy (the greedy
bot of engine/greedy.py plays a rollout's first round itself): how well the engine's rollouts
play the game out.

Two-player pairings alternate seats (odd games: the first bot starts); four-player tables move
the engine's seat round the table. Games are seeded ("bots:<pairing>:<i>"), so a run repeats.
Run ``PYTHONPATH=$PWD python bench/bench_bots.py --games 400 --budget 48 -j 2``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game

PLAYERS = ("Ana", "Ben", "Cleo", "Dev")


def winners(record) -> tuple[str, ...]:
    """The winners by the engine's own scoring (the species tie-break included)."""
    import arbo_notation as arbo

    tree = arbo.replay(arbo.parse_games(format_game(record))[0])
    return tree.sheet.winners


def two_player(args: tuple[str, str, int, int]) -> float:
    """The first bot's share of one game's win: 1, 0.5 for a shared win, 0."""
    first, second, index, budget = args
    seats = (first, second) if index % 2 else (second, first)
    record = simulate_game(PLAYERS[:2], f"bots:{first}-{second}:{index}", seats, budget=budget)
    won = winners(record)
    mine = PLAYERS[seats.index(first)]
    return (1.0 / len(won)) if mine in won else 0.0


class LeanPlayer:
    """A rollout player of the analysis (its decisions on the lean position) as a bot, to measure
    how well the rollouts play: the light player of policy.py, choosing on the seat's view."""

    def __init__(self, module) -> None:
        self.module = module
        self._discard = None

    def _position(self, view):
        from arbo_notation.engine.lean import Cards, LeanPosition, cell_of

        cards = Cards(view.species)
        seat = view.players.index(view.seat)
        hands = [[] for _ in view.players]  # the others' hands are never read
        hands[seat] = [cards.code(c) for c in view.hand(view.seat).known]
        return (
            cards,
            LeanPosition(
                hands,
                [0] * view.deck_size,
                [[cards.code(c) for c in view.discard_pile(p)] for p in view.players],
                [{cell_of(k): cards.code(v) for k, v in view.arboretum(p).items()} for p in view.players],
                seat,
            ),
        )

    def choose(self, view, rng):
        from arbo_notation.engine.actions import Discard, Draw, Plant, Skip
        from arbo_notation.engine.lean import FROM_DECK, coord_of
        from arbo_notation.engine.position import Phase

        cards, position = self._position(view)
        if view.phase is Phase.DRAW:
            source = self.module.choose_source(position)
            if source is None:
                return Skip()
            if source == FROM_DECK:
                return Draw()
            owner = view.players[source]
            return Draw(owner, view.discard_pile(owner)[-1])
        if view.phase is Phase.PLANT:
            card, cell, discard = self.module.choose_finish(position)
            self._discard = cards.card(discard)
            return Plant(cards.card(card), coord_of(cell))
        return Discard(self._discard)


def rollout_player(args: tuple[str, int]) -> float:
    """A rollout player's share of one two-player game's win against the greedy bot."""
    import random

    from arbo_notation.analysis import policy
    from arbo_notation.bots import GreedyBot, play_turn
    from arbo_notation.engine.cards import default_species_for
    from arbo_notation.engine.scoring import PlayerPosition, score_position
    from arbo_notation.engine.state import Game, GameConfig, Setup

    name, index = args
    config = GameConfig(PLAYERS[:2], default_species_for(2))
    game = Game(config, Setup.shuffled(config, f"bots:rollout-greedy:{index}"))
    mine = index % 2
    seats = [GreedyBot(), GreedyBot()]
    seats[mine] = LeanPlayer({"light": policy}[name])
    rng = random.Random(index)
    while not game.is_over:
        play_turn(seats[config.seat(game.current_player)], game, rng)
    hands = game.final_hands()
    sheet = score_position(config.species, [PlayerPosition(p, game.arboretum(p), hands[p]) for p in config.players])
    won = sheet.winners
    return (1.0 / len(won)) if config.players[mine] in won else 0.0


def four_player(args: tuple[int, int]) -> tuple[float, float]:
    """(the engine seat's share of the win, a greedy seat's mean share) of one game."""
    index, budget = args
    seat = index % 4
    bots = ["greedy"] * 4
    bots[seat] = "engine"
    record = simulate_game(PLAYERS, f"bots:table:{index}", bots, budget=budget)
    won = winners(record)
    engine = (1.0 / len(won)) if PLAYERS[seat] in won else 0.0
    return engine, (1.0 - engine) / 3


def interval(scores: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation on the per-game scores)."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per two-player pairing")
    parser.add_argument("--tables", type=int, default=None, help="four-player tables (default: games / 4)")
    parser.add_argument(
        "--first-table",
        type=int,
        default=1,
        help="the number of the first four-player table (to extend an earlier run with new tables)",
    )
    parser.add_argument(
        "--scores",
        type=Path,
        default=None,
        help="write each four-player table's engine score to this file, a line each (to pool runs)",
    )
    parser.add_argument("--budget", type=int, default=48, help="the engine's sampled worlds per decision")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--horizon", type=int, default=None, help="the engine searches from this deck size down")
    parser.add_argument("--only", choices=("rollouts", "random-greedy", "greedy-engine", "table"), action="append")
    parser.add_argument("--pile-link", type=float, default=None, help="the rollout policy's PILE_LINK (to compare)")
    parser.add_argument(
        "--greedy-rounds",
        type=int,
        default=None,
        help="rounds of each rollout the greedy bot plays, at every table size (policy.GREEDY_ROUNDS, to compare)",
    )
    args = parser.parse_args()
    if args.greedy_rounds is not None:
        import arbo_notation.analysis.policy as policy

        policy.GREEDY_ROUNDS = dict.fromkeys(policy.GREEDY_ROUNDS, args.greedy_rounds)
    if args.pile_link is not None:
        import arbo_notation.analysis.policy as policy

        policy.PILE_LINK = args.pile_link
    if args.horizon is not None:
        import arbo_notation.bots.engine_bot as bot

        bot.HORIZON = args.horizon
    wanted = args.only or ["rollouts", "random-greedy", "greedy-engine", "table"]
    tables = args.tables if args.tables is not None else max(4, args.games // 4)
    print(
        f"budget {args.budget}, {args.games} two-player games per pairing, {tables} four-player tables, -j {args.jobs}",
        flush=True,
    )
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        if "rollouts" in wanted:
            for name in ("light",):
                start = time.perf_counter()
                scores = list(pool.map(rollout_player, [(name, i) for i in range(1, args.games + 1)]))
                mean, lo, hi = interval(scores)
                print(
                    f"rollout player {name} against greedy, 2 players: {mean:.1%} (95% interval {lo:.1%} to "
                    f"{hi:.1%}) over {len(scores)} games, {time.perf_counter() - start:.0f} s",
                    flush=True,
                )
        for pairing in ("random-greedy", "greedy-engine"):
            if pairing not in wanted:
                continue
            low, high = pairing.split("-")
            start = time.perf_counter()
            scores = list(pool.map(two_player, [(high, low, i, args.budget) for i in range(1, args.games + 1)]))
            mean, lo, hi = interval(scores)
            print(
                f"{high} against {low}, 2 players: {high} scores {mean:.1%} (95% interval {lo:.1%} to {hi:.1%}) "
                f"over {len(scores)} games, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
        if "table" in wanted:
            start = time.perf_counter()
            numbers = range(args.first_table, args.first_table + tables)
            results = list(pool.map(four_player, [(i, args.budget) for i in numbers]))
            if args.scores is not None:
                args.scores.write_text(
                    "".join(f"{i} {r[0]!r}\n" for i, r in zip(numbers, results, strict=False)), encoding="utf-8"
                )
            engine = [r[0] for r in results]
            greedy = [r[1] for r in results]
            mean, lo, hi = interval(engine)
            g_mean = sum(greedy) / len(greedy)
            print(
                f"engine at a 4-player table with 3 greedy seats: first {mean:.1%} (95% interval {lo:.1%} to "
                f"{hi:.1%}), a greedy seat {g_mean:.1%}; ratio {mean / max(g_mean, 1e-9):.2f} over {tables} games "
                f"(tables {numbers[0]} to {numbers[-1]}), "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
