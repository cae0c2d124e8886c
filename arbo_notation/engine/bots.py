"""Computer players: a uniform random bot and a greedy bot that builds paths and guards its rights.

A bot makes the three decisions of a turn, each on the table as it stands when the decision is
due: where to draw from (asked once per draw, after the previous draw is in hand), which card to
plant where, and which card to discard. :func:`play_bot_turn` asks a bot for a whole turn and performs
it through the :class:`~.state.Game` API.

A bot sees only what its player sees (a :class:`TableView`): its own hand, every arboretum, every
discard pile and the deck's size -- never the deck's order nor another player's hand. Given the
same ``random.Random`` state and table, a bot makes the same choices. Standard library only.
"""

from __future__ import annotations

import math
import random
from operator import attrgetter
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable, ClassVar, Mapping

from arbo_notation.errors import ArboError
from arbo_notation.engine.cards import HAND_SIZE, MAX_VALUE, MIN_VALUE, ORIGIN, Card, Coord, Planting
from arbo_notation.engine.scoring import best_paths
from arbo_notation.engine.state import DECK, DrawSource, DrawSourceKind, Game, Phase


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

    def watch(self, game: Game, mover: str) -> None:
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


# -- path tables for fast what-ifs -----------------------------------------------------------------------

_NEG = -(10**6)


