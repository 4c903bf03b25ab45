# SPDX-License-Identifier: MIT
"""`by KEY` on a generator argument: sorted, min, max and distinct compare items by a key."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api
from rulekit.errors import DiagnosticReport

from conftest import logged

GAME = """\
meta: {title: Keys}
players: {min: 3, max: 3}
player:
  vars: {money: 0}
components:
  card: {items: [{id: a, v: 2}, {id: b, v: 1}, {id: c, v: 2}, {id: d, v: 0}], start: row}
zones:
  row: {}
functions:
  nearest:
    params: [x]
    expr: "[min(c for c in row if c != y by abs(c.v - y.v)) for y in row if y.v == x]"
setup: |
  players[1].money = 5
  players[2].money = 5
  log("{sorted(c for c in row by c.v)} {sorted(c for c in row by -c.v)} {sorted(c.v for c in row)}")
  log("{max(q for q in players by q.money)} {min(q for q in players by q.money)}")
  log("{distinct(c for c in row by c.v)} {max(c for c in [] by c.v, default='none left')}")
  log("{nearest(2)} {nearest(0)}")
flow:
  rounds: 1
  phases:
    - {id: only, do: "pass"}
"""


def test_items_are_compared_by_their_keys(write_game):
    s = api.new_game(rulekit.load_game(write_game(GAME)), 3, 0)
    assert logged(s) == ["[d, b, a, c] [a, c, b, d] [0, 1, 2, 2]", "p2 p1", "[a, b, d] none left",
                         "[c, a] [b]"]


@pytest.mark.parametrize("expr", ["count(c for c in row by c.v)", "len_of(c for c in row by c.v)"])
def test_by_where_nothing_compares_by_a_key_is_refused(write_game, expr):
    text = GAME.replace("functions:", f"functions:\n  len_of: {{params: [xs], expr: \"count(xs)\"}}\n  bad: "
                                      f"{{expr: \"{expr}\"}}")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text))
    found = [(d.code, d.span.line, d.span.column) for d in info.value.diagnostics if d.severity == "error"]
    assert found == [("RK0322", 11, 16 + expr.index(" by ") + 4)]


OPTIONS = """\
meta: {title: Groups}
players: {min: 2, max: 2}
components:
  tile: {items: [{id: t1, kind: ship}, {id: t2, kind: ship}, {id: t3, kind: crate}, {id: t4, kind: ship}], start: row}
zones:
  row: {}
player:
  zones: {hand: {}}
flow:
  rounds: 2
  phases:
    - id: only
      do: |
        choose players[0]:
            "take {t.kind}" for t in row if t != "t2" by t.kind:
                move(t, to=players[0].hand)
            "pass":
                pass
"""


def test_options_grouped_by_a_key_are_one_option_per_key(write_game):
    s = api.new_game(rulekit.load_game(write_game(OPTIONS)), 2, 0)
    row = s.zones[s.game.board.zones["row"]]
    ships = [t for t in row if t in ("t1", "t4")]        # t2 is left out by the condition
    assert sorted(s.pending.labels) == ["pass", "take crate", "take ship"]
    api.apply(s, "take ship")
    assert list(s.zones[s.game.board.pzones["hand"][0]]) == ships[:1]
    assert sorted(s.pending.labels) == ["pass", "take crate", "take ship"]      # the other ship stands for both


def test_by_on_an_option_that_lists_nothing_is_refused(write_game):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(OPTIONS.replace('"pass":', '"pass" by 1:')))
    assert [(d.code, d.span.line) for d in info.value.diagnostics] == [("RK0322", 17)]
