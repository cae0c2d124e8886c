"""A game tree's main line judged turn by turn: ``analyse(tree)`` and the tasks it is made of.

A turn is judged when its mover's hand is known at the start of it (every turn of an omniscient
record, the recorder's turns of a seat record) and its deck draws name their cards. What the
mover knew comes from the knowledge model (``arbo_notation.game.knowledge``) of the mover's seat.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Callable, Iterable, Iterator, Sequence, TypedDict

from arbo_notation.engine.actions import Draw, DrawAction, TurnActions, parse_turn_text
from arbo_notation.errors import ArboError
from arbo_notation.game.knowledge import Hypothesis, View, knowledge, suppose
from arbo_notation.notation.engine_notes import EngineNote
from arbo_notation.notation.model import GameRecord, Turn, Variation
from arbo_notation.game.replay import LinePath
from arbo_notation.game.tree import GameTree, Node
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.search import Situation
from arbo_notation.analysis.turns import DEFAULT_BUDGET, TryJudgement, TurnEvaluation, TurnTask, judge_try, judge_turn


def situation_at(node: Node, player: str, hypotheses: Sequence[Hypothesis] = ()) -> Situation | None:
    """What ``player`` knows at ``node``, when they know their whole hand there (else None); with
    ``hypotheses`` supposed true (:func:`~arbo_notation.game.knowledge.suppose`: ArboError for one
    the player knows false), so every world deals each supposed card to its hand."""
    seen = suppose(knowledge(node, View.of_seat(player)), hypotheses)
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
        if any(_unnamed_deck_draw(d) for d in turn.draws):
            continue
        situation = situation_at(node.parent, turn.player)
        if situation is not None:
            yield node, situation


def _unnamed_deck_draw(draw: DrawAction) -> bool:
    return isinstance(draw, Draw) and draw.owner is None and draw.card is None


def tasks(
    tree: GameTree,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    players: Iterable[str] | None = None,
    turns: Iterable[int] | None = None,
    move_time: float | None = None,
) -> list[tuple[Node, TurnTask]]:
    """The judgements the analysis of a tree is made of, each seeded on its own; with ``move_time``
    (seconds), each stops in time (TurnTask.move_time)."""
    game = tree.record.index
    found = []
    for node, situation in analysable(tree, players=players, turns=turns):
        turn = node.turn
        assert turn is not None, "analysable yields nodes after a turn"
        task = TurnTask(game, node.number, situation, turn, budget, _seed(seed, game, node.number), move_time)
        found.append((node, task))
    return found


def _seed(seed: int | str, game: int, number: int) -> str:
    """A turn's own seed: its judgement depends on nothing else of the run."""
    return f"{seed}/{game}/{number}"


class TryMismatch(ArboError):
    """A try that does not stand in place of its turn as written: another number or player, a
    glyph, or a first word that reads two ways (a usage error at the command line)."""


def tried_turn(node: Node, text: str) -> Turn:
    """``text`` (``d d Ma3@0,1 /Oa5``, its player written or not) played in place of ``node``'s turn,
    its draws naming the cards they take: ArboError for text that is no turn, TryMismatch for a try
    of another turn (:func:`refuse_a_mismatch`), RuleError in a player's words for a turn that is
    illegal there."""
    before, turn = node.parent, node.turn
    if before is None or turn is None:
        raise ArboError("the setup is no turn: go to a turn to try another in its place")
    game = before.position
    actions = game.parse_turn(text)
    refuse_a_mismatch(node.number, turn.player, actions, written_player=parse_turn_text(text)[1])
    draws: list[DrawAction] = []
    for action in actions.actions[:2]:
        played = game.as_played(action)  # the card drawn, named where the record knows it
        game.push(played)
        if isinstance(played, Draw) and played.owner is None and played.card is None:
            raise ArboError(
                f"the record does not say which card {turn.player} would draw from the deck: name it (d:Ca8)"
            )
        draws.append(played)
    plant, discard = actions.actions[2:]
    game.push(plant)
    game.push(discard)
    return Turn.of(TurnActions(turn.player, (draws[0], draws[1], plant, discard), node.number))


def refuse_a_mismatch(number: int, mover: str, actions: TurnActions, *, written_player: str | None) -> None:
    """TryMismatch for a try read as another turn than the one it replaces (``number``, played by
    ``mover``): a number or a player of another turn; a glyph, which is a judgement, not a turn
    (the engine's is the try's note); a player left out before the bare name of another player,
    which reads as a draw from that player's pile while it looks like that player's turn
    (``Ben d Bs8@-2,0 /Ma3`` on Ana's turn)."""
    if actions.number is not None and actions.number != number:
        raise TryMismatch(f"the try is numbered {actions.number}, but it is tried in place of turn {number}")
    if actions.player != mover:
        raise TryMismatch(f"turn {number} is {mover}'s, not {actions.player}'s")
    if actions.glyphs:
        raise TryMismatch(
            f"a try carries no glyph ({' '.join(actions.glyphs)}): the engine judges it; "
            "a glyph of yours goes on a turn of the record"
        )
    first = actions.actions[0]
    if written_player is None and isinstance(first, Draw) and first.card is None and first.owner not in (None, mover):
        spelled = " ".join(str(action) for action in actions.actions)
        raise TryMismatch(
            f"turn {number} is {mover}'s, and '{first.owner}' first reads as {mover} drawing from "
            f"{first.owner}'s pile: write '{mover} {spelled}' for that, or a turn of {mover}'s such as "
            "'d d Ma3@0,1 /Oa5'"
        )


