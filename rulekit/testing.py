# SPDX-License-Identifier: MIT
"""Helpers for testing content with pytest and syrupy.

    from rulekit.testing import transcript

    def test_my_variant(snapshot):
        assert transcript("games/mygame/scenarios/opening.yaml") == snapshot

``transcript`` plays a script (failing the test with the script's file:line on a
wrong action or a failed expectation) and returns a compact, JSON-ready record:
the action and event lines, each checkpoint's per-player views, and the result.
Snapshots of it change only when the rules' behaviour does, so read them when
they change.
"""
from __future__ import annotations

from .script import run_script


def transcript(path: str, views: bool = True) -> dict:
    """Play the script at ``path``; returns {"lines", "checkpoints", "result"}."""
    result = run_script(path)
    out = {"lines": list(result.transcript), "result": result.state.result}
    if views:
        out["checkpoints"] = result.checkpoints
    return out


def broken_invariants(state) -> list[str]:
    """What is wrong with a state: ids of the content's ``invariants`` that do not hold, and
    any player variable below zero. An empty list means all is well."""
    from .engine.state import PLAYERS
    bad = [ident for ident, _text, fn in state.game.invariants if not fn(state, {})]
    for i, row in enumerate(state.p):
        bad += [f"{PLAYERS[i]}.{name} = {value}" for name, value in row.items()
                if type(value) is int and value < 0]
    return bad


def play_random(game, players: int, seed: int, check=broken_invariants, max_actions: int = 20_000):
    """One game of seeded random play, asserting ``check(state) == []`` after setup and after
    every action, and that the game ends within ``max_actions``. Returns (state, actions)."""
    from .agents import RandomAgent
    from .engine import api
    state = api.new_game(game, players, seed, record=False)
    agent = RandomAgent(seed * 10 + players)
    assert check(state) == [], f"{players}p seed {seed}, after setup: {check(state)}"
    actions = 0
    while not state.over:
        index = agent.choose(state)
        label = state.pending.label(index)   # written before the action: it reads the state it was offered in
        api.apply_index(state, index, atomic=False)
        actions += 1
        bad = check(state)
        assert bad == [], f"{players}p seed {seed}, action {actions} ({label}): {bad}"
        assert actions < max_actions, f"{players}p seed {seed}: no end after {actions} actions"
    return state, actions
