"""What if: a turn tried in place of a recorded one, judged beside it in the same worlds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arbo_notation.analysis.game import TryMismatch, situation_at, tasks, tried_turn, what_if
from arbo_notation.analysis.turns import judge_turn
from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError, RuleError
from arbo_notation.game.knowledge import Hypothesis
from arbo_notation.game.tree import load_tree
from arbo_notation.notation.reading.reader import parse

BUDGET = 4
SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.fixture(scope="module")
def tree():
    path = SAMPLES / "two-player-omniscient.arb"
    return load_tree(parse(path.read_text(encoding="utf-8"), path.name)[0])


# Turn 5 of the sample is Ana's "d:Ma3 d:Ca2 Bs8@-2,0 /Ma3": tries with the same draws and with others.
TRIES = ["d d Ma3@0,1 /Bs8", "d:Ma3 d:Ca2 Ma5@0,1 /Ca6", "Ana Ben d Bs8@-2,0 /Ma3", "Ana d Ma4@0,1 /Ca6"]


@pytest.mark.parametrize("text", TRIES)
def test_the_played_turn_is_judged_as_analyse_judges_it_at_the_same_seed_and_budget(tree, text):
    [(_, task)] = tasks(tree, budget=BUDGET, seed="7", turns=[5])
    judgement = what_if(tree.node(5), text, budget=BUDGET, seed="7")
    assert judgement.played == judge_turn(task)


def test_the_played_turn_tried_again_is_worth_exactly_what_it_was(tree):
    judgement = what_if(tree.node(5), "d d Bs8@-2,0 /Ma3", budget=BUDGET)
    assert judgement.tried.played_value == judgement.played.played_value
    assert judgement.tried.loss == judgement.played.loss
    assert (judgement.difference, judgement.better) == (0.0, None)


@pytest.mark.parametrize("text", TRIES)
def test_the_figures_of_a_try_add_up(tree, text):
    judgement = what_if(tree.node(5), text, budget=BUDGET)
    tried, played = judgement.tried, judgement.played
    assert tried.best_value == pytest.approx(tried.played_value + tried.loss)
    assert tried.loss >= 0
    # the best of both judgements is at least the best the played turn's judgement found
    assert tried.best_value >= played.best_value - 1e-9
    assert judgement.difference == round(round(tried.played_value, 2) - round(played.played_value, 2), 2)
    assert judgement.better == ("tried" if judgement.difference > 0 else "played" if judgement.difference < 0 else None)


def test_the_tried_turn_names_the_cards_its_draws_take(tree):
    turn = tried_turn(tree.node(5), "Ana Ben d Bs8@-2,0 /Ma3")
    assert turn.notation() == "Ana Ben:Bs3 d:Ma3 Bs8@-2,0 /Ma3"
    assert turn.number == 5


@pytest.mark.parametrize(
    "text, error, words",
    [
        ("d d Ma3@-1,0 /Bs8", RuleError, "Ana cannot plant Ma3 at (-1,0): Ma2 already grows there"),
        ("d d Bs8@-2,0 /Oa5", RuleError, "Ana cannot discard Oa5: Oa is not a species in play"),
        ("Ben d d Bs8@-2,0 /Ma3", TryMismatch, "turn 5 is Ana's, not Ben's"),
        ("99. Ana d d Bs8@-2,0 /Ma3", TryMismatch, "the try is numbered 99, but it is tried in place of turn 5"),
        ("d d Bs8@-2,0 /Ma3 !", TryMismatch, "a try carries no glyph (!): the engine judges it"),
        ("5. d d Bs8@-2,0 /Ma3 ?", TryMismatch, "a try carries no glyph (?): the engine judges it"),
        ("Ben d Bs8@-2,0 /Ma3", TryMismatch, "write 'Ana Ben d Bs8@-2,0 /Ma3' for that, or a turn of Ana's"),
        ("d d Bs8@-2,0", ArboError, ""),
    ],
)
def test_an_illegal_try_says_why_in_a_players_words(tree, text, error, words):
    with pytest.raises(error) as raised:
        what_if(tree.node(5), text, budget=BUDGET)
    assert words in str(raised.value)


def test_the_setup_has_no_turn_to_try(tree):
    with pytest.raises(ArboError, match="the setup is no turn"):
        what_if(tree.root, "d d Ma3@0,1 /Bs8", budget=BUDGET)


# -- hypotheticals: a card supposed in Ben's hand ------------------------------------------------

BS1_IN_BEN = (Hypothesis("Ben", Card.parse("Bs1")),)  # Ana holds Bs8: Ben's Bs1 would cancel it


def test_under_a_hypothetical_every_world_deals_the_card_to_its_hand(tree):
    situation = situation_at(tree.node(5).parent, "Ana", BS1_IN_BEN)
    assert situation is not None
    card = Card.parse("Bs1")
    assert situation.known["Ben"] == (card,) and situation.unseen.room["Ben"] == 6
    assert card not in situation.unseen.cards
    rng = random.Random(3)
    for _ in range(50):
        hands, deck = situation.unseen.deal(rng)
        assert card not in deck and len(hands["Ben"]) == 6 and card not in hands["Ben"]
    without = situation_at(tree.node(5).parent, "Ana")
    assert without is not None and card in without.unseen.cards


def test_a_hypothetical_changes_the_judgement_and_the_same_one_gives_the_same(tree):
    plain = what_if(tree.node(5), TRIES[0], budget=BUDGET, seed="7")
    supposed = what_if(tree.node(5), TRIES[0], budget=BUDGET, seed="7", hypotheses=BS1_IN_BEN)
    again = what_if(tree.node(5), TRIES[0], budget=BUDGET, seed="7", hypotheses=BS1_IN_BEN)
    assert supposed == again
    assert supposed.played.played_value != plain.played.played_value


def test_a_card_the_turn_draws_from_the_deck_cannot_be_supposed_elsewhere(tree):
    # turn 5 is Ana's "d:Ma3 d:Ca2 Bs8@-2,0 /Ma3": Ca2 comes from the deck
    with pytest.raises(ArboError, match="Ca2 cannot be in Ben's hand: Ana draws it from the deck at turn 5"):
        what_if(tree.node(5), TRIES[0], budget=BUDGET, hypotheses=(Hypothesis("Ben", Card.parse("Ca2")),))
