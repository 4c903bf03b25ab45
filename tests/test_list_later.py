# SPDX-License-Identifier: MIT
"""A bot's imagined position (``State.list_later``) stops at a `choose` without listing its
options; they are listed when first asked for, and are then exactly what listing at once
gives (engine/vm.py, ``Unlisted``)."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api, vm
from rulekit.engine.state import Decision
from rulekit.errors import ContentRuntimeError

from conftest import load_test_game


def _goa_midgame():
    s = api.new_game(rulekit.load_game("goa"), 3, 5, record=False)
    for k in range(25):
        api.apply_index(s, k % len(s.pending.choices), atomic=False)
    return s


def _twins(s, index: int):
    eager, later = s.clone(), s.clone()
    later.list_later = True
    api.apply_index(eager, index, atomic=False)
    api.apply_index(later, index, atomic=False)
    return eager, later


def test_options_listed_later_are_those_listed_at_once():
    s = _goa_midgame()
    for index in range(len(s.pending.choices)):
        eager, later = _twins(s, index)
        assert later.pending.__class__ is vm.Unlisted and eager.pending.__class__ is Decision
        assert later.pending.player == eager.pending.player      # who decides is known before listing
        unlisted = later.pending
        assert unlisted.choices == eager.pending.choices
        assert later.pending.__class__ is Decision and later.pending.choices == eager.pending.choices
        assert unlisted.labels == eager.pending.labels
        assert later.list_later       # the position goes on listing later


def test_a_clone_lists_its_own_options_and_plays_on_like_the_original():
    s = _goa_midgame()
    _eager, later = _twins(s, 0)
    copy = later.clone()
    assert copy.pending.__class__ is vm.Unlisted and copy.pending is not later.pending
    assert copy.pending.choices == later.pending.choices
    api.apply_index(copy, 0, atomic=False)
    api.apply_index(later, 0, atomic=False)
    assert copy.g == later.g and copy.p == later.p and copy.zones == later.zones


STUCK = """\
    meta: {title: Stuck later}
    players: {min: 2, max: 2}
    flow:
      rounds: 1
      phases:
        - id: main
          do: |
            choose players[0]:
                "go":
                    pass
                "stay":
                    pass
            choose players[1]:
                "never" if false:
                    pass
    """


def test_a_failure_listing_later_is_met_when_the_options_are_asked_for(write_game):
    game = rulekit.load_game(write_game(STUCK))
    s = api.new_game(game, 2, record=False)
    s.list_later = True
    api.apply_index(s, 0, atomic=False)         # stops at the second choose, nothing listed
    assert s.pending.player == 1
    with pytest.raises(ContentRuntimeError) as info:
        len(s.pending.choices)
    assert info.value.code == "RK4010" and info.value.span.line == 13
    real = api.new_game(game, 2)
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.apply(real, "go")               # listing at once meets it in the action, on the same line
    assert info.value.code == "RK4010" and info.value.span.line == 13


def test_a_choose_asking_no_player_is_refused_at_once_even_listing_later(write_game):
    game = rulekit.load_game(write_game(STUCK.replace("choose players[1]", "choose 7")))
    s = api.new_game(game, 2, record=False)
    s.list_later = True
    with pytest.raises(ContentRuntimeError) as info:
        api.apply_index(s, 0, atomic=False)
    assert info.value.code == "RK4013"


def test_a_decision_left_behind_cannot_list_options_of_a_later_position():
    s = api.new_game(load_test_game("redeal"), 2, 0, record=False)
    s.list_later = True
    before = s.checkpoint()
    api.apply_index(s, 0, atomic=False)
    left = s.pending
    s.restore(before)       # (as a failed action is undone)
    with pytest.raises(RuntimeError, match="moved on"):
        left.choices     # noqa: B018
