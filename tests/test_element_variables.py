"""`v[i] = x` on a game variable (#51): set in place when nobody else holds the list and no record
keeps its old value (expressions._set_element), so a loop of n assignments costs n, as it does for
locals; anything else gets a new list through the variable's setter, so values keep their meaning:
another name, a clone of the state and a recorded game's events still see the old list."""
from __future__ import annotations

import textwrap

import pytest

import rulekit
from rulekit.engine import api

GAME = """\
meta: {title: Element variables}
players: {min: 1, max: 2}
vars:
  xs: {initial: [0, 0, 0], type: any}
  kept: {initial: none, type: any}
  table: {initial: {}, type: any}
player:
  vars:
    own: {initial: [0, 0], type: any}
procedures:
  fill:
    params: [p]
    do: |
      BODY
      choose p:
          "again":
              fill(p)
          "stop":
              pass
flow:
  rounds: 1
  phases:
    - id: main
      do: fill(players[0])
"""


def _state(write_game, body: str, record: bool):
    text = GAME.replace("BODY", textwrap.indent(body, "      ").lstrip())
    return api.new_game(rulekit.load_game(write_game(text)), 1, seed=1, record=record)


@pytest.mark.parametrize("record", [False, True], ids=["unrecorded", "recorded"])
def test_the_elements_are_set_and_another_name_keeps_the_old_list(write_game, record):
    state = _state(write_game, "kept = xs\nxs[1] = 5\np.own[0] = 7\ntable['a'] = 1", record)
    assert state.g["xs"] == [0, 5, 0] and state.g["kept"] == [0, 0, 0]
    assert state.p[0]["own"] == [7, 0] and state.g["table"] == {"a": 1}


def test_an_unrecorded_game_sets_elements_of_a_list_no_one_else_holds_in_place(write_game):
    """Thirty assignments to a game variable of a million elements in one step: copying would
    build 30 million elements, past the step's bound (RK4024); in place it builds none."""
    body = "xs = [0] * 1000000\ni = 0\nwhile i < 30:\n    xs[i] = i\n    p.own[i % 2] = i\n    i += 1"
    state = _state(write_game, body, record=False)
    assert state.g["xs"][:31] == [*range(30), 0] and len(state.g["xs"]) == 1_000_000
    assert state.p[0]["own"] == [28, 29]


def test_a_clone_of_the_state_is_not_changed_by_the_original(write_game):
    """A bot's copy of the state shares the list until one of them sets an element: that one
    gets a list of its own (the clone is one more holder)."""
    state = _state(write_game, "xs[0] = xs[0] + 1", record=False)
    copy = state.clone()
    api.apply_index(state, 0)
    assert state.g["xs"] == [2, 0, 0] and copy.g["xs"] == [1, 0, 0]
    api.apply_index(copy, 0)
    assert copy.g["xs"] == [2, 0, 0] and state.g["xs"] == [2, 0, 0] and copy.g["xs"] is not state.g["xs"]


def test_a_recorded_game_logs_each_element_change_with_the_old_list_intact(write_game):
    state = _state(write_game, "xs[2] = 9", record=True)
    sets = [event for event in state.events if event[0] == "set" and event[1] == "xs"]
    assert sets == [("set", "xs", [0, 0, 0], [0, 0, 9])]
