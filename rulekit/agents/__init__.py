# SPDX-License-Identifier: MIT
"""Agents: anything that picks one of the legal actions.

An agent is an object with ``choose(state) -> int`` (an index into the legal
actions). Agents are seeded and deterministic; they only look at what
``engine.view`` would show them, except ``random``, which needs nothing.
"""
from __future__ import annotations

from ..engine import rng
from ..errors import UsageError


class RandomAgent:
    """Uniform over the legal actions, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.state = rng.stream_seed(seed, "agent")

    def choose(self, s) -> int:
        self.state, index = rng.below(self.state, len(s.pending.labels))
        return index


AGENTS = {"random": RandomAgent}


def make_agent(spec: str, seed: int):
    name = spec.split(":", 1)[0]
    if name not in AGENTS:
        from ..errors import suggestion_help
        hint = suggestion_help(name, AGENTS)
        raise UsageError(f"unknown bot `{name}` (known: {', '.join(sorted(AGENTS))})" + (f"; {hint}" if hint else ""))
    return AGENTS[name](seed)
