# SPDX-License-Identifier: MIT
"""Seeded random games that check the content's invariants after every action (``rulekit test``
and the shipped games' tests)."""
from __future__ import annotations


def broken_invariants(state) -> list[str]:
    """What is wrong with a state: ids of the content's ``invariants`` that do not hold, and
    any player variable below zero. An empty list means all is well."""
    from ..engine.state import PLAYERS
    bad = [ident for ident, _text, fn in state.game.scoring.invariants if not fn(state, {})]
    for i, row in enumerate(state.p):
        bad += [f"{PLAYERS[i]}.{name} = {value}" for name, value in row.items()
                if type(value) is int and value < 0]
    return bad


RANDOM_GAME_ACTIONS = 20_000   # a random game that has not ended after this many actions fails (`rulekit test`)


def play_random(game, players: int, seed: int, check=broken_invariants, max_actions: int = RANDOM_GAME_ACTIONS):
    """One game of seeded random play, asserting ``check(state) == []`` after setup and after
    every action, and that the game ends within ``max_actions``. Returns (state, actions)."""
    state, actions, problem = random_game(game, players, seed, check, max_actions)
    assert problem is None, problem
    return state, actions


def random_game(game, players: int, seed: int, check=broken_invariants, max_actions: int = RANDOM_GAME_ACTIONS):
    """One game of seeded random play, stopped at the first problem: ``check(state)`` not empty
    after setup or after an action, a content error, or no end within ``max_actions``. Returns (state, actions,
    the problem or None); the problem names the seed, the action and what broke."""
    from ..agents import RandomAgent
    from ..engine import api
    from ..errors import ContentRuntimeError
    state = api.new_game(game, players, seed, record=False)
    agent = RandomAgent(seed * 10 + players)
    bad = check(state)
    if bad:
        return state, 0, f"{players}p seed {seed}, after setup: broken {bad}"
    actions = 0
    while not state.over:
        index = agent.choose(state)
        label = f"option {index + 1}"
        try:
            label = state.pending.label(index)   # written before the action: it reads the state it was offered in
            api.apply_index(state, index, atomic=False)
        except ContentRuntimeError as exc:
            return state, actions, f"{players}p seed {seed}, action {actions + 1} ({label}):\n{exc.render()}"
        actions += 1
        bad = check(state)
        if bad:
            return state, actions, f"{players}p seed {seed}, action {actions} ({label}): broken {bad}"
        if actions >= max_actions:
            return state, actions, f"{players}p seed {seed}: no end after {actions} actions"
    return state, actions, None
