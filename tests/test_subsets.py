# SPDX-License-Identifier: MIT
"""Subset choices: `for cards in subsets(p.hand)` in a `choose` is one decision whose options
are sets of items, labelled with `join`, and bots pick among them in one step."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.agents import make_agent
from rulekit.engine import api
from rulekit.errors import ContentRuntimeError, DiagnosticReport
from rulekit.testing.script import run_script

from conftest import GAMES, load_test_game, logged

SMALL = """\
meta: {title: Sets}
players: {min: 1, max: 1}
components:
  card: {items: [{id: a, v: 3}, {id: b, v: 8}, {id: c, v: 3}], start: hand}
zones:
  hand: {}
  table: {}
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        log("{subsets(hand)}")
        log("{subsets([1, 2, 3], min=2)} {subsets([1, 2, 3], max=1)} {subsets([1, 2], min=3)}")
        log("{join(c.v for c in hand, '+')} {join([])} {join(players)}")
        choose players[0]:
            "lay {join(c.v for c in cards, '+')}" for cards in subsets(hand, min=1) if sum(c.v for c in cards) > 7:
                for c in cards:
                    move(c, to=table)
"""


def test_subsets_are_listed_smaller_first_in_the_items_order(write_game):
    s = api.new_game(rulekit.load_game(write_game(SMALL)), 1, 0)
    assert logged(s) == ["[[], [a], [b], [c], [a, b], [a, c], [b, c], [a, b, c]]",
                         "[[1, 2], [1, 3], [2, 3], [1, 2, 3]] [[], [1], [2], [3]] []",
                         "3+8+3  p1"]
    assert api.legal_actions(s) == ["lay 8", "lay 3+8", "lay 8+3", "lay 3+8+3"]
    api.apply(s, "lay 8+3")
    assert list(s.zones[s.game.board.zones["table"]]) == ["b", "c"]


def test_identical_items_make_one_option_with_by(write_game):
    """Two cards of value 3 give `lay 3` twice: RK4011, unless `by` groups equal labels."""
    with pytest.raises(ContentRuntimeError) as info:
        api.new_game(rulekit.load_game(write_game(SMALL.replace("> 7", "> 2"))), 1, 0)
    assert info.value.code == "RK4011"
    grouped = SMALL.replace("> 7:", "> 2 by join(c.v for c in cards, '+'):")
    s = api.new_game(rulekit.load_game(write_game(grouped, "grouped")), 1, 0)
    assert api.legal_actions(s) == ["lay 3", "lay 8", "lay 3+8", "lay 3+3", "lay 8+3", "lay 3+8+3"]


def test_no_legal_subset_is_a_choice_without_options(write_game):
    with pytest.raises(ContentRuntimeError) as info:
        api.new_game(rulekit.load_game(write_game(SMALL.replace("> 7", "> 14"))), 1, 0)
    assert info.value.code == "RK4010"
    assert info.value.span.line == 16      # the `choose`


@pytest.mark.parametrize(("call", "code", "column"), [
    ("subsets()", "RK0310", 64),
    ("subsets(hand, size=2)", "RK0308", 83),
    ("subsets(hand, 1, 2, 3)", "RK0307", 64),
    ("subsets(5)", "RK0321", 72),
])
def test_a_malformed_subset_choice_is_a_content_error_on_its_line(write_game, call, code, column):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(SMALL.replace("subsets(hand, min=1)", call)))
    found = [(d.code, d.span.line, d.span.column) for d in info.value.diagnostics if d.severity == "error"]
    assert found == [(code, 17, column)]


def test_a_malformed_option_is_a_syntax_error_on_its_line(write_game):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(SMALL.replace(" if sum(c.v for c in cards) > 7:", " if:")))
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.code.startswith("RK02") and diagnostic.span.line == 17


@pytest.mark.parametrize(("expr", "code", "message"), [
    ("count(subsets(range(25)))", "RK4015", "would list 33,554,432 subsets"),
    ("count(subsets(range(25), min=23))", None, "326"),
    ("subsets(hand, min=first(['x']))", "RK4002", "bounds are whole numbers, not x"),
    ("join(hand, first([3]))", "RK4002", "separates with a text, not 3"),
])
def test_bad_subsets_stop_on_their_line(write_game, expr, code, message):
    game = rulekit.load_game(write_game(SMALL.replace('log("{subsets(hand)}")', f'log("{{{expr}}}")')))
    if code is None:
        assert logged(api.new_game(game, 1, 0))[0] == message
        return
    with pytest.raises(ContentRuntimeError) as info:
        api.new_game(game, 1, 0)
    assert info.value.code == code and message in str(info.value)
    assert info.value.span.line == 13


def test_the_script_gives_subset_actions_by_their_labels():
    result = run_script(str(GAMES / "subsets" / "scripts" / "lay_subsets.yaml"))
    assert result.state.over
    assert "p1: lay 3+8" in result.transcript
    assert result.state.result["winners"] == ["p1"]


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:8"])
def test_bots_take_a_subset_choice_as_one_decision(bot):
    """11 cards: 2,047 sets to lay and a pass, one decision; after it the other player acts."""
    s = api.new_game(load_test_game("subsets"), 2, 3)
    assert len(s.pending.choices) == 2048 and s.pending.player == 0
    index = make_agent(bot, 3).choose(s)
    label = s.pending.label(index)
    api.apply_index(s, index)
    assert s.actions == [label] and s.pending.player == 1
    if label != "pass":
        assert s.g["high"] == sum(int(v) for v in label.removeprefix("lay ").split("+"))


def test_random_games_end():
    game = load_test_game("subsets")
    for seed in range(5):
        s = api.new_game(game, 2, seed, record=False)
        bot = make_agent("random", seed)
        while not s.over:
            api.apply_index(s, bot.choose(s), atomic=False)
        laid = [s.p[q]["laid"] for q in range(2)]
        assert sum(laid) == len(s.zones[game.board.zones["table"]])
