"""Plain-text pictures of a table: arboretum grids, hands (hidden cards marked), piles and deck."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.state import Game

if TYPE_CHECKING:
    from arbo_notation.game.knowledge import Knowledge

#: How a right to score is marked: certain, possible, impossible.
RIGHT_MARKS = {"certain": "\u2713", "possible": "?", "impossible": "\u2717"}

HIDDEN_CARD = "??"
EMPTY_CELL = "."


def grid_lines(arboretum: Mapping[Coord, Card], highlight: frozenset[Coord] = frozenset()) -> list[str]:
    """An arboretum as rows of cells, y going up, with x along the top and y down the left.

    Cells in ``highlight`` are wrapped in brackets (a scored path, say).
    """
    if not arboretum:
        return ["(no trees)"]
    xs = [c.x for c in arboretum]
    ys = [c.y for c in arboretum]
    width = max(5, max(len(str(card)) for card in arboretum.values()) + 2)
    label = max(len(str(y)) for y in ys) + 1
    header = " " * label + "".join(f"{x:^{width}}" for x in range(min(xs), max(xs) + 1))
    lines = [header.rstrip()]
    for y in range(max(ys), min(ys) - 1, -1):
        cells = []
        for x in range(min(xs), max(xs) + 1):
            card = arboretum.get(Coord(x, y))
            text = EMPTY_CELL if card is None else str(card)
            if card is not None and Coord(x, y) in highlight:
                text = f"[{text}]"
            cells.append(f"{text:^{width}}")
        lines.append((f"{y:>{label - 1}} " + "".join(cells)).rstrip())
    return lines


def hand_text(game: Game, player: str, *, hide: bool = False) -> str:
    """A hand as card codes, hidden cards as '??'; ``hide`` shows every card as hidden."""
    view = game.hand(player)
    if hide:
        return " ".join([HIDDEN_CARD] * len(view)) or "(empty)"
    cards = [str(c) for c in view.known] + [HIDDEN_CARD] * view.hidden
    return " ".join(cards) or "(empty)"


def pile_text(game: Game, player: str) -> str:
    pile = game.discard_pile(player)
    if not pile:
        return "(empty)"
    return " ".join(str(c) for c in pile) + f"  (top {pile[-1]}, {len(pile)} card{'s' if len(pile) != 1 else ''})"


def render_game(
    game: Game,
    *,
    title: str | None = None,
    hidden_hands: frozenset[str] = frozenset(),
    hands: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The whole table as text: whose turn, deck, then each player's arboretum, hand and pile.

    ``hands`` gives each hand as a point of view knows it (``Knowledge``'s hands shown), in place
    of the table's own knowledge."""
    out: list[str] = []
    if title:
        out += [title, ""]
    if game.is_over:
        status = "game over"
    else:
        status = f"turn {game.turn_number}: {game.current_player} to {game.phase.value}"
    out.append(f"{status}; deck: {game.deck_size} card{'s' if game.deck_size != 1 else ''}")
    for player in game.players:
        trees = len(game.arboretum(player))
        out += ["", f"{player} ({trees} tree{'s' if trees != 1 else ''})"]
        out += ["  " + line for line in grid_lines(game.arboretum(player))]
        if hands is not None:
            out.append(f"  hand:    {' '.join(hands[player]) or '(empty)'}")
        else:
            out.append(f"  hand:    {hand_text(game, player, hide=player in hidden_hands)}")
        out.append(f"  discard: {pile_text(game, player)}")
    return "\n".join(out)


def knowledge_lines(known: "Knowledge") -> list[str]:
    """What a view knows, as text: the unseen cards by species and each player's right to score
    (✓ certain, ? possible, ✗ impossible) with the hand sum's range."""
    hidden = sum(hand.unknown for hand in known.hands.values())
    lines = [f"what {known.view} knows: deck {known.deck_size}, unseen {len(known.unseen)} ({hidden} in hands)"]
    unseen = known.unseen_by_species()
    species = sorted(
        {code for (_, code) in known.rights}, key=lambda c: list(known.rights).index((known.players[0], c))
    )
    values_width = max([len(" ".join(str(c.value) for c in unseen.get(code, ()))) for code in species] + [6])
    lines.append("  " + f"{'':4}{'unseen':<{values_width}}" + "".join(f"  {p[:8]:<8}" for p in known.players))
    for code in species:
        values = " ".join(str(card.value) for card in unseen.get(code, ())) or "-"
        cells = ""
        for player in known.players:
            right = known.right(player, code)
            span = str(right.low) if right.low == right.high else f"{right.low}-{right.high}"
            cells += f"  {RIGHT_MARKS[right.status.value] + ' ' + span:<8}"
        lines.append(f"  {code:<4}{values:<{values_width}}{cells}".rstrip())
    return lines
