"""One recorded turn judged whole: its draws, then its planting and discard, as one evaluation.

``loss`` adds what each of the turn's two decisions lost against the best candidate of that
decision (each judged from what the mover knew when making it); ``played_value`` is the
expected final margin of the turn as played, once its draws were seen; ``best_value`` is
``played_value + loss``. Glyphs follow the loss (docs/ANALYSIS.md): ``?!`` from
:data:`INACCURACY`, ``?`` from :data:`MISTAKE`, ``??`` from :data:`BLUNDER` points.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError
from arbo_notation.notation.model import DrawKind, Turn
from arbo_notation.engine.lean import FROM_DECK, Cards, cell_of, coord_of
from arbo_notation.analysis.search import Finish, Situation, Sources, canonical, judge_draws, judge_finish
from arbo_notation.analysis.policy import ranked_discards, ranked_plantings

#: Expected loss, in points of final margin, from which a turn is marked ?!, ? and ??.
INACCURACY = 1.5
MISTAKE = 3.0
BLUNDER = 6.0
#: Samples (sampled worlds) per decision when none is asked for: chosen by bench/bench_analyse.py.
DEFAULT_BUDGET = 48


def shown_loss(played_value: float, best_value: float) -> float:
    """The loss as shown: the difference of the values rounded to hundredths, so the figures shown
    add up (rounding the loss apart gave 0.52 for 0.65 - 0.12) and the glyph agrees with them."""
    return round(round(best_value, 2) - round(played_value, 2), 2)


def glyph_for(loss: float) -> str | None:
    if loss >= BLUNDER:
        return "??"
    if loss >= MISTAKE:
        return "?"
    if loss >= INACCURACY:
        return "?!"
    return None


@dataclass(frozen=True, slots=True)
class TurnEvaluation:
    """The judgement of one turn. Values are in points of the mover's expected final margin."""

    game: int
    turn: int
    player: str
    played: str  # the turn as played, in the notation (without the player's name)
    played_value: float
    best: str  # the best turn found, in the notation (the played one when nothing was better)
    best_value: float
    loss: float
    glyph: str | None
    samples: int
    exact: bool

    def to_json(self) -> dict[str, Any]:
        """The values rounded to hundredths, the loss as shown (:func:`shown_loss`)."""
        played, best = round(self.played_value, 2), round(self.best_value, 2)
        return {
            "game": self.game,
            "turn": self.turn,
            "player": self.player,
            "played": self.played,
            "played_value": played,
            "best": self.best,
            "best_value": best,
            "loss": shown_loss(self.played_value, self.best_value),
            "glyph": self.glyph,
            "samples": self.samples,
            "exact": self.exact,
        }


@dataclass(frozen=True, slots=True)
class TurnTask:
    """Everything one turn's judgement depends on: picklable, so turns can be judged apart."""

    game: int
    number: int
    situation: Situation
    turn: Turn
    budget: int
    seed: str


def moves_text(turn: Turn) -> str:
    """A turn's moves without the player: ``d d:Ca8 Ca8@1,0 /Wi2``."""
    return turn.notation().split(" ", 1)[1]


def _played_sources(situation: Situation, turn: Turn) -> Sources:
    found: list[int | None] = []
    for draw in turn.draws:
        if draw.kind is DrawKind.SKIP:
            found.append(None)
        elif draw.kind is DrawKind.DECK:
            found.append(FROM_DECK)
        else:
            found.append(situation.players.index(str(draw.owner)))
    return (found[0], found[1])


def _drawn_cards(situation: Situation, turn: Turn) -> list[tuple[str | None, Card]] | None:
    """The cards the turn drew, as its mover saw them; None when a deck draw is not named."""
    piles = {p: list(cards) for p, cards in situation.piles.items()}
    drawn: list[tuple[str | None, Card]] = []
    for draw in turn.draws:
        if draw.kind is DrawKind.SKIP:
            continue
        if draw.kind is DrawKind.DECK:
            if draw.card is None:
                return None
            drawn.append((None, draw.card))
        else:
            drawn.append((str(draw.owner), piles[str(draw.owner)].pop()))
    return drawn


def judge_turn(task: TurnTask) -> TurnEvaluation:
    """Judge one recorded turn from its mover's situation (seeded by the task alone)."""
    situation, turn = task.situation, task.turn
    cards = Cards(situation.species)
    played_pair = _played_sources(situation, turn)
    draws = judge_draws(situation, played_pair, task.budget, random.Random(f"{task.seed}/draws"))
    drawn = _drawn_cards(situation, turn)
    if drawn is None:
        raise ArboError("a deck draw of the turn does not name its card: the mover's hand is not known")
    after = situation.after_draws(drawn)
    played_finish: Finish = (cards.code(turn.plant.card), cell_of(turn.plant.coord), cards.code(turn.discard))
    finishes = judge_finish(after, played_finish, task.budget, random.Random(f"{task.seed}/finish"))
    best_pair = draws.best()
    draw_loss = draws.values[best_pair] - draws.values[played_pair]
    best_finish = finishes.best()
    finish_loss = finishes.values[best_finish] - finishes.values[played_finish]
    loss = max(0.0, draw_loss) + max(0.0, finish_loss)
    played_value = finishes.values[played_finish]
    if canonical(best_pair) == canonical(played_pair):
        best = _text(cards, situation, turn, None, best_finish)
    else:
        best = _text(cards, situation, turn, best_pair, None)
    if loss == 0:
        best = moves_text(turn)
    return TurnEvaluation(
        game=task.game,
        turn=task.number,
        player=situation.mover,
        played=moves_text(turn),
        played_value=played_value,
        best=best,
        best_value=played_value + loss,
        loss=loss,
        glyph=glyph_for(shown_loss(played_value, played_value + loss)),
        samples=max(draws.samples, finishes.samples),
        exact=draws.exact and finishes.exact,
    )


def _text(cards: Cards, situation: Situation, turn: Turn, pair: Sources | None, finish: Finish | None) -> str:
    """A whole turn in the notation: the played draws with ``finish``, or ``pair`` finished by
    the policy from the cards the mover would know (the hand and the piles' tops drawn)."""
    if pair is None:
        assert finish is not None
        draws = " ".join(str(d) for d in turn.draws)
        card, cell, discard = finish
        return f"{draws} {cards.card(card)}@{coord_of(cell)} /{cards.card(discard)}"
    position = situation.world(cards, random.Random(0))  # only the mover's seat and the piles are read
    seat = position.current
    hand = [cards.code(c) for c in situation.hand]
    words = []
    for source in pair:
        if source is None:
            words.append("-")
        elif source == FROM_DECK:
            words.append("d")
        else:
            top = position.piles[source].pop()
            hand.append(top)
            words.append(f"{situation.players[source]}:{cards.card(top)}")
    position.hands[seat] = hand
    _, card, cell = ranked_plantings(position, seat)[0]
    discard = ranked_discards(position, seat, card, cell)[0]
    return f"{' '.join(words)} {cards.card(card)}@{coord_of(cell)} /{cards.card(discard)}"
