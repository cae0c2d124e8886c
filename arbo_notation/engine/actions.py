"""The actions of a turn as small values: a draw, a planting, a discard; ``str()`` is the notation.

A turn is two draws (``d``, ``d:Ma3``, ``Ben``, ``Ben:Oa5``, or ``-`` when no card can be drawn),
one planting (``Ma3@0,1``) and one discard (``/Oa5``). Game.push plays one of them, Game.pop takes
it back, Game.legal_actions lists them; this module reads and writes them, with the notation's
words as engine/lexicon.py writes them once.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import Enum
from typing import cast

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.lexicon import CARD, COORDINATE, DECK_WORD, GLYPH, NAME, SKIP_DRAW, TURN_DIGITS
from arbo_notation.errors import ArboError

#: The check's fast-path form of a turn, not a vocabulary of its own (a turn is a TurnActions, and
#: a record's turn holds the same actions): (number, player, first draw, second draw, card planted,
#: its cell, card discarded). A draw is None when skipped, else (the discard pile's owner, or None
#: for the deck; the card drawn, or None when not named). The number is the record's (None when it
#: leaves it out), which the engine does not read. A plain tuple because the scanner's moves sink
#: (notation/reading/scanner.py) decodes a check's turns straight into it and Game.play_known_turns
#: plays it: a TurnActions made for every turn instead costs a check 7% to 16% of its time
#: (docs/ARCHITECTURE.md, "Fast paths and their references"). TurnActions.known() and
#: turn_actions() go between the two.
KnownDraw = tuple[str | None, Card | None] | None
KnownTurn = tuple[int | None, str, KnownDraw, KnownDraw, Card, Coord, Card]


class Phase(Enum):
    """What is due of the player to move. Here, not in engine/position.py, because a check plays
    a game without loading positions and views (bench/README.md, "Issue 49, point 3")."""

    DRAW = "draw"
    PLANT = "plant"
    DISCARD = "discard"
    OVER = "over"


class ActionError(ArboError):
    """Text that is not an action (or a turn's actions) of the notation."""


@dataclass(frozen=True, slots=True)
class Draw:
    """A draw: from the deck (``owner`` None) or the top of ``owner``'s discard pile; ``card`` is
    the card drawn when it is known (``d:Ma3``, ``Ben:Oa5``), None when it is not said (``d``)."""

    owner: str | None = None
    card: Card | None = None

    def __str__(self) -> str:
        source = DECK_WORD if self.owner is None else self.owner
        return source if self.card is None else f"{source}:{self.card}"


@dataclass(frozen=True, slots=True)
class Skip:
    """A draw skipped: no card could be drawn at all (the house ruling of RULES.md). ``-``."""

    def __str__(self) -> str:
        return SKIP_DRAW


@dataclass(frozen=True, slots=True)
class Plant:
    """A card of the hand planted on a cell: ``Ma3@0,1``."""

    card: Card
    coord: Coord

    def __str__(self) -> str:
        return f"{self.card}@{self.coord}"


@dataclass(frozen=True, slots=True)
class Discard:
    """A card of the hand discarded onto one's own pile: ``/Oa5``."""

    card: Card

    def __str__(self) -> str:
        return f"/{self.card}"


Action = Draw | Skip | Plant | Discard
DrawAction = Draw | Skip


@dataclass(frozen=True, slots=True)
class TurnActions:
    """One turn read from the notation: its ``player``, its four ``actions`` (two draws, the
    planting, the discard), the ``number`` written (None when left out) and its ``glyphs``.
    ``str()`` is the turn's line: ``12. Ana d d Ma3@0,1 /Oa5 !``."""

    player: str
    actions: tuple[DrawAction, DrawAction, Plant, Discard]
    number: int | None = None
    glyphs: tuple[str, ...] = ()

    def __str__(self) -> str:
        words = [
            f"{self.number}." if self.number is not None else "",
            self.player,
            *map(str, self.actions),
            *self.glyphs,
        ]
        return " ".join(word for word in words if word)

    def known(self) -> KnownTurn:
        """The turn in the check's fast-path form (KnownTurn), as Game.play_known_turns plays it."""
        first, second, plant, discard = self.actions
        return (self.number, self.player, known_draw(first), known_draw(second), plant.card, plant.coord, discard.card)


def known_draw(draw: DrawAction) -> KnownDraw:
    """A draw as a KnownTurn holds it: None when skipped, else (owner or None, card or None)."""
    return None if isinstance(draw, Skip) else (draw.owner, draw.card)


def turn_actions(turn: KnownTurn) -> tuple[DrawAction, DrawAction, Plant, Discard]:
    """The four actions of a whole turn of the engine's fast path."""
    _, _, first, second, card, coord, discard = turn
    draws = tuple(Skip() if d is None else Draw(d[0], d[1]) for d in (first, second))
    return (draws[0], draws[1], Plant(card, coord), Discard(discard))


@functools.cache
def _action_words() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The words of an action (a draw, a planting, a discard), from the lexicon's texts (the
    notation's words are written there once); compiled on first use, with _turn_parts(): a check
    reads no action's text, and compiling the five is 5.2M instructions of a one-game check's
    245M (bench/README.md, "Issue 49, point 3")."""
    draw = re.compile(rf"(?:{DECK_WORD}|(?P<owner>{NAME}))(?::(?P<card>{CARD}))?\Z")
    plant = re.compile(rf"(?P<card>{CARD})@(?P<x>{COORDINATE}),(?P<y>{COORDINATE})\Z")
    discard = re.compile(rf"/(?P<card>{CARD})\Z")
    return draw, plant, discard


@functools.cache
def _turn_parts() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A turn's number before it and a glyph after it (see _action_words)."""
    return re.compile(rf"[ \t]*(?P<number>{TURN_DIGITS})\.[ \t]*"), re.compile(rf"[ \t]*(?P<glyph>{GLYPH})[ \t]*\Z")


def parse_action(word: str) -> Action:
    """Read one action: ``d``, ``d:Ma3``, ``Ben``, ``Ben:Oa5``, ``-``, ``Ma3@0,1`` or ``/Oa5``.
    ActionError when the word is none of them (whose pile a draw names is not checked here)."""
    if isinstance(word, str):
        return _parse_text(word)
    return _parse_action(word)


@functools.lru_cache(maxsize=1024)
def _parse_text(word: str) -> Action:
    """parse_action of a text, each text read once: actions are values, and a match's referee and
    bots read the same few hundred texts again and again (a game's 88 actions read by the referee
    and each bot). timeit, Python 3.11, load 4: 'Ma3@0,1' 5.8 us read, 0.23 remembered."""
    return _parse_action(word)


def _parse_action(word: str) -> Action:
    text = word.strip() if isinstance(word, str) else ""
    if text == SKIP_DRAW:
        return Skip()
    draw_word, plant_word, discard_word = _action_words()
    if match := draw_word.match(text):
        card = match["card"]
        return Draw(match["owner"], Card.parse(card) if card else None)
    if match := plant_word.match(text):
        return Plant(Card.parse(match["card"]), Coord(int(match["x"]), int(match["y"])))
    if match := discard_word.match(text):
        return Discard(Card.parse(match["card"]))
    raise ActionError(
        f"{word!r} is no action: a draw is d, d:Ma3, a player's name (Ben, Ben:Oa5) or -; "
        f"a planting Ma3@0,1; a discard /Oa5"
    )


def parse_turn_text(
    text: str,
) -> tuple[int | None, str | None, tuple[DrawAction, DrawAction, Plant, Discard], tuple[str, ...]]:
    """A turn's line read: its number and player (None when left out), its four actions and its
    trailing glyphs. Comments and variations are refused (ActionError): they are the record's."""
    if not isinstance(text, str) or any(mark in text for mark in "{;()"):
        raise ActionError(f"a turn is read here without comments or variations, not {text!r}")
    rest = text.strip()
    glyphs: list[str] = []
    number_word, glyph_tail = _turn_parts()
    while (tail := glyph_tail.search(rest)) is not None and tail.start() > 0:
        glyphs.insert(0, tail["glyph"])
        rest = rest[: tail.start()]
    number = None
    if numbered := number_word.match(rest):
        number = int(numbered["number"])
        rest = rest[numbered.end() :]
    words = rest.split()
    player = None
    if len(words) == 5 and re.fullmatch(NAME, words[0]):
        player, words = words[0], words[1:]
    if len(words) != 4:
        raise ActionError(
            f"a turn is [12.] [Ana] draw draw planting /discard, such as 'Ana d d Ma3@0,1 /Oa5', not {text.strip()!r}"
        )
    actions = tuple(parse_action(word) for word in words)
    wanted = ((Draw, Skip), (Draw, Skip), (Plant,), (Discard,))
    for word, action, kinds, part in zip(
        words, actions, wanted, ("first draw", "second draw", "planting", "discard"), strict=False
    ):
        if not isinstance(action, kinds):
            raise ActionError(f"{word!r} stands where the turn's {part} is due")
    # Four actions, each of its kind: the loop above checked them against ``wanted``.
    return number, player, cast(tuple[DrawAction, DrawAction, Plant, Discard], actions), tuple(glyphs)
