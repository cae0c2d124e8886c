"""What a point of view knows at a node of a game tree: hands, unseen cards and where they may be, rights.

    >>> import arbo_notation as arbo
    >>> tree = arbo.replay(arbo.read_games("samples/four-players.arb")[0])
    >>> node = tree.line_nodes(())[20]
    >>> known = node.knowledge(arbo.View.of_seat("Cleo"))
    >>> print(known.hands["Dev"])
    Rp3 ?? ?? ?? ?? ?? ??
    >>> print(known.hands["Ben"])
    Ca2 Cb1 Cb3 Tp2 ?? ?? ??

The model is built from the record's facts as the view sees them, turn by turn from the root:
a card taken from a discard pile is known in its taker's hand until it is planted or discarded;
a card dealt or drawn from the deck is known to its holder only (and to the record's omniscient
view when the record knows it). The cards no one of the view has seen (``unseen``) may be in
any hand that holds unknown cards, or in the deck: facts up to the node never single one out.

With hindsight the record's later facts of the node's line count too (plants, discards, deck
draws the seat saw, the reveals at the end), and the inference is exact: every unseen card at
the node is matched to a place (a hand's unknown slot, a later deck draw, or the deck's rest)
that agrees with its first later appearance, and a card "may be" in a place exactly when some
complete matching puts it there. A card that every matching puts in one hand is known there.
"""

from __future__ import annotations

from collections import deque
from weakref import WeakKeyDictionary
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Iterable, Iterator, Literal, Mapping, Protocol, Sequence

from arbo_notation.engine.actions import Draw
from arbo_notation.engine.cards import MAX_VALUE, MIN_VALUE, Card, card_order
from arbo_notation.engine.state import Game
from arbo_notation.errors import ArboError
from arbo_notation.notation.model import GameRecord, Turn


class _Line(Protocol):
    """What this module reads of a line of play (game/replay.py's ``Line``)."""

    @property
    def states(self) -> Sequence[Game]: ...


class _Tree(Protocol):
    """What this module reads of a game tree (game/tree.py's ``GameTree``): its record; it also
    keys the trackers carried (_CARRIED)."""

    @property
    def record(self) -> GameRecord: ...


