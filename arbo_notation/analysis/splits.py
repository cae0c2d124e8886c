"""The splits of the unseen cards among the other hands, grouped by what the game's end depends on,
each group counted: the last turn's expectation over every deal, exact, at a few deals' cost.

When the deck's content is fixed (the last turn), the final scores depend on the other hands only
through the rights to score (RULES.md): for each species, each seat's sum of its cards, where an
8 counts 0 if an opponent holds the 1. That sum is fixed by three things a seat holds of the
species: the sum of its cards other than the 8, whether it holds the 8, whether it holds the 1.
Deals equal in these, seat by seat and species by species, score alike, so one deal of each group
is played, weighted by how many deals the group stands for.

The groups are counted species by species (a dynamic programme): each species' cards are dealt
alone first (each to a hand it may be in), grouped by how many each hand takes and what they come
to; then joined to the states, a state being the room left in each hand and what the species so
far come to; no deal is listed one by one. When the groups outgrow ``STATES_KEPT`` (many
species, four players) they are not listed: the caller samples deals as before.
"""

from __future__ import annotations

import itertools
from typing import Callable, Hashable, Mapping, Sequence

from arbo_notation.engine.cards import MAX_VALUE, MIN_VALUE, Card
from arbo_notation.analysis.sampling import Unseen

#: The most groups the count keeps before it gives up (each a few tuples, and each group is a world
#: to value; the last turn at three players has some hundreds, at four some thousands).
STATES_KEPT = 20_000

#: What a seat holds of one species, as far as the rights go: (sum of the cards but the 8,
#: holds the 8, holds the 1).
Holding = tuple[int, bool, bool]

_NONE: Holding = (0, False, False)

#: What a species' holdings (one per hand with unseen cards, in the room's order) come to for
#: the scores: deals whose species all come to the same are one group.
Outcome = Callable[[str, tuple[Holding, ...]], Hashable]


def _identity(species: str, held: tuple[Holding, ...]) -> Hashable:
    return held


def _add(holding: Holding, card: Card) -> Holding:
    total, eight, one = holding
    if card.value == MAX_VALUE:
        return (total, True, one)
    return (total + card.value, eight, one or card.value == MIN_VALUE)


def split_groups(
    unseen: Unseen,
    known: Mapping[str, tuple[Card, ...]] = {},
    outcome: Outcome = _identity,
    most: int = STATES_KEPT,
) -> list[tuple[dict[str, list[Card]], int]] | None:
    """Every group of deals of the unseen cards into the hands (the deck empty or fixed: ``unseen``
    holds no deck), as one deal of the group (each hand's unknown cards) and the number of deals
    it stands for; None when the groups are more than ``most``. ``known``: the cards known to be
    in each hand, which count in its holdings. ``outcome``: what a species' holdings come to (by
    default the holdings themselves; :func:`last_turn_outcome` groups by the rights that can
    count)."""
    players = [p for p, n in unseen.room.items() if n]
    species = sorted({c.species for c in unseen.cards})
    # state: (room left per player, what each species done comes to) -> (deals, one deal: for
    # each species done, the player index of each of its cards)
    Key = tuple[tuple[int, ...], tuple[Hashable, ...]]
    states: dict[Key, tuple[int, tuple[int, ...]]] = {(tuple(unseen.room[p] for p in players), ()): (1, ())}
    order: list[Card] = []
    for s in species:
        cards = [c for c in unseen.cards if c.species == s]
        order += cards
        # the species alone first (each of its dealings: the cards each hand takes, what they
        # come to), then joined to the states: a state meets each outcome once, not each holding
        dealings = _species_dealings(cards, players, unseen, known, s, outcome)
        joined: dict[Key, tuple[int, tuple[int, ...]]] = {}
        for (room, done), (ways, deal) in states.items():
            for (taken, came_to), (species_ways, species_deal) in dealings.items():
                if any(t > r for t, r in zip(taken, room, strict=True)):
                    continue
                key = (tuple(r - t for r, t in zip(room, taken, strict=True)), done + (came_to,))
                found = joined.get(key)
                if found is None:
                    joined[key] = (ways * species_ways, deal + species_deal)
                else:
                    joined[key] = (found[0] + ways * species_ways, found[1])
        states = joined
        if len(states) > most:
            return None
    groups = []
    for (room, _), (ways, deal) in states.items():
        if any(room):
            continue  # a hand not filled: no such deal
        hands: dict[str, list[Card]] = {p: [] for p in unseen.room}
        for card, i in zip(order, deal, strict=True):
            hands[players[i]].append(card)
        groups.append((hands, ways))
    return groups


