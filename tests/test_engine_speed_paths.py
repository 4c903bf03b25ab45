# SPDX-License-Identifier: MIT
"""The engine's quick paths (issue 54) answer as the slow ones do: a move's tallies changed
through their zone's entries in a state never cloned (engine/mutate.py, engine/tally.py), a
resume written out in ``apply_index`` (engine/steps.py), and a procedure's call that counts
decisions only when they are taken as they come (engine/runtime.py)."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api, rng
from rulekit.engine.runtime import Autoplay


def _fresh_tallies(s) -> dict:
    items = s.game.components.items
    out = {}
    for key in s.tallies:
        zone, prop = key
        counted = {}
        for item in s.zones[zone]:
            counted[items[item][prop]] = counted.get(items[item][prop], 0) + 1
        out[key] = counted
    return out


def _held(s) -> dict:
    return {key: {value: count for value, count in table.items() if count} for key, table in s.tallies.items()}


@pytest.mark.parametrize("name, players", [("batavia", 5), ("goa", 4)])
def test_a_game_never_cloned_and_its_clone_keep_their_tallies_counted(name, players):
    """A random game as the benchmarks play it (no record, no checkpoint) stays alone and counts
    right on every action; cloned half-way, the original and its clone play on apart, each
    counting right and neither changing the other's counts."""
    game = rulekit.load_game(name)
    s = api.new_game(game, players, 3, record=False)
    r = rng.stream_seed(3, "test")
    checked = 0
    while not s.over and len(s.actions) < 150:
        r, i = rng.below(r, len(s.pending.choices))
        api.apply_index(s, i, atomic=False)
        assert s.alone
        assert _held(s) == _fresh_tallies(s)
        checked += len(s.tallies)
    assert checked > 100
    c = s.clone()
    for state, seed in ((c, 8), (s, 9), (c, 10)):
        before = _held(s if state is c else c)
        r = rng.stream_seed(seed, "test")
        for _ in range(40):
            if state.over:
                break
            r, i = rng.below(r, len(state.pending.choices))
            api.apply_index(state, i, atomic=False)
            assert not state.alone and _held(state) == _fresh_tallies(state)
        assert _held(s if state is c else c) == before


@pytest.mark.parametrize("name, players", [("batavia", 4), ("goa", 3)])
def test_decisions_taken_as_they_come_play_the_game_one_apply_at_a_time_plays(name, players):
    """``autoplay`` (decisions taken where they come, runtime.decide, frames returning through
    runtime.call) and ``apply_index`` one decision at a time (its resume written out) draw the same
    options and reach the same state, step count included."""
    game = rulekit.load_game(name)
    one = api.new_game(game, players, 5, record=False)
    auto = api.new_game(game, players, 5, record=False)
    stream = rng.stream_seed(5, "auto")
    r = stream
    while not one.over and len(one.actions) < 200:
        r, i = rng.below(r, len(one.pending.choices))
        api.apply_index(one, i, atomic=False)
    api.autoplay(auto, Autoplay([stream], False, len(one.actions)))
    assert auto.actions == one.actions and auto.steps == one.steps
    assert auto.zones == one.zones and auto.g == one.g and auto.p == one.p and auto.over == one.over


def test_a_decisions_notation_is_written_when_first_asked_for():
    """A decision made in a game without a record holds no notation until asked; then each label
    names its option, and an option is found again by its label."""
    game = rulekit.load_game("batavia")
    s = api.new_game(game, 3, 1, record=False)
    decision = s.pending
    assert decision._labels is None and decision._index is None
    labels = decision.labels
    assert len(labels) == len(decision.choices) and decision._labels is labels
    assert [decision.index(label) for label in labels] == list(range(len(labels)))
    assert decision.label(len(labels) - 1) == labels[-1]


def test_the_decisions_of_a_state_its_clone_and_a_restored_state_each_name_their_own_state():
    """Every decision of a state holds one weak reference to it, kept in the state (``State.weak``):
    a clone's decisions name the clone, and a state restored from a checkpoint keeps naming itself."""
    game = rulekit.load_game("batavia")
    s = api.new_game(game, 3, 1, record=False)
    c = s.clone()
    assert s.pending.state is s and c.pending.state is c
    api.apply_index(c, 0, atomic=False)
    api.apply_index(s, 0, atomic=False)
    assert s.pending.state is s and c.pending.state is c and s.weak is not c.weak
    backup = s.checkpoint()
    api.apply_index(s, 0, atomic=False)
    s.restore(backup)
    assert s.pending.state is s and s.weak() is s
    assert backup.weak is None or backup.weak() is backup
    api.apply_index(s, 0, atomic=False)
    assert s.pending.state is s


def test_a_frames_return_is_rulekits_own_bookkeeping_not_the_contents():
    """``RETURN`` (runtime.returned, one line where a resumable procedure returns) is bound in every
    game's namespace, but is no boundary of the content's values: a failure inside it would be a
    bug of rulekit (exit 101), never reported as the author's mistake."""
    from rulekit.engine import runtime
    from rulekit.errors import BOUNDARY

    game = rulekit.load_game("batavia")
    assert game.program.module.comp.ns["RETURN"] is runtime.returned
    assert runtime.returned.__code__ not in BOUNDARY
    assert runtime.call.__code__ in BOUNDARY      # (the helpers given the content's values are)