class Node(Protocol):
    """What this module reads of a game tree's node (game/tree.py's ``Node``), named here so that
    the tree imports this module and this module nothing of the tree. Read-only members, so that
    the tree's node, whose members name the tree's own types, fits."""

    @property
    def tree(self) -> _Tree: ...
    @property
    def line(self) -> _Line: ...  # the node's line of play: its positions (``line.states``)
    @property
    def index(self) -> int: ...
    @property
    def parent(self) -> "Node | None": ...
    @property
    def path(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def turn(self) -> Turn | None: ...
    def next(self) -> "Node | None": ...
    def is_mainline(self) -> bool: ...


#: How an unknown card is shown in a hand.
UNKNOWN = "??"


@dataclass(frozen=True, slots=True)
class View:
    """A point of view: a seat, a spectator, or the record's whole knowledge; optionally with hindsight."""

    seat: str | None = None  # the player whose seat; None with omniscient=False: a spectator
    omniscient: bool = False  # the record's whole knowledge
    hindsight: bool = False  # also use the record's facts after the node

    @classmethod
    def of_seat(cls, player: str) -> "View":
        return cls(seat=player)

    @classmethod
    def spectator(cls) -> "View":
        return cls()

    @classmethod
    def record(cls) -> "View":
        return cls(omniscient=True)

    def with_hindsight(self) -> "View":
        return replace(self, hindsight=True)

    def sees_deck_draw(self, player: str) -> bool:
        """Whether this view sees the card ``player`` draws from the deck (when the record knows it)."""
        return self.omniscient or self.seat == player

    def __str__(self) -> str:
        base = "the record" if self.omniscient else f"{self.seat}'s seat" if self.seat else "a spectator"
        return f"{base} with hindsight" if self.hindsight else base


@dataclass(frozen=True, slots=True)
class HandKnowledge:
    """What a view knows of one hand: the cards known to be in it (sorted) and how many it does not know."""

    player: str
    known: tuple[Card, ...]
    unknown: int

    def __len__(self) -> int:
        return len(self.known) + self.unknown

    def shown(self) -> tuple[str, ...]:
        """The hand as a board shows it: the known cards, then ``??`` for each unknown one."""
        return tuple(str(c) for c in self.known) + (UNKNOWN,) * self.unknown

    def __str__(self) -> str:
        return " ".join(self.shown()) or "-"


class Certainty(Enum):
    """Whether something holds in every state of the table the view cannot tell apart, in some, or in none."""

    CERTAIN = "certain"
    POSSIBLE = "possible"
    IMPOSSIBLE = "impossible"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Right:
    """One player's right to score one species as a view knows it, with the hand sum's range.

    ``low``..``high`` is the range of the player's hand sum in the species over the hands the
    view allows (an 8 counted 0 where an opponent may hold the 1). ``status`` is CERTAIN when
    the lowest sum ties or beats every opponent's highest, IMPOSSIBLE when some opponent's lowest
    beats the highest, else POSSIBLE (the ranges overlap).
    """

    player: str
    species: str
    status: Certainty
    low: int
    high: int

    def __str__(self) -> str:
        span = str(self.low) if self.low == self.high else f"{self.low} to {self.high}"
        return f"{self.player} {self.species}: {self.status} (sum {span})"


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one view knows at one node: every hand, the deck's size, the unseen cards and their places."""

    view: View
    hands: Mapping[str, HandKnowledge]  # every player, seat order
    deck_size: int
    unseen: frozenset[Card]  # not planted, not on a pile, not known in a hand
    places: Mapping[Card, frozenset[str | None]]  # where each unseen card may be; None: the deck
    rights: Mapping[tuple[str, str], Right] = field(default_factory=dict)  # by (player, species)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.hands)

    def may_hold(self, player: str, card: Card) -> bool:
        """Whether the hand may hold the card as far as this view knows (True for a known card)."""
        return card in self.hands[player].known or player in self.places.get(card, ())

    def may_be_in_deck(self, card: Card) -> bool:
        return None in self.places.get(card, ())

    def unseen_by_species(self) -> dict[str, tuple[Card, ...]]:
        """The unseen cards grouped by species, in value order (species without any left out)."""
        grouped: dict[str, list[Card]] = {}
        for card in sorted(self.unseen, key=card_order):
            grouped.setdefault(card.species, []).append(card)
        return {code: tuple(cards) for code, cards in grouped.items()}

    def right(self, player: str, species: str) -> Right:
        return self.rights[(player, species)]

    def to_json(self) -> dict[str, Any]:
        """The knowledge as plain JSON data (cards as their notation)."""
        unseen = sorted(self.unseen, key=card_order)
        unseen_names = [str(c) for c in unseen]
        # each set of places named once: a seat's own table has one for all its unseen cards
        named = {where: sorted("deck" if p is None else p for p in where) for where in set(self.places.values())}
        return {
            "view": {"seat": self.view.seat, "omniscient": self.view.omniscient, "hindsight": self.view.hindsight},
            "hands": {p: {"known": [str(c) for c in h.known], "unknown": h.unknown} for p, h in self.hands.items()},
            "deck_size": self.deck_size,
            "unseen": unseen_names,
            "places": {name: list(named[self.places[c]]) for name, c in zip(unseen_names, unseen, strict=True)},
            "rights": [
                {"player": r.player, "species": r.species, "status": r.status.value, "low": r.low, "high": r.high}
                for r in self.rights.values()
            ],
        }


# -- the facts of a line, as a view sees them ---------------------------------------------------


class _Tracker:
    """A view's knowledge of the hands, carried forward fact by fact."""

    __slots__ = ("view", "known", "unknown", "deck")

    def __init__(self, view: View, root: Game, known: Mapping[str, Sequence[Card]]) -> None:
        """The view's knowledge at the ``root``: the cards it ``known`` in each hand there."""
        self.view = view
        players = root.players
        self.known: dict[str, set[Card]] = {p: set() for p in players}
        self.unknown: dict[str, int] = {p: len(root.hand(p)) for p in players}
        for player, cards in known.items():
            if player in self.known:
                self.known[player] = set(cards)
                self.unknown[player] = max(0, self.unknown[player] - len(cards))
        self.deck = root.deck_size

    def copy(self) -> "_Tracker":
        other = _Tracker.__new__(_Tracker)
        other.view, other.deck = self.view, self.deck
        other.known = {p: set(k) for p, k in self.known.items()}
        other.unknown = dict(self.unknown)
        return other

    def take(self, player: str, card: Card) -> bool:
        """A card leaves the hand face up (planted, discarded); whether the view knew it was there."""
        if card in self.known[player]:
            self.known[player].discard(card)
            return True
        self.unknown[player] = max(0, self.unknown[player] - 1)
        return False

    def reveal(self, player: str, cards: Iterable[Card]) -> set[Card]:
        """The hand shown at scoring; the cards the view did not know were there."""
        cards = set(cards)
        new = cards - self.known[player]
        self.known[player] = cards
        self.unknown[player] = 0
        return new


@dataclass(frozen=True, slots=True)
class _Fact:
    """One fact of a line after the node: what happened to a card, or a deck draw."""

    kind: str  # "draw" (from the deck), "out" (planted or discarded), "reveal"
    player: str
    card: Card | None  # None: a deck draw the view did not see


def _turn_facts(tracker: _Tracker, before: Game, turn: Turn) -> Iterator[_Fact]:
    """Play one turn into the tracker, yielding its facts in order."""
    player = turn.player
    if player not in tracker.known:
        return
    piles: dict[str, list[Card]] = {}
    deck: list[Card] | None = None
    for draw in turn.draws:
        if not isinstance(draw, Draw):  # a skipped draw: nothing taken
            continue
        if draw.owner is not None:  # a discard pile
            owner = draw.owner
            if owner not in piles:
                piles[owner] = list(before.discard_pile(owner)) if owner in tracker.known else []
            pile = piles[owner]
            card = pile.pop() if pile else draw.card
            if card is not None:
                tracker.known[player].add(card)
        else:  # the deck
            if deck is None:
                deck = list(before.deck_cards() or ())  # top first
            card = deck.pop(0) if deck else draw.card
            tracker.deck = max(0, tracker.deck - 1)
            if card is not None and tracker.view.sees_deck_draw(player):
                tracker.known[player].add(card)
                yield _Fact("draw", player, card)
            else:
                tracker.unknown[player] += 1
                yield _Fact("draw", player, None)
    for card in (turn.plant.card, turn.discard):
        if not tracker.take(player, card):
            yield _Fact("out", player, card)


def _played(node: "Node") -> Turn:
    """The turn that led to a node that has a parent (only the root has no turn)."""
    turn = node.turn
    assert turn is not None, "a node after another has the turn that led to it"
    return turn


def _table(node: "Node") -> Game:
    """The node's position, read only (``node.position`` copies it for its caller to keep)."""
    return node.line.states[node.index]


#: A node and what a view sees of it: the node's path and index, the view's seat and omniscience.
_Carried = tuple[tuple[tuple[int, int], ...], int, tuple[str | None, bool]]

#: The trackers already carried to a node, per tree (a tree is replayed once and asked many times:
#: every position of a page, every step of the replayer), by node and by what the view sees.
_CARRIED: "WeakKeyDictionary[_Tree, dict[_Carried, _Tracker]]" = WeakKeyDictionary()


def _forward(node: "Node", view: View) -> _Tracker:
    """The view's tracker carried from the root to the node (a copy, the caller's to change)."""
    carried = _CARRIED.setdefault(node.tree, {})
    sight = (view.seat, view.omniscient)

    def key(at: "Node") -> _Carried:
        return (at.path, at.index, sight)

    path: list[Node] = []
    walk: Node | None = node
    while walk is not None and key(walk) not in carried:
        path.append(walk)
        walk = walk.parent
    if walk is None:
        root = path.pop()
        table = _table(root)
        tracker = _Tracker(View(view.seat, view.omniscient), table, _known_at_root(view, table, node.tree.record))
        carried[key(root)] = tracker
        walk = root
    tracker = carried[key(walk)]
    for after in reversed(path):
        tracker = tracker.copy()
        for _ in _turn_facts(tracker, _table(walk), _played(after)):
            pass
        carried[key(after)] = tracker
        walk = after
    return tracker.copy()


def _known_at_root(view: View, root: Game, record: GameRecord) -> dict[str, tuple[Card, ...]]:
    """The cards the view knows in each hand at a record's start: the dealt hands it sees; for a
    record that starts from a position, what the position shows the view's seat (the whole
    position to the record's view, the cards taken in sight to a spectator)."""
    if record.header.position is None:
        hands = record.header.hands
        return {p: tuple(cards) for p, cards in hands.items() if view.omniscient or view.seat == p}
    seen = root if view.omniscient else root.view(view.seat) if view.seat is not None else root.public_view()
    return {p: seen.hand(p).known for p in root.players}


def _is_end(node: "Node") -> bool:
    """Whether the node is the main line's last, where the record's reveals stand."""
    tree = node.tree
    return node.is_mainline() and node.next() is None and node.index == len(tree.record.turns)


def _reveals(node: "Node") -> list[tuple[str, tuple[Card, ...]]]:
    """The hands shown at scoring, at the main line's end: as the replay took them (a reveal it
    refused, naming a card seen elsewhere, reveals nothing)."""
    table = _table(node)
    if not _is_end(node) or not table.is_over:
        return []
    shown = {r.player for r in node.tree.record.reveals}
    return [(p, table.hand(p).known) for p in table.players if p in shown and not table.hand(p).hidden]


def knowledge(node: "Node", view: View) -> Knowledge:
    """What ``view`` knows at ``node``: the facts of the record up to it (and later ones with hindsight)."""
    tracker = _forward(node, view)
    for player, cards in _reveals(node):
        tracker.reveal(player, cards)
    position = _table(node)
    tracker.deck = position.deck_size
    for player in position.players:
        # A view knows no more than the record: a record whose faults the replay repaired keeps
        # every hand to the cards the replay placed there.
        table_hand = position.hand(player)
        tracker.known[player] &= set(table_hand.known)
        tracker.unknown[player] = len(table_hand) - len(tracker.known[player])
    unseen = _unseen(position, tracker)
    holders = [p for p in position.players if tracker.unknown[p] > 0]
    plain = frozenset(holders + ([None] if tracker.deck else []))
    places: dict[Card, frozenset[str | None]] = {card: plain for card in unseen}
    if view.hindsight and unseen:
        places = _hindsight_places(node, tracker, unseen) or places
        for card, where in list(places.items()):
            holder = next(iter(where)) if len(where) == 1 else None
            if holder is not None:
                tracker.known[holder].add(card)
                tracker.unknown[holder] -= 1
                del places[card]
        unseen = frozenset(places)
    hands = {
        p: HandKnowledge(p, tuple(sorted(tracker.known[p], key=card_order)), tracker.unknown[p])
        for p in position.players
    }
    return Knowledge(
        view, hands, tracker.deck, unseen, places, _rights(position.players, position.config.species, hands, places)
    )


def knowledge_of_table(table: Game, view: View) -> Knowledge:
    """What ``view`` knows of a table that holds exactly what the view knows: a seat's own game,
    as a referee keeps it (play/protocol.py), every card the seat has not seen hidden. The same
    as :func:`knowledge` at the node of the seat's own record of the game, without a record."""
    hands = {p: HandKnowledge(p, held.known, held.hidden) for p in table.players for held in (table.hand(p),)}
    unseen = frozenset(table.unlocated_cards())
    plain = frozenset([p for p in table.players if hands[p].unknown] + ([None] if table.deck_size else []))
    places: dict[Card, frozenset[str | None]] = {card: plain for card in unseen}
    return Knowledge(
        view, hands, table.deck_size, unseen, places, _rights(table.players, table.config.species, hands, places)
    )


def _unseen(position: Game, tracker: _Tracker) -> frozenset[Card]:
    seen: set[Card] = set()
    for player in position.players:
        seen.update(position.arboretum(player).values())
        seen.update(position.discard_pile(player))
        seen.update(tracker.known[player])
    return frozenset(c for c in position.config.cards if c not in seen)


# -- hypotheticals: an unseen card supposed in a hand ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """A hypothetical: ``card``, unseen by the view, supposed in ``player``'s hand (never recorded)."""

    player: str
    card: Card

    def __str__(self) -> str:
        return f"{self.card} in {self.player}'s hand"


def suppose(known: Knowledge, hypotheses: Iterable[Hypothesis]) -> Knowledge:
    """What the view would know were each hypothetical true: the card known in that hand, one
    unknown card fewer there, no longer unseen; the rights follow. ArboError, in a player's words,
    for a card the view's knowledge does not allow in that hand. The same hypothetical given twice
    is one fact supposed once."""
    hands = dict(known.hands)
    places = dict(known.places)
    supposed: dict[Card, str] = {}
    for hypothesis in dict.fromkeys(hypotheses):
        player, card = hypothesis.player, hypothesis.card
        if player not in hands:
            raise ArboError(f"{player} is not a player of this game ({', '.join(hands)})")
        hand = hands[player]
        if card in supposed:
            raise ArboError(f"{card} cannot be supposed in {player}'s hand: it is supposed in {supposed[card]}'s")
        supposed[card] = player
        if card not in places:
            where = next((p for p, h in hands.items() if card in h.known), None)
            seen = f"it is known in {where}'s hand" if where is not None else "it is on the table"
            raise ArboError(f"{card} cannot be supposed in {player}'s hand: {seen} as {known.view} knows")
        if not hand.unknown:
            raise ArboError(f"{player}'s hand holds no card unknown to {known.view}: nothing to suppose there")
        if player not in places[card]:
            raise ArboError(f"{card} cannot be in {player}'s hand as {known.view} knows")
        del places[card]
        hands[player] = HandKnowledge(player, tuple(sorted((*hand.known, card), key=card_order)), hand.unknown - 1)
        if not hands[player].unknown:
            places = {c: where - {player} for c, where in places.items()}
        stranded = sorted((c for c, where in places.items() if not where), key=card_order)
        if stranded:
            raise ArboError(f"{card} cannot be in {player}'s hand: {stranded[0]} would then be nowhere")
    species_codes = tuple(dict.fromkeys(code for _, code in known.rights))
    rights = _rights(tuple(hands), species_codes, hands, places) if known.rights else {}
    return replace(known, hands=hands, unseen=frozenset(places), places=places, rights=rights)


# -- hindsight: the exact inference from the line's later facts -------------------------------------


def _later_facts(node: "Node", tracker: _Tracker) -> tuple[list[_Fact], set[str]]:
    """The facts of the node's line after it, seen by the view (the tracker is a copy's to spend);
    and the players who reveal their hand at the line's end."""
    facts: list[_Fact] = []
    walk = node
    while (following := walk.next()) is not None:
        facts.extend(_turn_facts(tracker, _table(walk), _played(following)))
        walk = following
    revealed = set()
    if walk is not node:
        for player, cards in _reveals(walk):
            revealed.add(player)
            facts.extend(_Fact("reveal", player, card) for card in tracker.reveal(player, cards))
    return facts, revealed


#: Where an unseen card may be: a hand's unknown cards, the nth later deck draw, or the deck's rest.
_Slot = tuple[Literal["hand"], str] | tuple[Literal["draw"], int] | tuple[Literal["rest"]]


def _hindsight_places(
    node: "Node", tracker: _Tracker, unseen: frozenset[Card]
) -> dict[Card, frozenset[str | None]] | None:
    """Each unseen card's possible places given the line's later facts; None if no matching fits
    (a record whose facts contradict each other)."""
    facts, revealed = _later_facts(node, tracker.copy())
    # Slots: each hand's unknown cards now, each later deck draw (in order), the deck's rest.
    capacity: dict[_Slot, int] = {("hand", p): n for p, n in tracker.unknown.items() if n}
    draws = [(i, f) for i, f in enumerate(facts) if f.kind == "draw"][: tracker.deck]
    for number in range(len(draws)):
        capacity[("draw", number)] = 1
    if tracker.deck > len(draws):
        capacity[("rest",)] = tracker.deck - len(draws)
    first: dict[Card, tuple[int, _Fact]] = {}
    for index, fact in enumerate(facts):
        if fact.card is not None and fact.card in unseen and fact.card not in first:
            first[fact.card] = (index, fact)

    def fits(card: Card, slot: _Slot) -> bool:
        seen = first.get(card)
        if slot[0] == "hand":
            if seen is None:
                return slot[1] not in revealed
            return seen[1].kind != "draw" and seen[1].player == slot[1]
        if slot[0] == "rest":
            return seen is None
        at, draw = draws[slot[1]]
        if draw.card is not None:
            return draw.card is card
        if seen is None:
            return draw.player not in revealed
        return seen[1].kind != "draw" and seen[1].player == draw.player and at < seen[0]

    cards = sorted(unseen, key=card_order)
    options = {card: [slot for slot in capacity if fits(card, slot)] for card in cards}
    placed = _match(cards, options, capacity)
    if placed is None:
        return None
    members: dict[_Slot, list[Card]] = {slot: [] for slot in capacity}
    for card, slot in placed.items():
        members[slot].append(card)
    # A card may move into slot B when B reaches its own slot: B's cards can move on, one by one.
    reaches = {slot: _reachable(slot, members, options) for slot in capacity}
    places: dict[Card, frozenset[str | None]] = {}
    for card in cards:
        home = placed[card]
        where = {_place(s) for s in options[card] if s == home or home in reaches[s]}
        places[card] = frozenset(where)
    return places


def _place(slot: _Slot) -> str | None:
    return slot[1] if slot[0] == "hand" else None


def _reachable(start: _Slot, members: Mapping[_Slot, list[Card]], options: Mapping[Card, list[_Slot]]) -> set[_Slot]:
    """The slots some card of ``start`` can move to, and so on: the slots ``start`` can pass a card to."""
    seen: set[_Slot] = set()
    queue = deque([start])
    while queue:
        slot = queue.popleft()
        for card in members[slot]:
            for other in options[card]:
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
    return seen


def _match(
    cards: Sequence[Card], options: Mapping[Card, list[_Slot]], capacity: Mapping[_Slot, int]
) -> dict[Card, _Slot] | None:
    """A placement of every card in a slot it fits, no slot over its capacity (augmenting paths)."""
    placed: dict[Card, _Slot] = {}
    members: dict[_Slot, list[Card]] = {slot: [] for slot in capacity}
    for card in cards:
        # Breadth first from the card: a slot with room ends the path, a full one lets its cards move on.
        came: dict[_Slot, tuple[Card, _Slot | None]] = {}
        queue: deque[_Slot] = deque()
        for slot in options[card]:
            if slot not in came:
                came[slot] = (card, None)
                queue.append(slot)
        end: _Slot | None = None
        while queue:
            slot = queue.popleft()
            if len(members[slot]) < capacity[slot]:
                end = slot
                break
            for mover in members[slot]:
                for other in options[mover]:
                    if other not in came:
                        came[other] = (mover, slot)
                        queue.append(other)
        if end is None:
            return None
        slot = end
        while True:
            mover, source = came[slot]
            if source is not None:
                members[source].remove(mover)
            members[slot].append(mover)
            placed[mover] = slot
            if source is None:
                break
            slot = source
    return placed


# -- the right to score, as the view knows it ---------------------------------------------------------


def _rights(
    players: Sequence[str],
    species_codes: Sequence[str],
    hands: Mapping[str, HandKnowledge],
    places: Mapping[Card, frozenset[str | None]],
) -> dict[tuple[str, str], Right]:
    # The values of each player's known cards and of its candidates (unseen cards the hand may
    # hold), by species; how many candidates each has in all; who holds each card known. Values,
    # not cards, and gathered once for every species: a referee asks this of every request's view.
    known: dict[str, dict[str, list[int]]] = {p: {} for p in players}
    candidates: dict[str, dict[str, list[int]]] = {p: {} for p in players}
    counts = dict.fromkeys(players, 0)
    for card, where in places.items():
        for player in where:
            if player is not None:
                candidates[player].setdefault(card.species, []).append(card.value)
                counts[player] += 1
    holder: dict[Card, str] = {}
    for player in players:
        for card in hands[player].known:
            known[player].setdefault(card.species, []).append(card.value)
            holder[card] = player
    rights: dict[tuple[str, str], Right] = {}
    for species in species_codes:
        ones = Card(species, MIN_VALUE)
        one_known = ones in holder
        one_holders = {holder[ones]} if one_known else {p for p in places.get(ones, ()) if p is not None}
        ranges = [
            _sum_range(
                known[p].get(species, ()),
                candidates[p].get(species, ()),
                hands[p].unknown,
                counts[p],
                eight_low_zero=bool(one_holders - {p}),  # an opponent may hold the 1
                eight_high_zero=one_known and p not in one_holders,  # an opponent holds it
            )
            for p in players
        ]
        for seat, player in enumerate(players):
            low, high = ranges[seat]
            rivals = ranges[:seat] + ranges[seat + 1 :]
            if low >= max(rival[1] for rival in rivals):
                status = Certainty.CERTAIN
            elif high < max(rival[0] for rival in rivals):
                status = Certainty.IMPOSSIBLE
            else:
                status = Certainty.POSSIBLE
            rights[(player, species)] = Right(player, species, status, low, high)
    return rights


def _sum_range(
    known: Sequence[int],
    same: Sequence[int],
    slots: int,
    candidates: int,
    *,
    eight_low_zero: bool,
    eight_high_zero: bool,
) -> tuple[int, int]:
    """The lowest and highest hand sum a player may have in a species: its ``known`` cards'
    values, and its ``slots`` unknown cards filled with as few or as many of the species' ``same``
    candidates (values) as they may be, of its ``candidates`` in all; an 8 counts 0 at the lowest
    (or the highest) when ``eight_low_zero`` (``eight_high_zero``)."""
    total = sum(known)
    low = total - MAX_VALUE if eight_low_zero and MAX_VALUE in known else total
    high = total - MAX_VALUE if eight_high_zero and MAX_VALUE in known else total
    fewest = max(0, slots - (candidates - len(same)))  # the slots the other candidates cannot fill
    if fewest:
        low += sum(sorted(0 if v == MAX_VALUE and eight_low_zero else v for v in same)[:fewest])
    if slots and same:
        high += sum(sorted((0 if v == MAX_VALUE and eight_high_zero else v for v in same), reverse=True)[:slots])
    return low, high


__all__ = [
    "Certainty",
    "HandKnowledge",
    "Hypothesis",
    "Knowledge",
    "Right",
    "UNKNOWN",
    "View",
    "knowledge",
    "knowledge_of_table",
    "suppose",
]
