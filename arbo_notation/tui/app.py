"""`arbo replay`'s terminal UI: step through a recorded game, its variations, and the scoring.

The app keeps the cursor, the perspective and the pile display in reactive attributes; their
watchers hand each widget its new data, and widgets whose data did not change are not redrawn.
Every position was computed once by the model (:mod:`arbo_notation.present.navigation`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.reactive import var
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Input, Label, Static

from arbo_notation.engine.cards import species_name
from arbo_notation.analysis.accuracy import ACCURACY_RULE, of_record
from arbo_notation.engine.scoring import ScoreSheet, SpeciesScore
from arbo_notation.errors import ArboError, visible
from arbo_notation.game.knowledge import Hypothesis, Knowledge, suppose
from arbo_notation.runtime.atomic import FileChanged, fingerprint, rewrite_unchanged, write_atomic
from arbo_notation.runtime.gcpause import freeze_long_lived, thaw_long_lived
from arbo_notation.present.navigation import Cursor, Notes, ReplayModel, scored_cells
from arbo_notation.tui.knowledge import KnowledgePanel
from arbo_notation.tui.hypotheses import SupposeScreen, marked_hand
from arbo_notation.present.report import winner_line
from arbo_notation.tui.widgets import (
    ArboretumGrid,
    KeyBar,
    KeyHint,
    MoveList,
    NotesPanel,
    PlayerPanel,
    legend_text,
    species_styles,
)

if TYPE_CHECKING:
    from arbo_notation.tui.whatif import Tried  # the module loads with its first what-if (action_what_if)

KEYS_HELP = """\
[b]Moving[/b]
  →  l        next turn (at the end: the scoring)
  ←  h        previous turn
  Home / End  start / end of the line
  g           go to a turn number
  v           enter the turn's variation; again: the next one, then back
  Esc         leave the variation, back to the turn it replaces
  Enter       (in the move list) go to the chosen turn

[b]Showing[/b]
  p           whose view: all hands, or one player's (the others' hidden)
  k           what the view knows: unseen cards by species, rights to score
  d           whole discard piles, or only their top cards
  m           show or hide the move list and notes

[b]What if[/b]
  w           type another turn in place of the current one (Tab completes what
              is legal); Enter judges both in the same sampled worlds, and the
              try stays as a variation of the turn
  W           write the tries into the record file (a new copy renamed over it)
  c           from a seat's view: suppose an unseen card in another hand (a
              hypothetical); the board, the knowledge and a what-if follow it,
              the record never holds it
  C           clear the hypotheticals
  s           the scoring (at any time: as if the game ended there)
  S           save a screenshot (SVG) in the current folder
  ?           this help
  q           quit
