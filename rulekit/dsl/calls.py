# SPDX-License-Identifier: MIT
"""Calls of content functions, as a careful engineer would write each.

A content function becomes a Python function of the game's module (:func:`compile_function`),
and a call of it is written one of four ways, each a named pass (dsl/passes.py) that can be
switched off:

- ``inline``: a cheap function's body in place of the call (which functions are cheap is found
  beforehand, dsl/analysis.py), its plain arguments in place of its parameters;
- ``by-seat``: a function that reads no state, given a seat or a text, has its remembered answer
  looked up where it is called;
- ``memo``: otherwise through a caller that remembers answers (engine/memo.py);
- ``walk``: a loop over a function that picks items walks the picked collection itself.

A plain module: each function takes the :class:`~rulekit.dsl.compiler.Compiler` it writes for
(``compiler``: its ``src``, scopes and reuse plan) as its first argument, and asks the other parts
(loops.py, tallies.py) by name.
"""
from __future__ import annotations

import zlib

from ..codes import WRONG_ARGUMENT_COUNT
from ..engine import memo
from . import ast, ir, loops, passes, pysource, tallies
from .analysis import cheap
from .pysource import NONE, py_identifier
from .scope import Scope
from .visit import Transformer, bound_names, free_names, substituted
from .writing import Reuse


def _user_function_call(compiler, node, scope):
    name = node.func
    params, _body = compiler.v.functions[name]
    if node.kwargs or len(node.args) != len(params):
        compiler.error(WRONG_ARGUMENT_COUNT, f"function `{name}` takes {len(params)} argument"
                   f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), got "
                   f"{len(node.args) + len(node.kwargs)}", node.span)
        return NONE
    sources = [compiler.src(a, scope) for a in node.args]
    plain = all(isinstance(a, _PLAIN_ARGS) for a in node.args)
    if name in compiler.inlining and plain:
        # a body as cheap as a memo lookup is written in place of the call: its arguments are
        # names and literals, written as a variable, a slot or a literal, read as often as it reads them
        compiler.out.inlined_at.setdefault(name, []).append(node.span)
        # what the caller knows of its Python variables (a set's member, a list) holds for the body
        known = {key: kind for key, kind in scope.kinds.items() if key[0] == "py"}
        for arg, source in zip(node.args, sources):     # a player given is one in the body (Compiler.typed_as)
            if compiler.typed_as(arg, scope) == "seat":
                known[("py", str(source))] = "seat"
        inner = Scope(set(params), kinds=known).bind_py(dict(zip(params, sources)))
        return _written_in_place(compiler, _body, inner, set(sources))

    call = ir.code("$0(s, $*)", ir.name(_memoised(compiler, name, len(params))), sources)
    return (_looked_up_by_seat(compiler, name, node, sources, scope, call) if plain else None) or call

@passes.step("by-seat")
def _looked_up_by_seat(compiler, name: str, node, sources: list, scope, call: str) -> str | None:
    """``marker(p, c)``, ``adjacent(s)``: a function that reads no state and not the player
    count, given plain arguments, has its remembered result looked up where it is called
    (memo.StaticTable ``by_seat``), the call made only where an argument is not of the
    classes the table holds (a seat, a text), or no result is kept yet (or it is a false
    one). About half a call's cost. Its arguments are names and literals (``plain``)."""
    table = compiler.static_memo.get(name)
    if table is None or "by-seat" in compiler.passes.off or table.of_count or len(sources) not in (1, 2):
        return None
    if any(pysource.kind(a) in (pysource.NUMBER, pysource.CONST) for a in sources):
        return None         # a number or a truth value is never a seat, nor a text
    if name not in compiler.names.by_seat:
        compiler.names.by_seat[name] = compiler.constant(table.seated(len(sources)), f"BY_SEAT_{py_identifier(name)}")
    rows = compiler.names.by_seat[name]
    texts = [pysource.kind(a) == pysource.TEXT or tallies._is_member(compiler, arg, scope)
             for a, arg in zip(sources, node.args)]
    seated = compiler.typed_as(node.args[0], scope) == "seat"     # a player for certain
    if len(sources) == 1:       # a seat or a text: `1` and `True` equal seat p2 as keys
        test = None if texts[0] or seated else ir.code("$0.__class__ in SEAT_OR_TEXT", sources[0])
        found = ir.code("$0.get($1)", rows, sources[0])
    else:       # every seat has its row; a row holds texts only, which equal nothing else
        seat, text = sources
        tests = ([] if seated else [ir.code("$0.__class__ is PLAYER", seat)]) + \
            ([] if texts[1] else [ir.code("$0.__class__ is STR", text)])
        test, found = ir.all_of(tests) if tests else None, ir.code("$0[$1].get($2)", rows, seat, text)
    if test is None:
        return ir.code("$0 or $1", found, call)
    return ir.code("($0 if $1 else None) or $2", found, test, call)

