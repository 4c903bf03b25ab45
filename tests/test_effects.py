# SPDX-License-Identifier: MIT
"""reveal and hide drive face_up visibility; a non-item is a located content error."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api
from rulekit.engine.view import view
from rulekit.errors import ContentRuntimeError

GAME = """\
meta: {title: Faces}
players: {min: 2, max: 2}
components:
  tile:
    items: [{id: a}, {id: b}]
    state: {face_up: false}
    start: row
zones:
  row: {visibility: face_up}
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        choose players[0]:
            "reveal a":
                reveal(item("a"))
            "reveal both then hide b":
                reveal(item("a"))
                reveal(item("b"))
                hide(item("b"))
            "reveal a number":
                reveal(3)
"""


@pytest.fixture
def game(write_game):
    return rulekit.load_game(write_game(GAME))


def test_reveal_and_hide_change_what_everyone_sees(game):
    s = api.new_game(game, 2, 0)
    assert view(s, 1)["zones"]["row"] == ["?", "?"]
    api.apply(s, "reveal both then hide b")
    assert view(s, 1)["zones"]["row"] == ["a", "?"]
    assert ("prop", "b", "face_up", False) in s.events


def test_reveal_needs_an_item(game):
    s = api.new_game(game, 2, 0)
    before = view(s, full=True)
    with pytest.raises(ContentRuntimeError, match="expected an item, got 3") as info:
        api.apply(s, "reveal a number")
    assert info.value.span is not None and (info.value.span.line, info.value.span.column) == (23, 17)
    assert view(s, full=True) == before
