"""The rules of play: game configuration, setup, the state of a table and the legal actions on it.

The engine knows every card whose place is known and keeps the rest as *hidden* cards: a hand may
hold hidden slots (cards drawn from an unknown deck) and the deck may be an ordered list or only a
count. An omniscient game (deck order and hands given) never has hidden cards; a spectator's record
resolves them as cards are planted, discarded or revealed. Every card exists exactly once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple, cast, overload

from arbo_notation.errors import ArboError, PositionError, RuleError
from arbo_notation.engine.actions import (
    Action,
    ActionError,
    Discard,
    Draw,
    DrawAction,
    KnownTurn,
    Plant,
    Skip,
    Phase as Phase,
    TurnActions,
    parse_action as _parse_action,
    parse_turn_text,
    turn_actions,
)
from arbo_notation.engine.cards import HAND_SIZE, ORIGIN, Card, Coord, card_order, full_deck, is_species_code
from arbo_notation.engine.totals import PlayerPosition, seat_totals

if TYPE_CHECKING:
    from arbo_notation.engine.position import HandView, Position
    from arbo_notation.engine.view import SeatView, ViewPart


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Who plays, in seat order (the first is the start player), and which species are in play."""

    players: tuple[str, ...]
    species: tuple[str, ...]

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4:
            raise RuleError(f"a game has 2 to 4 players, not {len(self.players)}")
        if len(set(self.players)) != len(self.players):
            raise RuleError(f"two players share a name: {', '.join(self.players)}")
        if len(set(self.species)) != len(self.species):
            raise RuleError(f"a species is listed twice: {', '.join(self.species)}")
        for code in self.species:
            if not is_species_code(code):
                raise RuleError(f"a species code is 1 to 3 letters, not {code!r}")

    @property
    def cards(self) -> list[Card]:
        """Every card in play, in species then value order."""
        return full_deck(self.species)

    def seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise RuleError(f"{player} is not a player of this game ({', '.join(self.players)})") from None


@functools.lru_cache(maxsize=64)
def _cards_in_play(species: tuple[str, ...]) -> frozenset[Card]:
    """Every card of the species, as a set (made once per species list: every game asks)."""
    return frozenset(full_deck(species))


