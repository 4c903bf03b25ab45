"""Comprehension clauses in any order (issue #38): `let` between two filters, an `if` before a later
`for`, several `if`s in a row; each test runs where it is written, and every pass off agrees."""
import pytest

import rulekit
from rulekit.dsl import passes
from rulekit.errors import ContentRuntimeError

GAME = """\
meta: {title: Clauses}
players: {min: 1, max: 1}
functions:
  f: {params: [x], expr: "x * 10"}
  g: {params: [x], expr: "10 // (x - 1)"}
vars:
  out: none
setup: |
  xs = [1, 2, 3, 4]
  out = [[y for x in xs if x > 1 let y = f(x) if y < 40],
         [x + z for x in xs if x % 2 == 0 for z in [100, 200] if z > 100],
         count(x for x in xs if x > 1 if x < 4),
         sum(y for x in xs if x != 2 let y = x * x),
         [q for x in xs if x > 1 let q = g(x)]]
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        choose players[0]:
            "{n}" for n in [m for k in [1, 2] if k > 1 let m = k * 2 if m == 4]:
                pass
scoring:
  categories:
    - id: none
      points: "0"
"""
EXPECTED = [[20, 30], [202, 204], 2, 26, [10, 5, 3]]


@pytest.mark.parametrize("setting", ["all", "-all"])
def test_clauses_in_any_order(write_game, setting):
    with passes.using(passes.parse(setting)):
        game = rulekit.load_game(write_game(GAME, name=f"g{setting}"))
    state = rulekit.new_game(game, 1)
    assert state.g["out"] == EXPECTED      # g(1) would divide by zero: the `if` before `let` keeps it out
    assert rulekit.legal_actions(state) == ["4"]


def test_a_test_that_fails_fails_on_its_line(write_game):
    text = GAME.replace("[q for x in xs if x > 1 let q = g(x)]", "[q for x in xs let q = g(x) if x > 1]")
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(write_game(text)), 1)
    assert info.value.code == "RK4000" and "division by zero" in str(info.value)