def _written_in_place(compiler, body, inner: Scope, sources: set) -> str:
    """A body written in place of its call: a value it asks for twice is worked out once (its
    own plan, ``_reuse_plan``, in locals named apart from the caller's), where the first time
    is certainly reached each time the body is; otherwise (or inside an iterable) as written."""
    body = _written_out(compiler, body, frozenset(inner.py) | bound_names(body))
    saved = compiler.at.reuse
    plan = {node: compiler._temp("_w") for node in compiler._reuse_plan(body)}
    try:
        reuse = compiler.at.reuse = Reuse(plan, sources) if plan else None
        source = compiler.src(body, inner)
        if reuse is not None and reuse.reused:    # a local that would have to start as UNSET: none kept
            compiler.at.reuse = None
            source = compiler.src(body, inner)
        return source
    finally:
        compiler.at.reuse = saved

def _written_out(compiler, node, bound: frozenset):
    """``node`` with each call of a cheap function whose body asks another cheap one replaced
    by that body, its plain arguments in place of its parameters: the questions the bodies
    and their caller share (``row(p, c)`` asked by a function and by the ``price(p, c)`` it
    asks too) are then asked once (``_reuse_plan``). Other cheap calls stay calls, written in
    place where they compile (:meth:`_user_function_call`). ``bound``: the names the caller
    binds; a body reading one of them from outside (or whose comprehension binds a name it
    is given, or a parameter) stays a call."""
    return _WriteOut(compiler, bound).transform(node)

def _body_in_place(compiler, node, bound: frozenset):
    """The body of the cheap function ``node`` calls, written in place (``_substituted_body``),
    or None."""
    if not (isinstance(node, ast.Call) and node.func in compiler.inlining):
        return None
    body = _substituted_body(compiler, node, bound)
    if body is not None:
        compiler.out.inlined_at.setdefault(node.func, []).append(node.span)
    return body

def _substituted_body(compiler, node, bound: frozenset):
    """The body of the content function ``node`` calls, its plain arguments in place of its
    parameters, or None where that would change what a name means: the body reads from
    outside a name the caller binds (``bound``), or a comprehension of the body binds a
    parameter or a name given as an argument (it would be captured)."""
    params, body = compiler.v.functions[node.func]
    given = {a.id for a in node.args if isinstance(a, ast.Name)}
    if node.kwargs or len(node.args) != len(params) or not all(isinstance(a, _PLAIN_ARGS) for a in node.args) \
            or (free_names(body) - set(params)) & bound or bound_names(body) & (given | set(params)):
        return None
    return substituted(body, dict(zip(params, node.args)))

def conjuncts_written_out(compiler, node, bound: frozenset) -> list:
    """The parts of ``a and b and c`` in order, a cheap function's call among them written out
    as its own parts (``can_take(p, c)`` as ``count(p.hand) < limit`` and ``c != 'x'``)."""
    out: list = []
    for part in loops.conjuncts(_written_out(compiler, node, bound)):
        body = _body_in_place(compiler, part, bound)
        out.extend([part] if body is None else conjuncts_written_out(compiler, body, bound))
    return out

