"""Simultaneous decisions (`choose_all`, engine/simultaneous.py) on a small sealed-bid game.

Every listed player picks an option without seeing the others' picks, in any order; when the
last has chosen, each pick's option body runs in the listed order. The API, views, scripts,
saved states, determinisation, bots and the PettingZoo env all follow.
"""
from __future__ import annotations

import json
import textwrap

import pytest

import rulekit
from rulekit import agents
from rulekit.engine import api, serialize
from rulekit.engine.determinize import determinize
from rulekit.engine.simultaneous import NotDeciding, Simultaneous
from rulekit.engine.view import view
from rulekit.errors import ContentRuntimeError, IllegalAction
from rulekit.testing.script import run_script
from rulekit.testing.steps import ScriptError

SEALED = """\
meta: {title: Sealed bids}
players: {min: 2, max: 4, default: 3}
player:
  vars:
    money: {initial: 5, visibility: owner, min: 0}
    wins: {initial: 0}
vars:
  best: {initial: -1}
  winner: {initial: none}
flow:
  rounds: 2
  phases:
    - id: bidding
      do: |
        best = -1
        winner = none
        choose_all q in BIDDERS:
            "bid {n}" for n in range(0, q.money + 1):
                log("{q} bids {n}")
                if n > best:
                    best = n
                    winner = q
        if winner != none:
            winner.money -= best
            winner.wins += 1
scoring:
  categories:
    - {id: wins, points: "p.wins"}
"""


def make(tmp_path, bidders: str = "players", name: str = "sealed"):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.yaml").write_text(SEALED.replace("BIDDERS", bidders), encoding="utf-8")
    return rulekit.load_game(str(folder))


@pytest.fixture
def game(tmp_path):
    return make(tmp_path)


def test_everyone_decides_in_any_order_and_the_bodies_run_when_all_have(game):
    s = api.new_game(game, 3, 1)
    assert isinstance(s.pending, Simultaneous)
    assert api.current_players(s) == [0, 1, 2]
    assert api.legal_actions(s, "p2") == [f"bid {n}" for n in range(6)]
    api.apply(s, "p3: bid 4")
    api.apply(s, "bid 1", player="p2")
    assert api.current_players(s) == [0]
    assert not any(e[0] == "log" for e in s.events)      # nothing runs before the last pick
    api.apply(s, "bid 4")                                 # no player named: the first still to choose
    logs = [e[1] for e in s.events if e[0] == "log"]
    assert logs == ["p1 bids 4", "p2 bids 1", "p3 bids 4"]   # the listed order, not the order of picking
    assert s.p[0]["wins"] == 1 and s.p[0]["money"] == 1      # the first of equal bids in the list wins
    assert s.actions == ["p3: bid 4", "p2: bid 1", "p1: bid 4"]
    assert api.current_players(s) == [0, 1, 2]               # round 2 asks everyone again


def test_a_log_replays_out_of_order_picks(game):
    s = api.new_game(game, 3, 1)
    for action in ["p2: bid 2", "p3: bid 5", "p1: bid 0", "p1: bid 3", "p3: bid 0", "p2: bid 1"]:
        api.apply(s, action)
    again = api.new_game(game, 3, 1)
    for action in s.actions:
        api.apply(again, action)
    assert again.over and again.result == s.result and again.events == s.events


def test_a_player_who_has_chosen_is_refused_with_the_state_unchanged(game):
    s = api.new_game(game, 3, 1)
    api.apply(s, "p2: bid 3")
    before = (serialize.to_dict(s), api.current_players(s))
    with pytest.raises(NotDeciding) as err:
        api.apply(s, "p2: bid 1")
    assert err.value.code == "RK3002" and "p2 has already chosen" in str(err.value)
    with pytest.raises(NotDeciding, match="p4 is not deciding"):
        api.apply(s, "bid 1", player=3)
    with pytest.raises(IllegalAction, match="not a legal action"):
        api.apply(s, "p3: bid 9")
    with pytest.raises(IllegalAction, match="`someone` names no player"):
        api.apply(s, "bid 1", player="someone")
    assert (serialize.to_dict(s), api.current_players(s)) == before
    assert s.pending.player == 0


def test_views_never_show_another_players_pick(game):
    s = api.new_game(game, 3, 1)
    api.apply(s, "p2: bid 3")
    mine, other, spectator = view(s, 1), view(s, 0), view(s, None)
    assert mine["chosen"] == "bid 3" and "legal" not in mine
    assert other["deciding"] == ["p1", "p3"] and other["to_move"] == "p1" and "chosen" not in other
    assert view(s, 2)["to_move"] == "p3" and view(s, 2)["legal"][-1] == "bid 5"
    for picture in (other, view(s, 2), spectator):
        assert "bid 3" not in json.dumps({k: v for k, v in picture.items() if k != "legal"})


