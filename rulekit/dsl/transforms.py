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
from typing import NamedTuple

from . import ir, passes
from .pysource import READ_ONLY_CALLS

# the names generated code binds to Python's classes (engine/expressions.py namespace)
_CLASSES = {"INT": int, "STR": str}
_ORDER = (ast.Lt, ast.LtE)


@passes.step("simplify")
def simplified(node, readers: frozenset = frozenset()):
    """``node`` (a statement's tree) simplified; the same object where nothing changes. (``readers``,
    the functions that change nothing, is every transform's to take: this one needs none.)"""
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


# ------------------------------------------------------------------ repeats

@passes.step("repeats")
def repeats_once(node, readers: frozenset = frozenset()):
    """``node`` (a statement's tree) with each value it works out twice worked out once: where
    it is first certainly reached it is kept in a local (``(_c := X) < 5 and f(_c)``), and read
    from it where it is asked again. The same object where nothing is asked twice.

    A value is kept only when it cannot change between the two places and reading it again
    costs more than a local: reads of the state, ``len`` and the content's functions (none of
    which changes anything), not a draw or a built-in that moves items, and nothing that
    reads a name the statement itself assigns (``_t := ...``). The second place must be reached
    only after the first: the right of an ``and`` after its left, not the left after the right
    (Python's order of evaluation; a comprehension or lambda is not looked into)."""
    field = _EXPRESSION_OF.get(type(node))
    value = getattr(node, field, None) if field is not None else None
    if value is None:
        return node
    assigned = {n.target.id for n in ast.walk(value) if isinstance(n, ast.NamedExpr)}
    plan = _Repeats(_Line(assigned, readers))
    plan.visit(value, (), {})
    if not plan.again:
        return node
    taken = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    names = {key: _fresh("_c", taken) for key in dict.fromkeys(plan.again.values())}
    new = _placed(value, (), plan, names)
    fields = dict(ast.iter_fields(node))
    fields[field] = new
    return type(node)(**fields)


# the part of a statement a line works out (a compound statement's header: its test, its iterable)
_EXPRESSION_OF = {ast.If: "test", ast.While: "test", ast.Assign: "value", ast.AugAssign: "value",
                  ast.AnnAssign: "value", ast.Expr: "value", ast.Return: "value", ast.For: "iter"}
# parts worked out only maybe, after the first of their node's (an ``and``'s right, a chain's later links)
_MAYBE_AFTER_FIRST = {ast.BoolOp: "values", ast.Compare: "comparators"}
_OPAQUE = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_PURE_NODES = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.BoolOp, ast.BinOp, ast.Compare,
               ast.UnaryOp, ast.IfExp, ast.Tuple, ast.Call, ast.Slice, ast.keyword, ast.expr_context,
               ast.boolop, ast.operator, ast.unaryop, ast.cmpop)


class _Line(NamedTuple):
    """What the pass knows of a line: the names it assigns (``_t := ...``), and the functions it
    may call that change nothing (the content's functions, as the compiler named their callers)."""
    assigned: set
    readers: frozenset


class _Repeats:
    """Where each value a statement's expression works out is first reached for certain, and
    where it is asked again after that: paths of fields and indexes from the expression."""

    def __init__(self, line: _Line):
        self.line = line
        self.kept: dict = {}        # path -> key: a place a value is worked out and kept, read again later
        self.again: dict = {}       # path -> key: a place it is read again, from its local
        self._keys: dict = {}       # id(node) -> its key, or None when it is not kept

    def visit(self, node, path: tuple, known: dict) -> None:
        """Walk ``node`` in Python's order; ``known`` holds the values certainly worked out before
        it (key -> path), and takes those it certainly works out."""
        key = self._key(node)
        if key is not None and key in known:
            self.again[path] = key
            self.kept[known[key]] = key      # (the place that certainly came before this one)
            return
        if isinstance(node, _OPAQUE):
            return
        maybe = _MAYBE_AFTER_FIRST.get(type(node))
        for field, value in _ordered_fields(node):
            if field == "func" and isinstance(value, ast.Attribute):     # a method: its object, not the bound method
                self.visit(value.value, (*path, field, "value"), known)
                continue
            if isinstance(value, list):
                for index, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        later = field == maybe and index > 0
                        self.visit(item, (*path, field, index), dict(known) if later else known)
            elif isinstance(value, ast.AST):
                maybe_part = type(node) is ast.IfExp and field != "test"
                self.visit(value, (*path, field), dict(known) if maybe_part else known)
        if key is not None:
            known[key] = path

    def _key(self, node):
        """The value's identity (its tree printed plainly) when it is worth keeping, else None."""
        found = self._keys.get(id(node), _UNSEEN)
        if found is _UNSEEN:
            found = self._keys[id(node)] = ast.dump(node) if _worth_keeping(node, self.line) else None
        return found


_UNSEEN = object()


def _ordered_fields(node):
    """``node``'s fields in the order Python works them out (a dictionary's keys and values
    alternate; a call's function, then its arguments, then its keywords)."""
    if isinstance(node, ast.Dict):
        return [("pairs", [x for pair in zip(node.keys, node.values) for x in pair])]
    return ast.iter_fields(node)