def _longer(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether same-species segment a (length, bonus) beats b: points 2*length+bonus, then length."""
    return (2 * a[0] + a[1], a[0]) > (2 * b[0] + b[1], b[0])


def _around(x: int, y: int) -> tuple[tuple[int, int], ...]:
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def _room(values: int) -> float:
    """How likely an open path end is to be completed, by how many values lie beyond it."""
    return min(1.0, values / 3)


def _sweep(
    trees: Mapping[tuple[int, int], tuple[str, int]],
    order: list[tuple[int, int]],
    bonus: Callable[[int], int],
    feeds: Callable[[int, int], bool],
) -> tuple[dict[tuple[int, int], dict[str, int]], dict[tuple[int, int], tuple[int, int]]]:
    """One pass of the path DP over cells in ``order``: for each cell, the best length + bonus of
    a path from a tree of each species to it through neighbours that ``feeds`` (lower values going
    up, higher going down), and its longest same-species run as (length, bonus)."""
    best: dict[tuple[int, int], dict[str, int]] = {}
    runs: dict[tuple[int, int], tuple[int, int]] = {}
    for cell in order:
        code, value = trees[cell]
        table = {code: 1 + bonus(value)}
        same = (1, int(bonus(value)))
        for n in _around(*cell):
            other = trees.get(n)
            if other is None or not feeds(value, other[1]):
                continue
            for kind, val in best[n].items():
                if val + 1 > table.get(kind, _NEG):
                    table[kind] = val + 1
            if other[0] == code:
                length, extra = runs[n]
                if _longer((length + 1, extra), same):
                    same = (length + 1, extra)
        best[cell] = table
        runs[cell] = same
    return best, runs


class _Paths:
    """One arboretum's increasing paths, summarised per cell, to price a new tree in O(neighbours).

    Values strictly increase along a path, so paths form a DAG and these tables are a DP over it:
    ``up[c][S]`` is the best length + start bonus of a path from a tree of S up to c (c included);
    ``down[c][S]`` the best length + end bonus of a path from c up to a tree of S (c included);
    ``same_up`` / ``same_down`` the longest all-same-species run ending / starting at c.
    ``best[S]`` is the exact best path score (from the engine), ``open[S]`` the best partial path
    that a future tree could still complete (its last or first tree has an empty neighbour).
    Cells are ``(x, y)`` tuples and trees ``(species, value)`` tuples inside, for speed.
    """

    __slots__ = ("trees", "up", "down", "same_up", "same_down", "best", "open", "cells", "_gained")

    #: Tables already made, by arboretum: a turn reads the same arboretums several times, and a
    #: rollout of the analysis reads them again in every world. Bounded: emptied when full.
    _made: ClassVar[dict[tuple, "_Paths"]] = {}
    _MADE_LIMIT: ClassVar[int] = 2048

    @classmethod
    def of(cls, arb: Mapping[Coord, Card], species: tuple[str, ...]) -> "_Paths":
        """The tables of ``arb`` (read-only: shared by every caller that asks for the same one)."""
        key = (species, frozenset(arb.items()))
        made = cls._made.get(key)
        if made is None:
            if len(cls._made) >= cls._MADE_LIMIT:
                cls._made.clear()
            made = cls._made[key] = cls(arb, species)
        return made

    def __init__(self, arb: Mapping[Coord, Card], species: tuple[str, ...]) -> None:
        trees = {(c.x, c.y): (card.species, card.value) for c, card in arb.items()}
        self.trees = trees
        order = sorted(trees, key=lambda c: (trees[c][1], c))
        up, same_up = _sweep(trees, order, lambda value: value == MIN_VALUE, lambda mine, other: other < mine)
        down, same_down = _sweep(
            trees, order[::-1], lambda value: 2 * (value == MAX_VALUE), lambda mine, other: other > mine
        )
        self.up, self.down, self.same_up, self.same_down = up, down, same_up, same_down
        self.best = {code: path.points for code, path in best_paths(arb, species).items()}
        opened: dict[str, float] = {}
        for cell, (code, value) in trees.items():
            if all(n in trees for n in _around(*cell)):
                continue
            if value < MAX_VALUE:
                room = _room(MAX_VALUE - value)
                for other, val in up[cell].items():
                    opened[other] = max(opened.get(other, 0.0), (val + 1) * room)
            if value > MIN_VALUE:
                room = _room(value - MIN_VALUE)
                for other, val in down[cell].items():
                    opened[other] = max(opened.get(other, 0.0), (val + 1) * room)
        self.open = opened
        self._gained: dict[tuple[Card, Coord, float], dict[str, float]] = {}
        self.cells = frontier(arb)  # where a tree may be planted next (read-only)

    def value(self, code: str, potential: float) -> float:
        """What the arboretum is worth in a species: its best path, or a discounted open one."""
        return max(self.best.get(code, 0), potential * self.open.get(code, 0.0))

    def gains(self, card: Card, cell: Coord, potential: float) -> dict[str, float]:
        """How much planting ``card`` at ``cell`` raises :meth:`value`, per species it changes
        (read-only: the same answer is given again to the next caller that asks)."""
        key = (card, cell, potential)
        found = self._gained.get(key)
        if found is None:
            found = self._gained[key] = self._gains(card, cell, potential)
        return found

    def _gains(self, card: Card, cell: Coord, potential: float) -> dict[str, float]:
        trees = self.trees
        t, v = card.species, card.value
        pre: dict[str, int] = {}  # best path from a tree of S up to the new tree (included)
        post: dict[str, int] = {}  # best path from just above the new tree up to a tree of S
        same_pre = (1, int(v == MIN_VALUE))
        same_post = (0, 2 * (v == MAX_VALUE))
        room = False
        for n in _around(cell.x, cell.y):
            other = trees.get(n)
            if other is None:
                room = True
            elif other[1] < v:
                for code, val in self.up[n].items():
                    if val >= pre.get(code, _NEG):
                        pre[code] = val + 1
                if other[0] == t:
                    length, bonus = self.same_up[n]
                    if _longer((length + 1, bonus), same_pre):
                        same_pre = (length + 1, bonus)
            elif other[1] > v:
                for code, val in self.down[n].items():
                    if val > post.get(code, _NEG):
                        post[code] = val
                if other[0] == t and _longer(self.same_down[n], same_post):
                    same_post = self.same_down[n]
        start = 1 + (v == MIN_VALUE)
        end = 2 * (v == MAX_VALUE)
        through = {code: a + post[code] for code, a in pre.items() if code in post} if post else {}
        own = through.get(t, _NEG)
        if t in pre:
            own = max(own, pre[t] + end)
        if t in post:
            own = max(own, start + post[t])
        length = same_pre[0] + same_post[0]
        if length >= 4:
            own = max(own, 2 * length + same_pre[1] + same_post[1])
        if own > _NEG:
            through[t] = own
        opened: dict[str, float] = {}
        if room:
            if v < MAX_VALUE:
                above = _room(MAX_VALUE - v)
                opened = {code: (val + 1) * above for code, val in pre.items()}
                opened[t] = max(opened.get(t, 0.0), (start + 1) * above)
            if v > MIN_VALUE:
                below = _room(v - MIN_VALUE)
                for code, val in post.items():
                    opened[code] = max(opened.get(code, 0.0), (val + 2) * below)
                opened[t] = max(opened.get(t, 0.0), (end + 2) * below)
        result: dict[str, float] = {}
        best, still = self.best, self.open
        for code in dict.fromkeys([*through, *opened]):
            held = best.get(code, 0)
            was_open = still.get(code, 0.0)
            before = max(held, potential * was_open)
            after = max(held, through.get(code, _NEG), potential * max(was_open, opened.get(code, 0.0)))
            if after > before:
                result[code] = after - before
        return result


# -- the greedy bot ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _SpeciesOdds:
    """What a player can tell of the fight for one species' right from the public cards."""

    unseen_sum: int  # values of the cards of the species the player cannot see
    unseen_one: bool  # the 1 is unseen (an opponent may hold it)
    unseen_eight: bool


class _Reading:
    """The greedy bot's reading of a table: its path tables, the odds for each right, the timing."""

    def __init__(self, view: TableView) -> None:
        self.view = view
        me = view.player
        self.paths = _Paths.of(view.arboretums[me], view.species)
        visible = list(view.hand)
        for arb in view.arboretums.values():
            visible.extend(arb.values())
        for pile in view.discards.values():
            visible.extend(pile)
        seen: dict[str, set[int]] = {code: set() for code in view.species}
        for card in visible:
            seen[card.species].add(card.value)
        odds = {}
        for code, values in seen.items():
            odds[code] = _SpeciesOdds(
                unseen_sum=sum(range(MIN_VALUE, MAX_VALUE + 1)) - sum(values),
                unseen_one=MIN_VALUE not in values,
                unseen_eight=MAX_VALUE not in values,
            )
        self.odds = odds
        opponents = len(view.players) - 1
        held_by_opponents = HAND_SIZE * opponents
        # Share of the unseen cards an opponent's final hand will hold, and of that, the strongest one's.
        self.opponent_share = held_by_opponents / max(held_by_opponents + view.deck_size, 1)
        self.strongest_share = {1: 1.0, 2: 0.6, 3: 0.45}[opponents]
        # Turns left to this player after the current one: open paths are worth less near the end.
        turns_left = view.deck_size // (2 * len(view.players))
        self.potential = 0.55 * min(1.0, turns_left / 3)
        self.by_species: dict[str, list[int]] = {code: [] for code in view.species}
        for card in view.hand:
            self.by_species[card.species].append(card.value)

    def right_weight(self, code: str, values: list[int]) -> float:
        """The estimated chance of holding the right to score ``code`` with these values in hand."""
        odds = self.odds[code]
        q = self.opponent_share
        mine = float(sum(values))
        if MAX_VALUE in values and MIN_VALUE not in values and odds.unseen_one:
            mine -= MAX_VALUE * q  # an opponent holding the 1 would cancel our 8
        pool = odds.unseen_sum
        if MIN_VALUE in values and odds.unseen_eight:
            pool -= MAX_VALUE  # our 1 cancels their 8
        if pool <= 0:
            return 1.0
        rival = q * pool * self.strongest_share
        return 1.0 / (1.0 + math.exp(-(mine - rival + 0.5) / 3.0))

    def weight(self, code: str) -> float:
        return self.right_weight(code, self.by_species[code])

    def weight_without(self, card: Card) -> float:
        values = list(self.by_species[card.species])
        values.remove(card.value)
        return self.right_weight(card.species, values)

    def weight_with(self, card: Card) -> float:
        return self.right_weight(card.species, self.by_species[card.species] + [card.value])

    def plant_gain(self, card: Card, cell: Coord, weights: Mapping[str, float], in_hand: bool) -> float:
        """The weighted gain of planting ``card`` at ``cell``; planting from the hand costs rights."""
        gains = self.paths.gains(card, cell, self.potential)
        total = sum(weights[code] * gain for code, gain in gains.items())
        if in_hand:
            value = self.paths.value(card.species, self.potential) + gains.get(card.species, 0.0)
            total -= (weights[card.species] - self.weight_without(card)) * value
        return total

    def best_plant_gain(self, card: Card, weights: Mapping[str, float], in_hand: bool) -> float:
        cells = self.paths.cells
        return max(self.plant_gain(card, cell, weights, in_hand) for cell in cells)


class GreedyBot(Bot):
    """Builds paths and guards its rights, one decision at a time, from public information only.

    * Draw: the top of a discard pile when it would raise a path or a contested hand sum enough,
      otherwise the deck.
    * Plant: the card and cell that most raise the weighted value of the arboretum (best path, or
      a discounted open path), weighted by the estimated chance of holding each species' right and
      net of the right the planted card stops defending.
    * Discard: never a 1 or a high card of a contested species when avoidable; otherwise the card
      least useful to itself (rights, future plantings) and to the next player.
    """

    name = "greedy"

    #: A discard-pile card must be worth this much more than nothing to beat a blind deck draw.
    DRAW_THRESHOLD = 1.5
    #: How much the next player's gain from our discard weighs against our own loss.
    SPITE = 1.0
    #: What a card kept in hand for a later planting is worth, relative to planting it now.
    LATER = 1.0

    def choose_draw(self, game: Game, rng: random.Random) -> DrawSource | None:
        return self.draw_for(TableView.of(game))

    def choose_plant(self, game: Game, rng: random.Random) -> tuple[Card, Coord]:
        return self.plant_for(TableView.of(game))

    def choose_discard(self, game: Game, rng: random.Random) -> Card:
        return self.discard_for(TableView.of(game))

    # The decisions from a view alone (no Game), for a caller that holds a table, not a game.

    def draw_for(self, view: TableView) -> DrawSource | None:
        """Where to draw the next card from, seeing ``view``; None when nothing can be drawn."""
        sources = view.draw_sources()
        if not sources:
            return None
        piles = [s for s in sources if s.kind is DrawSourceKind.DISCARD]
        if not piles:
            return sources[0]
        reading = _Reading(view)
        weights = {code: reading.weight(code) for code in view.species}
        best: tuple[float, DrawSource] | None = None
        for source in piles:
            card = view.discards[str(source.owner)][-1]
            worth = self._draw_worth(reading, weights, card)
            if best is None or worth > best[0]:
                best = (worth, source)
        assert best is not None
        if view.deck_size > 0 and best[0] < self.DRAW_THRESHOLD:
            return DECK
        return best[1]

    def _draw_worth(self, reading: _Reading, weights: Mapping[str, float], card: Card) -> float:
        planting = reading.best_plant_gain(card, weights, in_hand=False)
        value = max(reading.paths.value(card.species, reading.potential), 1.0)
        holding = (reading.weight_with(card) - weights[card.species]) * value
        if card.value == MIN_VALUE:
            holding += 1.0  # a 1 cancels an opponent's 8 and starts paths with a bonus
        return max(planting, holding)

    def plant_for(self, view: TableView) -> tuple[Card, Coord]:
        """Which card of the hand to plant, and where, seeing ``view``."""
        reading = _Reading(view)
        weights = {code: reading.weight(code) for code in view.species}
        cells = reading.paths.cells
        best: tuple[float, Card, Coord] | None = None
        for card in view.hand:
            for cell in cells:
                gain = reading.plant_gain(card, cell, weights, in_hand=True)
                if best is None or gain > best[0]:
                    best = (gain, card, cell)
        assert best is not None
        return best[1], best[2]

    def discard_for(self, view: TableView) -> Card:
        """Which card of the hand to discard, the planting made, seeing ``view``."""
        reading = _Reading(view)
        weights = {code: reading.weight(code) for code in view.species}
        opponents = view.opponents()
        following = opponents[0]
        their_paths = _Paths.of(view.arboretums[following], view.species)
        their_cells = their_paths.cells
        rival_best = {code: 0 for code in view.species}
        for other in opponents:
            for code, points in _Paths.of(view.arboretums[other], view.species).best.items():
                rival_best[code] = max(rival_best[code], points)
        protected: list[Card] = []
        free: list[Card] = []
        for card in view.hand:
            code = card.species
            mine = reading.paths.value(code, reading.potential)
            contested = mine > 0 or rival_best[code] > 0 or 0.2 < weights[code]
            guarded = card.value == MIN_VALUE or (card.value >= 6 and contested)
            (protected if guarded else free).append(card)
        # A protected card goes only when every card is: the others' costs are never needed.
        choices: list[tuple[float, Card]] = []
        for card in free or protected:
            code = card.species
            mine = reading.paths.value(code, reading.potential)
            loss = (weights[code] - reading.weight_without(card)) * (mine + 0.5 * rival_best[code])
            later = self.LATER * max(0.0, reading.best_plant_gain(card, weights, in_hand=False))
            gift = max(
                (sum(their_paths.gains(card, cell, reading.potential).values()) for cell in their_cells),
                default=0.0,
            )
            choices.append((loss + later + self.SPITE * gift, card))
        return min(choices)[1]


#: The bots by the names the command line uses.
BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot, "random": RandomBot}


def make_bot(name: str) -> Bot:
    """A bot by name ('greedy' or 'random'); ArboError for an unknown name."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ArboError(f"no bot is called {name!r} (known: {', '.join(sorted(BOTS))})") from None
