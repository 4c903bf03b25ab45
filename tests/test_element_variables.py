"""`v[i] = x` on a game variable (#51): set in place when nobody else holds the list
(expressions._set_element), so a loop of n assignments costs n, as it does for locals, in a game
that keeps a record too: its event keeps the element's change alone (``set_element``), from which
the old value reads back (elements.value_before). Anything else gets a new list through the
variable's setter, so values keep their meaning: another name, a clone of the state, a checkpoint
and the whole values earlier events keep still see the old list."""
from __future__ import annotations

import textwrap

import pytest

import rulekit
from rulekit.dsl import narrate
from rulekit.dsl.notation import render_event
from rulekit.engine import api, expressions, serialize
from rulekit.engine.elements import value_before
from rulekit.engine.state import PLAYERS
from rulekit.errors import ContentRuntimeError
from rulekit.testing.transcripts import events_digest

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
          "fail":
              xs[0] = 7
              xs[count(xs)] = 0
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


@pytest.mark.parametrize("record", [False, True], ids=["unrecorded", "recorded"])
def test_a_clone_of_the_state_is_not_changed_by_the_original(write_game, record):
    """A bot's copy of the state shares the list until one of them sets an element: that one
    gets a list of its own (the clone is one more holder)."""
    state = _state(write_game, "xs[0] = xs[0] + 1", record=record)
    copy = state.clone()
    api.apply_index(state, 0)
    assert state.g["xs"] == [2, 0, 0] and copy.g["xs"] == [1, 0, 0]
    api.apply_index(copy, 0)
    assert copy.g["xs"] == [2, 0, 0] and state.g["xs"] == [2, 0, 0] and copy.g["xs"] is not state.g["xs"]




def _own(state, what: str) -> list:
    return [e for e in state.events if e[0] in ("set", "set_element") and e[1] == what]


def test_a_recorded_game_logs_each_element_change_and_the_old_value_reads_back(write_game):
    body = "kept = table\nxs[2] = 9\nxs[-3] = 4\np.own[1] = p.own[1]\ntable['a'] = 1\ntable['a'] = 2"
    state = _state(write_game, body, record=True)
    assert _own(state, "xs") == [("set_element", "xs", 2, 0, 9), ("set_element", "xs", 0, 0, 4)]  # -3 is 0
    assert _own(state, "p1.own") == []          # set to what it was: no change, no event
    assert _own(state, "table") == [("set_element", "table", "a", 1), ("set_element", "table", "a", 1, 2)]
    assert [render_event(e) for e in _own(state, "xs") + _own(state, "table")] == [
        "  xs[2]: 0 -> 9", "  xs[0]: 0 -> 4", "  table[a] = 1", "  table[a]: 1 -> 2"]
    assert value_before(state.g["xs"], _own(state, "xs")) == [0, 0, 0]
    assert value_before(state.g["table"], _own(state, "table")) == {} and state.g["kept"] == {}
    assert state.g["xs"] == [4, 0, 9]           # reading back changed nothing
    again = _state(write_game, "pass", record=True)
    assert again.g["xs"] == [0, 0, 0] and again.g["table"] == {}     # the game's initial values too


N = 100_000
BIG = f"""\
if count(xs) < {N}:
    xs = [0] * {N}
i = 0
while i < {N}:
    xs[i] = xs[i] + 1
    table[i] = i
    p.own[i % 2] = i
    i += 1"""


def _big(write_game):
    return _state(write_game, BIG, record=True)


def test_a_recorded_step_sets_100k_elements_in_place_and_logs_each(write_game):
    """One recorded step of 100,000 assignments to each of a list, a mapping and a player's list:
    copying at each (a recorded game did, its event keeping the old list) passes the step's bound
    of elements built (RK4024, below); in place it builds one copy of the list (the event of
    `xs = [0] * N` keeps the first) and logs each element's change."""
    state = _big(write_game)
    assert state.g["xs"] == [1] * N and state.g["table"] == {i: i for i in range(N)}
    assert state.p[0]["own"] == [N - 2, N - 1]
    xs, table = _own(state, "xs"), _own(state, "table")
    assert xs[0] == ("set", "xs", [0, 0, 0], [0] * N) and xs[1:] == [("set_element", "xs", i, 0, 1) for i in range(N)]
    assert table == [("set_element", "table", i, i) for i in range(N)]
    assert value_before(state.g["xs"], xs[1:]) == [0] * N and value_before(state.g["xs"], xs) == [0, 0, 0]
    assert value_before(state.g["table"], table) == {}
    api.apply(state, "again")       # in an action: the checkpoint holds the list, one copy, then in place
    assert state.g["xs"] == [2] * N and _own(state, "xs")[-1] == ("set_element", "xs", N - 1, 1, 2)
    assert value_before(state.g["xs"], _own(state, "xs")[N + 1:]) == [1] * N


def test_copying_at_each_element_would_pass_the_steps_bound(write_game, monkeypatch):
    """What the test above guards: with every element's list copied, the same step fails."""
    monkeypatch.setattr(expressions, "held_once", lambda container: False)
    with pytest.raises(ContentRuntimeError) as info:
        _big(write_game)
    assert info.value.code == "RK4024"


