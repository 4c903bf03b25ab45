# SPDX-License-Identifier: MIT
"""The engine's caches (memoised pure functions, incremental tallies) never change an answer."""
from __future__ import annotations

import rulekit
from rulekit.engine import api, rng


def _fresh_tally(s, zone, prop):
    table = {}
    for item in s.zones[zone]:
        key = s.game.items[item][prop]
        table[key] = table.get(key, 0) + 1
    return table


def _random_game(game, players, seed, check):
    s = api.new_game(game, players, seed)
    r = rng.stream_seed(seed, "test")
    while not s.over:
        r, i = rng.below(r, len(s.pending.labels))
        api.apply_index(s, i)
        check(s)
    return s


def test_tallies_match_a_fresh_count_after_every_action():
    game = rulekit.load_game("batavia")
    checked = 0

    def check(s):
        nonlocal checked
        for (zone, prop), table in s.tallies.items():
            fresh = _fresh_tally(s, zone, prop)
            assert {k: v for k, v in table.items() if v} == fresh, (zone, prop)
            checked += 1
    for seed in range(3):
        _random_game(game, 4, seed, check)
    assert checked > 100  # the fast path really ran


def test_memoised_functions_agree_with_a_cold_state():
    game = rulekit.load_game("batavia")
    fns = game.functions

    def check(s):
        cold = s.clone()  # a clone starts with empty caches
        for p in s.g["players"]:
            for name in ("may_play", "play_complete"):
                if name in fns:
                    warm = fns[name](s, p)
                    assert warm == fns[name](cold, p), name
    _random_game(game, 3, 11, check)


def test_caches_are_dropped_on_clone_and_restore():
    game = rulekit.load_game("batavia")
    s = _random_game(game, 3, 5, lambda s: None)
    assert s.tallies or s.memo is not None
    c = s.clone()
    assert c.memo == {} and c.tallies == {} and c.tallied == {}
