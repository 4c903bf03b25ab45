# SPDX-License-Identifier: MIT
"""The parallel PettingZoo environment passes PettingZoo's ``parallel_api_test`` and the
Gymnasium single-agent one Gymnasium's ``check_env`` (and SB3's, with the rl-train extra), for
every shipped game and the examples; a simultaneous decision is one parallel step; the bots play
the other seats."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import parallel_api_test, parallel_seed_test  # noqa: E402

from rulekit.games import load_game  # noqa: E402
from rulekit.rl.gym_env import GameEnv  # noqa: E402
from rulekit.rl.pettingzoo import parallel_env  # noqa: E402

GAMES = ["batavia", "goa", "examples/for-sale", "examples/modern-art"]


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return load_game(request.param)


def test_parallel_api_test(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)      # the dict observation with a mask, on purpose
        parallel_api_test(parallel_env(game, seed=3), num_cycles=1000)


def test_parallel_seeded_runs_are_identical(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        parallel_seed_test(lambda: parallel_env(game, seed=1), num_cycles=30)


def test_gymnasium_check_env(game):
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a warning of the checker is a failure here
        check_env(GameEnv(game, seed=0, bots="random"), skip_render_check=True)


@pytest.mark.rl_train
def test_sb3_check_env(game):
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker",
                                      reason="needs the rl-train extra: pip install -e '.[rl-train]'")
    env_checker.check_env(GameEnv(game, seed=0, bots="random"))


def test_a_simultaneous_decision_is_one_parallel_step():
    e = parallel_env("examples/for-sale", players=4, seed=0)
    obs, infos = e.reset()
    sales = 0
    rng = np.random.default_rng(0)
    while e.agents:
        acting = infos["p1"]["to_act"]
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in acting}
        for a in e.agents:
            assert obs[a]["action_mask"].any() == (a in acting)
        if len(acting) == 4:
            sales += 1
            before = len(e.state_.actions)
            obs, rewards, terms, truncs, infos = e.step(actions)
            assert len(e.state_.actions) == before + 4
        else:
            obs, rewards, terms, truncs, infos = e.step(actions)
    assert sales >= 5 and all(terms.values()) and sorted(rewards.values())[-1] == 1


def test_an_acting_agent_without_an_action_loses_in_parallel():
    e = parallel_env("batavia", seed=0)
    obs, infos = e.reset()
    agent = infos["p1"]["to_act"][0]
    _obs, rewards, terms, _truncs, infos = e.step({})
    assert rewards[agent] == -1 and all(terms.values()) and e.agents == []


def test_the_gym_env_plays_whole_games_against_named_bots():
    e = GameEnv("examples/for-sale", players=3, seat="p2", bots=["greedy", "random"], seed=5)
    rng = np.random.default_rng(0)
    results = []
    for _ in range(3):
        obs, info = e.reset()
        done = False
        while not done:
            assert e.observation_space.contains(obs)
            legal = np.flatnonzero(e.action_masks())
            assert [e.action_notations[i] for i in legal] == e.play.legal_notations(1)
            obs, reward, done, truncated, info = e.step(int(rng.choice(legal)))
        results.append(reward)
    assert set(results) <= {-1.0, 1.0} and e.play.state.over


def test_the_gym_env_refuses_what_it_cannot_use():
    with pytest.raises(ValueError, match="seat must be one of p1..p4"):
        GameEnv("examples/for-sale", players=4, seat="p9")
    with pytest.raises(ValueError, match="3 bots are needed"):
        GameEnv("examples/for-sale", players=4, bots=["random"])
    e = GameEnv("examples/for-sale", seed=0)
    e.reset()
    illegal = int(np.flatnonzero(~e.action_masks())[0])
    _obs, reward, done, _trunc, info = e.step(illegal)
    assert reward == -1 and done and info["illegal_action"] == illegal
