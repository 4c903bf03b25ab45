# SPDX-License-Identifier: MIT
"""Which content functions are written in place of their calls, decided before any code is.

The ``inline`` pass (dsl/passes.py) writes a cheap function's body where it is called: a
Python call costs about as much as a few dozen steps. Whether a function is cheap is a fact of
the content (its body, the bodies of what it calls, which functions are remembered for the
game), so it is found here once for every function, apart from writing code: the writer asks
:class:`Inlining` and decides nothing of it from what it wrote, and the answer does not depend
on which function happens to be written first.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping

import attrs

from ..engine.library import REGISTRY
from . import ast, passes
from .visit import mentions

INLINE_SIZE = 48        # the most nodes a body written in place may have, with the bodies it takes in


@attrs.frozen
class Inlining:
    """``inline``: the content functions written in place of their calls; ``written``: each of
    those -> the functions among them its body calls (their bodies written in with it)."""

    inline: frozenset = frozenset()
    written: Mapping = attrs.field(factory=dict)

    def __contains__(self, name: str) -> bool:
        return name in self.inline


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
    calls = {name: _called(body, functions) for name, (_params, body) in functions.items()}
    circular = _in_circles(calls)
    inline: set = set()
    written: dict = {}
    sizes: dict = {}
    for name in _callees_first(calls):
        if name in circular:
            continue
        body = functions[name][1]
        mine = frozenset(f for f in calls[name] if f in inline)
        sizes[name] = size(body) + sum(sizes[n.func] for n in ast.walk(body)
                                       if isinstance(n, ast.Call) and n.func in mine)
        if sizes[name] <= INLINE_SIZE and cheap(body, vocab, frozenset(calls[name])) \
                and not (name in remembered and _builds_text(body)):
            inline.add(name)
            written[name] = mine
    return Inlining(frozenset(inline), written)


def _called(body, functions) -> frozenset:
    return frozenset(n.func for n in ast.walk(body) if isinstance(n, ast.Call) and n.func in functions)


def _in_circles(calls: dict) -> set:
    """The functions that can call themselves, directly or through others."""
    circular = set()
    for start in calls:
        seen, work = set(), list(calls[start])
        while work:
            name = work.pop()
            if name == start:
                circular.add(start)
                break
            if name not in seen:
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
    if isinstance(node, ast.Node):
        return 1 + sum(size(getattr(node, f.name)) for f in attrs.fields(type(node)))
    if isinstance(node, tuple):
        return sum(size(x) for x in node)
    return 0


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
        return all(cheap(getattr(node, f.name), v, looked_up) for f in attrs.fields(type(node)))
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
