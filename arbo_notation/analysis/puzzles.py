"""Puzzles from analysed games: the finishes where one answer is clearly best, as seat records.

A puzzle asks the finish of a turn (the planting and the discard) once its draws are in hand,
from the mover's view: the position is a seat record of the game up to the turn, its header's
``puzzle`` key giving the draws, the answer and the engine's values (docs/ANALYSIS.md,
"Puzzles"). Candidates are the turns the analysis flagged as mistakes (``?`` or ``??``); each is
judged again at :data:`BUDGET_FACTOR` times its budget, and kept when the best finish beats every
other (but those within :func:`tolerance` of it, which are right too) by :data:`MARGIN` points and
the finish played by :data:`~arbo_notation.analysis.turns.MISTAKE` points.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

from arbo_notation.analysis.game import situation_at
from arbo_notation.analysis.search import Finish, Judgement, Situation, judge_finish
from arbo_notation.analysis.turns import BLUNDER, DEFAULT_BUDGET, MISTAKE
from arbo_notation.engine.actions import Discard, Draw, DrawAction, Plant, Skip, parse_action
from arbo_notation.engine.cards import Card, card_order
from arbo_notation.engine.lean import Cards, cell_of, coord_of
from arbo_notation.engine.state import Game, Phase
from arbo_notation.errors import ArboError
from arbo_notation.game.tree import GameTree, Node, load_tree
from arbo_notation.notation.bounds import MOST_BUDGET, MOST_TURNS, budget_fault, points_fault
from arbo_notation.notation.engine_notes import is_engine_comment, note_of, without_notes
from arbo_notation.notation.model import Comment, GameRecord, Turn
from arbo_notation.notation.views import partial_record
from arbo_notation.notation.writer import format_game
from arbo_notation.record.choices import Completions

#: A puzzle's finishes are judged again at this many times the analysis's budget.
BUDGET_FACTOR = 4
#: Points of expected final margin by which the best finish beats every wrong one.
MARGIN = 2.0
#: An answer within this many points of the best is right (sampled values; exact ones must equal).
TOLERANCE = 0.25
#: Values stored in a puzzle: the best few finishes (and the one played).
STORED_VALUES = 6
#: The header key of a puzzle.
KEY = "puzzle"


class PuzzleError(ArboError):
    """A record that is no puzzle, or an answer that is no finish of it."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One question: ``record`` is the seat record whose last position it is asked at."""

    record: GameRecord
    player: str
    turn: int
    draws: str  # the turn's draws, as played: ``d:Ma5 Ben:Dw5``
    answer: str  # the best finish: ``Ma5@-5,0 /Dw5``
    played: str  # the finish played
    values: dict[str, float]  # finish -> expected final margin (the best few and the played one)
    margin: float  # the best value less the best wrong one's
    budget: int
    seed: str
    exact: bool
    source: str
    themes: tuple[str, ...]

    @property
    def id(self) -> str:
        """A hash of the question alone (the position and the draws), the same whatever the values."""
        bare = replace(self.record, header=replace(self.record.header, extra=_without(self.record.header.extra, KEY)))
        text = f"{format_game(bare)}\n{self.player} {self.turn} {self.draws}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]

    @property
    def best_value(self) -> float:
        return self.values[self.answer]

    @property
    def question(self) -> str:
        return (
            f"{self.player} to play turn {self.turn}, having drawn {self.draws}: "
            "which card do you plant where, and which do you discard?"
        )

    def header_value(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "turn": self.turn,
            "player": self.player,
            "draws": self.draws,
            "question": self.question,
            "answer": self.answer,
            "played": self.played,
            "values": dict(self.values),
            "margin": self.margin,
            "budget": self.budget,
            "seed": self.seed,
            "exact": self.exact,
            "source": self.source,
            "themes": list(self.themes),
        }

    def written(self) -> GameRecord:
        """The puzzle's record, its ``puzzle`` header key filled in."""
        extra = {**_without(self.record.header.extra, KEY), KEY: self.header_value()}
        return replace(self.record, header=replace(self.record.header, extra=extra))


def _without(extra: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in extra.items() if k != key}


