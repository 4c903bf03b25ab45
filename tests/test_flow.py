# SPDX-License-Identifier: MIT
"""The resumable VM and the public API on the small test games: decisions anywhere,
loops, return values, the end of a game, runtime errors and atomic refusals,
determinism and per-player views."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.engine import api, vm
from rulekit.engine.view import HIDDEN, view
from rulekit.errors import ContentRuntimeError, IllegalAction, UsageError

from conftest import game_dir, load_test_game


def new(name: str, players=None, seed=0, **kw):
    return rulekit.new_game(load_test_game(name), players, seed, **kw)


def play(state, *actions):
    for action in actions:
        rulekit.apply(state, action)
    return state


def snapshot_of(state):
    """Everything an action could change, for before/after comparisons."""
    return (view(state, full=True), list(state.actions), list(state.events), dict(state.rng),
            [f.pc for f in state.frames], state.pending.labels if state.pending else None)


def source_line_at(span) -> str:
    with open(span.path, encoding="utf-8") as handle:
        return handle.read().splitlines()[span.line - 1]


# ------------------------------------------------------------------ choose, resume, bindings

def test_new_game_stops_at_the_first_decision():
    s = new("auction", 3, seed=1, pins={"roll:dice": [2, 1]})
    assert not s.over and s.pending.player == 0
    assert rulekit.legal_actions(s) == ["bid 1", "bid 2", "bid 3", "bid 4", "bid 5", "pass"]
    assert s.g["round"] == 1
    assert sum(1 for e in s.events if e[0] == "move") == 2


def test_choose_resumes_with_the_bound_option_variables():
    s = new("auction", 3, pins={"roll:dice": [2, 1]})
    play(s, "bid 3")
    # the option body ran with n = 3: the next bids start above it
    assert rulekit.legal_actions(s) == ["bid 4", "bid 5", "pass"]
    assert s.pending.player == 1
    assert s.actions == ["bid 3"]
    assert s.events[-1] == ("action", "p1", "bid 3")


def test_nested_procedure_with_choose_and_return_value():
    # phase -> auction(starter) (a procedure that chooses and returns the winner) -> pay(...)
    s = new("auction", 2, pins={"roll:dice": [3, 1]})
    play(s, "bid 2", "pass")
    assert s.p[0]["money"] == 3 and s.p[0]["lots_won"] == 1
    assert s.g["starter"] == 0                # winner = auction(starter) returned p1
    assert len(s.zones[s.game.board.pzones["gems"][0]]) == 3
    assert ("log", "p1 pays 2") in s.events
    # round 2 starts with the winner
    assert s.g["round"] == 2 and s.pending.player == 0


def test_apply_index_matches_apply():
    a = new("auction", 3, seed=5)
    b = new("auction", 3, seed=5)
    rulekit.apply(a, "bid 4")
    rulekit.apply_index(b, rulekit.legal_actions(b).index("bid 4"))
    assert snapshot_of(a) == snapshot_of(b)


def test_clone_is_independent_and_resumable():
    s = new("counter", 1)
    twin = s.clone()
    play(s, "add 2", "add 1")
    assert twin.g["total"] == 0 and twin.actions == []
    play(twin, "add 2", "add 1")
    assert snapshot_of(twin) == snapshot_of(s)


# ------------------------------------------------------------------ loops inside option bodies

def test_continue_in_an_option_skips_the_rest_of_the_loop_body():
    s = new("counter", 1)
    play(s, "skip")
    assert s.g["asks"] == 0                   # `asks += 1` after the choose was skipped
    assert rulekit.legal_actions(s) == ["add 1", "add 2", "skip", "spend", "quit"]
    play(s, "add 1")
    assert s.g["asks"] == 1 and "stop" in rulekit.legal_actions(s)


def test_break_in_an_option_leaves_the_loop():
    s = new("counter", 1)
    play(s, "add 1", "stop")
    assert rulekit.legal_actions(s) == ["bonus 0", "bonus 1", "bonus 2"]
    s2 = new("counter", 1)
    play(s2, "add 2", "add 2")                 # `if added >= 3: break` inside the option
    assert rulekit.legal_actions(s2) == ["bonus 0", "bonus 1", "bonus 2"]
    assert s2.g["asks"] == 1                  # the break skipped the second `asks += 1`


def test_procedure_return_value_from_an_option_body():
    s = new("counter", 2)
    play(s, "add 2", "add 1", "bonus 2")
    assert s.p[0]["score"] == 3 + 20          # added + pick_bonus(p) (returns b * 10)
    assert s.pending.player == 1


# ------------------------------------------------------------------ the end of a game

def test_end_after_round_if_and_scoring():
    s = new("counter", 1)
    for _ in range(4):                        # 3 per round; the game ends after total >= 12
        assert not s.over
        play(s, "add 2", "add 1", "bonus 0")
    assert s.over and s.pending is None
    assert s.g["total"] == 12 and s.g["round"] == 4
    assert s.events[-1] == ("log", "final total 12")   # the finish script ran
    assert s.result["scores"]["p1"] == {"breakdown": {"score": 12}, "total": 12, "tiebreak": []}
    assert rulekit.legal_actions(s) == []


def test_end_game_unwinds_nested_procedures_to_finish_and_scoring():
    s = new("counter", 2)
    play(s, "add 2", "add 1", "bonus 1", "add 1", "quit")
    assert s.over and s.pending is None and s.frames == []
    assert s.events[-1] == ("log", "final total 4")
    assert s.result["ranking"] == ["p1", "p2"] and s.result["winners"] == ["p1"]
    assert s.result["scores"]["p1"]["total"] == 13 and s.result["scores"]["p2"]["total"] == 0
    with pytest.raises(IllegalAction) as info:
        rulekit.apply(s, "add 1")
    assert "the game is over" in str(info.value)


def test_fixed_rounds_end_the_game():
    s = new("auction", 2, pins={"roll:dice": [1, 1]})
    play(s, "pass", "pass")                  # round 1: nobody bids, the gem goes back
    assert s.g["round"] == 2 and not s.over
    play(s, "bid 1", "pass")
    assert s.over and s.g["round"] == 2
    scores = s.result["scores"]
    assert scores["p1"]["breakdown"] == {"gems": 3, "money": 4} and scores["p1"]["tiebreak"] == [1]
    assert s.result["winners"] == ["p1"]


def test_ties_share_the_win_and_tiebreaks_order_the_ranking():
    s = new("auction", 3, pins={"roll:dice": [1, 1]})
    play(s, "bid 3", "pass", "pass")          # p1: 1 gem (3) + 2 money = 5, one lot
    play(s, "pass", "pass", "pass")           # round 2: no sale
    assert s.over
    assert {p: r["total"] for p, r in s.result["scores"].items()} == {"p1": 5, "p2": 5, "p3": 5}
    assert s.result["winners"] == ["p1"]      # lots_won breaks the tie
    assert s.result["ranking"][0] == "p1"


def test_rounds_and_when(write_game):
    folder = write_game("""\
        meta: {title: Rounds}
        players: {min: 1, max: 1}
        vars: {odd: 0, every: 0}
        flow:
          rounds: 5
          phases:
            - {id: always, do: "every += 1"}
            - {id: odd_rounds, when: "round % 2 == 1", do: "odd += 1"}
        """)
    s = rulekit.new_game(rulekit.load_game(folder), 1)
    assert s.over and s.g["round"] == 5
    assert (s.g["every"], s.g["odd"]) == (5, 3)


# ------------------------------------------------------------------ runtime errors

LOOP = """\
meta: {title: Loop}
players: {min: 1, max: 1}
vars: {n: 0}
procedures:
  spin:
    do: |
      n += 1
      while n > 0:
          n += 1
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        choose players[0]:
            "spin":
                spin()
            "rest":
                pass
