"""The replayer's hypotheticals: from a seat's view, an unseen card supposed in another player's hand.

The picker offers the hands that hold cards the seat does not know, then the cards the seat's
knowledge allows there (``Knowledge.places``); Tab completes, arrows choose, Enter supposes.
A hypothetical lives in the app only: the record never holds one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from arbo_notation.engine.cards import Card, card_order
from arbo_notation.errors import ArboError, visible
from arbo_notation.game.knowledge import UNKNOWN, Hypothesis, Knowledge, suppose

#: How a supposed card is marked in a hand on the board.
MARK = "*"


@dataclass(frozen=True, slots=True)
class Choices:
    """What the picker offers for the text typed: the choices, and where the word they complete starts."""

    start: int
    choices: tuple[str, ...]


def hands_open(known: Knowledge) -> tuple[str, ...]:
    """The hands a card may be supposed in: those holding cards the view does not know (the seat's
    own hand excepted, which it knows)."""
    return tuple(p for p, hand in known.hands.items() if hand.unknown and p != known.view.seat)


def cards_allowed(known: Knowledge, player: str) -> tuple[Card, ...]:
    """The unseen cards the view's knowledge allows in ``player``'s hand, in card order."""
    return tuple(sorted((c for c, where in known.places.items() if player in where), key=card_order))


def choices_for(known: Knowledge, text: str) -> Choices:
    """The players (first word), then the cards allowed in that player's hand (second word)."""
    head, space, rest = text.partition(" ")
    if not space:
        return Choices(0, tuple(p for p in hands_open(known) if p.lower().startswith(head.lower())))
    player = next((p for p in hands_open(known) if p.lower() == head.lower()), None)
    if player is None or " " in rest.strip():
        return Choices(len(text), ())
    cards = (str(c) for c in cards_allowed(known, player))
    return Choices(len(head) + 1, tuple(c for c in cards if c.lower().startswith(rest.lower())))


def parse_hypothesis(known: Knowledge, text: str) -> Hypothesis:
    """``Ben Ca4``: the hypothetical, checked against the view's knowledge (ArboError saying why)."""
    words = text.split()
    if len(words) != 2:
        raise ArboError("name a hand and a card, such as: Ben Ca4")
    player = next((p for p in known.players if p.lower() == words[0].lower()), words[0])
    try:
        card = Card.parse(words[1])
    except ArboError:
        raise ArboError(f"{words[1]} is no card: a species and a value, such as Ca4") from None
    hypothesis = Hypothesis(player, card)
    suppose(known, [hypothesis])
    return hypothesis


def marked_hand(known: Knowledge, player: str, supposed: frozenset[Card]) -> tuple[str, ...]:
    """The hand as the board shows it, each supposed card marked (``Ca4*``)."""
    hand = known.hands[player]
    return tuple(f"{c}{MARK}" if c in supposed else str(c) for c in hand.known) + (UNKNOWN,) * hand.unknown


class PickInput(Input):
    """The picker's line: Tab takes the choice shown first (or chosen), ↑ ↓ choose another."""

    KEYS: ClassVar[dict[str, int]] = {"tab": 0, "up": -1, "down": 1}

    async def _on_key(self, event: events.Key) -> None:
        step = self.KEYS.get(event.key)
        screen = self.screen
        if step is None or not isinstance(screen, SupposeScreen):
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        screen.complete(step)


class SupposeScreen(ModalScreen[Hypothesis | None]):
    """Choose a hand, then a card that may be in it; Enter supposes it there, Esc closes."""

    DEFAULT_CSS = """
    SupposeScreen { align: center bottom; }
    SupposeScreen > Vertical {
        width: 100%; max-width: 100; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    SupposeScreen #suppose-choices { height: auto; max-height: 3; }
    SupposeScreen #suppose-message { height: auto; color: $error; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, known: Knowledge) -> None:
        super().__init__()
        self.known = known
        self.found = Choices(0, ())
        self.selected = 0

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Suppose a card, from {visible(str(self.known.view))}"
            yield Label("a hand, then a card it may hold (Tab completes, Enter supposes, Esc closes)")
            yield PickInput(placeholder="such as: Ben Ca4", id="suppose-entry")
            yield Static("", id="suppose-choices")
            yield Static("", id="suppose-message")

    def on_mount(self) -> None:
        self._entry = self.query_one("#suppose-entry", Input)
        self._entry.focus()
        self._offer("")

    def _offer(self, text: str) -> None:
        self.found = choices_for(self.known, text)
        self.selected = 0
        self._show_choices()

    def _show_choices(self) -> None:
        text = Text()
        if self.found.choices:
            text.append("Tab ▸ ", style="dim")
            for index, choice in enumerate(self.found.choices[:24]):
                text.append(f" {visible(choice)} ", style="bold reverse" if index == self.selected else "bold")
            if len(self.found.choices) > 24:
                text.append(f" +{len(self.found.choices) - 24} more", style="dim")
        else:
            text.append("nothing to offer here", style="dim italic")
        self.query_one("#suppose-choices", Static).update(text)

    def complete(self, step: int) -> None:
        """Tab (``step`` 0): the chosen choice into the line; ↑ ↓: another one."""
        count = len(self.found.choices)
        if not count:
            return
        if step:
            self.selected = (self.selected + step) % count
            self._show_choices()
            return
        choice = self.found.choices[self.selected]
        value = self._entry.value[: self.found.start] + choice + (" " if self.found.start == 0 else "")
        self._entry.value = value
        self._entry.cursor_position = len(value)
        self._offer(value)

    @on(Input.Changed, "#suppose-entry")
    def changed(self, event: Input.Changed) -> None:
        self._offer(event.value)

    @on(Input.Submitted, "#suppose-entry")
    def submitted(self, event: Input.Submitted) -> None:
        try:
            hypothesis = parse_hypothesis(self.known, event.value)
        except ArboError as error:
            self.query_one("#suppose-message", Static).update(Text(visible(f"✗ {error}")))
            return
        self.dismiss(hypothesis)

    def action_cancel(self) -> None:
        self.dismiss(None)
