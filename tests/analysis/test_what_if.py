"""What if: a turn tried in place of a recorded one, judged beside it in the same worlds."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbo_notation.analysis.game import tasks, tried_turn, what_if
from arbo_notation.analysis.turns import judge_turn
from arbo_notation.errors import ArboError, RuleError
from arbo_notation.game.tree import load_tree
from arbo_notation.notation.reading.reader import parse

BUDGET = 4
SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.fixture(scope="module")
def tree():
    path = SAMPLES / "two-player-omniscient.arb"
    return load_tree(parse(path.read_text(encoding="utf-8"), path.name)[0])


# Turn 5 of the sample is Ana's "d:Ma3 d:Ca2 Bs8@-2,0 /Ma3": tries with the same draws and with others.
TRIES = ["d d Ma3@0,1 /Bs8", "d:Ma3 d:Ca2 Ma5@0,1 /Ca6", "Ben d Bs8@-2,0 /Ma3", "Ana d Ma4@0,1 /Ca6"]


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
    turn = tried_turn(tree.node(5), "Ben d Bs8@-2,0 /Ma3")
    assert turn.notation() == "Ana Ben:Bs3 d:Ma3 Bs8@-2,0 /Ma3"
    assert turn.number == 5


@pytest.mark.parametrize(
    "text, error, words",
    [
        ("d d Ma3@-1,0 /Bs8", RuleError, "Ana cannot plant Ma3 at (-1,0): Ma2 already grows there"),
        ("d d Bs8@-2,0 /Oa5", RuleError, "Ana cannot discard Oa5: Oa is not a species in play"),
        ("Ben d d Bs8@-2,0 /Ma3", RuleError, "turn 5 is Ana's, not Ben's"),
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