def try_task(
    node: Node, *, budget: int = DEFAULT_BUDGET, seed: int | str = 0, hypotheses: Sequence[Hypothesis] = ()
) -> TurnTask:
    """The task of judging ``node``'s turn, seeded as :func:`tasks` seeds it (under ``hypotheses``,
    see :func:`situation_at`); ArboError, saying why, when the turn cannot be judged."""
    before, turn = node.parent, node.turn
    if before is None or turn is None:
        raise ArboError("the setup is no turn: go to a turn to try another in its place")
    if any(_unnamed_deck_draw(d) for d in turn.draws):
        raise ArboError(f"turn {node.number} cannot be judged: a deck draw of it does not name its card")
    _drawn_elsewhere(turn, hypotheses)
    situation = situation_at(before, turn.player, hypotheses)
    if situation is None:
        raise ArboError(f"turn {node.number} cannot be judged: {turn.player}'s hand is not known at it")
    game = node.tree.record.index
    return TurnTask(game, node.number, situation, turn, budget, _seed(seed, game, node.number))


def what_if(
    node: Node,
    text: str,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    hypotheses: Sequence[Hypothesis] = (),
) -> TryJudgement:
    """``text`` judged beside ``node``'s turn, from its mover's knowledge, in the same worlds as
    :func:`analyse` judges that turn (at the same budget and seed); with ``hypotheses``, from the
    mover's knowledge with them supposed true (the worlds then deal each such card to its hand)."""
    tried = tried_turn(node, text)
    _drawn_elsewhere(tried, hypotheses)
    return judge_try(try_task(node, budget=budget, seed=seed, hypotheses=hypotheses), tried)


def _drawn_elsewhere(turn: Turn, hypotheses: Sequence[Hypothesis]) -> None:
    """ArboError for a card supposed in a hand that the turn draws from the deck."""
    drawn = {d.card for d in turn.draws if isinstance(d, Draw) and d.owner is None}
    for hypothesis in hypotheses:
        if hypothesis.card in drawn:
            raise ArboError(
                f"{hypothesis.card} cannot be in {hypothesis.player}'s hand: "
                f"{turn.player} draws it from the deck at turn {turn.number}"
            )


def engine_note(evaluation: TurnEvaluation) -> EngineNote:
    """The engine's note of a judged turn, as `arbo analyse` writes it on the turn: its value and
    its loss as --json gives them (to hundredths: TurnEvaluation.to_json), to tenths. One
    rounding for both, so a note never says 0.7 points where --json says 0.77, nor 3.0 points
    beside the ?! that --json's 2.94 earns."""
    shown = evaluation.to_json()
    return EngineNote(
        value=to_tenths(shown["played_value"]),
        samples=evaluation.samples,
        exact=evaluation.exact,
        glyph=evaluation.glyph,
        best=evaluation.best if evaluation.glyph is not None else None,
        gain=to_tenths(shown["loss"]),
    )


def to_tenths(figure: float) -> float:
    """A figure shown to hundredths, to tenths, halves away from zero as written (0.25 -> 0.3:
    the float 0.25 is exact, but 0.35 is not, and round() would give 0.3 for one, 0.4 for the other)."""
    return float(Decimal(repr(figure)).quantize(Decimal("0.1"), ROUND_HALF_UP))


def tried_note(judgement: TryJudgement) -> EngineNote:
    """The engine's note of the tried turn, as `arbo analyse` writes one on a judged turn."""
    return engine_note(judgement.tried)


def add_variation(record: GameRecord, path: LinePath, index: int, turn: Turn) -> tuple[GameRecord, LinePath]:
    """The record with ``turn`` as a new one-turn variation of the turn of index ``index`` (0-based)
    of the line ``path``, and the new variation's path; nothing else of the record changes."""

    def into(turns: tuple[Turn, ...], path: LinePath) -> tuple[tuple[Turn, ...], LinePath]:
        if not path:
            replaced = turns[index]
            number = len(replaced.variations)
            added = replace(replaced, variations=(*replaced.variations, Variation((turn,))))
            return (*turns[:index], added, *turns[index + 1 :]), ((index, number),)
        (at, which), rest = path[0], path[1:]
        holder = turns[at]
        variations = list(holder.variations)
        inner, tail = into(variations[which].turns, rest)
        variations[which] = replace(variations[which], turns=inner)
        return (*turns[:at], replace(holder, variations=tuple(variations)), *turns[at + 1 :]), ((at, which), *tail)

    turns, new_path = into(record.turns, path)
    return replace(record, turns=turns), new_path


#: How the judgements of a line's turns are run: ``map``, or a process pool's ``map``.
MapTasks = Callable[[Callable[[TurnTask], TurnEvaluation], list[TurnTask]], Iterable[TurnEvaluation]]


class AnalyseOptions(TypedDict, total=False):
    """The options of :func:`analyse`, by name."""

    budget: int
    seed: int | str
    players: Iterable[str] | None
    turns: Iterable[int] | None
    map_tasks: MapTasks


def analyse(
    tree: GameTree,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int | str = 0,
    players: Iterable[str] | None = None,
    turns: Iterable[int] | None = None,
    map_tasks: MapTasks = map,
) -> dict[Node, TurnEvaluation]:
    """Judge every turn of the main line that can be judged: per node, its evaluation.

    ``map_tasks`` runs the judgements (``map``; a process pool's ``map`` gives the same result,
    each judgement being seeded by its own task).
    """
    found = tasks(tree, budget=budget, seed=seed, players=players, turns=turns)
    results = list(map_tasks(judge_turn, [task for _, task in found]))
    return {node: result for (node, _), result in zip(found, results, strict=False)}
