"""A game tree's main line judged turn by turn: ``analyse(tree)`` and the tasks it is made of.

A turn is judged when its mover's hand is known at the start of it (every turn of an omniscient
record, the recorder's turns of a seat record) and its deck draws name their cards. What the
mover knew comes from the knowledge model (``arbo_notation.game.knowledge``) of the mover's seat.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from arbo_notation.game.knowledge import View, knowledge
from arbo_notation.notation.model import DrawKind
from arbo_notation.game.tree import GameTree, Node
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.search import Situation
from arbo_notation.analysis.turns import DEFAULT_BUDGET, TurnEvaluation, TurnTask, judge_turn


def situation_at(node: Node, player: str) -> Situation | None:
    """What ``player`` knows at ``node``, when they know their whole hand there (else None)."""
    seen = knowledge(node, View.of_seat(player))
    own = seen.hands[player]
    if own.unknown:
        return None
    game = node.position
    return Situation(
        players=game.players,
        species=game.config.species,
        mover=player,
        hand=tuple(own.known),
        arboretums={p: game.arboretum(p) for p in game.players},
        piles={p: game.discard_pile(p) for p in game.players},
        known={p: tuple(hand.known) for p, hand in seen.hands.items() if p != player},
        unseen=Unseen.from_knowledge(seen),
    )


def analysable(
    tree: GameTree, *, players: Iterable[str] | None = None, turns: Iterable[int] | None = None
) -> Iterator[tuple[Node, Situation]]:
    """The main line's nodes whose turn can be judged, with the mover's situation before it."""
    wanted_players = set(players) if players is not None else None
    wanted_turns = set(turns) if turns is not None else None
    for node in tree.mainline():
        turn = node.turn
        if turn is None or node.parent is None:
            continue
        if wanted_players is not None and turn.player not in wanted_players:
            continue
        if wanted_turns is not None and node.number not in wanted_turns:
            continue
        if any(d.kind is DrawKind.DECK and d.card is None for d in turn.draws):
            continue
        situation = situation_at(node.parent, turn.player)
        if situation is not None:
            yield node, situation


def tasks(
    tree: GameTree,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    players: Iterable[str] | None = None,
    turns: Iterable[int] | None = None,
) -> list[tuple[Node, TurnTask]]:
    """The judgements the analysis of a tree is made of, each seeded on its own."""
    game = tree.record.index
    found = []
    for node, situation in analysable(tree, players=players, turns=turns):
        turn = node.turn
        assert turn is not None, "analysable yields nodes after a turn"
        task = TurnTask(game, node.number, situation, turn, budget, f"{seed}/{game}/{node.number}")
        found.append((node, task))
    return found


def analyse(
    tree: GameTree,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    players: Iterable[str] | None = None,
    turns: Iterable[int] | None = None,
    map_tasks: Callable = map,
) -> dict[Node, TurnEvaluation]:
    """Judge every turn of the main line that can be judged: per node, its evaluation.

    ``map_tasks`` runs the judgements (``map``; a process pool's ``map`` gives the same result,
    each judgement being seeded by its own task).
    """
    found = tasks(tree, budget=budget, seed=seed, players=players, turns=turns)
    results = list(map_tasks(judge_turn, [task for _, task in found]))
    return {node: result for (node, _), result in zip(found, results, strict=False)}
