"""Every change to the state is an event in the log: a value replaced by an equal one of another
kind (1 by true; seat 0 by player p1, as tests/games/auction's `starter = players[0]` did) is a
change too, or a view or an observation following the log would keep the old one."""
import rulekit
from rulekit.engine import api

from conftest import ONE_DECISION

GAME = """\
meta: {title: Kinds}
players: {min: 2, max: 2}
vars:
  mark: {initial: 1, type: any}     # given `true`: equal to 1, of another kind (the front end allows it so)
  same: {initial: 1}
player:
  vars:
    flag: {initial: 0, type: any}
components:
  token:
    items: [{id: a}]
    state: {lit: 1}
    start: pile
zones:
  pile: {}
setup: |
  mark = true
  same = 1
  players[0].flag = false
  item("a").lit = true
""" + ONE_DECISION


def test_an_equal_value_of_another_kind_is_logged(write_game):
    s = api.new_game(rulekit.load_game(write_game(GAME)), 2, 0, record=True)
    changes = [e for e in s.events if e[0] in ("set", "prop") and e[1] != "round"]
    assert changes == [("set", "mark", 1, True), ("set", "p1.flag", 0, False), ("prop", "a", "lit", True)]
    assert all(e[-1].__class__ is bool for e in changes)     # (`same = 1` changed nothing: no event)
