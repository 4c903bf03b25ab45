# SPDX-License-Identifier: MIT
"""Counts answered without a scan: the ``tallies`` and ``listing`` passes.

The commonest question rules ask is how many items of a zone have a property ("how many cards of
this company does p have"). engine/tally.py keeps, per zone and fixed item property, how many items
hold each value, updated as items move; ``count(x for x in ZONE if x.PROP == VALUE)`` and ``any(
x.PROP == VALUE for x in ZONE)`` read it instead of walking the zone (which comprehensions qualify is
found in the tree, dsl/analysis.py), and ``count(x for x in XS if x == V)`` is ``list.count``. While
a choice's options are listed, a table no loop changes is looked up once (``listing``).

A plain module, as calls.py is: each function takes the compiler it writes for first.
"""
from __future__ import annotations

import ast as pyast
import contextlib

from . import ast, ir, passes, printer, pysource
from .analysis import any_parts, equal_parts, tally_parts
from .pysource import SLOT, STEADY, py_identifier


def counted_without_loop(compiler, comp) -> bool:
    """Whether ``count`` of ``comp`` is answered by a tally or ``list.count`` (``_tally_count``)."""
    return compiler.passes.on("tallies") and (
        tally_parts(comp, compiler.v) is not None or equal_parts(comp) is not None)

def any_by_tally(compiler, node, scope) -> bool:
    """Whether ``any(...)`` is answered by a tally (``tallied_any``)."""
    return _any_tally_parts(compiler, node, scope) is not None

def _any_tally_parts(compiler, node, scope):
    """``any_parts`` of ``any(...)``'s one argument, its zone one for certain, else None."""
    if "tallies" in compiler.passes.off:
        return None
    parts = any_parts(node.args[0], compiler.v) if len(node.args) == 1 and not node.kwargs else None
    return parts if parts is not None and compiler.kinds.certain(parts[0], scope) == "zone" else None

@passes.step("tallies")
def tallied_any(compiler, node, scope) -> str | None:
    """``any(x.PROP == VALUE for x in ZONE)`` of a zone for certain, PROP a fixed item
    property and VALUE a name or a constant: whether the zone's tally (engine/tally.py, as
    ``count`` asks it) holds VALUE, with no scan; the scan where VALUE is a value a table
    cannot hold (a list). Else None."""
    parts = _any_tally_parts(compiler, node, scope)
    if parts is None:
        return None
    zone_node, prop, right = parts
    value = compiler.src(right, scope)
    key = _tally_key(compiler, zone_node, prop, scope)
    found = ir.code("$0.get($1, 0) > 0", _tally_table(compiler, key, scanning_any=True), value)
    if isinstance(right, (ast.Num, ast.Str, ast.Const)) or _is_member(compiler, right, scope) \
            or pysource.is_literal(value):
        return found
    return ir.code("$0 if $1.__class__ in PLAIN_VALUE else ANY($2)", found, value,
                   compiler.generator(node.args[0], scope))

def names_set(compiler, coll, scope) -> bool:
    """``coll`` names a set of the game (not a name bound in ``scope``)."""
    return isinstance(coll, ast.Name) and coll.id in compiler.v.sets and coll.id not in scope.py \
        and coll.id not in scope.alias and coll.id not in scope.locals

def note_member(compiler, var: str, coll, scope) -> None:
    """Python variable ``var`` walks ``coll``: when that is a set, it holds one of the set's
    members (a text), which a tally answers for with no check of its class. Else nothing is known
    of it: not even what an earlier, dead variable of the same name held (``Scope.let_go``)."""
    if names_set(compiler, coll, scope):
        scope.kinds[("py", var)] = "member"
    else:
        scope.kinds.pop(("py", str(var)), None)

def _is_member(compiler, node, scope) -> bool:
    return isinstance(node, ast.Name) and node.id in scope.py and \
        scope.kinds.get(("py", scope.py[node.id])) == "member"

