# SPDX-License-Identifier: MIT
"""Control statements lowered to the two shapes the code writer knows: branches and loops.

A procedure's statements are written two ways (dsl/codegen.py): as Python statements where the
procedure can never stop for a decision, and as numbered blocks where it can. Writing `if`,
`while` and `for` each both ways would be six writers to keep in step. Instead each control
statement says here, once, which shape it is (:class:`Branches`: tests tried in order, the
first that holds runs its body; :class:`Loop`: a body repeated while a test holds or over what a
`for` walks), and the writer has one method per shape and way. A new control statement is a
lowering here; neither writer changes.
"""
from __future__ import annotations

import attrs

from . import ast


@attrs.frozen
class Branches:
    """``if``/``elif``/``else``: each (test, body) in order; the first test that holds runs its body,
    else ``orelse`` (empty: nothing)."""

    tests: tuple        # of (test expression, body)
    orelse: tuple


@attrs.frozen
class Loop:
    """A body repeated: over the elements of ``walks`` bound to ``var`` (a `for`), or while ``test``
    holds (a `while`; None: for ever, `while true`). Each pass spends ``len(body) + 1`` steps of
    the budget that stops an endless loop, reported at ``span``."""

    span: object
    body: tuple
    test: ast.Expr | None = None
    test_span: object = None        # where the test is written (a `while true`'s too)
    var: str | None = None
    walks: ast.Expr | None = None


def _always_true(node) -> bool:
    """`while true:` (a loop left only by `break` or `return`)."""
    return isinstance(node, ast.Const) and node.value is True


def _if(st: ast.If) -> Branches:
    return Branches(tuple(st.branches), tuple(st.orelse))


def _while(st: ast.While) -> Loop:
    return Loop(st.span, st.body, None if _always_true(st.cond) else st.cond, st.cond.span)


def _for(st: ast.For) -> Loop:
    return Loop(st.span, st.body, var=st.var, walks=st.iter)


_LOWERINGS = {ast.If: _if, ast.While: _while, ast.For: _for}


def lowered(st) -> Branches | Loop | None:
    """The shape of control statement ``st``; None for any other statement."""
    lower = _LOWERINGS.get(st.__class__)
    return lower(st) if lower is not None else None
