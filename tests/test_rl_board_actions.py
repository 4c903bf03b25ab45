# SPDX-License-Identifier: MIT
"""Labels that name a board's cells have fixed action ids: ``cells(board)`` and
``neighbours(board, c)`` give the board's cells, ``row``/``col`` 1 up to its rows/columns, so a
game played on boards is an environment whose every legal option has an id."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from rulekit.games import load_game  # noqa: E402
from rulekit.rl.actions import vocabulary  # noqa: E402
from rulekit.rl.pettingzoo import raw_env  # noqa: E402

BOARDS = """
meta: {title: Boards}
players: {min: 2, max: 2}
components:
  stone:
    items: [{id: s1}, {id: s2}, {id: s3}, {id: s4}, {id: s5}, {id: s6}]
    start: pile
zones:
  pile: {}
player:
  zones:
    wall: {grid: {cols: 3, rows: 2}, capacity: 1}
procedures:
  turn:
    params: [p]
    do: |
      choose p:
          "put {c}" for c in cells(p.wall) if count(p.wall[c]) == 0 and count(pile) > 0:
              move(top(pile), to=p.wall[c])
          "pair {c}-{d}" for c in cells(p.wall) for d in neighbours(p.wall, c) if count(p.wall[c]) > 0:
              pass
          "col {col(c)} row {row(c)}" for c in cells(p.wall) if count(p.wall[c]) > 0:
              pass
flow:
  rounds: 4
  phases:
    - id: main
      do: |
        for p in players:
            turn(p)
scoring:
  categories:
    - id: stones
      points: "count(p.wall)"
"""

CELLS = ["a1", "b1", "c1", "a2", "b2", "c2"]


def test_cells_neighbours_rows_and_columns_have_ids(write_game):
    game = load_game(write_game(BOARDS))
    notations = set(vocabulary(game).notations)
    assert {f"put {c}" for c in CELLS} <= notations
    assert {"pair a1-b1", "pair b2-c2", "pair a1-a2"} <= notations
    assert {f"col {c} row {r}" for c in (1, 2, 3) for r in (1, 2)} <= notations
    assert "col 4 row 1" not in notations and "col 1 row 3" not in notations


def test_every_legal_option_of_a_board_game_has_an_id(write_game):
    e = raw_env(load_game(write_game(BOARDS)), seed=0)
    e.reset()
    rng = np.random.default_rng(0)
    steps = 0
    while e.agents and not e.state_.over:
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        assert int(mask.sum()) == len(e.state_.pending.labels)     # none left out of the mask
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert e.state_.over and steps == 8
    assert e.observe("p1")["board.wall"].shape == (2 * 2, 2, 3)   # 2 seats x (count, stone): no set property
