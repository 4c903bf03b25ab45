# SPDX-License-Identifier: MIT
"""`scoring: eligible:` ranks players who may not win after those who may, scores untouched;
the scoring table shows tie-break values and marks them."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api
from rulekit.view.report import score_table

from conftest import failure

GAME = """\
meta: {title: Eligible}
players: {min: 3, max: 3}
player:
  vars: {money: 0, cards: 1}
scoring:
  categories:
    - {id: money, points: "p.money"}
  tiebreak: ["p.cards / 2"]
  eligible: "p.cards > 0"
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        players[0].money = 9
        players[0].cards = 0
        players[1].money = 4
        choose players[0]:
            "keep":
                pass
            "nobody":
                players[1].cards = 0
                players[2].cards = 0
"""


@pytest.fixture
def game(write_game):
    return rulekit.load_game(write_game(GAME))


def test_an_ineligible_player_ranks_last_with_a_true_score(game):
    s = api.new_game(game, 3, 0)
    api.apply(s, "keep")
    assert s.result["ranking"] == ["p2", "p3", "p1"] and s.result["winners"] == ["p2"]
    assert s.result["scores"]["p1"] == {"breakdown": {"money": 9}, "total": 9, "tiebreak": [0], "eligible": False}
    assert s.result["scores"]["p3"]["eligible"] is True


def test_no_one_eligible_is_an_error_on_its_line(game):
    error = failure(game, 3, "nobody")
    assert error.code == "RK4018" and error.span.line == 9 and "no player may win" in str(error)


def test_the_table_shows_tiebreaks_and_who_may_not_win(game):
    from rich.console import Console
    s = api.new_game(game, 3, 0)
    api.apply(s, "keep")
    console = Console(width=100, record=True)
    console.print(score_table(s))
    rows = [line.split("│")[1:-1] for line in console.export_text().splitlines() if line.startswith("│")]
    assert [[cell.strip() for cell in row] for row in rows] == [
        ["p2", "4", "4", "0.5"], ["p3", "0", "0", "0.5"], ["p1 (may not win)", "9", "9", "0"]]

