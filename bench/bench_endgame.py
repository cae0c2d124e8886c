"""Benchmark: `arbo analyse`'s loss on the last turns of simulated games against an exact reference.

The reference is written from the rules on the engine's own scoring (``engine/scoring.py``'s
``best_paths`` and ``rights``) and the public table of the engine's ``Game``; it shares no code
with ``engine/lean.py`` nor ``analysis/endgame.py``. What the mover knows comes from the
knowledge model (``analysis.game.situation_at``: the mover's hand, the cards seen going into other
hands, where each unseen card may be). The reference judges a turn as the analysis does, as two
decisions, each from what the mover knew when making it:

- **the draws**: each pair's value is the expectation, over every world consistent with the mover's
  knowledge (every possible deck in order, the other hands filled with the rest), of the best finish
  the mover can choose once the drawn cards are seen (the max inside the expectation over the
  draws; the finish is one for all the worlds the mover cannot tell apart);
- **the finish**, the draws in hand: each finish's expected margin over the worlds left.

A turn that ends the game is scored exactly, every legal finish. After a turn that keeps the game
going, the next player plays the game's last turn best: the best for their own margin of every pair
of draws that empties the deck and every finish, their draws chosen knowing the world (assumed:
the mean over what they cannot see is not affordable there); a reply that would prolong the game
again is not considered, and a pair of the mover after which no reply can end the game is left out.
In such lines the mover's finish is the best of the ``--candidates`` finishes best for them on average
as if the game ended after the turn, the greedy bot's and the one played (``search.py``'s candidates
there), chosen once for the worlds the mover cannot tell apart. At three and four players each possible deck's
other hands are dealt ``--deals`` times at random (the hands' splits are too many to list); with
``--going-on N`` the last turn's pairs of draws emptying the deck and the finish after them are
exact instead: every content of the deck, every split of the other hands in groups that score
alike (analysis/splits.py, held to a brute force over every deal by tests/analysis/test_splits.py;
valued here on the engine's scoring), past ``REFERENCE_GROUPS`` groups ``--deals`` deals (said on
stderr); the pairs that keep the game going over N worlds drawn at random.

Run ``PYTHONPATH=$PWD python bench/bench_endgame.py --reference ref.json -j 2`` on a tree, then
the same command with PYTHONPATH=/work/main: the reference is computed once and kept in the file.
Issue 49, item 5 (three and four players, the last turn): ``--games 0 --games-more 4 --last-only
--going-on 24``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

if not os.environ.get("PYTHONPATH"):  # PYTHONPATH=/work/main measures another tree's analysis
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import arbo_notation as arbo
from arbo_notation.analysis.game import situation_at, tasks
from arbo_notation.analysis.sampling import Unseen
from arbo_notation.analysis.turns import INACCURACY, judge_turn
from arbo_notation.engine.actions import Draw
from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.greedy import choose_finish
from arbo_notation.engine.lean import Cards, LeanPosition, cell_of, coord_of
from arbo_notation.engine.scoring import best_paths, rights
from arbo_notation.notation.writer import format_game
from arbo_notation.play.simulate import simulate_game
from arbo_notation.runtime.atomic import write_atomic

PLAYERS = ("Ana", "Ben", "Cleo", "Dev")
DECK = "d"
#: The most groups of splits of a deck's hands the reference values (each a table of every
#: finish on the engine's scoring); past them, ``--deals`` random deals (reported).
REFERENCE_GROUPS = 1500
#: A draw: DECK, a pile's owner, or None for a skipped draw.
Source = str | None
Pair = tuple[Source, Source]
Finish = tuple[Card, Coord, Card]


@dataclass
class World:
    """One deal of what the mover cannot see, on the public table (piles top last, deck top last)."""

    hands: dict[str, list[Card]]
    deck: list[Card]
    piles: dict[str, list[Card]]
    planted: dict[str, tuple[Card, Coord]] = field(default_factory=dict)

    def copy(self) -> World:
        hands = {p: list(h) for p, h in self.hands.items()}
        piles = {p: list(c) for p, c in self.piles.items()}
        return World(hands, list(self.deck), piles, dict(self.planted))

    def sources(self) -> list[Source]:
        found: list[Source] = [DECK] if self.deck else []
        return found + [p for p, pile in self.piles.items() if pile]

    def draw(self, player: str, source: Source) -> Card | None:
        """Draw into ``player``'s hand; the card when it came from the deck."""
        if source is None:
            return None
        card = self.deck.pop() if source == DECK else self.piles[source].pop()
        self.hands[player].append(card)
        return card if source == DECK else None

    def finish(self, player: str, finish: Finish) -> None:
        card, cell, discard = finish
        self.hands[player].remove(card)
        self.hands[player].remove(discard)
        self.planted[player] = (card, cell)
        self.piles[player].append(discard)


