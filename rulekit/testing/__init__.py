# SPDX-License-Identifier: MIT
"""Testing content: scripts (:mod:`.script`, :mod:`.steps`), ``rulekit test`` (:mod:`.suite`,
:mod:`.coverage`), the pytest plugin, and these helpers for pytest and syrupy.

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

import hashlib
import json

from .script import run_script


def transcript(path: str, views: bool = True) -> dict:
    """Play the script at ``path``; returns {"lines", "checkpoints", "result"}."""
    return transcript_of(run_script(path), views)


def transcript_of(result, views: bool = True) -> dict:
    """``transcript`` of a script already played (a ScriptResult), to keep its state too."""
    out = {"lines": list(result.transcript), "result": result.state.result}
    if views:
        out["checkpoints"] = result.checkpoints
    return out


def events_digest(state) -> dict:
    """A whole game in a few values for a snapshot: how many actions and events, and the
    sha256 of the JSON of both (any change to what happened changes it)."""
    played = {"events": state.events, "actions": state.actions}
    text = json.dumps(played, default=str, separators=(",", ":"), ensure_ascii=False)
    return {"actions": len(state.actions), "events": len(state.events),
            "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}


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