def tolerance(exact: bool) -> float:
    return 1e-9 if exact else TOLERANCE


# -- the question ----------------------------------------------------------------------------


def seat_record(record: GameRecord, node: Node) -> GameRecord:
    """The record as the mover of ``node``'s turn saw it, up to that turn: their dealt hand and
    deck draws named, the others' deck draws not, the engine's notes and the end taken off."""
    turn = node.turn
    assert turn is not None, "a puzzle is asked at a turn"
    mover = turn.player
    named = _own_draws_named(record, node, mover)
    seat = partial_record(replace(record, turns=named), mover)
    header = replace(seat.header, result=None)
    question = Comment(f"Puzzle: {mover} to play turn {node.number}, the draws in hand.")
    return replace(
        seat,
        header=header,
        turns=tuple(without_notes(t) for t in seat.turns[: node.index - 1]),
        comments=(question, *record.comments),
        reveals=(),
        result=None,
    )


def _own_draws_named(record: GameRecord, node: Node, mover: str) -> tuple[Turn, ...]:
    """The main line's turns with the mover's deck draws named where the replay knows the card
    (an omniscient record may leave them ``d``, its deck in the header)."""
    turns = list(record.turns)
    for following in node.tree.mainline():
        played = following.turn
        if following.index > node.index or played is None or following.parent is None:
            continue
        if played.player == mover and any(_unnamed_deck_draw(d) for d in played.draws):
            deck = following.parent.position.deck_cards()
            if deck is not None:
                draws: list[DrawAction] = []
                taken = 0
                for draw in played.draws:
                    if isinstance(draw, Draw) and draw.owner is None:
                        draws.append(draw if draw.card is not None else Draw(None, deck[taken]))
                        taken += 1
                    else:
                        draws.append(draw)
                turns[following.index - 1] = replace(played, draws=tuple(draws))
    return tuple(turns)


def _unnamed_deck_draw(draw: DrawAction) -> bool:
    return isinstance(draw, Draw) and draw.owner is None and draw.card is None


def _draws_text(turn: Turn) -> str:
    return " ".join(str(d) for d in turn.draws)


def finish_text(cards: Cards, finish: Finish) -> str:
    card, cell, discard = finish
    return f"{cards.card(card)}@{coord_of(cell)} /{cards.card(discard)}"


@dataclass(frozen=True, slots=True)
class Position:
    """A puzzle's position with its draws in hand: the mover's situation and the engine's game."""

    situation: Situation
    game: Game  # the draws pushed, the planting due

    def finish(self, text: str) -> Finish:
        """A finish typed (``Ma5@-5,0 /Dw5``; the draws may lead it), checked legal here.
        PuzzleError in the player's words when it is not."""
        words = text.split()
        if len(words) > 2:
            words = words[-2:]
        if len(words) != 2:
            raise PuzzleError(f"an answer is a planting and a discard, such as Ma3@0,1 /Oa5, not {text.strip()!r}")
        plant, discard = (parse_action(word) for word in words)
        if not isinstance(plant, Plant) or not isinstance(discard, Discard):
            raise PuzzleError(f"an answer is a planting and a discard, such as Ma3@0,1 /Oa5, not {text.strip()!r}")
        probe = self.game.copy()
        probe.push(plant)
        probe.push(discard)
        cards = Cards(self.situation.species)
        return (cards.code(plant.card), cell_of(plant.coord), cards.code(discard.card))


