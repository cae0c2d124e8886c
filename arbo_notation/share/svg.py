"""Diagrams of a position as clean vector SVG: arboretums, hands and piles, scoring paths drawn over.

Like ``chess.svg`` for a chess position: cards are rectangles in their species' colours with the
value and code as text, the grid carries its coordinates, and the picture fits a page. Everything
from the record (player names, the title) is escaped as XML text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.scoring import PathScore, ScoreSheet
from arbo_notation.engine.state import Game
from arbo_notation.errors import visible
from arbo_notation.share.palette import HIDDEN_FILL, HIDDEN_INK, Colour, species_colours
from arbo_notation.present.report import winner_line

if TYPE_CHECKING:
    from arbo_notation.present.navigation import ReplayModel

CELL = 46  # a card on the grid
STEP = 50  # from one grid cell to the next
SMALL_W, SMALL_H, SMALL_STEP = 30, 40, 33  # a card in a hand or a pile
PAD = 14  # inside a player's panel
LABEL = 24  # the y labels' column, the x labels' row
PANEL_GAP = 16
MIN_PANEL = 290  # seven hand cards in a row
MAX_WIDTH = 960  # the width a diagram is shown at, at most (it scales: it is a vector picture)
HIDDEN = "??"
SCORE_LINE = 16  # from one line of the scoring under a grid to the next
LINK_REACH = 8  # how far a path's bar reaches from the middle of a gap, its round ends included
LINK_WIDTH = 7  # the bar's dark edge; its species' colour is drawn inside
PATH_SPACING = 8  # between the bars of paths that cross the same gap

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
STYLE = f"""
text {{ font-family: {FONT}; }}
.title {{ font-size: 17px; font-weight: 700; fill: #1d232b; }}
.sub {{ font-size: 12px; fill: #5d6671; }}
.name {{ font-size: 15px; font-weight: 700; fill: #1d232b; }}
.badge {{ font-size: 11px; font-weight: 700; fill: #2f6b3a; }}
.axis {{ font-size: 10px; fill: #5d6671; }}
.label {{ font-size: 11px; fill: #5d6671; }}
.code {{ font-size: 10px; }}
.value {{ font-size: 19px; font-weight: 700; }}
.small .code {{ font-size: 8px; }}
.small .value {{ font-size: 14px; }}
.hidden {{ font-size: 13px; font-weight: 700; }}
.score {{ font-size: 11px; fill: #1d232b; }}
.split {{ font-size: 10px; fill: #5d6671; }}
.total {{ font-size: 13px; font-weight: 700; fill: #1d232b; }}
.verdict {{ font-size: 14px; font-weight: 700; fill: #2f6b3a; }}
.dim {{ opacity: 0.3; }}
"""


def xml_text(text: str) -> str:
    """Text as XML character data: escaped, and every character that is not printable (those XML
    cannot hold, bidirectional controls that would reorder what follows) made visible as its
    escape, as a terminal shows it (errors.visible)."""
    return escape(visible(text))


def _attr(text: str) -> str:
    return quoteattr(visible(text))


def _width_of(text: str, size: float) -> float:
    """A generous estimate of a line's width, for layout (no font metrics at hand)."""
    return len(text) * size * 0.62


def _cut(text: str, size: float, room: float, cut_to: float) -> str:
    """``text`` as drawn: itself when it fits in ``room``, else cut short with an ellipsis to fit
    in ``cut_to``, so that a long title (an event of thousands of characters) does not shrink the
    picture to a line."""
    if _width_of(text, size) <= room:
        return text
    # Cut for the widest letters (a bold W of the shipped font is 1.03 times the font's size wide),
    # so no cut title runs off the picture.
    return text[: max(1, int(cut_to / (size * 1.1)) - 1)] + "…"


@dataclass(frozen=True, slots=True)
class Seat:
    """What one panel shows: a player's trees, hand (codes, '??' for unseen) and pile."""

    name: str
    trees: Mapping[Coord, Card]
    hand: tuple[str, ...]
    pile: tuple[Card, ...]
    to_move: bool = False
    marked: Coord | None = None


@dataclass(frozen=True, slots=True)
class Diagram:
    """A position to draw, and what to draw over it."""

    seats: tuple[Seat, ...]
    species: tuple[str, ...]
    title: str = ""
    subtitle: str = ""
    sheet: ScoreSheet | None = None
    columns: int = 2


@dataclass
class _Canvas:
    parts: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, content: str, cls: str, anchor: str = "start", fill: str | None = None) -> None:
        extra = f' text-anchor="{anchor}"' if anchor != "start" else ""
        extra += f' fill="{fill}"' if fill else ""
        self.add(f'<text x="{_n(x)}" y="{_n(y)}" class="{cls}"{extra}>{xml_text(content)}</text>')


def _n(value: float) -> str:
    """A coordinate, without a trailing '.0'."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _card(
    canvas: _Canvas,
    x: float,
    y: float,
    code: str,
    colours: Mapping[str, Colour],
    *,
    small: bool,
    dim: bool = False,
    ring: str | None = None,
) -> None:
    width, height = (SMALL_W, SMALL_H) if small else (CELL, CELL)
    classes = "card" + (" small" if small else "") + (" dim" if dim else "")
    canvas.add(f'<g class="{classes}" transform="translate({_n(x)},{_n(y)})">')
    if code == HIDDEN:
        canvas.add(f'<rect width="{width}" height="{height}" rx="5" fill="{HIDDEN_FILL}"/>')
        canvas.text(width / 2, height / 2 + 5, HIDDEN, "hidden", "middle", HIDDEN_INK)
    else:
        card = Card.parse(code)
        colour = colours.get(card.species, Colour(HIDDEN_FILL, HIDDEN_INK))
        canvas.add(
            f'<rect width="{width}" height="{height}" rx="5" fill="{colour.fill}" stroke="#00000040" stroke-width="1"/>'
        )
        canvas.text(width / 2, height * 0.32, card.species, "code", "middle", colour.ink)
        canvas.text(width / 2, height * 0.82, str(card.value), "value", "middle", colour.ink)
    if ring:
        canvas.add(f'<rect x="-2" y="-2" width="{width + 4}" height="{height + 4}" rx="7" fill="none" {ring}/>')
    canvas.add("</g>")


class _Panel:
    """One player's panel, measured first and drawn at its place later."""

    def __init__(self, seat: Seat, diagram: Diagram, colours: Mapping[str, Colour]) -> None:
        self.seat = seat
        self.diagram = diagram
        self.colours = colours
        trees = seat.trees
        if trees:
            xs = [c.x for c in trees]
            ys = [c.y for c in trees]
            self.xs = range(min(xs), max(xs) + 1)
            self.ys = range(max(ys), min(ys) - 1, -1)
        else:
            self.xs = self.ys = range(0)
        self.grid_width = LABEL + len(self.xs) * STEP if trees else 0
        self.grid_height = LABEL + len(self.ys) * STEP if trees else 20
        self.score_lines = self._score_lines()
        name_width = _width_of(seat.name, 15) + 120
        lines_width = max((_width_of(line, 11) + 14 for line, _, _ in self.score_lines), default=0)
        self.width = PAD * 2 + max(MIN_PANEL, self.grid_width, name_width, lines_width)
        inner = self.width - 2 * PAD - 56
        self.per_row = max(1, int(inner // SMALL_STEP))
        self.hand_rows = max(1, -(-len(seat.hand) // self.per_row))
        self.pile_rows = max(1, -(-len(seat.pile) // self.per_row))
        self.height = (
            PAD
            + 22
            + self.grid_height
            + 10
            + (self.hand_rows + self.pile_rows) * (SMALL_H + 6)
            + 8
            + len(self.score_lines) * SCORE_LINE
            + PAD
        )

    def _score_lines(self) -> list[tuple[str, str, str | None]]:
        """The lines under the grid: (text, class, the species whose colour marks the line)."""
        sheet = self.diagram.sheet
        if sheet is None:
            return []
        score = sheet.player(self.seat.name)
        lines: list[tuple[str, str, str | None]] = []
        for code in sheet.species:
            part = score.species[code]
            if part.rights and part.path is not None:
                cards = " ".join(str(card) for card in part.path.cards)
                lines.append((f"{code}  {part.points} pts: {cards}", "score", code))
                lines.append((points_split(part.path), "split", None))
        lines.append((f"Total {score.total}  ({score.species_planted} species planted)", "total", None))
        return lines

    def path_cells(self) -> list[tuple[str, tuple[Coord, ...]]]:
        sheet = self.diagram.sheet
        if sheet is None:
            return []
        score = sheet.player(self.seat.name)
        return [
            (code, part.path.cells) for code, part in score.species.items() if part.rights and part.path is not None
        ]

    def cell_origin(self, ox: float, oy: float, coord: Coord) -> tuple[float, float]:
        column = coord.x - self.xs.start
        row = self.ys.start - coord.y
        return ox + LABEL + column * STEP, oy + LABEL + row * STEP

    def draw(self, canvas: _Canvas, x: float, y: float, height: float) -> None:
        seat, sheet = self.seat, self.diagram.sheet
        winner = sheet is not None and seat.name in sheet.winners
        border = "#b08a00" if winner else ("#2f6b3a" if seat.to_move else "#d9d4c7")
        canvas.add(f'<g class="seat" data-player={_attr(seat.name)}>')
        canvas.add(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(self.width)}" height="{_n(height)}" rx="8" '
            f'fill="#ffffff" stroke="{border}" stroke-width="{2 if winner or seat.to_move else 1}"/>'
        )
        top = y + PAD
        canvas.text(x + PAD, top + 13, seat.name, "name")
        badge = "winner" if winner else ("to play" if seat.to_move else "")
        trees = len(seat.trees)
        count = f"{trees} tree{'s' if trees != 1 else ''}"
        if badge:
            canvas.text(x + PAD + _width_of(seat.name, 15) + 8, top + 13, badge, "badge")
        canvas.text(x + self.width - PAD, top + 13, count, "label", "end")
        top += 22
        grid_x = x + PAD + (self.width - 2 * PAD - self.grid_width) / 2
        self._grid(canvas, grid_x, top)
        top += self.grid_height + 10
        top = self._cards(canvas, x, top, "Hand", list(seat.hand), self.hand_rows)
        top = self._cards(canvas, x, top, "Discard", [str(c) for c in seat.pile], self.pile_rows)
        top += 8
        for line, cls, code in self.score_lines:
            if code is not None:  # a swatch of the colour its path's bars are drawn in
                fill = self.colours[code].fill if code in self.colours else "#111111"
                canvas.add(
                    f'<rect x="{_n(x + PAD)}" y="{_n(top + 2)}" width="10" height="10" rx="2" '
                    f'fill="{fill}" stroke="#111111" stroke-width="1"/>'
                )
            canvas.text(x + PAD + (0 if cls == "total" else 14), top + 11, line, cls)
            top += SCORE_LINE
        canvas.add("</g>")

    def _grid(self, canvas: _Canvas, gx: float, gy: float) -> None:
        seat = self.seat
        if not seat.trees:
            canvas.text(gx + PAD, gy + 14, "no trees yet", "label")
            return
        for column, value in enumerate(self.xs):
            canvas.text(gx + LABEL + column * STEP + CELL / 2, gy + LABEL - 8, str(value), "axis", "middle")
        for row, value in enumerate(self.ys):
            canvas.text(gx + LABEL - 6, gy + LABEL + row * STEP + CELL / 2 + 4, str(value), "axis", "end")
        paths = self.path_cells()
        on_path = {cell for _, cells in paths for cell in cells}
        for row, y in enumerate(self.ys):
            for column, x in enumerate(self.xs):
                cx, cy = gx + LABEL + column * STEP, gy + LABEL + row * STEP
                card = seat.trees.get(Coord(x, y))
                if card is None:
                    canvas.add(
                        f'<rect x="{_n(cx)}" y="{_n(cy)}" width="{CELL}" height="{CELL}" rx="5" fill="#efece4"/>'
                    )
                    continue
                ring = None
                if Coord(x, y) in on_path:
                    ring = 'stroke="#111111" stroke-width="3"'
                elif seat.marked == Coord(x, y) and not paths:
                    ring = 'stroke="#1d232b" stroke-width="2" stroke-dasharray="4 3"'
                _card(canvas, cx, cy, str(card), self.colours, small=False, dim=bool(paths) and not ring, ring=ring)
        for code, cells, offsets in spread_links(paths):
            self._links(canvas, gx, gy, code, cells, offsets)

    def _links(
        self, canvas: _Canvas, gx: float, gy: float, code: str, cells: Sequence[Coord], offsets: Sequence[float]
    ) -> None:
        """A path as bars across the gaps between its cards, in its species' colour, short enough
        to stay clear of the cards' labels; ``offsets`` move apart the bars of paths that cross
        the same gap."""
        fill = self.colours[code].fill if code in self.colours else "#111111"
        half = LINK_REACH - LINK_WIDTH / 2  # the round end adds half the width
        canvas.add(f'<g class="path" data-species="{code}">')
        for (a, b), offset in zip(pairwise(cells), offsets, strict=True):
            ax, ay = self.cell_origin(gx, gy, a)
            bx, by = self.cell_origin(gx, gy, b)
            mx, my = (ax + bx) / 2 + CELL / 2, (ay + by) / 2 + CELL / 2
            dx, dy = (b.x - a.x), (a.y - b.y)  # on the page, y goes down
            x1, y1 = mx - dx * half + dy * offset, my - dy * half + dx * offset
            x2, y2 = mx + dx * half + dy * offset, my + dy * half + dx * offset
            line = f'x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke-linecap="round"'
            canvas.add(f'<line {line} stroke="#111111" stroke-width="{LINK_WIDTH}"/>')
            canvas.add(f'<line {line} stroke="{fill}" stroke-width="{LINK_WIDTH / 2}"/>')
        canvas.add("</g>")

    def _cards(self, canvas: _Canvas, x: float, top: float, label: str, codes: Sequence[str], rows: int) -> float:
        canvas.text(x + PAD, top + SMALL_H / 2 + 4, label, "label")
        if not codes:
            canvas.text(x + PAD + 56, top + SMALL_H / 2 + 4, "(empty)", "label")
        for number, code in enumerate(codes):
            row, column = divmod(number, self.per_row)
            cx = x + PAD + 56 + column * SMALL_STEP
            cy = top + row * (SMALL_H + 6)
            _card(canvas, cx, cy, code, self.colours, small=True)
        return top + rows * (SMALL_H + 6)


def points_split(path: PathScore) -> str:
    """A path's points in the rulebook's four parts, as the page writes them."""
    return f"{path.card_points} cards +{path.same_species_bonus} same +{path.start_bonus} start +{path.end_bonus} end"


def spread_links(paths: Sequence[tuple[str, tuple[Coord, ...]]]) -> list[tuple[str, tuple[Coord, ...], list[float]]]:
    """Each path with the sideways offset of each of its bars: a bar alone in its gap runs down
    the middle; the bars of several paths in one gap are set side by side, PATH_SPACING apart."""
    crossing: dict[frozenset[Coord], list[str]] = {}
    for code, cells in paths:
        for a, b in pairwise(cells):
            crossing.setdefault(frozenset((a, b)), []).append(code)
    spread = []
    for code, cells in paths:
        offsets = []
        for a, b in pairwise(cells):
            sharing = crossing[frozenset((a, b))]
            offsets.append((sharing.index(code) - (len(sharing) - 1) / 2) * PATH_SPACING)
        spread.append((code, cells, offsets))
    return spread


def render_diagram(diagram: Diagram) -> str:
    """The SVG text of a diagram: a title, the panels in rows, the result when scored."""
    colours = species_colours(diagram.species)
    panels = [_Panel(seat, diagram, colours) for seat in diagram.seats]
    columns = max(1, min(diagram.columns, len(panels)))
    rows = [panels[i : i + columns] for i in range(0, len(panels), columns)]
    column_widths = [max(row[c].width for row in rows if c < len(row)) for c in range(columns)]
    margin = 16
    header = 0
    if diagram.title:
        header += 24
    if diagram.subtitle:
        header += 18
    panels_width = 2 * margin + sum(column_widths) + PANEL_GAP * (columns - 1)
    room = max(panels_width, MAX_WIDTH) - 2 * margin
    # A title that fits in the widest picture widens it; a longer one is cut to the panels' width.
    title = _cut(diagram.title, 17, room, panels_width - 2 * margin)
    subtitle = _cut(diagram.subtitle, 12, room, panels_width - 2 * margin)
    width: float = max(panels_width, 2 * margin + _width_of(title, 17), 2 * margin + _width_of(subtitle, 12))
    canvas = _Canvas()
    y = margin + header + (8 if header else 0)
    for row in rows:
        height = max(panel.height for panel in row)
        x: float = margin
        for column, panel in enumerate(row):
            panel.width = column_widths[column]
            panel.draw(canvas, x, y, height)
            x += column_widths[column] + PANEL_GAP
        y += height + PANEL_GAP
    verdict = ""
    if diagram.sheet is not None:
        verdict = winner_line(diagram.sheet)
        width = max(width, 2 * margin + _width_of(verdict, 14))
        canvas.text(margin, y + 10, verdict, "verdict")
        y += 24
    height = y - PANEL_GAP + margin
    shown = min(width, MAX_WIDTH)
    scale = shown / width
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'width="{_n(shown)}" height="{_n(height * scale)}" role="img">',
        f"<title>{xml_text(' · '.join(t for t in (title, subtitle, verdict) if t))}</title>",
        f"<style>{STYLE}</style>",
        '<rect width="100%" height="100%" fill="#f6f4ee"/>',
    ]
    if title:
        head.append(f'<text x="{margin}" y="{margin + 16}" class="title">{xml_text(title)}</text>')
    if subtitle:
        head.append(f'<text x="{margin}" y="{margin + header - 2}" class="sub">{xml_text(subtitle)}</text>')
    return "\n".join(head + canvas.parts + ["</svg>", ""])


def seats_of(
    game: Game,
    *,
    hidden: Iterable[str] = (),
    marked: Mapping[str, Coord] | None = None,
    only: str | None = None,
    hands: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[Seat, ...]:
    """The panels of a position: every player (or ``only`` one), hands in ``hidden`` as unseen cards
    (or each hand as ``hands`` shows it: a point of view's knowledge)."""
    hidden = set(hidden)
    marked = marked or {}
    seats = []
    for player in game.players:
        if only is not None and player != only:
            continue
        view = game.hand(player)
        hand: tuple[str, ...]
        if hands is not None:
            hand = hands[player]
        elif player in hidden:
            hand = (HIDDEN,) * len(view)
        else:
            hand = tuple(str(c) for c in view.known) + (HIDDEN,) * view.hidden
        seats.append(
            Seat(
                name=player,
                trees=dict(sorted(game.arboretum(player).items())),
                hand=hand,
                pile=game.discard_pile(player),
                to_move=not game.is_over and game.current_player == player,
                marked=marked.get(player),
            )
        )
    return tuple(seats)


def position_diagram(model: "ReplayModel", *, player: str | None = None, scored: bool = False) -> Diagram:
    """The diagram of a replay's current position as its perspective sees it (only ``player``'s
    panel when given), scored when asked and it can be (see ``ReplayModel.sheet``)."""
    marked = {}
    if model.turn is not None:
        marked[model.turn.player] = model.turn.plant.coord
    return Diagram(
        seats=seats_of(model.state, hands=model.shown_hands(), marked=marked, only=player),
        species=model.species,
        title=_title(model),
        subtitle=_subtitle(model),
        sheet=model.sheet() if scored and not model.hidden_hands() else None,
        columns=1 if player is not None else 2,
    )


def _title(model: "ReplayModel") -> str:
    header = model.header
    players = model.players
    names = " vs ".join(players) if len(players) == 2 else ", ".join(players)
    return " · ".join(part for part in (header.event, header.date, names) if part)


def _subtitle(model: "ReplayModel") -> str:
    state = model.state
    played = model.turns_played
    if state.is_over:
        where = f"after turn {played}: game over"
    elif played == 0:
        where = f"start: {state.current_player} to play turn 1"
    else:
        where = f"after turn {played}: {state.current_player} to play"
    deck = f"deck {state.deck_size} card{'s' if state.deck_size != 1 else ''}"
    view = f"{model.perspective}'s view" if model.perspective and not state.is_over else ""
    return " · ".join(part for part in (where, deck, view) if part)
