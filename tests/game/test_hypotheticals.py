"""Hypotheticals: an unseen card supposed in a hand, and what the view would then know."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError
from arbo_notation.game.knowledge import Certainty, Hypothesis, View, suppose
from arbo_notation.game.tree import load_tree
from arbo_notation.notation.reading.reader import parse

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.fixture(scope="module")
def cleo():
    """Cleo's seat after turn 20 of the four-player sample: Ben holds Ca2 Cb1 Cb3 Tp2 and three
    unknown cards, Dev Rp3 and six unknown ones, Ana seven unknown ones."""
    path = SAMPLES / "four-players.arb"
    tree = load_tree(parse(path.read_text(encoding="utf-8"), path.name)[0])
    return tree.line_nodes(())[20].knowledge(View.of_seat("Cleo"))


def test_a_supposed_card_is_known_in_its_hand_and_nowhere_else(cleo):
    card = Card.parse("Bs2")
    assert cleo.places[card] == frozenset({"Ana", "Ben", "Dev", None})
    known = suppose(cleo, [Hypothesis("Dev", card)])
    dev = known.hands["Dev"]
    assert [str(c) for c in dev.known] == ["Bs2", "Rp3"]
    assert dev.unknown == 5
    assert card not in known.unseen and card not in known.places
    assert known.unseen == cleo.unseen - {card}
    assert {c: p for c, p in known.places.items()} == {c: p for c, p in cleo.places.items() if c != card}
    assert {p: known.hands[p] for p in ("Ana", "Ben", "Cleo")} == {p: cleo.hands[p] for p in ("Ana", "Ben", "Cleo")}
    assert known.deck_size == cleo.deck_size and known.view == cleo.view
    # Dev now holds at least 2 in Bs: the right's range follows
    assert (cleo.right("Dev", "Bs").low, known.right("Dev", "Bs").low) == (0, 2)


def test_the_last_unknown_card_of_a_hand_takes_the_hand_out_of_every_place(cleo):
    cards = [Card.parse(c) for c in ("Bs2", "Bs4", "Bs6")]  # the unseen Bs cards; Ben has three unknown cards
    known = suppose(cleo, [Hypothesis("Ben", c) for c in cards])
    assert known.hands["Ben"].unknown == 0
    assert [str(c) for c in known.hands["Ben"].known] == ["Bs2", "Bs4", "Bs6", "Ca2", "Cb1", "Cb3", "Tp2"]
    assert all("Ben" not in where for where in known.places.values())
    assert len(known.unseen) == len(cleo.unseen) - 3
    # Ben's Bs sum is now 12 exactly: no unknown card can add to it
    right = known.right("Ben", "Bs")
    assert (right.low, right.high) == (12, 12) and right.status is Certainty.CERTAIN


@pytest.mark.parametrize(
    ("hypotheses", "message"),
    [
        ([("Dev", "Rp3")], "Rp3 cannot be supposed in Dev's hand: it is known in Dev's hand as Cleo's seat knows"),
        ([("Ana", "Ja8")], "Ja8 cannot be supposed in Ana's hand: it is known in Cleo's hand as Cleo's seat knows"),
        ([("Cleo", "Bs2")], "Cleo's hand holds no card unknown to Cleo's seat: nothing to suppose there"),
        (
            [("Ben", "Bs2"), ("Ben", "Bs4"), ("Ben", "Bs6"), ("Ben", "Ca6")],
            "Ben's hand holds no card unknown to Cleo's seat: nothing to suppose there",
        ),
        ([("Dev", "Bs2"), ("Ana", "Bs2")], "Bs2 cannot be supposed in Ana's hand: it is supposed in Dev's"),
        ([("Eve", "Bs2")], "Eve is not a player of this game (Ana, Ben, Cleo, Dev)"),
    ],
)
def test_an_impossible_hypothetical_is_refused_saying_why(cleo, hypotheses, message):
    with pytest.raises(ArboError) as error:
        suppose(cleo, [Hypothesis(player, Card.parse(card)) for player, card in hypotheses])
    assert str(error.value).startswith(message)


def test_the_same_hypothetical_twice_is_supposed_once(cleo):
    # issue 45, point 19: the second was refused as "known in Dev's hand", which it was only supposed
    once = [Hypothesis("Dev", Card.parse("Bs2"))]
    assert suppose(cleo, once * 2) == suppose(cleo, once)


def test_no_hypothetical_changes_nothing(cleo):
    assert suppose(cleo, []) == cleo
    assert str(Hypothesis("Dev", Card.parse("Bs2"))) == "Bs2 in Dev's hand"
