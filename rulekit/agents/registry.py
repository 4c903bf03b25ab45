# SPDX-License-Identifier: MIT
"""The bots by their command-line names (``--bots``): which names exist, how a list of them
is checked and dealt round the table, and :func:`make_agent`, where a new bot is registered."""
from __future__ import annotations

from ..errors import UsageError, did_you_mean, suggestion_help
from .greedy import GreedyAgent
from .policy import PolicyAgent, findable, is_policy
from .random_agent import RandomAgent
from .search import MCTSAgent, SharedWorldsMCTSAgent

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent, "mcts-crn": SharedWorldsMCTSAgent}


def bot_list(text: str | None) -> list[str]:
    """The bots of a ``--bots`` option (comma-separated; empty means ``random``), each name checked."""
    specs = [b.strip() for b in (text or "").split(",") if b.strip()] or ["random"]
    for spec in specs:
        make_agent(spec, 0)
    return specs


def deal_bots(specs: list[str], n: int) -> list[str]:
    """The ``--bots`` rule of every command: seat k plays ``specs[k % len(specs)]``, so a
    shorter list repeats round the table; more bots than seats is a usage error."""
    if len(specs) > n:
        raise UsageError(f"{len(specs)} bots for {n} seats: give at most one per seat "
                         "(a shorter list repeats round the table)")
    return [specs[k % len(specs)] for k in range(n)]


def make_agent(spec: str, seed: int):
    """An agent from its command-line name: ``random``, ``greedy``, ``mcts``, ``mcts:N``,
    ``mcts-crn``, ``mcts-crn:N``, ``bot:NAME`` or ``module:policy``, a policy in the user's own
    code (:mod:`rulekit.agents.policy`; naming it imports the module, running its code)."""
    name, _, arg = spec.partition(":")
    if name not in AGENTS and name != "bot" and is_policy(spec) and not _misspelt(name):
        return PolicyAgent(seed, spec)
    if name == "bot":
        from .content_bot import ContentBot
        if not arg:
            raise UsageError("`bot:NAME` names a bot the game declares under `bots:`")
        return ContentBot(seed, arg)
    if name not in AGENTS:
        hint = suggestion_help(name, AGENTS)
        raise UsageError(f"unknown bot `{name}` (known: {', '.join(sorted(AGENTS))})" + (f"; {hint}" if hint else ""))
    if arg:
        if name not in ("mcts", "mcts-crn") or not arg.isdigit() or int(arg) < 1:
            raise UsageError(f"bad bot `{spec}`: only `mcts:N` and `mcts-crn:N` take a number "
                             "(iterations, at least 1)")
        return AGENTS[name](seed, iterations=int(arg))
    return AGENTS[name](seed)


def _misspelt(name: str) -> bool:
    """A single word close to a bot's name that names no module (``mcst:x``) is a typo."""
    return "." not in name and did_you_mean(name, AGENTS) is not None and not findable(name)