def _worth_keeping(node, line) -> bool:
    """A value whose second reading costs more than a local's and gives the same: reads of the
    state and calls that change nothing, at least one call or three steps of reading."""
    if not isinstance(node, (ast.Call, ast.Subscript, ast.Attribute, ast.BinOp, ast.BoolOp)):
        return False
    steps = _steps(node, line)
    return steps is not None and steps >= 3


def _steps(node, line) -> int | None:
    """How many steps of reading ``node`` takes (a call three), or None when it may change
    something, or give another value later in the same line."""
    if isinstance(node, ast.Name):
        return None if node.id in line.assigned else 0
    if isinstance(node, ast.Constant):
        return 0
    if isinstance(node, ast.Attribute) and node.attr == _FILLED_AS_READ:
        return None     # a cache filled while the line runs: read only with its filling (_tally_read)
    if _tally_read(node):
        key = _steps(node.values[1].args[1], line)
        return None if key is None else 3 + key
    if isinstance(node, ast.Call):
        if not _changes_nothing(node.func, line.readers):
            return None
        parts = [node.func.value] if isinstance(node.func, ast.Attribute) else []
        parts += node.args + [k.value for k in node.keywords]
        return _sum_steps(parts, line, 3)
    if not isinstance(node, _PURE_NODES):
        return None
    own = 1 if isinstance(node, (ast.Subscript, ast.Attribute, ast.BinOp, ast.BoolOp, ast.Compare)) else 0
    return _sum_steps([n for n in ast.iter_child_nodes(node) if isinstance(n, ast.expr)], line, own)


def _sum_steps(parts: list, line, own: int) -> int | None:
    total = own
    for part in parts:
        steps = _steps(part, line)
        if steps is None:
            return None
        total += steps
    return total


# the state's tallies (engine/tally.py): ``s.tallies.get(K) or TALLY_TABLE(s, K)`` reads one, built
# on first use, and gives the same table each time; ``s.tallies.get(K)`` alone may be None, then not
_FILLED_AS_READ = "tallies"


def _tally_read(node) -> bool:
    """``s.tallies.get(K) or TALLY_TABLE(s, K)``, the same ``K`` twice."""
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2):
        return False
    got, built = node.values
    return _call_of(got, "get", 1) and isinstance(got.func.value, ast.Attribute) and \
        got.func.value.attr == _FILLED_AS_READ and _call_of(built, "TALLY_TABLE", 2) and \
        ast.dump(got.args[0]) == ast.dump(built.args[1])


def _call_of(node, name: str, args: int) -> bool:
    """``node`` calls ``name`` (a name, or a method's) with at least ``args`` arguments."""
    if not isinstance(node, ast.Call) or len(node.args) < args:
        return False
    func = node.func
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)) == name


def _changes_nothing(func, readers: frozenset) -> bool:
    """A function generated code calls that changes nothing and gives the same for the same
    arguments: one of ``pysource.READ_ONLY_CALLS`` (a mapping's ``get``, ``len``...), or of
    ``readers``: the callers of the content's functions, which read the state and never change it."""
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return called in READ_ONLY_CALLS or called in readers


def _fresh(stem: str, taken: set) -> str:
    name, n = stem, 1
    while name in taken:
        n += 1
        name = f"{stem}_{n}"
    taken.add(name)
    return name


def _placed(node, path: tuple, plan: _Repeats, names: dict):
    """``node`` (at ``path``) with each kept value's first place a ``:=`` into its local and
    every later place that local read."""
    again = plan.again.get(path)
    if again is not None:
        return ast.Name(names[again], ast.Load())
    if isinstance(node, _OPAQUE):
        return node
    fields, changed = {}, False
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            if isinstance(node, ast.Dict):     # (its keys and values are walked as pairs: _ordered_fields)
                new = _dict_part(node, field, path, plan, names)
            else:
                new = [_placed(item, (*path, field, i), plan, names) if isinstance(item, ast.AST) else item
                       for i, item in enumerate(value)]
            changed = changed or any(a is not b for a, b in zip(new, value))
        else:
            new = _placed(value, (*path, field), plan, names) if isinstance(value, ast.AST) else value
            changed = changed or new is not value
        fields[field] = new
    node = type(node)(**fields) if changed else node
    kept = plan.kept.get(path)
    return node if kept is None else ast.NamedExpr(ast.Name(names[kept], ast.Store()), node)


def _dict_part(node, field: str, path: tuple, plan: _Repeats, names: dict) -> list:
    """A dictionary's keys or values placed, by the paths of its pairs (keys and values alternate)."""
    offset = 0 if field == "keys" else 1
    return [_placed(item, (*path, "pairs", 2 * i + offset), plan, names) if item is not None else None
            for i, item in enumerate(getattr(node, field))]


# the passes from IR to IR, in the order they run: (name in dsl/passes.py, the function)
TRANSFORMS = (("simplify", simplified), ("repeats", repeats_once))


def transformed(node, passes, readers: frozenset = frozenset()):
    """``node`` through every transform ``passes`` has on; ``readers``: the functions the module
    names that change nothing (the callers of the content's functions)."""
    for name, transform in TRANSFORMS:
        if passes.on(name):
            node = transform(node, readers)
    return node
