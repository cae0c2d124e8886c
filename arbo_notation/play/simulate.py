"""Simulated games: bots play seeded deals to the end, and each game becomes an omniscient record.

The record knows everything: the header gives the deck after the deal (top first), every dealt
hand and, in the house variant, the face-up discards; every draw names its card; every hand is
revealed at the end and the result is the engine's scoring. The same seed gives the same record.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator, Sequence, TypedDict, TypeVar, overload

from arbo_notation.bots import Bot, make_bot, play_turn
from arbo_notation.engine.cards import default_species_for
from arbo_notation.engine.scoring import score_position
from arbo_notation.engine.totals import PlayerPosition
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.errors import ArboError
from arbo_notation.notation.model import GameRecord, Header, Result, Reveal, Turn
from arbo_notation.runtime.workers import in_order, jobs_for, worker_pool

#: Seat names of simulated games, in seat order.
DEFAULT_PLAYERS = ("Ana", "Ben", "Cleo", "Dev")


def default_players(count: int) -> tuple[str, ...]:
    if not 2 <= count <= 4:
        raise ArboError(f"a game has 2 to 4 players, not {count}")
    return DEFAULT_PLAYERS[:count]


def _bots(names: Sequence[str] | None, seats: int, budget: int | None = None) -> list[Bot]:
    names = list(names) if names else ["greedy"]
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise ArboError(f"{len(names)} bots for {seats} players: give one bot, or one per seat")
    return [make_bot(name, budget) for name in names]


def simulate_game(
    players: Sequence[str],
    seed: int | str,
    bots: Sequence[str] | None = None,
    *,
    house_discards: bool = False,
    event: str | None = None,
    site: str | None = None,
    date: str | None = None,
    budget: int | None = None,
) -> GameRecord:
    """Deal with ``seed``, let the bots (one name for all seats, or one per seat) play to the end,
    and return the omniscient record of the game."""
    config = GameConfig(tuple(players), default_species_for(len(players)))
    setup = Setup.shuffled(config, seed, house_discards=house_discards)
    game = Game(config, setup)
    seated = _bots(bots, len(config.players), budget)
    rng = random.Random(f"{seed}/bots")
    turns: list[Turn] = []
    while not game.is_over:
        bot = seated[config.seat(game.current_player)]
        turns.append(Turn.of(play_turn(bot, game, rng)))  # chosen on the seat's view
    hands = game.final_hands()
    table = [PlayerPosition(p, game.arboretum(p), hands[p]) for p in config.players]
    sheet = score_position(config.species, table)
    header = Header(
        players=config.players,
        species=config.species,
        event=event,
        site=site,
        date=date,
        deck=setup.deck,
        hands={p: tuple(sorted(setup.hands[p])) for p in config.players},
        discards={p: tuple(cards) for p, cards in setup.discards.items()},
    )
    return GameRecord(
        header=header,
        turns=tuple(turns),
        reveals=tuple(Reveal(p, hands[p]) for p in config.players),
        result=Result(scores=tuple((p.name, p.total) for p in sheet.players)),
    )


def game_seed(seed: int | str, index: int) -> str:
    """The seed of the ``index``-th game (1-based) of a run seeded with ``seed``."""
    return f"{seed}:{index}"


def simulate_games(
    n_players: int,
    games: int,
    seed: int | str,
    bots: Sequence[str] | None = None,
    *,
    house_discards: bool = False,
    event: str | None = None,
    players: Sequence[str] | None = None,
    first: int = 1,
    budget: int | None = None,
) -> Iterator[GameRecord]:
    """Simulated games ``first`` to ``games``; game i (1-based) is dealt with :func:`game_seed`
    (seed, i)."""
    names = tuple(players) if players is not None else default_players(n_players)
    if len(names) != n_players:
        raise ArboError(f"{len(names)} player names for {n_players} players")
    bot_names = list(bots) if bots else None
    _bots(bot_names, n_players)  # fail early on a bad bot list
    for index in range(first, games + 1):
        record = simulate_game(
            names, game_seed(seed, index), bot_names, house_discards=house_discards, event=event, budget=budget
        )
        yield GameRecord(
            header=record.header,
            turns=record.turns,
            comments=record.comments,
            reveals=record.reveals,
            result=record.result,
            index=index,
        )


# -- a run shared out among worker processes ------------------------------------------------------

#: Games a worker plays in one go: a fraction of a second of work, so that the results come back
#: in order without long waits, and few enough that a run of a few games still uses every core.
GAMES_PER_SPAN = 8


def _identity(record: GameRecord) -> GameRecord:
    return record


class _Run(TypedDict):
    """A run's arguments of simulate_games, but which games (sent to each worker)."""

    n_players: int
    seed: int | str
    bots: Sequence[str] | None
    house_discards: bool
    event: str | None
    players: Sequence[str] | None
    budget: int | None


