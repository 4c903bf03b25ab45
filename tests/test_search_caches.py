# SPDX-License-Identifier: MIT
"""What the search bots remember between states never changes an answer."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.agents import estimates
from rulekit.engine import api, rng
from rulekit.engine.state import PLAYERS
from rulekit.model import ESTIMATE

GAME = """
meta: {title: Points}
players: {min: 2, max: 3, default: 2}
components:
  card:
    generate: {value: {range: [1, 6]}}
    id: "c{value}"
    start: deck
zones:
  deck: {visibility: hidden}
  table: {visibility: public}
player:
  vars:
    points: 0
    luck: 0
  zones:
    hand: {visibility: owner}
setup: |
  for p in players:
      move(top(deck), to=p.hand)
flow:
  rounds: 2
  phases:
    - id: turns
      do: |
        for p in players:
            choose p:
                "play {c}" for c in p.hand:
                    move(c, to=table)
                    p.points += c.value
                "pass":
                    p.luck += 1
scoring:
  categories:
    - id: points
      points: "p.points"
estimate: ESTIMATE
"""


def _game(write_game, estimate: str):
    return rulekit.load_game(write_game(GAME.replace("ESTIMATE", f'"{estimate}"')))


def _worked_out(s) -> tuple:
    return tuple(s.game.scoring.estimate(s, {"p": PLAYERS[q]}) for q in range(s.n))


def test_the_estimate_is_found_under_the_models_name():
    assert estimates.ESTIMATE == ESTIMATE


@pytest.mark.parametrize("name, players", [("batavia", 5), ("goa", 4)])
def test_remembered_estimates_match_worked_out_ones(name, players):
    """Every option's trial from states along random games: the estimates remembered from
    earlier trials are the ones worked out afresh, and most trials are answered from memory."""
    game = rulekit.load_game(name)
    remembered = estimates.Estimates()
    asked = 0
    for seed in range(2):
        s = api.new_game(game, players, seed, record=False)
        r = rng.stream_seed(seed, "test")
        while not s.over and len(s.actions) < 120:
            for index in range(len(s.pending.choices)):
                trial = s.clone()
                api.apply_index(trial, index, atomic=False)
                assert remembered(trial) == _worked_out(trial)
                asked += 1
            r, i = rng.below(r, len(s.pending.choices))
            api.apply_index(s, i, atomic=False)
    assert len(remembered.table) < asked / 2


def test_a_state_that_differs_in_what_the_estimate_reads_is_worked_out_again(write_game):
    game = _game(write_game, "p.points * 2 + count(p.hand)")
    remembered = estimates.Estimates()
    s = api.new_game(game, 2, 0, record=False)
    assert remembered(s) == (1, 1) and len(remembered.table) == 1
    other = s.clone()
    other.p[1]["luck"] = 7                     # not read: the same key
    assert remembered(other) == (1, 1) and len(remembered.table) == 1
    for value, expected in ((1, (3, 1)), (True, (3, 1)), (1.0, (3.0, 1)), (3, (7, 1))):
        changed = s.clone()
        changed.p[0]["points"] = value         # 1, True and 1.0 are equal in Python, not here
        changed.memo = {}                      # written past the engine: forget what the state remembers
        got = remembered(changed)
        assert got == expected == _worked_out(changed) and type(got[0]) is type(expected[0])
    assert len(remembered.table) == 5


def test_an_estimate_that_may_read_anything_is_never_remembered(write_game):
    remembered = estimates.Estimates()
    s = api.new_game(_game(write_game, "p.points + count(x for x in table if x in deck)"), 2, 0, record=False)
    assert remembered(s) == (0, 0) and remembered.reads is None and not remembered.table
    s = api.new_game(_game(write_game, "p.points"), 2, 0, record=False)
    s.coarse = True                            # a variable holds a zone: reads cannot be named
    assert remembered(s) == (0, 0) and not remembered.table


def test_the_estimate_follows_the_verdict_of_its_memory_trial(write_game, monkeypatch):
    """The estimate is called through the memo like any function, and a trial that finds
    remembering does not pay hands it the plain function: later states remember nothing."""
    from rulekit.engine import memo

    monkeypatch.setattr(memo, "PER_STATE", True)      # off as shipped (engine/memo.py)
    monkeypatch.setattr(memo, "TRIAL_CALLS", 3)
    monkeypatch.setattr(memo, "KEEP_RATE", 2.0)        # more than every call: never worth it
    game = _game(write_game, "p.points * 2 + count(p.hand)")
    for seed in range(3):                              # the trial: three calls, each remembered
        s = api.new_game(game, 2, seed, record=False)
        assert game.scoring.estimate(s, {"p": PLAYERS[0]}) == 1 and ESTIMATE in s.memo
    s = api.new_game(game, 2, 9, record=False)
    assert game.scoring.estimate(s, {"p": PLAYERS[1]}) == 1 and ESTIMATE not in s.memo
