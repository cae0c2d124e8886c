"""A game tree's main line judged turn by turn: ``analyse(tree)`` and the tasks it is made of.

A turn is judged when its mover's hand is known at the start of it (every turn of an omniscient
record, the recorder's turns of a seat record) and its deck draws name their cards. What the
mover knew comes from the knowledge model (``arbo_notation.knowledge``) when it is there, else
from the public facts of the line (every pile draw is public; the rest is unseen).
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from ..engine.cards import HAND_SIZE, Card
from ..notation.record import DrawKind
from ..tree import GameTree, Node
from .sampling import Unseen
from .search import Situation
from .turns import DEFAULT_BUDGET, TurnEvaluation, TurnTask, judge_turn


def _public_knowledge(node: Node, player: str) -> tuple[dict[str, tuple[Card, ...]], Unseen]:
    """What ``player`` knows at ``node`` from the line's public facts: the cards each other hand
    took from a pile and still holds, and the unseen cards (anywhere with room)."""
    chain = []
    at: Node | None = node
    while at is not None and at.turn is not None:
        chain.append(at)
        at = at.parent
    known: dict[str, list[Card]] = {p: [] for p in node.tree.record.header.players}
    for step in reversed(chain):
        turn = step.turn
        held = known[turn.player]
        piles = None
        for draw in turn.draws:
            if draw.kind is DrawKind.DISCARD:
                card = draw.card
                if card is None:  # not named: the top of the pile then, which everyone saw
                    piles = piles or {p: list(step.parent.position.discard_pile(p)) for p in known}
                    card = piles[str(draw.owner)][-1]
                if piles is not None:
                    piles[str(draw.owner)].pop()
                held.append(card)
        for card in (turn.plant.card, turn.discard):
            if card in held:
                held.remove(card)
    game = node.position
    seen = set(game.hand(player).known)
    for other in game.players:
        seen.update(game.arboretum(other).values())
        seen.update(game.discard_pile(other))
    others = {p: tuple(sorted(cards)) for p, cards in known.items() if p != player}
    for cards in others.values():
        seen.update(cards)
    unseen = tuple(sorted(set(game.config.cards) - seen))
    room = {p: (0 if p == player else HAND_SIZE - len(others[p])) for p in game.players}
    everywhere = frozenset([p for p in game.players if room[p]] + ([None] if game.deck_size else []))
    return others, Unseen(room, game.deck_size, unseen, {card: everywhere for card in unseen})


def _knowledge(node: Node, player: str) -> tuple[dict[str, tuple[Card, ...]], Unseen]:
    try:
        from ..knowledge import View, knowledge  # type: ignore[import-not-found]
    except ImportError:
        return _public_knowledge(node, player)
    seen = knowledge(node, View.of_seat(player))
    others = {p: tuple(hand.known) for p, hand in seen.hands.items() if p != player}
    return others, Unseen.from_knowledge(seen)


def situation_at(node: Node, player: str) -> Situation | None:
    """What ``player`` knows at ``node``, when they know their whole hand there (else None)."""
    game = node.position
    held = game.hand(player)
    if held.hidden:
        return None
    known, unseen = _knowledge(node, player)
    return Situation(
        players=game.players,
        species=game.config.species,
        mover=player,
        hand=held.known,
        arboretums={p: game.arboretum(p) for p in game.players},
        piles={p: game.discard_pile(p) for p in game.players},
        known=known,
        unseen=unseen,
    )


def analysable(tree: GameTree, *, players: Iterable[str] | None = None,
               turns: Iterable[int] | None = None) -> Iterator[tuple[Node, Situation]]:
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


def tasks(tree: GameTree, *, budget: int = DEFAULT_BUDGET, seed: int | str = 0,
          players: Iterable[str] | None = None, turns: Iterable[int] | None = None) -> list[tuple[Node, TurnTask]]:
    """The judgements the analysis of a tree is made of, each seeded on its own."""
    game = tree.record.index
    found = []
    for node, situation in analysable(tree, players=players, turns=turns):
        task = TurnTask(game, node.number, situation, node.turn, budget, f"{seed}/{game}/{node.number}")
        found.append((node, task))
    return found


def analyse(tree: GameTree, *, budget: int = DEFAULT_BUDGET, seed: int | str = 0,
            players: Iterable[str] | None = None, turns: Iterable[int] | None = None,
            map_tasks: Callable = map) -> dict[Node, TurnEvaluation]:
    """Judge every turn of the main line that can be judged: per node, its evaluation.

    ``map_tasks`` runs the judgements (``map``; a process pool's ``map`` gives the same result,
    each judgement being seeded by its own task).
    """
    found = tasks(tree, budget=budget, seed=seed, players=players, turns=turns)
    results = list(map_tasks(judge_turn, [task for _, task in found]))
    return {node: result for (node, _), result in zip(found, results)}