def pairs_of(world: World) -> list[Pair]:
    """Every distinct pair of draws (two draws from different places commute)."""
    found: dict[tuple, Pair] = {}
    for first in world.sources() or [None]:
        probe = world.copy()
        probe.hands["?"] = []
        probe.draw("?", first)
        for second in probe.sources() or [None]:
            found.setdefault(tuple(sorted((first or "", second or ""))), (first, second))
    return list(found.values())


class Reference:
    """The exact values of one turn's decisions, on the worlds the mover's knowledge allows."""

    def __init__(self, game, species: Sequence[str], candidates: int) -> None:
        self.species = tuple(species)
        self.players = tuple(game.players)
        self.arbs: dict[str, Mapping[Coord, Card]] = {p: game.arboretum(p) for p in self.players}
        self.cells = {p: game.plant_cells(p) for p in self.players}
        self.candidates = candidates
        self._points: dict[tuple, dict[str, int]] = {}
        self._replies: dict[tuple, dict[str, int] | None] = {}

    def next_of(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def points(self, player: str, planted: tuple[Card, Coord] | None) -> dict[str, int]:
        """The points of each species' best path in the arboretum, ``planted`` added."""
        key = (player, planted)
        if key not in self._points:
            arb = dict(self.arbs[player])
            if planted is not None:
                arb[planted[1]] = planted[0]
            self._points[key] = {code: path.points for code, path in best_paths(arb, self.species).items()}
        return self._points[key]

    def _parts(self, world: World, mover: str):
        """A game-ending turn in parts: for each unordered pair of cards leaving the hand, every
        seat's rights per species and the other players' scores (the rights of a species neither
        card is of are those of the whole hand)."""
        hand = world.hands[mover]
        others = {p: self.points(p, world.planted.get(p)) for p in self.players if p != mover}
        whole = {code: rights(code, world.hands) for code in self.species}
        parts = {}
        for card, discard in itertools.combinations(hand, 2):
            kept = [c for c in hand if c != card and c != discard]
            hands = {**world.hands, mover: kept}
            held = dict(whole)
            for code in {card.species, discard.species}:
                held[code] = rights(code, hands)
            scores = {p: sum(x for c, x in pts.items() if p in held[c]) for p, pts in others.items()}
            parts[frozenset((card, discard))] = (held, scores)
        return parts

    def final_table(self, world: World, mover: str) -> dict[Finish, dict[str, int]]:
        """Every legal finish of ``mover`` ending the game in ``world``: each player's score."""
        parts = self._parts(world, mover)
        table: dict[Finish, dict[str, int]] = {}
        for card, discard in itertools.permutations(world.hands[mover], 2):
            held, scores = parts[frozenset((card, discard))]
            for cell in self.cells[mover]:
                mine = self.points(mover, (card, cell))
                table[(card, cell, discard)] = {**scores, mover: sum(x for c, x in mine.items() if mover in held[c])}
        return table

    def best_final(self, world: World, mover: str) -> dict[str, int]:
        """The scores after ``mover``'s best finish of a turn ending the game (the best cell of a
        card depends on the discard only through the mover's rights)."""
        parts = self._parts(world, mover)
        best: tuple[int, dict[str, int]] | None = None
        cells: dict[tuple, int] = {}
        for card, discard in itertools.permutations(world.hands[mover], 2):
            held, scores = parts[frozenset((card, discard))]
            mask = tuple(code for code in self.species if mover in held[code])
            if (card, mask) not in cells:
                cells[(card, mask)] = max(
                    sum(self.points(mover, (card, cell)).get(code, 0) for code in mask) for cell in self.cells[mover]
                )
            mine = cells[(card, mask)]
            value = mine - max(scores.values())
            if best is None or value > best[0]:
                best = (value, {**scores, mover: mine})
        assert best is not None
        return best[1]

    def last_reply(self, world: World, player: str) -> dict[str, int] | None:
        """The scores once ``player`` plays the game's last turn best, knowing the world; None
        when no pair of draws empties the deck."""
        key = (
            player,
            tuple(tuple(sorted(world.hands[p])) for p in self.players),
            tuple(sorted(world.deck)),
            tuple(tuple(world.piles[p]) for p in self.players),
            tuple(sorted(world.planted.items())),
        )
        if key not in self._replies:
            self._replies[key] = self._last_reply(world, player)
        return self._replies[key]

    def _last_reply(self, world: World, player: str) -> dict[str, int] | None:
        best = None
        for pair in pairs_of(world):
            probe = world.copy()
            for source in pair:
                probe.draw(player, source)
            if probe.deck:
                continue
            scores = self.best_final(probe, player)
            if best is None or margin(scores, player) > margin(best, player):
                best = scores
        return best

    def finish_values(
        self, worlds: Sequence[tuple[float, World]], mover: str, played: Finish | None, limit: int
    ) -> dict[Finish, float] | None:
        """Each candidate finish's expected margin over ``worlds`` (the draws in hand); every
        finish when the game ends, else the candidates; None when no reply can end the game."""
        total = sum(w for w, _ in worlds)
        if not worlds[0][1].deck:
            values: dict[Finish, float] = {}
            for weight, world in worlds:
                for finish, scores in self.final_table(world, mover).items():
                    values[finish] = values.get(finish, 0.0) + weight * margin(scores, mover) / total
            return values
        proxy: dict[Finish, float] = {}
        for weight, world in worlds:
            for finish, scores in self.final_table(world, mover).items():
                proxy[finish] = proxy.get(finish, 0.0) + weight / total * margin(scores, mover)
        cards = Cards(self.species)
        # equal means (many cells score alike) in a fixed order: the cards' and cells' lean codes
        chosen = sorted(proxy, key=lambda f: (-round(proxy[f], 6), cards.code(f[0]), cell_of(f[1]), cards.code(f[2])))[
            :limit
        ]
        for extra in (self.greedy(worlds[0][1], mover), played):
            if extra is not None and extra not in chosen:
                chosen.append(extra)
        values = {}
        for finish in chosen:
            value = 0.0
            for weight, world in worlds:
                probe = world.copy()
                probe.finish(mover, finish)
                reply = self.last_reply(probe, self.next_of(mover))
                if reply is None:
                    return None
                value += weight * margin(reply, mover) / total
            values[finish] = value
        return values

    def greedy(self, world: World, mover: str) -> Finish:
        """The greedy bot's finish (``engine/greedy.py``, a player, not a scoring): a candidate
        where the game goes on, since it weighs what the next player may take."""
        cards = Cards(self.species)
        arbs = []
        for p in self.players:
            arb = {cell_of(coord): cards.code(card) for coord, card in self.arbs[p].items()}
            if p in world.planted:
                card, coord = world.planted[p]
                arb[cell_of(coord)] = cards.code(card)
            arbs.append(arb)
        position = LeanPosition(
            [[cards.code(c) for c in world.hands[p]] for p in self.players],
            [cards.code(c) for c in world.deck],
            [[cards.code(c) for c in world.piles[p]] for p in self.players],
            arbs,
            self.players.index(mover),
        )
        card, cell, discard = choose_finish(position)
        return (cards.card(card), coord_of(cell), cards.card(discard))

    def pair_value(self, worlds: Sequence[tuple[float, World]], mover: str, pair: Pair) -> float | None:
        """The expectation over the draws' outcomes of the best finish once they are seen."""
        outcomes: dict[tuple, list[tuple[float, World]]] = {}
        for weight, world in worlds:
            probe = world.copy()
            seen = tuple(sorted(c for c in (probe.draw(mover, s) for s in pair) if c is not None))
            outcomes.setdefault(seen, []).append((weight, probe))
        value = 0.0
        total = sum(w for w, _ in worlds)
        for group in outcomes.values():
            values = self.finish_values(group, mover, None, self.candidates)
            if values is None:
                return None
            value += sum(w for w, _ in group) / total * max(values.values())
        return value


def margin(scores: Mapping[str, int], player: str) -> int:
    return scores[player] - max(s for p, s in scores.items() if p != player)


def completions(room: Mapping[str, int], rest: Sequence[Card], places: Mapping[Card, frozenset]) -> int:
    """The ways to fill the hands' unknown cards with ``rest``, each card in a hand it may be in."""
    players = [p for p, n in room.items() if n]
    counts = {tuple(room[p] for p in players): 1}
    for card in rest:
        nxt: dict[tuple, int] = {}
        for left, ways in counts.items():
            for i, player in enumerate(players):
                if left[i] and player in places[card]:
                    key = left[:i] + (left[i] - 1,) + left[i + 1 :]
                    nxt[key] = nxt.get(key, 0) + ways
        counts = nxt
    return counts.get(tuple(0 for _ in players), 0)


def worlds_of(situation, deals: int, rng: random.Random) -> list[tuple[float, World]]:
    """Every world the mover's knowledge allows (each deck in order; at three and four players the
    hands dealt ``deals`` times a deck), weighted so that every consistent world counts alike."""
    unseen: Unseen = situation.unseen
    found: list[tuple[float, World]] = []
    in_deck = [c for c in unseen.cards if None in unseen.places[c]]
    for deck in itertools.permutations(in_deck, unseen.deck_size):
        rest = [c for c in unseen.cards if c not in deck]
        ways = completions(unseen.room, rest, unseen.places)
        if not ways:
            continue
        hands_left = Unseen(unseen.room, 0, tuple(rest), {c: unseen.places[c] - {None} for c in rest})
        unique = hands_left.unique()
        for _ in range(1 if unique is not None else deals):
            dealt: Mapping[str | None, list[Card]] = (
                unique if unique is not None else {p: c for p, c in hands_left.deal(rng)[0].items()}
            )
            hands = {p: list(situation.known.get(p, ())) + list(dealt.get(p, [])) for p in situation.players}
            hands[situation.mover] = list(situation.hand)
            piles = {p: list(c) for p, c in situation.piles.items()}
            found.append((ways / (1 if unique is not None else deals), World(hands, list(deck), piles)))
    return found


def sampled_worlds(situation, count: int, rng: random.Random) -> list[tuple[float, World]]:
    """``count`` worlds drawn at random from those the mover's knowledge allows (each world as
    likely as the deals it stands for), equally weighted: the worlds of the lines the reference
    cannot afford in full."""
    every = worlds_of(situation, 1, rng)
    picked = rng.choices(every, weights=[w for w, _ in every], k=count)
    return [(1.0, world.copy()) for _, world in picked]


def empties(world: World, pair: Pair) -> bool:
    probe = world.copy()
    probe.hands["?"] = []
    for source in pair:
        probe.draw("?", source)
    return not probe.deck


def split_worlds(situation, ref: Reference, pair: Pair, deals: int, rng: random.Random):
    """For each content of the deck (a pair emptying it draws all of it), the worlds of every
    split of the other hands, one deal of each group of splits that score alike for any finish
    of the mover's hand after ``pair`` (analysis/splits.py, held to a brute force by
    tests/analysis/test_splits.py), weighted by the deals it stands for: the exact expectation.
    Where the groups are too many to count (splits.STATES_KEPT), ``deals`` random deals of the
    deck's hands instead (counted in the second value)."""
    # imported here: another tree's analysis (PYTHONPATH=/work/main) may have no splits.py; its
    # run reads the reference from --reference
    from arbo_notation.analysis.splits import last_turn_outcome, split_groups

    unseen: Unseen = situation.unseen
    mover = situation.mover
    seats = list(situation.players)
    in_deck = [c for c in unseen.cards if None in unseen.places[c]]
    piles = {p: list(c) for p, c in situation.piles.items()}
    from_piles = [piles[source][-1] for source in pair if source not in (None, DECK)]
    found: list[list[tuple[float, World]]] = []
    fallbacks = 0
    for deck in itertools.combinations(in_deck, unseen.deck_size):
        rest = [c for c in unseen.cards if c not in deck]
        hands_left = Unseen(unseen.room, 0, tuple(rest), {c: unseen.places[c] - {None} for c in rest})
        players = [p for p, n in hands_left.room.items() if n]

        def counts(player: str, species: str) -> bool:
            return ref.points(player, None).get(species, 0) > 0

        hand = [*situation.hand, *deck, *from_piles]
        outcome = last_turn_outcome(seats, mover, hand, situation.known, players, counts)
        groups = split_groups(hands_left, situation.known, outcome, REFERENCE_GROUPS)
        if groups is None:
            fallbacks += 1
            groups = [(dict(hands_left.deal(rng)[0]), 1) for _ in range(deals)]
            ways = completions(unseen.room, rest, unseen.places)
            groups = [(hands, ways / deals) for hands, _ in groups]
        worlds = []
        for dealt, ways in groups:
            hands = {p: list(situation.known.get(p, ())) + list(dealt.get(p, [])) for p in seats}
            hands[mover] = list(situation.hand)
            worlds.append((float(ways), World(hands, list(deck), {p: list(c) for p, c in piles.items()})))
        if worlds:
            found.append(worlds)
    return found, fallbacks


def exact_ending_value(situation, ref: Reference, pair: Pair, deals: int, rng: random.Random) -> tuple[float, int]:
    """The value of a pair of draws emptying the deck at three and four players: over every
    content of the deck, the finish best on average over every split of the other hands (the
    mover sees the deck's cards, not the hands), weighted by the deals."""
    decks, fallbacks = split_worlds(situation, ref, pair, deals, rng)
    value = total = 0.0
    for worlds in decks:
        drawn = []
        for weight, world in worlds:
            probe = world.copy()
            for source in pair:
                probe.draw(situation.mover, source)
            drawn.append((weight, probe))
        finishes = ref.finish_values(drawn, situation.mover, None, ref.candidates)
        assert finishes is not None  # the deck is empty: every finish valued
        weight = sum(w for w, _ in drawn)
        value += weight * max(finishes.values())
        total += weight
    return value / total, fallbacks


def played_pair(turn) -> Pair:
    words = [(d.owner or DECK) if isinstance(d, Draw) else None for d in turn.draws]
    return (words[0], words[1])


def key_of(pair: Pair) -> tuple:
    return tuple(sorted((pair[0] or "", pair[1] or "")))


def reference_loss(node, deals: int, candidates: int, going_on: int | None = None) -> float | None:
    """The exact loss of the turn leading to ``node`` (None when the reference cannot value it).
    With ``going_on`` at three and four players: the pairs emptying the deck and the finish
    after them over every split of the hands (:func:`exact_ending_value`), the pairs that keep
    the game going over ``going_on`` worlds drawn at random (0: ``deals`` deals per deck)."""
    turn = node.turn
    mover = turn.player
    situation = situation_at(node.parent, mover)
    assert situation is not None  # a simulated record knows every hand
    game = node.parent.position
    ref = Reference(game, situation.species, candidates)
    rng = random.Random(f"{turn.number}")
    many = len(situation.players) > 2 and going_on is not None
    worlds = sampled_worlds(situation, going_on, rng) if many and going_on else worlds_of(situation, deals, rng)
    values = {}
    for pair in pairs_of(worlds[0][1]):
        if many and empties(worlds[0][1], pair):
            value, sampled = exact_ending_value(situation, ref, pair, deals, rng)
            if sampled:  # said, since the reference is then not exact there
                print(f"turn {turn.number}, pair {pair}: {sampled} decks' hands dealt at random", file=sys.stderr)
        else:
            value = ref.pair_value(worlds, mover, pair)
        if value is not None:
            values[key_of(pair)] = value
    played = key_of(played_pair(turn))
    if played not in values:
        return None
    draw_loss = max(values.values()) - values[played]
    drawn: list[tuple[str | None, Card]] = []
    piles = {p: list(c) for p, c in situation.piles.items()}
    for d in turn.draws:
        if isinstance(d, Draw) and d.owner is None:
            drawn.append((None, d.card))
        elif isinstance(d, Draw):
            drawn.append((d.owner, piles[d.owner].pop()))
    after = situation.after_draws(drawn)
    finish = (turn.plant.card, turn.plant.coord, turn.discard)
    if many and after.unseen.deck_size == 0:
        # the deck's content seen: one deck, every split of the hands
        (after_worlds,), sampled = split_worlds(after, ref, (None, None), deals, rng)
        if sampled:
            print(f"turn {turn.number}, the finish: the hands dealt at random", file=sys.stderr)
    elif many and going_on:
        after_worlds = sampled_worlds(after, going_on, rng)
    else:
        after_worlds = worlds_of(after, deals, rng)
    finishes = ref.finish_values(after_worlds, mover, finish, candidates)
    if finishes is None:
        return None
    return max(0.0, draw_loss) + max(0.0, max(finishes.values()) - finishes[finish])


# -- the measurement ------------------------------------------------------------------------------


def game_of(players: int, index: int):
    """The ``index``-th simulated game: greedy bots, or greedy and random seats alternating."""
    bots = ["greedy"] if index % 2 == 0 else ["greedy", "random", "greedy", "random"][:players]
    record = simulate_game(PLAYERS[:players], f"endgame:{players}:{index}", bots)
    return arbo.replay(arbo.parse_games(format_game(record))[0])


def measured_turns(players: int, games: int, second: bool = True) -> list[tuple[int, int, str]]:
    """(players, game, which) for each measured turn: every last turn; at two players the
    second-to-last too (unless not ``second``)."""
    kinds = ["last", "second"] if players == 2 and second else ["last"]
    return [(players, index, kind) for index in range(games) for kind in kinds]


def node_of(players: int, index: int, kind: str):
    nodes = list(game_of(players, index).mainline())
    return nodes[-1] if kind == "last" else nodes[-2]


def reference_task(job: tuple[int, int, str, int, int, int | None]) -> float | None:
    players, index, kind, deals, candidates, going_on = job
    return reference_loss(node_of(players, index, kind), deals, candidates, going_on)


def analysis_task(job: tuple[int, int, str]) -> float:
    players, index, kind = job
    node = node_of(players, index, kind)
    tree = game_of(players, index)
    ((_, task),) = tasks(tree, turns=[node.number])
    return judge_turn(task).to_json()["loss"]


def table(rows: list[tuple[str, float, float]]) -> list[str]:
    """The issue's table: per column (a label), the reference's and the analysis's losses."""
    columns = sorted({label for label, _, _ in rows}, key=["2 last", "3-4 last", "2 second"].index)
    out = ["| | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]

    def line(name: str, cell) -> str:
        return f"| {name} | " + " | ".join(cell([(r, a) for lb, r, a in rows if lb == c]) for c in columns) + " |"

    out.append(line("turns valued", lambda xs: str(len(xs))))
    out.append(line("mean absolute error of the loss", lambda xs: f"{sum(abs(r - a) for r, a in xs) / len(xs):.2f}"))
    out.append(line("within half a point", lambda xs: str(sum(abs(r - a) <= 0.5 for r, a in xs))))
    out.append(
        line(
            "flagged although the exact loss is 0",
            lambda xs: f"{sum(a >= INACCURACY for r, a in xs if r < 0.005)} of {sum(r < 0.005 for r, _ in xs)}",
        )
    )
    out.append(
        line(
            "flagged although the exact loss is under 1.5",
            lambda xs: (
                f"{sum(a >= INACCURACY for r, a in xs if r < INACCURACY)} of {sum(r < INACCURACY for r, _ in xs)}"
            ),
        )
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="2-player games (default 60)")
    parser.add_argument("--games-more", type=int, default=20, help="3- and 4-player games each (default 20)")
    parser.add_argument("--deals", type=int, default=24, help="hands dealt per deck at 3 and 4 players")
    parser.add_argument(
        "--going-on",
        type=int,
        help="at 3 and 4 players: the ends over every split of the hands (exact), the pairs that keep the game going"
        " over this many random worlds (0: --deals deals per deck); without it, --deals deals per deck throughout",
    )
    parser.add_argument("--candidates", type=int, default=12, help="finishes valued when the game goes on")
    parser.add_argument("--reference", type=Path, help="a file keeping the reference's losses between runs")
    parser.add_argument("--last-only", action="store_true", help="the last turns only (not the second-to-last)")
    parser.add_argument(
        "--analysis-only",
        action="store_true",
        help="print the analysis's loss of each measured turn as JSON, no reference (to compare two trees)",
    )
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    second = not args.last_only
    jobs = (
        measured_turns(2, args.games, second) + measured_turns(3, args.games_more) + measured_turns(4, args.games_more)
    )
    if args.analysis_only:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            losses = pool.map(analysis_task, jobs)
            print(json.dumps({"/".join(map(str, job)): loss for job, loss in zip(jobs, losses, strict=True)}))
        return
    kept: dict[str, float | None] = {}
    if args.reference and args.reference.exists():
        kept = json.loads(args.reference.read_text())
    wanted = [job for job in jobs if "/".join(map(str, job)) not in kept]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        found = pool.map(reference_task, [(*job, args.deals, args.candidates, args.going_on) for job in wanted])
        for job, loss in zip(wanted, found, strict=True):
            kept["/".join(map(str, job))] = loss
            if args.reference:  # each turn kept as it comes: a stopped run goes on from there
                write_atomic(args.reference, json.dumps(kept, indent=0))  # a kill leaves the last whole
        print(f"reference: {len(wanted)} turns in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        start = time.perf_counter()
        valued = [job for job in jobs if kept["/".join(map(str, job))] is not None]
        losses = list(pool.map(analysis_task, valued))
        print(f"analysis: {len(valued)} turns in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    rows = []
    for job, loss in zip(valued, losses, strict=True):
        players, _, kind = job
        label = "2 second" if kind == "second" else "2 last" if players == 2 else "3-4 last"
        exact = kept["/".join(map(str, job))]
        assert exact is not None
        rows.append((label, exact, loss))
    import arbo_notation

    print(
        f"analysis of {Path(arbo_notation.__file__).parent.parent}; turns measured: {args.games} / {2 * args.games_more} / {args.games}"
    )
    print("\n".join(table(rows)))


if __name__ == "__main__":
    main()
