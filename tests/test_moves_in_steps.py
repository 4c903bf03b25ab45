# SPDX-License-Identifier: MIT
"""Decisions in steps (issue 55): a procedure marked `move: whole` asks its player step by step
(`rulekit play`, RL, `legal_actions`), while bots, scripts and `legal:` may take the steps as one
move, named by the steps' labels joined with "; " (engine/moves.py).

tests/games/claims: claim a road (north: 6 points for 3 gems; south: 4 points for 1 gem), then
pay for it with gems of your hand (amber 1, jade 2, ruby 5), which count as points if kept. The
best move is `claim south; pay amber` (+3): the north road looks best until its payment (+6 - 8),
and south paid with the ruby is a loss. Its variant `steps` is the same game without the mark."""
from __future__ import annotations

from textwrap import dedent

import pytest

from rulekit.agents import GreedyAgent, MCTSAgent, play_out
from rulekit.agents.search import _edges
from rulekit.engine import api, moves
from rulekit.engine.serialize import to_dict
from rulekit.errors import ContentRuntimeError, IllegalAction
from rulekit.limits import MAX_MOVE_POSITIONS, MAX_MOVE_STEPS
from rulekit.testing.script import run_script
from rulekit.testing.steps import ScriptError, fingerprint
from tests.conftest import ONE_DECISION, codes, game_dir, load_test_game, where

BEST = ["claim south", "pay amber"]
WHOLE_MOVES = ["claim north; pay amber+jade+ruby", "claim south; pay amber", "claim south; pay jade",
               "claim south; pay ruby", "pass"]


@pytest.fixture(scope="module")
def claims():
    return load_test_game("claims")


@pytest.fixture(scope="module")
def in_steps():
    return load_test_game("claims", ("steps",))


def _first_move(bot, game) -> list[str]:
    """The two steps ``bot`` takes as p1's first move of a new game, as labels."""
    s = api.new_game(game, 2, 0)
    taken = []
    for _ in range(2):
        label = s.pending.label(bot.choose(s))
        api.apply(s, label)
        taken.append(label)
    assert s.pending.player == 1, "the move was two steps of p1's"
    return taken


# ------------------------------------------------------------------ the bots

@pytest.mark.parametrize("seed", range(4))
def test_greedy_judges_the_whole_move(claims, in_steps, seed):
    """One-step greedy (no follow-up lookahead) picks the road by its payment too when the move is
    marked; unmarked, it judges the claim alone and takes the north road, which its payment makes
    a loss: the best move needs both steps."""
    assert _first_move(GreedyAgent(seed, follow=0), claims) == BEST
    assert _first_move(GreedyAgent(seed), claims) == BEST
    assert _first_move(GreedyAgent(seed, follow=0), in_steps) == ["claim north", "pay amber+jade+ruby"]


def test_greedy_plays_marked_games_to_the_end(claims, in_steps):
    """Whole moves win the game for p1 that one step at a time loses (p2 then claims the cheap road)."""
    s = api.new_game(claims, 2, 3)
    play_out(s, [GreedyAgent(1, follow=0), GreedyAgent(2, follow=0)])
    assert s.actions[:4] == [*BEST, "pass", "pass"]     # p2 passes: north would cost more than it scores
    assert s.result["winners"] == ["p1"] and s.result["scores"]["p1"]["total"] == 4 + 2 + 5
    s = api.new_game(in_steps, 2, 3)
    play_out(s, [GreedyAgent(1, follow=0), GreedyAgent(2, follow=0)])
    assert s.actions[:4] == ["claim north", "pay amber+jade+ruby", "claim south", "pay topaz"]
    assert s.result["winners"] == ["p2"]


def test_search_takes_whole_moves_as_edges(claims, in_steps):
    s = api.new_game(claims, 2, 0)
    labels, steps = _edges(s)
    assert labels == WHOLE_MOVES
    assert steps == [(0, 0), (1, 0), (1, 1), (1, 2), (2,)]
    assert _edges(api.new_game(in_steps, 2, 0)) == (("claim north", "claim south", "pass"), None)
    assert _first_move(MCTSAgent(0, iterations=120), claims) == BEST


# ------------------------------------------------------------------ listing and applying moves

def test_legal_lists_steps_and_moves_lists_whole_moves(claims, in_steps):
    s = api.new_game(claims, 2, 0)
    assert api.legal_actions(s) == ["claim north", "claim south", "pass"]     # play and RL: step by step
    assert moves.legal_moves(s) == WHOLE_MOVES
    api.apply(s, "claim south")                                               # one step: the options narrowed
    assert api.legal_actions(s) == ["pay amber", "pay jade", "pay ruby"]
    assert moves.legal_moves(s) == ["pay amber", "pay jade", "pay ruby"]      # the rest of the move
    unmarked = api.new_game(in_steps, 2, 0)
    assert moves.anchor(unmarked) is None
    assert moves.legal_moves(unmarked) == ["claim north", "claim south", "pass"]


