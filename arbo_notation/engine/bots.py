"""Computer players: a uniform random bot and a greedy bot that builds paths and guards its rights.

A bot makes the three decisions of a turn, each on the table as it stands when the decision is
due: where to draw from (asked once per draw, after the previous draw is in hand), which card to
plant where, and which card to discard. :func:`play_bot_turn` asks a bot for a whole turn and performs
it through the :class:`~.state.Game` API.

A bot sees only what its player sees (a :class:`TableView`, or the lean position
:func:`seen_by_mover` reads for the greedy bot): its own hand, every arboretum, every discard pile
and the deck's size -- never the deck's order nor another player's hand. Given the
same ``random.Random`` state and table, a bot makes the same choices. Standard library only.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import ClassVar, Mapping

from arbo_notation.engine import greedy
from arbo_notation.engine.cards import ORIGIN, Card, Coord, Planting
from arbo_notation.engine.lean import FROM_DECK, HIDDEN, Cards, LeanPosition, cell_of, coord_of
from arbo_notation.engine.state import DECK, DrawSource, DrawSourceKind, Game, Phase
from arbo_notation.errors import ArboError


# -- what a player sees ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as the player to move sees it; bots decide from this alone."""

    player: str
    players: tuple[str, ...]
    species: tuple[str, ...]
    hand: tuple[Card, ...]  # sorted
    arboretums: Mapping[str, Mapping[Coord, Card]]
    discards: Mapping[str, tuple[Card, ...]]  # bottom first; the last card is the top
    deck_size: int
    draws_taken: int

    @classmethod
    def of(cls, game: Game) -> "TableView":
        """What the current player of ``game`` sees."""
        me = game.current_player
        held = game.hand(me)
        if held.hidden:
            raise ArboError(f"a bot cannot play for {me}: {held.hidden} card(s) of the hand are unknown")
        return cls(
            player=me,
            players=game.players,
            species=game.config.species,
            hand=held.known,
            arboretums={p: game.arboretum(p) for p in game.players},
            discards={p: game.discard_pile(p) for p in game.players},
            deck_size=game.deck_size,
            draws_taken=game.draws_taken,
        )

    def draw_sources(self) -> list[DrawSource]:
        """The deck (when not empty) and every non-empty discard pile, in seat order."""
        sources = [DECK] if self.deck_size > 0 else []
        return sources + [DrawSource(DrawSourceKind.DISCARD, p) for p in self.players if self.discards[p]]

    def plant_cells(self, player: str | None = None) -> list[Coord]:
        """The cells where the player may plant, sorted."""
        return frontier(self.arboretums[player or self.player])

    def opponents(self) -> tuple[str, ...]:
        """The other players in turn order, starting with the next one."""
        seat = self.players.index(self.player)
        return self.players[seat + 1 :] + self.players[:seat]


def frontier(arboretum: Mapping[Coord, Card]) -> list[Coord]:
    """The empty cells next to a planted tree (0,0 for an empty arboretum), sorted."""
    if not arboretum:
        return [ORIGIN]
    return sorted({n for cell in arboretum for n in cell.neighbours() if n not in arboretum}, key=_by_xy)


_by_xy = attrgetter("x", "y")  # the order of Coord's <, without a Python call per comparison


# -- the protocol and one turn ------------------------------------------------------------------------


class Bot(ABC):
    """A computer player. Each method is called when the game awaits that decision from it."""

    name: ClassVar[str]

    @abstractmethod
    def choose_draw(self, game: Game, rng: random.Random) -> DrawSource | None:
        """Where to draw the next card from; None only when nothing can be drawn (skip)."""

    @abstractmethod
    def choose_plant(self, game: Game, rng: random.Random) -> tuple[Card, Coord]:
        """Which card of the hand to plant, and where."""

    @abstractmethod
    def choose_discard(self, game: Game, rng: random.Random) -> Card:
        """Which card of the hand to discard."""

    def watch(self, game: Game, mover: str) -> None:  # noqa: B027 - optional: most bots remember nothing
        """Told after every turn of the game, whoever played it (``mover``), as a player at the
        table sees each turn: a bot that remembers what it saw reads the public table here
        (the piles, the arboretums), never a hand. The greedy and random bots remember nothing."""


@dataclass(frozen=True, slots=True)
class DrawTaken:
    """One draw a bot made: ``source`` None for a skipped draw; ``card`` the card drawn."""

    source: DrawSource | None
    card: Card | None


