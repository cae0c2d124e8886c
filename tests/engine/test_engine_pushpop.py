"""Game.push_known_turn and Game.pop_known_turn: a whole turn played and taken back exactly, held
against copies (single actions: tests/engine/test_actions.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbo_notation.engine.actions import turn_actions
from arbo_notation.engine.cards import ORIGIN, Card, Coord
from arbo_notation.errors import RuleError
from arbo_notation.game.replay import game_for
from tests.engine.test_engine_fast import VIEWS, _mutated, game_with_tree, simulated, snapshot

C = Card.parse
DECK_DRAW = (None, None)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    bots=st.sampled_from(["random", "greedy"]),
    view=st.sampled_from(VIEWS),
)
def test_every_turn_pushed_then_popped_gives_back_each_position_and_the_turns(players, seed, bots, view):
    plain = simulated(players, seed, bots, view)
    game = game_for(plain.header)
    positions = [snapshot(game)]
    for turn in plain.turns:
        game.push_known_turn(turn)
        positions.append(snapshot(game))
    assert game.is_over and game.move_stack == tuple(a for t in plain.turns for a in turn_actions(t))
    reference = game_for(plain.header)
    assert reference.play_known_turns(plain.turns) == len(plain.turns)
    assert snapshot(reference) == positions[-1]
    for turn in reversed(plain.turns):
        positions.pop()
        assert game.pop_known_turn() == turn
        assert snapshot(game) == positions[-1]
    assert game.move_stack == ()


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    index=st.integers(0, 200),
    what=st.sampled_from(["number", "player", "card", "discard", "coord", "first-draw", "second-draw"]),
    value=st.integers(0, 1000),
    view=st.sampled_from(VIEWS),
    players=st.integers(2, 4),
)
def test_a_turn_pushed_is_legal_exactly_when_the_single_actions_play_it_and_an_illegal_one_changes_nothing(
    seed, index, what, value, view, players
):
    plain = simulated(players, seed, "random", view)
    at = index % len(plain.turns)
    game = game_for(plain.header)
    for turn in plain.turns[:at]:
        game.push_known_turn(turn)
    turn = _mutated(plain.turns[at], what, value, plain.header.players)
    trial = game.copy()
    try:
        trial.play_turn(turn)
        legal = True
    except RuleError:
        legal = False
    before = snapshot(game)
    if legal:
        game.push_known_turn(turn)
        assert snapshot(game) == snapshot(trial)
        assert game.pop_known_turn() == turn
    else:
        with pytest.raises(RuleError):
            game.push_known_turn(turn)
    assert snapshot(game) == before
    assert game.move_stack == tuple(a for t in plain.turns[:at] for a in turn_actions(t))


def test_a_copy_takes_back_its_own_turns_and_leaves_the_original_alone():
    game = game_with_tree()
    game.push_known_turn((2, "Ben", DECK_DRAW, ("Ana", None), C("Dw1"), ORIGIN, C("Dw2")))
    after_ben = snapshot(game)
    other = game.copy()
    other.push_known_turn((3, "Ana", DECK_DRAW, DECK_DRAW, C("Ca3"), Coord(1, 0), C("Ca4")))
    other.pop_known_turn()
    other.pop_known_turn()
    assert snapshot(game) == after_ben
    assert other.hand("Ben").known == tuple(C(f"Dw{v}") for v in range(1, 8))
    assert other.discard_pile("Ana") == (C("Ca2"),)
    assert other.current_player == "Ben"


def test_a_wrong_players_turn_says_whose_it_is_and_changes_nothing():
    game = game_with_tree()
    before = snapshot(game)
    with pytest.raises(RuleError, match="turn 2 is Ben's, not Ana's"):
        game.push_known_turn((2, "Ana", DECK_DRAW, DECK_DRAW, C("Ca3"), Coord(1, 0), C("Ca4")))
    assert snapshot(game) == before


def test_a_pop_with_nothing_pushed_says_so():
    with pytest.raises(RuleError, match="no turn to take back"):
        game_with_tree().pop_known_turn()


def test_push_known_turn_refuses_a_turn_begun_with_the_single_actions():
    game = game_with_tree()
    game.draw_from_deck()
    with pytest.raises(RuleError, match="middle of a turn"):
        game.push_known_turn((2, "Ben", DECK_DRAW, DECK_DRAW, C("Dw1"), ORIGIN, C("Dw2")))
    assert game.draws_taken == 1


def test_the_docstring_example_of_push_runs():
    import doctest

    import arbo_notation.engine.state as state

    failures, tried = doctest.testmod(state, verbose=False)
    assert tried >= 6 and failures == 0