@passes.step("tallies")
def _tally_count(compiler, arg, scope):
    """``count(x for x in ZONE if x.PROP == VALUE)`` with PROP a fixed item property is
    answered from an incrementally kept tally (engine/tally.py) instead of a scan: the
    commonest question rules ask ("how many cards of this company does p have")."""
    if "tallies" in compiler.passes.off:
        return None
    parts = tally_parts(arg, compiler.v)
    if parts is None:
        return _equal_count(compiler, arg, scope)
    zone_node, prop, right = parts
    if compiler.kinds.certain(zone_node, scope) == "zone":
        key = _tally_key(compiler, zone_node, prop, scope)
        return ir.code("$0.get($1, 0)", _tally_table(compiler, key), compiler.src(right, scope))
    return ir.code("TALLY(s, $0, $1, $2)", compiler.src(zone_node, scope), compiler.constant(prop),
                   compiler.src(right, scope))

@passes.step("listing")
def _tally_table(compiler, key: str, scanning_any: bool = False) -> str:
    """A tally's table (engine/tally.py: built on the first question; for an ``any``, one
    built where an item lacks the property answers as the scan would). While options are
    listed (:meth:`listing`), a table whose key no loop changes is looked up once, where it
    is first asked, and read from a local after that: the listing moves no item."""
    build = ir.code("TALLY_TABLE(s, $0, True)" if scanning_any else "TALLY_TABLE(s, $0)", key)
    table = ir.code("s.tallies.get($0) or $1", key, build)
    at = compiler.at
    if at.listing is None or "listing" in compiler.passes.off or at.in_iterable or pysource.kind(key) != STEADY:
        return table
    same = (key.denotes, scanning_any)
    local = at.listing.get(same)
    if local is None:
        local = at.listing[same] = compiler._temp("_tc")
    return ir.code("$0 or ($0 := $1)", local, table)     # a table is never empty (tally_table)

@contextlib.contextmanager
def listing(compiler, tables: dict | None, steady: frozenset = frozenset()):
    """Compile the tests of a choice's options, or a content function whose parameters' Python
    names are ``steady`` (they hold one value all through it), which share ``tables`` (what a
    table's key denotes -> the local that keeps it; each local must start as None before the
    first test: :func:`function_tables`)."""
    at = compiler.at
    saved = at.listing, at.steady
    at.listing, at.steady = tables, steady
    try:
        yield
    finally:
        at.listing, at.steady = saved

def function_tables(lines: list, tables: dict) -> list:
    """The lines ``(indent, line)`` of a content function written while ``tables`` (what a table's
    key denotes -> its local) were shared (:func:`listing`), as they are best written: a table read
    in two lines or more, or in a loop, is kept in its local, which starts as None; one read in one
    line alone is read there as it is (where that line reads it twice, the ``repeats`` pass keeps it)."""
    uses: dict = {local: [] for local in tables.values()}
    looped: set = set()
    for k, (_indent, line) in enumerate(lines):
        for node in pyast.walk(getattr(line, "node", None) or pyast.Pass()):
            local = _shared_read(node, uses)
            if local is not None:
                uses[local].append(k)
            elif isinstance(node, _COMPREHENSIONS):
                looped.update(filter(None, (_shared_read(n, uses) for n in pyast.walk(node))))
    inside = _in_loops(lines)
    kept = [local for local, at in uses.items()
            if len(set(at)) > 1 or local in looped or any(k in inside for k in at)]
    dropped = set(uses) - set(kept)
    if dropped:
        lines = [(indent, _read_as_is(line, dropped)) for indent, line in lines]
    return [(0, ir.stmt("$0 = None", ir.name(local))) for local in kept] + lines


_COMPREHENSIONS = (pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp)


def _shared_read(node, locals_: dict | set) -> str | None:
    """The local of ``node`` when it is a read of a table shared in one of ``locals_``, ``_tc or
    (_tc := TABLE)``, else None."""
    if isinstance(node, pyast.BoolOp) and isinstance(node.op, pyast.Or) and len(node.values) == 2:
        local, store = node.values
        if isinstance(local, pyast.Name) and local.id in locals_ and isinstance(store, pyast.NamedExpr) \
                and store.target.id == local.id:
            return local.id
    return None