def test_a_saved_state_resumes_the_decision(game):
    s = api.new_game(game, 3, 1)
    api.apply(s, "p3: bid 2")
    loaded = serialize.from_dict(game, serialize.to_dict(s))
    assert api.current_players(loaded) == [0, 1]
    api.apply(loaded, "p2: bid 5")
    api.apply(loaded, "p1: bid 1")
    assert loaded.p[1]["wins"] == 1


def test_search_bots_forget_the_others_picks(game):
    s = api.new_game(game, 3, 1)
    api.apply(s, "p1: bid 5")
    api.apply(s, "p3: bid 5")
    world, _ = determinize(s, 1, 7)
    assert api.current_players(world) == [0, 1, 2] and world.pending.player == 1
    assert api.current_players(s) == [1]                      # the real game is untouched
    for bots in (["random"] * 3, ["greedy"] * 3, ["mcts:20"] * 3):
        played = api.new_game(game, 3, 2)
        agents.play_out(played, [agents.make_agent(b, i) for i, b in enumerate(bots)])
        assert played.over and all(":" in a for a in played.actions)


@pytest.mark.parametrize("bidders, message", [
    ("[players[0], 7]", "`choose_all` asks 7, who is not a player"),
    ("[players[1], players[1]]", "lists p2 twice"),
])
def test_a_choice_for_someone_who_is_no_player_is_an_error_on_its_line(tmp_path, bidders, message):
    game = make(tmp_path, bidders)
    with pytest.raises(ContentRuntimeError) as err:
        api.new_game(game, 3, 0)
    assert err.value.code == "RK4013" and message in str(err.value)
    assert err.value.span.line == 17 and err.value.span.path.endswith("game.yaml")


def test_nobody_listed_asks_nobody(tmp_path):
    game = make(tmp_path, "[]")
    s = api.new_game(game, 3, 0)
    assert s.over and s.result["winners"] == ["p1", "p2", "p3"]


def test_scripts_give_picks_in_any_order_and_refuse_a_second_one(game, tmp_path):
    script = tmp_path / "bids.yaml"
    script.write_text(textwrap.dedent(f"""\
        game: {game.path}
        players: 3
        actions:
          - legal: {{player: p3, includes: ["bid 5"]}}
          - p3: bid 5
          - refuse: {{action: "p3: bid 1", because: RK3002}}
          - p1: bid 2
          - p2: bid 4
          - expect: {{"p3.wins": 1, "p3.money": 0}}
        """), encoding="utf-8")
    result = run_script(str(script))
    assert "p3: bid 5" in result.transcript and result.log["actions"] == ["p3: bid 5", "p1: bid 2", "p2: bid 4"]
    script.write_text(script.read_text().replace('  - refuse: {action: "p3: bid 1", because: RK3002}\n',
                                                 "  - p3: bid 1\n"), encoding="utf-8")
    with pytest.raises(ScriptError) as err:
        run_script(str(script))
    assert err.value.code == "RK3002" and "p3 has already chosen" in str(err.value)


def test_the_pettingzoo_env_lists_everyone_to_act(game):
    pz = pytest.importorskip("rulekit.rl.pettingzoo")
    env = pz.env(game.path, players=3, seed=0)
    env.reset()
    assert env.acting == ["p1", "p2", "p3"] and env.infos["p2"]["to_act"] == ["p1", "p2", "p3"]
    assert all(env.observe(a)["action_mask"].sum() == 6 for a in env.acting)
    env.step(2)
    assert env.acting == ["p2", "p3"] and env.agent_selection == "p2"
    assert env.observe("p1")["action_mask"].sum() == 0


def test_play_announces_a_bots_secret_pick_without_its_option():
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-m", "rulekit", "play", os.path.join(root, "examples", "for-sale"),
                          "--players", "3", "--seat", "2", "--seed", "2"], input="1\n" * 40,
                         capture_output=True, text=True, env=env, timeout=300).stdout
    assert "  p3 has chosen" in out and "  p1 has chosen" in out       # the sale: a choose_all
    assert not any(line.startswith(("  p1 sell", "  p3 sell")) for line in out.splitlines())
    assert "  p2 sell" in out                                           # the human's own pick is echoed


def test_greedy_judges_a_pick_by_the_decisions_outcome(game):
    s = api.new_game(game, 3, 1, record=False)
    api.apply(s, "p2: bid 4")                    # p2's real pick: the lookahead must not see it
    world, _ = determinize(s, 0, 3)
    api.apply_index(world, 5, atomic=False)      # p1 bids 5 there
    agents._others_decide(world, 0, 11)          # the others pick at random: the bodies have run
    assert world.g["round"] == 2 and api.current_players(world) == [0, 1, 2]
    assert world.p[0]["wins"] == 1                # 5 is the most anyone can bid; p1 listed first


def test_a_pick_counts_by_the_first_word_of_its_notation(game):
    s = api.new_game(game, 3, 1)
    assert [s.pending.verb(i) for i in range(2)] == ["bid", "bid"]
    assert s.pending.label(1) == "bid 1"