def test_a_whole_move_applies_every_step_as_the_steps_would(claims):
    whole, stepwise = api.new_game(claims, 2, 0), api.new_game(claims, 2, 0)
    api.apply(whole, "claim south; pay amber")
    for step in BEST:
        api.apply(stepwise, step)
    assert whole.actions == stepwise.actions == BEST          # the log keeps the steps: it replays as ever
    assert to_dict(whole) == to_dict(stepwise)
    assert whole.pending.player == 1


@pytest.mark.parametrize("action, reason, legal", [
    ("claim south; pay ruby+jade", "step 2, `pay ruby+jade`, is not legal after `claim south`",
     ["pay amber", "pay jade", "pay ruby"]),
    ("claim west; pay amber", "step 1, `claim west`, is not legal", ["claim north", "claim south", "pass"]),
    ("claim south; pay amber; pass", "the move ends after `claim south; pay amber`", []),
    ("pass; claim south", "the move ends after `pass`", []),
])
def test_an_illegal_step_leaves_the_state_as_it_was(claims, action, reason, legal):
    s = api.new_game(claims, 2, 0)
    before = fingerprint(s), to_dict(s)
    with pytest.raises(IllegalAction) as refused:
        api.apply(s, action)
    assert reason in refused.value.reason
    assert refused.value.legal == legal
    assert (fingerprint(s), to_dict(s)) == before
    api.apply(s, "claim south; pay amber")                    # and it plays on from there
    assert s.actions == BEST


def _marked(write_game, body: str, players: int = 1, coins: str = "0", mark: str = "whole", rounds: int = 1):
    """A game of one procedure marked `move: whole`, `pick(p)` (``body`` its `do:`, at the left
    margin), called once for each player each round; `total` scores, `coins` never drops below 0."""
    import rulekit
    text = dedent(f"""\
        meta: {{title: Marked}}
        players: {{min: {players}, max: {players}, default: {players}}}
        vars:
          total: 0
          coins: {{initial: {coins}, min: 0}}
        procedures:
          pick:
            params: [p]
            move: {mark}
            do: |
        """) + "".join(f"      {line}\n" for line in dedent(body).strip("\n").splitlines()) + dedent("""\
        flow:
          rounds: ROUNDS
          phases:
            - id: p
              do: |
                for p in players:
                    pick(p)
        scoring:
          categories:
            - {id: total, points: "total"}
        """).replace("ROUNDS", str(rounds))
    return rulekit.load_game(write_game(text))


def test_a_joined_action_cut_short_is_refused(write_game):
    """A move of three steps named by two is not a whole move: refused, nothing changed."""
    game = _marked(write_game, """
        choose p:
            "a {n}" for n in range(2):
                total += 100 * n
        choose p:
            "b {n}" for n in range(2):
                total += 10 * n
        choose p:
            "c {n}" for n in range(2):
                total += n
        """, players=2)
    s = api.new_game(game, 2, 0)
    before = to_dict(s)
    with pytest.raises(IllegalAction, match="not a whole move: p1 decides again after `b 1`"):
        api.apply(s, "a 0; b 1")
    assert to_dict(s) == before
    assert moves.legal_moves(s)[:2] == ["a 0; b 0; c 0", "a 0; b 0; c 1"]
    api.apply(s, "a 1; b 0; c 1")
    assert s.actions == ["a 1", "b 0", "c 1"] and s.g["total"] == 101
    assert moves.legal_moves(s)[-1] == "a 1; b 1; c 1"      # p2's move: a new call, a new move


def test_a_move_ends_where_another_player_decides_or_the_call_returns(write_game):
    """Inside the marked procedure the other player's decision ends the mover's move (and is a
    move of its own); the same player asked by the next call of the procedure starts a new move."""
    game = _marked(write_game, """
        choose p:
            "a {n}" for n in range(2):
                total += n
        if num_players > 1:
            choose next_player(p):
                "x":
                    pass
                "y":
                    pass
        choose p:
            "b {n}" for n in range(2):
                total += n
        """, players=2)
    s = api.new_game(game, 2, 0)
    assert moves.legal_moves(s) == ["a 0", "a 1"]
    api.apply(s, "a 1")
    assert (s.pending.player, moves.legal_moves(s)) == (1, ["x", "y"])
    api.apply(s, "y")
    assert (s.pending.player, moves.legal_moves(s)) == (0, ["b 0", "b 1"])
    alone = _marked(write_game, """
        choose p:
            "a {n}" for n in range(2):
                total += n
        choose p:
            "b {n}" for n in range(2):
                total += n
        """, rounds=2)
    s = api.new_game(alone, 1, 0)
    assert moves.legal_moves(s) == ["a 0; b 0", "a 0; b 1", "a 1; b 0", "a 1; b 1"]   # not round 2's steps
    with pytest.raises(IllegalAction, match="the move ends after `a 1; b 1`"):
        api.apply(s, "a 1; b 1; a 0")
    api.apply(s, "a 1; b 1")
    assert s.g["round"] == 2 and moves.legal_moves(s)[-1] == "a 1; b 1"


