"""`arbo record`'s terminal screen: the board as the record knows it, and one input line that takes
the next turn, checked by the engine as it is entered, with completions of what is legal now.

The recording itself (entries, undo, the end of the game, the file) is the session's
(:mod:`arbo_notation.record.session`); this screen shows it and hands it what is typed. The board, the
move list and the scoring screen are the replayer's widgets, fed by a model of the record so far.
"""

from __future__ import annotations

from typing import ClassVar

from rich.highlighter import Highlighter
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal
from textual.widgets import Footer, Input, Static

from arbo_notation.errors import ArboError, visible
from arbo_notation.present.navigation import ReplayModel
from arbo_notation.record.session import Accepted, Completions, EntryError, Phase, RecordingSession
from arbo_notation.tui.app import HelpScreen, ScoringScreen
from arbo_notation.tui.widgets import MoveList, PlayerPanel

KEYS_HELP = """\
[b]A turn[/b] (the turn number and the player may be left out)
  d d:Ma3 Ma3@0,1 /Oa5    two draws, the planting, the discard
  Ben:Oa5 d Oa5@1,0 /Wi7  from Ben's discard pile, then the deck
  d: the deck (d:Ma3 names the card)   -: nothing left to draw
  then glyphs (! ? !! ?? !? ?! $n) and {comments} if you like

[b]Keys[/b]
  Tab       the completion shown first (↑ ↓ choose another)
  Enter     check the entry: a legal one is written at once
  Ctrl+Z    take back the last turn, or during the reveals the last hand (or type undo)
  Esc       clear the line         F2      the scoring
  F3        the moves, in place of the arboretums (on a screen under 110 columns)
  F1        this help              Ctrl+Q  quit (all is saved)

[b]Alone on the line[/b]
  !?  or  {a comment}    for the last turn
  reveal Ben Oa2 Ja1 …   a hand at the end (known ones filled in)
  result *               the game stops unfinished
"""


class RecordHelp(HelpScreen):
    """The turn syntax, the keys and the species' colours; any key closes it."""

    def __init__(self, species: tuple[str, ...]) -> None:
        super().__init__(species, KEYS_HELP, "arbo record: help")


