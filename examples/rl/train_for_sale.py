#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Train MaskablePPO (sb3-contrib) on For Sale against random bots, then compare its win rate
with a random player's over the same seeded games.

    python examples/rl/train_for_sale.py [--timesteps 30000] [--games 200] [--seed 0]

Needs the ``rl-train`` extra (``pip install -e '.[rl-train]'``). The learner plays p1 of a
4-player game through ``rulekit.tools.gym_env.GameEnv``: fixed action ids (``bid 3`` is always
the same id), normalised observations, ``action_masks()`` for MaskablePPO.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

GAME = os.path.join(os.path.dirname(__file__), "..", "for-sale")


def make_env(seed: int):
    from rulekit.tools.gym_env import GameEnv
    return GameEnv(GAME, players=4, seat="p1", bots="random", seed=seed)


def train(timesteps: int, seed: int):
    """A MaskablePPO policy trained for ``timesteps`` steps (seeded: the same run each time)."""
    from sb3_contrib import MaskablePPO
    model = MaskablePPO("MlpPolicy", make_env(seed), seed=seed, n_steps=512, batch_size=128, learning_rate=1e-3,
                        gamma=1.0, ent_coef=0.01, verbose=0, device="cpu")
    model.learn(total_timesteps=timesteps)
    return model


def win_rate(choose, games: int, seed: int) -> float:
    """The learner's share of wins over ``games`` seeded games (``choose(env, obs) -> id``)."""
    env = make_env(seed)
    wins = 0
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        done = False
        while not done:
            obs, reward, done, _truncated, _info = env.step(choose(env, obs))
        wins += reward > 0
    return wins / games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=30000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    def at_random(env, _obs):
        legal = env.action_masks().nonzero()[0]
        return int(legal[rng.randrange(len(legal))])

    model = train(args.timesteps, args.seed)

    def trained(env, obs):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    evaluation_seed = 10_000 + args.seed          # games the policy never trained on
    before = win_rate(at_random, args.games, evaluation_seed)
    after = win_rate(trained, args.games, evaluation_seed)
    print(f"win rate over {args.games} games against 3 random bots: random {before:.2f}, "
          f"MaskablePPO after {args.timesteps} steps {after:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
