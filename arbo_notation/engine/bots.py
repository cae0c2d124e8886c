"""Computer players: a uniform random bot and a greedy bot that builds paths and guards its rights.

A bot answers one action at a time (engine/actions.py), on the table as it stands when the
action is due: a draw (asked once per draw, after the previous draw is in hand), a planting, a
discard. :func:`play_bot_turn` asks a bot for a whole turn and performs it through the
:class:`~.state.Game` API.

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
from arbo_notation.engine.actions import Action, Discard, Draw, DrawAction, Plant, Skip, TurnActions
from arbo_notation.engine.cards import ORIGIN, Card, Coord
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
    """A computer player: asked for one action at a time, the way a chess engine is asked for a
    move, whatever the phase of the turn (draw, draw, plant, discard)."""

    name: ClassVar[str]

    @abstractmethod
    def choose(self, game: Game, rng: random.Random) -> Action:
        """The current player's next action, one of ``game.legal_actions()``: a draw, a planting
        or a discard, as the phase asks. A draw from the deck names no card (``Draw()``): the
        bot cannot see it; a draw from a pile names its top card."""

    def watch(self, game: Game, mover: str) -> None:  # noqa: B027 - optional: most bots remember nothing
        """Told after every turn of the game, whoever played it (``mover``), as a player at the
        table sees each turn: a bot that remembers what it saw reads the public table here
        (the piles, the arboretums), never a hand. The greedy and random bots remember nothing."""


def draw_from(game: Game, source: DrawSource | None) -> DrawAction:
    """The draw from ``source`` (None: the draw skipped) as an action of ``game``'s current phase."""
    if source is None:
        return Skip()
    if source.kind is DrawSourceKind.DECK:
        return Draw()
    owner = str(source.owner)
    return Draw(owner, game.discard_pile(owner)[-1])


def source_of(draw: DrawAction) -> DrawSource | None:
    """Where ``draw`` draws from (None: it is skipped)."""
    if isinstance(draw, Skip):
        return None
    return DECK if draw.owner is None else DrawSource(DrawSourceKind.DISCARD, draw.owner)


def play_bot_turn(bot: Bot, game: Game, rng: random.Random) -> TurnActions:
    """Let ``bot`` play the current player's whole turn on ``game``, an action at a time, and
    return it as played: each draw names the card drawn."""
    if game.is_over:
        raise ArboError("no turn to play: the game is over")
    if game.phase is not Phase.DRAW or game.draws_taken:
        raise ArboError(f"a bot plays whole turns; {game.current_player}'s turn is already under way")
    player = game.current_player
    draws: list[DrawAction] = []
    for _ in range(2):
        draw = bot.choose(game, rng)
        if isinstance(draw, Skip):
            game.skip_draw()
        elif not isinstance(draw, Draw):
            raise ArboError(f"{player}'s bot answered {draw} where a draw is due")
        elif draw.owner is None:
            draw = Draw(None, game.draw_from_deck(draw.card))
        else:
            draw = Draw(draw.owner, game.draw_from_discard(draw.owner, draw.card))
        draws.append(draw)
    plant = bot.choose(game, rng)
    if not isinstance(plant, Plant):
        raise ArboError(f"{player}'s bot answered {plant} where a planting is due")
    game.plant(plant.card, plant.coord)
    discard = bot.choose(game, rng)
    if not isinstance(discard, Discard):
        raise ArboError(f"{player}'s bot answered {discard} where a discard is due")
    game.discard(discard.card)
    return TurnActions(player, (draws[0], draws[1], plant, discard))


# -- the random bot ------------------------------------------------------------------------------------


class RandomBot(Bot):
    """Uniform among the legal choices: every source, every card and every cell, every card."""

    name = "random"

    def choose(self, game: Game, rng: random.Random) -> Action:
        view = TableView.of(game)
        phase = game.phase
        if phase is Phase.DRAW:
            sources = view.draw_sources()
            return draw_from(game, rng.choice(sources) if sources else None)
        if phase is Phase.PLANT:
            return Plant(rng.choice(view.hand), rng.choice(view.plant_cells()))
        return Discard(rng.choice(view.hand))


# -- the greedy bot ------------------------------------------------------------------------------------


class GreedyBot(Bot):
    """Builds paths and guards its rights (``greedy.py``, which decides on the lean position):
    each decision reads the game as the current player sees it and asks the greedy bot."""

    name = "greedy"

    def choose(self, game: Game, rng: random.Random) -> Action:
        phase = game.phase
        if phase is Phase.DRAW:
            return self.draw(game)
        if phase is Phase.PLANT:
            return self.plant(game)
        return self.discard(game)

    def draw(self, game: Game) -> DrawAction:
        """The next draw."""
        source = greedy.choose_source(seen_by_mover(game)[0])
        if source is None:
            return Skip()
        if source == FROM_DECK:
            return Draw()
        owner = game.players[source]
        return Draw(owner, game.discard_pile(owner)[-1])

    def plant(self, game: Game) -> Plant:
        """The planting, the draws made."""
        position, cards = seen_by_mover(game)
        card, cell = greedy.choose_planting(position)
        return Plant(cards.card(card), coord_of(cell))

    def discard(self, game: Game) -> Discard:
        """The discard, the planting made."""
        position, cards = seen_by_mover(game)
        return Discard(cards.card(greedy.choose_discard(position)))


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
