"""Stepping through a game tree: a cursor on its lines, the perspective, what a board shows at each position.

Pure Python (no textual): the terminal UI and the tests drive it alike.

The main line and every variation are *lines*. A line holds its turns and the positions between
them: ``states[i]`` is the table after ``i`` turns of the line; ``states[0]`` of the main line is the
setup, and ``states[0]`` of a variation is the table before the turn the variation replaces. A line
is named by its *path* from the main line: ``()`` is the main line and ``((k, j),)`` the variation
number ``j`` (0-based) hanging on the main line's turn of index ``k`` (0-based), and so on deeper.

The cursor is a line path and an index in that line: "after ``index`` turns of this line". The
*current turn* is the one just played to reach the cursor (none at the start of the game).

Every position is computed once, by the replay that builds the game tree (arbo_notation/game/tree.py).
A line stops at its first illegal turn that the record's facts cannot repair: the position before it
is the line's last, and the rule error is kept to be shown there. A turn they repair is played, and
its rule errors are shown at its own position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Iterator

from arbo_notation.engine.actions import Draw, DrawAction
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.scoring import ScoreSheet
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError, Diagnostic, Severity
from arbo_notation.game.knowledge import Knowledge, View
from arbo_notation.notation.model import Comment, GameRecord, Header, Turn, Variation
from arbo_notation.game.replay import MAIN, Line, LinePath, score_game
from arbo_notation.game.tree import GameTree, Node, load_tree


GLYPH_MEANINGS = {
    "!!": "brilliant",
    "!": "good",
    "!?": "interesting",
    "?!": "dubious",
    "?": "mistake",
    "??": "blunder",
}

#: The numeric glyphs (PGN's NAGs) whose standard meaning is not about chess: $1 to $6 are the six
#: symbols' ($1 is !, $2 ?, $3 !!, $4 ??, $5 !?, $6 ?!), the rest as the PGN standard names them.
NAG_MEANINGS = {
    0: "no annotation",
    1: "good",
    2: "mistake",
    3: "brilliant",
    4: "blunder",
    5: "interesting",
    6: "dubious",
    7: "forced",
    8: "the only move",
    9: "the worst move",
    10: "an even position",
    11: "even chances, a quiet position",
    12: "even chances, an active position",
    13: "an unclear position",
}


def glyph_meaning(glyph: str) -> str:
    """What a glyph says, for a reader: 'interesting' for !? and for $5, and a numeric glyph
    without a standard meaning here by its number ('numeric annotation glyph 14')."""
    if glyph in GLYPH_MEANINGS:
        return GLYPH_MEANINGS[glyph]
    number = int(glyph[1:]) if glyph[:1] == "$" and glyph[1:].isdigit() else None
    if number is None:
        return glyph
    return NAG_MEANINGS.get(number, f"numeric annotation glyph {number}")


@dataclass(frozen=True, slots=True)
class Cursor:
    """A position in the tree: a line and how many of its turns are played."""

    line: LinePath = MAIN
    index: int = 0

    @property
    def depth(self) -> int:
        return len(self.line)


class RowStatus(StrEnum):
    """What a row of the move list stands for."""

    START = "start"  # the setup, before the first turn
    OK = "ok"  # a legal turn
    ERROR = "error"  # an illegal turn: where its line stops, or one the replay played on
    UNREACHED = "unreached"  # a turn after the one where its line stops


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One row of the move list: a turn of some line, and where selecting it goes."""

    target: Cursor
    number: int | None  # the turn's number in the game; None for the start row
    player: str
    notation: str
    glyphs: tuple[str, ...] = ()
    depth: int = 0
    status: RowStatus = RowStatus.OK
    first_of_variation: bool = False
    variations: int = 0  # how many variations hang on this turn

    @property
    def label(self) -> str:
        if self.number is None:
            return "start"
        return f"{self.number}."


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What the board shows of one player at a position (compared by value: unchanged, not redrawn)."""

    name: str
    trees: tuple[tuple[Coord, Card], ...]  # sorted by cell
    hand: tuple[str, ...]  # card codes, '??' for each card not shown
    hand_hidden: bool  # the whole hand is hidden by the perspective
    pile: tuple[Card, ...]  # bottom first
    to_move: bool
    species: tuple[str, ...]  # the species in play, for colours
    marked: Coord | None = None  # the tree this player planted on the current turn

    @property
    def arboretum(self) -> dict[Coord, Card]:
        return dict(self.trees)


@dataclass(frozen=True, slots=True)
class Notes:
    """What stands beside the board at a position: the current turn, its annotations, problems."""

    heading: str
    glyphs: tuple[str, ...] = ()
    before: tuple[Comment, ...] = ()
    after: tuple[Comment, ...] = ()
    variation_before: tuple[Comment, ...] = ()  # the variation's opening comments (first turn)
    variation_after: tuple[Comment, ...] = ()  # its closing comments (its last turn)
    variations_here: int = 0  # variations that hang on the current turn
    in_variation: str | None = None  # e.g. 'variation 1 of 2 on turn 5'
    problems: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


HIDDEN = "??"


def seen_notation(turn: Turn, viewer: str | None = None) -> str:
    """The turn in notation as ``viewer`` saw it (None: everything): the cards another player drew
    from the deck are not named."""
    if viewer is None or turn.player == viewer or not any(_names_a_deck_card(d) for d in turn.draws):
        return turn.notation()
    draws = tuple(Draw() if _names_a_deck_card(d) else d for d in turn.draws)
    return replace(turn, draws=draws, variations=()).notation()


def _names_a_deck_card(draw: DrawAction) -> bool:
    return isinstance(draw, Draw) and draw.owner is None and draw.card is not None


class ReplayModel:
    """A recorded game ready to step through: every position computed, a cursor and a perspective."""

    def __init__(self, tree: GameTree) -> None:
        replay = tree.replay
        self.tree = tree
        self.replay = replay
        self.record: GameRecord = replay.record
        self.lines: dict[LinePath, Line] = tree.lines
        main_states = self.lines[MAIN].states
        self.players: tuple[str, ...] = main_states[0].players
        self.species: tuple[str, ...] = main_states[0].config.species
        self.cursor = Cursor(MAIN, 0)
        perspective = self.record.header.perspective
        self.perspective: str | None = perspective if perspective in self.players else None
        self._sheets: dict[Cursor, ScoreSheet | None] = {}
        self._rows: dict[str | None, tuple[MoveRow, ...]] = {}
        self._row_of: dict[Cursor, int] = {}
        self._nodes: dict[Cursor, Node] = {}
        self._knowledge: dict[tuple[Cursor, View], Knowledge] = {}

    @classmethod
    def from_record(cls, record: GameRecord, source_lines: list[str] | None = None) -> "ReplayModel":
        """The model of a record's game; ArboError when its header sets up no game."""
        return cls(load_tree(record, source_lines))

    # -- facts ------------------------------------------------------------------------------

    @property
    def header(self) -> Header:
        return self.record.header

    @property
    def line(self) -> Line:
        return self.lines[self.cursor.line]

    @property
    def state(self) -> Game:
        """The table at the cursor."""
        return self.line.states[self.cursor.index]

    def state_at(self, cursor: Cursor) -> Game:
        return self.lines[cursor.line].states[cursor.index]

    @property
    def turn(self) -> Turn | None:
        """The turn just played to reach the cursor (None at the start of the game)."""
        return self._turn_at(self.cursor)

    @property
    def turns_played(self) -> int:
        """How many turns of the game lead to the cursor's position."""
        return self.line.start + self.cursor.index

    @property
    def in_variation(self) -> bool:
        return bool(self.cursor.line)

    @property
    def at_end(self) -> bool:
        return self.cursor.index >= self.line.legal

    @property
    def at_start(self) -> bool:
        return not self.cursor.line and self.cursor.index == 0

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return list(self.replay.diagnostics)

    @property
    def main_turns(self) -> int:
        return self.lines[MAIN].legal

    # -- moving -----------------------------------------------------------------------------

    def move_to(self, cursor: Cursor) -> bool:
        """Put the cursor on a position; False (and no move) when it is not one of the tree's."""
        line = self.lines.get(cursor.line)
        if line is None or not 0 <= cursor.index <= line.legal:
            return False
        if cursor == self.cursor:
            return False
        self.cursor = cursor
        return True

    def next(self) -> bool:
        """One turn forward in the current line."""
        if self.at_end:
            return False
        return self.move_to(Cursor(self.cursor.line, self.cursor.index + 1))

    def previous(self) -> bool:
        """One turn back; from a variation's first turn, back to the position it branches from."""
        line = self.line
        if self.cursor.index > line.first:
            return self.move_to(Cursor(line.path, self.cursor.index - 1))
        if line.path:
            parent, index, _ = _branch(line)
            return self.move_to(Cursor(parent, index))
        return False

    def home(self) -> bool:
        """The start of the current line (of the game, on the main line)."""
        return self.move_to(Cursor(self.cursor.line, self.line.first))

    def end(self) -> bool:
        """The last legal position of the current line."""
        return self.move_to(Cursor(self.cursor.line, self.line.legal))

    def cursor_for_turn(self, number: int, line_path: LinePath | None = None) -> Cursor | None:
        """The position after turn ``number`` as the current line (or its ancestors) played it."""
        path = self.cursor.line if line_path is None else line_path
        while True:
            line = self.lines[path]
            index = number - line.start
            if line.first <= index <= line.legal:
                return Cursor(path, index)
            if index > line.legal or line.parent is None:
                return None
            path = line.parent

    def goto(self, number: int) -> bool:
        """Go to the position after turn ``number`` (0: the setup); False when there is none."""
        target = self.cursor_for_turn(number)
        if target is None:
            return False
        self.move_to(target)
        return True

    def variations_here(self) -> tuple[Variation, ...]:
        """The variations hanging on the current turn."""
        turn = self.turn
        return turn.variations if turn is not None else ()

    def enter_variation(self, number: int = 0) -> bool:
        """Enter variation ``number`` of the current turn, on its first turn."""
        index = self.cursor.index - 1
        if index < 0 or not 0 <= number < len(self.variations_here()):
            return False
        path = self.cursor.line + ((index, number),)
        line = self.lines[path]
        return self.move_to(Cursor(path, line.first))

    def leave_variation(self) -> bool:
        """Back to the turn that the current variation replaces, in the line it branches from."""
        line = self.line
        if not line.path:
            return False
        parent, index, _ = _branch(line)
        return self.move_to(Cursor(parent, index + 1))

    def sibling_count(self) -> int:
        """How many variations hang on the turn the current variation replaces (0 on the main line)."""
        line = self.line
        if not line.path:
            return 0
        parent, index, _ = _branch(line)
        return len(self.lines[parent].turns[index].variations)

    def toggle_variation(self) -> str:
        """The ``v`` key: enter the current turn's first variation; on a variation's first turn,
        the next variation of the same turn (cycling back to the line it branches from after the
        last); elsewhere in a variation, leave it. Returns what happened: entered, next, left, none."""
        line = self.line
        if line.path and self.cursor.index <= line.first:
            parent, index, number = _branch(line)
            if number + 1 < self.sibling_count():
                sibling = parent + ((index, number + 1),)
                self.move_to(Cursor(sibling, self.lines[sibling].first))
                return "next"
            if not self.variations_here():
                self.leave_variation()
                return "left"
        if self.enter_variation(0):
            return "entered"
        if self.leave_variation():
            return "left"
        return "none"

    # -- perspective ------------------------------------------------------------------------

    def perspectives(self) -> tuple[str | None, ...]:
        return (None, *self.players)

    def set_perspective(self, player: str | None) -> None:
        if player is not None and player not in self.players:
            raise ArboError(f"{player} is not a player of this game ({', '.join(self.players)})")
        self.perspective = player

    def cycle_perspective(self) -> str | None:
        """Omniscient, then each player's view in seat order, then omniscient again."""
        order = self.perspectives()
        self.perspective = order[(order.index(self.perspective) + 1) % len(order)]
        return self.perspective

    def hidden_hands(self, cursor: Cursor | None = None) -> frozenset[str]:
        """The players whose hands the perspective hides (none once the game is over: hands are shown)."""
        if self.perspective is None:
            return frozenset()
        if self.state_at(cursor or self.cursor).is_over:
            return frozenset()
        return frozenset(p for p in self.players if p != self.perspective)

    def view(self) -> View:
        """The point of view of the perspective: a seat's, or the record's whole knowledge."""
        return View.record() if self.perspective is None else View.of_seat(self.perspective)

    def node_at(self, cursor: Cursor) -> Node:
        """The tree's node at a cursor (a variation's start: the node before the turn it replaces)."""
        if not self._nodes:
            for path in self.lines:
                for made in self.tree.line_nodes(path):
                    self._nodes[Cursor(path, made.index)] = made
        node = self._nodes.get(cursor)
        if node is None and cursor.index == 0 and Cursor(cursor.line, 1) in self._nodes:
            node = self._nodes[Cursor(cursor.line, 1)].parent
        if node is None:
            raise ArboError(f"no position at {cursor}")
        return node

    def knowledge(self, cursor: Cursor | None = None, view: View | None = None) -> Knowledge:
        """What the perspective (or ``view``) knows at the cursor: every view of a position shows it."""
        key = (cursor or self.cursor, view or self.view())
        known = self._knowledge.get(key)
        if known is None:
            known = self._knowledge[key] = self.node_at(key[0]).knowledge(key[1])
        return known

    def shown_hands(self, cursor: Cursor | None = None) -> dict[str, tuple[str, ...]]:
        """Each hand as the perspective knows it: known cards, then ``??`` for each unknown one."""
        return {p: hand.shown() for p, hand in self.knowledge(cursor).hands.items()}

    def player_view(self, player: str, cursor: Cursor | None = None) -> PlayerView:
        state = self.state_at(cursor or self.cursor)
        known = self.knowledge(cursor).hands[player]
        cards = known.shown()
        hidden = not known.known and known.unknown > 0 and player in self.hidden_hands(cursor)
        turn = self.turn if cursor is None or cursor == self.cursor else self._turn_at(cursor)
        marked = turn.plant.coord if turn is not None and turn.player == player else None
        return PlayerView(
            name=player,
            trees=tuple(sorted(state.arboretum(player).items())),
            hand=cards,
            hand_hidden=hidden,
            pile=state.discard_pile(player),
            to_move=not state.is_over and state.current_player == player,
            species=self.species,
            marked=marked,
        )

    def _turn_at(self, cursor: Cursor) -> Turn | None:
        return self.lines[cursor.line].turns[cursor.index - 1] if cursor.index >= 1 else None

    # -- annotations ------------------------------------------------------------------------

    def notes(self) -> Notes:
        line, index = self.line, self.cursor.index
        turn = self.turn
        state = self.state
        problems: list[str] = []
        warnings: list[str] = []
        if index and line.faults:
            problems.extend(str(fault) for fault in line.faults_of(index - 1))
        if index == line.legal and line.error is not None:
            problems.append(str(line.error))
        at_main_end = not line.path and index == line.legal
        if at_main_end:
            for diagnostic in self.replay.diagnostics:
                if diagnostic.code.about_a_turn:  # shown where its line stops, not at the end
                    continue
                target = problems if diagnostic.severity is Severity.ERROR else warnings
                target.append(diagnostic.message)
        if turn is None:
            heading = "Start of the game" if not line.path else "Variation"
            before = self.record.comments if not line.path else ()
            after: tuple[Comment, ...] = ()
            glyphs: tuple[str, ...] = ()
        else:
            heading = f"Turn {line.start + index}: {seen_notation(turn, self.perspective)}"
            before, after, glyphs = turn.comments_before, turn.comments_after, turn.glyphs
        if state.is_over:
            heading += "  (game over)"
        in_variation = None
        variation_before: tuple[Comment, ...] = ()
        variation_after: tuple[Comment, ...] = ()
        if line.path:
            _, _, number = _branch(line)
            depth = len(line.path)
            nested = f" (depth {depth})" if depth > 1 else ""
            in_variation = f"variation {number + 1} of {self.sibling_count()} on turn {line.start + 1}{nested}"
            if line.variation is not None:
                if index == line.first:
                    variation_before = line.variation.comments_before
                if index == line.legal:
                    variation_after = line.variation.comments_after
        return Notes(
            heading=heading,
            glyphs=glyphs,
            before=before,
            after=after,
            variation_before=variation_before,
            variation_after=variation_after,
            variations_here=len(self.variations_here()),
            in_variation=in_variation,
            problems=tuple(problems),
            warnings=tuple(warnings),
        )

    # -- scoring ----------------------------------------------------------------------------

    def sheet(self, cursor: Cursor | None = None) -> ScoreSheet | None:
        """The scoring of the position (as if the game ended there), None when a hand is unknown."""
        cursor = cursor or self.cursor
        if cursor not in self._sheets:
            main = self.lines[MAIN]
            sheet: ScoreSheet | None
            if cursor == Cursor(MAIN, main.legal) and self.replay.sheet is not None:
                sheet = self.replay.sheet
            else:
                state = self.state_at(cursor)
                sheet = None if state.hidden_players() else score_game(state)
            self._sheets[cursor] = sheet
        return self._sheets[cursor]

    def unscored_reason(self, cursor: Cursor | None = None) -> str:
        state = self.state_at(cursor or self.cursor)
        hidden = state.hidden_players()
        if hidden:
            return (
                f"cannot score: the hand{'s' if len(hidden) > 1 else ''} of {', '.join(hidden)} "
                f"{'are' if len(hidden) > 1 else 'is'} not known"
            )
        return ""

    # -- the move list ----------------------------------------------------------------------

    def rows(self) -> tuple[MoveRow, ...]:
        """Every turn of the tree in reading order: each turn, then the variations that replace it.
        In one player's view, the cards the others drew from the deck are not named."""
        viewer = self.perspective
        if viewer not in self._rows:
            rows = [MoveRow(Cursor(MAIN, 0), None, "", "start of the game", status=RowStatus.START)]
            rows.extend(self._line_rows(self.lines[MAIN], viewer))
            self._rows[viewer] = tuple(rows)
            if not self._row_of:
                for number, row in enumerate(rows):
                    if row.status is not RowStatus.UNREACHED:  # an error row stands for a variation with no legal turn
                        self._row_of.setdefault(row.target, number)
        return self._rows[viewer]

    def _line_rows(self, line: Line, viewer: str | None) -> Iterator[MoveRow]:
        depth = len(line.path)
        for index, turn in enumerate(line.turns):
            if index < line.legal:
                status = RowStatus.ERROR if line.faults and line.faults_of(index) else RowStatus.OK
                target = Cursor(line.path, index + 1)
            else:
                status = RowStatus.ERROR if index == line.legal else RowStatus.UNREACHED
                target = Cursor(line.path, line.legal)
            yield MoveRow(
                target=target,
                number=line.start + index + 1,
                player=turn.player,
                notation=seen_notation(turn, viewer),
                glyphs=turn.glyphs,
                depth=depth,
                status=status,
                first_of_variation=bool(line.path) and index == 0,
                variations=len(turn.variations),
            )
            if index <= line.legal:
                for number in range(len(turn.variations)):
                    yield from self._line_rows(self.lines[line.path + ((index, number),)], viewer)

    def row_index(self, cursor: Cursor | None = None) -> int:
        """The move-list row of the cursor's current turn (the start row at the setup)."""
        self.rows()
        cursor = cursor or self.cursor
        if cursor in self._row_of:
            return self._row_of[cursor]
        return 0

    # -- text -------------------------------------------------------------------------------

    def title(self) -> str:
        header = self.header
        parts = [
            x for x in (header.event, header.site, header.date, f"round {header.round}" if header.round else None) if x
        ]
        players = " vs ".join(self.players) if len(self.players) == 2 else ", ".join(self.players)
        parts.append(players)
        if len(self.record.file) and self.record.file != "<string>" and not (header.event or header.date):
            parts.insert(0, self.record.file)
        return " · ".join(parts)

    def status(self) -> str:
        """One line: the turn, who is to move, the deck, the view."""
        state = self.state
        played = self.turns_played
        if state.is_over:
            where = f"after turn {played}: game over"
        elif played == 0:
            where = f"start: {state.current_player} to play turn 1"
        else:
            where = f"after turn {played}: {state.current_player} to play turn {state.turn_number}"
        deck = f"deck {state.deck_size}"
        view = f"view: {self.perspective}" if self.perspective else "view: all hands"
        return f"{where} · {deck} · {view}"


def _branch(line: Line) -> tuple[LinePath, int, int]:
    """A variation's parent line, the index there of the turn it replaces, and its number."""
    index, number = line.path[-1]
    return line.path[:-1], index, number


def scored_cells(sheet: ScoreSheet, player: str) -> frozenset[Coord]:
    """The cells of every path the player scores."""
    cells: set[Coord] = set()
    for score in sheet.player(player).species.values():
        if score.path is not None:
            cells.update(score.path.cells)
    return frozenset(cells)
