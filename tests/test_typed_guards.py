# SPDX-License-Identifier: MIT
"""Guards only where a type leaves a doubt (issue 54): a sum the compiler knows is a list (one side
is a list, so the sum is one or fails) is checked for its length alone, with no test of its class,
and still refused where it grows past the limit; a sum of values it cannot tell apart keeps the test."""
from __future__ import annotations

import textwrap

import pytest

import rulekit
from rulekit.errors import ContentRuntimeError

HEAD = "meta: {title: Guards}\nplayers: {min: 1, max: 2}\nvars:\n  x: 0\n"


def _game(write_game, setup: str) -> str:
    body = textwrap.indent(setup, "    ")
    return write_game(HEAD + f"setup: |\n{body}flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")


def _line(source: str, start: str) -> str:
    """The statement of the listing that starts with ``start`` (its lines joined)."""
    lines = source.splitlines()
    first = next(k for k, line in enumerate(lines) if line.strip().startswith(start))
    out = [lines[first]]
    for line in lines[first + 1:]:
        if len(line) - len(line.lstrip()) <= len(lines[first]) - len(lines[first].lstrip()):
            break
        out.append(line)
    return " ".join(part.strip() for part in out)


def test_a_list_sum_is_checked_for_its_length_alone(write_game):
    folder = _game(write_game, "l = [1]\nfor i in range(3):\n    l = l + [i]\nx = count(l)\n")
    game = rulekit.load_game(folder)
    line = _line(game.program.module.source(), "l_l = _t")
    assert "len(_t := l_l + [l_i]) <= MAX_SIZE" in line and "__class__" not in line, line
    assert rulekit.new_game(game, 1, seed=1).g["x"] == 4


def test_a_sum_of_values_of_any_kind_keeps_its_class_test(write_game):
    folder = _game(write_game, "a = \"ab\"\nif x > 0:\n    a = 3\nb = a + a\nx = 1\n")
    line = _line(rulekit.load_game(folder).program.module.source(), "l_b = ")
    assert "__class__ is not STR" in line and "MAX_SIZE" in line, line


def test_a_list_that_grows_past_the_limit_is_still_refused(write_game):
    folder = _game(write_game, "l = [1]\nfor i in range(60):\n    l = l + l + [i]\n")
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(folder), 1, seed=1)
    assert info.value.code == "RK4015" and "a list of" in str(info.value)
