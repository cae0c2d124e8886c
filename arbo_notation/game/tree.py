"""The game tree: a record replayed once, every turn played in every line a node with its position.

    import arbo_notation as arbo

    tree = arbo.replay(arbo.read_games("club.arb")[0])
    for node in tree.mainline():
        print(node.number, node.turn, node.position.deck_size)

A node stands for the position after its turn (the root: after the setup). The turns of a line
follow one another through ``node.next()``; a variation replaces a turn, so the variations of a
node are the first nodes of the lines that replace *its* turn, and they share its parent. A line
stops at its first illegal turn that the record's facts cannot repair: the node before it carries
that ``error``. An illegal turn they repair (a wrong player's name, a draw naming a card that is
not the top one) is played as they say: its node carries its rule errors as ``faults``.
"""

from __future__ import annotations

import weakref
from enum import Enum, auto
from typing import Iterator, Sequence

from arbo_notation.engine.scoring import ScoreSheet
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError, Diagnostic
from arbo_notation.notation.model import Comment, GameRecord, Turn
from arbo_notation.game.knowledge import Knowledge, View, knowledge
from arbo_notation.game.replay import MAIN, GameReplay, Line, LineError, LinePath, replay_game


class _Later(Enum):
    """A node's ``_next`` before the following node is made."""

    LATER = auto()


_LATER = _Later.LATER


class Node:
    """One position of the tree: the turn that led to it, the table after it, its annotations."""

    __slots__ = ("tree", "line", "index", "parent", "variations", "_next", "__weakref__")

    def __init__(self, tree: "GameTree", line: Line, index: int, parent: "Node | None") -> None:
        self.tree = tree
        self.line = line  # the line of play this node's turn belongs to
        self.index = index  # turns of that line played to reach this node
        self.parent = parent  # the node before this turn; None at the root
        self.variations: list[Node] = []  # first nodes of the lines that replace this node's turn
        # The following node, made when first asked for (see GameTree._build); None at the line's end.
        self._next: Node | None | _Later = _LATER if index < line.legal else None

    @property
    def turn(self) -> Turn | None:
        """The turn that led here, as recorded (None at the root)."""
        return self.line.turns[self.index - 1] if self.index else None

    @property
    def number(self) -> int:
        """How many turns of the game lead here: the turn's number (0 at the root)."""
        return self.line.start + self.index

    @property
    def position(self) -> Game:
        """The table after this node's turn: a copy of the engine's game, the caller's to keep."""
        return self.line.states[self.index].copy()

    @property
    def comments(self) -> tuple[Comment, ...]:
        """The comments on this turn (before it, then after it); at the root, the game's own."""
        turn = self.turn
        if turn is None:
            return self.tree.record.comments
        return turn.comments_before + turn.comments_after

    @property
    def glyphs(self) -> tuple[str, ...]:
        turn = self.turn
        return turn.glyphs if turn is not None else ()

    @property
    def error(self) -> LineError | None:
        """The rule error of the next turn of this line, when the line stops at that turn."""
        line = self.line
        return line.error if self.index == line.legal else None

    @property
    def faults(self) -> tuple[LineError, ...]:
        """The rule errors of this node's own turn, when it was illegal and played as the record's
        facts say (empty at the root and for a legal turn)."""
        return self.line.faults_of(self.index - 1) if self.index and self.line.faults else ()

    @property
    def path(self) -> LinePath:
        """The line of play this node belongs to (``()``: the main line)."""
        return self.line.path

    def is_mainline(self) -> bool:
        return not self.line.path

    def knowledge(self, view: View) -> Knowledge:
        """What ``view`` knows at this node: hands, unseen cards and their places, rights (see
        ``arbo_notation.game.knowledge``)."""
        return knowledge(self, view)

    def next(self) -> "Node | None":
        """The following node of this node's line (None at its last turn played)."""
        following = self._next
        if following is _LATER:
            following = self._next = Node(self.tree, self.line, self.index + 1, self)
        return following

    def __repr__(self) -> str:
        turn = self.turn
        where = "root" if turn is None else f"{self.number}. {turn.notation()}"
        return f"<Node {where}{' in variation ' + str(self.path) if self.path else ''}>"