@passes.step("walk")
def walked_body(compiler, coll, scope):
    """``for x in kept(p, 'spy')`` where the function's body picks items of a collection
    (``[t for t in p.tiles if t.type == kind]``, or ``[] if c else [...]``): the loop can
    walk that collection itself, testing each item where the function would, and no list
    is built and no call made. Returns ``(guard, collection, variable, test)``, nodes read
    in the caller's ``scope`` (its arguments in place of the parameters; ``guard`` and
    ``test`` may be None), or None where the call stays: arguments that are not plain, a
    body naming what the caller binds, a function remembered for the game."""
    if not (isinstance(coll, ast.Call) and coll.func in compiler.v.functions) or coll.func in compiler.static_memo \
            or "walk" in compiler.passes.off:
        return None
    body = _substituted_body(compiler, coll, scope.locals | set(scope.py) | set(scope.alias))
    guard = None
    if isinstance(body, ast.IfExp) and isinstance(body.then, ast.ListLit) and not body.then.items:
        guard, body = ast.Not(body.cond, span=body.cond.span), body.orelse
    if not (isinstance(body, ast.Comp) and len(body.fors) == 1 and body.by is None
            and isinstance(body.elt, ast.Name) and body.elt.id == body.fors[0][0]):
        return None
    tests = (body.cond, guard)
    called = {n.func for n in ast.walk(tests) if isinstance(n, ast.Call) and n.func in compiler.v.functions}
    looked_up = frozenset(f for f in called if f in compiler.static_memo or f in compiler.inlining)
    if not cheap(tests, compiler.v, looked_up):
        return None     # a test with a loop of its own: the function's body has it written as a loop
    compiler.out.inlined_at.setdefault(coll.func, []).append(coll.span)
    var, inner = body.fors[0]
    return guard, inner, var, body.cond

@passes.step("memo")
def _memoised(compiler, name: str, arity: int) -> str:
    """The source name of the caller of user function ``name`` (engine/memo.py): a function
    that reads no state is remembered per game; any other is called directly (or, with
    ``memo.PER_STATE``, starts on trial and keeps a memory per state only if it pays)."""
    wrapper = compiler.names.callers.get(name)
    if wrapper is not None:
        return wrapper
    impls = compiler.out.functions_impl
    wrapper = compiler.names.callers[name] = compiler.names.fresh(f"fn_{py_identifier(name)}", compiler.ns)
    if name in compiler.static_memo:
        compiler.ns[wrapper] = memo.static_caller(name, impls, compiler.static_memo[name], arity)
    else:
        ns = compiler.ns

        def settle(fn):
            ns[wrapper] = fn
        compiler.ns[wrapper] = (memo.trial_caller(name, arity, impls, settle) if memo.PER_STATE
                            else memo.direct_caller(name, impls, settle))
    return wrapper

def compile_function(compiler, name: str) -> None:
    """A user function becomes a Python function ``f_NAME(s, *args)`` of the game's
    generated module (``function_defs``; bound in ``functions_impl`` when it loads)."""
    params, body = compiler.v.functions[name]
    if compiler.front_end is not None:
        compiler.front_end(body, params, False, function=name)
    compiler.names.new_function()
    names = {p: compiler.variable(p) for p in params}
    scope = Scope(set(params)).bind_py(names)
    body = _written_out(compiler, body, frozenset(params) | bound_names(body))
    tables: dict = {}       # a tally the body reads by its parameters alone: looked up once (tallies.listing)
    with tallies.listing(compiler, tables, frozenset(names.values())):
        lines, reused = compiler._with_reuse(body, scope, set(names.values()),
                                             lambda node, scope: loops.function_lines(compiler, node, scope))
    lines = tallies.function_tables(lines, tables)
    compiler.out.function_defs.append((name, impl_name(compiler, name), ("s",) + tuple(names.values()),
                               lines, body.span, reused))

def impl_name(compiler, name: str) -> str:
    """The Python name of user function ``name`` in the generated module."""
    return f"f_{py_identifier(name)}" if name.isascii() else f"f{zlib.crc32(name.encode())}_{py_identifier(name)}"

def call_function(compiler, name: str):
    """A ``(state, *args)`` caller of user function ``name`` that shares the memo. It looks
    its caller up at each call, as generated code does: a caller on trial hands over to its
    verdict (``settle``), and one held from before would stay on trial for good."""
    ns, wrapper = compiler.ns, _memoised(compiler, name, len(compiler.v.functions[name][0]))
    return lambda s, *args: ns[wrapper](s, *args)

_PLAIN_ARGS = (ast.Name, ast.Num, ast.Str, ast.Const)   # arguments a body written out may take in place


class _WriteOut(Transformer):
    """:func:`_written_out`: each call of a cheap function that asks another cheap one,
    its body in place (written out in turn)."""

    def __init__(self, compiler, bound: frozenset):
        self.compiler, self.bound = compiler, bound

    def Call(self, call):
        comp = self.compiler
        if call.func in comp.inlining and comp.inlining.written[call.func]:
            body = _body_in_place(comp, call, self.bound)
            if body is not None:
                return self.transform(body)
        return call
