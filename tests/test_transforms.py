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
    assert [name for name, _fn in transforms.TRANSFORMS] == ["simplify", "repeats"]
    assert all(name in passes.NAMES for name, _fn in transforms.TRANSFORMS)
    made = ir.stmt("if not not x:")
    assert transforms.transformed(made.node, passes.parse("-simplify")) is made.node
    assert printer.one_line(transforms.transformed(made.node, passes.parse("all")), "if") == "if x:"


# the callers of content functions a line may call (the compiler names them: Module._readers)
READERS = frozenset(("fn_m", "fn_rank", "fn_share", "fn_a", "fn_b"))


def _once(line: str) -> str:
    made = ir.stmt(line)
    return printer.one_line(transforms.repeats_once(made.node, READERS), made.lead)


@pytest.mark.parametrize("line, once", [
    # the right of an `and` is reached only after its left: the left keeps the value
    ("if s.iprops['level'].get(fn_m(s, p), 1) < 5 and s.p[p]['ducats'] >= 5 * s.iprops['level'].get(fn_m(s, p), 1):",
     "if (_c := s.iprops['level'].get(fn_m(s, p), 1)) < 5 and s.p[p]['ducats'] >= 5 * _c:"),
    # a call's arguments in order; a `:=` as a positional argument needs no brackets
    ("x = f(fn_rank(s, ITEMS[e['t']]['colour']), fn_share(s, p, ITEMS[e['t']]['colour']))",
     "x = f(fn_rank(s, _c := ITEMS[e['t']]['colour']), fn_share(s, p, _c))"),
    # an `if` expression's test is reached before either branch
    ("y = a if len(s.zones[z]) > 0 else b + len(s.zones[z])", "y = a if (_c := len(s.zones[z])) > 0 else b + _c"),
    # a tally read with its filling is one value; the name taken is one the line does not use
    ("if (s.tallies.get(K) or TALLY_TABLE(s, K)).get(a, 0) + (s.tallies.get(K) or TALLY_TABLE(s, K)).get(b, 0) > _c:",
     "if (_c_2 := s.tallies.get(K) or TALLY_TABLE(s, K)).get(a, 0) + _c_2.get(b, 0) > _c:"),
    # two values, each kept in a local of its own
    ("return fn_a(s, x) + fn_b(s, y) * fn_a(s, x) - fn_b(s, y)",
     "return (_c := fn_a(s, x)) + (_c_2 := fn_b(s, y)) * _c - _c_2"),
])
def test_repeats_works_a_value_out_once(line, once):
    assert _once(line) == once


@pytest.mark.parametrize("line", [
    "if a and s.g['x']['y'].get(k) > 0 or s.g['x']['y'].get(k) < 5:",  # the first only maybe reached
    "if x and len(s.zones[z]) > 0 or len(s.zones[z]) < 3:",     # the first only maybe reached (right of an `and`)
    "if a < b < len(s.zones[z]) or len(s.zones[z]) > 9:",      # a chain's later link is reached only maybe
    "y = B_roll(s, 6) + B_roll(s, 6)",                          # a draw: two calls are two values
    "y = call_pay(s, p) + call_pay(s, p)",                      # a procedure changes the state
    "y = len(_t := f(x)) + len(_t := g(x))",                    # reads a name the line assigns
    "y = s.tallies.get(K) or s.tallies.get(K)",                 # a cache the line may fill: read only with it
    "y = ANY(len(s.zones[v]) > 0 for v in a) + ANY(len(s.zones[v]) > 0 for v in b)",   # not looked into
    "y = e['p'] + e['p']",                                      # a local's item: no dearer than a local
    "y = fn_other(s, x) + fn_other(s, x)",                      # a function the compiler did not name a reader
    "if s.iprops['level'].get(m(p), 1) < 5 and s.iprops['level'].get(m(p), 1) > 0:",   # m may change things;
    # and the bound method `s.iprops['level'].get` is never kept alone
])
def test_repeats_leaves_what_it_cannot_prove_the_same(line):
    made = ir.stmt(line)
    again = transforms.repeats_once(made.node, READERS)
    assert again is made.node, printer.one_line(again, None)


def test_repeats_never_changes_the_tree_it_is_given_and_switches_off():
    made = ir.stmt("y = fn_a(s, x) + fn_a(s, x)")
    before = ast.dump(made.node)
    assert transforms.repeats_once(made.node, READERS) is not made.node
    assert ast.dump(made.node) == before
    assert transforms.transformed(made.node, passes.parse("-repeats"), READERS) is made.node
    assert transforms.transformed(made.node, passes.parse("all"), READERS) is not made.node


@pytest.mark.parametrize("name, inside", [("simplify", "_expr"), ("repeats", "_steps")])
def test_a_fault_inside_a_transform_is_an_internal_error_naming_it(monkeypatch, name, inside):
    """A bug in a transform is rulekit's (exit 101), never the author's: it names the pass."""
    from rulekit.errors import InternalError

    def broken(*args):
        raise ValueError("a planted bug")
    monkeypatch.setattr(transforms, inside, broken)
    made = ir.stmt("if not not fn_a(s, x) and fn_a(s, x) > e['k']['n']:")
    with pytest.raises(InternalError, match=f"the compiler's pass `{name}` failed .ValueError: a planted bug.; "
                                            f"RULEKIT_PASSES=-{name} compiles without it"):
        transforms.transformed(made.node, passes.parse("all"), READERS)
    assert transforms.transformed(made.node, passes.parse(f"-{name}"), READERS) is not None
