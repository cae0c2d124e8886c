"""The PettingZoo door (arbo_notation/doors/pettingzoo.py): PettingZoo's API test, masks, seeds and rewards."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from arbo_notation.doors.actions import ActionIds, door_config
from arbo_notation.doors.pettingzoo import ArboretumEnv, env
from arbo_notation.errors import ArboError

#: What PettingZoo's API test says of every environment whose observations carry an action mask,
#: as its own classic games do (it names those in a list of its own).
MASKED_ENV_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_s_api_test_passes(players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(players=players), num_cycles=1000, verbose_progress=False)
    assert {str(warning.message) for warning in caught} <= MASKED_ENV_WARNINGS


def play(table: ArboretumEnv, seed: int) -> list[int]:
    """A whole game of random legal actions; the actions played."""
    rng = np.random.default_rng(seed)
    played = []
    for agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        played.append(action)
        assert agent == table.agent_selection
        table.step(action)
    return played


def test_the_mask_is_the_legal_ids_of_the_agent_to_move_and_nothing_for_the_others():
    table = env(players=3)
    table.reset(seed=4)
    ids = ActionIds.of(door_config(3))
    for _ in range(40):
        agent = table.agent_selection
        observation = table.observe(agent)
        assert np.flatnonzero(observation["action_mask"]).tolist() == ids.legal_ids(table.game)
        assert all(not table.observe(other)["action_mask"].any() for other in table.agents if other != agent)
        table.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert table.action_space("player_0").n == ids.size == table.observe("player_0")["action_mask"].shape[0]


def test_the_same_seed_deals_the_same_games_and_another_another():
    first, again, other = env(), env(), env()
    first.reset(seed=7)
    again.reset(seed=7)
    other.reset(seed=8)
    assert first.game == again.game and first.game != other.game
    assert play(first, 1) == play(again, 1)
    first.reset()
    again.reset()
    assert first.game == again.game  # the generator seeded once goes on alike


def test_the_rewards_are_the_scores_at_the_end():
    table = env(players=2)
    table.reset(seed=3)
    observations = []
    rewards = {}
    for agent in table.agent_iter():
        observation, reward, terminated, _, info = table.last()
        observations.append(observation)
        if terminated:
            rewards[agent] = (reward, info)
            table.step(None)
        else:
            assert reward == 0.0
            table.step(int(np.flatnonzero(observation["action_mask"])[0]))
    outcome = table.game.outcome()
    assert outcome is not None and table.agents == []
    assert rewards == {
        name: (float(outcome.scores[name]), {"scores": dict(outcome.scores), "winners": list(outcome.winners)})
        for name in ("player_0", "player_1")
    }


def test_the_observation_is_the_agent_s_view():
    table = env(players=2)
    table.reset(seed=5)
    hand = table.game.hand("player_0").known
    observation = table.observe("player_0")["observation"]
    ids = table.ids
    start = 2 + 2 + 4  # seat, to_move, due
    assert np.flatnonzero(observation[start : start + 48]).tolist() == sorted(ids.card_id(card) for card in hand)
    assert not observation[start + 48 : start + 96].any()  # player_1's hand: nothing seen
    assert observation.dtype == np.float32 and 0 <= observation.min() and observation.max() <= 1


def test_an_illegal_action_is_refused_and_changes_nothing():
    table = env(players=2)
    table.reset(seed=2)
    before = table.game.position()
    with pytest.raises(ArboError, match="player_0's discard pile is empty"):
        table.step(1)
    with pytest.raises(ArboError, match="player_0 cannot discard"):
        table.step(table.ids.first_discard)
    with pytest.raises(ArboError, match="player_0 is to move: an action id is due, not None"):
        table.step(None)
    assert table.game.position() == before and table.agent_selection == "player_0"


def test_a_table_of_five_or_an_unknown_render_mode_is_refused():
    with pytest.raises(ArboError, match="a table has 2 to 4 players, not 5"):
        env(players=5)
    with pytest.raises(ArboError, match="the render mode is 'ansi' or none, not 'human'"):
        env(render_mode="human")
    table = env(render_mode="ansi")
    table.reset(seed=1)
    assert table.render() == str(table.game.position())