def test_a_content_error_in_a_later_step_restores_the_state(write_game):
    game = _marked(write_game, """
        choose p:
            "take {n}" for n in range(1, 3):
                coins += n
        choose p:
            "spend {n}" for n in [4, 9]:
                coins -= n
        """, coins="3")
    s = api.new_game(game, 1, 0)
    before = to_dict(s), list(s.events)
    with pytest.raises(ContentRuntimeError) as failed:
        api.apply(s, "take 1; spend 9")
    assert failed.value.code == "RK4003"                     # coins below their min, in step 2
    assert (to_dict(s), s.events) == before
    api.apply(s, "take 2; spend 4")
    assert s.over and s.g["coins"] == 1


# ------------------------------------------------------------------ scripts

def test_a_script_names_a_whole_move_and_checks_legal_whole_moves():
    result = run_script(game_dir("claims/scripts/whole.yaml"))
    assert result.state.actions[:2] == BEST
    assert "p1: claim south" in result.transcript and "p1: pay amber" in result.transcript


def test_a_script_with_an_illegal_step_names_the_legal_ones(write_game):
    folder = write_game({"s.yaml": f"""
        game: {game_dir("claims")}
        players: 2
        actions:
          - p1: claim south; pay jade+ruby
        """})
    with pytest.raises(ScriptError) as failed:
        run_script(folder + "/s.yaml")
    assert failed.value.code == "RK5005"
    assert failed.value.legal == ["pay amber", "pay jade", "pay ruby"]
    assert "step 2, `pay jade+ruby`, is not legal after `claim south`" in str(failed.value)


def test_a_legal_step_of_whole_moves_fails_on_its_line(write_game):
    folder = write_game({"s.yaml": f"""
        game: {game_dir("claims")}
        players: 2
        actions:
          - legal: {{excludes: ["claim south; pay *"]}}
        """})
    with pytest.raises(ScriptError) as failed:
        run_script(folder + "/s.yaml")
    assert failed.value.code == "RK5013"
    assert "claim south; pay amber, claim south; pay jade, claim south; pay ruby are" in str(failed.value)
    assert (failed.value.span.line, failed.value.span.column) == (5, 24)


# ------------------------------------------------------------------ the bound and the mark

def test_a_move_too_big_to_list_is_a_located_error(write_game):
    side = int(MAX_MOVE_POSITIONS ** 0.5) + 2         # side * side complete moves: past the bound
    game = _marked(write_game, f"""
        choose p:
            "a {{n}}" for n in range({side}):
                total += n
        choose p:
            "b {{n}}" for n in range({side}):
                total += n
        """)
    s = api.new_game(game, 1, 0)
    with pytest.raises(ContentRuntimeError) as failed:
        moves.legal_moves(s)
    assert failed.value.code == "RK4031"
    assert f"more than {MAX_MOVE_POSITIONS:,} positions" in str(failed.value)
    assert (failed.value.span.line, failed.value.span.column) == (7, 3)     # the procedure `pick`
    api.apply(s, "a 1; b 2")                    # a whole move named is applied step by step: no listing
    assert s.over and s.g["total"] == 3


def test_a_move_that_never_ends_is_stopped_at_its_step_bound(write_game):
    game = _marked(write_game, """
        while true:
            choose p:
                "again":
                    pass
                "stop":
                    return
        """)
    s = api.new_game(game, 1, 0)
    with pytest.raises(ContentRuntimeError, match=f"takes more than {MAX_MOVE_STEPS} steps") as failed:
        GreedyAgent(0).choose(s)
    assert failed.value.code == "RK4031"


def test_a_mark_on_a_procedure_that_never_asks_is_a_warning(write_game):
    import rulekit
    folder = write_game(dedent("""
        meta: {title: Quiet}
        players: {min: 1, max: 1, default: 1}
        procedures:
          tidy:
            params: []
            move: whole
            do: |
              pass
        setup: |
          tidy()
        """) + ONE_DECISION)
    game = rulekit.load_game(folder)
    assert [(d.code, d.severity) for d in game.warnings] == [("RK0361", "warning")]
    assert where(game.warnings[0]) == ("game.yaml", 7, 11)     # `move: whole`
    assert game.program.whole_moves == frozenset()


