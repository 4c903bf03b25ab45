# SPDX-License-Identifier: MIT
"""Built-ins written as the Python they stand for: the ``forms`` and ``unroll`` passes.

A built-in of engine/library.py is a Python function that first asks what it was given; where the
compiler knows (dsl/kinds.py) or a cheap test can tell, the call is written as what it stands for:
``count`` of a list as ``len``, ``sum`` of a zone over its items, ``range`` walked as Python's
range, ``any`` of a comprehension stopping at the first answer (the forms are one table,
dsl/aggregates.py; the Python for single built-ins is in dsl/templates.py). ``any``/``all`` over a
few members of a set are written out member by member (``unroll``).

A plain module, as calls.py is: each function takes the compiler it writes for first.
"""
from __future__ import annotations

from ..codes import BY_NOT_TAKEN
from ..engine.library import REGISTRY
from . import ast, ir, passes, tallies, templates
from .aggregates import AGGREGATES
from .analysis import size
from .pysource import NONE

UNROLL_MEMBERS = 8   # any/all over a named set of at most this many members...
UNROLL_SIZE = 40     # ...and a test of at most this many syntax nodes is written out member by member


def walk_src(compiler, node, scope) -> str:
    """What a ``for`` statement walks: the built-in's walked form (``walked_src``) or ``seq_src``."""
    walked = walked_src(compiler, node, scope)
    return walked if walked is not None else compiler.seq_src(node, scope)

@passes.step("forms")
def walked_src(compiler, node, scope) -> str | None:
    """The form a built-in's template has for being walked by a ``for`` statement (``walks``:
    ``range(a, b)`` walks Python's range, no list and no call, when its bounds are whole
    numbers the built-in would take), or None. What it gives is never changed while walked."""
    builtin = REGISTRY.get(node.func) if isinstance(node, ast.Call) and node.func not in compiler.v.functions else None
    if builtin is None or node.kwargs or "forms" in compiler.passes.off:
        return None
    written = templates.template(builtin.name)
    form = written.walks.get(len(node.args)) if written.walks else None
    if form is None:
        return None
    reads = [compiler._twice(compiler.src(a, scope)) for a in node.args]
    if None in reads:
        return None
    bind_template_names(compiler, written)
    again = [later for _first, later in reads]
    call = ir.code("$0(s, $*)", compiler.constant(builtin.impl, f"B_{builtin.name}"), again)
    return ir.code(form, *again, *(first for first, _later in reads), call)


@passes.step("forms")
def _form(compiler, builtin, node, scope):
    """The faster form a built-in declares (``form=``), where its arguments allow it, else
    None (the library's function is called)."""
    aggregate = AGGREGATES.get(builtin.form) if compiler.passes.on("forms") else None
    if aggregate is None:
        return None
    form = aggregate.name
    if form == "count" and len(node.args) == 1 and not node.kwargs:
        fast = tallies._tally_count(compiler, node.args[0], scope)
        if fast is not None:
            return fast
    if aggregate.stops and node.args and isinstance(node.args[0], ast.Comp):
        # stop at the first answer (functions are pure, so nothing is skipped but work)
        compiler.bind_args(builtin, node, scope, lambda n, sc: NONE)  # checks only
        tallied = tallies.tallied_any(compiler, node, scope) if form == "any" else None
        if tallied is not None:
            return tallied
        unrolled = _unrolled(compiler, form, node, scope)
        if unrolled is not None:
            return unrolled
        gen = compiler.generator(node.args[0], scope)
        default = [compiler.src(a, scope) for a in node.args[1:2]] + \
            [compiler.src(v, scope) for k, v in node.kwargs if k == "default"] if aggregate.default else []
        return ir.code(aggregate.generator, gen, default[0] if default else NONE)
    if aggregate.listed is not None:
        return _aggregate(compiler, builtin, aggregate, node, scope)
    return None

def _unrolled(compiler, form: str, node, scope):
    """``any``/``all`` over a few members of a named set, written out member by member as
    one would by hand (`f(p, 'red') and f(p, 'blue') and ...`): no generator to run."""
    comp = node.args[0]
    if form not in ("any", "all") or len(node.args) != 1 or node.kwargs or not unrollable(compiler, comp, scope):
        return None
    var, coll = comp.fors[0]
    members = list(compiler.v.sets[coll.id])
    parts = []
    for member in members:
        inner = scope.bind_py({var: compiler.constant(member)})
        part = compiler.src(comp.elt, inner)
        if comp.cond is not None:
            cond = compiler.src(comp.cond, inner)
            part = ir.code("$0 and $1" if form == "any" else "not $0 or $1", cond, part)
        parts.append(part)
    return ir.code("True if $0 else False", ir.any_of(parts) if form == "any" else ir.all_of(parts))

@passes.step("unroll")
def unrollable(compiler, comp, scope) -> bool:
    """Whether ``any``/``all`` of ``comp`` is written out member by member (``_unrolled``)."""
    if len(comp.fors) != 1 or "unroll" in compiler.passes.off:
        return False
    _var, coll = comp.fors[0]
    v = compiler.v
    if not (isinstance(coll, ast.Name) and coll.id in v.sets and compiler.kinds.certain(coll, scope) == "list"
            and coll.id not in v.gvars and coll.id not in v.constants):
        return False
    return 0 < len(v.sets[coll.id]) <= UNROLL_MEMBERS and size(comp.elt) + size(comp.cond) <= UNROLL_SIZE

def _aggregate(compiler, builtin, aggregate, node, scope):
    """``count``/``sum``/``min``/``max`` of a certain list or zone as the Python built-in
    (the library's versions do the same after asking what the collection is)."""
    form = aggregate.name
    if form == "count" and len(node.args) == 1 and not node.kwargs:
        compiler.bind_args(builtin, node, scope, lambda n, sc: NONE)  # checks only
        return ir.code("len($0)", compiler.seq_src(node.args[0], scope))    # SEQ only where the kind is not certain
    if not node.args or len(node.args) > 2 or compiler.kinds.certain(node.args[0], scope) not in ("list", "zone"):
        return None
    defaults = list(node.args[1:]) + [value for key, value in node.kwargs if key == "default"]
    if any(key != "default" for key, _v in node.kwargs) or len(defaults) > aggregate.default:
        return None
    compiler.bind_args(builtin, node, scope, lambda n, sc: NONE)  # checks only
    items = compiler.seq_src(node.args[0], scope)
    default = compiler.src(defaults[0], scope) if defaults else NONE
    return ir.code(aggregate.listed, items, default)

def _keyed(compiler, builtin, node, scope) -> str:
    """``f(x for x in xs by KEY)``: the built-in's ``by`` form, given (key, item) pairs."""
    comp = node.args[0]
    if builtin.by is None:
        compiler.error(BY_NOT_TAKEN, f"`{builtin.name}` does not compare items by a key", comp.by.span,
                   "`by` belongs to sorted, min, max and distinct (and to the options of a `choose`)")
        return NONE
    pairs = compiler.comprehension(comp, scope, keyed=True)
    args, kwargs = compiler.bind_args(builtin, node, scope, lambda n, sc: pairs if n is comp else compiler.src(n, sc))
    return ir.call(compiler.constant(builtin.by, f'BY_{builtin.name}'), [ir.name("s"), *args], kwargs)

def bind_template_names(compiler, written) -> None:
    """Bind the names a template reads (dsl/templates.py) in the module's namespace."""
    for bound, value in written.binds.items():
        compiler.ns.setdefault(bound, value)
