# SPDX-License-Identifier: MIT
"""What a body's statements may store into and jump out of, checked before any code is written.

A statement stores into a name, a player's variable, an item's state, or an element of a list or
table held by one of those; never a constant, a zone, a set or a printed property. A procedure's
result is kept in a local name only. ``break`` and ``continue`` belong inside a loop. The writer
(dsl/codegen.py, ``Compiler.store_statement``) meets the same things as it writes and reports them
only where they were said here (check_names.unsaid).
"""
from __future__ import annotations

from ..codes import (
    ASSIGNED_CONSTANT,
    BAD_ASSIGNMENT_TARGET,
    BREAK_OUTSIDE_LOOP,
    BY_NOT_TAKEN,
    ELSE_NEVER_RUNS,
    GROUP_INCLUDES_ITSELF,
    IN_ON_FAMILY,
    RESULT_NOT_IN_LOCAL,
    TEXT_TOO_LONG,
    UNCHANGEABLE_ATTRIBUTE,
    UNKNOWN_ATTRIBUTE,
    UNKNOWN_OPTION_GROUP,
    UNUSED_LOCAL,
    WRONG_ARGUMENT_COUNT,
)
from ..engine.library import REGISTRY
from ..engine.limits import MAX_SIZE
from ..errors import Diagnostic, suggestion_help
from . import ast
from .kinds import name_of
from .visit import assigned_names, fields, first_assignments, read_names

DECIDED = frozenset((ASSIGNED_CONSTANT, BAD_ASSIGNMENT_TARGET, BREAK_OUTSIDE_LOOP, BY_NOT_TAKEN, ELSE_NEVER_RUNS,
                     GROUP_INCLUDES_ITSELF, IN_ON_FAMILY, RESULT_NOT_IN_LOCAL, TEXT_TOO_LONG, UNCHANGEABLE_ATTRIBUTE,
                     UNKNOWN_OPTION_GROUP, UNUSED_LOCAL))
_LOOPS = (ast.For, ast.While)


def check_statements(body, checker, seen) -> None:
    """Every store and jump of ``body``; ``seen(node)``: the writer's view of the names at a node
    (check_names.Seen, with what the body's locals hold)."""
    v = checker.v
    for node in ast.walk(body):
        if node.__class__ is ast.Assign:
            if node.value.__class__ is ast.Call and node.value.func in v.procedures:
                if node.target.__class__ is not ast.Name or node.target.id in v.gvars:
                    _say(checker, RESULT_NOT_IN_LOCAL, "a procedure's result can only be stored in a local name",
                         node.span)
                    continue
            _target(node.target, checker, seen, augmented=False)
        elif node.__class__ is ast.AugAssign:
            _target(node.target, checker, seen, augmented=True)
    if not _a_group_of_options(body):       # (an option group's body is written inside its includer's loops)
        _jumps(body, checker, False)


def check_locals(body, checker, params, body_of: tuple) -> None:
    """A local a procedure (``body_of``: its name, and where it is declared) assigns and never
    reads: a warning, with the game's variable it may misspell."""
    v = checker.v
    name, span = body_of
    unused = assigned_names(body) - v.gvars - set(params) - read_names(body)
    firsts = first_assignments(body) if unused else {}
    for local in sorted(unused):
        hint = suggestion_help(local, v.gvars)
        checker.out.append(Diagnostic(
            UNUSED_LOCAL, f"`{local}` is assigned in `{name}` but never used", firsts.get(local) or span,
            help=hint + " (a misspelt global becomes a new local)" if hint else
            "remove it, or declare it under `vars:` if it should outlive the procedure", severity="warning"))


def check_forms(tree, checker, seen) -> None:
    """The forms of any text: ``x in p.land`` on a family of zones (it cannot look inside one);
    ``by`` where it is taken (a generator argument of a built-in that compares by a key, an
    option that lists with a ``for``); ``include`` of a known option group, with its arguments."""
    keyed = {id(node.args[0]): node.func for node in ast.walk(tree) if node.__class__ is ast.Call and node.args
             and node.args[0].__class__ is ast.Comp and node.func in REGISTRY and node.func not in checker.v.functions
             and node.func not in checker.v.procedures and REGISTRY[node.func].kind != "effect"}
    for node in ast.walk(tree):
        if node.__class__ is ast.Compare and node.op in ("in", "not in") and \
                checker.kinds.of(node.right, seen(node.right)) == "family":
            _say(checker, IN_ON_FAMILY, f"`{node.op}` cannot look inside a family of zones; test one of its spaces: "
                 f"`x {node.op} {name_of(node.right)}[key]`", node.span)
        elif node.__class__ is ast.Comp and node.by is not None:
            _keyed(node, keyed.get(id(node)), checker)
        elif node.__class__ is ast.Option and node.by is not None and not node.fors:
            _say(checker, BY_NOT_TAKEN, "`by` groups the options a `for` lists; this option lists none", node.by.span)
        elif node.__class__ is ast.Include:
            _include(node, checker)
        elif node.__class__ in (ast.Choose, ast.ChooseAll):
            _choose(node, checker)
        elif node.__class__ is ast.Str or node.__class__ is ast.Template:
            size = len(node.value) if node.__class__ is ast.Str else \
                sum(len(p) for p in node.parts if isinstance(p, str))
            if size > MAX_SIZE:
                _say(checker, TEXT_TOO_LONG, f"a text of {size:,} characters is too long to write (at most "
                     f"{MAX_SIZE:,})", node.span, "keep long texts out of the rules (a `text:` field documents them)")


