#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Train MaskablePPO (sb3-contrib) on For Sale against random bots, then compare its win rate
with a random player's over the same seeded games.

    python examples/rl/train_for_sale.py [--timesteps 30000] [--games 200] [--seed 0] [--every 2048] [--verbose]

Needs the ``rl-train`` extra (``pip install -e '.[rl-train]'``; without it the script says so and
exits 2). The learner plays p1 of a 4-player game through ``rulekit.rl.gym_env.GameEnv``: fixed
action ids (``bid 3`` is always the same id), normalised observations, ``action_masks()`` for
MaskablePPO. While it trains it prints a line every ``--every`` steps: the steps done, the games
finished and the win rate of the last 100 of them, and the time; ``--verbose`` adds SB3's own
table (``verbose=1``). The evaluation prints as it goes too.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

GAME = os.path.join(os.path.dirname(__file__), "..", "for-sale")


def make_env(seed: int):
    from rulekit.rl.gym_env import GameEnv
    return GameEnv(GAME, players=4, seat="p1", bots="random", seed=seed)


def train(timesteps: int, seed: int, every: int = 0, verbose: int = 0, out=None):
    """A MaskablePPO policy trained for ``timesteps`` steps (seeded: the same run each time),
    printing progress to ``out`` every ``every`` steps (0: silent)."""
    from sb3_contrib import MaskablePPO
    model = MaskablePPO("MlpPolicy", make_env(seed), seed=seed, n_steps=512, batch_size=128, learning_rate=1e-3,
                        gamma=1.0, ent_coef=0.01, verbose=verbose, device="cpu")
    model.learn(total_timesteps=timesteps, callback=progress(every, timesteps, out or sys.stdout) if every else None)
    return model


def progress(every: int, total: int, out):
    """An SB3 callback printing ``steps N/TOTAL  games G  win rate (last 100) R  Ts`` every ``every``
    steps and at the end: a game is won when its last reward is positive."""
    from collections import deque

    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        def _on_training_start(self) -> None:
            self.start, self.games, self.last, self.recent = time.monotonic(), 0, 0, deque(maxlen=100)

        def _on_step(self) -> bool:
            for done, reward in zip(self.locals["dones"], self.locals["rewards"]):
                if done:
                    self.games += 1
                    self.recent.append(reward > 0)
            if self.num_timesteps - self.last >= every:
                self.last = self.num_timesteps
                self._line()
            return True

        def _on_training_end(self) -> None:
            if self.num_timesteps != self.last:
                self._line()

        def _line(self) -> None:
            rate = f"{sum(self.recent) / len(self.recent):.2f}" if self.recent else "-"
            print(f"steps {self.num_timesteps:>{len(str(total))}}/{total}  games {self.games:>5}  "
                  f"win rate (last {len(self.recent)}) {rate}  {time.monotonic() - self.start:.0f}s",
                  file=out, flush=True)

    return Progress()


def win_rate(choose, games: int, seed: int, label: str = "", out=None) -> float:
    """The learner's share of wins over ``games`` seeded games (``choose(env, obs) -> id``),
    printing a line every quarter of them when ``label`` is given."""
    env = make_env(seed)
    wins = 0
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        done = False
        while not done:
            obs, reward, done, _truncated, _info = env.step(choose(env, obs))
        wins += reward > 0
        if label and ((k + 1) % max(1, games // 4) == 0 or k + 1 == games):
            print(f"evaluating {label}: {k + 1}/{games} games, win rate {wins / (k + 1):.2f}", file=out or sys.stdout,
                  flush=True)
    return wins / games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=30000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=2048, help="print progress every N steps (0: never)")
    parser.add_argument("--verbose", action="store_true", help="also SB3's own table of each update")
    args = parser.parse_args(argv)
    try:
        import sb3_contrib  # noqa: F401
    except ImportError as exc:
        from rulekit.extras import needs
        print(f"error: {needs('this example', 'rl-train')} ({exc.name} is missing)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)

    def at_random(env, _obs):
        legal = env.action_masks().nonzero()[0]
        return int(legal[rng.randrange(len(legal))])

    print(f"training MaskablePPO on For Sale (p1 against 3 random bots) for {args.timesteps} steps", flush=True)
    model = train(args.timesteps, args.seed, every=args.every, verbose=int(args.verbose))

    def trained(env, obs):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    evaluation_seed = 10_000 + args.seed          # games the policy never trained on
    before = win_rate(at_random, args.games, evaluation_seed, label="a random player")
    after = win_rate(trained, args.games, evaluation_seed, label="the trained policy")
    print(f"win rate over {args.games} games against 3 random bots: random {before:.2f}, "
          f"MaskablePPO after {args.timesteps} steps {after:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