def position_of(record: GameRecord, player: str, draws: str) -> Position:
    """The position a puzzle asks at: its record's end, seen by ``player``, ``draws`` in hand."""
    tree = load_tree(record)
    if not tree.valid:
        raise PuzzleError(f"the puzzle's record does not replay: {tree.diagnostics[0].message}")
    end = tree.end()
    game = end.position.copy()
    if game.is_over or game.current_player != player:
        raise PuzzleError(f"the puzzle's position is not {player}'s turn")
    situation = situation_at(end, player)
    if situation is None:
        raise PuzzleError(f"{player}'s hand is not known at the puzzle's position")
    piles = {p: list(situation.piles[p]) for p in situation.players}
    drawn: list[tuple[str | None, Card]] = []
    for word in draws.split():
        try:
            draw = parse_action(word)
        except ArboError as error:
            raise PuzzleError(f"its draw {word!r} is no draw: {error}") from None
        if not isinstance(draw, (Draw, Skip)):
            raise PuzzleError(f"its draw {word!r} is no draw")
        if isinstance(draw, Draw) and draw.owner is None:
            if draw.card is None:
                raise PuzzleError("a puzzle's deck draw names its card")
            drawn.append((None, draw.card))
        elif isinstance(draw, Draw) and draw.owner is not None:
            pile = piles.get(draw.owner)
            if not pile:
                raise PuzzleError(f"its draw {word!r} takes from a pile that is empty or no player's")
            drawn.append((draw.owner, pile.pop()))
        try:
            game.push(draw)
        except ArboError as error:
            raise PuzzleError(f"its draw {word!r} cannot be made: {error}") from None
    if game.phase is not Phase.PLANT:
        raise PuzzleError(f"its draws {draws!r} are not a turn's two draws")
    return Position(situation.after_draws(drawn), game)


# -- judging ---------------------------------------------------------------------------------


def judge(position: Position, played: Finish | None, budget: int, seed: str) -> Judgement[Finish]:
    """The finishes' values as a puzzle judges them, seeded by the puzzle alone."""
    return judge_finish(position.situation, played, budget, random.Random(f"{seed}/finish"))


def clear_best(judgement: Judgement[Finish]) -> tuple[list[Finish], float] | None:
    """The right finishes (within :func:`tolerance` of the best) and the best one's lead over the
    best wrong one, when every wrong one is at least :data:`MARGIN` behind; else None."""
    values = judgement.values
    best = max(values.values())
    right = [f for f, v in values.items() if v >= best - tolerance(judgement.exact)]
    wrong = [v for f, v in values.items() if f not in right]
    lead = best - max(wrong) if wrong else float("inf")
    if lead < MARGIN:
        return None
    return sorted(right, key=lambda f: -values[f]), lead


def puzzle_at(tree: GameTree, node: Node, *, budget: int, seed: str, source: str) -> tuple[Puzzle, Judgement[Finish]]:
    """The puzzle at ``node``'s turn, whatever its values (its rule is :func:`keeps`)."""
    turn = node.turn
    if turn is None or node.parent is None:
        raise PuzzleError("a puzzle is asked at a turn")
    record = seat_record(tree.record, node)
    draws = _draws_text(_own_draws_named(tree.record, node, turn.player)[node.index - 1])
    position = position_of(record, turn.player, draws)
    cards = Cards(position.situation.species)
    played: Finish = (cards.code(turn.plant.card), cell_of(turn.plant.coord), cards.code(turn.discard))
    judgement = judge(position, played, budget, seed)
    values = judgement.values
    ranked = sorted(values, key=lambda f: (-values[f], finish_text(cards, f)))
    best = ranked[0]
    shown = ranked[:STORED_VALUES] + ([played] if played not in ranked[:STORED_VALUES] else [])
    wrong = [values[f] for f in ranked if values[f] < values[best] - tolerance(judgement.exact)]
    lead = values[best] - wrong[0] if wrong else 0.0
    loss = values[best] - values[played]
    themes = ["blunder" if loss >= BLUNDER else "mistake"]
    if judgement.exact:
        themes.append("endgame")
    puzzle = Puzzle(
        record=record,
        player=turn.player,
        turn=node.number,
        draws=draws,
        answer=finish_text(cards, best),
        played=finish_text(cards, played),
        values={finish_text(cards, f): round(values[f], 2) for f in shown},
        margin=round(lead, 2),
        budget=budget,
        seed=seed,
        exact=judgement.exact,
        source=source,
        themes=tuple(themes),
    )
    return puzzle, judgement


def keeps(judgement: Judgement[Finish], played: Finish) -> bool:
    """The puzzle rule: one answer clearly best, and the finish played a mistake against it."""
    found = clear_best(judgement)
    if found is None:
        return False
    right, _ = found
    return judgement.values[right[0]] - judgement.values[played] >= MISTAKE


