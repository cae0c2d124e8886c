"""The replayer's what-if board: another turn typed in place of the current one, judged beside it.

The entry line completes what is legal as the recorder's does (record/choices.py); Enter checks the
turn by the rules, then judges it in a worker thread, a spinner turning meanwhile
(analysis.game.what_if: the same worlds, seed and budget as `arbo analyse`). The app adds the try
to the record in memory as a variation of the turn (:func:`add_variation`), which ``W`` writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, LoadingIndicator, Static
from textual.worker import get_current_worker

from arbo_notation.analysis.game import tried_note, tried_turn, what_if
from arbo_notation.analysis.turns import TryJudgement
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError, visible
from arbo_notation.game.knowledge import Hypothesis
from arbo_notation.game.tree import Node
from arbo_notation.notation.engine_notes import with_note
from arbo_notation.notation.model import Turn
from arbo_notation.record.choices import Completions, Phase, completions


@dataclass(frozen=True, slots=True)
class TrySession:
    """What the recorder's completions read (record.choices.Session), for a turn tried at a node:
    the table before the turn, the mover as the seat (who may name a card drawn from the deck)."""

    game: Game
    seat: str | None

    @property
    def species(self) -> tuple[str, ...]:
        return self.game.config.species

    @property
    def phase(self) -> Phase:
        return Phase.TURNS

    def pending_reveals(self) -> list[str]:
        return []

    def syntax_problem(self, text: str) -> str:
        return ""  # the rules' objection is the completions' own; Enter says the rest


@dataclass(frozen=True, slots=True)
class Tried:
    """A what-if judged: the tried turn as the record will hold it, and the judgement."""

    turn: Turn
    judgement: TryJudgement


class TryInput(Input):
    """The entry line: Tab takes the completion shown first, ↑ ↓ choose another (taken here, in
    the line's own turn with the characters typed before them, as the recorder's line does)."""

    KEYS: ClassVar[dict[str, int]] = {"tab": 0, "up": -1, "down": 1}

    async def _on_key(self, event: events.Key) -> None:
        step = self.KEYS.get(event.key)
        screen = self.screen
        if step is None or not isinstance(screen, WhatIfScreen):
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        screen.complete(step)


class WhatIfScreen(ModalScreen[Tried | None]):
    """Type a turn in place of ``node``'s; Enter judges it (a spinner meanwhile), Esc closes."""

    DEFAULT_CSS = """
    WhatIfScreen { align: center bottom; }
    WhatIfScreen > Vertical {
        width: 100%; max-width: 100; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    WhatIfScreen #try-choices { height: auto; max-height: 2; }
    WhatIfScreen #try-message { height: auto; }
    WhatIfScreen #try-message.-error { color: $error; text-style: bold; }
    WhatIfScreen LoadingIndicator { height: 1; display: none; }
    WhatIfScreen.-working LoadingIndicator { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, node: Node, *, budget: int, seed: str, hypotheses: tuple[Hypothesis, ...] = ()) -> None:
        super().__init__()
        self.node = node
        self.hypotheses = hypotheses  # judged under them; the try's value then goes into no note
        self.budget = budget
        self.seed = seed
        turn = node.turn
        assert turn is not None and node.parent is not None, "a what-if replaces a turn"
        self.turn = turn
        self.session = TrySession(node.parent.position, turn.player)
        self.completions = Completions(0, ())
        self._completed_text = ""  # the text self.completions answer
        self.selected = 0

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"What if: turn {self.node.number}, {visible(self.turn.player)}"
            played = self.turn.notation().split(" ", 1)[1]
            yield Label(Text(visible(f"played: {played}   (Tab completes, Enter judges, Esc closes)")))
            yield TryInput(placeholder="another turn, such as d d Ma3@0,1 /Oa5", id="try-entry")
            yield Static("", id="try-choices")
            yield LoadingIndicator()
            yield Static("", id="try-message")

    def on_mount(self) -> None:
        self._entry = self.query_one("#try-entry", Input)
        self._entry.focus()
        self._complete_for("")

    def _complete_for(self, text: str) -> None:
        self.completions = completions(self.session, text)
        self._completed_text = text
        self.selected = 0
        self._show_choices()

    def _show_choices(self) -> None:
        found = self.completions
        text = Text()
        if found.choices:
            text.append("Tab ▸ ", style="dim")
            for index, choice in enumerate(found.choices[:12]):
                text.append(f" {choice.rstrip()} ", style="bold reverse" if index == self.selected else "bold")
            if len(found.choices) > 12:
                text.append(f" +{len(found.choices) - 12} more", style="dim")
        elif found.problem:
            text.append(f"✗ {found.problem}", style="yellow")
        elif found.hint:
            text.append(found.hint, style="dim italic")
        self.query_one("#try-choices", Static).update(text)

    def complete(self, step: int) -> None:
        """Tab (``step`` 0): the chosen completion into the line; ↑ ↓: another one. Both answer the
        text as it stands: keys typed in a burst reach the line before their changes reach this
        screen, so the completions may still be those of an older text (as the recorder's line)."""
        entry = self._entry
        if entry.value != self._completed_text:
            self._complete_for(entry.value)
        if step:
            count = len(self.completions.choices)
            if count:
                self.selected = (self.selected + step) % count
                self._show_choices()
            return
        if not self.completions.choices:
            return
        value = self.completions.apply(entry.value, self.selected)
        entry.value = value
        entry.cursor_position = len(value)
        self._complete_for(value)

    @on(Input.Changed, "#try-entry")
    def changed(self, event: Input.Changed) -> None:
        if event.value == self._entry.value and event.value != self._completed_text:  # else stale, or done
            self._complete_for(event.value)

    @on(Input.Submitted, "#try-entry")
    def submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text or self.has_class("-working"):
            return
        try:
            tried = tried_turn(self.node, text)
        except ArboError as error:
            self._say(f"✗ {error}", error=True)
            return
        self.set_class(True, "-working")
        self._entry.disabled = True
        self._say("judging both turns in the same worlds…")
        self.judge(text, tried)

    @work(thread=True, exclusive=True)
    def judge(self, text: str, tried: Turn) -> None:
        """The judgement, off the event loop: the spinner turns while it runs."""
        try:
            judgement = what_if(self.node, text, budget=self.budget, seed=self.seed, hypotheses=self.hypotheses)
        except ArboError as error:
            message = str(error)
            if not get_current_worker().is_cancelled:
                self.app.call_from_thread(self._failed, message)
            return
        if not get_current_worker().is_cancelled:
            # A value found under hypotheticals holds only under them: the record keeps the try alone.
            kept = tried if self.hypotheses else with_note(tried, tried_note(judgement))
            self.app.call_from_thread(self.dismiss, Tried(kept, judgement))

    def _failed(self, message: str) -> None:
        self.set_class(False, "-working")
        self._entry.disabled = False
        self._entry.focus()
        self._say(f"✗ {message}", error=True)

    def _say(self, message: str, *, error: bool = False) -> None:
        widget = self.query_one("#try-message", Static)
        widget.set_class(error, "-error")
        widget.update(Text(visible(message, "\n")))

    def action_cancel(self) -> None:
        self.workers.cancel_all()
        self.dismiss(None)


def judgement_text(judgement: TryJudgement, written: bool, supposing: str = "") -> Text:
    """The what-if's judgement under the board: both values, the better one, and how to keep it;
    ``supposing`` names the hypotheticals it was judged under, if any."""
    lines = judgement.lines()
    text = Text(lines[0], style="bold magenta")
    for line in lines[1:]:
        text.append("\n" + line, style="magenta")
    if supposing:
        text.append(f"\njudged supposing {supposing}: the record keeps the try without its value", style="cyan")
    text.append(
        "\nthe try is in the record as a variation"
        if written
        else "\nW writes the try into the record (v steps in and out)",
        style="dim",
    )
    return text
