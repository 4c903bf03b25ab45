# SPDX-License-Identifier: MIT
"""Exact division (`/`, fractions printed as 7/2) and bounded powers (`**`); the other
operators compile to plain Python as before."""
from __future__ import annotations

from fractions import Fraction

import pytest

import rulekit
from rulekit.engine import api, serialize

from conftest import failure, logged
from probes import Calls

GAME = """\
meta: {title: Arithmetic}
players: {min: 2, max: 2}
vars:
  half: 0
player:
  vars: {money: 7}
scoring:
  categories:
    - {id: halves, points: "(p.money / 2) // 1"}
    - {id: rest, points: "p.money % 1"}
  tiebreak: ["p.money / 4"]
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        log("{[7 / 2, 6 / 3, 1 / 2 + 1 / 2, -7 / 2 // 1, 2 ** 10, -2 ** 2, 2 ** 3 ** 2, (2 / 3) ** 2]}")
        log("{[7 // 2, 7 % 2, 3 * 4 - 1, 1 / 3 < 1 / 2, 3 / 1 == 3, (7 / 2) * 2]}")
        half = players[0].money / 2
        choose players[0]:
            "take {half}":
                players[0].money = 1
            "negative":
                log("{2 ** (0 - 1)}")
            "huge":
                log("{3 ** 100000}")
            "by zero":
                log("{1 / (half - half)}")
            "text":
                log("{'a' / 2}")
            "odd points":
                players[0].money = 3 / 2
"""


@pytest.fixture
def game(write_game):
    return rulekit.load_game(write_game(GAME))


def test_division_is_exact_and_powers_bind_as_in_python(game):
    s = api.new_game(game, 2, 0)
    assert logged(s) == ["[7/2, 2, 1, -4, 1024, -4, 512, 4/9]", "[3, 1, 11, true, true, 7]"]
    assert s.g["half"] == Fraction(7, 2) and s.pending.labels[0] == "take 7/2"


def test_whole_operators_compile_as_before(write_game):
    """`//`, `%`, `*` and `-` of whole numbers are Python's own operators: a line of them costs no
    call more than the line with their values written out (`/` and `**` call runtime.py's)."""
    whole = '        log("{[7 // 2, 7 % 2, 3 * 4 - 1, 1 / 3 < 1 / 2, 3 / 1 == 3, (7 / 2) * 2]}")\n'

    def played(line: str, name: str):
        game = rulekit.load_game(write_game(GAME.replace(whole, line), name=name))
        with Calls() as calls:
            state = api.new_game(game, 2, 0)
        return calls.total, logged(state)

    computed = played('        log("{[7 // 2, 7 % 2, 3 * 4 - 1, 5 * 2 - 10 // 3]}")\n', "computed")
    assert computed == played('        log("{[3, 1, 11, 7]}")\n', "written")
    assert computed[1][1] == "[3, 1, 11, 7]"


@pytest.mark.parametrize("action, code, message", [
    ("negative", "RK4017", "the exponent of `**` must be a whole number of at least 0, got -1 (for a fraction "
                           "write `1 / x ** 1`)"),
    ("huge", "RK4015", "is too large"),
    ("by zero", "RK4000", "division by zero"),
    ("text", "RK4002", "`/` divides numbers, not a"),
])
def test_bad_arithmetic_fails_on_its_line(game, action, code, message):
    error = failure(game, 2, action)
    assert error.code == code and message in str(error)
    assert error.span.line == GAME.splitlines().index(f'            "{action}":') + 2


def test_points_must_come_out_whole_but_tiebreaks_may_be_fractions(game):
    s = api.new_game(game, 2, 0)
    api.apply(s, "take 7/2")
    assert s.result["scores"]["p2"] == {"breakdown": {"halves": 3, "rest": 0}, "total": 3, "tiebreak": [1.75]}
    assert s.result["scores"]["p1"]["tiebreak"] == [0.25] and s.result["ranking"] == ["p2", "p1"]
    assert "must be a whole number, not 1/2 (round it" in str(failure(game, 2, "odd points"))


def test_fractions_survive_saving(game):
    s = api.new_game(game, 2, 0)
    again = serialize.from_dict(game, serialize.to_dict(s))
    assert again.g["half"] == Fraction(7, 2) and again.pending.labels == s.pending.labels
