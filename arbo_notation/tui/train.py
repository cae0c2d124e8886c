"""`arbo train`'s terminal screen: the position from the mover's view, the question, and an entry
line with the recorder's completion of what is legal (Tab, ↑ ↓); the verdict under it."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Input, Static

from arbo_notation.analysis.puzzles import Position, Puzzle, answer_completions, position_of, verdict
from arbo_notation.errors import ArboError, visible
from arbo_notation.learn.history import History
from arbo_notation.present.board import render_game
from arbo_notation.record.choices import Completions
from arbo_notation.tui.record import choices_text


class AnswerInput(Input):
    """The entry line: Tab takes the completion shown first, ↑ ↓ choose another (as the recorder's)."""

    KEYS: ClassVar[dict[str, int]] = {"tab": 0, "up": -1, "down": 1}
    BINDINGS: ClassVar[list[BindingType]] = [Binding("tab", "complete", "Complete", key_display="Tab")]

    async def _on_key(self, event: events.Key) -> None:
        step = self.KEYS.get(event.key)
        app = self.app
        if step is None or not isinstance(app, TrainApp):
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        if step:
            app.choose(step)
        else:
            app.complete_entry()


class TrainApp(App[None]):
    """Ask the puzzles due, one after the other."""

    TITLE = "arbo train"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
    #board { height: 1fr; padding: 0 1; }
    #question { height: auto; padding: 0 1; text-style: bold; }
    #entry { border: round $accent; }
    #choices { height: auto; max-height: 2; padding: 0 1; }
    #message { height: auto; max-height: 3; padding: 0 1; }
    #message.-wrong { color: $error; text-style: bold; }
    #message.-right { color: $success; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", "Clear", key_display="Esc"),
        Binding("ctrl+q", "quit", "Quit", key_display="^Q", priority=True),
    ]

    def __init__(self, puzzles: list[Puzzle], history: History) -> None:
        super().__init__()
        self.history = history
        self.by_id = {p.id: p for p in puzzles}
        self.order = history.order(self.by_id, time.time())
        self.index = -1
        self.asked = self.right = 0
        self.completions = Completions(0, ())
        self.selected = 0
        self._completed_text = ""
        self.position: Position | None = None
        self.answered = False

    def compose(self) -> ComposeResult:
        yield Static("", id="title")
        with VerticalScroll(id="board"):
            yield Static("", id="table")
        yield Static("", id="question")
        yield AnswerInput(placeholder="a planting and a discard, such as Ma3@0,1 /Oa5", id="entry")
        yield Static("", id="choices")
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self._entry = self.query_one("#entry", Input)
        self.next_puzzle()
        self._entry.focus()

    @property
    def puzzle(self) -> Puzzle:
        return self.by_id[self.order[self.index]]

    def next_puzzle(self) -> None:
        self.index += 1
        self.answered = False
        if self.index >= len(self.order):
            self._finished()
            return
        puzzle = self.puzzle
        self.position = position_of(puzzle.record, puzzle.player, puzzle.draws)
        card = self.history.card(puzzle.id)
        where = "new" if card is None else f"box {card.box}"
        title = f"arbo train  │  puzzle {self.index + 1} of {len(self.order)} · {puzzle.source} · {where}"
        self.query_one("#title", Static).update(Text(visible(title), style="bold"))
        self.query_one("#table", Static).update(Text(visible(render_game(self.position.game), "\n")))
        hand = " ".join(str(c) for c in self.position.situation.hand)
        self.query_one("#question", Static).update(Text(visible(f"{puzzle.question}\nYour hand: {hand}")))
        self._entry.value = ""
        self._complete_for("")

    def _finished(self) -> None:
        self.position = None
        self.query_one("#title", Static).update(Text("arbo train  │  done", style="bold"))
        self.query_one("#table", Static).update(Text(""))
        summary = f"{self.right} of {self.asked} right" if self.asked else "nothing due"
        self.query_one("#question", Static).update(Text(f"{summary}. Ctrl+Q quits."))
        self.completions = Completions(0, ())
        self._show_choices()

    def _complete_for(self, text: str) -> None:
        self.completions = answer_completions(self.position, text) if self.position else Completions(0, ())
        self._completed_text = text
        self.selected = 0
        self._show_choices()

    def _show_choices(self) -> None:
        widget = self.query_one("#choices", Static)
        width = widget.content_region.width or self.size.width - 2
        text = choices_text(self.completions.choices, self.selected, width)
        if self.completions.problem:
            text = Text(f"✗ {self.completions.problem}", style="yellow")
        elif not text and self.completions.hint:
            text = Text(self.completions.hint, style="dim italic")
        widget.update(text)

    def _say(self, message: str, kind: str) -> None:
        widget = self.query_one("#message", Static)
        widget.set_class(kind == "wrong", "-wrong")
        widget.set_class(kind == "right", "-right")
        widget.update(Text(visible(message, "\n")))

    @on(Input.Changed, "#entry")
    def changed(self, event: Input.Changed) -> None:
        if not self.answered:
            self._complete_for(event.value)

    @on(Input.Submitted, "#entry")
    def submitted(self, event: Input.Submitted) -> None:
        if self.position is None:
            return
        if self.answered:  # Enter after a verdict: the next puzzle
            self._say("", "")
            self.next_puzzle()
            return
        puzzle = self.puzzle
        try:
            judged = verdict(puzzle, event.value, self.position)
        except ArboError as error:
            self._say(f"✗ not an answer: {error}", "wrong")
            return
        self.asked += 1
        self.right += judged.right
        self.history.record(puzzle.id, judged.answer, judged.right, time.time())
        self.answered = True
        self._say(
            f"{'✓' if judged.right else '✗'} {judged}\nEnter: the next puzzle", "right" if judged.right else "wrong"
        )

    def complete_entry(self) -> None:
        if self._entry.value != self._completed_text:  # keys typed faster than their changes came
            self._complete_for(self._entry.value)
        if self.answered or not self.completions.choices:
            return
        value = self.completions.apply(self._entry.value, self.selected)
        self._entry.value = value
        self._entry.cursor_position = len(value)
        self._complete_for(value)

    def choose(self, step: int) -> None:
        if self._entry.value != self._completed_text:
            self._complete_for(self._entry.value)
        count = len(self.completions.choices)
        if count:
            self.selected = (self.selected + step) % count
            self._show_choices()

    def action_clear(self) -> None:
        self._entry.value = ""


def run_train(puzzles: list[Puzzle], history: History) -> None:
    TrainApp(puzzles, history).run()
