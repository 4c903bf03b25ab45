# SPDX-License-Identifier: MIT
"""reveal and hide drive face_up visibility; a non-item is a located content error."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.engine import api
from rulekit.engine.view import view
from rulekit.errors import ContentRuntimeError, DiagnosticReport

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
                reveal(num_players)
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
    with pytest.raises(ContentRuntimeError, match="expected an item, got 2") as info:
        api.apply(s, "reveal a number")
    assert info.value.span is not None and (info.value.span.line, info.value.span.column) == (23, 17)
    assert view(s, full=True) == before


TYPED = """\
meta: {title: Types}
players: {min: 2, max: 2}
components:
  card: {items: [{id: a}], start: deck}
zones:
  deck: {visibility: hidden}
  track: {range: [1, 3]}
player:
  zones: {hand: {visibility: owner}}
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        move(item("a"), to=3)
        draw(deck, to=track)
        shuffle("deck")
        x = count(5)
        y = range("a", 3)
        move(item("a"), to=players[0].hand)
        move_all(deck, to=track[2])
        log(x + y)
"""


def test_arguments_of_an_evident_wrong_kind_are_load_time_errors(write_game):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(TYPED))
    found = [(d.code, d.span.line, d.message) for d in info.value.diagnostics if d.severity == "error"]
    assert found == [
        ("RK0321", 15, "argument `to` of `move` must be a zone, got a number"),
        ("RK0321", 16, "argument `to` of `draw` must be a zone, got a family of zones (pick one: `track[key]`)"),
        ("RK0321", 17, "argument `zone` of `shuffle` must be a zone, got text"),
        ("RK0321", 18, "argument `items` of `count` must be a list or a zone, got a number"),
        ("RK0321", 19, "argument `start` of `range` must be a whole number, got text"),
        ("RK0324", 22, "`+` cannot take a number and a list"),     # x = count(...), y = range(...): locals' kinds
    ]


PHASES = """\
meta: {title: Phases}
players: {min: 1, max: 2}
flow:
  rounds: 1
  phases:
    - {id: a, do: pass}
    - {id: b, when: "false", do: pass}
    - {id: a, do: pass}
"""


def test_phase_ids_are_unique_and_dead_phases_are_said(write_game):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(PHASES))
    found = sorted((d.code, d.severity, d.span.line) for d in info.value.diagnostics)
    assert found == [("RK0341", "error", 8), ("RK0342", "warning", 7)]


def test_evident_kinds_are_caught_before_the_game_runs(capsys, write_game):
    from rulekit.cli.app import main
    folder = write_game("meta: {title: x}\nplayers: {min: 1, max: 2}\nzones: {z: {range: [1, 2]}}\n"
                        "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n        move(1, to=z)\n")
    assert main(["validate", folder, "--format", "concise"]) == 1
    out = capsys.readouterr().out
    assert "game.yaml:9:14: error[RK0321]: argument `item` of `move` must be an item, got a number" in out
    assert "game.yaml:9:20: error[RK0321]: argument `to` of `move` must be a zone, got a family of zones" in out