@dataclass(frozen=True, slots=True)
class TurnPlay:
    """What a bot did in one turn."""

    player: str
    draws: tuple[DrawTaken, ...]
    plant: Planting
    discard: Card


def play_bot_turn(bot: Bot, game: Game, rng: random.Random) -> TurnPlay:
    """Let ``bot`` play the current player's whole turn on ``game`` and return what it did."""
    if game.is_over:
        raise ArboError("no turn to play: the game is over")
    if game.phase is not Phase.DRAW or game.draws_taken:
        raise ArboError(f"a bot plays whole turns; {game.current_player}'s turn is already under way")
    player = game.current_player
    draws: list[DrawTaken] = []
    for _ in range(2):
        source = bot.choose_draw(game, rng)
        if source is None:
            game.skip_draw()
            draws.append(DrawTaken(None, None))
        elif source.kind is DrawSourceKind.DECK:
            draws.append(DrawTaken(source, game.draw_from_deck()))
        else:
            draws.append(DrawTaken(source, game.draw_from_discard(str(source.owner))))
    card, cell = bot.choose_plant(game, rng)
    game.plant(card, cell)
    discard = bot.choose_discard(game, rng)
    game.discard(discard)
    return TurnPlay(player, tuple(draws), Planting(card, cell), discard)


# -- the random bot ------------------------------------------------------------------------------------


class RandomBot(Bot):
    """Uniform among the legal choices: every source, every (card, cell) pair, every card."""

    name = "random"

    def choose_draw(self, game: Game, rng: random.Random) -> DrawSource | None:
        sources = TableView.of(game).draw_sources()
        return rng.choice(sources) if sources else None

    def choose_plant(self, game: Game, rng: random.Random) -> tuple[Card, Coord]:
        view = TableView.of(game)
        return rng.choice(view.hand), rng.choice(view.plant_cells())

    def choose_discard(self, game: Game, rng: random.Random) -> Card:
        return rng.choice(TableView.of(game).hand)


# -- the greedy bot ------------------------------------------------------------------------------------


class GreedyBot(Bot):
    """Builds paths and guards its rights (``greedy.py``, which decides on the lean position):
    each decision reads the game as the current player sees it and asks the greedy bot."""

    name = "greedy"

    def choose_draw(self, game: Game, rng: random.Random) -> DrawSource | None:
        source = greedy.choose_source(seen_by_mover(game)[0])
        if source is None:
            return None
        if source == FROM_DECK:
            return DECK
        return DrawSource(DrawSourceKind.DISCARD, game.players[source])

    def choose_plant(self, game: Game, rng: random.Random) -> tuple[Card, Coord]:
        position, cards = seen_by_mover(game)
        card, cell = greedy.choose_planting(position)
        return cards.card(card), coord_of(cell)

    def choose_discard(self, game: Game, rng: random.Random) -> Card:
        position, cards = seen_by_mover(game)
        return cards.card(greedy.choose_discard(position))


def seen_by_mover(game: Game) -> tuple[LeanPosition, Cards]:
    """The lean position as the current player of ``game`` sees it, the cards it cannot see (the
    other hands, the deck) HIDDEN, and the encoding of its cards. The species are coded in the
    order Cards sort in (by name), so that the greedy bot's ties fall as they would on Cards."""
    me = game.current_player
    held = game.hand(me)
    if held.hidden:
        raise ArboError(f"a bot cannot play for {me}: {held.hidden} card(s) of the hand are unknown")
    cards = Cards(tuple(sorted(game.config.species)))
    code = _codes(cards)
    hands = [
        [code[card] for card in held.known] if player == me else [HIDDEN] * len(game.hand(player))
        for player in game.players
    ]
    position = LeanPosition(
        hands,
        [HIDDEN] * game.deck_size,
        [[code[card] for card in game.discard_pile(player)] for player in game.players],
        [{cell_of(coord): code[card] for coord, card in game.arboretum(player).items()} for player in game.players],
        game.players.index(me),
    )
    return position, cards


@lru_cache(maxsize=8)
def _codes(cards: Cards) -> dict[Card, int]:
    """Every card of the species by its lean code: cards are interned, so this is a plain dict lookup."""
    return {cards.card(code): code for code in cards.all_codes()}


#: The bots by the names the command line uses.
BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot, "random": RandomBot}


def make_bot(name: str) -> Bot:
    """A bot by name ('greedy' or 'random'); ArboError for an unknown name."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ArboError(f"no bot is called {name!r} (known: {', '.join(sorted(BOTS))})") from None
