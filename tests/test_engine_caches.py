# SPDX-License-Identifier: MIT
"""The engine's caches (memoised pure functions, incremental tallies) never change an answer.

The per-state memory is off as shipped (engine/memo.py, ``PER_STATE``); these tests switch it on
for the games they load, so that what it remembers and forgets stays right for anyone who turns
it back on (``benchmarks/bench_caches.py`` measures it)."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.dsl import calls
from rulekit.dsl.reads import EVERYTHING, function_reads
from rulekit.engine import api, memo, mutate, rng
from rulekit.engine.memo import _by_contents
from rulekit.engine.serialize import from_dict, to_dict


@pytest.fixture(autouse=True)
def _per_state_memory(monkeypatch):
    monkeypatch.setattr(memo, "PER_STATE", True)


def test_as_shipped_content_functions_are_called_directly_and_remember_nothing_per_state(monkeypatch):
    """Without per-state memory a game's callers settle on the functions themselves at their
    first call, and no state keeps a table; functions of the board alone are still remembered."""
    monkeypatch.setattr(memo, "PER_STATE", False)
    game = rulekit.load_game("goa")
    s = _random_game(game, 3, 2, lambda s: None)
    assert s.memo == {} and any(game.memo.static.values())
    ns = game.program.module.comp.ns
    callers = {name: fn for name, fn in ns.items() if name.startswith("fn_")}
    impls = set(game.program.functions.values())
    settled = [name for name, fn in callers.items() if fn in impls]
    waiting = [name for name, fn in callers.items() if fn.__qualname__ == "direct_caller.<locals>.first"]
    assert len(settled) >= 8 and all(callers[name].__qualname__ != "trial_caller.<locals>.trial" for name in callers)
    assert all(name.startswith("fn__estimate") for name in waiting), waiting   # only bots ask the estimate


def _fresh_tally(s, zone, prop):
    table = {}
    for item in s.zones[zone]:
        key = s.game.components.items[item][prop]
        table[key] = table.get(key, 0) + 1
    return table


def _random_game(game, players, seed, check, steps=None):
    s = api.new_game(game, players, seed)
    r = rng.stream_seed(seed, "test")
    while not s.over and (steps is None or len(s.actions) < steps):
        r, i = rng.below(r, len(s.pending.labels))
        api.apply_index(s, i)
        check(s)
    return s


def test_tallies_match_a_fresh_count_after_every_action():
    game = rulekit.load_game("batavia")
    checked = 0

    def check(s):
        nonlocal checked
        for (zone, prop), table in s.tallies.items():
            fresh = _fresh_tally(s, zone, prop)
            assert {k: v for k, v in table.items() if v} == fresh, (zone, prop)
            checked += 1
    for seed in range(3):
        _random_game(game, 4, seed, check)
    assert checked > 100  # the fast path really ran


@pytest.mark.parametrize("name, players", [("batavia", 4), ("goa", 3)])
def test_a_redeterminised_world_keeps_the_tallies_of_the_zones_it_did_not_deal(name, players):
    """A search bot's world deals hidden zones again: their tallies are dropped, the others kept
    (shared with the real state), and every kept one still counts what its zone holds."""
    from rulekit.engine.determinize import deal_plan, determinize

    game = rulekit.load_game(name)
    kept = 0

    def check(s):
        nonlocal kept
        if s.over:
            return
        me = s.pending.player
        dealt = {key for runs, items in deal_plan(s, me)[0].values() if len(items) > 1 for key, _p, _a in runs}
        world, _ = determinize(s, me, 7)
        assert not any(zone in dealt for zone, _prop in world.tallies)
        for (zone, prop), table in world.tallies.items():
            assert {k: v for k, v in table.items() if v} == _fresh_tally(world, zone, prop), (zone, prop)
            kept += 1
    _random_game(game, players, 1, check)
    assert kept > 50


def test_memoised_functions_agree_with_a_cold_state():
    game = rulekit.load_game("batavia")
    fns = game.program.functions

    def check(s):
        cold = _cold(s)
        for p in s.g["players"]:
            for name in ("may_play", "play_complete"):
                if name in fns:
                    warm = fns[name](s, p)
                    assert warm == fns[name](cold, p), name
    _random_game(game, 3, 11, check)


def _cold(s):
    """A copy of ``s`` with no cache at all (a clone shares its original's)."""
    cold = s.clone()
    cold.memo, cold.tallies, cold.tallied = {}, {}, {}
    return cold


@pytest.mark.parametrize("name", ["batavia", "goa"])
def test_a_clone_shares_caches_and_zones_until_it_changes_them(name):
    game = rulekit.load_game(name)
    s = _random_game(game, 3, 5, lambda s: None, steps=150)      # mid-game: the clone plays on
    assert (s.tallies or s.memo) and not s.over
    c = s.clone()
    assert all(c.tallies[k] is s.tallies[k] for k in s.tallies)      # tallies, lists, remembered results:
    assert all(c.zones[k] is s.zones[k] for k in s.zones)            # shared...
    assert all(c.memo[k] is s.memo[k] for k in s.memo) and c.memo is not s.memo
    assert c.iprops is s.iprops                                      # and the items' states...
    assert all(c.iprops[k] is s.iprops[k] for k in s.iprops)
    before = {k: dict(v) for k, v in s.tallies.items()}
    lists = {k: list(v) for k, v in s.zones.items()}
    states = {k: dict(v) for k, v in s.iprops.items()}
    r = rng.stream_seed(9, "clone")
    while not c.over:                                     # ...until a move changes them, in the clone only
        r, i = rng.below(r, len(c.pending.choices))
        api.apply_index(c, i, atomic=False)
    assert {k: dict(v) for k, v in s.tallies.items()} == before
    assert {k: list(v) for k, v in s.zones.items()} == lists
    assert s.iprops == states and c.iprops is not s.iprops
    changed = [k for k in s.iprops if c.iprops[k] is not s.iprops[k]]
    assert changed and all(c.iprops[k] != s.iprops[k] for k in changed)   # copied: only the changed properties
    cold = _cold(s)
    for fname, table in s.memo.items():                   # what the clone added to shared tables holds here
        for key, value in table.items():
            if not (key and key[0] is _by_contents):
                assert game.program.functions[fname](cold, *key[:len(key) // 2]) == value, (fname, key)
    c.restore(s.clone())
    assert c.memo == {} and c.tallies == {} and c.zones == s.zones


def test_items_states_are_copied_by_whichever_state_changes_one_first():
    """The state that was cloned changes an item's state in a copy of its own too (its clone
    keeps the old one); so does a state restored after a failed action."""
    game = rulekit.load_game("goa")
    s = _random_game(game, 3, 5, lambda s: None, steps=100)
    item = next(iter(game.components.items))
    c = s.clone()
    shared = {k: dict(v) for k, v in s.iprops.items()}
    mutate.set_prop(s, item, "used", "changed")
    assert c.iprops == shared and s.iprops["used"][item] == "changed"
    assert all(s.iprops[k] is c.iprops[k] for k in s.iprops if k != "used")   # the other properties stay shared
    mutate.set_prop(c, item, "used", "again")
    assert s.iprops["used"][item] == "changed" and c.iprops["used"][item] == "again"
    backup = c.clone()
    c.restore(backup)
    mutate.set_prop(c, item, "used", "third")
    assert backup.iprops["used"][item] == "again"


@pytest.mark.parametrize("name, players", [("batavia", 4), ("goa", 3)])
def test_every_remembered_result_matches_a_cold_computation(name, players):
    """The memo forgets only what a change may affect (dsl/reads.py): after every action,
    every result still remembered must equal the function computed afresh."""
    game = rulekit.load_game(name)
    checked = 0

    def check(s):
        nonlocal checked
        cold = _cold(s)
        for fname, table in s.memo.items():
            for key, value in table.items():
                if key and key[0] is _by_contents:   # a call with a list argument, keyed by its contents
                    args = tuple(_from_contents(part) for part in key[1:])
                    with_lists.add(fname)
                else:
                    args = key[:len(key) // 2]
                assert game.program.functions[fname](cold, *args) == value, (fname, args)
                checked += 1
        for fname, table in game.memo.static.items():   # functions that read no state
            for key, value in table.items():
                if key[0] == s.n:
                    args = key[1:1 + len(key) // 2]
                    assert game.program.functions[fname](cold, *args) == value, (fname, args)
                    statics.add(fname)
    statics: set = set()
    with_lists: set = set()
    _random_game(game, players, 3, check)
    assert checked > 1000
    if name == "goa":
        assert "has_spices" in with_lists      # has_spices(p, cost(p, c)): remembered by the list's contents
    assert statics, "some function reads nothing of the state and is remembered per game"


def _from_contents(part):
    kind, value = part
    return [_from_contents(x) for x in value] if kind is list else value


def test_read_sets_name_what_each_function_reads():
    game = rulekit.load_game("batavia")
    reads = function_reads(game.program.vocab)
    assert reads["fleet_count"] == {("zone", "fleet")}
    assert reads["seal_of"] == frozenset()                    # only static data
    assert {("zone", "route"), ("pvar", "pos"), ("g", "goal_taken")} <= reads["can_reach"]  # through next_tile
    assert ("zone", "fleet") in reads["could_win"] and ("zone", "hand") in reads["could_win"]


ZONE_GAME = """\
meta: {title: Zones held in variables}
players: {min: 1, max: 2, default: 1}
components:
  chip: {copies: 4, id: "chip-{n}", start: pool}
zones:
  pool: {visibility: public}
  left: {visibility: public}
  right: {visibility: public}
vars:
  target: none
functions:
  size:
    params: [z]
    expr: "count(z)"
  target_size:
    expr: "count(target)"
  where:
    params: [x]
    expr: "zone_of(x)"
procedures:
  turn:
    params: [p]
    do: |
      choose p:
          "aim {z}" for z in [left, right]:
              target = z
          "drop":
              move(top(pool), to=target)
          "drop left":
              move(top(pool), to=left)
          "done":
              end_game()
flow:
  rounds: 20
  phases:
    - id: turns
      do: |
        for p in players:
            turn(p)
scoring:
  categories:
    - id: chips
      points: "size(left) + 10 * target_size()"
"""


def _memo_call(game, name):
    """The memoising caller rule code uses (the bare function in game.program.functions is not)."""
    return calls.call_function(game.compiler_for_scripts(), name)


def test_a_zone_in_a_variable_or_an_argument_is_never_read_stale(tmp_path):
    (tmp_path / "game.yaml").write_text(ZONE_GAME)
    game = rulekit.load_game(str(tmp_path))
    assert function_reads(game.program.vocab)["where"] is EVERYTHING      # zone_of: any zone
    s = api.new_game(game, 1, 0)
    size, target_size = game.program.functions["size"], game.program.functions["target_size"]
    memo_size = _memo_call(game, "size")
    memo_target = _memo_call(game, "target_size")
    left = s.game.board.zones["left"]
    # a zone as an argument: `size`'s read set cannot name it, so such calls are not remembered
    assert memo_size(s, left) == 0
    api.apply(s, "drop left")
    assert not s.coarse and memo_size(s, left) == 1
    # a zone held in a variable: from then on every change forgets everything
    api.apply(s, "aim left")
    assert s.coarse
    assert memo_target(s) == 1
    api.apply(s, "drop")
    api.apply(s, "drop")
    assert memo_target(s) == 3 and memo_size(s, left) == 3
    assert target_size(s.clone()) == 3 and size(s.clone(), left) == 3
    assert from_dict(game, to_dict(s)).coarse                      # a reloaded state knows it too


def test_functions_reading_no_state_are_remembered_across_clones_and_player_counts():
    """`adjacent` reads only the board's fixed spaces: worked out once per game definition,
    shared by every state and clone, and kept apart per player count."""
    game = rulekit.load_game("goa")
    reads = function_reads(game.program.vocab)
    assert reads["adjacent"] == frozenset() and reads["orthogonal"] == frozenset()
    assert reads["flag_spaces"] != frozenset()          # it asks where the tiles are
    game.memo.static.get("adjacent", {}).clear()
    s = rulekit.new_game(game, 2, 1)
    adjacent = _memo_call(game, "adjacent")
    first = adjacent(s, "c3")
    assert sorted(first) == ["b3", "c2", "c4", "d3"]
    assert game.memo.static["adjacent"][(2, "c3", str)] == first
    clone = s.clone()
    assert "adjacent" not in clone.memo and adjacent(clone, "c3") is first     # the clone asks the same table
    four = rulekit.new_game(game, 4, 1)
    assert adjacent(four, "c3") == first and adjacent(four, "c3") is not first  # its own entry


@pytest.mark.parametrize("arity", [1, 2])
def test_a_function_of_the_board_keeps_equal_arguments_of_other_classes_apart(arity):
    """`1`, `True` and seat p2 are one key to a dict; to content they differ. The quick nested
    lookup answers only for the class it was filled with; the others are answered (and kept)
    by the flat table, and clearing the table clears both."""
    from rulekit.engine.state import PLAYERS

    asked = []

    def shown(*values):
        return "/".join(f"{type(v).__name__}:{v!r}" for v in values)

    def describe(s, *values):
        asked.append(values)
        return shown(*values)

    class Game:        # what a static caller reads of a state: its player count
        n = 3

    table = memo.StaticTable()
    call = memo.static_caller("describe", {"describe": describe}, table, arity)
    firsts = [(1,), (True,), (PLAYERS[1],)] if arity == 1 else [(1, "a"), (True, "a"), (PLAYERS[1], "a"), (1, 1.0)]
    for _ in range(2):
        assert [call(Game, *args) for args in firsts] == [shown(*args) for args in firsts]
    assert asked == firsts                      # each worked out once, by its own class
    assert len(table) == len(firsts) and table.nested
    table.clear()
    assert not table.nested and call(Game, *firsts[0]) == shown(*firsts[0]) and len(asked) == len(firsts) + 1
