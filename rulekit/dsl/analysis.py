# SPDX-License-Identifier: MIT
"""What the passes decide from the content alone, found apart from writing any code.

- Which content functions are written in place of their calls (the ``inline`` pass): a Python
  call costs about as much as a few dozen steps. Whether a function is cheap is a fact of the
  content (its body, the bodies of what it calls, which functions are remembered for the game),
  so it is found once for every function: the writer asks :class:`Inlining`, and the answer
  does not depend on which function happens to be written first.
- Which values a body asks for more than once (the ``reuse`` pass, :func:`asked_again`).
- Which comprehensions a kept tally or ``list.count`` answers (the ``tallies`` pass,
  :func:`tally_parts`, :func:`any_parts`, :func:`equal_parts`).

The writer decides nothing of these from the Python it wrote.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping

import attrs

from ..engine.library import REGISTRY
from . import ast, passes
from .visit import Visitor, fields, free_names, mentions

INLINE_SIZE = 48        # the most nodes a body written in place may have, with the bodies it takes in


@attrs.frozen
class Inlining:
    """``written``: each content function written in place of its calls -> the functions among
    those its body calls (their bodies written in with it)."""

    written: Mapping = attrs.field(factory=dict)

    @property
    def inline(self) -> frozenset:
        """The content functions written in place of their calls."""
        return frozenset(self.written)

    def __contains__(self, name: str) -> bool:
        return name in self.written


@passes.step("inline")
def inlining(vocab, remembered: Collection[str], on: bool = True) -> Inlining:
    """The functions of ``vocab`` cheap enough to write in place: a body of a few steps with no
    loop (no comprehension left after tallies), counting the steps of the cheap functions it
    calls, which are written in with it. It may call a function that stays a call (a test
    written as a loop): writing the body in still saves the outer call. Never a function that
    can call itself, directly or through others (writing it out would not end), nor one of the
    board alone (``remembered``: its answers are kept for the game) that builds a text: its
    remembered answer is quicker than the new string, its hash and its size check."""
    if not on:
        return Inlining()
    functions = vocab.functions
    calls = {name: called(body, functions) for name, (_params, body) in functions.items()}
    circular = in_circles(calls)
    written: dict = {}
    sizes: dict = {}
    for name in _callees_first(calls):
        if name in circular:
            continue
        body = functions[name][1]
        mine = frozenset(f for f in calls[name] if f in written)
        sizes[name] = size(body) + sum(sizes[n.func] for n in ast.walk(body)
                                       if isinstance(n, ast.Call) and n.func in mine)
        if sizes[name] <= INLINE_SIZE and cheap(body, vocab, calls[name]) \
                and not (name in remembered and _builds_text(body)):
            written[name] = mine
    return Inlining(written)


def asked_again(body, v) -> list:
    """The calls (of a content function or a pure built-in) and comprehensions a function body
    asks for twice, or inside a comprehension without reading its variables, in the order first
    asked: each has one value in the body (a body is one pure expression over an unchanging
    state), worked out once (the ``reuse`` pass, ``Compiler._reuse_plan``)."""
    repeats = _Repeats(v)
    repeats.visit(body)
    return [node for node, (times, looped) in repeats.seen.items() if times >= 2 or looped]


class _Repeats(Visitor):
    """What :func:`asked_again` counts: each call of a content function or a pure built-in,
    and each comprehension, that reads none of the names the comprehensions around it bind ->
    [how many times it is asked, whether inside a comprehension]. A comprehension's iterables
    are left alone (Python allows no ``:=`` there)."""

    def __init__(self, v):
        self.v = v
        self.seen: dict = {}
        self.bound: frozenset = frozenset()     # the names the comprehensions around bind
        self.looped = False                     # inside a comprehension

    def note(self, node) -> None:
        if not (free_names(node) & self.bound):
            entry = self.seen.setdefault(node, [0, False])
            entry[0] += 1
            entry[1] = entry[1] or self.looped

    def Comp(self, node) -> None:
        outer = self.bound, self.looped
        self.bound, self.looped = self.bound | {name for name, _coll in node.fors}, True
        for part in (node.elt, node.cond, node.by):
            self.visit(part)
        self.bound, self.looped = outer
        self.note(node)

    def Call(self, node) -> None:
        if node.func in self.v.functions or (node.func in REGISTRY and REGISTRY[node.func].pure):
            self.note(node)
        self.default(node)


def called(body, names) -> frozenset:
    """The names among ``names`` (content functions, or procedures) that ``body`` calls."""
    return frozenset(n.func for n in ast.walk(body) if isinstance(n, ast.Call) and n.func in names)


def in_circles(calls: dict) -> set:
    """The names of ``calls`` (name -> the names it calls: functions, or procedures) that can
    call themselves, directly or through others."""
    circular = set()
    for start in calls:
        seen, work = set(), list(calls[start])
        while work:
            name = work.pop()
            if name == start:
                circular.add(start)
                break
            if name not in seen and name in calls:
                seen.add(name)
                work.extend(calls[name])
    return circular


def _callees_first(calls: dict) -> list:
    """Every function, each after the functions it calls (those outside a circle), in the order
    the content declares them otherwise."""
    order: list = []
    placed: set = set()
    declared = {name: k for k, name in enumerate(calls)}

    def place(name, path):
        if name in placed or name in path:
            return
        for callee in sorted(calls[name], key=declared.__getitem__):
            place(callee, path | {name})
        placed.add(name)
        order.append(name)
    for name in calls:
        place(name, frozenset())
    return order


def size(node) -> int:
    """How many nodes a tree has."""
    return sum(1 for _node in ast.walk(node))


def cheap(node, v, looked_up: frozenset = frozenset()) -> bool:
    """No loop in ``node``: no comprehension (but a tallied count) and no content function call
    but of one among ``looked_up`` (its answer remembered for the game, a table lookup, or a
    cheap body written in place)."""
    if isinstance(node, ast.Call):
        if node.func in v.functions:
            return node.func in looked_up and cheap(node.args, v, looked_up) and not node.kwargs
        builtin = REGISTRY.get(node.func)
        if builtin is not None and builtin.form == "count" and len(node.args) == 1 and not node.kwargs \
                and isinstance(node.args[0], ast.Comp):
            parts = tally_parts(node.args[0], v)
            return parts is not None and cheap(parts[0], v, looked_up) and cheap(parts[2], v, looked_up)
        if builtin is not None and builtin.form == "any" and len(node.args) == 1 and not node.kwargs:
            parts = any_parts(node.args[0], v)     # a tally where the zone is one for certain
            return parts is not None and cheap(parts[0], v, looked_up)
    if isinstance(node, ast.Comp):
        return False
    if isinstance(node, ast.Node):
        return all(cheap(getattr(node, name), v, looked_up) for name in fields(type(node)))
    if isinstance(node, tuple):
        return all(cheap(x, v, looked_up) for x in node)
    return True


def _builds_text(node) -> bool:
    """Whether ``node`` joins texts (``'dev-' + text(p)``, a template): each call makes a new string."""
    return any(isinstance(n, ast.Template) or (isinstance(n, ast.BinOp) and n.op == "+" and (
        isinstance(n.left, (ast.Str, ast.Template)) or isinstance(n.right, (ast.Str, ast.Template))))
        for n in ast.walk(node))


def tally_parts(arg, v):
    """(ZONE, PROP, VALUE) of ``count(x for x in ZONE if x.PROP == VALUE)`` with PROP a fixed
    item property (a count the tallies answer), else None."""
    if not (isinstance(arg, ast.Comp) and len(arg.fors) == 1 and isinstance(arg.cond, ast.Compare)
            and arg.cond.op == "=="):
        return None
    var, zone_node = arg.fors[0]
    if not (isinstance(arg.elt, ast.Name) and arg.elt.id == var):
        return None
    left, right = arg.cond.left, arg.cond.right
    if not (isinstance(left, ast.Attr) and isinstance(left.obj, ast.Name) and left.obj.id == var):
        left, right = right, left
    if not (isinstance(left, ast.Attr) and isinstance(left.obj, ast.Name) and left.obj.id == var):
        return None
    prop = left.name
    if prop not in v.item_props or prop in v.dynamic_props or prop in v.pvars or prop in v.pzones \
            or prop in v.member_props or mentions(right, var):
        return None
    return zone_node, prop, right


def any_parts(arg, v):
    """(ZONE, PROP, VALUE) of ``any(x.PROP == VALUE for x in ZONE)`` (as ``tally_parts``, VALUE
    a name or a constant: nothing that could fail or cost where no item is looked at), else None."""
    if not (isinstance(arg, ast.Comp) and len(arg.fors) == 1 and arg.cond is None and arg.by is None
            and isinstance(arg.elt, ast.Compare) and arg.elt.op == "=="):
        return None
    var = arg.fors[0][0]
    parts = tally_parts(ast.Comp(ast.Name(var, span=arg.span), arg.fors, arg.elt, span=arg.span), v)
    if parts is None or not isinstance(parts[2], (ast.Name, ast.Num, ast.Str, ast.Const)):
        return None
    return parts


def equal_parts(arg):
    """(XS, V) of ``count(x for x in XS if x == V)`` (counted by ``list.count``), else None."""
    if not (isinstance(arg, ast.Comp) and len(arg.fors) == 1 and isinstance(arg.cond, ast.Compare)
            and arg.cond.op == "=="):
        return None
    var, coll = arg.fors[0]
    left, right = arg.cond.left, arg.cond.right
    if not (isinstance(left, ast.Name) and left.id == var):
        left, right = right, left
    if not (isinstance(arg.elt, ast.Name) and arg.elt.id == var and isinstance(left, ast.Name)
            and left.id == var) or mentions(right, var):
        return None
    return coll, right
