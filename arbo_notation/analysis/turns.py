"""One recorded turn judged whole: its draws, then its planting and discard, as one evaluation.

``loss`` adds what each of the turn's two decisions lost against the best candidate of that
decision (each judged from what the mover knew when making it); ``played_value`` is the
expected final margin of the turn as played, once its draws were seen; ``best_value`` is
``played_value + loss``. Glyphs follow the loss (docs/ANALYSIS.md): ``?!`` from
:data:`INACCURACY`, ``?`` from :data:`MISTAKE`, ``??`` from :data:`BLUNDER` points.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from arbo_notation.engine.actions import Draw
from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError
from arbo_notation.notation.model import Turn
from arbo_notation.engine.lean import FROM_DECK, Cards, cell_of, coord_of
from arbo_notation.analysis.endgame import canonical
from arbo_notation.analysis.deadline import SEARCH_SHARE, Deadline
from arbo_notation.analysis.search import (
    Finish,
    Judgement,
    Share,
    Situation,
    Sources,
    judge_draws,
    judge_finish,
)
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
    #: seconds the judgement may take (None: no limit): half for the draws, the rest for the
    #: finish (half each when judged in pieces, pieces.py); the worlds played by then are the
    #: values (docs/ANALYSIS.md, "The budget")
    move_time: float | None = None


def moves_text(turn: Turn) -> str:
    """A turn's moves without the player: ``d d:Ca8 Ca8@1,0 /Wi2``."""
    return turn.notation().split(" ", 1)[1]


def _played_sources(situation: Situation, turn: Turn) -> Sources:
    found: list[int | None] = []
    for draw in turn.draws:
        if not isinstance(draw, Draw):  # skipped
            found.append(None)
        elif draw.owner is None:
            found.append(FROM_DECK)
        else:
            found.append(situation.players.index(draw.owner))
    return (found[0], found[1])


def _drawn_cards(situation: Situation, turn: Turn) -> list[tuple[str | None, Card]] | None:
    """The cards the turn drew, as its mover saw them; None when a deck draw is not named."""
    piles = {p: list(cards) for p, cards in situation.piles.items()}
    drawn: list[tuple[str | None, Card]] = []
    for draw in turn.draws:
        if not isinstance(draw, Draw):  # skipped
            continue
        if draw.owner is None:
            if draw.card is None:
                return None
            drawn.append((None, draw.card))
        else:
            drawn.append((draw.owner, piles[draw.owner].pop()))
    return drawn


def judge_turn_draws(
    task: TurnTask, turn: Turn, deadline: Deadline | None, share: Share | None = None
) -> Judgement[Sources]:
    """``turn``'s pair of draws judged as a candidate in the task's worlds (the same for any turn
    of the task), with ``share`` only that share of the candidates (search.merge_shares)."""
    pair = _played_sources(task.situation, turn)
    return judge_draws(
        task.situation, pair, task.budget, random.Random(f"{task.seed}/draws"), deadline=deadline, share=share
    )


def judge_turn_finish(
    task: TurnTask, turn: Turn, deadline: Deadline | None, share: Share | None = None
) -> Judgement[Finish]:
    """``turn``'s finish judged as a candidate in the task's worlds once its draws are in hand, as
    :func:`judge_turn_draws` judges its draws."""
    after, finish = finish_of(task.situation, turn)
    return judge_finish(
        after, finish, task.budget, random.Random(f"{task.seed}/finish"), deadline=deadline, share=share
    )


def finish_of(situation: Situation, turn: Turn) -> tuple[Situation, Finish]:
    """The mover's situation once ``turn``'s draws are in hand, and the turn's finish."""
    cards = Cards(situation.species)
    drawn = _drawn_cards(situation, turn)
    if drawn is None:
        raise ArboError("a deck draw of the turn does not name its card: the mover's hand is not known")
    finish: Finish = (cards.code(turn.plant.card), cell_of(turn.plant.coord), cards.code(turn.discard))
    return situation.after_draws(drawn), finish


def _judgements(
    task: TurnTask, turn: Turn, draws: Judgement[Sources] | None = None
) -> tuple[Sources, Judgement[Sources], Finish, Judgement[Finish]]:
    """``turn``'s two decisions judged as candidates in the task's worlds (the same for any turn of
    the task): its pair of draws, their judgement (``draws`` when already made for that pair), its
    finish, the finish's judgement."""
    started = time.monotonic()
    if draws is None:
        deadline = None if task.move_time is None else Deadline(task.move_time * SEARCH_SHARE / 2)
        draws = judge_turn_draws(task, turn, deadline)
    left = None if task.move_time is None else Deadline(task.move_time * SEARCH_SHARE - (time.monotonic() - started))
    finishes = judge_turn_finish(task, turn, left)
    return _played_sources(task.situation, turn), draws, finish_of(task.situation, turn)[1], finishes


def judge_turn(task: TurnTask) -> TurnEvaluation:
    """Judge one recorded turn from its mover's situation (seeded by the task alone)."""
    played_pair, draws, played_finish, finishes = _judgements(task, task.turn)
    return _evaluation(task, played_pair, draws, played_finish, finishes)


def evaluation(task: TurnTask, draws: Judgement[Sources], finishes: Judgement[Finish]) -> TurnEvaluation:
    """The recorded turn's evaluation from the judgements of its draws and its finish, made apart
    (:func:`judge_turn_draws`, :func:`judge_turn_finish`): :func:`judge_turn`'s, to the bit."""
    played_pair = _played_sources(task.situation, task.turn)
    return _evaluation(task, played_pair, draws, finish_of(task.situation, task.turn)[1], finishes)


