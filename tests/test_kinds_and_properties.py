# SPDX-License-Identifier: MIT
"""Kinds with different properties: `has(item, prop)`, per-kind state defaults, and a missing
property read named by item, kind and property."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api
from rulekit.errors import DiagnosticReport

from conftest import failure, logged

GAME = """\
meta: {title: Kinds}
players: {min: 2, max: 2}
sets:
  colours: {red: {warm: true}, blue: {}}
components:
  tile: {items: [{id: t1, worth: 3}, {id: t2, worth: 5}], state: {used: false}, start: row}
  coin: {items: [{id: c1}], state: {used: true}, start: row}
  pawn: {items: [{id: k1}], start: row}
zones:
  row: {}
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        total = sum(t.worth for t in row if has(t, "worth"))
        log("worth {total}")
        log("state {[has(x, 'used') for x in row]} used {[x.used for x in row]}")
        log("members {has(red, 'warm')} {has(blue, 'warm')}")
        choose players[0]:
            "misread":
                log("{sum(t.worth for t in row)}")
            "ask a player":
                log("{has(players[0], 'worth')}")
"""


@pytest.fixture
def game(write_game):
    return rulekit.load_game(write_game(GAME))


def test_has_tells_which_items_carry_a_property(game):
    s = api.new_game(game, 2, 0)
    assert logged(s) == ["worth 8", "state [true, true, true, false] used [false, false, true, true]",
                      "members true false"]


def test_a_kind_keeps_its_own_state_default(game):
    s = api.new_game(game, 2, 0)
    assert game.components.prop_defaults["used"] is True      # the last kind's, as before: read by kinds declaring none
    assert game.components.state_seed == {"used": {"t1": False, "t2": False}}
    assert s.iprops["used"]["t2"] is False and "c1" not in s.iprops["used"]


def test_a_missing_property_names_the_item_its_kind_and_the_property(game):
    error = failure(game, 2, "misread")
    assert error.code == "RK4000" and error.span.line == 22
    assert "`c1` (kind `coin`) has no property `worth` (only `tile` items have it" in str(error)


def test_has_refuses_what_is_no_item(game):
    error = failure(game, 2, "ask a player")
    assert error.code == "RK4002" and error.span.line == 24
    assert "`has` asks about p1, which is no item nor set member" in str(error)


def test_a_literal_property_is_checked_with_did_you_mean(write_game):
    text = GAME.replace('has(t, "worth")', 'has(t, "wroth")').replace("has(blue, 'warm')", "has(blue)")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text))
    found = [(d.code, d.span.line, d.message, d.help) for d in info.value.diagnostics]
    assert found[0][:3] == ("RK0319", 16, "no property `wroth`") and "worth" in found[0][3]
    assert found[1][:3] == ("RK0310", 19, "`has` is missing argument `prop`")
