# SPDX-License-Identifier: MIT
"""`let NAME = value` among the `for` clauses of comprehensions and options, and numbered
items: `generate: {value: {range: [1, 11]}}`."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api
from rulekit.errors import DiagnosticReport

from conftest import logged

GAME = """\
meta: {title: Lets}
players: {min: 1, max: 1}
sets:
  suits: [red, blue]
components:
  card: {generate: {value: {range: [1, 4]}}, start: hand}
  chip: {generate: {suit: suits, n: {range: [0, 1]}}, id: "{suit}{n}", start: box}
zones:
  hand: {}
  table: {}
vars:
  high: 3
functions:
  doubled:
    params: [xs]
    expr: "[w for c in xs let w = c.value * 2 if w > 3]"
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        log("{list(hand)} {[c.value + 1 for c in hand]} {list(box)} {[c.n for c in box]}")
        log("{doubled(hand)} {sum(u for c in hand let t = c.value let u = t * t if u > 4)}")
        log("{[a + b for a in [1, 2] let b = a * 10 for c in [b, b + 1] if c > 11]}")
        log("{max(c for c in hand let k = -c.value by k)} {[t for t in [7] let t = t + 1]}")
        choose players[0]:
            "lay {join(c.value for c in cards, '+')} ({t})" for cards in subsets(hand, min=2, max=2) \\
                    let t = sum(c.value for c in cards) if t > high:
                high = t
        log("{high} {t} {cards}")
"""


def test_let_names_a_value_for_the_clauses_after_it(write_game):
    s = api.new_game(rulekit.load_game(write_game(GAME)), 1, 0)
    assert logged(s) == ["[card-1, card-2, card-3, card-4] [2, 3, 4, 5] [red0, red1, blue0, blue1] [0, 1, 0, 1]",
                         "[4, 6, 8] 25", "[22, 22]", "card-1 [8]"]
    assert api.legal_actions(s) == ["lay 1+3 (4)", "lay 1+4 (5)", "lay 2+3 (5)", "lay 2+4 (6)", "lay 3+4 (7)"]
    api.apply(s, "lay 2+4 (6)")
    assert logged(s)[-1] == "6 6 [card-2, card-4]"      # an option's `let` is bound like its `for`


@pytest.mark.parametrize(("old", "new", "code", "line"), [
    ("let w = c.value * 2", "let w", "RK0201", 16),
    ("let w = c.value * 2", "let w = c.valu * 2", "RK0303", 16),
    ("let t = c.value let u", "let t = c.value let u = v + t let v", "RK0301", 23),   # v comes later
    ("let u = t * t if u > 4", "let u = t * t if z > 4", "RK0301", 23),
])
def test_a_malformed_let_is_an_error_on_its_line(write_game, old, new, code, line):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(GAME.replace(old, new, 1)))
    found = [(d.code, d.span.line) for d in info.value.diagnostics if d.severity == "error"]
    assert found[0] == (code, line)


@pytest.mark.parametrize(("generate", "code", "message"), [
    ("{value: {range: [1]}}", "RK0124", "fewer than 2 items"),
    ("{value: {range: [1, 'x']}}", "RK0123", "expected an integer"),
    ("{value: {rang: [1, 2]}}", "RK0124", "none of the forms allowed"),
    ("{value: {range: [1, 200000]}}", "RK0338", "`card` makes 200000 items"),
    ("{value: {range: [1, 1000]}, suit: suits}, copies: 100", "RK0338", "`card` makes 200000 items"),
    ("{value: nums}", "RK0335", "unknown set `nums`"),
])
def test_a_bad_numbered_generate_is_an_error_on_its_line(write_game, generate, code, message):
    text = GAME.replace("{generate: {value: {range: [1, 4]}}, start: hand}", f"{{generate: {generate}, start: hand}}")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text))
    found = [d for d in info.value.diagnostics if d.severity == "error"][0]
    assert found.code == code and found.span.line == 6
    assert message is None or message in found.message


def test_an_empty_range_makes_no_items(write_game):
    text = GAME.replace("range: [1, 4]", "range: [4, 1]").split("functions:")[0] + \
        "flow:\n  rounds: 1\n  phases:\n    - {id: only, do: 'log(\"{count(hand)}\")'}\n"
    assert logged(api.new_game(rulekit.load_game(write_game(text)), 1, 0)) == ["0"]