"""


def test_step_limit_names_the_source_line(write_game):
    game = rulekit.load_game(write_game(LOOP))
    s = rulekit.new_game(game, 1, step_limit=1000)
    before = snapshot_of(s)
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.apply(s, "spin", step_limit=1000)
    err = info.value
    assert err.code == "RK4009"
    assert "step limit of 1000" in str(err) and "`spin`" in str(err)
    assert err.span.path.endswith("game.yaml")
    assert source_line_at(err.span).strip() in ("while n > 0:", "n += 1")
    assert 8 <= err.span.line <= 9
    assert snapshot_of(s) == before           # the half-run action was undone
    rulekit.apply(s, "rest")
    assert s.over


def test_step_limit_in_setup_through_new_game(write_game):
    folder = write_game("""\
        meta: {title: Setup loop}
        players: {min: 1, max: 1}
        setup: |
          while true:
              pass
        flow: {rounds: 1, phases: [{id: main, do: pass}]}
        """)
    game = rulekit.load_game(folder)
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(game, 1, step_limit=50)
    assert info.value.code == "RK4009"
    assert (info.value.span.line, source_line_at(info.value.span).strip()) == (4, "while true:")
    rendered = info.value.render()
    assert "error[RK4009]" in rendered and "4 |   while true:" in rendered


def test_vm_run_limit_directly(write_game):
    game = rulekit.load_game(write_game(LOOP))
    s = rulekit.new_game(game, 1)
    assert s.pending.labels == ("spin", "rest")
    with pytest.raises(ContentRuntimeError) as info:
        vm.resume(s, 0, limit=200)             # resume runs `vm.run(s, limit)`
    assert info.value.code == "RK4009" and "step limit of 200" in str(info.value)
    # the default limit is far larger: the same loop with a finite bound runs to the end
    assert vm.DEFAULT_STEP_LIMIT >= 1_000_000


def test_counter_minimum_is_a_runtime_error_and_apply_is_atomic():
    s = new("counter", 2)
    play(s, "spend")                           # tokens 3 -> 1
    assert s.p[0]["tokens"] == 1 and s.g["spent"] == 1
    before = snapshot_of(s)
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.apply(s, "spend")              # 1 - 2 < 0, after `spent += 1` and a move
    err = info.value
    assert err.code == "RK4003"
    assert str(err) == "`p1.tokens` would become -1, below its minimum 0"
    assert err.span.path.endswith("counter/game.yaml")
    assert source_line_at(err.span).strip() == "p.tokens -= 2"
    assert err.span.column == source_line_at(err.span).index("p.tokens") + 1
    assert snapshot_of(s) == before
    assert s.g["spent"] == 1 and len(s.zones[s.game.board.zones["used"]]) == 1
    # the game goes on from the unchanged state
    play(s, "add 2")
    assert s.g["total"] == 2


def test_illegal_action_names_the_legal_ones_and_changes_nothing():
    s = new("auction", 3, pins={"roll:dice": [2, 1]})
    before = snapshot_of(s)
    with pytest.raises(IllegalAction) as info:
        rulekit.apply(s, "bid 9")
    err = info.value
    assert err.code == "RK3001" and err.exit_code == 1
    assert err.legal == ["bid 1", "bid 2", "bid 3", "bid 4", "bid 5", "pass"]
    assert err.player == "p1"
    assert "legal actions: `bid 1`, `bid 2`" in str(err)
    assert str(err) == ("illegal action `bid 9` for p1: not a legal action now; legal actions: `bid 1`, "
                        "`bid 2`, `bid 3`, `bid 4`, `bid 5`, `pass` (did you mean `bid 5`?)")
    assert snapshot_of(s) == before


def test_a_choice_with_no_legal_option(write_game):
    folder = write_game("""\
        meta: {title: Stuck}
        players: {min: 1, max: 1}
        flow:
          rounds: 1
          phases:
            - id: main
              do: |
                choose players[0]:
                    "never" if false:
                        pass
        """)
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(folder), 1)
    assert info.value.code == "RK4010"
    assert info.value.span.line == 8


def test_two_options_with_the_same_notation(write_game):
    folder = write_game("""\
        meta: {title: Twins}
        players: {min: 1, max: 1}
        flow:
          rounds: 1
          phases:
            - id: main
              do: |
                choose players[0]:
                    "take {n % 2}" for n in range(3):
                        pass
        """)
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(folder), 1)
    assert info.value.code == "RK4011" and "`take 0`" in str(info.value)


def test_evaluation_errors_are_content_errors_with_a_line(write_game):
    folder = write_game("""\
        meta: {title: Divide}
        players: {min: 1, max: 1}
        vars: {x: 0}
        flow:
          rounds: 1
          phases:
            - id: main
              do: |
                x = 1
                x = x // (x - 1)
        """)
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(folder), 1)
    assert info.value.code == "RK4000" and "division by zero" in str(info.value)
    assert info.value.span.line == 10


def test_player_count_outside_the_range_is_a_usage_error():
    with pytest.raises(UsageError) as info:
        new("auction", 7)
    assert "2-4 players, not 7" in str(info.value)


# ------------------------------------------------------------------ determinism

def random_playout(name, players, seed, moves=400):
    s = new(name, players, seed=seed)
    picker = seed
    while not s.over and moves:
        picker = (picker * 1103515245 + 12345) % (2 ** 31)
        rulekit.apply_index(s, picker % len(s.pending.labels))
        moves -= 1
    return s


@pytest.mark.parametrize("name,players", [("auction", 3), ("hidden", 2), ("counter", 2)])
def test_same_seed_same_events(name, players):
    a = random_playout(name, players, seed=11)
    b = random_playout(name, players, seed=11)
    assert a.events == b.events and a.actions == b.actions and a.result == b.result


def test_different_seeds_shuffle_and_roll_differently():
    hands = {tuple(new("hidden", 2, seed=seed).zones[load_test_game("hidden").board.pzones["hand"][0]])
             for seed in range(6)}
    assert len(hands) > 1
    rolls = {next(e for e in new("auction", 2, seed=seed).events if e[0] == "roll") for seed in range(6)}
    assert len(rolls) > 1


def test_pins_override_rolls_and_shuffles():
    order = ["red-1", "red-2", "red-3", "blue-1", "blue-2", "blue-3", "green-1", "green-2", "green-3"]
    s = new("hidden", 2, seed=99, pins={"shuffle:deck": [order]})
    hand = s.game.board.pzones["hand"]
    assert s.zones[hand[0]] == ["green-3", "green-2"]          # drawn from the top (the end)
    assert s.zones[hand[1]] == ["green-1", "blue-3"]
    a = new("auction", 2, seed=1, pins={"roll:dice": [3]})
    assert ("roll", "dice", 3, 3) in a.events


def test_a_pinned_order_must_be_a_permutation():
    with pytest.raises(ContentRuntimeError) as info:
        new("hidden", 2, pins={"shuffle:deck": [["red-1"]]})
    assert info.value.code == "RK4006"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2 ** 32), players=st.integers(min_value=2, max_value=4))
def test_random_auctions_conserve_gems_and_never_break_bounds(seed, players):
    s = random_playout("auction", players, seed)
    assert s.over
    gems = sum(len(s.zones[k]) for k in s.zones)
    assert gems == 12
    assert all(row["money"] >= 0 for row in s.p)
    total_paid = sum(5 - row["money"] for row in s.p)
    assert total_paid == sum(int(e[1].split()[-1]) for e in s.events if e[0] == "log" and " pays " in e[1])


# ------------------------------------------------------------------ visibility in views

def test_views_follow_declared_visibility():
    s = new("hidden", 2, seed=1)
    full = view(s, full=True)
    mine = view(s, 0)
    theirs = view(s, 1)
    spectator = view(s)
    p1 = full["players"]["p1"]
    # owner zone: only its owner sees the cards
    assert mine["players"]["p1"]["hand"] == p1["hand"] and len(p1["hand"]) == 2
    assert theirs["players"]["p1"]["hand"] == {"count": 2}
    assert spectator["players"]["p1"]["hand"] == {"count": 2}
    # hidden zones show only the count, to everyone (the owner too)
    assert mine["zones"]["deck"] == {"count": 2}
    assert mine["players"]["p1"]["vault"] == {"count": 0}
    assert mine["zones"]["slot"] == {"1": {"count": 1}, "2": {"count": 0}}
    # face_up: each item shown only while its face_up state is true
    assert full["zones"]["table"][1] == mine["zones"]["table"][1] != HIDDEN
    assert mine["zones"]["table"][0] == HIDDEN and theirs["zones"]["table"][0] == HIDDEN
    # public zones: everyone sees the items
    play(s, "play " + p1["hand"][0])
    assert view(s, 1)["players"]["p1"]["tableau"] == [p1["hand"][0]]
    # variables: owner, hidden, public
    assert mine["players"]["p1"]["coins"] == 2 and theirs["players"]["p1"]["coins"] == HIDDEN
    assert mine["players"]["p1"]["mystery"] == HIDDEN and full["players"]["p1"]["mystery"] == 1
    assert spectator["players"]["p2"]["vp"] == 0
    assert "secret" not in mine["vars"] and full["vars"]["secret"] == 7 and mine["vars"]["pot"] == 4
    # the legal actions are shown to the player to move only
    assert mine["to_move"] == "p1" and "legal" in mine
    assert "legal" not in theirs and "legal" not in spectator


def test_views_update_when_an_item_turns_face_up():
    s = new("hidden", 2, seed=1)
    table = s.game.board.zones["table"]
    hidden_card = s.zones[table][0]
    assert view(s, 1)["zones"]["table"][0] == HIDDEN
    s.item_states("face_up")[hidden_card] = True
    assert view(s, 1)["zones"]["table"][0] == hidden_card


def test_views_are_json_ready_and_include_the_result():
    import json
    s = random_playout("hidden", 2, seed=3)
    assert s.over
    for who in (None, 0, 1):
        out = view(s, who)
        json.dumps(out)
        assert out["over"] is True and out["result"] == s.result


def test_record_false_keeps_no_events_but_plays_the_same():
    a = new("auction", 3, seed=4)
    b = rulekit.new_game(load_test_game("auction"), 3, 4, record=False)
    for action in ["bid 2", "pass", "pass"]:
        rulekit.apply(a, action)
        rulekit.apply(b, action)
    assert b.events == [] and view(a, full=True) == view(b, full=True)


def test_game_loads_are_stable():
    a = rulekit.load_game(game_dir("counter"))
    b = rulekit.load_game(game_dir("counter"))
    assert a.content_hash == b.content_hash and a.content_hash.startswith("sha256:")
    assert api.legal_actions(rulekit.new_game(a, 1)) == api.legal_actions(rulekit.new_game(b, 1))
