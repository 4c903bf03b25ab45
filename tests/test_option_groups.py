# SPDX-License-Identifier: MIT
"""Option groups that include other groups: what validates runs (a group of one `include` once
failed at load with Python's words), and a group including itself is refused at its line."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api
from rulekit.errors import DiagnosticReport
from tests.conftest import codes, where

GAME = """\
meta: {title: Groups}
players: {min: 2, max: 2}
vars:
  picked: {initial: 0}
option_groups:
  inner:
    params: [p, n]
    options: |
      "take {k}" for k in range(1, n + 1):
          picked = k
  outer:
    params: [q]
    options: |
      include inner(q, 2)
      "nothing":
          picked = -1
flow:
  rounds: 1
  phases:
    - id: pick
      do: |
        choose players[0]:
            include outer(players[0])
            "skip":
                pass
"""


def test_a_group_may_include_another(write_game):
    game = rulekit.load_game(write_game(GAME))
    state = api.new_game(game, 2, seed=1)
    assert api.legal_actions(state) == ["take 1", "take 2", "nothing", "skip"]
    api.apply(state, "take 2")
    assert state.g["picked"] == 2


def test_a_group_including_itself_is_refused_at_its_line(write_game):
    folder = write_game(GAME.replace('      "nothing":\n          picked = -1\n',
                                     '      include outer(q)\n'))
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    assert codes(info.value) == ["RK0346"]
    (diagnostic,) = info.value.diagnostics
    assert "outer -> outer" in diagnostic.message
    assert where(diagnostic)[1] == 15
