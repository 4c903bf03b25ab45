# SPDX-License-Identifier: MIT
"""Function bodies written as loops: what a careful engineer writes by hand.

A content function is one expression, and most ask a question of a collection:
``max([fleet_count(q, c) for q in others(p)], default=0)``. Written as one Python
expression, every call builds a comprehension (in CPython 3.11 a function object with
closure cells), fills a list and hands it to ``max``; written as a loop, it compares as
it goes and builds nothing: about twice as fast. So where a function's value is such a
reduction (``sum``, ``max``, ``min``, ``any``, ``all``, ``count``, ``first`` of a
comprehension, or a list comprehension itself), at the top of its body, in the operands of
an operator there, or in a branch of a conditional there, the body is written as
statements around loops instead. A procedure's statement does the same with the reductions
among its arguments (``move(first(c for c in p.hand if ...), p.fleet)``) or the value it
stores: the loops go just before it.

Nothing else changes: the same values, compared by the same Python operators in the same
order (``max`` keeps the first of equal values, as the built-in does), the same parts
evaluated in the same order (an operand before a lowered one is stored in a local first),
and the same remembered values (a reduction the function asks for twice keeps its local
slot, ``Compiler._reuse_plan``, and stays an expression).
"""
from __future__ import annotations

from ..engine.library import REGISTRY
from . import ast, forms, ir, passes, pysource, tallies
from .aggregates import AGGREGATES
from .ir import stmt
from .pysource import CONST, NAME, NONE

_CONSTANT = (ast.Num, ast.Str, ast.Const, ast.Neg)


def function_lines(compiler, body, scope) -> list:
    """The lines ``(indent, text)`` of a function whose value is ``body``, ending in ``return``
    (compiled under the body's reuse plan, ``_with_reuse``)."""
    lines: list = []
    try:
        _return(compiler, body, scope, 0, lines)
    finally:
        compiler.at.lowered = {}
    return lines

def statement_lines(compiler, parts: list, scope, indent: int) -> list:
    """Lines ``(indent, text)`` that go before a statement whose ``parts`` (its positional
    arguments, or the value it stores) it works out in the order given: the reductions among
    them as loops, a part before one of them into a local first. ``src`` reads those locals
    until :meth:`statement_done`."""
    last = max((k for k, part in enumerate(parts) if _reducer(compiler, part, scope) is not None), default=None)
    lines: list = []
    if last is None:
        return lines
    for part in parts[:last + 1]:
        form = _reducer(compiler, part, scope)
        if form is not None:
            compiler.at.lowered[id(part)] = _reduce(compiler, part, form, scope, indent, lines, returned=False)
        elif not isinstance(part, (*_CONSTANT, ast.Name)):
            local = compiler._temp("_q")
            lines.append((indent, stmt("$0 = $1", local, compiler.src(part, scope))))
            compiler.at.lowered[id(part)] = local
    return lines

def statement_done(compiler) -> None:
    compiler.at.lowered = {}

def _return(compiler, node, scope, indent: int, lines: list) -> None:
    if isinstance(node, ast.IfExp) and (_loopable(compiler, node.then, scope) or _loopable(compiler, node.orelse, scope)
                                        or _test_loopable(compiler, node.cond, scope)):
        body = _condition(compiler, node.cond, scope, indent, lines)
        with compiler.maybe_runs():
            _return(compiler, node.then, scope, body, lines)     # it returns: falling out means "else"
            _return(compiler, node.orelse, scope, indent, lines)
        return
    if isinstance(node, ast.BoolOp) and node.op == "and" and _test_loopable(compiler, node, scope):
        _return_all(compiler, conjuncts(node), scope, indent, lines)
        return
    form = _reducer(compiler, node, scope, returned=True)
    if form is not None:
        _reduce(compiler, node, form, scope, indent, lines, returned=True)
        return
    if _loop_operands(compiler, node, scope):
        _operands(compiler, node, scope, indent, lines)
    lines.append((indent, stmt("return $0", compiler.src(node, scope))))

def _return_all(compiler, parts: list, scope, indent: int, lines: list) -> None:
    """``return a and b and c``: the first false part is the value, as Python's ``and`` gives."""
    for number, part in enumerate(parts[:-1]):
        with compiler.maybe_runs(number > 0):      # a later part runs only when the earlier ones hold
            value = _tested(compiler, part, scope, indent, lines)
        if pysource.kind(value) not in (NAME, CONST):      # a value in a variable already
            local = compiler._temp("_q")
            lines.append((indent, stmt("$0 = $1", local, value)))
            value = local
        lines.append((indent, stmt("if not $0:", value)))
        lines.append((indent + 1, stmt("return $0", value)))
    with compiler.maybe_runs():
        _return(compiler, parts[-1], scope, indent, lines)