def test_a_misspelt_mark_is_refused_by_the_schema(write_game):
    from rulekit.errors import DiagnosticReport
    with pytest.raises(DiagnosticReport) as refused:
        _marked(write_game, """
            choose p:
                "go":
                    pass
            """, mark="wholly")
    assert codes(refused.value) == ["RK0122"]
    assert where(refused.value.diagnostics[0]) == ("game.yaml", 9, 11)


def test_play_asks_a_move_step_by_step(monkeypatch, capsys):
    """`rulekit play` takes one step at a time: after `claim south` only its payments are offered."""
    import io
    import sys

    from rulekit.cli.app import main
    monkeypatch.setattr(sys, "stdin", io.StringIO("claim south\n1\npass\n"))
    assert main(["play", game_dir("claims"), "--bots", "greedy"]) == 0
    out = capsys.readouterr().out
    first, second = out.split("> claim south")[0], out.split("> claim south")[1].split("> 1")[0]
    assert all(label in first for label in ("claim north", "claim south", "pass"))
    assert all(label in second for label in ("pay amber", "pay jade", "pay ruby"))
    assert "claim north" not in second and "; " not in second      # the options narrowed, one step
    assert "p1 pay amber" in out and "winner: p1" in out


def test_reinforcement_learning_takes_a_move_step_by_step(write_game):
    """RL acts once a step, with the fixed ids of the single options: p1 acts three times in a
    row (its move of three steps), then p2; no id stands for a whole move."""
    pytest.importorskip("pettingzoo")
    from rulekit.rl.pettingzoo import env
    game = _marked(write_game, """
        choose p:
            "a {n}" for n in range(2):
                total += 100 * n
        choose p:
            "b {n}" for n in range(2):
                total += 10 * n
        """, players=2)
    e = env(game, seed=0)
    e.reset()
    assert e.unwrapped.play.vocabulary.notations == ("a 0", "a 1", "b 0", "b 1")    # the single options
    acted = []
    for agent in e.agent_iter(max_iter=4):
        obs, _reward, _terminated, _truncated, _info = e.last()
        acted.append((agent, e.unwrapped.legal_actions()))
        e.step(int(obs["action_mask"].nonzero()[0][-1]))
    assert acted == [("p1", ["a 0", "a 1"]), ("p1", ["b 0", "b 1"]), ("p2", ["a 0", "a 1"]), ("p2", ["b 0", "b 1"])]


FAR = """\
meta: {title: Far}
players: {min: 2, max: 2, default: 2}
components:
  gem: {items: [{id: g1}, {id: g2}, {id: g3}, {id: g4}], start: box}
zones:
  box: {visibility: public}
  spent: {visibility: public}
player:
  vars:
    score: 0
  zones:
    hand: {visibility: public}
setup: |
  for g in list(box):
      move(g, to=players[0].hand)
procedures:
  turn:
    params: [p]
    MARK
    do: |
      choose p:
          "near":
              p.score += 3
          "far" if count(p.hand) >= 3:
              owed = 3
              while owed > 0:
                  choose p:
                      "give {g}" for g in p.hand:
                          move(g, to=spent)
                          owed -= 1
              p.score += 10
flow:
  rounds: 1
  phases:
    - id: turns
      do: |
        for p in players:
            turn(p)
estimate: "p.score + count(p.hand)"
scoring:
  categories:
    - {id: score, points: "p.score + count(p.hand)"}
"""


def test_greedy_sees_a_move_longer_than_its_follow_up(write_game):
    """The far target pays 10 once three gems are given, one a step: a move of four steps.
    Greedy's own follow-up (two more decisions) sees the first two gems go and no points, so
    unmarked it takes `near` (+3); judged whole, `far` is +10 - 3."""
    import rulekit
    marked = rulekit.load_game(write_game(FAR.replace("MARK", "move: whole"), "marked"))
    unmarked = rulekit.load_game(write_game(FAR.replace("MARK", "text: unmarked"), "unmarked"))
    s = api.new_game(marked, 2, 0)
    assert moves.legal_moves(s)[:2] == ["near", "far; give g1; give g2; give g3"] and len(moves.legal_moves(s)) == 25
    for seed in range(3):
        s = api.new_game(marked, 2, 0)
        play_out(s, [GreedyAgent(seed), GreedyAgent(seed)])
        assert s.actions[0] == "far" and len(s.actions) == 5 and s.result["scores"]["p1"]["total"] == 11
        s = api.new_game(unmarked, 2, 0)
        play_out(s, [GreedyAgent(seed), GreedyAgent(seed)])
        assert s.actions == ["near", "near"]
