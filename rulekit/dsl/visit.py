# SPDX-License-Identifier: MIT
"""Walking and rewriting the effect language's tree, and the questions the compiler asks of it.

:class:`Visitor` and :class:`Transformer` work as lark's do: a method named after a node's class
(``For``, ``Name``) handles that node, and every other node gets ``default``, which walks all of
its children. So a new statement or expression is walked everywhere with no change here; only
what a walker must know of it (the names a new statement binds, say) needs a method.
:class:`Statements` walks statement blocks only, never into expressions.

The analyses below (what a body binds, assigns, reads; how deeply loops nest; a function's body
with its arguments in place) are written on them, once, for the compiler and the code writer.
"""
from __future__ import annotations

import typing

import attrs

from . import ast

_EXPRESSIONS = frozenset(typing.get_args(ast.Expr))
_FIELDS: dict = {}


def fields(cls) -> tuple:
    """The names of a node class's children, in the order they are written (``span`` is none)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls) if f.name != "span")
    return names


class Visitor:
    """Calls ``self.<NodeClass>(node)`` for each node of a tree (a node or a tuple of parts),
    parents before children, in the order they are written; ``default`` for a class with no
    method, which visits the children. A method visits the children only if it says so
    (``self.default(node)``)."""

    def visit(self, tree) -> None:
        if isinstance(tree, ast.Node):
            getattr(self, tree.__class__.__name__, self.default)(tree)
        elif isinstance(tree, tuple):
            for part in tree:
                self.visit(part)

    def default(self, node) -> None:
        for name in fields(node.__class__):
            self.visit(getattr(node, name))


class Statements(Visitor):
    """A visitor of statements and the blocks they hold (loop bodies, branches, options), which
    never goes into an expression: an expression's own comprehension variables are not a body's."""

    def visit(self, tree) -> None:
        if tree.__class__ not in _EXPRESSIONS:
            super().visit(tree)


class Transformer:
    """Rewrites a tree bottom-up: each node's children first, then ``self.<NodeClass>(node)``
    (``default`` keeps it) returns what stands in its place. A part that does not change is the
    same object, so an unchanged tree is returned as it was given."""

    def transform(self, tree):
        if isinstance(tree, ast.Node):
            return getattr(self, tree.__class__.__name__, self.default)(self.rebuilt(tree))
        if isinstance(tree, tuple):
            new = tuple(self.transform(part) for part in tree)
            return tree if all(a is b for a, b in zip(new, tree)) else new
        return tree

    def rebuilt(self, node):
        """``node`` with its children transformed (the same node when none changed)."""
        parts = {name: getattr(node, name) for name in fields(node.__class__)}
        new = {name: self.transform(part) for name, part in parts.items()}
        return node if all(new[k] is parts[k] for k in parts) else attrs.evolve(node, **new)

    def default(self, node):
        return node


def methods(cls, prefix: str, nodes) -> dict:
    """Node class -> ``cls``'s method named ``prefix`` + the class's name, for each of ``nodes`` (a
    tuple, or a union such as ``ast.Expr``): a writer's dispatch table, made when its module loads,
    so a node class with no method is found then, never by an author's game."""
    classes = typing.get_args(nodes) or tuple(nodes)
    missing = [c.__name__ for c in classes if not callable(getattr(cls, prefix + c.__name__, None))]
    if missing:
        raise TypeError(f"{cls.__name__} has no {', '.join(prefix + name for name in missing)}")
    return {c: getattr(cls, prefix + c.__name__) for c in classes}


# ------------------------------------------------------------------ what a body binds and reads

class _Bind(Statements):
    """Every way a body binds a local (the one place that knows: a new binding statement is
    added here and every analysis sees it): ``out``, (name, value) in the order written;
    ``walks``, (name, what it walks) for a loop's, a ``choose_all``'s and an option's variables."""

    def __init__(self):
        self.out: list = []
        self.walks: list = []

    def Assign(self, st):
        if isinstance(st.target, ast.Name):
            self.out.append((st.target.id, st.value))

    def AugAssign(self, st):
        if isinstance(st.target, ast.Name):
            self.out.append((st.target.id, ast.BinOp(st.op, st.target, st.value, span=st.span)))

    def For(self, st):
        self.out.append((st.var, None))
        self.walks.append((st.var, st.iter))
        self.default(st)

    def ChooseAll(self, st):
        self.out.append((st.var, None))
        self.walks.append((st.var, st.player))
        self.default(st)

    def Option(self, opt):
        self.out.extend((name, None) for name, _coll in opt.fors)
        self.walks.extend(opt.fors)
        self.default(opt)


