# SPDX-License-Identifier: MIT
"""Names: comprehension variables are private; option-group locals never clash."""
from __future__ import annotations

import rulekit
from rulekit.engine import api

GAME = """\
meta: {title: Scopes}
players: {min: 2, max: 2}
vars:
  seen: {initial: null}
  total: 0
procedures:
  main:
    do: |
      c = 5
      xs = [c * 10 for c in [1, 2, 3]]
      seen = [c, xs, sum([c for c in xs])]
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        main()
        choose players[0]:
            "go":
                total = 1
"""


def test_comprehension_variables_do_not_leak(write_game):
    game = rulekit.load_game(write_game(GAME))
    s = api.new_game(game, 2, 0)
    assert s.g["seen"] == [5, [10, 20, 30], 60]