def flagged(tree: GameTree, player: str | None = None) -> Iterator[Node]:
    """The main line's turns the analysis marked as mistakes (``?``, ``??``), of ``player``."""
    for node in tree.mainline():
        turn = node.turn
        if turn is None or node.parent is None or (player is not None and turn.player != player):
            continue
        note = note_of(turn)
        if note is not None and note.glyph in ("?", "??"):
            yield node


def analysed(record: GameRecord) -> bool:
    """Whether the engine has annotated the record's main line (its notes in bounds or not)."""
    return any(is_engine_comment(comment) for turn in record.turns for comment in turn.comments_after)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A flagged turn to judge as a puzzle: what a worker process needs, the record and the turn."""

    record: GameRecord
    number: int  # the turn's number on the main line
    budget: int
    seed: str
    source: str


def candidates(tree: GameTree, *, player: str | None = None, seed: str = "0", source: str = "") -> Iterator[Candidate]:
    """The flagged turns of an analysed game, each to be judged at :data:`BUDGET_FACTOR` times the
    analysis's budget (at most --budget's bound, which a puzzle's budget is held to)."""
    for node in flagged(tree, player):
        turn = node.turn
        note = note_of(turn) if turn is not None else None
        assert turn is not None and note is not None, "flagged yields annotated turns"
        budget = min(MOST_BUDGET, BUDGET_FACTOR * (DEFAULT_BUDGET if note.exact else note.samples))
        where = f"{source} game {tree.record.index} turn {node.number}".strip()
        yield Candidate(tree.record, node.number, budget, f"{seed}/{tree.record.index}/{node.number}", where)


def judge_candidate(candidate: Candidate, tree: GameTree | None = None) -> Puzzle | None:
    """The candidate's puzzle when it keeps (:func:`keeps`), else None; ``tree``: the record's,
    when at hand (a worker process loads it)."""
    tree = tree or load_tree(candidate.record)
    node = tree.node(candidate.number)
    turn = node.turn
    assert turn is not None, "a candidate is a turn"
    try:
        puzzle, judgement = puzzle_at(tree, node, budget=candidate.budget, seed=candidate.seed, source=candidate.source)
    except PuzzleError:
        return None  # the mover's hand is not known there (a seat record's other seats)
    cards = Cards(tree.record.header.species)
    played = (cards.code(turn.plant.card), cell_of(turn.plant.coord), cards.code(turn.discard))
    return puzzle if keeps(judgement, played) else None


def find_puzzles(tree: GameTree, *, player: str | None = None, seed: str = "0", source: str = "") -> Iterator[Puzzle]:
    """The puzzles of an analysed game: its flagged turns that keep (:func:`keeps`) when judged
    again at :data:`BUDGET_FACTOR` times the analysis's budget."""
    for candidate in candidates(tree, player=player, seed=seed, source=source):
        puzzle = judge_candidate(candidate, tree)
        if puzzle is not None:
            yield puzzle


# -- reading a puzzle back --------------------------------------------------------------------


def read_puzzle(record: GameRecord) -> Puzzle:
    """The puzzle a record holds (its ``puzzle`` header key), its numbers within the bounds of
    their options and its draws in hand at its position. PuzzleError, naming the game and the
    file, when it holds none or a fault."""
    data = record.header.extra.get(KEY)
    where = f"game {record.index} of {record.file}"
    if not isinstance(data, dict):
        raise PuzzleError(f"{where} is no puzzle: its header has no '{KEY}' key")
    try:
        puzzle = Puzzle(
            record=replace(record, header=replace(record.header, extra=_without(record.header.extra, KEY))),
            player=_text(data["player"]),
            turn=_bounded(data["turn"], "turn", _turn_fault),
            draws=_text(data["draws"]),
            answer=_text(data["answer"]),
            played=_text(data["played"]),
            values={_text(k): float(_bounded(v, f"value of {k}", points_fault)) for k, v in data["values"].items()},
            margin=float(_bounded(data["margin"], "margin", points_fault)),
            budget=_bounded(data["budget"], "budget", budget_fault),
            seed=_text(data["seed"]),
            exact=_flag(data["exact"]),
            source=_text(data.get("source", "")),
            themes=tuple(_text(t) for t in data.get("themes", ())),
        )
    except KeyError as error:
        raise PuzzleError(f"{where}: the '{KEY}' key has no {error}") from None
    except (PuzzleError, TypeError, AttributeError) as error:
        raise PuzzleError(f"{where}: the '{KEY}' key: {error}") from None
    if puzzle.answer not in puzzle.values:
        raise PuzzleError(f"{where}: the puzzle's answer has no value")
    try:
        position_of(puzzle.record, puzzle.player, puzzle.draws)
    except PuzzleError as error:
        raise PuzzleError(f"{where}: {error}") from None
    return puzzle