def bindings(body) -> list:
    """(name, value) for each way a body binds a local, in the order written: ``x = v`` gives
    ``v``, ``x += v`` gives ``x + v``; a loop's, an option's or a ``choose_all``'s variable gives
    None (bound to each of many values)."""
    walker = _Bind()
    walker.visit(body)
    return walker.out


def walks(body) -> list:
    """(name, collection) for each variable a body binds to each of many values, in the order
    written: a ``for`` loop's and its collection, a ``choose_all``'s and its players, an option's
    (an option's ``let NAME = value`` gives the ``Let``)."""
    walker = _Bind()
    walker.visit(body)
    return walker.walks


def assigned_values(body) -> dict:
    """Local name -> the expressions plain assignments give it (see :func:`bindings`), or None
    for a name also bound otherwise (a loop or option variable)."""
    out: dict = {}
    for name, value in bindings(body):
        if value is None:
            out[name] = None
        elif out.get(name, ()) is not None:
            out.setdefault(name, []).append(value)     # a tuple grown by `+` was quadratic
    return {name: None if given is None else tuple(given) for name, given in out.items()}


def assigned_names(body) -> set:
    """Local names a body binds: assignment targets, loop and option variables."""
    return {name for name, _value in bindings(body)}


class _First(Statements):
    def __init__(self):
        self.found: dict = {}

    def Assign(self, st):
        if isinstance(st.target, ast.Name):
            self.found.setdefault(st.target.id, st.target.span)
    AugAssign = Assign


def first_assignments(body) -> dict:
    """Every local's first assignment in ``body``, in the order written -> its span: one walk for
    all of them (one walk per unused local was quadratic in a long procedure, RK0340)."""
    walker = _First()
    walker.visit(body)
    return walker.found


class _Names(Visitor):
    """Every name read (``out``)."""

    def __init__(self):
        self.out: set = set()

    def Name(self, node):
        self.out.add(node.id)


class _Read(_Names):
    def Assign(self, st):
        if not isinstance(st.target, ast.Name):
            self.visit(st.target)
        self.visit(st.value)

    def For(self, st):
        self.out.add(st.var)
        self.default(st)

    def Option(self, opt):
        self.out.update(name for name, _coll in opt.fors)
        self.default(opt)


def read_names(body) -> set:
    """Every name a body reads (loop variables count as read: looping is a use)."""
    walker = _Read()
    walker.visit(body)
    return walker.out


class _Depth(Statements):
    def __init__(self):
        self.depth = self.deepest = 0

    def For(self, st):
        self.depth += 1
        self.deepest = max(self.deepest, self.depth)
        self.default(st)
        self.depth -= 1
    While = For


def loop_depth(body) -> int:
    """How deeply loops nest in a block of statements."""
    walker = _Depth()
    walker.visit(body)
    return walker.deepest


class _Free(_Names):
    def Comp(self, comp):
        bound: set = set()
        for name, coll in comp.fors:
            self.out.update(free_names(coll) - bound)
            bound.add(name)
        self.out.update((free_names(comp.elt) | free_names(comp.cond) | free_names(comp.by)) - bound)


def free_names(node) -> frozenset:
    """The names ``node`` reads from outside it (a comprehension's own variables excluded)."""
    walker = _Free()
    walker.visit(node)
    return frozenset(walker.out)


def bound_names(node) -> frozenset:
    """The names ``node``'s comprehensions bind."""
    return frozenset(name for n in ast.walk(node) if isinstance(n, ast.Comp) for name, _coll in n.fors)


def mentions(node, name: str) -> bool:
    """Whether ``node`` reads the name ``name`` anywhere."""
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


class _Substitute(Transformer):
    def __init__(self, values: dict):
        self.values = values

    def Name(self, name):
        return self.values.get(name.id, name)


def substituted(node, values: dict):
    """``node`` with each name of ``values`` replaced by its value (no name is bound inside)."""
    return _Substitute(values).transform(node)
