"""What may be typed next in a recording session (record/session.py): the phase the session is in,
the choices legal now for the word being typed, and the hint or the rules' objection when none is.

The session's table is asked, never changed: each choice is tried on a copy of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Protocol, Sequence

from arbo_notation.engine.actions import Draw, Plant, Skip
from arbo_notation.engine.cards import HAND_SIZE, Card, Coord, card_order
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError, RuleError

__all__ = ["Completions", "Phase", "TURN_NUMBER", "completions"]

#: A turn's number as an entry starts with it ("12." and the spaces after it).
TURN_NUMBER = re.compile(r"([0-9]+)\.[ \t]*")


class Phase(Enum):
    """What the session asks for next."""

    HAND = "hand"  # the recorder's dealt hand
    TURNS = "turns"  # the next turn
    REVEAL = "reveal"  # the deck is empty: the hands nobody saw
    DONE = "done"  # the result is written


@dataclass(frozen=True, slots=True)
class Completions:
    """What may replace the word being typed (``text[start:]``), legal now. A choice that ends
    in a space is a whole word; one that does not (``Ma3@``, ``d:``) goes on."""

    start: int
    choices: tuple[str, ...]
    hint: str = ""  # what is asked for here, when there is nothing to offer
    problem: str = ""  # what the rules say against the words typed so far

    def apply(self, text: str, index: int = 0) -> str:
        return text[: self.start] + self.choices[index]


class Session(Protocol):
    """What the choices read of a recording session (record/session.py's ``RecordingSession``),
    named here so that the session imports this module and this module nothing of the session."""

    @property
    def species(self) -> tuple[str, ...]: ...
    @property
    def seat(self) -> str | None: ...
    @property
    def game(self) -> Game: ...
    @property
    def phase(self) -> Phase: ...
    def pending_reveals(self) -> list[str]: ...
    def syntax_problem(self, text: str) -> str: ...


def completions(session: Session, text: str) -> Completions:
    """What may replace the word being typed at the end of ``text``, legal now: draw sources
    that are not empty, the cards the player may plant (when known), the open cells next to
    the player's trees, the cards the player may discard; the recorder's dealt hand; the
    hands at the end."""
    start = len(text) - len(text.split()[-1]) if text and not text[-1].isspace() else len(text)
    partial = text[start:]
    words = text[:start].split()
    phase = session.phase
    problem = ""
    if text.lstrip()[:1] in ("{", ";", "!", "?", "$") or text.strip().lower() == "undo":
        return Completions(start, ())
    if phase is Phase.HAND:
        choices = _hand_choices(session, words)
        problem = _hand_problem(session, words + ([partial] if partial else []))
    elif phase is Phase.REVEAL or (words and words[0] == "reveal"):
        choices = _reveal_choices(session, words)
    elif phase is Phase.TURNS:
        choices, problem = _turn_choices(session, words, partial)
        problem = session.syntax_problem(text) or problem  # check's words for a fault of the notation
    else:
        choices = []
    wanted = partial.lower()
    offered = tuple(_unique(c for c in choices if c.lower().startswith(wanted)))
    if offered:
        return Completions(start, offered, problem=problem)
    if not problem and partial and phase is Phase.TURNS and choices:
        problem = _word_problem(session, words, partial) or f"nothing legal here starts with {partial!r}"
    return Completions(start, (), "" if problem else _hint(session, phase, words), problem)


def _word_problem(session: Session, words: list[str], word: str) -> str:
    """What the rules say against a word of a turn that no legal choice begins with."""
    if words and TURN_NUMBER.fullmatch(words[0] + " "):
        words = words[1:]
    if words and words[0] == session.game.current_player and len(words) >= 3:
        words = words[1:]
    state = session.game.copy()
    for draw in words[:2]:
        if _draw(state, draw):
            return ""
    if len(words) < 2:
        return _draw(state, word)
    card_text, _, cell = word.lstrip("/").partition("@")
    try:
        card = Card.parse(card_text)
    except ArboError as error:
        return str(error)
    try:
        if len(words) == 2:
            planting = _planting(word) if cell else (card, state.plant_cells()[0])
            if planting is None:
                return f"expected a planting such as Ma3@0,1, found {word!r}"
            state.plant(*planting)
        elif len(words) == 3 and word.startswith("/"):
            planting = _planting(words[2])
            if planting is None:
                return ""
            state.plant(*planting)
            state.discard(card)
    except RuleError as error:
        return str(error)
    return ""


def _hint(session: Session, phase: Phase, words: list[str]) -> str:
    """What the next word is, when no choice can be offered (a hand nobody has seen)."""
    if phase is not Phase.TURNS:
        return ""
    if words and TURN_NUMBER.fullmatch(words[0] + " "):
        words = words[1:]
    player = session.game.current_player
    if words and words[0] == player and len(words) >= 3 and "@" not in words[2]:
        words = words[1:]
    if len(words) < 2:
        which = "the first" if not words else "the second"
        return f"{which} draw: d for the deck, or a player's name for the top of their discard pile"
    if len(words) == 2:
        return f"the card {player} plants, such as Ma3, then @x,y"
    if len(words) == 3:
        return f"the card {player} discards, such as /Oa5"
    if len(words) >= 4:
        return "Enter records the turn; glyphs (! ?) and {comments} may follow"
    return ""


def _hand_problem(session: Session, words: list[str]) -> str:
    """What is wrong with the cards of a dealt hand typed so far (the last may be partial)."""
    seen: set[Card] = set()
    species = session.species
    for index, word in enumerate(words):
        if index == 0 and word in ("hand", session.seat):
            continue
        if index == len(words) - 1 and any(code.startswith(word) for code in species):
            continue  # a species code being typed
        try:
            card = Card.parse(word)
        except ArboError as error:
            if word.isalpha() and word not in species:
                return f"{word} is not a species in play ({', '.join(species)})"
            return str(error)
        if card.species not in species:
            return f"{card.species} is not a species in play ({', '.join(species)})"
        if card in seen:
            return f"{card} is given twice"
        seen.add(card)
    if len(seen) > HAND_SIZE:
        return f"a hand is {HAND_SIZE} cards, not {len(seen)}"
    return ""


def _hand_choices(session: Session, words: list[str]) -> list[str]:
    typed = set(words) - {"hand", session.seat}
    if len(typed) >= HAND_SIZE:
        return []
    return [f"{c} " for c in sorted(session.game.unlocated_cards(), key=card_order) if str(c) not in typed]


def _reveal_choices(session: Session, words: list[str]) -> list[str]:
    if words and words[0] == "reveal":
        words = words[1:]
    pending = session.pending_reveals()
    if not words:
        return [f"{p} " for p in pending]
    player = words[0]
    if player not in pending:
        return []
    typed = set(words[1:])
    hand = session.game.hand(player)
    if len(typed) >= len(hand):
        return []
    cards = list(hand.known) + sorted(session.game.unlocated_cards(), key=card_order)
    return [f"{c} " for c in cards if str(c) not in typed]


def _turn_choices(session: Session, words: list[str], partial: str) -> tuple[list[str], str]:
    game = session.game
    if words and TURN_NUMBER.fullmatch(words[0] + " "):
        words = words[1:]
    readings = [words]
    if words and words[0] == game.current_player:
        readings.insert(0, words[1:])  # the player written out (or a draw from their own pile)
    choices: list[str] = []
    problems: list[str] = []
    for reading in readings:
        offered, problem = _moves_after(game, reading, partial, session.seat)
        choices += offered
        problems.append(problem)
    return choices, problems[0] if all(problems) else ""


def _moves_after(game: Game, words: Sequence[str], partial: str, seat: str | None) -> tuple[list[str], str]:
    """The legal choices for the next word of a turn whose first ``words`` are typed, or what
    the rules say against those words."""
    state = game.copy()
    player = state.current_player
    if len(words) > 4 or (len(words) > 3 and not partial):
        return [], ""
    for word in words[:2]:
        problem = _draw(state, word)
        if problem:
            return [], problem
    if len(words) < 2:
        return _draw_choices(state, partial, seat), ""
    hand = state.hand(player)
    unseen = sorted(state.unlocated_cards(), key=card_order) if hand.hidden else []
    if len(words) == 2:
        card_text, at, _ = partial.partition("@")
        if not at:
            cards = list(hand.known) + (
                [c for c in unseen if str(c).lower().startswith(card_text.lower())] if card_text else []
            )
            return [f"{c}@" for c in cards], ""
        card = next((c for c in [*hand.known, *unseen] if str(c).lower() == card_text.lower()), None)
        if card is None:
            return [], ""
        plantings = [action for action in state.legal_actions() if isinstance(action, Plant)]
        return [f"{action} " for action in plantings if action.card is card], ""
    if len(words) == 3:
        planting = _planting(words[2])
        if planting is None:
            return [], f"expected a planting such as Ma3@0,1, found {words[2]!r}"
        try:
            state.plant(*planting)
        except RuleError as error:
            return [], str(error)
        hand = state.hand(player)
        cards = list(hand.known) + (
            [c for c in unseen if f"/{c}".lower().startswith(partial.lower())]
            if len(partial) > 1 and hand.hidden
            else []
        )
        return [f"/{c} " for c in cards], ""
    return [], ""


def _draw_choices(state: Game, partial: str, seat: str | None) -> list[str]:
    """The draws legal now (Game.legal_actions), as words: a deck draw whose card the engine
    does not know is offered as 'd', and as 'd:' to the recorder at their own turn."""
    choices = []
    for action in state.legal_actions():
        if isinstance(action, Skip):
            choices.append("- ")
        elif isinstance(action, Draw) and action.owner is None and action.card is None:
            if state.current_player == seat:
                choices.append("d:")  # the recorder saw the card: name it
            choices.append("d ")
            if partial.startswith("d:"):
                choices += [f"d:{c} " for c in sorted(state.unlocated_cards(), key=card_order)]
        else:
            choices.append(f"{action} ")
    return choices


def _draw(state: Game, word: str) -> str:
    """Play a typed draw on the state: '' when it is legal now, else what is wrong with it."""
    source, _, card_text = word.partition(":")
    try:
        card = Card.parse(card_text) if card_text else None
        if word == "-":
            state.skip_draw()
        elif source == "d":
            state.draw_from_deck(card)
        else:
            state.draw_from_discard(source, card)
    except ArboError as error:
        return str(error)
    return ""


def _planting(word: str) -> tuple[Card, Coord] | None:
    card_text, at, cell = word.partition("@")
    x, comma, y = cell.partition(",")
    try:
        return Card.parse(card_text), Coord(int(x), int(y))
    except (ArboError, ValueError):
        return None


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
