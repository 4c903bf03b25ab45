# SPDX-License-Identifier: MIT
"""One conformance harness for every shipped game (in the spirit of OpenSpiel's
random simulation test): random legal play must end within a bound and never
raise; a state must survive serialisation and cloning, and both copies must go on
identically; a log must replay to the identical state; a refused action must leave
the state exactly as it was; and the same seed must give the same events byte for
byte in another process with another PYTHONHASHSEED.

Every game checks its invariants after every action; one game in ten (and the first) also
does the deep checks (refusals, save/reload, clone, replay). RULEKIT_CONFORMANCE=N sets the number
of games per game and player count (default 200; the long run is N=3334, about 10,000 per game):
the default run plays the first 20 of them (two deep), the test marked slow the rest.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest

import rulekit
from rulekit.engine import api, rng
from rulekit.engine.serialize import from_dict, to_dict
from rulekit.errors import IllegalAction
from rulekit.games import shipped_games

GAMES_PER_COUNT = int(os.environ.get("RULEKIT_CONFORMANCE", "200"))
QUICK_GAMES = 20
DEEP_EVERY = 10
MAX_DECISIONS = 20_000


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(os.path.join(ROOT, "examples", d) for d in os.listdir(os.path.join(ROOT, "examples"))
                  if os.path.isfile(os.path.join(ROOT, "examples", d, "game.yaml")))


def _all_games():
    return list(shipped_games()) + EXAMPLES


def _cases():
    for name in _all_games():
        game = _game(name)
        for n in range(game.min_players, game.max_players + 1):
            yield pytest.param(name, n, id=f"{os.path.basename(name)}-{n}p")


_LOADED: dict = {}


def _game(name):
    if name not in _LOADED:
        _LOADED[name] = rulekit.load_game(name)
    return _LOADED[name]


def _digest(s) -> str:
    return hashlib.sha256(json.dumps(to_dict(s), sort_keys=True).encode()).hexdigest()


def _play_to_end(s, r):
    steps = 0
    while not s.over:
        r, i = rng.below(r, len(s.pending.labels))
        api.apply_index(s, i)
        steps += 1
        assert steps < MAX_DECISIONS, "the game did not end within the bound"
    return r


@pytest.mark.parametrize("name,n", list(_cases()))
def test_random_play_conforms(name, n):
    conforms(_game(name), n, range(min(QUICK_GAMES, GAMES_PER_COUNT)))


@pytest.mark.slow
@pytest.mark.parametrize("name,n", list(_cases()))
def test_long_random_play_conforms(name, n):
    conforms(_game(name), n, range(QUICK_GAMES, GAMES_PER_COUNT))


def conforms(game, n: int, seeds: range) -> None:
    """Random games of ``game`` for ``n`` players, one per seed, with the checks above."""
    for seed in seeds:
        deep = seed % DEEP_EVERY == 0
        s = api.new_game(game, n, seed, record=deep)
        r = rng.stream_seed(seed, "conformance")
        steps = 0
        fork_at = 25 + (seed // DEEP_EVERY) * 17 if deep else -1
        while not s.over:
            legal = s.pending.labels
            if deep and steps % 37 == 5:
                before = _digest(s)
                with pytest.raises(IllegalAction) as refused:
                    api.apply(s, "no such action")
                assert refused.value.legal == list(legal)
                assert _digest(s) == before, "a refused action changed the state"
            if steps == fork_at:
                # serialise, reload, clone: every copy goes on exactly like the original
                data = json.loads(json.dumps(to_dict(s)))
                reloaded = from_dict(game, data)
                assert to_dict(reloaded) == to_dict(s)
                assert list(reloaded.pending.labels) == list(legal)
                copy = s.clone()
                _play_to_end(copy, r)
                _play_to_end(reloaded, r)
                assert _digest(reloaded) == _digest(copy)
            r, i = rng.below(r, len(legal))
            api.apply_index(s, i, atomic=deep)
            steps += 1
            assert steps < MAX_DECISIONS
            for ident, _text, fn in game.scoring.invariants:
                assert fn(s, {}), f"invariant {ident} broken after `{s.actions[-1]}` (seed {seed})"
            for row in s.p:
                assert all(not isinstance(v, int) or v >= 0 for v in row.values()), row
        assert s.result and s.result["winners"]
        if not deep:
            continue
        if steps > fork_at:
            assert _digest(copy) == _digest(s), "a clone diverged from the original"
        # the log replays to the identical state
        replay = api.new_game(game, n, seed)
        for action in s.actions:
            api.apply(replay, action)
        assert replay.events == s.events
        assert _digest(replay) == _digest(s)


_CHILD = """
import hashlib, json, sys
import rulekit
from rulekit.engine import api, rng
game = rulekit.load_game(sys.argv[1])
s = api.new_game(game, int(sys.argv[2]), 7)
r = rng.stream_seed(7, "child")
while not s.over:
    r, i = rng.below(r, len(s.pending.labels))
    api.apply_index(s, i)
print(hashlib.sha256(json.dumps([list(map(str, e)) for e in s.events]).encode()).hexdigest())
"""


@pytest.mark.parametrize("name", _all_games(), ids=os.path.basename)
def test_same_seed_same_log_across_processes_and_hash_seeds(name):
    game = _game(name)
    digests = set()
    for hash_seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", _CHILD, name, str(game.min_players)], env=env,
                             capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1