def _text(value: object) -> str:
    if isinstance(value, (dict, list)):
        raise PuzzleError(f"expected a text, found {type(value).__name__} {str(value)[:40]!r}")
    return str(value)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise PuzzleError(f"'exact' is true or false, not {str(value)[:40]!r}")
    return value


def _turn_fault(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MOST_TURNS:
        return f"a turn is a whole number from 1 to {MOST_TURNS}, as --turn takes"
    return None


def _bounded(value: Any, name: str, fault_of: Callable[[object], str | None]) -> Any:
    """``value`` when ``fault_of`` finds nothing wrong with it; else PuzzleError naming it."""
    fault = fault_of(value)
    if fault is not None:
        raise PuzzleError(f"its {name} is {repr(value)[:40]}: {fault}")
    return value


@dataclass(frozen=True, slots=True)
class Verdict:
    """An answer judged: its value beside the best one's."""

    answer: str
    value: float
    best: str
    best_value: float
    right: bool

    def __str__(self) -> str:
        mark = "right" if self.right else "wrong"
        text = f"{mark}: {self.answer} is worth {self.value:+.2f}"
        if self.answer != self.best:
            text += f"; the best, {self.best}, {self.best_value:+.2f}"
        return text


def verdict(puzzle: Puzzle, text: str, position: Position | None = None) -> Verdict:
    """Judge an answer: from the values the puzzle holds when it is one of them, else by the
    engine at the puzzle's budget and seed (the same worlds the stored values came from).
    PuzzleError when the answer is no legal finish."""
    position = position or position_of(puzzle.record, puzzle.player, puzzle.draws)
    finish = position.finish(text)
    cards = Cards(position.situation.species)
    answer = finish_text(cards, finish)
    if answer in puzzle.values:
        value = puzzle.values[answer]
    else:
        value = round(judge(position, finish, puzzle.budget, puzzle.seed).values[finish], 2)
    best, best_value = puzzle.answer, puzzle.best_value
    if value > best_value:
        best, best_value = answer, value  # a finish the engine had not tried: better still
    return Verdict(answer, value, best, best_value, value >= best_value - tolerance(puzzle.exact))


def answer_completions(position: Position, text: str) -> Completions:
    """What may replace the word being typed of an answer, legal now (the recorder's choices):
    the cards of the hand to plant, their cells, then the cards left to discard."""
    start = len(text) - len(text.split()[-1]) if text and not text[-1].isspace() else len(text)
    partial = text[start:]
    words = text[:start].split()
    game = position.game.copy()
    hand = sorted(game.hand(game.current_player).known, key=card_order)
    if not words:
        card_text, at, _ = partial.partition("@")
        if not at:
            choices = [f"{c}@" for c in hand if str(c).lower().startswith(card_text.lower())]
        else:
            choices = [
                f"{a} "
                for a in game.legal_actions()
                if isinstance(a, Plant) and str(a.card).lower() == card_text.lower() and str(a).startswith(partial)
            ]
        return Completions(start, tuple(choices), hint="the planting, such as Ma3@0,1")
    if len(words) == 1:
        try:
            planting = parse_action(words[0])
            if not isinstance(planting, Plant):
                raise PuzzleError(f"expected a planting such as Ma3@0,1, found {words[0]!r}")
            game.push(planting)
        except ArboError as error:
            return Completions(start, (), problem=str(error))
        left = [a for a in game.legal_actions() if isinstance(a, Discard)]
        return Completions(start, tuple(f"{a} " for a in left if str(a).lower().startswith(partial.lower())))
    return Completions(start, ())