"""


KEYS = [
    Binding("right,l", "next", "Next", key_display="→", priority=True),
    Binding("left,h", "previous", "Prev", key_display="←", priority=True),
    Binding("home", "home", "Start", priority=True),
    Binding("end", "end", "End", priority=True),
    Binding("g", "goto", "Go to", priority=True),
    Binding("v", "variation", "Variation", priority=True),
    Binding("escape", "leave", "Leave var.", show=False, priority=True),
    Binding("p", "perspective", "View", priority=True),
    Binding("s", "scoring", "Score", priority=True),
    Binding("k", "knowledge", "Known", priority=True),
    Binding("d", "piles", "Piles", priority=True),
    Binding("m", "side", "Moves", priority=True),
    Binding("w", "what_if", "What if", priority=True),
    Binding("W", "write", "Write", key_display="W", priority=True),
    Binding("c", "suppose", "Suppose", priority=True),
    Binding("C", "clear_hypotheses", "Clear", key_display="C", priority=True),
    Binding("question_mark", "help", "Help", key_display="?", priority=True),
    Binding("q", "quit", "Quit", priority=True),
    Binding("S", "screenshot", "Shot", key_display="S", priority=True),
]


def key_hints(keep: dict[str, int], described: dict[str, str] | None = None) -> tuple[KeyHint, ...]:
    """The key bar's hints for the actions in ``keep``, in its order, with how long each is kept
    (0: always), written as the bindings of :data:`KEYS` say unless ``described`` says otherwise."""
    described = described or {}
    bindings = {binding.action: binding for binding in KEYS}
    hints = []
    for action, kept in keep.items():
        binding = bindings[action]
        key = binding.key.split(",")[0]
        description = described.get(action, binding.description)
        hints.append(KeyHint(key, binding.key_display or key, description, kept))
    return tuple(hints)


#: The main screen's keys, left to right: moving, help and quit always; the others as room allows
#: (Home, End, Escape and the hypotheticals' c and C only in the help).
MAIN_KEYS = key_hints(
    {
        "previous": 0,
        "next": 0,
        "goto": 4,
        "variation": 1,
        "perspective": 2,
        "scoring": 1,
        "knowledge": 3,
        "piles": 3,
        "side": 2,
        "what_if": 1,
        "write": 5,
        "screenshot": 5,
        "help": 0,
        "quit": 0,
    }
)
SCORING_KEYS = key_hints({"previous": 0, "scoring": 0, "help": 0, "quit": 0}, {"previous": "Back", "scoring": "Board"})


class HelpScreen(ModalScreen[None]):
    """The keys (``text``, the replayer's by default) and the species' colours; any key closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 84; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 2;
    }
    HelpScreen Static { width: 100%; height: auto; }
    """

    def __init__(self, species: tuple[str, ...], text: str = KEYS_HELP, title: str = "arbo replay: keys") -> None:
        super().__init__()
        self.species = species
        self.text = text
        self.title_text = title

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = self.title_text
            yield Static(self.text)
            yield Static(legend_text(self.species))
            yield Static(Text("any key closes this help", style="dim italic"))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss()

    def on_click(self) -> None:
        self.dismiss()


class GotoScreen(ModalScreen[int | None]):
    """A prompt for a turn number (0: the setup)."""

    DEFAULT_CSS = """
    GotoScreen { align: center middle; }
    GotoScreen > Vertical {
        width: 44; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, last: int) -> None:
        super().__init__()
        self.last = last

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Go to turn"
            yield Label(f"Turn number, 0 to {self.last} (0: the setup)")
            yield Input(placeholder="turn", type="integer", id="turn-input")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        self.dismiss(int(value) if value.lstrip("-").isdigit() else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PathsPanel(Vertical):
    """One player on the scoring screen: the arboretum with the scored paths bright, the rest dim."""

    DEFAULT_CSS = """
    PathsPanel { border: round $panel-lighten-2; padding: 0 1; height: auto; width: 1fr; }
    PathsPanel.winner { border: double $success; border-title-color: $success; }
    PathsPanel > .paths { height: auto; color: $text-muted; }
    """

    def __init__(self, model: ReplayModel, sheet: ScoreSheet, player: str) -> None:
        super().__init__(id=f"paths-{model.players.index(player)}")
        self.model = model
        self.sheet = sheet
        self.player = player
        score = sheet.player(player)
        winner = player in sheet.winners
        self.border_title = f"{'★ ' if winner else ''}{player}: {score.total}"
        self.set_class(winner, "winner")

    def compose(self) -> ComposeResult:
        state = self.model.state
        grid = ArboretumGrid(self.model.species, fit=False)
        grid.set_reactive(ArboretumGrid.trees, tuple(sorted(state.arboretum(self.player).items())))
        grid.set_reactive(ArboretumGrid.highlight, scored_cells(self.sheet, self.player))
        yield grid
        styles = species_styles(self.model.species)
        lines = Text()
        for code, score in self.sheet.player(self.player).species.items():
            if score.path is None:
                continue
            if lines:
                lines.append("\n")
            lines.append(f" {code} ", style=styles[code])
            lines.append(f" {score.points:>2} pts  ", style="bold")
            lines.append(" ".join(str(c) for c in score.path.cards))
        yield Static(lines or Text("no path scored"), classes="paths")


#: Beside a hand sum in the narrow scoring table: the player has the right to score the species.
RIGHT_MARK = "\u2713"


class ScoringScreen(Screen[None]):
    """Rights, paths and points per species and player; totals; the winner; the paths on the grids."""

    DEFAULT_CSS = """
    ScoringScreen { layout: vertical; }
    ScoringScreen #score-title { height: 1; background: $primary-darken-1; color: $text; text-style: bold; padding: 0 1; }
    ScoringScreen #score-body { height: 1fr; }
    ScoringScreen #score-table { height: auto; max-height: 100%; margin: 0 1; }
    ScoringScreen #winner { height: auto; margin: 0 1; text-style: bold; color: $success; }
    ScoringScreen #unscored { margin: 1 2; color: $warning; }
    ScoringScreen #accuracy { height: auto; margin: 0 1 1 1; }
    ScoringScreen #paths { height: auto; layout: grid; grid-size: 2; grid-gutter: 0 1; margin: 0 1; }
    ScoringScreen.-narrow #paths { grid-size: 1; }
    """

    def __init__(self, model: ReplayModel) -> None:
        super().__init__()
        self.model = model
        self.sheet = model.sheet()
        self._compact = False

    def on_resize(self) -> None:
        if self.sheet is not None and self._fits_compact_only() != self._compact:
            self.refresh(recompose=True)

    def _fits_compact_only(self) -> bool:
        """Whether the table is too wide for the screen with a column of rights per player (then
        each hand sum carries a mark of the right instead: four players fit in 80 columns)."""
        sheet = self.sheet
        assert sheet is not None
        species = 2 + 5 + max(len(species_name(code)) for code in sheet.species)
        players = sum(2 + max(len(player.name), 4) + 7 + 5 for player in sheet.players)
        return 2 + species + players + 2 > self.app.size.width  # margins, the scroll bar

    def compose(self) -> ComposeResult:
        model = self.model
        state = model.state
        when = f"after turn {model.turns_played}"
        if not state.is_over:
            when += " (as if the game ended here)"
        yield Static(Text(f"Scoring {when} · {visible(model.title())}"), id="score-title")
        with VerticalScroll(id="score-body"):
            sheet = self.sheet
            if sheet is None:
                yield Static(Text(visible(model.unscored_reason() or "this position cannot be scored")), id="unscored")
            else:
                yield self._table(sheet)
                cancelled = [
                    f"{code}8 counts 0 in {player.name}'s hand: {score.eight_cancelled_by} holds {code}1"
                    for player in sheet.players
                    for code, score in player.species.items()
                    if score.eight_cancelled_by is not None
                ]
                if cancelled:  # why a hand with an 8 sums to less
                    yield Static(Text("\n".join(cancelled), style="italic"), id="cancelled")
                yield Static(Text(self._winner(sheet)), id="winner")
            judged = of_record(model.record)
            if judged:  # an analysed record: what its notes say of each player's play
                lines = Text()
                lines.append("Points lost and accuracy, from the engine's notes:", style="bold")
                for summary in judged:
                    lines.append("\n  " + visible(str(summary)))  # a name is the record's text
                lines.append(f"\n  ({ACCURACY_RULE})", style="dim")
                yield Static(lines, id="accuracy")
            if sheet is not None:
                with Grid(id="paths"):
                    for player in model.players:
                        yield PathsPanel(model, sheet, player)
        yield KeyBar(SCORING_KEYS)

    def _table(self, sheet: ScoreSheet) -> DataTable[Text | str]:
        compact = self._compact = self._fits_compact_only()
        table: DataTable[Text | str] = DataTable(
            id="score-table", cursor_type="none", zebra_stripes=True, header_height=2
        )
        table.add_column(Text("species\n" + (f"({RIGHT_MARK} right to score)" if compact else "")), key="species")
        for player in sheet.players:
            name = player.name
            table.add_column(Text(f"{name}\nhand", justify="right"), key=f"{name}:hand")
            if not compact:
                table.add_column(Text("\nright", justify="center"), key=f"{name}:right")
            table.add_column(Text("\npts", justify="right"), key=f"{name}:pts")
        styles = species_styles(self.model.species)
        for code in sheet.species:
            label = Text()
            label.append(f" {code} ", style=styles[code])
            label.append(f" {species_name(code)}")
            cells: list[Text | str] = [label]
            for player in sheet.players:
                cells += self._cells(player.species[code], compact)
            table.add_row(*cells, key=code)
        blanks = [Text("")] * (1 if compact else 2)
        total = [Text("total", style="bold")]
        planted = [Text("species planted", style="dim")]
        for player in sheet.players:
            total += [*blanks, Text(str(player.total), style="bold green", justify="right")]
            planted += [*blanks, Text(str(player.species_planted), style="dim", justify="right")]
        table.add_row(*total, key="total")
        table.add_row(*planted, key="planted")
        return table

    @staticmethod
    def _cells(score: SpeciesScore, compact: bool) -> list[Text]:
        """A player's cells of one species: the hand sum, the right to score (a mark beside the sum
        when ``compact``) and the points."""
        strong = "bold" if score.rights else "dim"
        points = Text(str(score.points), justify="right", style="bold green" if score.points else "dim")
        if compact:
            mark = RIGHT_MARK if score.rights else " "
            return [Text(f"{score.hand_sum}{mark}", style=strong, justify="right"), points]
        right = Text("yes" if score.rights else "no", style=strong, justify="center")
        return [Text(str(score.hand_sum), style=strong, justify="right"), right, points]

    @staticmethod
    def _winner(sheet: ScoreSheet) -> str:

        return winner_line(sheet)


def turn_line(notes: Notes) -> Text:
    """The current turn in one line, for narrow screens where the notes panel is hidden."""
    text = Text(visible(notes.heading), style="bold")
    if notes.glyphs:
        text.append(visible(" " + " ".join(notes.glyphs)), style="bold yellow")
    if notes.in_variation:
        text.append(visible(f" · {notes.in_variation}"), style="cyan")
    comments = notes.variation_before + notes.before + notes.after + notes.variation_after
    if comments:
        text.append(visible(" · " + " ".join(c.text.strip() for c in comments)), style="italic")
    if notes.variations_here:
        text.append(f" · v: {notes.variations_here} variation{'s' if notes.variations_here > 1 else ''}", style="cyan")
    for problem in notes.problems:
        text.append(visible(f" · ✗ {problem}"), style="bold red")
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


class ReplayApp(App[None]):
    """Step through one recorded game of Arboretum."""

    CSS_PATH = "app.tcss"
    TITLE = "arbo replay"
    ENABLE_COMMAND_PALETTE = False
    # Textual declares the breakpoints instance attributes, so they cannot be ClassVars.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (90, "-medium"), (120, "-wide")]  # noqa: RUF012 (Textual declares it a plain list)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]  # noqa: RUF012 (Textual declares it a plain list)

    BINDINGS: ClassVar[list[BindingType]] = list(KEYS)

    # The app's own state: watchers hand the widgets their data; the app itself is never repainted.
    cursor: var[Cursor] = var(Cursor(), init=False)
    perspective: var[str | None] = var(None, init=False)
    full_piles: var[bool] = var(False, init=False)
    knowledge_shown: var[bool] = var(False, init=False)

    def __init__(
        self,
        model: ReplayModel,
        *,
        screenshot_dir: str | Path = ".",
        knowledge: bool = False,
        source: str | None = None,
        read: bytes = b"",
        budget: int = 48,
        seed: str = "0",
    ) -> None:
        """``source`` is the record's file (None: it came from standard input) and ``read`` its
        fingerprint taken before it was read: W writes the tries back only over that file unchanged.
        ``budget`` and ``seed`` are those of a what-if's judgement (`arbo analyse`'s defaults)."""
        super().__init__()
        self.model = model
        self.source = source
        self.read = read
        self.budget = budget
        self.seed = seed
        self._tries = 0  # tries added since the record was read or written
        self._judged: tuple[frozenset[Cursor], Text] | None = None  # the last what-if, where it shows
        self._hypotheses: tuple[Hypothesis, ...] = ()  # supposed from the perspective's seat, never recorded
        self._knowledge_at_start = knowledge
        self.screenshot_dir = Path(screenshot_dir)
        self.set_reactive(ReplayApp.cursor, model.cursor)
        self.set_reactive(ReplayApp.perspective, model.perspective)
        self._status_text = ""

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        model = self.model
        yield Static(self._title_text(), id="title")
        yield Static("", id="status")
        yield Static("", id="turn-line")
        with Horizontal(id="main"):
            with Grid(id="board", classes=f"players-{len(model.players)}"):
                for seat, player in enumerate(model.players):
                    yield PlayerPanel(player, model.species, id=f"p{seat}")
            yield KnowledgePanel(id="knowledge")
            with Vertical(id="side"):
                yield MoveList(model.rows(), id="moves")
                with VerticalScroll(id="notes-box"):
                    yield NotesPanel(id="notes")
        yield Static("", id="whatif")
        yield KeyBar(MAIN_KEYS)

    def on_mount(self) -> None:
        self._panels = list(self.query(PlayerPanel))
        self._status = self.query_one("#status", Static)
        self._turn_line = self.query_one("#turn-line", Static)
        self._turn_text = Text()
        self._title = self.query_one("#title", Static)
        self._notes = self.query_one(NotesPanel)
        self._moves = self.query_one(MoveList)
        self._notes_box = self.query_one("#notes-box", VerticalScroll)
        self.query_one("#notes-box").border_title = "Notes"
        self._knowledge = self.query_one(KnowledgePanel)
        self._board = self.query_one("#board", Grid)
        if self._knowledge_at_start:
            self.set_reactive(ReplayApp.knowledge_shown, True)
            self._board.display, self._knowledge.display = False, True
        self._show()
        # Once every position is built and the screen painted, what exists lives as long as the app
        # (gcpause.freeze_long_lived).
        self.call_after_refresh(freeze_long_lived)

    def on_unmount(self) -> None:
        thaw_long_lived()

    def _title_text(self) -> Text:
        text = Text("arbo replay", style="bold")
        text.append("  │  ", style="dim")
        text.append(visible(self.model.title()))
        return text

    # -- showing the cursor -----------------------------------------------------------------

    def _show(self) -> None:
        """Hand every widget its data for the model's position; unchanged data is not redrawn."""
        model = self.model
        known = self._supposed()
        supposed = frozenset(h.card for h in self._hypotheses)
        for panel in self._panels:
            view = model.player_view(panel.player)
            if any(h.player == panel.player for h in self._hypotheses):
                view = replace(view, hand=marked_hand(known, panel.player, supposed), hand_hidden=False)
            panel.view = view
        status = model.status()
        if status != self._status_text:
            self._status_text = status
            self._status.update(Text(visible(status)), layout=False)
        notes = model.notes()
        turn_text = turn_line(notes)
        if turn_text != self._turn_text:
            self._turn_text = turn_text
            self._turn_line.update(turn_text, layout=False)
        if notes != self._notes.notes:
            self._notes.notes = notes
            if self._notes_box.scroll_y:
                self._notes_box.scroll_home(animate=False)
        self._moves.current = model.row_index()
        judged = self._judged
        shown = judged is not None and model.cursor in judged[0]
        whatif = self.query_one("#whatif", Static)
        if shown != whatif.display:
            whatif.display = shown
        if judged is not None and shown:
            whatif.update(judged[1])
        if self.knowledge_shown:
            self._knowledge.show(known, model.species, self._supposing())

    def _supposed(self) -> Knowledge:
        """What the perspective knows at the cursor, the hypotheticals supposed true; those that no
        longer fit (the card was played, or seen elsewhere) are cleared, saying why."""
        known = self.model.knowledge()
        if not self._hypotheses:
            return known
        try:
            return suppose(known, self._hypotheses)
        except ArboError as error:
            self._hypotheses = ()
            self.notify(f"hypotheticals cleared: {error}", severity="warning", markup=False)
            return known

    def _supposing(self) -> str:
        """The hypotheticals in words (empty when none stands)."""
        return ", ".join(str(h) for h in self._hypotheses)

    def watch_knowledge_shown(self, shown: bool) -> None:
        self._board.display, self._knowledge.display = not shown, shown
        self._show()

    def watch_cursor(self, cursor: Cursor) -> None:
        self.model.move_to(cursor)
        self._show()

    def watch_perspective(self, perspective: str | None) -> None:
        self._hypotheses = ()  # supposed from the seat that was the view
        self.model.set_perspective(perspective)
        self._moves.set_rows(self.model.rows())
        self._show()

    def watch_full_piles(self, full: bool) -> None:
        for panel in self._panels:
            panel.full_pile = full

    def _go(self, moved: bool) -> None:
        if moved:
            self.cursor = self.model.cursor

    # -- screens ----------------------------------------------------------------------------

    @property
    def scoring_open(self) -> bool:
        return isinstance(self.screen, ScoringScreen)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While a prompt or the help is open, the keys are theirs."""
        if isinstance(self.screen, ModalScreen):
            return False
        return True

    def _close_scoring(self) -> bool:
        if self.scoring_open:
            self.pop_screen()
            return True
        return False

    # -- actions ----------------------------------------------------------------------------

    def action_next(self) -> None:
        if self.scoring_open:
            return
        if self.model.at_end:
            self.action_scoring()
            return
        self._go(self.model.next())

    def action_previous(self) -> None:
        if self._close_scoring():
            return
        self._go(self.model.previous())

    def action_home(self) -> None:
        self._close_scoring()
        self._go(self.model.home())

    def action_end(self) -> None:
        self._close_scoring()
        self._go(self.model.end())

    def action_goto(self) -> None:
        self._close_scoring()

        def chosen(number: int | None) -> None:
            if number is None:
                return
            if not self.model.goto(number):
                self.notify(f"there is no position after turn {number} in this line", severity="warning", markup=False)
                return
            self.cursor = self.model.cursor

        self.push_screen(GotoScreen(self.model.main_turns), chosen)

    def action_variation(self) -> None:
        self._close_scoring()
        what = self.model.toggle_variation()
        if what == "none":
            self.notify("no variation hangs on this turn", timeout=2)
            return
        self.cursor = self.model.cursor

    def action_leave(self) -> None:
        if self._close_scoring():
            return
        self._go(self.model.leave_variation())

    def action_perspective(self) -> None:
        self.perspective = self.model.cycle_perspective()
        shown = self.perspective or "all hands"
        self.notify(f"view: {shown}", timeout=1.5, markup=False)

    def action_knowledge(self) -> None:
        """Show the knowledge panel in place of the board, or the board again."""
        self.knowledge_shown = not self.knowledge_shown

    def action_piles(self) -> None:
        self.full_piles = not self.full_piles

    def action_side(self) -> None:
        """Show or hide the move list and notes (shown by default from 90 columns)."""
        screen = self.screen
        shown = self.query_one("#side").display
        screen.set_class(shown, "-hide-side")
        screen.set_class(not shown, "-show-side")

    def action_scoring(self) -> None:
        if self._close_scoring():
            return
        self.push_screen(ScoringScreen(self.model))

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.model.species))

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """The screen as SVG, in ``path`` (else the screenshot folder) under ``filename`` (else
        named after the record, the game and the turn): textual's action, its file written atomically."""
        stem = Path(self.model.record.file).stem or "game"
        name = filename or f"arbo-{stem}-g{self.model.record.index}-t{self.model.turns_played}.svg"
        target = Path(path or self.screenshot_dir, name)
        try:
            write_atomic(target, self.export_screenshot())
        except OSError as error:
            self.notify(
                f"the screenshot cannot be saved: {target}: {error.strerror or error}", severity="error", markup=False
            )
            return
        self.notify(f"screenshot saved: {target}", timeout=3, markup=False)

    def action_what_if(self) -> None:
        """Type another turn in place of the current one, judged beside it (tui/whatif.py)."""
        self._close_scoring()
        # deferred: the analysis engine and the what-if screen (100-150 ms, measured on the loaded two-core machine) load only for a what-if, not with every replay
        from arbo_notation.analysis.game import try_task
        from arbo_notation.tui.whatif import WhatIfScreen

        node = self.model.node_at(self.model.cursor)
        if node.turn is None:
            self.notify("the setup is no turn: go to a turn to try another in its place", timeout=3, markup=False)
            return
        try:
            try_task(node, budget=self.budget, seed=self.seed, hypotheses=self._hypotheses)
        except ArboError as error:
            self.notify(str(error), severity="warning", markup=False)
            return
        screen = WhatIfScreen(node, budget=self.budget, seed=self.seed, hypotheses=self._hypotheses)
        self.push_screen(screen, self._tried)

    def action_suppose(self) -> None:
        """From a seat's view, suppose an unseen card in another hand (tui/hypotheses.py)."""
        self._close_scoring()
        if self.model.perspective is None:
            self.notify("a hypothetical is supposed from a seat's view: p chooses one", timeout=3, markup=False)
            return
        known = self._supposed()
        if not any(hand.unknown for p, hand in known.hands.items() if p != self.model.perspective):
            self.notify(f"{self.model.perspective} knows every other hand here", timeout=3, markup=False)
            return

        def chosen(hypothesis: Hypothesis | None) -> None:
            if hypothesis is not None:
                self._hypotheses = (*self._hypotheses, hypothesis)
                self.notify(f"supposing {hypothesis} (C clears)", timeout=2, markup=False)
                self._show()

        self.push_screen(SupposeScreen(known), chosen)

    def action_clear_hypotheses(self) -> None:
        if not self._hypotheses:
            self.notify("no hypothetical stands: c supposes one", timeout=2)
            return
        self._hypotheses = ()
        self.notify("hypotheticals cleared", timeout=2)
        self._show()

    def _tried(self, tried: Tried | None) -> None:
        """The what-if judged: the try becomes a variation of the turn (in memory) and the cursor
        steps into it, the judgement shown under the board there and at the turn played."""
        if tried is None:
            return
        # deferred: loaded already by action_what_if, which pushed the screen this answers
        from arbo_notation.analysis.game import add_variation
        from arbo_notation.tui.whatif import judgement_text

        model, played = self.model, self.model.cursor
        node = model.node_at(played)
        record, path = add_variation(model.record, node.path, node.index - 1, tried.turn)
        fresh = ReplayModel.from_record(record)
        fresh.set_perspective(model.perspective)
        self.model = fresh
        self._tries += 1
        self._moves.set_rows(fresh.rows())
        target = Cursor(path, 1)
        text = judgement_text(tried.judgement, written=False, supposing=self._supposing())
        self._judged = (frozenset({played, target}), text)
        self.cursor = target

    def action_write(self) -> None:
        """Write the record with its tries over its file: a new copy renamed over the old, refused
        when the file changed since it was read (another program's turns are never written over)."""
        if self.source is None:
            self.notify("the record came from standard input: there is no file to write", severity="warning")
            return
        if not self._tries:
            self.notify("no try to write: w tries another turn", timeout=3)
            return
        # deferred: the record's reader and writer (80-130 ms, measured as above) load only to write the tries
        from arbo_notation.notation.reading.reader import parse
        from arbo_notation.notation.writer import format_games_over

        path, record = self.source, self.model.record
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            read = parse(text, path)
            games = list(read)
            games[record.index - 1] = record
            rewrite_unchanged(path, format_games_over(games, text, read), self.read)
            self.read = fingerprint(path)
        except (OSError, ArboError, IndexError) as error:
            if isinstance(error, FileChanged):
                reason = "it changed since it was read; quit and open it again to try there"
            else:
                reason = str(getattr(error, "strerror", None) or error)
            self.notify(f"{path}: not written: {reason}", severity="error", markup=False)
            return
        self._tries = 0
        self.notify(f"wrote {path}", timeout=3, markup=False)

    @on(MoveList.Jump)
    def jump(self, message: MoveList.Jump) -> None:
        if self.model.move_to(message.target):
            self.cursor = self.model.cursor
        else:
            self._show()
