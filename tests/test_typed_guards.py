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


def _game(write_game, setup: str, variables: str = "", sections: str = "") -> str:
    """A one-round game whose ``setup`` is the test: global variable ``x``, then ``variables`` (more
    lines of `vars:`) and ``sections`` (whole sections of YAML)."""
    body = textwrap.indent(setup, "    ")
    return write_game(HEAD + variables + sections +
                      f"setup: |\n{body}flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")


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


def _refused(folder: str) -> ContentRuntimeError:
    """The content error a new game of the game in ``folder`` fails with."""
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(folder), 1, seed=1)
    return info.value


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
    error = _refused(_game(write_game, "l = [1]\nfor i in range(60):\n    l = l + l + [i]\n"))
    assert error.code == "RK4015" and "a list of" in str(error)


BOUNDED = ("  free: 0\n  held: {initial: 0, min: 0}\n",
           "tables:\n  vp: [0, 1, 3, 6]\nplayer:\n  vars:\n    coins: {initial: 2, min: 0, max: 99}\n    loose: 2\n")
BOUNDED_SETUP = """\
for p in players:
    p.coins = 3 * p.coins
    p.loose = 3 * p.loose
held = 2 * held + 1
free = 2 * free + 1
x = vp[held] + vp[free]
"""

def test_a_bounded_variable_is_a_number_to_the_writer(write_game):
    """A variable with bounds holds whole numbers alone (its every store refuses any other value),
    so a product with it needs no check against a runaway text or list; one without bounds keeps it."""
    game = rulekit.load_game(_game(write_game, BOUNDED_SETUP, *BOUNDED))
    source = game.program.module.source()
    assert _line(source, "_coins = ").startswith("_coins = 3 * s.p[l_p]['coins']  #"), source
    assert _line(source, "_loose = ").startswith("_loose = MUL(3, s.p[l_p]['loose'])  #"), source
    assert _line(source, "_held = ").startswith("_held = 2 * s.g['held'] + 1  #"), source
    assert _line(source, "_free = ").startswith("_free = MUL(2, s.g['free']) + 1  #"), source
    s = rulekit.new_game(game, 2, seed=1)
    assert [row["coins"] for row in s.p] == [6, 6] and [row["loose"] for row in s.p] == [6, 6]
    assert (s.g["held"], s.g["free"], s.g["x"]) == (1, 1, 2)


def test_a_sum_of_table_elements_has_no_class_test(write_game):
    """An element of a table of numbers is a number where the statement's names say no local
    shadows the table, so adding two is plain arithmetic."""
    line = _line(rulekit.load_game(_game(write_game, BOUNDED_SETUP, *BOUNDED)).program.module.source(), "_x = ")
    assert line.startswith("_x = T_vp[s.g['held']] + T_vp[s.g['free']]  #"), line


def test_a_bounded_variable_given_a_text_is_still_refused(write_game):
    """What lets the writer take a bounded variable for a number: a store of anything else fails."""
    setup = BOUNDED_SETUP.replace("x = vp[held] + vp[free]\n", "held = 'a' + text(held)\n")
    error = _refused(_game(write_game, setup, *BOUNDED))
    assert error.code == "RK4002" and "`held` must be a whole number, got a1" in str(error)


ABS = """\
t = "a" if x == 1 else -3
x = abs(t - 4)
t = "a" if x == 7 else 1
x = abs(t)
"""

def test_abs_is_pythons_abs_with_its_failure_on_the_content_line(write_game):
    """``abs`` does nothing but Python's ``abs``, so it is written as that, with no call of the
    library's function; given a text it fails as before, on the content line that asked."""
    folder = _game(write_game, ABS, "  t: 0\n")      # (its last line is the game file's line 10)
    source = rulekit.load_game(folder).program.module.source()
    assert _line(source, "_x = ").startswith("_x = ABS(s.g['t'] - 4)  #") and "B_abs" not in source, source
    error = _refused(folder)
    assert error.code == "RK4022" and error.span.line == 10, (error.code, error.span)


FOLDED = """\
for i in range(x + 1, length + 1):
    y += i
x = 0 - 1
"""

def test_numbers_written_out_are_worked_out_with_no_test_of_their_class(write_game):
    """``length + 1`` of a parameter 35 is 36 where it is written: no local holds it and no test asks
    whether it is a whole number (the ``simplify`` pass; off, the sum stays as written)."""
    from rulekit.dsl import passes

    folder = _game(write_game, FOLDED, "  y: 0\n", "params:\n  length: {value: 35, type: int}\n")
    source = rulekit.load_game(folder).program.module.source()
    loop = _line(source, "for l_i in ")
    assert loop.startswith("for l_i in (RANGE(_t, 36)  #") and \
        "if (_t := s.g['x'] + 1).__class__ is INT and 36 - _t <= MAX_RANGE else B_range(s, _t, 36)):" in loop, loop
    assert "s.g['x'] = -1" in source and "SET_g_x(s, None, -1, " in source, source
    s = rulekit.new_game(rulekit.load_game(folder), 1, seed=1)
    assert (s.g["y"], s.g["x"]) == (sum(range(1, 36)), -1)
    with passes.using(passes.parse("-simplify")):
        off = rulekit.load_game(folder).program.module.source()
    assert "35 + 1" in _line(off, "for l_i in "), off
