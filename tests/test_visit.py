# SPDX-License-Identifier: MIT
"""The effect language's visitor and transformer (rulekit/dsl/visit.py), and the analyses written
on them: a node kind they have never heard of is walked by default, so a new statement is seen
by every analysis that does not need to know what it means."""
from __future__ import annotations

import textwrap

import attrs

from rulekit.dsl import ast
from rulekit.dsl.parser import parse_script
from rulekit.dsl.visit import (
    Statements,
    Transformer,
    Visitor,
    assigned_names,
    assigned_values,
    first_assignments,
    free_names,
    loop_depth,
    read_names,
    substituted,
    walks,
)
from rulekit.source import Span


def body(text: str) -> tuple:
    return parse_script(textwrap.dedent(text))


@attrs.frozen
class Twice(ast.Node):
    """A statement no analysis knows: ``twice: BODY`` (runs its body two times)."""
    body: tuple


def twice(inner: tuple) -> Twice:
    return Twice(inner, span=Span("<test>", 1, 1))


def test_a_new_statement_is_walked_by_every_analysis_by_default():
    inner = body("""\
        total = total + 1
        for c in cards:
            while c.open:
                shown = c
        """)
    block = (twice(inner),)
    assert assigned_names(block) == {"total", "c", "shown"}
    assert assigned_values(block)["c"] is None
    assert [v.__class__ for v in assigned_values(block)["total"]] == [ast.BinOp]
    assert {"total", "cards", "c"} <= read_names(block) and "shown" not in read_names(block)
    assert loop_depth(block) == 2 and loop_depth((twice((twice(inner),)),)) == 2
    assert set(first_assignments(block)) == {"total", "shown"}
    assert [(name, coll.id) for name, coll in walks(block)] == [("c", "cards")]


def test_bindings_in_the_order_written_and_each_way_a_name_is_bound():
    block = body("""\
        n = 1
        n += 2
        choose_all q in players:
            "keep {x}" for x in q.hand:
                kept = x
        """)
    values = assigned_values(block)
    assert [v.__class__.__name__ for v in values["n"]] == ["Num", "BinOp"]
    assert values["q"] is None and values["x"] is None
    assert values["kept"] == (ast.Name("x", span=Span("<test>", 1, 1)),)
    walked = walks((twice(block),) + body("for c in cards:\n    pass\n"))
    assert [(name, coll.__class__.__name__) for name, coll in walked] == [("q", "Name"), ("x", "Attr"), ("c", "Name")]
    assert [coll.id for name, coll in walked if name in ("q", "c")] == ["players", "cards"]


def test_a_statement_walker_never_enters_an_expression():
    """A comprehension's variable is the comprehension's, not a local of the body."""
    block = body("best = max([c.worth for c in cards])\n")
    assert assigned_names(block) == {"best"}

    seen = []

    class Names(Statements):
        def Name(self, node):
            seen.append(node.id)
    Names().visit(block)
    assert seen == []


def test_the_first_assignment_is_the_first_in_the_order_written():
    block = body("""\
        if ready:
            x = 1
        else:
            x = 2
        """)
    assert first_assignments(block)["x"].line == 2


def test_a_visitor_method_decides_whether_to_go_on_below():
    block = body("""\
        for c in cards:
            n = c.worth
        """)
    seen = []

    class Stop(Visitor):
        def For(self, st):
            seen.append("for")            # not below: the body is skipped

        def Name(self, node):
            seen.append(node.id)
    Stop().visit(block)
    assert seen == ["for"]

    class Go(Stop):
        def For(self, st):
            seen.append("for")
            self.default(st)
    seen.clear()
    Go().visit(block)
    assert seen == ["for", "cards", "n", "c"]      # a target is a name too


def test_a_transformer_keeps_what_it_does_not_change():
    (st,) = body("x = a + max([b for b in bs])\n")
    assert Transformer().transform(st) is st
    assert substituted(st, {"zzz": ast.Num(1, span=st.span)}) is st
    new = substituted(st, {"a": ast.Num(1, span=st.span)})
    assert new is not st and new.value.left == ast.Num(1, span=st.span)
    assert new.value.right is st.value.right       # the part that did not change is shared


def test_free_names_leave_out_a_comprehensions_own_variables():
    (st,) = body("x = [c.worth + bonus for c in cards if c.worth > floor]\n")
    assert free_names(st.value) == {"bonus", "cards", "floor"}
