"""``xs[i] = v`` and ``d[k] = v``: an element of a list or table held by a variable is set (issue #37's
statement added end to end, and #38's boards). A value is never changed in place: another name
holding the same list keeps it, and the variable changes through its own door (its event)."""
import pytest

import rulekit
from rulekit.dsl import passes
from rulekit.errors import ContentRuntimeError, DiagnosticReport

from conftest import codes

GAME = """\
meta: {title: Elements}
players: {min: 1, max: 2, default: 1}
vars:
  board: {initial: [0, 0, 0]}
  grid: {initial: [[0, 0], [0, 0]]}
  out: none
tables:
  prices: {a: 1}
player:
  vars:
    marks: {initial: [1, 2, 3]}
procedures:
  plain:
    params: [xs]
    do: |
      xs[0] = 'plain'
      return xs
  asked:
    params: [p]
    do: |
      ys = [0, 0]
      choose p:
          "left":
              ys[0] = 1
          "right":
              ys[1] = 1
      p.marks[0] = ys
setup: |
  board[1] = 5
  board[-1] += 2
  grid[1][0] = 7
  xs = [1, 2, 3]
  ys = xs
  xs[0] = 9
  players[0].marks[2] = 30
  table = prices
  table['b'] = 2
  made = plain([1, 2])
  out = [board, grid, xs, ys, players[0].marks, made, table]
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        asked(players[0])
scoring:
  categories:
    - id: none
      points: "0"
"""


def _game(write_game, text=GAME, name="g"):
    return rulekit.load_game(write_game(text, name=name))


def test_an_element_is_set_and_other_names_keep_the_old_value(write_game):
    state = rulekit.new_game(_game(write_game), 1, record=True)
    assert state.g["out"][:6] == [[0, 5, 2], [[0, 0], [7, 0]], [9, 2, 3], [1, 2, 3], [1, 2, 30], ["plain", 2]]
    changes = [e for e in state.events if e[0] in ("set", "set_element") and e[1] in ("board", "p1.marks")]
    assert changes == [("set_element", "board", 1, 0, 5), ("set_element", "board", 2, 0, 2),    # board[-1]: [2]
                       ("set_element", "p1.marks", 2, 3, 30)]
    rulekit.apply(state, "right")      # in a procedure that stops for a decision (its locals in the frame)
    assert state.p[0]["marks"] == [[0, 1], 2, 30]


def test_with_every_pass_off_the_same_values(write_game):
    with passes.using(passes.NONE):
        state = rulekit.new_game(_game(write_game, name="off"), 1)
    assert state.g["out"][:6] == [[0, 5, 2], [[0, 0], [7, 0]], [9, 2, 3], [1, 2, 3], [1, 2, 30], ["plain", 2]]


def test_a_table_entry_is_set_and_the_table_keeps_its_own(write_game):
    game = _game(write_game)
    state = rulekit.new_game(game, 1)
    assert state.g["out"][6] == {"a": 1, "b": 2}
    assert rulekit.new_game(game, 1).g["out"][6] == {"a": 1, "b": 2}     # the constant was not changed


def test_an_index_past_the_end_fails_on_its_line(write_game):
    text = GAME.replace("  board[1] = 5\n", "  board[3] = 5\n")
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(_game(write_game, text), 1)
    assert info.value.code == "RK4020" and info.value.span.line == text.splitlines().index("  board[3] = 5") + 1
    assert "index 3 is past the end of the list (3 items)" in str(info.value)


def test_a_zone_element_is_refused_where_it_is_written(write_game):
    text = GAME.replace("zones:", "zones:") + "zones:\n  deck: {visibility: public}\n"
    text = text.replace("  board[1] = 5\n", "  deck[0] = 5\n")
    with pytest.raises(DiagnosticReport) as info:
        _game(write_game, text)
    assert codes(info.value) == ["RK0314"]
    diagnostic = info.value.diagnostics[0]
    assert "move(x, to=zone)" in diagnostic.help
    assert diagnostic.span.line == text.splitlines().index("  deck[0] = 5") + 1
