"""The analysis engine as a player: each turn's draws, then its planting and discard, chosen by
the same judgements that ``arbo analyse`` makes of a recorded turn.

The bot sees what its seat sees: its own hand, the arboretums, the piles and the deck's size.
It treats every card it cannot see as possibly in any other hand or the deck (it does not
track which pile cards the others took: a bot is given the table, not the line of play).
"""

from __future__ import annotations

import random

from ..engine.bots import Bot, GreedyBot, TableView
from ..engine.cards import Card, Coord
from ..engine.state import DECK, DrawSource, DrawSourceKind, Game
from .lean import FROM_DECK, Cards, cell_of, coord_of
from .sampling import Unseen
from .search import Situation, judge_draws, judge_finish
from .turns import DEFAULT_BUDGET


def situation_of(view: TableView) -> Situation:
    """What the seat to move knows of the table, from its own view alone."""
    seen = set(view.hand)
    for arb in view.arboretums.values():
        seen.update(arb.values())
    for pile in view.discards.values():
        seen.update(pile)
    unseen = tuple(sorted(set(Cards(view.species).card(code) for code in Cards(view.species).all_codes()) - seen))
    others = len(unseen) - view.deck_size
    rooms = _rooms(view, others)
    places = frozenset([p for p, n in rooms.items() if n] + ([None] if view.deck_size else []))
    return Situation(
        players=view.players, species=view.species, mover=view.player, hand=view.hand,
        arboretums=view.arboretums, piles=view.discards, known={p: () for p in view.players if p != view.player},
        unseen=Unseen(rooms, view.deck_size, unseen, {card: places for card in unseen}),
    )


def _rooms(view: TableView, held: int) -> dict[str, int]:
    """How many unseen cards each hand holds: 7 each for the others between turns."""
    rooms = {p: 0 for p in view.players}
    others = [p for p in view.players if p != view.player]
    for index, player in enumerate(others):
        rooms[player] = held // len(others) + (1 if index < held % len(others) else 0)
    return rooms


#: Points of expected margin by which a candidate must beat the greedy bot's choice to be played
#: instead: below it, the difference is mostly the sampling's noise (the best of many noisy
#: values is biased upwards).
CONFIDENCE = 1.0


#: The bot searches once the deck holds at most this many cards, and plays the greedy bot's turn
#: before: the default searches every turn. bench/bench_bots.py --horizon measures smaller ones
#: (near the end the rollouts are short and sharp; early on the light rollout policy cannot
#: follow up the plans a planting starts): none did better (docs/ANALYSIS.md).
HORIZON = 1000


def _chosen(judged, baseline):
    """The best candidate, unless it beats ``baseline`` by less than CONFIDENCE."""
    best = judged.best()
    if judged.values[best] - judged.values[baseline] < CONFIDENCE:
        return baseline
    return best


class EngineBot(Bot):
    """Plays the analysis engine's best turn, ``budget`` sampled worlds per decision. The greedy
    bot's choice is always among the candidates, and kept unless another is clearly better."""

    name = "engine"

    def __init__(self, budget: int = DEFAULT_BUDGET, horizon: int | None = None) -> None:
        self.budget = budget
        self.horizon = HORIZON if horizon is None else horizon
        self._second: DrawSource | None = None
        self._discard: Card | None = None
        self._greedy = GreedyBot()

    def _source(self, view: TableView, source: int | None) -> DrawSource | None:
        if source is None:
            return None
        if source == FROM_DECK:
            return DECK
        return DrawSource(DrawSourceKind.DISCARD, view.players[source])

    def _code(self, view: TableView, source: DrawSource | None) -> int | None:
        if source is None:
            return None
        return FROM_DECK if source.kind is DrawSourceKind.DECK else view.players.index(str(source.owner))

    def choose_draw(self, game: Game, rng: random.Random) -> DrawSource | None:
        view = TableView.of(game)
        if view.draws_taken == 1 and self._second is not None:
            planned, self._second = self._second, None
            if planned in view.draw_sources():
                return planned
        if view.draws_taken == 1:
            return self._greedy.choose_draw(game, rng)
        greedy = self._greedy.choose_draw(game, rng)
        if view.deck_size > self.horizon:
            return greedy
        baseline = (self._code(view, greedy), FROM_DECK if view.deck_size > 1 else None)
        situation = situation_of(view)
        judged = judge_draws(situation, baseline if baseline[1] is not None else None, self.budget,
                             random.Random(rng.getrandbits(64)))
        first, second = _chosen(judged, baseline) if baseline in judged.values else judged.best()
        self._second = self._source(view, second)
        return self._source(view, first)

    def choose_plant(self, game: Game, rng: random.Random) -> tuple[Card, Coord]:
        view = TableView.of(game)
        cards = Cards(view.species)
        card, cell = self._greedy.choose_plant(game, rng)
        probe = game.copy()
        probe.plant(card, cell)
        discard = self._greedy.choose_discard(probe, rng)
        if view.deck_size > self.horizon:
            self._discard = discard
            return card, cell
        baseline = (cards.code(card), cell_of(cell), cards.code(discard))
        judged = judge_finish(situation_of(view), baseline, self.budget, random.Random(rng.getrandbits(64)))
        card, cell, discard = _chosen(judged, baseline)
        self._discard = cards.card(discard)
        return cards.card(card), coord_of(cell)

    def choose_discard(self, game: Game, rng: random.Random) -> Card:
        discard, self._discard = self._discard, None
        if discard is None or discard not in TableView.of(game).hand:
            return min(TableView.of(game).hand)
        return discard