def _condition(compiler, cond, scope, indent: int, lines: list) -> int:
    """Write the test of ``cond`` as ``if`` lines, one for each part of an ``and`` when a reduction
    among them is written as a loop (before its test); returns the indent of what runs when
    ``cond`` holds."""
    if not _test_loopable(compiler, cond, scope):
        lines.append((indent, stmt("if $0:", compiler.src(cond, scope))))
        return indent + 1
    if isinstance(cond, ast.BoolOp) and cond.op == "or":
        lines.append((indent, stmt("if $0:", _either(compiler, disjuncts(cond), scope, indent, lines))))
        return indent + 1
    for number, part in enumerate(conjuncts(cond)):
        with compiler.maybe_runs(number > 0):      # a later part runs only when the earlier ones hold
            test = _tested(compiler, part, scope, indent, lines)
        lines.append((indent, stmt("if $0:", test)))
        indent += 1
    return indent

def _either(compiler, parts: list, scope, indent: int, lines: list) -> str:
    """``a or b or c`` worked out into a local, a later part only while the earlier ones are
    false (as Python's ``or`` does); returns the local."""
    local = compiler._temp("_q")
    for number, part in enumerate(parts):
        with compiler.maybe_runs(number > 0):      # a later part runs only when the earlier ones fail
            value = _tested(compiler, part, scope, indent + number, lines)
            lines.append((indent + number, stmt("$0 = $1", local, value)))
        if number < len(parts) - 1:
            lines.append((indent + number, stmt("if not $0:", local)))
    return local

def _tested(compiler, part, scope, indent: int, lines: list) -> str:
    """The source of one part of a test, its reductions worked out by loops first."""
    form = _reducer(compiler, part, scope)
    if form is not None:
        return _reduce(compiler, part, form, scope, indent, lines, returned=False)
    if _loop_operands(compiler, part, scope):
        _operands(compiler, part, scope, indent, lines)
    return compiler.src(part, scope)

def _test_loopable(compiler, node, scope) -> bool:
    """Whether a part of the ``and`` that ``node`` is (or of ``node`` itself) is, or has among its
    operands, a reduction written as a loop."""
    parts = disjuncts(node) if isinstance(node, ast.BoolOp) and node.op == "or" else conjuncts(node)
    return any(_reducer(compiler, part, scope) is not None or _loop_operands(compiler, part, scope) for part in parts)

def _loopable(compiler, node, scope) -> bool:
    """Whether returning ``node`` would write a loop."""
    if _reducer(compiler, node, scope, returned=True) is not None:
        return True
    if isinstance(node, ast.IfExp):
        return _loopable(compiler, node.then, scope) or _loopable(compiler, node.orelse, scope) or \
            _test_loopable(compiler, node.cond, scope)
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return _test_loopable(compiler, node, scope)
    return _loop_operands(compiler, node, scope)

def _loop_operands(compiler, node, scope) -> bool:
    """Whether ``node`` is an operator with a reduction written as a loop among its operands
    (or theirs)."""
    return isinstance(node, (ast.BinOp, ast.Compare)) and any(
        _reducer(compiler, part, scope) is not None or _loop_operands(compiler, part, scope)
        for part in (node.left, node.right))

def _operands(compiler, node, scope, indent: int, lines: list) -> None:
    """The operands of an operator, worked out in order into locals, those that are
    reductions by loops (``src`` then reads the locals: ``_lowered``)."""
    for part in (node.left, node.right):
        form = _reducer(compiler, part, scope)
        if form is not None:
            compiler.at.lowered[id(part)] = _reduce(compiler, part, form, scope, indent, lines, returned=False)
        elif _loop_operands(compiler, part, scope):
            _operands(compiler, part, scope, indent, lines)
        elif not isinstance(part, (*_CONSTANT, ast.Name)):
            local = compiler._temp("_q")
            lines.append((indent, stmt("$0 = $1", local, compiler.src(part, scope))))
            compiler.at.lowered[id(part)] = local

@passes.step("loops")
def _reducer(compiler, node, scope, returned: bool = False) -> str | None:
    """The form of ``node`` when it is a reduction written as a loop ("list" for a list
    comprehension), else None. One that stops early (``any``, ``all``, ``first``) over
    several ``for``s only where it returns: a ``break`` leaves one loop."""
    if "loops" in compiler.passes.off or (compiler.at.reuse is not None and node in compiler.at.reuse.plan):
        return None                  # asked for twice: its local slot (an expression) serves both
    if isinstance(node, ast.Comp):
        return "list" if node.by is None else None
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Comp)
            and node.args[0].by is None):
        return None
    v = compiler.v
    builtin = REGISTRY.get(node.func)
    if builtin is None or node.func in v.functions or node.func in v.procedures or builtin.form not in AGGREGATES:
        return None
    return _call_form(compiler, node, builtin.form, scope, returned)

