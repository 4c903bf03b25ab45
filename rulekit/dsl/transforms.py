# SPDX-License-Identifier: MIT
"""Passes from the IR to the IR: each takes the tree of a line the writer made (dsl/ir.py) and
gives one that means the same to Python (the values it works out, in the same order, with the
same errors), and is shorter. They run in one list, :data:`TRANSFORMS`, on every line just before
the printer (``codegen.Module.add``); each is a pass of dsl/passes.py, switched off by its name.

``simplify`` takes away what the writer's forms leave that a careful person would not write:
``not not x`` tested by an ``if`` or ``while`` (only its truth is asked); ``a <= x and x <= b`` as
``a <= x <= b`` for a name ``x``; a number's or a text's class tested against its own class (a
form written for any value, given a literal: ``(1).__class__ is INT``), and the ``True`` that
leaves in an ``and``, an ``&`` of truth values or an ``if`` expression's test.
"""
from __future__ import annotations

import ast

from . import ir

# the names generated code binds to Python's classes (engine/expressions.py namespace)
_CLASSES = {"INT": int, "STR": str}
_ORDER = (ast.Lt, ast.LtE)


def simplified(node):
    """``node`` (a statement's tree) simplified; the same object where nothing changes."""
    if isinstance(node, (ast.If, ast.While)):
        test = _truth(_expr(node.test))
        return node if test is node.test else type(node)(test, node.body, node.orelse)
    return _rebuilt(node)


def _rebuilt(node):
    """A copy of ``node`` with its expressions simplified (shared where unchanged)."""
    return ir.rebuilt(node, _part)


def _part(node):
    return _expr(node) if isinstance(node, ast.expr) else _rebuilt(node)


def _expr(node):
    node = _rebuilt(node)
    kind = type(node)
    if kind is ast.Compare:
        return _own_class(node)
    if kind is ast.BinOp and isinstance(node.op, ast.BitAnd):
        if _true(node.left) and _truth_value(node.right):
            return node.right
        if _true(node.right) and _truth_value(node.left):
            return node.left
        return node
    if kind is ast.BoolOp and isinstance(node.op, ast.And):
        values = [v for v in node.values[:-1] if not _true(v)] + [node.values[-1]]
        values = _chained(values)
        if len(values) == 1:
            return values[0]
        return node if values == node.values else ast.BoolOp(ast.And(), values)
    if kind is ast.IfExp:
        test = _truth(node.test)
        if _true(test):
            return node.body
        return node if test is node.test else ast.IfExp(test, node.body, node.orelse)
    return node


def _truth(node):
    """``node`` where only its truth is asked: ``not not x`` is ``x``; an ``and`` ending in
    ``True`` ends before it."""
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and \
            isinstance(node.operand, ast.UnaryOp) and isinstance(node.operand.op, ast.Not):
        node = node.operand.operand
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and len(node.values) > 1 and \
            _true(node.values[-1]):
        values = node.values[:-1]
        return values[0] if len(values) == 1 else ast.BoolOp(ast.And(), values)
    return node


def _own_class(node):
    """``(1).__class__ is INT``: True (a literal's class is known)."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], ast.Is):
        return node
    left, right = node.left, node.comparators[0]
    if isinstance(left, ast.Attribute) and left.attr == "__class__" and isinstance(left.value, ast.Constant) \
            and isinstance(right, ast.Name) and left.value.value.__class__ is _CLASSES.get(right.id):
        return ast.Constant(True)
    return node


def _chained(values: list) -> list:
    """``a <= x and x <= b`` as ``a <= x <= b`` where ``x`` is a name (read once or twice alike)."""
    out = []
    for value in values:
        last = out[-1] if out else None
        if last is not None and _one_order(last) and _one_order(value) and isinstance(value.left, ast.Name) \
                and isinstance(last.comparators[-1], ast.Name) and last.comparators[-1].id == value.left.id:
            out[-1] = ast.Compare(last.left, last.ops + value.ops, last.comparators + value.comparators)
            continue
        out.append(value)
    return out


def _one_order(node) -> bool:
    return isinstance(node, ast.Compare) and all(isinstance(op, _ORDER) for op in node.ops)


def _true(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _truth_value(node) -> bool:
    """``node`` is True or False, nothing else (a comparison), so ``True & node`` is ``node``."""
    return isinstance(node, ast.Compare) or (isinstance(node, ast.Constant) and node.value.__class__ is bool)


# the passes from IR to IR, in the order they run: (name in dsl/passes.py, the function)
TRANSFORMS = (("simplify", simplified),)


def transformed(node, passes):
    """``node`` through every transform ``passes`` has on."""
    for name, transform in TRANSFORMS:
        if passes.on(name):
            node = transform(node)
    return node