#: What a run makes of each game (``then``'s result).
Made = TypeVar("Made")

#: One span of a run for a worker: its first and last game, what to make of each, the run.
_Span = tuple[int, int, Callable[[GameRecord], Made], _Run]


def _play_span(task: _Span[Made]) -> list[Made]:
    """What ``then`` makes of each game of one span of a run (in a worker process)."""
    first, last, then, run = task
    return [then(record) for record in simulate_games(games=last, first=first, **run)]


@overload
def simulate_run(
    n_players: int,
    games: int,
    seed: int | str,
    bots: Sequence[str] | None = None,
    *,
    house_discards: bool = False,
    event: str | None = None,
    players: Sequence[str] | None = None,
    jobs: int = 1,
    budget: int | None = None,
    scheduler: str | None = None,
) -> Iterator[GameRecord]: ...
@overload
def simulate_run(
    n_players: int,
    games: int,
    seed: int | str,
    bots: Sequence[str] | None = None,
    *,
    house_discards: bool = False,
    event: str | None = None,
    players: Sequence[str] | None = None,
    jobs: int = 1,
    then: Callable[[GameRecord], Made],
    budget: int | None = None,
    scheduler: str | None = None,
) -> Iterator[Made]: ...
def simulate_run(
    n_players: int,
    games: int,
    seed: int | str,
    bots: Sequence[str] | None = None,
    *,
    house_discards: bool = False,
    event: str | None = None,
    players: Sequence[str] | None = None,
    jobs: int = 1,
    then: Callable[[GameRecord], object] = _identity,
    budget: int | None = None,
    scheduler: str | None = None,
) -> Iterator[object]:
    """``then(record)`` of each game that simulate_games gives, in order: the same games whatever
    ``jobs``, the worker processes that play them (1: this process plays them). ``then`` runs
    where the game is played, so it must be a function a worker can be sent (a module's own, or a
    functools.partial of one); at most a few spans per worker are in flight at a time. With
    ``scheduler`` (a Dask scheduler's address) the workers of that cluster play them."""
    run = _Run(
        n_players=n_players,
        seed=seed,
        bots=bots,
        house_discards=house_discards,
        event=event,
        players=players,
        budget=budget,
    )
    list(simulate_games(games=0, **run))  # fail early on bad names or bots
    tasks: Iterator[_Span[object]] = (
        (first, min(first + GAMES_PER_SPAN - 1, games), then, run) for first in range(1, games + 1, GAMES_PER_SPAN)
    )
    if scheduler is not None:
        # deferred: Dask's distributed (~0.9 s, an optional extra) loads only for --scheduler
        from arbo_notation.runtime.cluster import on_cluster

        for span in on_cluster(scheduler, _play_span, tasks, "simulation"):
            yield from span
        return
    if jobs <= 1 or games <= GAMES_PER_SPAN:
        for record in simulate_games(games=games, **run):
            yield then(record)
        return
    with worker_pool(jobs, "simulation") as pool:
        for span in in_order(pool, _play_span, tasks, jobs * 3):
            yield from span


def simulate_jobs(games: int, jobs: int = 0) -> int:
    """The worker processes for a run of ``games`` (``jobs`` 0: every core this process may use),
    never more than the cores, nor than there are spans of games to share out."""

    return jobs_for(jobs, -(-games // GAMES_PER_SPAN))