def _species_dealings(
    cards: list[Card],
    players: list[str],
    unseen: Unseen,
    known: Mapping[str, tuple[Card, ...]],
    species: str,
    outcome: Outcome,
) -> dict[tuple[tuple[int, ...], Hashable], tuple[int, tuple[int, ...]]]:
    """One species' cards dealt to the hands (each to a hand it may be in), grouped by the number
    each hand takes and what the holdings come to: the deals of each group and one of them (the
    player index of each card)."""
    start = tuple(_holding_of(known.get(p, ()), species) for p in players)
    none = tuple(0 for _ in players)
    inner: dict[tuple[tuple[int, ...], tuple[Holding, ...]], tuple[int, tuple[int, ...]]] = {(none, start): (1, ())}
    for card in cards:
        nxt: dict[tuple[tuple[int, ...], tuple[Holding, ...]], tuple[int, tuple[int, ...]]] = {}
        for (taken, held), (ways, deal) in inner.items():
            for i, player in enumerate(players):
                if player not in unseen.places[card] or taken[i] == unseen.room[player]:
                    continue
                key = (
                    taken[:i] + (taken[i] + 1,) + taken[i + 1 :],
                    held[:i] + (_add(held[i], card),) + held[i + 1 :],
                )
                found = nxt.get(key)
                nxt[key] = (ways, deal + (i,)) if found is None else (found[0] + ways, found[1])
        inner = nxt
    dealings: dict[tuple[tuple[int, ...], Hashable], tuple[int, tuple[int, ...]]] = {}
    for (taken, held), (ways, deal) in inner.items():
        came_to = (taken, outcome(species, held))
        found = dealings.get(came_to)
        dealings[came_to] = (ways, deal) if found is None else (found[0] + ways, found[1])
    return dealings


def _holding_of(cards: tuple[Card, ...], species: str) -> Holding:
    holding = _NONE
    for card in cards:
        if card.species == species:
            holding = _add(holding, card)
    return holding


def _sums(holdings: Sequence[Holding]) -> list[int]:
    """Each seat's sum of a species (RULES.md: an 8 counts 0 if an opponent holds the 1)."""
    ones = [one for _, _, one in holdings]
    return [
        total + (MAX_VALUE if eight and not any(o for j, o in enumerate(ones) if j != i) else 0)
        for i, (total, eight, _) in enumerate(holdings)
    ]


def _rights(holdings: Sequence[Holding]) -> tuple[bool, ...]:
    if not any(total or eight for total, eight, _ in holdings):
        return (True,) * len(holdings)  # no one holds the species: everyone may score it
    sums = _sums(holdings)
    top = max(sums)
    return tuple(x == top for x in sums)


def last_turn_outcome(
    seats: Sequence[str],
    mover: str,
    hand: Sequence[Card],
    fixed: Mapping[str, Sequence[Card]],
    players: Sequence[str],
    counts: Callable[[str, str], bool],
) -> Outcome:
    """What a species' holdings come to at a turn that ends the game with ``mover``'s ``hand``
    (two of its cards to leave it, planted and discarded): for each set of the species' cards the
    mover may keep, the rights of the seats where they can count (``counts(seat, species)``:
    the other seats with points in the species, the mover always). ``fixed``: the known cards
    of each other hand; ``players``: the hands with unseen cards, in the room's order."""
    mover_at = seats.index(mover)
    index = {p: seats.index(p) for p in players}
    kept_sets: dict[str, list[Holding]] = {}
    base: dict[str, list[Holding]] = {}
    mask: dict[str, tuple[int, ...]] = {}

    def prepare(species: str) -> None:
        own = [c for c in hand if c.species == species]
        options = set()
        for leaving in range(min(2, len(own)) + 1):
            for gone in itertools.combinations(own, leaving):
                options.add(_holding_of(tuple(c for c in own if c not in gone), species))
        kept_sets[species] = sorted(options)
        base[species] = [_holding_of(tuple(fixed.get(p, ())), species) for p in seats]
        mask[species] = tuple(i for i, p in enumerate(seats) if p == mover or counts(p, species))

    # the count meets the same holdings in many of its states: each is valued once
    found_before: dict[tuple[str, tuple[Holding, ...]], Hashable] = {}

    def outcome(species: str, held: tuple[Holding, ...]) -> Hashable:
        key = (species, held)
        if key not in found_before:
            found_before[key] = rights_kept(species, held)
        return found_before[key]

    def rights_kept(species: str, held: tuple[Holding, ...]) -> Hashable:
        if species not in kept_sets:
            prepare(species)
        holdings = list(base[species])
        for player, holding in zip(players, held, strict=True):
            holdings[index[player]] = holding  # the known cards counted in already
        found = []
        for kept in kept_sets[species]:
            holdings[mover_at] = kept
            rights = _rights(holdings)
            found.append(tuple(rights[i] for i in mask[species]))
        return tuple(found)

    return outcome


__all__ = ["STATES_KEPT", "last_turn_outcome", "split_groups"]
