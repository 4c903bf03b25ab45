# SPDX-License-Identifier: MIT
"""MaskablePPO learns For Sale: after a small budget of training against random bots, its win
rate over fixed seeded games beats a random player's by a margin (examples/rl/train_for_sale.py).

Run it with ``pip install -e '.[rl-train]' && python -m pytest -m rl_train``."""
from __future__ import annotations

import importlib.util
import os
import random

import pytest

pytest.importorskip("sb3_contrib", reason="needs the rl-train extra: pip install -e '.[rl-train]'")
pytestmark = pytest.mark.rl_train       # torch and SB3 are not in `dev`: CI skips it

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "rl", "train_for_sale.py")


def _example():
    spec = importlib.util.spec_from_file_location("train_for_sale", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_maskable_ppo_beats_random_bots_at_for_sale():
    example = _example()
    rng = random.Random(0)

    def at_random(env, _obs):
        legal = env.action_masks().nonzero()[0]
        return int(legal[rng.randrange(len(legal))])

    model = example.train(timesteps=20_000, seed=0)

    def trained(env, obs):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    before = example.win_rate(at_random, games=200, seed=10_000)
    after = example.win_rate(trained, games=200, seed=10_000)
    assert after >= before + 0.10, (before, after)


def test_training_prints_its_progress_as_it_goes(capsys):
    example = _example()
    assert example.main(["--timesteps", "600", "--games", "4", "--every", "256"]) == 0
    lines = capsys.readouterr().out.splitlines()
    steps = [line for line in lines if line.startswith("steps ")]
    assert [line.split()[1] for line in steps] == ["256/600", "512/600", "768/600", "1024/600"]  # 512 a rollout
    assert all(" games " in line and " win rate (last " in line for line in steps)
    assert lines[0].startswith("training MaskablePPO") and lines[-1].startswith("win rate over 4 games")
    assert sum(line.startswith("evaluating ") for line in lines) == 8
