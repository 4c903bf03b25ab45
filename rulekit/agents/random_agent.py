# SPDX-License-Identifier: MIT
"""The ``random`` bot: uniform over the legal actions (also the search's rollouts and the
probes of :func:`rulekit.agents.game_loop.action_cap`)."""
from __future__ import annotations

from ..engine import rng


class RandomAgent:
    """Uniform over the legal actions, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.state = rng.stream_seed(seed, "agent")

    def choose(self, s) -> int:
        self.state, index = rng.below(self.state, len(s.pending.choices))
        return index
