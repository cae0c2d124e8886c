"""The analysis engine as a player: each turn's draws, then its planting and discard, chosen by
the same judgements that ``arbo analyse`` makes of a recorded turn.

The bot knows what its seat knows: its own hand, the arboretums, the piles, the deck's size,
and the cards it saw the others take from the piles (told of every turn by ``Bot.watch``); every
other card it cannot see may be in any other hand or the deck.
"""

from __future__ import annotations

import random
from typing import Mapping, Sequence

from arbo_notation.engine.actions import Action, Discard, Plant
from arbo_notation.engine.bots import Bot, GreedyBot, TableView, draw_from, source_of
from arbo_notation.engine.cards import HAND_SIZE, Card, Coord
from arbo_notation.engine.state import DECK, DrawSource, DrawSourceKind, Game, Phase
from arbo_notation.engine.lean import FROM_DECK, Cards, cell_of, coord_of
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.search import Situation, judge_draws, judge_finish
from arbo_notation.analysis.turns import DEFAULT_BUDGET


def situation_of(view: TableView, watch: "PileWatch | None" = None) -> Situation:
    """What the seat to move knows of the table: its own view, and what ``watch`` saw the
    others take from the piles. A taken card still out of sight is in its taker's hand, or,
    when the taker was not seen, in one of the other hands (not the deck)."""
    cards = Cards(view.species)
    seen = set(view.hand)
    for arb in view.arboretums.values():
        seen.update(arb.values())
    for pile in view.discards.values():
        seen.update(pile)
    others = [p for p in view.players if p != view.player]
    known = {p: tuple(sorted(watch.held.get(p, set()) - seen)) if watch else () for p in others}
    somewhere = (watch.somewhere - seen) if watch else set()
    if len(others) == 1:
        known[others[0]] = tuple(sorted(set(known[others[0]]) | somewhere))
        somewhere = set()
    for cards_held in known.values():
        seen.update(cards_held)
    unseen = tuple(sorted(set(cards.card(code) for code in cards.all_codes()) - seen))
    rooms = {p: 0 for p in view.players}
    rooms.update({p: HAND_SIZE - len(known[p]) for p in others})
    places = frozenset([p for p, n in rooms.items() if n] + ([None] if view.deck_size else []))
    in_hands = frozenset(p for p, n in rooms.items() if n)
    return Situation(
        players=view.players,
        species=view.species,
        mover=view.player,
        hand=view.hand,
        arboretums=view.arboretums,
        piles=view.discards,
        known=known,
        unseen=Unseen(
            rooms, view.deck_size, unseen, {card: (in_hands if card in somewhere else places) for card in unseen}
        ),
    )


class PileWatch:
    """What a seat saw of the piles: the cards the others took from them, and who took them.

    Piles change only at the top, so a card of a pile at the last look that is gone from its
    place now was taken (it may have been planted or discarded since: then it is in sight
    again). Looked at after every turn (:meth:`EngineBot.watch`), each card's taker is the
    player who moved; looked at only at the seat's own turns, the taker is one of the others.
    Public facts only: every player sees the piles.
    """

    def __init__(self) -> None:
        self.held: dict[str, set[Card]] = {}
        self.somewhere: set[Card] = set()
        self._piles: dict[str, tuple[Card, ...]] | None = None
        self._planted = 0

    def look(self, piles: Mapping[str, Sequence[Card]], planted: int, mover: str | None = None) -> None:
        """Compare ``piles`` (bottom first) with the last look; ``planted``, the trees on the
        table, tells a new game; ``mover``, the one player who moved since, when known."""
        if self._piles is None or planted < self._planted:  # a new game
            self.held.clear()
            self.somewhere.clear()
        else:
            for player, now in piles.items():
                before = self._piles.get(player, ())
                same = 0
                while same < min(len(before), len(now)) and before[same] == now[same]:
                    same += 1
                gone = before[same:]
                if mover is None:
                    self.somewhere.update(gone)
                else:
                    self.held.setdefault(mover, set()).update(gone)
                    self.somewhere.difference_update(gone)
        self._piles, self._planted = {p: tuple(c) for p, c in piles.items()}, planted

    def look_at(self, view: TableView, mover: str | None = None) -> None:
        self.look(view.discards, sum(len(arb) for arb in view.arboretums.values()), mover)