def test_an_action_failing_after_element_changes_leaves_the_state_as_it_was(write_game):
    state = _big(write_game)
    before, kept = events_digest(state), state.g["xs"]
    with pytest.raises(ContentRuntimeError) as info:
        api.apply(state, "fail")        # xs[0] = 7, then an index past the end
    assert info.value.code == "RK4020"
    assert events_digest(state) == before and state.g["xs"] == [1] * N and state.g["xs"] is kept


def test_the_log_replays_to_the_same_events(write_game):
    state = _big(write_game)
    api.apply(state, "again")
    replayed = api.new_game(state.game, 1, seed=1, record=True)
    for action in state.actions:
        api.apply(replayed, action)
    assert events_digest(replayed) == events_digest(state) and replayed.g == state.g


def test_a_saved_state_keeps_its_element_events_and_goes_on_the_same(write_game):
    state = _state(write_game, "xs[1] = xs[1] + 1\ntable[p] = xs\np.own[0] = table", record=True)
    api.apply(state, "again")
    loaded = serialize.from_dict(state.game, serialize.to_dict(state))
    kept = [e for e in loaded.events if e[0] == "set_element" and e[1] == "table"]
    assert loaded.events == state.events and kept == [("set_element", "table", PLAYERS[0], [0, 1, 0]),
                                                      ("set_element", "table", PLAYERS[0], [0, 1, 0], [0, 2, 0])]
    assert kept[0][2].__class__ is PLAYERS[0].__class__       # a seat, as it was: p1, not 0
    for s in (loaded, state):
        api.apply(s, "again")
    assert events_digest(loaded) == events_digest(state) and loaded.g == state.g and loaded.p == state.p


NARRATED = GAME + """\
narrate:
  set:
    xs: "xs {old} -> {new}"
    own: "{player} {old} -> {new}"
"""


def test_narration_tells_a_variable_whose_elements_were_set_by_its_whole_value(write_game):
    """A net change reads as it did when each element's change was a whole `set`: once per action,
    from the value before the first to the value after the last."""
    body = "xs[0] = xs[0] + 1\nxs[2] = 5\np.own[1] = 3\nxs = [xs[0], 6, 7]\nxs[1] = 8"
    text = NARRATED.replace("BODY", textwrap.indent(body, "      ").lstrip())
    state = api.new_game(rulekit.load_game(write_game(text)), 1, seed=1, record=True)
    mark = len(state.events)
    api.apply(state, "again")
    said = narrate.lines(state, [e for e in state.events[mark:] if e[0] != "action"])
    assert said == ["xs [1, 8, 7] -> [2, 8, 7]"]        # p1's own: [0, 3] before and after
    first = [e for e in state.events[:mark] if e[0] != "start"]
    fresh = api.new_game(state.game, 1, seed=1, record=True)
    assert narrate.lines(fresh, first) == ["xs [0, 0, 0] -> [1, 8, 7]", "p1 [0, 0] -> [0, 3]"]


def test_an_observation_follows_element_events_without_reading_afresh(write_game):
    """rl/observe_log.py keeps a seat's values from the log: an element's change is a variable's
    change there (a mapping's new key changes its length, an observed value), not an event it
    does not know, which would have it read everything afresh."""
    np = pytest.importorskip("numpy")
    from rulekit.rl.observe import Observer

    state = _state(write_game, "table[count(table)] = 1\nxs[0] = xs[0] + 1", record=True)
    followed = Observer(state.game, 1)
    seen = followed.follow.look(state, 0, 0)
    before = seen.raw_np.copy()
    mark = len(state.events)
    api.apply(state, "again")
    assert {e[0] for e in state.events[mark:]} == {"action", "set_element"}
    assert followed.follow.look(state, 0, 0) is seen            # caught up from the log
    afresh = Observer(state.game, 1).follow.look(state, 0, 0)
    assert np.array_equal(seen.raw_np, afresh.raw_np) and not np.array_equal(seen.raw_np, before)


def test_a_hidden_variables_element_is_told_only_to_its_owner(write_game):
    """`rulekit play --verbose` as a seat prints raw events that seat may see: an element's change
    of a variable only its owner sees is left out for the others, as a `set` of it is."""
    text = GAME.replace("own: {initial: [0, 0], type: any}", "own: {initial: [0, 0], type: any, visibility: owner}")
    text = text.replace("BODY", "p.own[1] = 5\n      xs[0] = 2")
    state = api.new_game(rulekit.load_game(write_game(text)), 2, seed=1, record=True)
    told = {seat: narrate.Teller(verbose=True, seat=seat).since(state) for seat in (0, 1)}
    assert "p1.own[1]: 0 -> 5" in told[0] and "xs[0]: 0 -> 2" in told[0]
    assert "p1.own[1]: 0 -> 5" not in told[1] and "xs[0]: 0 -> 2" in told[1]