def _evaluation(
    task: TurnTask,
    played_pair: Sources,
    draws: Judgement[Sources],
    played_finish: Finish,
    finishes: Judgement[Finish],
) -> TurnEvaluation:
    """The recorded turn's evaluation from the judgements of its two decisions."""
    situation, turn = task.situation, task.turn
    cards = Cards(situation.species)
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


@dataclass(frozen=True, slots=True)
class TryJudgement:
    """A turn tried in place of a recorded one, judged beside it in the same sampled worlds.

    ``played`` is :func:`judge_turn`'s evaluation of the recorded turn, exactly; ``tried`` the
    tried turn's, its ``played`` being the tried turn and its loss measured against the best
    candidate of both judgements (docs/ANALYSIS.md, "What if")."""

    played: TurnEvaluation
    tried: TurnEvaluation

    @property
    def difference(self) -> float:
        """How much better the tried turn is (negative: worse), as the rounded values show it."""
        return round(round(self.tried.played_value, 2) - round(self.played.played_value, 2), 2)

    @property
    def better(self) -> str | None:
        """Which turn is better: "tried", "played", or None when they are worth the same."""
        if self.difference > 0:
            return "tried"
        if self.difference < 0:
            return "played"
        return None

    def lines(self) -> list[str]:
        """Both judgements in words, the better turn and the best found."""
        played, tried = self.played, self.tried
        how = "exact" if played.exact and tried.exact else f"{max(played.samples, tried.samples)} sampled worlds"
        width = max(len(played.played), len(tried.played))

        def line(label: str, evaluation: TurnEvaluation) -> str:
            glyph = f" {evaluation.glyph}" if evaluation.glyph else ""
            return f"  {label} {evaluation.played:<{width}}  {evaluation.played_value:+.2f}{glyph}"

        difference = self.difference
        if self.better is None:
            verdict = "both are worth the same"
        else:
            verdict = f"the {self.better} turn is {abs(difference):.2f} points better"
        return [
            f"turn {played.turn}, {played.player}: expected final margin ({how}, the same for both)",
            line("played", played),
            line("tried ", tried),
            f"  {verdict}; the best found: {tried.best} {tried.best_value:+.2f}",
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "played": self.played.to_json(),
            "tried": self.tried.to_json(),
            "difference": self.difference,
            "better": self.better,
        }


def judge_try(task: TurnTask, tried: Turn) -> TryJudgement:
    """Judge ``tried`` (its deck draws naming their cards) beside the task's recorded turn, from the
    same situation and seeds: each decision of the tried turn is one more candidate in the same
    worlds, so the recorded turn's evaluation is :func:`judge_turn`'s exactly.

    When both turns draw alike, the tried value is its finish's, in the same worlds as the played
    finish. When the draws differ the two finishes were made with different cards in hand, so the
    tried value is the played draws' best finish, plus what the tried draws gain on the played
    ones (each finished by the greedy bot, in the same worlds), less what the tried finish loses
    against the best finish of its own draws."""
    situation = task.situation
    if tried.player != situation.mover:
        raise ArboError(f"turn {task.number} is {situation.mover}'s, not {tried.player}'s")
    cards = Cards(situation.species)
    played_pair, draws, played_finish, finishes = _judgements(task, task.turn)
    played = _evaluation(task, played_pair, draws, played_finish, finishes)
    same_draws = canonical(_played_sources(situation, tried)) == canonical(played_pair)
    # the same draws are one judgement: only the tried finish is one more candidate
    tried_pair, tried_draws, tried_finish, tried_finishes = _judgements(task, tried, draws if same_draws else None)
    if same_draws:
        tried_pair = played_pair  # the same pair, perhaps written in the other order
    draw_values = {**draws.values, **tried_draws.values}
    best_pair = max(draw_values, key=lambda pair: draw_values[pair])
    own_finishes = {**tried_finishes.values, **(finishes.values if same_draws else {})}
    best_finish = max(own_finishes, key=lambda finish: own_finishes[finish])
    if same_draws:
        value = own_finishes[tried_finish]
    else:
        draw_gain = draw_values[tried_pair] - draw_values[played_pair]
        finish_loss = own_finishes[best_finish] - own_finishes[tried_finish]
        value = max(finishes.values.values()) + draw_gain - finish_loss
    loss = max(0.0, draw_values[best_pair] - draw_values[tried_pair]) + (
        own_finishes[best_finish] - own_finishes[tried_finish]
    )
    if canonical(best_pair) != canonical(tried_pair):
        best = _text(cards, situation, tried, best_pair, None)
    elif loss > 0:
        best = _text(cards, situation, tried, None, best_finish)
    else:
        best = moves_text(tried)
    evaluation = TurnEvaluation(
        game=task.game,
        turn=task.number,
        player=situation.mover,
        played=moves_text(tried),
        played_value=value,
        best=best,
        best_value=value + loss,
        loss=loss,
        glyph=glyph_for(shown_loss(value, value + loss)),
        samples=max(tried_draws.samples, tried_finishes.samples, played.samples),
        exact=played.exact and tried_draws.exact and tried_finishes.exact,
    )
    return TryJudgement(played, evaluation)
