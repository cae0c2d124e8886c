"""The replayer's widgets: a player's arboretum, hand and pile; the move list; the notes beside the board.

Each widget holds its data in reactive attributes set by the app ("attributes down"), compared by
value, so a step redraws only the widgets whose data changed. The move list tells the app that a row
was chosen with a message ("messages up").
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar, Iterable, Iterator, Mapping, Self, Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.markup import escape
from textual.message import Message
from textual.reactive import reactive, var
from textual.geometry import Region, Size
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from arbo_notation.engine.cards import Card, Coord, species_name
from arbo_notation.errors import visible
from arbo_notation.present.navigation import HIDDEN, Cursor, MoveRow, Notes, PlayerView, RowStatus, glyph_meaning
from arbo_notation.notation.engine_notes import EngineNote, read_note

#: Ten well-separated card colours, given to the species in the order the record lists them.
PALETTE: tuple[str, ...] = (
    "#3b6fd8",  # blue
    "#e5c02e",  # yellow
    "#f28dbb",  # pink
    "#e8e4d8",  # ivory
    "#9a5fd1",  # purple
    "#e8702a",  # orange
    "#8a5a33",  # brown
    "#d63a33",  # red
    "#3fa34d",  # green
    "#3dbfb0",  # teal
)
EXTRA = ("#8fa1b3", "#c9a27e", "#a3c95b")  # for records with more than ten species


def _foreground(background: str) -> str:
    red, green, blue = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if (0.299 * red + 0.587 * green + 0.114 * blue) > 140 else "#ffffff"


def species_styles(species: Iterable[str]) -> dict[str, Style]:
    """A distinct card style for each species code, stable by its position in the species list."""
    colours = PALETTE + EXTRA
    styles = {}
    for index, code in enumerate(species):
        background = colours[index % len(colours)]
        styles[code] = Style(color=_foreground(background), bgcolor=background, bold=True)
    return styles


HIDDEN_STYLE = Style(color="#c8c8c8", bgcolor="#4a4a4a")
LABEL_STYLE = Style(color="#8a8f98")
EMPTY_STYLE = Style(color="#4d525a")


def card_chip(card: Card | str, styles: Mapping[str, Style], width: int = 3, *, dim: bool = False) -> Text:
    """A card as a coloured chip: ``Ma3`` on its species' colour; ``??`` for an unseen card;
    ``Ma3*`` (a hypothetical, tui/hypotheses.py) italic and underlined, the ``*`` kept."""
    if isinstance(card, str):
        if card == HIDDEN:
            return Text(f"{card:^{width}}", style=HIDDEN_STYLE)
        if card.endswith("*"):
            supposed = Card.parse(card[:-1])
            style = styles.get(supposed.species, HIDDEN_STYLE) + Style(italic=True, underline=True)
            return Text(f"{card:^{width}}", style=style)
        card = Card.parse(card)
    style = styles.get(card.species, HIDDEN_STYLE)
    if dim:
        style = Style(color=style.bgcolor, bgcolor="#262a30")
    return Text(f"{str(card):^{width}}", style=style)


def chips(cards: Iterable[Card | str], styles: Mapping[str, Style]) -> Text:
    text = Text()
    for number, card in enumerate(cards):
        if number:
            text.append(" ")
        text.append_text(card_chip(card, styles))
    return text


@dataclass(frozen=True, slots=True)
class GridWindow:
    """Which columns and rows of an arboretum are drawn, and how wide a cell is."""

    xs: range
    ys: range  # top row first: y goes up
    cell: int
    gap: int  # spaces between two cells

    def width(self, label: int) -> int:
        return label + 1 + len(self.xs) * (self.cell + self.gap) - self.gap

    def cropped(self, arboretum: Mapping[Coord, Card]) -> tuple[bool, bool, bool, bool]:
        """Whether trees lie left of, right of, above and below the window."""
        xs = [c.x for c in arboretum]
        ys = [c.y for c in arboretum]
        return (
            min(xs) < self.xs.start,
            max(xs) >= self.xs.stop,
            max(ys) > self.ys.start,
            min(ys) <= self.ys.stop,
        )


def grid_window(
    arboretum: Mapping[Coord, Card],
    size: tuple[int, int] | None = None,
    focus: Coord | None = None,
    shift: tuple[int, int] = (0, 0),
) -> GridWindow:
    """The part of an arboretum that fits ``size`` (columns, rows; None: all of it).

    Cells are separated by a space when that fits, else packed; when the arboretum still does not
    fit, the window keeps ``focus`` (the tree just planted) in view, moved by ``shift`` (columns,
    rows: the user's scrolling).
    """
    xs = [c.x for c in arboretum]
    ys = [c.y for c in arboretum]
    cell = max(3, max(len(str(card)) for card in arboretum.values()))
    label = _label_width(arboretum)
    all_xs = range(min(xs), max(xs) + 1)
    all_ys = range(max(ys), min(ys) - 1, -1)
    window = GridWindow(all_xs, all_ys, cell, 1)
    if size is None:
        return window
    width, height = size
    if window.width(label) <= width:
        return window
    packed = GridWindow(all_xs, all_ys, cell, 0)
    if packed.width(label) <= width and len(all_ys) + 1 <= height:
        return packed
    fit_x = max(1, (width - label - 1 + 1) // (cell + 1))
    fit_y = max(1, height - 1)
    focus = focus or Coord(0, 0)

    def span(low: int, high: int, count: int, at: int, moved: int) -> tuple[int, int]:
        if high - low + 1 <= count:
            return low, high

        def clamp(value: int) -> int:
            return max(low, min(value, high - count + 1))

        start = clamp(clamp(at - count // 2) + moved)
        return start, start + count - 1

    x0, x1 = span(min(xs), max(xs), fit_x, focus.x, shift[0])
    y0, y1 = span(min(ys), max(ys), fit_y, focus.y, -shift[1])
    return GridWindow(range(x0, x1 + 1), range(y1, y0 - 1, -1), cell, 1)


def _label_width(arboretum: Mapping[Coord, Card]) -> int:
    return max(len(str(c.y)) for c in arboretum)


def grid_text(
    arboretum: Mapping[Coord, Card],
    styles: Mapping[str, Style],
    *,
    highlight: frozenset[Coord] | None = None,
    marked: Coord | None = None,
    window: GridWindow | None = None,
) -> Text:
    """An arboretum as a grid of chips, x along the top, y down the left (y going up).

    With ``highlight``, cells outside it are dimmed (a scored path stands out); ``marked`` (the tree
    just planted) is underlined. ``window`` draws a part (arrows in the corner show where more is).
    """
    if not arboretum:
        return Text("(no trees yet)", style=LABEL_STYLE)
    window = window or grid_window(arboretum)
    cell, gap = window.cell, " " * window.gap
    label = _label_width(arboretum)
    text = Text()
    left, right, up, down = window.cropped(arboretum)
    across = "↔" if left and right else "◂" if left else "▸" if right else ""
    along = "↕" if up and down else "▴" if up else "▾" if down else ""
    corner = across + along  # at most two characters: the label column is at least that wide
    text.append(f"{corner:<{label + 1}}", style="bold yellow")
    for x in window.xs:
        text.append(f"{x:^{cell}}{gap}", style=LABEL_STYLE)
    text.rstrip()
    for y in window.ys:
        text.append("\n")
        text.append(f"{y:>{label}} ", style=LABEL_STYLE)
        for x in window.xs:
            coord = Coord(x, y)
            card = arboretum.get(coord)
            if card is None:
                text.append(f"{'·':^{cell}}{gap}", style=EMPTY_STYLE)
                continue
            dim = highlight is not None and coord not in highlight
            chip = card_chip(card, styles, cell, dim=dim)
            if coord == marked:
                chip.stylize(Style(underline=True, italic=True))
            text.append_text(chip)
            text.append(gap)
        text.rstrip()
    return text


class ArboretumGrid(Widget):
    """One arboretum as a grid of coloured cards.

    On the board it fills the space it is given (its size never follows the trees, so a new tree
    costs a repaint, not a new layout) and draws what fits: packed cells, or a part around the
    tree just planted, which the mouse wheel scrolls. On the scoring screen (``fit=False``) it is
    as large as the arboretum.
    """

    DEFAULT_CSS = """
    ArboretumGrid { height: 1fr; width: 1fr; }
    ArboretumGrid.-natural { height: auto; width: auto; }
    """

    trees: reactive[tuple[tuple[Coord, Card], ...]] = reactive(())
    marked: reactive[Coord | None] = reactive(None)
    highlight: reactive[frozenset[Coord] | None] = reactive(None)
    shift: reactive[tuple[int, int]] = reactive((0, 0))

    def __init__(self, species: tuple[str, ...], *, fit: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.styles_by_species = species_styles(species)
        self.fit = fit
        self.set_class(not fit, "-natural")

    def watch_marked(self) -> None:
        self.shift = (0, 0)  # follow the new tree

    def window(self) -> GridWindow | None:
        arboretum = dict(self.trees)
        if not arboretum:
            return None
        size = (self.size.width, self.size.height) if self.fit and self.size.width else None
        return grid_window(arboretum, size, self.marked, self.shift)

    def render(self) -> Text:
        return grid_text(
            dict(self.trees),
            self.styles_by_species,
            highlight=self.highlight,
            marked=self.marked,
            window=self.window(),
        )

    def get_content_width(self, container: Size, viewport: Size) -> int:
        arboretum = dict(self.trees)
        return grid_window(arboretum).width(_label_width(arboretum)) if arboretum else 14

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(grid_window(dict(self.trees)).ys) + 1 if self.trees else 1

    def _scroll(self, dx: int, dy: int) -> bool:
        """Move the window of a cropped grid (no further than the trees go)."""
        window = self.window()
        if window is None or not any(window.cropped(dict(self.trees))):
            return False
        shift = (self.shift[0] + dx, self.shift[1] + dy)
        size = (self.size.width, self.size.height)
        moved = grid_window(dict(self.trees), size, self.marked, shift)
        if (moved.xs, moved.ys) != (window.xs, window.ys):
            self.shift = shift
        return True

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        if self._scroll(0, 1):
            event.stop()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        if self._scroll(0, -1):
            event.stop()

    def on_mouse_scroll_right(self, event: events.MouseScrollRight) -> None:
        if self._scroll(1, 0):
            event.stop()

    def on_mouse_scroll_left(self, event: events.MouseScrollLeft) -> None:
        if self._scroll(-1, 0):
            event.stop()


LABEL_WIDTH = 5  # "hand " and "pile ": the cards start in the same column


def wrap_chips(cards: Sequence[Card | str], label: int, width: int) -> list[list[Card | str]]:
    """Cards in rows that fit ``width`` after a ``label``-wide column, as even as can be (7 cards
    on two rows: 4 and 3); at least one card a row, so none is ever left out."""
    if not cards:
        return [[]]
    chip = max(3, *(len(str(card)) for card in cards)) + 1  # the chip and a space
    per_row = max(1, (width - label + 1) // chip)
    rows = -(-len(cards) // per_row)
    per_row = -(-len(cards) // rows)
    return [list(cards[start : start + per_row]) for start in range(0, len(cards), per_row)]


class CardsLine(Widget):
    """A labelled line of cards: a hand, or a discard pile (its top card and count, or all of it).

    Cards that do not fit the width wrap onto more lines, indented under the first card: a hand is
    never cut.
    """

    DEFAULT_CSS = """
    CardsLine { height: auto; width: 1fr; }
    """

    cards: reactive[tuple[Card | str, ...]] = reactive(())
    full: reactive[bool] = reactive(False)
    hidden: reactive[bool] = reactive(False)

    def __init__(self, label: str, species: tuple[str, ...], *, pile: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label
        self.pile = pile
        self.styles_by_species = species_styles(species)
        self._rows = 1

    def _watch_rows(self) -> None:
        """A new layout only when the number of lines changes (a step keeps it: a repaint)."""
        rows = len(self.lines(self.size.width)) if self.size.width else self._rows
        if rows != self._rows:
            self._rows = rows
            self.refresh(layout=True)

    def watch_cards(self) -> None:
        self._watch_rows()

    def watch_full(self) -> None:
        self._watch_rows()

    def watch_hidden(self) -> None:
        self._watch_rows()

    def lines(self, width: int) -> list[Text]:
        """The widget's lines at ``width``: the label, then the cards, wrapped."""
        cards = self.cards
        if not cards:
            return [Text(f"{self.label:<{LABEL_WIDTH}}(empty)", style=LABEL_STYLE)]
        if self.pile and not self.full:
            count = len(cards)
            long = f"  ({count} card{'s' if count > 1 else ''})"
            suffix = long if LABEL_WIDTH + 3 + len(long) <= width else f" ({count})"
            return [self._row(self.label, [cards[-1]], suffix)]
        suffix = f"  ({len(cards)})" if self.pile else "  hidden" if self.hidden else ""
        rows = wrap_chips(cards, LABEL_WIDTH, width)
        last = self._row("", rows[-1], suffix)
        if suffix and last.cell_len > width:
            suffix = ""
        last_row = len(rows) - 1
        return [
            self._row(self.label if n == 0 else "", row, suffix if n == last_row else "") for n, row in enumerate(rows)
        ]

    def _row(self, label: str, cards: Sequence[Card | str], suffix: str) -> Text:
        text = Text(f"{label:<{LABEL_WIDTH}}", style=LABEL_STYLE)
        text.append_text(chips(cards, self.styles_by_species))
        if suffix:
            text.append(suffix, style=LABEL_STYLE)
        return text

    def render(self) -> Text:
        return Text("\n").join(self.lines(self.size.width or 80))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self._rows = len(self.lines(width))
        return self._rows


class PlayerPanel(Vertical):
    """One player: the arboretum, the hand and the discard pile, in a border titled with the name."""

    DEFAULT_CSS = """
    PlayerPanel {
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        padding: 0 1;
        height: 1fr;
    }
    PlayerPanel > ArboretumGrid { margin-top: 1; }
    """

    view: var[PlayerView | None] = var(None, init=False)
    full_pile: var[bool] = var(False, init=False)
    #: While a border's title changes, which border line alone to repaint (True: the top).
    _repaint_line: bool | None = None

    def __init__(self, player: str, species: tuple[str, ...], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.player = player
        self.species = species
        self.border_title = player

    def compose(self) -> ComposeResult:
        key = self.id or self.player
        yield CardsLine("hand", self.species, id=f"hand-{key}")
        yield CardsLine("pile", self.species, pile=True, id=f"pile-{key}")
        yield ArboretumGrid(self.species, id=f"grid-{key}")

    @property
    def grid(self) -> ArboretumGrid:
        return self.query_one(ArboretumGrid)

    @property
    def hand_line(self) -> CardsLine:
        return self.query_one(f"#hand-{self.id or self.player}", CardsLine)

    @property
    def pile_line(self) -> CardsLine:
        return self.query_one(f"#pile-{self.id or self.player}", CardsLine)

    def watch_view(self, old: PlayerView | None, view: PlayerView | None) -> None:
        if view is None:
            return
        grid, hand, pile = self.grid, self.hand_line, self.pile_line
        grid.trees = view.trees
        grid.marked = view.marked
        hand.cards = view.hand
        hand.hidden = view.hand_hidden
        pile.cards = view.pile
        if old is None or old.to_move != view.to_move:
            # the title, not the border's colour: a style change would cost a new layout
            with self._border_line(top=True):
                self.border_title = (
                    f"[b $accent]▶ {escape(visible(view.name))}[/]" if view.to_move else escape(visible(view.name))
                )
        if old is None or len(old.trees) != len(view.trees):
            trees = len(view.trees)
            with self._border_line(top=False):
                self.border_subtitle = f"{trees} tree{'s' if trees != 1 else ''}"

    @contextmanager
    def _border_line(self, *, top: bool) -> Iterator[None]:
        """While a border's title changes, a repaint of that line alone (not of the whole panel,
        which would composite every line of the cards and the arboretum again)."""
        self._repaint_line = top
        try:
            yield
        finally:
            self._repaint_line = None

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        line = self._repaint_line
        plain = repaint and not layout and not recompose
        if line is not None and not regions and plain and self.is_mounted and self.outer_size.height:
            offset = self.content_offset
            y = -offset.y if line else self.outer_size.height - 1 - offset.y
            regions = (Region(-offset.x, y, self.outer_size.width, 1),)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def watch_full_pile(self, full: bool) -> None:
        self.pile_line.full = full


class MoveList(OptionList):
    """Every turn of the game, variations indented under the turn they replace; the current one highlighted."""

    DEFAULT_CSS = """
    MoveList {
        height: 1fr; border: round $panel-lighten-2; scrollbar-size-vertical: 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    MoveList:focus { border: round $accent; }
    """

    class Jump(Message):
        """A row was chosen: go to its position."""

        def __init__(self, target: Cursor) -> None:
            super().__init__()
            self.target = target

    current: var[int] = var(0, init=False)
    # A new highlight repaints the rows of the old and the new one, not the whole list (a step
    # that does not scroll the list changes two rows).
    highlighted: reactive[int | None] = reactive(None, repaint=False)

    def __init__(self, rows: tuple[MoveRow, ...], *, id: str | None = None) -> None:
        self.rows = rows
        super().__init__(*self._make_options(rows), id=id)
        self.border_title = "Moves"

    def _make_options(self, rows: tuple[MoveRow, ...]) -> list[Option]:
        return [Option(self.row_text(row), id=str(n)) for n, row in enumerate(rows)]

    def set_rows(self, rows: tuple[MoveRow, ...]) -> None:
        """New texts for the rows (another player's view names other cards); same positions."""
        if rows == self.rows:
            return
        self.rows = rows
        self.clear_options()
        self.add_options(self._make_options(rows))
        self.highlighted = self.current

    @staticmethod
    def row_text(row: MoveRow) -> Text:
        """``12. Ana d d:Ma3 Ma3@1,0 /Oa5 !``; a variation's turns indented under a guide, its first
        turn opened with ``╭``; ``+2`` counts the variations hanging on a turn."""
        if row.status is RowStatus.START:
            return Text("0.  start of the game", style="italic")
        text = Text(f"{row.label:<4}")
        if row.depth:
            guides = "│ " * (row.depth - 1) + ("╭ " if row.first_of_variation else "│ ")
            text.append(guides, style="cyan")
        style = "italic" if row.depth else ""
        if row.status is RowStatus.ERROR:
            style = "bold red"
        elif row.status is RowStatus.UNREACHED:
            style = "dim strike"
        text.append(visible(row.notation), style=style)
        if row.glyphs:
            text.append(visible(" " + " ".join(row.glyphs)), style="bold yellow")
        if row.variations:
            text.append(f" +{row.variations}", style="cyan")
        if row.status is RowStatus.ERROR:
            text.append(" ✗", style="bold red")
        return text

    def watch_current(self, current: int) -> None:
        self.highlighted = current

    def watch_highlighted(  # type: ignore[override]  # textual passes (old, new) to a watcher of two
        self, old: int | None, highlighted: int | None
    ) -> None:
        try:
            lines = [self._index_to_line[index] for index in (old, highlighted) if index is not None]
        except (AttributeError, KeyError):  # the rows not laid out yet: the whole list
            self.refresh()
        else:
            for line in lines:
                self.refresh_line(line)
        super().watch_highlighted(highlighted)

    def on_mount(self) -> None:
        self.highlighted = self.current

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Jump(self.rows[event.option_index].target))


class NotesPanel(Static):
    """The current turn beside the board: its notation, glyphs, comments, variations and problems."""

    DEFAULT_CSS = """
    NotesPanel { height: auto; min-height: 100%; padding: 0 1; }
    """

    notes: var[Notes | None] = var(None, init=False)

    _height = 0

    def watch_notes(self, notes: Notes | None) -> None:
        """Show the notes; a new layout only when the panel's height changes (it fills its box, and
        grows past it, to scroll, only for long comments)."""
        text = notes_text(notes) if notes is not None else Text()
        width = self.content_region.width
        box = self.parent.scrollable_content_region.height if isinstance(self.parent, Widget) else 0
        height = max(len(text.wrap(self.app.console, width)), box) if width > 0 else -1
        self.update(text, layout=height != self._height or height < 0)
        self._height = height


def notes_text(notes: Notes) -> Text:
    text = Text()
    text.append(visible(notes.heading), style="bold")
    if notes.glyphs:
        meanings = ", ".join(f"{g} {glyph_meaning(g)}" for g in notes.glyphs)
        text.append(visible(f"\n{meanings}", "\n"), style="bold yellow")
    if notes.in_variation:
        text.append(visible(f"\nIn {notes.in_variation}", "\n"), style="cyan")
    for comment in notes.variation_before + notes.before + notes.after + notes.variation_after:
        text.append("\n")
        note = read_note(comment)
        if note is None:
            text.append(visible(comment.text.strip(), "\n"), style="italic")
        else:
            text.append_text(engine_note_text(note))
    if notes.variations_here:
        count = notes.variations_here
        text.append(
            f"\n{count} variation{'s' if count > 1 else ''} here: v to enter",
            style="cyan",
        )
    for problem in notes.problems:
        text.append(visible(f"\n✗ {problem}", "\n"), style="bold red")
    for warning in notes.warnings:
        text.append(visible(f"\n! {warning}", "\n"), style="yellow")
    return text


def engine_note_text(note: EngineNote) -> Text:
    """The engine's judgement of the turn (its ``{arbo: ...}`` note), in words."""
    how = "exact" if note.exact else f"{note.samples} samples"
    text = Text(f"Engine: expected margin {note.value:+.1f} ({how})", style="bold magenta")
    if note.best is not None:
        glyph = f"{note.glyph} " if note.glyph else ""
        text.append(f"\n{glyph}better {note.best}: {note.gain:.1f} points better", style="magenta")
    return text


def legend_text(species: tuple[str, ...]) -> Text:
    styles = species_styles(species)
    text = Text()
    for number, code in enumerate(species):
        if number:
            text.append("  ")
        text.append(f" {code} ", style=styles[code])
        text.append(visible(f" {species_name(code)}"))
    return text


@dataclass(frozen=True, slots=True)
class KeyHint:
    """One key of the key bar: the key pressed when it is clicked, how it is written, what it does."""

    key: str
    shown: str
    description: str
    keep: int = 0  # when the bar is too short, the hints with the highest numbers go first

    @property
    def width(self) -> int:
        return len(self.shown) + 1 + len(self.description)


class KeyBar(Widget):
    """The keys at the foot of a screen, always in the same order.

    Unlike textual's footer, the order does not follow the focus, and when the line is too short
    the least needed keys are left out (help lists them all) instead of the last ones.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"keybar--key", "keybar--description"}
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; width: 1fr; background: $footer-background; }
    KeyBar > .keybar--key { color: $footer-key-foreground; text-style: bold; }
    KeyBar > .keybar--description { color: $footer-description-foreground; }
    """
    GAP = 2  # spaces between two hints; one before the first

    def __init__(self, hints: Sequence[KeyHint]) -> None:
        super().__init__()
        self.hints = tuple(hints)

    def fitted(self, width: int) -> tuple[KeyHint, ...]:
        """The hints that fit ``width``, in their order: the least needed (then the last) left out."""
        kept = list(self.hints)
        by_need = sorted(range(len(kept)), key=lambda n: (kept[n].keep, n))
        while kept and 1 + sum(h.width for h in kept) + self.GAP * (len(kept) - 1) > width:
            drop = self.hints[by_need.pop()]
            if drop.keep == 0:
                break
            kept.remove(drop)
        return tuple(kept)

    def _spans(self) -> list[tuple[int, int, KeyHint]]:
        spans, x = [], 1
        for hint in self.fitted(self.size.width):
            spans.append((x, x + hint.width, hint))
            x += hint.width + self.GAP
        return spans

    def render(self) -> Text:
        key = self.get_component_rich_style("keybar--key", partial=True)
        description = self.get_component_rich_style("keybar--description", partial=True)
        text = Text(" ")
        for number, (_, _, hint) in enumerate(self._spans()):
            if number:
                text.append(" " * self.GAP)
            text.append(hint.shown, style=key)
            text.append(" " + hint.description, style=description)
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    def on_click(self, event: events.Click) -> None:
        for start, end, hint in self._spans():
            if start <= event.x < end:
                event.stop()
                self.app.simulate_key(hint.key)
                return
