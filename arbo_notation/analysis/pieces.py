"""A line's turns judged in pieces a pool shares out: each decision's candidates dealt into shares.

A turn is two decisions (its draws, its finish), judged apart in worlds of their own seeds. One
turn near the end of a four-player game took half the analysis's time, and a pool dealing whole
turns waited for it, so a dear decision is cut into shares of its candidates (search.Share),
each share valued in every world of the decision, dealt from the decision's seed in every piece.
The pieces go to the workers dearest first (longest processing time first: no worker idles at
the end while another ends a long piece), and each decision's shares are merged in their order
(search.merge_shares): every evaluation is :func:`~arbo_notation.analysis.turns.judge_turn`'s
to the bit, however many workers and pieces (docs/ANALYSIS.md, "Seeds and workers").
"""

from __future__ import annotations

import enum
import math
import random
from dataclasses import dataclass
from typing import Any, Sequence

from arbo_notation.analysis.deadline import SEARCH_SHARE, Deadline
from arbo_notation.analysis.endgame import near_end
from arbo_notation.analysis.search import Judgement, Share, draw_candidates, finish_candidates, merge_shares
from arbo_notation.analysis.turns import (
    TurnEvaluation,
    TurnTask,
    evaluation,
    finish_of,
    judge_turn_draws,
    judge_turn_finish,
)
from arbo_notation.engine.lean import Cards

#: Pieces a worker gets on average: the last piece to end keeps the others waiting at most its
#: own length, about 1/(2 * PIECES_PER_WORKER) of the run on two workers (each piece deals the
#: decision's worlds and finds its candidates again: a few milliseconds).
PIECES_PER_WORKER = 6
#: A candidate's cost in a world, against one far from the end: near it, the rollouts end
#: exactly (11-15 ms against 2.6 in samples/four-players.arb); with the deck empty, the finishes
#: are scored from one table (about 1 ms).
NEAR_END_COST = 5.0
EMPTY_DECK_COST = 0.4


class Decision(enum.Enum):
    DRAWS = "draws"
    FINISH = "finish"


@dataclass(frozen=True, slots=True)
class Piece:
    """A share of one decision of the turn ``index`` of a list of tasks: picklable, judged alone."""

    index: int
    task: TurnTask
    decision: Decision
    part: int
    parts: int
    #: the share's estimated cost (candidates times worlds, weighted): the dearest go first
    cost: float

    @property
    def share(self) -> Share:
        return (self.part, self.parts)


def estimate(task: TurnTask, decision: Decision) -> tuple[float, int]:
    """A decision's estimated cost and its number of candidates, from one world dealt apart (the
    judgement's own worlds are dealt from its seed, in the pieces)."""
    situation = task.situation
    if decision is Decision.FINISH:
        situation, finish = finish_of(situation, task.turn)
        if situation.unseen.unique() is not None and situation.unseen.deck_size == 0:
            return EMPTY_DECK_COST, 1  # the game ends in the one world: one table, judged whole
    cards = Cards(situation.species)
    world = situation.world(cards, random.Random(0))
    if decision is Decision.DRAWS:
        count = len(draw_candidates(world, None))
    else:
        count = len(finish_candidates(world, finish))
    weight = EMPTY_DECK_COST if not world.deck else NEAR_END_COST if near_end(world) else 1.0
    return count * task.budget * weight, count


def pieces(tasks: Sequence[TurnTask], workers: int) -> list[Piece]:
    """The pieces of the tasks' judgements, dearest first: for one worker, a piece per decision;
    for more, a decision cut into as many shares as its cost holds ``PIECES_PER_WORKER`` times a
    worker's fair part (at most one a candidate)."""
    decisions = [(index, task, decision) for index, task in enumerate(tasks) for decision in Decision]
    estimates = [estimate(task, decision) for _, task, decision in decisions]
    total = sum(cost for cost, _ in estimates)
    target = total / (workers * PIECES_PER_WORKER) if workers > 1 and total > 0 else math.inf
    found = []
    for (index, task, decision), (cost, count) in zip(decisions, estimates, strict=True):
        parts = max(1, min(count, math.ceil(cost / target)))
        found += [Piece(index, task, decision, part, parts, cost / parts) for part in range(parts)]
    return sorted(found, key=lambda piece: -piece.cost)  # stable: equals in the line's order


def judge_piece(piece: Piece) -> Judgement[Any]:
    """The judgement of a piece's share of its decision. With a time limit per move, each share
    has its part of the decision's time (half the search's share of the move), so a turn's pieces
    take no more than the limit, one after the other or side by side."""
    task = piece.task
    seconds = None if task.move_time is None else task.move_time * SEARCH_SHARE / 2 / piece.parts
    deadline = None if seconds is None else Deadline(seconds)
    if piece.decision is Decision.DRAWS:
        return judge_turn_draws(task, task.turn, deadline, piece.share)
    return judge_turn_finish(task, task.turn, deadline, piece.share)


def merged_evaluations(
    tasks: Sequence[TurnTask], judged_pieces: Sequence[Piece], judgements: Sequence[Judgement[Any]]
) -> list[TurnEvaluation]:
    """Each task's evaluation, in the tasks' order, from its pieces' judgements (in any order)."""
    shares: dict[tuple[int, Decision], dict[int, Judgement[Any]]] = {}
    for piece, judgement in zip(judged_pieces, judgements, strict=True):
        shares.setdefault((piece.index, piece.decision), {})[piece.part] = judgement
    found = []
    for index, task in enumerate(tasks):
        draws, finish = (shares[index, decision] for decision in Decision)
        found.append(
            evaluation(
                task,
                merge_shares([draws[part] for part in sorted(draws)]),
                merge_shares([finish[part] for part in sorted(finish)]),
            )
        )
    return found


__all__ = ["Decision", "Piece", "estimate", "judge_piece", "merged_evaluations", "pieces"]