def _in_loops(lines: list) -> set:
    """The indexes of the lines inside a ``for`` or ``while`` of ``lines``."""
    inside, loops = set(), []      # the indents of the loops the line stands in
    for k, (indent, line) in enumerate(lines):
        while loops and loops[-1] >= indent:
            loops.pop()
        if loops:
            inside.add(k)
        if getattr(line, "lead", None) in ("for", "while"):
            loops.append(indent)
    return inside


def _read_as_is(line, dropped: set):
    """``line`` with each read of a table kept in a local of ``dropped`` read as it is (``TABLE``)."""
    node = getattr(line, "node", None)
    if node is None or not any(_shared_read(n, dropped) for n in pyast.walk(node)):
        return line
    tree = ir.rebuilt(node, lambda part: _as_is(part, dropped))
    return ir.Line(printer.one_line(tree, line.lead), tree, line.lead, line.note)


def _as_is(node, dropped: set):
    if isinstance(node, pyast.expr) and _shared_read(node, dropped) is not None:
        return _as_is(node.values[1].value, dropped)
    return ir.rebuilt(node, lambda part: _as_is(part, dropped)) if isinstance(node, pyast.AST) else node


def _tally_key(compiler, zone_node, prop: str, scope) -> str:
    """The source of a tally's key ``(zone, prop)`` for a zone known to be one: made once
    for a named zone or a player's zone (one key per seat), else built where it is asked."""
    v = compiler.v
    if isinstance(zone_node, ast.Name):
        name = compiler.constant((v.zones[zone_node.id], prop), f"TK_{py_identifier(zone_node.id)}")
        return ir.name(str(name), STEADY, ("tally", zone_node.id, prop))
    if isinstance(zone_node, ast.Attr) and zone_node.name in v.pzones:
        keys = tuple((key, prop) for key in v.pzones[zone_node.name])
        seat = compiler.src(zone_node.obj, scope)
        keyed = compiler.constant(keys, f'TK_{py_identifier(zone_node.name)}')
        steady = _steady(compiler, seat)
        if steady is None:
            return ir.code("$0[$1]", keyed, seat)
        return ir.code("$0[$1]", keyed, seat, kind=STEADY, denotes=("tally", zone_node.name, prop, steady))
    zone = compiler.src(zone_node, scope)
    if isinstance(zone_node, ast.Index) and isinstance(zone_node.obj, ast.Name) and zone_node.obj.id in v.families \
            and isinstance(zone_node.index, ast.Name):     # (a name: read again, it is written again alone)
        steady = _steady(compiler, compiler.src(zone_node.index, scope))
        if steady is not None:      # a family's space by a parameter: the same zone all through a function
            return ir.code("($0, $1)", zone, compiler.constant(prop), kind=STEADY,
                           denotes=("tally", zone_node.obj.id, prop, steady))
    return ir.tuple_of([zone, compiler.constant(prop)])


def _steady(compiler, value) -> tuple | None:
    """What ``value`` (source) denotes when it holds the same all through what is being written: a
    slot of the procedure's (its parameters, while options are listed), or a parameter of the
    content function being written (``Writing.steady``); else None."""
    if pysource.kind(value) == SLOT:
        return value.denotes
    if pysource.kind(value) == pysource.NAME and str(value) in compiler.at.steady:
        return ("parameter", str(value))
    return None

def _equal_count(compiler, arg, scope):
    """``count(x for x in XS if x == V)``: Python's ``list.count`` (the same ``==``)."""
    parts = equal_parts(arg)
    if parts is None:
        return None
    coll, right = parts
    if compiler.kinds.certain(coll, scope) in ("list", "zone"):
        return ir.code("$0.count($1)", compiler.seq_src(coll, scope), compiler.src(right, scope))
    items, value = compiler.src(coll, scope), compiler.src(right, scope)
    twice = compiler._twice(items)
    if twice is None:
        return ir.code("COUNT_EQUAL(s, $0, $1)", items, value)
    first, again = twice                # a list is counted without a call
    return ir.code("$0.count($2) if $1.__class__ is LIST else COUNT_EQUAL(s, $0, $2)", again, first, value)
