# SPDX-License-Identifier: MIT
"""Agents: anything that picks one of the legal actions.

An agent has ``choose(state) -> int`` (an index into the legal actions). Agents
are seeded and deterministic. They see only what the acting player may see: the
search bots work on redeterminised copies (:mod:`rulekit.engine.determinize`), so
they never peek at hidden cards, secret money or the future of the random streams.

Names on the command line: ``random``, ``greedy``, ``mcts`` or ``mcts:N`` (N
iterations per decision, default 200; it searches as the game's ``search:`` says),
``mcts-crn`` (a fixed search preset) and ``bot:NAME`` for a bot the game declares as
content (:mod:`rulekit.agents.content_bot`).

Where each concern lives (this file only re-exports, the tests' private helpers
``_lookahead``, ``_impossible`` and ``_others_decide`` too):

- :mod:`.random_agent` the ``random`` bot;
- :mod:`.evaluation` how a state scores for each player (ranks, margins, rewards, lookahead);
- :mod:`.worlds` imagined worlds a content error discards;
- :mod:`.greedy` and :mod:`.search` the ``greedy`` and ``mcts`` / ``mcts-crn`` bots;
- :mod:`.policy` bots from the user's own code (``module:policy``);
- :mod:`.content_bot` bots written as content, :mod:`.estimates` the remembered estimates;
- :mod:`.game_loop` bot games played to the end, under an action cap;
- :mod:`.registry` the command-line names: a new bot is registered in ``AGENTS`` and ``make_agent`` there.
"""
from __future__ import annotations

from .evaluation import _lookahead as _lookahead
from .evaluation import evaluate, evaluate_all, rewards
from .game_loop import CAP_FACTOR, CAP_MIN, CAP_PROBES, MAX_ACTIONS, action_cap, play_out, play_out_at_random, stalled
from .greedy import GreedyAgent
from .greedy import _others_decide as _others_decide
from .policy import PolicyAgent
from .random_agent import RandomAgent
from .registry import AGENTS, bot_list, deal_bots, make_agent
from .search import SEARCH_DEFAULTS, MCTSAgent, SharedWorldsMCTSAgent
from .worlds import WORLD_ATTEMPTS
from .worlds import _impossible as _impossible

__all__ = ["AGENTS", "CAP_FACTOR", "CAP_MIN", "CAP_PROBES", "MAX_ACTIONS", "SEARCH_DEFAULTS", "WORLD_ATTEMPTS",
           "GreedyAgent", "MCTSAgent", "PolicyAgent", "RandomAgent", "SharedWorldsMCTSAgent", "action_cap", "bot_list",
           "deal_bots", "evaluate", "evaluate_all", "make_agent", "play_out", "play_out_at_random", "rewards",
           "stalled"]