#: Points of expected margin by which a candidate must beat the greedy bot's choice to be played
#: instead: below it, the difference is mostly the sampling's noise (the best of many noisy
#: values is biased upwards).
CONFIDENCE = 1.0
#: And by how many standard errors of that gain, measured world by world: a gain the sampled
#: worlds disagree about is noise, whatever its size.
SIGNIFICANCE = 2.0


#: The bot searches once the deck holds at most this many cards, and plays the greedy bot's turn
#: before: the default searches every turn. bench/bench_bots.py --horizon measures smaller ones
#: (near the end the rollouts are short and sharp; early on the light rollout policy cannot
#: follow up the plans a planting starts): none did better (docs/ANALYSIS.md).
HORIZON = 1000

#: Candidates of a decision that go on from the first quarter of the worlds to all of them
#: (search.judge_draws and judge_finish); the greedy bot's choice always goes on.
FINALISTS = 3


def _chosen(judged, baseline):
    """The best candidate, unless it beats ``baseline`` by less than CONFIDENCE points or by
    less than SIGNIFICANCE standard errors."""
    best = judged.best()
    gain, error = judged.gain(best, baseline)
    if gain < CONFIDENCE or gain < SIGNIFICANCE * error:
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
        self._watch = PileWatch()
        self._watched: int | None = None  # the turn number of the last watch(), if any

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

    def choose(self, game: Game, rng: random.Random) -> Action:
        phase = game.phase
        if phase is Phase.DRAW:
            return draw_from(game, self.choose_draw(game, rng))
        if phase is Phase.PLANT:
            return Plant(*self.choose_plant(game, rng))
        return Discard(self.choose_discard(game, rng))

    def choose_draw(self, game: Game, rng: random.Random) -> DrawSource | None:
        view = TableView.of(game)
        if view.draws_taken == 1 and self._second is not None:
            planned, self._second = self._second, None
            if planned in view.draw_sources():
                return planned
        if view.draws_taken == 1:
            return source_of(self._greedy.draw(game))
        if self._watched != game.turn_number:  # not told of the last turn: look now
            self._watch.look_at(view)
        greedy = source_of(self._greedy.draw(game))
        if view.deck_size > self.horizon:
            return greedy
        baseline = (self._code(view, greedy), FROM_DECK if view.deck_size > 1 else None)
        situation = situation_of(view, self._watch)
        judged = judge_draws(
            situation,
            baseline if baseline[1] is not None else None,
            self.budget,
            random.Random(rng.getrandbits(64)),
            FINALISTS,
        )
        first, second = _chosen(judged, baseline) if baseline in judged.values else judged.best()
        self._second = self._source(view, second)
        return self._source(view, first)

    def choose_plant(self, game: Game, rng: random.Random) -> tuple[Card, Coord]:
        view = TableView.of(game)
        cards = Cards(view.species)
        planted = self._greedy.plant(game)
        card, cell = planted.card, planted.coord
        probe = game.copy()
        probe.plant(card, cell)
        discard = self._greedy.discard(probe).card
        if view.deck_size > self.horizon:
            self._discard = discard
            return card, cell
        baseline = (cards.code(card), cell_of(cell), cards.code(discard))
        judged = judge_finish(
            situation_of(view, self._watch), baseline, self.budget, random.Random(rng.getrandbits(64)), FINALISTS
        )
        card, cell, discard = _chosen(judged, baseline)
        self._discard = cards.card(discard)
        return cards.card(card), coord_of(cell)

    def choose_discard(self, game: Game, rng: random.Random) -> Card:
        discard, self._discard = self._discard, None
        view = TableView.of(game)
        if discard is None or discard not in view.hand:
            discard = min(view.hand)
        # The piles as this seat leaves them: what is gone at its next look, the others took.
        after = dict(view.discards)
        after[view.player] = (*after[view.player], discard)
        self._watch.look(after, sum(len(arb) for arb in view.arboretums.values()), view.player)
        return discard

    def watch(self, game: Game, mover: str) -> None:
        """Told after every turn: the piles as ``mover`` left them (public)."""
        self._watch.look(
            {p: game.discard_pile(p) for p in game.players}, sum(len(game.arboretum(p)) for p in game.players), mover
        )
        self._watched = game.turn_number
