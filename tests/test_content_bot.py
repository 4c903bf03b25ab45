# SPDX-License-Identifier: MIT
"""Bots written as content: priority rules, checked at load, deterministic in play."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.agents import RandomAgent, make_agent
from rulekit.engine import api
from rulekit.errors import DiagnosticReport, UsageError

GAME = """\
meta: {title: Bots}
players: {min: 2, max: 2}
player:
  vars: {n: 0}
bots:
  climber:
    rules:
      - when: "p.n < 2"
        prefer: "up *"
      - prefer: "stop"
flow:
  rounds: 3
  phases:
    - id: only
      do: |
        for p in players:
            choose p:
                "up {k}" for k in [1, 2]:
                    p.n += k
                "stop":
                    pass
scoring:
  categories: [{id: n, points: "p.n"}]
"""


def test_rules_decide_in_order(write_game):
    game = rulekit.load_game(write_game(GAME))
    s = api.new_game(game, 2, 0)
    bot = make_agent("bot:climber", 3)
    while not s.over:
        api.apply_index(s, bot.choose(s))
    # each player climbs while below 2, then stops
    assert all(2 <= row["n"] <= 3 for row in s.p)
    assert s.actions.count("stop") >= 2


def test_a_bad_condition_is_a_load_time_error(write_game):
    bad = GAME.replace('"p.n < 2"', '"p.nn < 2"')
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(bad))
    (diag,) = [d for d in info.value.diagnostics if d.severity == "error"]
    assert diag.code == "RK0303" and diag.help == "did you mean `n`?" and diag.span.line == 8


def test_unknown_bot_name(write_game):
    game = rulekit.load_game(write_game(GAME))
    s = api.new_game(game, 2, 0)
    with pytest.raises(UsageError, match="declares no bot `climbr`.*did you mean `climber`"):
        make_agent("bot:climbr", 0).choose(s)


def test_batavia_trader_beats_random_and_is_deterministic():
    game = rulekit.load_game("batavia")

    def play(seed):
        s = api.new_game(game, 3, seed, record=False)
        bots = [make_agent("bot:trader", seed), RandomAgent(seed + 1), RandomAgent(seed + 2)]
        while not s.over:
            api.apply_index(s, bots[s.pending.player].choose(s), atomic=False)
        return s
    assert play(5).actions == play(5).actions
    wins = sum(1 for seed in range(6) if "p1" in play(seed).result["winners"])
    assert wins >= 3, f"the trader won {wins} of 6 (random would win about 2)"
