"""The analysis engine as a player: each turn's draws, then its planting and discard, chosen on the
seat's view by the same judgements that ``arbo analyse`` makes of a recorded turn.

The bot knows what its seat's view holds: its own hand, the arboretums, the piles, the deck's
size, and the cards it saw the others take from the piles (``view.shown``); every other card it
cannot see may be in any other hand or the deck.
"""

from __future__ import annotations

import random

from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.deadline import SEARCH_SHARE, Deadline
from arbo_notation.analysis.search import Candidate, Judgement, Situation, judge_draws, judge_finish
from arbo_notation.analysis.turns import DEFAULT_BUDGET
from arbo_notation.bots.base import Bot, own_hand
from arbo_notation.bots.greedy_bot import lean_position
from arbo_notation.engine import greedy
from arbo_notation.engine.actions import Action, Discard, Draw, DrawAction, Plant, Skip
from arbo_notation.engine.cards import Card
from arbo_notation.engine.lean import FROM_DECK, Cards, coord_of
from arbo_notation.engine.position import Phase
from arbo_notation.engine.view import SeatView


def situation_of(view: SeatView) -> Situation:
    """What the seat of ``view`` (the player to move) knows of the table, as the search reads it:
    the cards it saw the others take from the piles are in their hands; every card it has not
    seen may be in any other hand that has room, or in the deck."""
    hand = own_hand(view)
    players = view.players
    others = [p for p in players if p != view.seat]
    arboretums = {p: view.arboretum(p) for p in players}
    piles = {p: view.discard_pile(p) for p in players}
    known = {p: view.hand(p).known for p in others}  # (sorted: the cards shown, its others hidden)
    seen = set(hand)
    for trees in arboretums.values():
        seen.update(trees.values())
    for pile in piles.values():
        seen.update(pile)
    for cards_held in known.values():
        seen.update(cards_held)
    cards = Cards(view.species)
    unseen = tuple(sorted({cards.card(code) for code in cards.all_codes()} - seen))
    rooms = dict.fromkeys(players, 0)
    rooms.update({p: view.hand(p).hidden for p in others})
    places = frozenset([p for p, room in rooms.items() if room] + ([None] if view.deck_size else []))
    return Situation(
        players=players,
        species=view.species,
        mover=view.current_player,
        hand=hand,
        arboretums=arboretums,
        piles=piles,
        known=known,
        unseen=Unseen(rooms, view.deck_size, unseen, dict.fromkeys(unseen, places)),
    )


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


def _chosen(judged: Judgement[Candidate], baseline: Candidate) -> Candidate:
    """The best candidate, unless it beats ``baseline`` by less than CONFIDENCE points or by
    less than SIGNIFICANCE standard errors (or ``baseline`` when time ran out before any
    candidate was valued, or before the baseline was)."""
    if baseline not in judged.values:
        return baseline
    best = judged.best()
    gain, error = judged.gain(best, baseline)
    if gain < CONFIDENCE or gain < SIGNIFICANCE * error:
        return baseline
    return best


class EngineBot(Bot):
    """Plays the analysis engine's best turn, ``budget`` sampled worlds per decision. The greedy
    bot's choice is always among the candidates, and kept unless another is clearly better.
    With ``move_time`` (seconds), each decision's search stops in time and answers with the
    worlds it played (the greedy bot's choice when none)."""

    name = "engine"

    def __init__(
        self, budget: int = DEFAULT_BUDGET, horizon: int | None = None, move_time: float | None = None
    ) -> None:
        self.budget = budget
        self.move_time = move_time
        self.horizon = HORIZON if horizon is None else horizon
        self._second: int | None = None  # the second draw planned with the first (a lean source)
        self._discard: Card | None = None  # the discard planned with the planting

    def _deadline(self) -> Deadline | None:
        # the greedy bot's choice is the answer when time runs out: it needs no value
        return None if self.move_time is None else Deadline(self.move_time * SEARCH_SHARE, values_played=False)

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        phase = view.phase
        if phase is Phase.DRAW:
            return self.choose_draw(view, rng)
        if phase is Phase.PLANT:
            return self.choose_plant(view, rng)
        return self.choose_discard(view)

    def choose_draw(self, view: SeatView, rng: random.Random) -> DrawAction:
        """The next draw: the first draw's search chooses both, the second kept for the next ask."""
        if view.draws_taken == 1:
            planned, self._second = self._second, None
            draw = _draw_from(view, planned)
            return draw if draw is not None else _greedy_draw(view)
        deadline = self._deadline()
        position, _ = lean_position(view)
        greedy_source = greedy.choose_source(position)
        if view.deck_size > self.horizon:
            return _draw_from(view, greedy_source) or Skip()
        baseline = (greedy_source, FROM_DECK if view.deck_size > 1 else None)
        judged = judge_draws(
            situation_of(view),
            baseline if baseline[1] is not None else None,
            self.budget,
            random.Random(rng.getrandbits(64)),
            FINALISTS,
            deadline,
        )
        if baseline in judged.values or not judged.values:  # none: time ran out before any
            first, second = _chosen(judged, baseline)
        else:
            first, second = judged.best()
        self._second = second
        return _draw_from(view, first) or Skip()

    def choose_plant(self, view: SeatView, rng: random.Random) -> Plant:
        """The planting; the discard chosen with it is kept for the next ask."""
        deadline = self._deadline()
        position, codes = lean_position(view)
        card, cell, discard = greedy.choose_finish(position)
        if view.deck_size > self.horizon:
            self._discard = codes.card(discard)
            return Plant(codes.card(card), coord_of(cell))
        cards = Cards(view.species)
        baseline = (cards.code(codes.card(card)), cell, cards.code(codes.card(discard)))
        judged = judge_finish(
            situation_of(view), baseline, self.budget, random.Random(rng.getrandbits(64)), FINALISTS, deadline
        )
        card, cell, discard = _chosen(judged, baseline)
        self._discard = cards.card(discard)
        return Plant(cards.card(card), coord_of(cell))

    def choose_discard(self, view: SeatView) -> Discard:
        """The discard planned with the planting (the lowest card when none is, or it is gone)."""
        discard, self._discard = self._discard, None
        hand = own_hand(view)
        return Discard(discard if discard is not None and discard in hand else min(hand))


def _draw_from(view: SeatView, source: int | None) -> DrawAction | None:
    """The draw from a lean ``source`` (FROM_DECK or a seat's pile) when it can be drawn from now;
    None for no source, or one that is empty."""
    if source == FROM_DECK:
        return Draw() if view.deck_size else None
    if source is None:
        return None
    owner = view.players[source]
    pile = view.discard_pile(owner)
    return Draw(owner, pile[-1]) if pile else None


def _greedy_draw(view: SeatView) -> DrawAction:
    return _draw_from(view, greedy.choose_source(lean_position(view)[0])) or Skip()
