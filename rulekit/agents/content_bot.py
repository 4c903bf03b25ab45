# SPDX-License-Identifier: MIT
"""Bots written as content: a priority list of conditions and actions.

A game may declare named bots::

    bots:
      trader:
        text: "Bids while rich, plays when it can make a majority."
        rules:
          - when: "p.money >= 8"        # optional; `p` is the deciding player
            prefer: "bid 1"             # a pattern over the legal actions (* and ? wildcards)
          - prefer: "play*"
          - prefer: "pass"

At each decision the first rule whose condition holds and whose pattern matches a legal
action decides; among several matching actions the bot picks one at random from its own
seeded stream. With no rule matching it plays at random. Conditions are checked when the
game loads, like every other expression.
"""
from __future__ import annotations

from ..engine import rng
from ..engine.state import PLAYERS
from ..errors import UsageError, suggestion_help


class ContentBot:
    """A bot the game declares under ``bots:`` (command line: ``bot:NAME``)."""

    def __init__(self, seed: int = 0, name: str = ""):
        self.state = rng.stream_seed(seed, f"bot:{name}")
        self.name = name

    def choose(self, s) -> int:
        bots = s.game.bots.rules
        rules = bots.get(self.name)
        if rules is None:
            hint = suggestion_help(self.name, bots)
            known = ", ".join(sorted(bots)) or "none"
            raise UsageError(f"{s.game.title} declares no bot `{self.name}` (declared: {known})"
                             + (f"; {hint}" if hint else ""))
        labels = s.pending.labels
        env = {"p": PLAYERS[s.pending.player]}
        for cond, pattern, _text in rules:
            if cond is not None and not cond(s, env):
                continue
            matches = [i for i, label in enumerate(labels) if pattern.match(label)]
            if matches:
                self.state, k = rng.below(self.state, len(matches))
                return matches[k]
        self.state, index = rng.below(self.state, len(labels))
        return index