class RecordScoring(ScoringScreen):
    """The replayer's scoring screen, with the keys its footer lists, as in the replayer: Back
    (← or h, and Esc or Enter) and s back to the record, ? the help, q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,left,h,s", "close", "Back to the record"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "leave", "Quit"),
    ]

    def action_close(self) -> None:
        self.dismiss()

    def action_help(self) -> None:
        self.app.push_screen(RecordHelp(tuple(self.model.species)))

    def action_leave(self) -> None:
        self.app.exit()  # every entry accepted is already in the file


def choices_text(choices: tuple[str, ...], selected: int, width: int) -> Text:
    """The completions in one line of ``width`` cells, the selected one highlighted; a window
    around it when they do not all fit."""
    if not choices:
        return Text()
    words = [choice.rstrip() or choice for choice in choices]
    label = "Tab ▸ "
    room = max(12, width - len(label) - len(" …999") - len(" +999 more"))

    def cells(word: str) -> int:
        return len(word) + 3  # ' word ' and a space

    first = 0
    while sum(cells(w) for w in words[first : selected + 1]) > room and first < selected:
        first += 1
    text = Text(label, style="dim")
    if first:
        text.append(f"…{first} ", style="dim")
    used = 0
    for index in range(first, len(words)):
        word = words[index]
        if used + cells(word) > room and index > selected:
            text.append(f"+{len(words) - index} more", style="dim")
            break
        text.append(f" {word} ", style="bold reverse" if index == selected else "bold")
        text.append(" ")
        used += cells(word)
    return text


def fault_span(text: str, column: int) -> tuple[int, int]:
    """The characters of ``text`` a fault at ``column`` (1-based) marks: the word it opens, or
    the one character there (a space where none belongs)."""
    start = min(len(text), max(0, column - 1))
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, max(end, start + 1)


class FaultMark(Highlighter):
    """Marks the fault of the entry refused last, in the line as typed, for as long as the line
    is unchanged: the cursor stays where the typing was (moving it there would garble the next
    keys typed), the mark shows where to mend."""

    STYLE = "bold underline red"

    def __init__(self) -> None:
        self.refused: str | None = None
        self.span = (0, 0)

    def mark(self, refused: str | None, column: int | None = None) -> None:
        self.refused = refused if column is not None else None
        self.span = fault_span(refused, column) if refused is not None and column is not None else (0, 0)

    def highlight(self, text: Text) -> None:
        if self.refused is not None and text.plain == self.refused:
            text.stylize(self.STYLE, *self.span)


class EntryInput(Input):
    """The input line. Tab and the arrows are taken here, in the line's own turn with the
    characters typed before them: a key binding's action would run later, after the line has
    taken in the keys typed after it (pasted text, a fast typist)."""

    KEYS: ClassVar[dict[str, int]] = {"tab": 0, "up": -1, "down": 1}
    # For the footer: _on_key acts.
    BINDINGS: ClassVar[list[BindingType]] = [Binding("tab", "complete", "Complete", key_display="Tab")]

    def action_complete(self) -> None:
        app = self.app
        if isinstance(app, RecordApp):
            app.complete_entry()

    async def _on_key(self, event: events.Key) -> None:
        step = self.KEYS.get(event.key)
        app = self.app
        if step is None or not isinstance(app, RecordApp):
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        if step:
            app.choose(step)
        else:
            app.complete_entry()


class RecordApp(App[None]):
    """Record one game as it is played."""

    TITLE = "arbo record"
    ENABLE_COMMAND_PALETTE = False
    # Textual declares the breakpoints instance attributes, so they cannot be ClassVars.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012 (Textual declares it a plain list)

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
    #status { height: 1; padding: 0 1; color: $text-muted; text-style: bold;
              text-wrap: nowrap; text-overflow: ellipsis; }
    #main { height: 1fr; }
    #board { width: 1fr; height: 1fr; layout: grid; grid-size: 2; grid-gutter: 0 0; }
    #board.players-2 { grid-size: 2 1; }
    #moves { width: 40; height: 1fr; }
    Screen.-narrow #moves { display: none; }
    Screen.-narrow.-show-moves #moves { display: block; width: 1fr; }
    Screen.-narrow.-show-moves #board { display: none; }
    Screen.-narrow PlayerPanel > ArboretumGrid { margin-top: 0; }
    #entry { border: round $accent; border-title-color: $text; border-title-style: bold; margin: 0 0; }
    #entry.-done { border: round $success; }
    #choices { height: auto; max-height: 2; padding: 0 1; }
    #message { height: auto; max-height: 2; padding: 0 1; }
    #message.-error { color: $error; text-style: bold; }
    #message.-ok { color: $success; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", "Undo", key_display="^Z"),
        Binding("escape", "clear", "Clear", key_display="Esc"),  # shown: after an error, the way out
        Binding("f2", "scoring", "Score", key_display="F2"),
        Binding("f3", "moves", "Moves", key_display="F3"),  # beside the board from 110 columns; here in its place
        Binding("f1", "help", "Help", key_display="F1"),
        Binding("ctrl+q", "quit", "Quit", key_display="^Q", priority=True),
    ]

    def __init__(self, session: RecordingSession) -> None:
        super().__init__()
        self.session = session
        self.completions = Completions(0, ())
        self._completed_text = ""
        self.selected = 0
        self.model: ReplayModel | None = None
        self._refused: str | None = None  # the entry the message under the input refuses, as typed
        self._fault = FaultMark()

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        session = self.session
        yield Static(self._title_text(), id="title")
        yield Static("", id="status")
        with Horizontal(id="main"):
            with Grid(id="board", classes=f"players-{len(session.players)}"):
                for seat, player in enumerate(session.players):
                    yield PlayerPanel(player, session.species, id=f"p{seat}")
            moves = MoveList((), id="moves")
            moves.can_focus = False
            yield moves
        yield EntryInput(placeholder="the next turn, such as d d Ma3@0,0 /Oa5", id="entry", highlighter=self._fault)
        yield Static("", id="choices")
        yield Static("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        self._entry = self.query_one("#entry", Input)
        self._panels = list(self.query(PlayerPanel))
        self._show_record()
        self._prepare_entry()
        for warning in self.session.warnings:
            self._say(f"! {warning.message}", "warning")
        self._entry.focus()

    def _title_text(self) -> Text:
        session = self.session
        text = Text("arbo record", style="bold")
        text.append("  │  ", style="dim")
        players = " vs ".join(session.players) if len(session.players) == 2 else ", ".join(session.players)
        header = session.header
        parts = [
            players,
            f"from {session.seat}'s seat" if session.seat else "as a referee",
            session.path.name,
            *(x for x in (header.event, header.date) if x),
        ]
        text.append(visible(" · ".join(parts)))
        return text

    # -- showing the record -----------------------------------------------------------------

    def _show_record(self) -> None:
        """The board, the move list and the status after the record's last entry."""
        session = self.session
        try:
            model = ReplayModel.from_record(session.record())
        except ArboError:  # pragma: no cover - the session only holds records that set up a game
            return
        model.set_perspective(None)  # every card the record knows: the recorder's seat sees them
        model.end()
        self.model = model
        for panel in self._panels:
            panel.view = model.player_view(panel.player)
        moves = self.query_one(MoveList)
        moves.set_rows(model.rows())
        moves.current = model.row_index()
        moves.scroll_to_highlight()
        self.query_one("#status", Static).update(Text(visible(self._status())))

    def _status(self) -> str:
        session = self.session
        game = session.game
        turns = len(session.turns)
        parts = [f"deck {game.deck_size}", f"{turns} turn{'s' if turns != 1 else ''} recorded"]
        if session.turns:
            last = session.record().turns[-1]
            parts.append(f"last: {last.number}. {last.notation()}{''.join(' ' + g for g in last.glyphs)}")
        return " · ".join(parts)

    def _prepare_entry(self, keep: str = "") -> None:
        """The prompt for what the session asks now; at the end, the next hand to reveal
        with the cards the record already knows."""
        session = self.session
        entry = self._entry
        entry.border_title = session.prompt()
        entry.set_class(session.phase is Phase.DONE, "-done")
        value = keep
        if not keep and session.phase is Phase.REVEAL:
            value = session.reveal_prefill(session.pending_reveals()[0])
        entry.value = value
        entry.cursor_position = len(value)
        placeholders = {
            Phase.HAND: "the dealt hand, such as Ca1 Ca4 Dw2 Ja2 Ma5 Oa6 Wi7",
            Phase.TURNS: "the next turn, such as d d Ma3@0,0 /Oa5",
            Phase.REVEAL: "reveal Ben Oa2 Ja1 …",
            Phase.DONE: "recorded: F2 shows the scoring, Ctrl+Z takes back the last turn",
        }
        entry.placeholder = placeholders[session.phase]
        self._complete_for(value)

    def _complete_for(self, text: str) -> None:
        self.completions = self.session.completions(text)
        self._completed_text = text
        self.selected = 0
        self._show_choices()

    def _show_choices(self) -> None:
        choices = self.query_one("#choices", Static)
        width = choices.content_region.width or self.size.width - 2
        completions = self.completions
        text = choices_text(completions.choices, self.selected, width)
        if completions.problem and self._entry.value != self._refused:  # else the message says it, once
            text = Text.assemble(text, "\n" if text else "", (f"✗ {completions.problem}", "yellow"))
        elif not text and completions.hint:
            text = Text(completions.hint, style="dim italic")
        choices.update(text)

    def _say(self, message: str, kind: str) -> None:
        widget = self.query_one("#message", Static)
        widget.set_class(kind == "error", "-error")
        widget.set_class(kind == "ok", "-ok")
        widget.update(Text(visible(message, "\n")))

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_choices)

    # -- entries ----------------------------------------------------------------------------

    @on(Input.Changed, "#entry")
    def changed(self, event: Input.Changed) -> None:
        if event.value == self._entry.value and event.value != self._completed_text:  # else stale, or done
            self._complete_for(event.value)

    @on(Input.Submitted, "#entry")
    def submitted(self, event: Input.Submitted) -> None:
        self.enter(event.value)

    def enter(self, text: str) -> Accepted | None:
        """Hand an entry to the session: an error shown under the input line, the fault marked in
        the line kept as typed, the cursor at its end; an accepted entry shown on the board and the
        input line cleared."""
        was_done = self.session.phase is Phase.DONE
        try:
            accepted = self.session.enter(text)
        except EntryError as error:
            self._refused = text
            self._say(f"✗ {error.message}", "error")
            self._fault.mark(text, error.column)
            self._entry.cursor_position = len(text)
            self._entry.refresh()
            self._show_choices()
            return None
        if accepted is None:
            if self.session.phase is Phase.DONE:
                self.action_scoring()
            return None
        self._accepted(accepted)
        if self.session.phase is Phase.DONE and not was_done:
            self.action_scoring()
        return accepted

    def _accepted(self, accepted: Accepted) -> None:
        verb = "taken back" if accepted.kind == "undo" else "written"
        shown = " · ".join(accepted.lines)
        self._say(f"✓ {verb}: {shown}", "ok")
        self._show_record()
        self._prepare_entry()

    # -- actions ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the help or the scoring is open, the keys are theirs."""
        if action == "quit":
            return True
        return self.screen is self.screen_stack[0]

    def complete_entry(self) -> None:
        """Tab: the chosen completion into the input line."""
        entry = self._entry
        if entry.value != self._completed_text:  # keys typed faster than their changes came
            self._complete_for(entry.value)
        if not self.completions.choices:
            return
        value = self.completions.apply(entry.value, self.selected)
        entry.value = value
        entry.cursor_position = len(value)
        self._complete_for(value)

    def choose(self, step: int) -> None:
        """↑ ↓: another completion."""
        if self._entry.value != self._completed_text:
            self._complete_for(self._entry.value)
        count = len(self.completions.choices)
        if count:
            self.selected = (self.selected + step) % count
            self._show_choices()

    def action_undo(self) -> None:
        try:
            accepted = self.session.undo()
        except EntryError as error:
            self._say(f"✗ {error.message}", "error")
            return
        self._accepted(accepted)

    def action_clear(self) -> None:
        self._entry.value = ""
        self._say("", "")

    def action_moves(self) -> None:
        """Show the move list in place of the arboretums, or the arboretums again (a narrow screen
        has no room for both; a wide one shows both, and the key changes nothing there)."""
        self.screen.toggle_class("-show-moves")

    def action_scoring(self) -> None:
        sheet = self.session.sheet()
        if sheet is None or self.model is None:
            reason = "the game is not over" if not self.session.game.is_over else "a hand is not revealed yet"
            self.notify(f"no scoring yet: {reason}", timeout=2, markup=False)
            return
        self.push_screen(RecordScoring(self.model))

    def action_help(self) -> None:
        self.push_screen(RecordHelp(self.session.species))