class GameTree:
    """A game record replayed once: the root, every turn played as a node, and the findings."""

    def __init__(self, replay: GameReplay) -> None:
        if MAIN not in replay.lines:
            raise ArboError("a game tree needs a replay that kept its states (replay_game(..., keep_states=True))")
        self.replay = replay
        self._firsts: dict[LinePath, Node] = {}
        # The tree holds its root weakly, so that a tree nobody walks is no reference cycle (a
        # node holds its tree): dropped, it is freed at once, not by the cyclic collector. Any
        # node held holds the root (its parents), and the variations' first nodes hold theirs.
        self._root = weakref.ref(self._build(replay.lines[MAIN], None))

    @property
    def root(self) -> Node:
        """The node of the setup: no turn, the position dealt."""
        root = self._root()
        if root is None:  # no node of the tree is held: the main line is made again as it is walked
            root = Node(self, self.replay.lines[MAIN], 0, None)
            self._root = weakref.ref(root)
        return root

    def _build(self, line: Line, before: Node | None) -> Node:
        """The nodes of a line, ``before`` being the node its first turn follows; its first node.

        The nodes that its variations hang on are made now; those after them when first walked to
        (``Node.next``), so a replay pays for no node that nobody visits, as it makes no position
        that nobody asks for. A variation that replaces the turn where the line stops has no turn
        node to hang on: it is reached through ``line_nodes`` and ``lines`` only."""
        start = 1 if line.path else 0
        first = node = Node(self, line, start, before)
        parent: Node | None
        for index in range(min(line.legal + 1, len(line.turns))):
            for number in range(len(line.turns[index].variations)):
                child = self.replay.lines[line.path + ((index, number),)]
                if child.legal < 1:
                    continue
                if index >= start:
                    while node.index < index:
                        following = node.next()
                        assert following is not None, "the line reaches the turn: index <= line.legal"
                        node = following
                    parent, hanging = node, node.next()
                else:  # the variation's first turn: it follows ``before``, and its node is ``first``
                    parent, hanging = before, first
                branch = self._firsts[child.path] = self._build(child, parent)
                if hanging is not None:  # None: the turn this variation replaces is where the line stops
                    hanging.variations.append(branch)
        return first

    # -- facts ------------------------------------------------------------------------------

    @property
    def record(self) -> GameRecord:
        return self.replay.record

    @property
    def lines(self) -> dict[LinePath, Line]:
        """Every line of play: the main line at ``()``, then each variation by its path."""
        return self.replay.lines

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What `arbo check` reports for this game."""
        return self.replay.diagnostics

    @property
    def valid(self) -> bool:
        return self.replay.valid

    @property
    def sheet(self) -> ScoreSheet | None:
        """The scoring of the finished game (None while it is unfinished, invalid or hands hidden)."""
        return self.replay.sheet

    # -- walking ----------------------------------------------------------------------------

    def mainline(self) -> Iterator[Node]:
        """The main line's nodes, starting at the setup: the root (no turn, the position dealt),
        then one node per legal turn. (python-chess's ``mainline()`` yields the moves; here
        ``node.turn`` is the move, None at the root.)"""
        node: Node | None = self.root
        while node is not None:
            yield node
            node = node.next()

    def node(self, number: int) -> Node:
        """The node after turn ``number`` of the main line (0: the root, the setup); IndexError,
        saying how many turns there are, for a turn the main line does not reach."""
        if type(number) is int and number >= 0:
            for node in self.mainline():
                if node.number == number:
                    return node
        played = self.end().number
        raise IndexError(
            f"the main line has {played} turn{'' if played == 1 else 's'} played; "
            f"there is no node after turn {number!r}"
        )

    def end(self) -> Node:
        """The last node of the main line (the hands revealed there once the game is over)."""
        node = self.root
        while (following := node.next()) is not None:
            node = following
        return node

    def line_nodes(self, path: LinePath) -> list[Node]:
        """The nodes of one line of play, from its first turn (the root first, for the main line)."""
        node = self.root if not path else self._firsts.get(path)
        nodes = []
        while node is not None:
            nodes.append(node)
            node = node.next()
        return nodes

    def walk(self) -> Iterator[Node]:
        """Every node in reading order: each turn, then the variations that replace it."""
        yield from self._walk_from(self.root)

    def _walk_from(self, node: Node | None) -> Iterator[Node]:
        while node is not None:
            yield node
            for first in node.variations:
                yield from self._walk_from(first)
            node = node.next()


def load_tree(record: GameRecord, source_lines: Sequence[str] | None = None) -> GameTree:
    """Replay a record into its tree; ArboError when its header sets up no game."""
    replay = replay_game(record, source_lines=source_lines, keep_states=True)
    if not replay.lines:
        raise SetupError(replay)
    return GameTree(replay)


class SetupError(ArboError):
    """A record whose header sets up no game: there is no tree to walk; ``diagnostics`` say why."""

    def __init__(self, replay: GameReplay) -> None:
        record = replay.record
        problems = "; ".join(d.message for d in replay.errors) or "the game cannot be set up"
        super().__init__(f"game {record.index} of {record.file} cannot be set up: {problems}")
        self.diagnostics = replay.diagnostics


__all__ = ["GameTree", "Node", "SetupError", "load_tree"]