@dataclass(frozen=True, slots=True)
class Setup:
    """How the cards lie before the first turn.

    ``deck`` is the draw pile after the deal, top card first, or None when its order is unknown.
    ``hands`` gives the dealt hands that are known (a missing player holds 7 hidden cards).
    ``discards`` gives face-up cards on discard piles at setup (the house variant), bottom first.
    """

    deck: tuple[Card, ...] | None = None
    hands: Mapping[str, Sequence[Card]] = field(default_factory=dict)
    discards: Mapping[str, Sequence[Card]] = field(default_factory=dict)

    @classmethod
    def shuffled(cls, config: GameConfig, seed: int | str | None = None, *, house_discards: bool = False) -> "Setup":
        """A seeded shuffle and deal: 7 cards to each player, optionally one face up on every
        discard pile but the start player's (house variant), the rest as the deck."""
        import random  # here, not at the top: a check deals nothing, and random is 1 ms of start-up

        cards = config.cards
        random.Random(seed).shuffle(cards)
        hands = {p: tuple(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i, p in enumerate(config.players)}
        rest = cards[len(config.players) * HAND_SIZE :]
        discards: dict[str, tuple[Card, ...]] = {}
        if house_discards:
            for player in config.players[1:]:
                discards[player] = (rest.pop(0),)
        return cls(deck=tuple(rest), hands=hands, discards=discards)


_NO_SETUP = Setup()  # every card hidden (the engine never changes a setup)


def _touches(arb: Mapping[Coord, Card], coord: Coord) -> bool:
    """Whether a tree of the arboretum stands next to ``coord``."""
    east, west, north, south = coord.neighbours()
    return east in arb or west in arb or north in arb or south in arb


def _dealt(setup: Setup, players: tuple[str, ...]) -> int:
    """How many cards the deal takes out of the deck: every player's hand (known or not) and the
    setup's discards."""
    return len(players) * HAND_SIZE + sum(map(len, setup.discards.values()))


def _placed_rightly(setup: Setup, players: tuple[str, ...], in_play: frozenset[Card]) -> set[Card] | None:
    """Every card the setup places, when it places them as the rules allow (players of the game,
    hands of 7, cards of the game each in one place, a deck of the cards the deal leaves); None
    otherwise, for Game._place_carefully to say what is wrong. Checked as one set: the setup of
    every game read."""
    placed: list[Card] = []
    for player, cards in setup.hands.items():
        if player not in players or len(cards) != HAND_SIZE:
            return None
        placed += cards
    for player, cards in setup.discards.items():
        if player not in players:
            return None
        placed += cards
    dealt = _dealt(setup, players)
    if setup.deck is not None:
        if len(in_play) - dealt != len(setup.deck):
            return None
        placed += setup.deck
    elif len(in_play) < dealt:
        return None
    located = set(placed)
    return located if len(located) == len(placed) and located <= in_play else None


# The phases as plain names: an Enum member looked up on its class costs a descriptor call (about
# 60 ns on Python 3.11), and the hot actions below test the phase several times a turn.
_DRAW, _PLANT, _DISCARD, _OVER = Phase.DRAW, Phase.PLANT, Phase.DISCARD, Phase.OVER


class Game:
    """A table in play. Actions raise RuleError, said in a player's words, and leave the state as it was."""

    __slots__ = (
        "config",
        "_hands",
        "_hidden",
        "_deck",
        "_deck_count",
        "_discards",
        "_arbs",
        "_located",
        "_current",
        "_phase",
        "_draws_taken",
        "_turn",
        "_stack",
        "_parts",
        "_tree_copies",
    )

    def __init__(self, config: GameConfig, setup: Setup | None = None) -> None:
        setup = setup or _NO_SETUP
        self.config = config
        players = config.players
        self._hands: dict[str, dict[Card, bool | None]] = {}
        self._hidden: dict[str, int] = {}
        self._discards: dict[str, list[Card]] = {}
        self._arbs: dict[str, dict[Coord, Card]] = {}
        for player in players:
            # A hand is a dict used as an ordered set: membership and removal go by hash and
            # identity, where a list would call Card's comparison for every card it passes. A
            # card's value is True when every player saw it come into the hand (taken from a
            # discard pile, or revealed): what the others' views show of the hand.
            self._hands[player] = {}
            self._hidden[player] = HAND_SIZE
            self._discards[player] = []
            self._arbs[player] = {}
        self._stack: list[tuple[Action | KnownTurn, _Undo | _Taken]] = []  # push(), push_known_turn()
        # Each player's part of a view, as its own seat and as another sees it, kept until that
        # player's hand, trees or pile change: a simulated game makes a view for every decision,
        # and most parts stand still from one to the next (bench/README.md, "A bot's view").
        self._parts: dict[str, list[ViewPart | None]] = {}
        self._tree_copies: dict[str, dict[Coord, Card]] = {}  # each player's trees as views hold them
        in_play = _cards_in_play(config.species)
        located = _placed_rightly(setup, players, in_play)
        self._located: set[Card] = set() if located is None else located
        if located is None:
            self._place_carefully(setup, in_play)  # raises RuleError naming the first fault
        for player, cards in setup.hands.items():
            self._hands[player] = dict.fromkeys(cards)
            self._hidden[player] = 0
        for player, cards in setup.discards.items():
            self._discards[player] = list(cards)
        if setup.deck is not None:
            self._deck: list[Card] | None = list(reversed(setup.deck))  # top card last
            self._deck_count = len(setup.deck)
        else:
            self._deck = None
            self._deck_count = len(in_play) - _dealt(setup, players)
        self._current = 0
        self._draws_taken = 0
        self._turn = 1
        self._phase = _DRAW if self._deck_count > 0 else _OVER

    def _place_carefully(self, setup: Setup, in_play: frozenset[Card]) -> None:
        """Locate the setup's cards one place at a time, raising RuleError at the first fault (a
        player who is not one, a hand of the wrong size, a card not in play or placed twice, a
        deck of the wrong size), as a player would be told it."""
        config = self.config

        def locate_all(cards: Sequence[Card], where: str) -> None:
            for card in cards:
                if card not in in_play:
                    raise RuleError(
                        f"{card} {where} is not a card of this game (species in play: {', '.join(config.species)})"
                    )
                if card in self._located:
                    raise RuleError(f"{card} {where} appears twice in the setup")
                self._located.add(card)

        for player, cards in setup.hands.items():
            config.seat(player)
            if len(cards) != HAND_SIZE:
                raise RuleError(f"{player}'s dealt hand has {len(cards)} cards; a hand is {HAND_SIZE}")
            locate_all(cards, f"in {player}'s dealt hand")
        for player, cards in setup.discards.items():
            config.seat(player)
            locate_all(cards, f"on {player}'s discard pile")
        dealt = _dealt(setup, config.players)
        if setup.deck is not None:
            locate_all(setup.deck, "in the deck")
            if len(in_play) - dealt != len(setup.deck):
                raise RuleError(
                    f"the deck holds {len(setup.deck)} cards but {len(in_play) - dealt} remain after the deal"
                )
        elif len(in_play) < dealt:
            raise RuleError("more cards are dealt than the species in play hold")

    # -- copying ---------------------------------------------------------------------------

    def copy(self) -> "Game":
        """An independent copy, to explore a variation from this position."""
        other = Game.__new__(Game)
        other.config = self.config
        other._hands = {p: h.copy() for p, h in self._hands.items()}
        other._hidden = dict(self._hidden)
        other._deck = list(self._deck) if self._deck is not None else None
        other._deck_count = self._deck_count
        other._discards = {p: list(d) for p, d in self._discards.items()}
        other._arbs = {p: dict(a) for p, a in self._arbs.items()}
        other._located = set(self._located)
        other._current = self._current
        other._phase = self._phase
        other._draws_taken = self._draws_taken
        other._turn = self._turn
        other._stack = list(self._stack)  # (its entries are never changed: shared safely)
        other._parts, other._tree_copies = {}, {}
        return other

    # -- positions and views -----------------------------------------------------------------

    def position(self) -> Position:
        """The table now as a value: ``str()`` is its line, ``to_json()`` its JSON (see
        engine/position.py); ``Game.from_position`` sets a table up from either."""
        # deferred: a check never asks for a position: engine/position.py and view.py are 51M
        # instructions of a one-game check's 280M (bench/README.md, "Issue 49, point 3")
        from arbo_notation.engine.position import Position, SeatPosition, sorted_trees

        deck = self.deck_cards()
        return Position(
            self.config.species,
            tuple(
                SeatPosition(
                    player,
                    sorted_trees(self._arbs[player]),
                    tuple(self._discards[player]),
                    tuple(sorted(self._hands[player], key=card_order)),
                    frozenset(card for card, shown in self._hands[player].items() if shown),
                    self._hidden[player],
                )
                for player in self.config.players
            ),
            self._deck_count,
            deck if deck is not None or self._deck_count else (),
            self._turn,
            self.current_player,
            self._phase,
            self._draws_taken,
        )

    def view(self, seat: str | None = None) -> SeatView:
        """What ``seat`` knows of the table (engine/view.py): its own hand, the cards it saw the
        others take from discard piles, every pile and tree, the deck's size. The player to move
        by default (``public_view()`` is a spectator's, who sees no hand but the cards shown)."""
        return self._view(self.current_player if seat is None else seat)

    def public_view(self) -> SeatView:
        """The table as a spectator sees it: every hand hidden but the cards shown."""
        return self._view(None)

    def _forget_views(self) -> None:
        """Drop the parts of views kept (after a change that may touch any player's)."""
        self._parts.clear()
        self._tree_copies.clear()

    def _view(self, seat: str | None) -> SeatView:
        """``view_of(self.position(), seat)``, made of copies of the game's parts, its position made
        when first asked for (tests/engine/test_view_of_a_game.py holds the two equal)."""
        # deferred: a check makes no view (see position(); 0.1 us of a view's 5-12 us)
        from arbo_notation.engine.view import SeatView, ViewPart, ViewTable

        if seat is not None and seat not in self._hands:
            raise ArboError(f"{seat} is not a player of this game ({', '.join(self.config.players)})")
        parts = []
        kept = self._parts
        for player in self.config.players:
            own = player == seat
            pair = kept.get(player)
            if pair is None:
                pair = kept[player] = [None, None]
            part = pair[own]
            if part is None:
                hand = self._hands[player]
                shown = [card for card, seen in hand.items() if seen]
                if own:  # the seat's own hand, whole; another's, the cards shown and a count
                    known, unknown = tuple(hand), self._hidden[player]
                else:
                    known, unknown = tuple(shown), len(hand) + self._hidden[player] - len(shown)
                trees = self._tree_copies.get(player)
                if trees is None:  # (a player's trees change once a turn, its hand at every action)
                    trees = self._tree_copies[player] = dict(self._arbs[player])
                pile = tuple(self._discards[player])
                part = pair[own] = _tuple(
                    ViewPart, (player, trees, pile, known, frozenset(shown) if shown else _NONE, unknown)
                )
            parts.append(part)
        config = self.config
        table = _tuple(
            ViewTable,
            (
                config.players,
                config.species,
                self._deck_count,
                self._turn,
                config.players[self._current],
                self._phase,
                self._draws_taken,
            ),
        )
        return SeatView.of_parts(seat, tuple(parts), table)

    @classmethod
    def from_position(cls, position: Position | str) -> "Game":
        """A table set up as ``position`` (a Position or its line) says; PositionError saying what
        is impossible in it (a card twice, a hand of the wrong size, a tree standing alone)."""
        # deferred: a check of a record with no position key reads none (see position())
        from arbo_notation.engine.position import Position

        if isinstance(position, str):
            position = Position.parse(position)
        try:
            config = GameConfig(position.players, position.species)
        except RuleError as error:
            raise PositionError(str(error)) from None
        if position.to_move not in position.players:
            raise PositionError(f"{position.to_move} is to move but is no player ({', '.join(position.players)})")
        in_play = _cards_in_play(config.species)
        game = cls(config)
        located: set[Card] = set()

        def locate(cards: Iterable[Card], where: str) -> None:
            for card in cards:
                if card not in in_play:
                    raise PositionError(
                        f"{card} {where} is not a card of this game (species: {' '.join(config.species)})"
                    )
                if card in located:
                    raise PositionError(f"{card} {where} is placed twice in the position")
                located.add(card)

        mover = config.players.index(position.to_move)
        # The mover holds the dealt 7 and the cards drawn this turn, less the one planted; once the
        # deck is empty a second draw may have been skipped (every pile empty too), one card fewer.
        holds = HAND_SIZE + {Phase.PLANT: 2, Phase.DISCARD: 1, Phase.OVER: 0}.get(position.phase, position.draws_taken)
        fewer = 1 if position.deck_size == 0 and position.phase is not Phase.DRAW else 0
        for seat in position.seats:
            player = seat.player
            locate((card for _, card in seat.trees), f"in {player}'s arboretum")
            locate(seat.pile, f"on {player}'s discard pile")
            locate(seat.hand, f"in {player}'s hand")
            trees = dict(seat.trees)
            if trees and (ORIGIN not in trees or not _connected(trees)):
                raise PositionError(f"{player}'s trees do not grow from (0,0) each next to another")
            wanted, short = (holds, fewer) if player == position.to_move else (HAND_SIZE, 0)
            if not wanted - short <= seat.hand_size <= wanted:
                raise PositionError(
                    f"{player} holds {seat.hand_size} cards; {wanted} are due at this point of the turn"
                )
            game._arbs[player] = trees
            game._discards[player] = list(seat.pile)
            game._hands[player] = {card: card in seat.shown for card in seat.hand}
            game._hidden[player] = seat.hidden
        if position.deck is not None:
            if len(position.deck) != position.deck_size:
                raise PositionError(f"the deck holds {position.deck_size} cards, but {len(position.deck)} are listed")
            locate(position.deck, "in the deck")
            game._deck = list(reversed(position.deck))
        else:
            game._deck = None
        hidden = sum(seat.hidden for seat in position.seats) + (position.deck_size if position.deck is None else 0)
        if len(located) + hidden != len(in_play):
            raise PositionError(
                f"the position places {len(located) + hidden} cards (hidden ones counted); "
                f"the species in play have {len(in_play)}"
            )
        if position.phase is Phase.OVER and position.deck_size:
            raise PositionError("the game is over only once the deck is empty")
        if position.phase is Phase.DRAW and not position.draws_taken and not position.deck_size:
            raise PositionError("a turn starts only while the deck holds a card: with none, the game is over")
        game._located = located
        game._deck_count = position.deck_size
        game._current = mover
        game._turn = position.turn
        game._phase = position.phase
        game._draws_taken = position.draws_taken
        game._forget_views()
        return game

    def __eq__(self, other: object) -> bool:
        """Two games are equal when their positions are (the moves that led there aside, as
        python-chess compares boards)."""
        if not isinstance(other, Game):
            return NotImplemented
        return self.position() == other.position()

    __hash__ = None  # type: ignore[assignment]  # a game changes: it is no key

    def __repr__(self) -> str:
        return f"Game.from_position({str(self.position())!r})"

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be pushed now: pushed and taken back, the rules written once."""
        try:
            self.push(action)
        except (RuleError, ActionError):
            return False
        self.pop()
        return True

    def outcome(self) -> "Outcome | None":
        """The scores and winners once the game is over and every hand is known; None before."""
        if self._phase is not _OVER or self.hidden_players():
            return None
        # deferred: the score sheet (its best paths), needed only once a game is over
        from arbo_notation.engine.scoring import score_position

        sheet = score_position(self.config.species, self.end_table())
        return Outcome(sheet.totals(), sheet.winners)

    # -- queries ---------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    @property
    def current_player(self) -> str:
        """The player whose turn it is (or was, once the game is over)."""
        return self.config.players[self._current]

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is _OVER

    @property
    def turn_number(self) -> int:
        """The number of the turn in progress (1 for the start player's first turn)."""
        return self._turn

    @property
    def draws_taken(self) -> int:
        return self._draws_taken

    @property
    def deck_size(self) -> int:
        return self._deck_count

    @property
    def deck_known(self) -> bool:
        return self._deck is not None

    def deck_cards(self) -> tuple[Card, ...] | None:
        """The deck, top card first, when its order is known."""
        return tuple(reversed(self._deck)) if self._deck is not None else None

    def hand(self, player: str) -> HandView:
        """What is known of the player's hand: ``known`` (the cards known, sorted) and ``hidden``
        (how many are not); ``len()`` is its size. ArboError for a name that is no player's."""
        # deferred: a check reads no hand (see position())
        from arbo_notation.engine.position import HandView

        self.config.seat(player)
        return HandView(tuple(sorted(self._hands[player], key=card_order)), self._hidden[player])

    def hand_known(self, player: str) -> bool:
        return self._hidden[player] == 0

    def discard_pile(self, player: str) -> tuple[Card, ...]:
        """The player's discard pile, bottom first (the last card is the top)."""
        self.config.seat(player)
        return tuple(self._discards[player])

    def arboretum(self, player: str) -> Mapping[Coord, Card]:
        """The player's planted trees by cell (a copy); ArboError for a name that is no player's."""
        self.config.seat(player)
        return dict(self._arbs[player])

    def is_located(self, card: Card) -> bool:
        """Whether the card's place is known (planted, on a pile, in a known hand or known deck)."""
        return card in self._located

    def unlocated_cards(self) -> set[Card]:
        """The cards in play whose place is not known: they fill hidden slots and the unknown deck."""
        return set(_cards_in_play(self.config.species) - self._located)

    def where_is(self, card: Card) -> str:
        """Where a card is known to be, in words ('' when unknown)."""
        for player, arb in self._arbs.items():
            for coord, planted in arb.items():
                if planted == card:
                    return f"planted in {player}'s arboretum at {coord}"
        for player, pile in self._discards.items():
            if card in pile:
                return f"on {player}'s discard pile"
        for player, hand in self._hands.items():
            if card in hand:
                return f"in {player}'s hand"
        if self._deck is not None and card in self._deck:
            return "in the deck"
        return ""

    def plant_cells(self, player: str | None = None) -> list[Coord]:
        """The empty cells where the player may plant: 0,0 first, then next to a planted tree."""
        # deferred: a check asks for no cells (see position())
        from arbo_notation.engine.position import frontier

        return frontier(self._arbs[player or self.current_player])

    # -- actions ---------------------------------------------------------------------------

    def _expect(self, phase: Phase, doing: str, card: Card | None = None) -> str:
        """The current player, when the turn is at ``phase``; else RuleError saying what is due."""
        if self._phase is phase:
            return self.config.players[self._current]
        player = self.current_player
        if card is not None:
            doing = f"{doing} {card}"
        if self._phase is _OVER:
            raise RuleError(f"{player} cannot {doing}: the game is over (the deck is empty)")
        needed = {
            _DRAW: f"{player} has {2 - self._draws_taken} card(s) left to draw",
            _PLANT: f"{player} must plant a tree first",
            _DISCARD: f"{player} must discard a card first",
        }[self._phase]
        raise RuleError(f"{player} cannot {doing} now: {needed}")

    def _after_draw(self) -> None:
        self._draws_taken += 1
        if self._draws_taken == 2:
            self._phase = _PLANT

    def _check_new_card(self, card: Card, doing: str) -> None:
        """A card that comes to light from hidden must be in play and not already placed."""
        if card.species not in self.config.species:
            raise RuleError(
                f"{self.current_player} cannot {doing}: {card.species} is not a species in play "
                f"({', '.join(self.config.species)})"
            )
        if card in self._located:
            raise RuleError(f"{self.current_player} cannot {doing}: {card} is already {self.where_is(card)}")

    def draw_from_deck(self, card: Card | None = None) -> Card | None:
        """Draw the top card of the deck. ``card`` says which card it was, when the record knows.

        Returns the card drawn, or None when it stays hidden (an unknown deck, card not given).
        """
        if self._phase is not _DRAW:  # (the test inlined, as below: a replay's hottest calls)
            self._expect(_DRAW, "draw")
        player = self.config.players[self._current]
        if self._deck_count == 0:
            raise RuleError(f"{player} cannot draw from the deck: the deck is empty")
        if self._deck is not None:
            top = self._deck[-1]
            if card is not None and card != top:
                raise RuleError(f"{player} cannot draw {card} from the deck: its top card is {top}")
            self._deck.pop()
            card = top
        elif card is not None:
            self._check_new_card(card, f"draw {card} from the deck")
            self._located.add(card)
        self._deck_count -= 1
        self._parts.pop(player, None)
        if card is None:
            self._hidden[player] += 1
        else:
            self._hands[player][card] = None
        self._draws_taken += 1  # _after_draw, inlined
        if self._draws_taken == 2:
            self._phase = _PLANT
        return card

    def draw_from_discard(self, owner: str, card: Card | None = None) -> Card:
        """Draw the top card of ``owner``'s discard pile (any player's, one's own included)."""
        if self._phase is not _DRAW:
            self._expect(_DRAW, "draw")
        player = self.config.players[self._current]
        self.config.seat(owner)
        pile = self._discards[owner]
        whose = "their own" if owner == player else f"{owner}'s"
        if not pile:
            raise RuleError(f"{player} cannot draw from {whose} discard pile: it is empty")
        top = pile[-1]
        if card is not None and card != top:
            raise RuleError(f"{player} cannot draw {card} from {whose} discard pile: its top card is {top}")
        pile.pop()
        self._parts.pop(owner, None)
        self._parts.pop(player, None)
        self._hands[player][top] = True  # taken in every player's sight
        self._draws_taken += 1  # _after_draw, inlined
        if self._draws_taken == 2:
            self._phase = _PLANT
        return top

    def skip_draw(self) -> None:
        """Skip a draw: allowed only when the deck and every discard pile are empty (house ruling)."""
        player = self._expect(_DRAW, "skip a draw")
        if self._deck_count:
            raise RuleError(f"{player} cannot skip a draw: a card can still be drawn from the deck")
        for owner, pile in self._discards.items():
            if pile:
                raise RuleError(f"{player} cannot skip a draw: a card can still be drawn from {owner}'s discard pile")
        self._after_draw()

    def _take_from_hand(self, player: str, card: Card, verb: str, cell: Coord | None = None) -> None:
        """Take a card from the hand: a known one, else one of the hidden cards it must be."""
        hand = self._hands[player]
        if card in hand:
            del hand[card]
            return
        self._refuse_from_hand(player, card, verb, cell)
        self._hidden[player] -= 1
        self._located.add(card)

    def _refuse_from_hand(self, player: str, card: Card, verb: str, cell: Coord | None = None) -> None:
        """RuleError when ``card``, not among the hand's known cards, cannot be one of its hidden
        ones: what the card is comes before where it goes (a species not in play is said first)."""
        doing = f"{verb} {card}" if cell is None else f"{verb} {card} at ({cell})"
        if card.species not in self.config.species:
            raise RuleError(
                f"{player} cannot {doing}: {card.species} is not a species in play ({', '.join(self.config.species)})"
            )
        if self._hidden[player] == 0:
            where = self.where_is(card)
            reason = f"it is {where}" if where else f"it is not in {player}'s hand"
            raise RuleError(f"{player} cannot {doing}: {reason}")
        self._check_new_card(card, doing)

    def plant(self, card: Card, coord: Coord) -> None:
        """Plant a card from the hand: the first at 0,0, each later one next to a tree, on an empty cell."""
        if self._phase is not _PLANT:
            self._expect(_PLANT, "plant", card)
        player = self.config.players[self._current]
        arb = self._arbs[player]
        hand = self._hands[player]
        if card not in hand:  # the card is refused before its place (Zz1@0,0: Zz, not the cell)
            self._refuse_from_hand(player, card, "plant", coord)
        if coord in arb:
            raise RuleError(f"{player} cannot plant {card} at ({coord}): {arb[coord]} already grows there")
        if not arb:
            if coord is not ORIGIN:
                raise RuleError(
                    f"{player} cannot plant {card} at ({coord}): the first tree of an arboretum stands at (0,0)"
                )
        elif not _touches(arb, coord):
            raise RuleError(f"{player} cannot plant {card} at ({coord}): none of {player}'s trees is adjacent")
        if card in hand:  # a known card: _take_from_hand's first case, inlined
            del hand[card]
        else:
            self._take_from_hand(player, card, "plant", coord)  # (it raises before it changes the hand)
        self._parts.pop(player, None)
        self._tree_copies.pop(player, None)
        arb[coord] = card
        self._phase = _DISCARD

    def discard(self, card: Card) -> None:
        """Discard a card from the hand onto one's own pile; this ends the turn."""
        if self._phase is not _DISCARD:
            self._expect(_DISCARD, "discard", card)
        player = self.config.players[self._current]
        hand = self._hands[player]
        if card in hand:  # a known card: _take_from_hand's first case, inlined
            del hand[card]
        else:
            self._take_from_hand(player, card, "discard")  # (it raises before it changes the hand)
        self._parts.pop(player, None)
        self._discards[player].append(card)
        self._end_turn()

    def play_turn(self, turn: KnownTurn) -> None:
        """Play one whole turn with the single actions; RuleError says what is illegal (the turn
        is then left as far as it got). The turn's number is not read (see KnownTurn)."""
        _, player, first, second, card, coord, discard = turn
        if self._phase is not _OVER and player != self.current_player:
            raise RuleError(f"turn {self._turn} is {self.current_player}'s, not {player}'s")
        for draw in (first, second):
            if draw is None:
                self.skip_draw()
            elif draw[0] is None:
                self.draw_from_deck(draw[1])
            else:
                self.draw_from_discard(draw[0], draw[1])
        self.plant(card, coord)
        self.discard(discard)

    def play_known_turns(self, turns: Iterable[KnownTurn]) -> int:
        """Play the leading turns that are plainly legal, and return how many were played.

        This is the replayer's fast path: the same rules as the single actions, checked in one
        loop, for omniscient records and for records with hidden cards alike (a draw from an
        unknown deck, named or not; a card planted or discarded from a hand's hidden cards). It
        stops, before touching the state, at the first turn that is illegal or not plain (a
        skipped draw, a wrong player): the caller plays that turn with play_turn, which says what
        is wrong. Turn numbers are not read (see KnownTurn). tests/engine/test_engine_fast.py holds the
        two paths equal.
        """
        return self._known_turns(turns, True)

    def is_plainly_legal(self, turn: KnownTurn) -> bool:
        """Whether play_known_turns would play ``turn`` now; the game is left untouched either way.

        A check's variation of one turn is judged so: the fast loop's own checks, its draws put
        back, where push_known_turn and pop_known_turn would keep and restore what the turn may
        change (a variation's turn 52k -> 15k instructions, bench/README.md, "Issue 49, point 3,
        third branch"). False says nothing of a turn's legality: play it to learn it."""
        return self._known_turns((turn,), False) == 1

    def _known_turns(self, turns: Iterable[KnownTurn], keep: bool) -> int:
        """play_known_turns; with ``keep`` false, each turn's draws are put back once it is
        found plainly legal and nothing else is done: the count is 1 or 0 for one turn."""
        if self._phase is not _DRAW or self._draws_taken:
            return 0
        players = self.config.players
        seats = len(players)
        deck = self._deck
        in_play = _cards_in_play(self.config.species)
        located = self._located
        hands, hidden, piles, arbs = self._hands, self._hidden, self._discards, self._arbs
        current, turn, left = self._current, self._turn, self._deck_count
        played = 0
        got: Card | None  # each draw's card: None when hidden, drawn from an unknown deck
        got2: Card | None
        for _, player, first, second, card, coord, discard in turns:
            if player != players[current] or first is None or second is None:
                break
            hand = hands[player]
            # Each draw takes the top of a pile (the known deck, a discard pile), or a card of an
            # unknown deck: a hidden one, or the one named (``pile`` None, ``got`` that card or None).
            owner, named = first
            if owner is not None or deck is not None:
                pile = deck if owner is None else piles.get(owner)
                if not pile or (named is not None and named is not pile[-1]):
                    break
                got = pile.pop()
                hand[got] = owner is not None  # a card from a discard pile is taken in sight
            elif not left or (named is not None and (named not in in_play or named in located)):
                break
            else:
                pile, got = None, named
                if named is None:
                    hidden[player] += 1
                else:
                    located.add(named)
                    hand[named] = None
            if owner is None:
                left -= 1
            owner2, named = second
            if owner2 is not None or deck is not None:
                pile2 = deck if owner2 is None else piles.get(owner2)
                if not pile2 or (named is not None and named is not pile2[-1]):
                    left += _undraw(owner, pile, got, hand, hidden, player, located)
                    break
                got2 = pile2.pop()
                hand[got2] = owner2 is not None
            elif not left or (named is not None and (named not in in_play or named in located)):
                left += _undraw(owner, pile, got, hand, hidden, player, located)
                break
            else:
                pile2, got2 = None, named
                if named is None:
                    hidden[player] += 1
                else:
                    located.add(named)
                    hand[named] = None
            if owner2 is None:
                left -= 1
            arb = arbs[player]
            # The planting's cell and its neighbours looked up in the arboretum (interned cells,
            # the neighbours remembered), where a set of (x, y) pairs kept beside it made and
            # hashed five pairs a turn: 1,000 greedy games, one a file, 1,293.0M -> 1,262.2M
            # instructions (bench/README.md, "Issue 49, point 3, fifth branch").
            east, west, north, south = coord.neighbours()
            # The cards planted and discarded: in the hand, or hidden cards of it that they must
            # be (cards in play seen nowhere yet); a spectator's record has one such a turn.
            unseen = (card not in hand) + (discard not in hand)
            if (
                card is discard
                or coord in arb
                or (
                    east not in arb
                    and west not in arb
                    and north not in arb
                    and south not in arb
                    and (arb or coord is not ORIGIN)
                )
            ) or (
                unseen
                and (
                    unseen > hidden[player]
                    or (card not in hand and (card not in in_play or card in located))
                    or (discard not in hand and (discard not in in_play or discard in located))
                )
            ):
                left += _undraw(owner2, pile2, got2, hand, hidden, player, located)
                left += _undraw(owner, pile, got, hand, hidden, player, located)
                break
            if not keep:  # plainly legal: its draws put back as for a turn refused, nothing else done
                _undraw(owner2, pile2, got2, hand, hidden, player, located)
                _undraw(owner, pile, got, hand, hidden, player, located)
                return 1
            if unseen:  # (a card in the hand is located already)
                hidden[player] -= unseen
                if card in hand:
                    del hand[card]
                else:
                    located.add(card)
                if discard in hand:
                    del hand[discard]
                else:
                    located.add(discard)
            else:
                del hand[card]
                del hand[discard]
            arb[coord] = card
            piles[player].append(discard)
            played += 1
            if left == 0:
                self._phase = _OVER
                break
            current = (current + 1) % seats
            turn += 1
        self._current, self._turn, self._deck_count = current, turn, left
        if played:
            self._forget_views()
        return played

    # -- legal actions, push and pop ------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action legal now, in the turn's current phase, in a fixed order.

        While a draw is due: the deck (``Draw()``), then the top of every non-empty discard pile
        in seat order (``Draw("Ben", Oa5)``); when neither has a card, the draw is skipped
        (``Skip()``, the house ruling). A deck whose order the engine knows offers its top card
        (``d:Ma3``); an unknown deck offers ``Draw()`` (``d``), the card drawn staying hidden, and
        pushing ``Draw(None, card)`` for any card not yet located is legal too (the record names
        it). Then every card of the hand planted on every free cell next to a tree (at (0,0) for
        the first tree), then every card of the hand discarded. A hand with hidden cards may
        plant or discard any card not yet located: those follow the known cards. None once the
        game is over.
        """
        phase = self._phase
        if phase is _OVER:
            return []
        if phase is _DRAW:
            draws: list[Action] = []
            if self._deck_count:
                draws.append(Draw(None, self._deck[-1] if self._deck else None))
            draws += [Draw(owner, pile[-1]) for owner, pile in self._discards.items() if pile]
            return draws or [Skip()]
        cards = self._playable_cards()
        if phase is _PLANT:
            cells = self.plant_cells()
            return [Plant(card, cell) for card in cards for cell in cells]
        return [Discard(card) for card in cards]

    def _playable_cards(self) -> list[Card]:
        """The cards the current player may plant or discard: the known hand, sorted, then (for a
        hand with hidden cards) every card not yet located, sorted."""
        player = self.current_player
        cards = sorted(self._hands[player], key=card_order)
        if self._hidden[player]:
            cards += sorted(self.unlocated_cards(), key=card_order)
        return cards

    def parse_action(self, text: str) -> Action:
        """Read one action of the notation (``d``, ``d:Ma3``, ``Ben:Oa5``, ``-``, ``Ma3@0,1``,
        ``/Oa5``). ArboError for text that is none, or a draw from a pile of no player."""
        action = _parse_action(text)
        if isinstance(action, Draw) and action.owner is not None:
            self.config.seat(action.owner)
        return action

    def parse_turn(self, text: str) -> TurnActions:
        """Read a turn's line, with or without its number and player (``12. Ana d d Ma3@0,1 /Oa5``,
        ``d d Ma3@0,1 /Oa5``); the player left out is the current one. Trailing glyphs (``!``,
        ``?!``, ``$12``) are read into ``glyphs``; comments and variations are refused, being
        the record's, not the game's. ArboError for text that is no turn."""
        number, player, actions, glyphs = parse_turn_text(text)
        if player is None:
            player = self.current_player
        else:
            self.config.seat(player)
        for action in actions[:2]:
            if isinstance(action, Draw) and action.owner is not None:
                self.config.seat(action.owner)
        return TurnActions(player, actions, number, glyphs)

    def push_turn(self, text: str | TurnActions) -> TurnActions:
        """Play a whole turn, its text read as parse_turn reads it, as four pushed actions (pop
        takes back one). RuleError in a player's words when it is illegal, the game left as it
        was. The turn's number is not read (numbering is the record's). Returns the turn read."""
        turn = self.parse_turn(text) if isinstance(text, str) else text
        if self._phase is not _OVER and turn.player != self.current_player:
            raise RuleError(f"turn {self._turn} is {self.current_player}'s, not {turn.player}'s")
        if self._phase is _DRAW and self._draws_taken:
            raise RuleError(f"{self.current_player} is in the middle of a turn: finish it first")
        pushed = 0
        try:
            for action in turn.actions:
                self.push(action)
                pushed += 1
        except RuleError:
            for _ in range(pushed):
                self.pop()
            raise
        return turn

    @property
    def move_stack(self) -> tuple[Action, ...]:
        """The actions pushed and not yet taken back, oldest first (a whole turn pushed with
        push_known_turn stands as its four actions, as its record wrote them)."""
        moves: list[Action] = []
        for move, _ in self._stack:
            if isinstance(move, tuple):
                moves += turn_actions(move)
            else:
                moves.append(move)
        return tuple(moves)

    @overload
    def as_played(self, action: DrawAction) -> DrawAction: ...
    @overload
    def as_played(self, action: Action) -> Action: ...
    def as_played(self, action: Action) -> Action:
        """``action`` naming the card it would draw, where this game knows it: the deck's top card
        (a deck whose order is known) or a pile's top card, for a draw that does not name it. What
        a referee or a simulation writes for the draw once pushed; any other action as it is."""
        if not isinstance(action, Draw) or action.card is not None:
            return action
        pile = self._deck if action.owner is None else self._discards.get(action.owner)
        return Draw(action.owner, pile[-1]) if pile else action

    def push(self, action: Action) -> None:
        """Play one action (a draw, a planting, a discard) by the rules; pop() takes it back.

        On a RuleError the game is left exactly as it was, and the error says what is illegal.

        >>> from arbo_notation.engine.actions import Draw, Plant, Discard
        >>> from arbo_notation.engine.cards import Card, Coord
        >>> game = Game(GameConfig(("Ana", "Ben"), ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi")))
        >>> for action in (Draw(), Draw(), Plant(Card("Ma", 3), Coord(0, 0)), Discard(Card("Oa", 5))):
        ...     game.push(action)
        >>> game.current_player, game.discard_pile("Ana")
        ('Ben', (Card(species='Oa', value=5),))
        >>> str(game.pop())
        '/Oa5'
        >>> game.current_player, game.phase.value, game.deck_size
        ('Ana', 'discard', 32)
        """
        # The single actions leave the game as it was when they refuse: what pop() needs is what
        # the action changed, noted once it is played (cheaper than a copy of what it may change:
        # a simulated game pushes every action of every bot; bench/README.md, "A bot's view").
        player = self.config.players[self._current]
        counters = (self._current, self._turn, self._deck_count, self._phase, self._draws_taken)
        taken: _Taken
        if isinstance(action, Draw):
            owner, card = action.owner, action.card
            if owner is None:
                fresh = card is not None and card not in self._located  # named from an unknown deck
                taken = _tuple(
                    _Taken, (player, _FROM_DECK, None, self.draw_from_deck(card), None, fresh, None, counters)
                )
            else:
                taken = _tuple(
                    _Taken,
                    (player, _FROM_PILE, owner, self.draw_from_discard(owner, card), None, False, None, counters),
                )
        elif isinstance(action, Plant):
            card, hand = action.card, self._hands[player]
            shown, held = hand.get(card), card in hand
            self.plant(card, action.coord)
            taken = _tuple(_Taken, (player, _PLANTED, None, card, shown, not held, action.coord, counters))
        elif isinstance(action, Discard):
            card, hand = action.card, self._hands[player]
            shown, held = hand.get(card), card in hand
            self.discard(card)
            taken = _tuple(_Taken, (player, _DISCARDED, None, card, shown, not held, None, counters))
        elif isinstance(action, Skip):
            self.skip_draw()
            taken = _tuple(_Taken, (player, _SKIPPED, None, None, None, False, None, counters))
        else:
            raise ActionError(f"{action!r} is no action: a Draw, Skip, Plant or Discard")
        self._stack.append((action, taken))

    def _take_back(self, taken: "_Taken") -> None:
        """Undo one action pushed, as ``taken`` says what it changed."""
        self._forget_views()
        player, kind, card = taken.player, taken.kind, taken.card
        hand, hidden = self._hands[player], self._hidden
        if kind == _FROM_DECK:
            if card is None:
                hidden[player] -= 1
            else:
                del hand[card]
                if self._deck is not None:
                    self._deck.append(card)
                elif taken.fresh:
                    self._located.discard(card)
        elif kind == _FROM_PILE:
            assert card is not None and taken.owner is not None  # (a pile's card is known)
            del hand[card]
            self._discards[taken.owner].append(card)
        elif kind != _SKIPPED:
            assert card is not None  # (a planting or a discard names its card)
            if kind == _PLANTED:
                coord = cast(Coord, taken.coord)
                del self._arbs[player][coord]
            else:
                self._discards[player].pop()
            if taken.fresh:  # a hidden card of the hand, which it turned out to be
                hidden[player] += 1
                self._located.discard(card)
            else:
                hand[card] = taken.shown
        self._current, self._turn, self._deck_count, self._phase, self._draws_taken = taken.counters

    def pop(self) -> Action:
        """Take back the last action pushed, exactly, and return it (the last of a whole turn
        pushed with push_known_turn: its discard, the turn's first three actions staying)."""
        if not self._stack:
            raise RuleError("there is no move to take back")
        move, undo = self._stack.pop()
        if isinstance(undo, _Taken):
            self._take_back(undo)
            return cast(Action, move)
        self._restore(undo)
        if not isinstance(move, tuple):
            return move
        # A whole turn: play its first three actions again, one entry each, so that only the
        # discard is taken back (the single actions cannot fail where the turn did not).
        *rest, discard = turn_actions(move)
        for action in rest:
            self.push(action)
        return discard

    def push_known_turn(self, turn: KnownTurn) -> None:
        """Play one whole turn (both draws, the planting, the discard) by the single actions'
        rules: the replayer's and the checker's form (a record's turn, as the scanner reads it).

        On a RuleError the state is left exactly as it was, and the error says what is illegal.
        pop_known_turn() takes the whole turn back. The turn's number is not read (see KnownTurn).
        """
        if self._phase is _DRAW and self._draws_taken:
            raise RuleError(f"{self.current_player} is in the middle of a turn: finish it first")
        undo = self._undo_for(turn)
        try:
            if not self.play_known_turns((turn,)):
                self.play_turn(turn)
        except RuleError:
            self._restore(undo)
            raise
        self._stack.append((turn, undo))

    def pop_known_turn(self) -> KnownTurn:
        """Take back the last turn pushed with push_known_turn(), exactly, and return it."""
        if not self._stack:
            raise RuleError("there is no turn to take back")
        turn, undo = self._stack[-1]
        if not isinstance(turn, tuple) or isinstance(undo, _Taken):
            raise RuleError("the last move was not pushed as a whole turn: take it back with pop()")
        self._stack.pop()
        self._restore(undo)
        return turn

    def _undo_for(self, turn: KnownTurn) -> "_Undo":
        """What a turn can change, kept so that it can be put back: the mover's hand and hidden
        cards, the cards it may bring to light (not located before it), the tops of the deck
        (when known) and of the piles it touches (the mover's, those it draws from; each once),
        the cell it may plant (None when taken already), and the counters."""
        player = turn[1]
        if player not in self._hands:
            player = self.current_player  # (the turn is refused: nothing of its player changes)
        _, _, first, second, card, coord, discard = turn
        located, deck, piles = self._located, self._deck, self._discards
        # Written out, no comprehensions nor sets (each a call): a check pushes every turn of
        # every variation; push and pop of a turn 15.3 -> 11.3 us (bench/README.md, "Variations").
        fresh = []
        for drawn in (first and first[1], second and second[1], card, discard):
            if drawn is not None and drawn not in located:
                fresh.append(drawn)
        tops: list[tuple[str | None, int, tuple[Card, ...]]] = []
        if deck is not None:  # (an unknown deck: nothing to keep)
            tops.append((None, len(deck), tuple(deck[-2:])))
        owners: list[str] = []
        for owner in (player, first and first[0], second and second[0]):  # (None: the deck, kept above)
            if owner is not None and owner not in owners:
                owners.append(owner)
                pile = piles.get(owner)
                if pile is not None:
                    tops.append((owner, len(pile), tuple(pile[-2:])))
        return _tuple(  # (tuple.__new__: the named tuple's own __new__ is a Python call, see _tuple)
            _Undo,
            (
                player,
                tuple(self._hands[player].items()),
                self._hidden[player],
                tuple(fresh),
                tuple(tops),
                coord if coord not in self._arbs[player] else None,
                (self._current, self._turn, self._deck_count, self._phase, self._draws_taken),
            ),
        )

    def _restore(self, undo: "_Undo") -> None:
        self._forget_views()
        player, hand, hidden, fresh, tops, planted, counters = undo  # (one unpacking: no field looked up by name)
        self._hands[player] = dict(hand)
        self._hidden[player] = hidden
        self._located.difference_update(fresh)
        for owner, size, top in tops:
            pile = self._deck if owner is None else self._discards[owner]
            assert pile is not None  # the tops hold the deck only when it is known, as it stays
            pile[size - len(top) :] = top
        if planted is not None and planted in self._arbs[player]:
            del self._arbs[player][planted]
        self._current, self._turn, self._deck_count, self._phase, self._draws_taken = counters

    def _end_turn(self) -> None:
        self._draws_taken = 0
        if self._deck_count == 0:
            self._phase = _OVER
            return
        self._current = (self._current + 1) % len(self.config.players)
        self._turn += 1
        self._phase = _DRAW

    def reveal(self, player: str, cards: Iterable[Card]) -> None:
        """Reveal a hand at scoring: it must agree with every card known to be in it."""
        self.config.seat(player)
        self._parts.pop(player, None)
        cards = list(cards)
        known = self._hands[player]
        if not self._hidden[player] and len(cards) == len(known) and known.keys() == set(cards):
            self._hands[player] = dict.fromkeys(cards, True)  # the hand known whole: what _reveal_checked does
            return
        self._reveal_checked(player, cards)

    def _reveal_checked(self, player: str, cards: list[Card]) -> None:
        """Reveal a hand, each card checked against what is known (a hand with hidden cards, or a fault)."""
        known = self._hands[player]
        if len(cards) != len(known) + self._hidden[player]:
            raise RuleError(f"{player} reveals {len(cards)} cards but holds {len(known) + self._hidden[player]}")
        revealed = set(cards)
        if len(revealed) != len(cards):
            raise RuleError(f"{player} reveals the same card twice")
        for card in known:
            if card not in revealed:
                raise RuleError(f"{player}'s revealed hand lacks {card}, which {player} holds")
        new = [c for c in cards if c not in known]
        for card in new:
            if card.species not in self.config.species:
                raise RuleError(f"{player} reveals {card}: {card.species} is not a species in play")
            if card in self._located:
                raise RuleError(f"{player} reveals {card}, but it is {self.where_is(card)}")
        self._located.update(new)
        self._hands[player] = dict.fromkeys(cards, True)  # shown to every player
        self._hidden[player] = 0

    # -- the end ----------------------------------------------------------------------------

    def hidden_players(self) -> list[str]:
        """Players whose hand still holds hidden cards."""
        return [p for p in self.config.players if self._hidden[p]]

    def final_hands(self) -> dict[str, tuple[Card, ...]]:
        """Every hand, fully known; RuleError naming the players whose hands are not."""
        self._all_hands_known()
        return {p: tuple(sorted(self._hands[p], key=card_order)) for p in self.config.players}

    def end_table(self) -> tuple[PlayerPosition, ...]:
        """Each player's arboretum and hand, fully known, as scoring reads them (in seat order;
        each hand in the order its cards came into it, where final_hands sorts them); RuleError as
        final_hands. Each arboretum is a read-only view of the game's own, which changes as the game
        does (arboretum() gives a copy): for scoring the table there and then."""
        self._all_hands_known()
        return tuple(
            PlayerPosition(p, MappingProxyType(self._arbs[p]), tuple(self._hands[p])) for p in self.config.players
        )

    def final_totals(self) -> dict[str, int]:
        """Each player's total, as score_totals counts it on end_table (RuleError as final_hands),
        from the arboretums and hands where they stand: no PlayerPosition built (seat_totals)."""
        self._all_hands_known()
        return seat_totals(self.config.species, [(p, self._arbs[p], self._hands[p]) for p in self.config.players])

    def _all_hands_known(self) -> None:
        hidden = self.hidden_players()
        if hidden:
            raise RuleError(f"the hands of {', '.join(hidden)} are not known: reveal them to score")

    def species_planted(self, player: str) -> int:
        return len({card.species for card in self._arbs[player].values()})


#: What an action pushed did, for pop() (_Taken.kind).
_FROM_DECK, _FROM_PILE, _PLANTED, _DISCARDED, _SKIPPED = range(5)

_NONE: frozenset[Card] = frozenset()  # a hand none of whose cards were shown

# The named tuples made at every decision of a simulated game (a view's table and parts, push's
# note) are made by tuple.__new__ itself: a named tuple's own __new__ is a Python function, 1.3 us
# a call of seven fields where this is 0.6 (timeit, Python 3.11, the shared machine loaded;
# bench/README.md, "A bot's view, kept cheap").
_tuple = tuple.__new__


class _Taken(NamedTuple):
    """What push() keeps of one action to take it back: the ``player``, what was done (``kind``),
    the pile's ``owner`` of a draw from a pile, the ``card`` moved (None: a hidden card drawn), its
    ``shown`` mark in the hand before a planting or a discard, whether its place was unknown
    before (``fresh``), the cell planted, and the ``counters`` before (see _Undo)."""

    player: str
    kind: int
    owner: str | None
    card: Card | None
    shown: bool | None
    fresh: bool
    coord: Coord | None
    counters: tuple[int, int, int, Phase, int]


class _Undo(NamedTuple):
    """What push() keeps of a turn to take it back (see Game._undo_for): the ``player``, their ``hand``
    and ``hidden`` count; ``fresh``, the cards the turn may bring to light (not located before it);
    ``tops``, each pile it may draw from as (its owner or None: the deck, its size, its top two
    cards); ``planted``, the cell it may plant (None when it was taken already); and ``counters``,
    (current seat, turn, deck count, phase, draws taken). (A named tuple: see
    arbo_notation/__init__.py on a check's start-up.)"""

    player: str
    hand: tuple[tuple[Card, bool | None], ...]
    hidden: int
    fresh: tuple[Card, ...]
    tops: tuple[tuple[str | None, int, tuple[Card, ...]], ...]
    planted: Coord | None
    counters: tuple[int, int, int, Phase, int]


def _undraw(
    owner: str | None,
    pile: list[Card] | None,
    got: Card | None,
    hand: dict[Card, bool | None],
    hidden: dict[str, int],
    player: str,
    located: set[Card],
) -> int:
    """Undo a draw of Game.play_known_turns; how many cards it gives back to the deck."""
    if pile is not None:
        del hand[got]  # type: ignore[arg-type]  # a card from a pile is known: ``got`` is no None here
        pile.append(got)  # type: ignore[arg-type]  # a card from a pile is known: ``got`` is no None here
    elif got is None:
        hidden[player] -= 1
    else:
        located.discard(got)
        del hand[got]
    return owner is None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: each player's ``scores`` and the ``winners`` (more than one on a tie the
    tie-breaks leave)."""

    scores: Mapping[str, int]
    winners: tuple[str, ...]


def _connected(trees: Mapping[Coord, Card]) -> bool:
    """Whether every tree is reached from (0,0) through trees next to each other."""
    seen, todo = {ORIGIN}, [ORIGIN]
    while todo:
        for cell in todo.pop().neighbours():
            if cell in trees and cell not in seen:
                seen.add(cell)
                todo.append(cell)
    return len(seen) == len(trees)
