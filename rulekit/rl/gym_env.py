# SPDX-License-Identifier: MIT
"""A Gymnasium single-agent environment: one seat learns, rulekit bots play the others.

    from rulekit.rl.gym_env import GameEnv
    e = GameEnv("examples/for-sale", players=4, seat="p1", bots="random", seed=0)
    obs, info = e.reset()
    obs, reward, terminated, truncated, info = e.step(e.action_masks().nonzero()[0][0])

The action space is the game's fixed vocabulary (``Discrete(num_distinct_actions)``, the same
ids as the PettingZoo environments, a blind pick's options the blind slots); ``action_masks()``
gives the legal ids as booleans, the way sb3-contrib's MaskablePPO asks for them. The
observation is the learner's normalised vector (``Box(-1, 1)``). The other seats are played by
named rulekit bots (``bots="random"``, or one name per other seat: ``["greedy", "random",
"random"]``), each seeded from the episode's seed, until it is the learner's turn again (in a
``choose_all`` the bots pick too). An illegal action ends the episode with reward -1 and
``info["illegal_action"]`` (PettingZoo's convention for classic games; SB3's ``check_env`` steps
random actions), or raises ValueError with ``illegal="raise"``. The reward comes at the end, as
in the PettingZoo environments.
"""
from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..agents import make_agent
from ..engine import api
from ..engine.simultaneous import seat_of
from ..engine.state import PLAYERS
from .rl_play import Play, whole


class GameEnv(gym.Env):
    """One seat of a rulekit game as a Gymnasium environment."""

    metadata = {"render_modes": []}

    def __init__(self, game, players: int | None = None, seat: str = "p1", bots="random", variants=(),
                 seed: int | None = None, reward: str = "win", max_steps: int | None = None,
                 illegal: str = "lose", max_number: int | None = None):
        self.play = Play(game, players, variants, reward, max_number)
        n = self.play.n
        me = seat_of(seat)
        if me is None or not 0 <= me < n:
            raise ValueError(f"seat must be one of p1..p{n}, not {seat!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        others = [bots] * (n - 1) if isinstance(bots, str) else list(bots)
        if len(others) != n - 1:
            raise ValueError(f"{n - 1} bots are needed for the other seats, not {len(others)}")
        for name in others:
            make_agent(name, 0)             # an unknown bot fails here, not at the first reset
        self.me, self.bot_names, self.illegal, self.max_steps = me, others, illegal, max_steps
        self.action_space = spaces.Discrete(self.play.num_distinct_actions)
        self.observation_space = spaces.Box(-1.0, 1.0, (self.play.observer.size,), dtype=np.float32)
        self.action_notations = self.play.vocabulary.notations
        self._next_seed = 0 if seed is None else whole(seed, "a seed")
        self.bots: dict = {}
        self.steps = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._next_seed = whole(seed, "a seed")
        game_seed = self._next_seed
        self._next_seed += 1
        self.play.start(game_seed)
        others = [q for q in range(self.play.n) if q != self.me]
        self.bots = {q: make_agent(name, game_seed * 31 + q) for q, name in zip(others, self.bot_names)}
        self.steps = 0
        self._bots_play()
        return self._observation(), {"seed": game_seed}

    def _observation(self) -> np.ndarray:
        return self.play.observation(self.me)

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids as booleans (sb3-contrib's MaskablePPO reads this)."""
        return self.play.mask(self.me).view(bool)

    def _bots_play(self) -> None:
        """The bots act until the learner is to act or the game is over."""
        play = self.play
        while not play.state.over:
            acting = play.acting()
            if self.me in acting:
                return
            seat = acting[0]
            s = play.state
            if s.pending.player != seat:
                s.pending = s.pending.focus(seat)
            api.apply_index(s, self.bots[seat].choose(s))
            play.acted()

    def step(self, action):
        action = whole(action, "an action")
        play = self.play
        if play.state is None or play.state.over:
            raise RuntimeError("step() before reset() or after the episode ended: call reset()")
        if not play.apply(self.me, action):
            if self.illegal == "raise":
                legal = play.legal_notations(self.me)
                raise ValueError(f"action {action} is not legal for {PLAYERS[self.me]}: {', '.join(legal[:10])}")
            return self._observation(), -1.0, True, False, {"illegal_action": action}
        self.steps += 1
        self._bots_play()
        s = play.state
        if s.over:
            reward = play.final_rewards()[self.me]
            return self._observation(), float(reward), True, False, {"result": s.result}
        truncated = self.max_steps is not None and self.steps >= self.max_steps
        return self._observation(), 0.0, False, truncated, {}
