# SPDX-License-Identifier: MIT
"""The passes from the IR to the IR (dsl/transforms.py), on trees: each gives a tree that means the
same to Python, and a line it cannot shorten comes back as the same object."""
from __future__ import annotations

import ast

import pytest

from rulekit.dsl import ir, passes, printer, transforms


def _simplified(line: str) -> str:
    made = ir.stmt(line)
    return printer.one_line(transforms.simplified(made.node), made.lead)


@pytest.mark.parametrize("line, simplified", [
    ("if not not e['done']:", "if e['done']:"),
    ("while not not (x and y):", "while x and y:"),
    ("if x.__class__ is INT and 1 <= x and x <= 5 and not s.record:",
     "if x.__class__ is INT and 1 <= x <= 5 and not s.record:"),
    ("y = RANGE(1, _t) if ((1).__class__ is INT) & ((_t := f(x)).__class__ is INT) and _t - 1 <= M else B(s, 1, _t)",
     "y = RANGE(1, _t) if (_t := f(x)).__class__ is INT and _t - 1 <= M else B(s, 1, _t)"),
    ("y = 'a' if ('a').__class__ is STR else g('a')", "y = 'a'"),
    ("if x and True:", "if x:"),
])
def test_simplify_shortens_a_line_to_what_it_means(line, simplified):
    assert _simplified(line) == simplified


@pytest.mark.parametrize("line", [
    "y = not not x",                    # a value, not a test: its truth value is not `x`
    "y = x and True",                   # the same: `x and True` is `x` only when `x` is false
    "y = (True).__class__ is INT",      # a truth value is no whole number
    "if (1).__class__ is STR:",         # a number is no text
    "if a <= f(x) and f(x) <= b:",      # `f(x)` is called twice, not once
    "y = (True & x) + 1",               # `x` may be a number: `True & 5` is 1
])
def test_simplify_leaves_what_it_cannot_prove(line):
    made = ir.stmt(line)
    assert transforms.simplified(made.node) is made.node


def test_a_transform_never_changes_the_tree_it_is_given():
    made = ir.stmt("if not not (a <= x and x <= b):")
    before = ast.dump(made.node)
    assert transforms.simplified(made.node) is not made.node
    assert ast.dump(made.node) == before


def test_the_transforms_run_in_one_list_each_switched_by_its_pass():
    assert [name for name, _fn in transforms.TRANSFORMS] == ["simplify"]
    assert all(name in passes.NAMES for name, _fn in transforms.TRANSFORMS)
    made = ir.stmt("if not not x:")
    assert transforms.transformed(made.node, passes.parse("-simplify")) is made.node
    assert printer.one_line(transforms.transformed(made.node, passes.parse("all")), "if") == "if x:"