def _call_form(compiler, node, form: str, scope, returned: bool) -> str | None:
    """``form`` when the built-in's call is written as a loop (its arguments allow it)."""
    comp = node.args[0]
    defaults = _defaults(node)
    aggregate = AGGREGATES[form]
    if any(key != "default" for key, _v in node.kwargs) or len(defaults) > aggregate.default:
        return None
    if aggregate.stops and len(comp.fors) > 1 and not returned:
        return None
    if form == "first" and defaults and not isinstance(defaults[0], _CONSTANT):
        return None                   # the built-in asks for its default before the items
    if form == "count" and tallies.counted_without_loop(compiler, comp):
        return None                   # a tally or list.count answers it
    if form in ("any", "all") and forms.unrollable(compiler, comp, scope):
        return None                   # written out member by member: no loop at all
    if form == "any" and tallies.any_by_tally(compiler, node, scope):
        return None                   # a tally answers it
    return form

def _reduce(compiler, node, form: str, scope, indent: int, lines: list, returned: bool) -> str | None:
    """Write the loop of a reduction; its value is in the local returned (None when
    ``returned``: the lines return it)."""
    comp = node if form == "list" else node.args[0]
    if form != "list":
        compiler.bind_args(REGISTRY[node.func], node, scope, lambda n, sc: NONE)   # checks only
    aggregate = AGGREGATES[form]
    acc = compiler._temp(f"_{form}")
    before = compiler.names.variables()
    start = ir.code(aggregate.start) if aggregate.start is not None else None
    if start is None:       # `first`: its default (asked for before the items, as the built-in does)
        start = compiler.src(_defaults(node)[0], scope) if _defaults(node) else NONE
    if not (returned and aggregate.stops):
        lines.append((indent, stmt("$0 = $1", acc, start)))
    inner, depth = _fors(compiler, comp, scope, indent, lines)
    with compiler.maybe_runs():
        if comp.cond is not None:
            depth = _condition(compiler, comp.cond, inner, depth, lines)
        elt = None if form == "count" and isinstance(comp.elt, (*_CONSTANT, ast.Name)) \
            else compiler.src(comp.elt, inner)
    if form in ("max", "min") and not isinstance(comp.elt, (*_CONSTANT, ast.Name)):
        item = compiler._temp("_item")     # compared, then kept: worked out once
        lines.append((depth, stmt("$0 = $1", item, elt)))
        elt = item
    lines.extend((depth + extra, line) for extra, line in aggregate.step(acc, elt, returned))
    if form == "list" and len(comp.fors) > 1:
        # one `for` over a value within the limits adds no more than MAX_SIZE items; the list
        # is checked each time the innermost loop ends (compiler.x_Comp: BOUNDED)
        lines.append((indent + len(comp.fors) - 1, stmt("if len($0) > MAX_SIZE: TOO_LONG($0)", acc)))
    if form in ("max", "min"):
        defaults = _defaults(node)
        fallback = compiler.src(defaults[0], scope) if defaults else NONE
        if defaults and not isinstance(defaults[0], _CONSTANT):
            local = compiler._temp("_q")
            lines.append((indent, stmt("$0 = $1", local, fallback)))     # asked for, as the built-in does
            fallback = local
        value = ir.code("$0 if $1 is UNSET else $1", fallback, acc)
        if not returned:
            lines.append((indent, stmt("$0 = $1", acc, value)))
    else:
        value = acc if not aggregate.stops else ir.code(aggregate.found) if aggregate.found else start
    # its loops are written: their variables are dead, and so are those of the comprehensions in them
    inner.let_go(compiler.names, compiler.names.variables() - before)
    if returned:
        lines.append((indent, stmt("return $0", value)))
        return None
    return acc

def _fors(compiler, comp, scope, indent: int, lines: list) -> tuple:
    """The ``for`` lines of a comprehension (as ``Compiler.generator`` binds its variables); returns
    (the scope of its body, the indent of the body)."""
    names: dict = {}
    walkers: list = []
    for number, (name, coll) in enumerate(comp.fors):
        visible = scope.bind_py(names, walkers)
        var = compiler.variable(name)
        with compiler.maybe_runs(number > 0):     # a later `for` runs only for items of the earlier ones
            lines.append((indent, stmt("for $0 in $1:", var, forms.walk_src(compiler, coll, visible))))
        walkers = [w for w in walkers if w != var] + ([var] if compiler.kinds.certain(coll, visible) == "zone" else [])
        tallies.note_member(compiler, var, coll, visible)
        names = dict(names)
        names[name] = var
        indent += 1
    return scope.bind_py(names, walkers), indent

def conjuncts(node) -> list:
    """The parts of ``a and b and c`` in order (``[node]`` for anything else)."""
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]


def disjuncts(node) -> list:
    """The parts of ``a or b or c`` in order (``[node]`` for anything else)."""
    if isinstance(node, ast.BoolOp) and node.op == "or":
        return disjuncts(node.left) + disjuncts(node.right)
    return [node]


def _defaults(node) -> list:
    """The default of a built-in's call (``max(xs, 0)``, ``max(xs, default=0)``), if given."""
    return list(node.args[1:]) + [value for key, value in node.kwargs if key == "default"]