def _keyed(comp, func: str | None, checker) -> None:
    if func is None:
        _say(checker, BY_NOT_TAKEN, "`by` belongs to a generator argument of sorted, min, max or distinct",
             comp.by.span)
    elif REGISTRY[func].by is None:
        _say(checker, BY_NOT_TAKEN, f"`{func}` does not compare items by a key", comp.by.span,
             "`by` belongs to sorted, min, max and distinct (and to the options of a `choose`)")


def _choose(node, checker) -> None:
    """The options a ``choose`` lists, its groups' included (as the writer expands them: a group
    that includes itself is said where the circle closes); an ``else:`` where one is always listed."""
    options = _expanded(node.options, checker, ())
    if node.orelse:
        always = next((opt for opt in options if not opt.fors and opt.cond is None), None)
        if always is not None:
            _say(checker, ELSE_NEVER_RUNS, f"this `choose` always has the option {always.label.value!r}"
                 if isinstance(always.label, ast.Str) else "this `choose` always has an option",
                 node.orelse[0].span, "an `else:` runs only when no option is listed: remove it, or "
                 "give that option an `if`")


def _expanded(options, checker, within: tuple) -> list:
    groups = checker.v.option_groups
    out = []
    for opt in options:
        if opt.__class__ is not ast.Include:
            out.append(opt)
            continue
        group = groups.get(opt.name)
        if group is None:
            continue            # (said by _include)
        if opt.name in within:
            _say(checker, GROUP_INCLUDES_ITSELF, f"option group `{opt.name}` includes itself "
                 f"({' -> '.join(within[within.index(opt.name):] + (opt.name,))})", opt.span,
                 "an option group lists options once: include it from a `choose`, not from itself")
            continue
        if len(opt.args) != len(group[0]):
            continue            # (said by _include)
        out.extend(_expanded(group[1], checker, within + (opt.name,)))
    return out


def _include(node, checker) -> None:
    groups = checker.v.option_groups
    if node.name not in groups:
        _say(checker, UNKNOWN_OPTION_GROUP, f"unknown option group `{node.name}`", node.span,
             suggestion_help(node.name, groups))
        return
    params = groups[node.name][0]
    if len(node.args) != len(params):
        _say(checker, WRONG_ARGUMENT_COUNT, f"option group `{node.name}` takes {len(params)} argument"
             f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), got {len(node.args)}", node.span)


def _say(checker, code: str, message: str, span, help: str | None = None) -> None:
    diagnostic = Diagnostic(code, message, span, help=help)
    if diagnostic not in checker.out:       # (a group's circle, said from each choose that includes it)
        checker.out.append(diagnostic)


def _target(target, checker, seen, augmented: bool) -> None:
    """What ``target = ...`` (or ``+=``) stores into must take a value."""
    v = checker.v
    if target.__class__ is ast.Name:
        name = target.id
        if name in v.constants:
            _say(checker, ASSIGNED_CONSTANT, f"`{name}` is a constant and cannot be changed", target.span,
                 "declare it under `vars:` if it changes during the game")
        elif name in v.zones or name in v.families or name in v.sets or name in v.members:
            _say(checker, ASSIGNED_CONSTANT, f"`{name}` names a zone or set and cannot be assigned", target.span)
    elif target.__class__ is ast.Attr:
        name = target.name
        if name in v.pvars or name in v.dynamic_props:
            return
        if name in v.item_props or name in v.member_props or name in v.pzones:
            _say(checker, UNCHANGEABLE_ATTRIBUTE, f"`{name}` cannot be changed", target.span,
                 "only player variables and item state declared under `state:` change")
        elif not augmented:         # (`x.a += 1` reads it first: the read says it is unknown)
            _say(checker, UNKNOWN_ATTRIBUTE, f"unknown attribute `{name}`", target.span,
                 suggestion_help(name, v.pvars | v.dynamic_props))
    elif target.__class__ is ast.Index:
        obj = target.obj
        zone = checker.kinds.of(obj, seen(obj)) in ("zone", "family")
        if zone or obj.__class__ not in (ast.Name, ast.Attr, ast.Index):
            _say(checker, BAD_ASSIGNMENT_TARGET, "only an element of a list or a table held by a variable can be set",
                 target.span, "a zone's items change by moving them: `move(x, to=zone)`" if zone else None)
        else:
            _target(obj, checker, seen, True)      # the holder is stored again, whole (read first: unknown said)
    else:
        _say(checker, BAD_ASSIGNMENT_TARGET, "only names and attributes can be assigned", target.span)


def _jumps(node, checker, in_loop: bool) -> None:
    if isinstance(node, tuple):
        for part in node:
            _jumps(part, checker, in_loop)
        return
    if not isinstance(node, ast.Node):
        return
    if node.__class__ in (ast.Break, ast.Continue):
        if not in_loop:
            what = "break" if node.__class__ is ast.Break else "continue"
            _say(checker, BREAK_OUTSIDE_LOOP, f"`{what}` outside a loop", node.span)
        return
    inner = in_loop or isinstance(node, _LOOPS)
    for name in fields(node.__class__):
        _jumps(getattr(node, name), checker, inner)


def _a_group_of_options(body) -> bool:
    return isinstance(body, tuple) and bool(body) and all(isinstance(st, ast.Option) for st in body)
