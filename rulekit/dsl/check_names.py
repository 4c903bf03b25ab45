# SPDX-License-Identifier: MIT
"""What each name, attribute and call of a text must be, checked before any code is written.

A bare name the text does not own (resolve.py) must be one of the game's values; an attribute one
the game's players, items or set members have; a call one of a known function, procedure or
built-in, used where it may be (a procedure as a statement or as the value of ``x = ...``, an
effect as a statement, a pure value never thrown away) and given the arguments its signature
takes, of the kinds it takes. The writer (dsl/compiler.py, dsl/codegen.py) finds the same things
as it writes, and only reports what was said here already (``Compiler.error``): one place decides
what is an author's mistake, whatever passes are on.
"""
from __future__ import annotations

import os

from ..codes import (
    ATTRIBUTE_OF_WRONG_KIND,
    EFFECT_AS_VALUE,
    IMPURE_FUNCTION,
    KEYWORD_TWICE,
    MISSING_ARGUMENT,
    NAMED_NOT_CALLED,
    PROCEDURE_IN_EXPRESSION,
    UNKNOWN_ATTRIBUTE,
    UNKNOWN_FUNCTION,
    UNKNOWN_KEYWORD,
    UNKNOWN_KIND_ITEM_OR_PROPERTY,
    UNKNOWN_NAME,
    VALUE_THROWN_AWAY,
    WRONG_ARGUMENT_COUNT,
    WRONG_ARGUMENT_KIND,
)
from ..engine.library import REGISTRY
from ..errors import Diagnostic, InternalError, suggestion_help
from . import ast
from .kinds import component_kind, is_item, name_of, noun, wrong_argument

# the codes this module decides; the writer reports one of them only where it was said here
DECIDED = frozenset((ATTRIBUTE_OF_WRONG_KIND, EFFECT_AS_VALUE, IMPURE_FUNCTION, KEYWORD_TWICE, MISSING_ARGUMENT,
                     NAMED_NOT_CALLED, PROCEDURE_IN_EXPRESSION, UNKNOWN_ATTRIBUTE, UNKNOWN_FUNCTION, UNKNOWN_KEYWORD,
                     UNKNOWN_KIND_ITEM_OR_PROPERTY, UNKNOWN_NAME, VALUE_THROWN_AWAY, WRONG_ARGUMENT_COUNT,
                     WRONG_ARGUMENT_KIND))


def unsaid(said: list, found: list) -> list:
    """What the writer met (``found``, its ``writer_found``) that the front end did not say
    (``said``), by code and place: nothing, unless rulekit has a bug. With RULEKIT_STRICT_FRONT_END
    set (the test suite sets it) that bug is an internal error; otherwise the author still reads
    the writer's words, which are right, and the build stops on them."""
    places = {(d.code, d.span) for d in said}
    missed = [d for d in found if (d.code, d.span) not in places]
    if missed and os.environ.get("RULEKIT_STRICT_FRONT_END"):
        first = missed[0]
        raise InternalError(f"the code writer met {first.code} ({first.message}) at {first.span} that the front "
                            "end let through (dsl/check_names.py)")
    return missed


class Seen:
    """The names of a text's own seen at one place, in the shape of the writer's scope (what
    ``Kinds.evident`` and ``Kinds.of`` ask: a name of the text's own tells no kind, unless what
    the body's locals hold says: ``kinds``, Kinds.of_locals; ``values``, Kinds.evident_locals)."""

    __slots__ = ("locals", "py", "alias", "kinds", "values", "named")

    def __init__(self, own: frozenset, kinds: dict | None = None, values: dict | None = None,
                 named: dict | None = None):
        self.locals, self.py, self.alias = own, {}, {}
        self.kinds = kinds if kinds is not None else {}
        self.values = values if values is not None else {}      # a local -> its evident kind (Kinds.evident_locals)
        # id(Name) -> the evident kind of a name a comprehension's or an option's `for`, or the
        # text's own seat parameter, binds (None: bound, of no evident kind): check.Checker._seen
        self.named = named if named is not None else {}

    def with_kinds(self, kinds: dict) -> Seen:
        return Seen(self.locals, kinds, self.values, self.named)

    def with_values(self, values: dict) -> Seen:
        return Seen(self.locals, self.kinds, values, self.named)

    def forget(self, key) -> None:
        self.kinds.pop(key, None)
        self.values.pop(key, None)


def check_names(tree, checker, scopes: dict, seen) -> None:
    """Every name, attribute and call of ``tree``; ``scopes``: resolve.scopes of the text;
    ``seen(node)``: the writer's view of the names there (:class:`Seen`)."""
    v = checker.v
    statement_calls = _statement_calls(tree, v)
    stored = {id(node.target) for node in ast.walk(tree) if node.__class__ is ast.Assign}
    for node in ast.walk(tree):
        if node.__class__ is ast.Name:
            own = scopes[id(node)]
            if node.id not in own:
                _game_name(node, own, checker)
        elif node.__class__ is ast.Attr:
            if id(node) not in stored:      # (what a store takes: check_statements.py)
                _attribute(node, checker, seen)
        elif node.__class__ is ast.Call:
            if id(node) in statement_calls:
                _statement_call(node, checker, seen)
            else:
                _value_call(node, checker, seen)


def check_pure(tree, checker, function: str) -> None:
    """A content function's text calls no impure built-in (an effect, ``roll``): it is a value."""
    v = checker.v
    impure = next((n for n in ast.walk(tree) if n.__class__ is ast.Call and n.func not in v.functions
                   and n.func in REGISTRY and not REGISTRY[n.func].pure), None)
    if impure is not None:
        _say(checker, IMPURE_FUNCTION, f"function `{function}` calls `{impure.func}`; functions must be pure",
             impure.span, "draw random numbers in a procedure and pass the result in"
             if REGISTRY[impure.func].pins else "call it in a procedure, an invariant or an expectation")


def _statement_calls(tree, v) -> set:
    """The ids of the calls that are not values of an expression: a call written as a statement,
    and a procedure's call whose result ``x = ...`` keeps."""
    out = set()
    for node in ast.walk(tree):
        if node.__class__ is ast.CallStmt:
            out.add(id(node.call))
        elif node.__class__ is ast.Assign and node.value.__class__ is ast.Call and node.value.func in v.procedures:
            out.add(id(node.value))
    return out


def _say(checker, code: str, message: str, span, help: str | None = None) -> None:
    checker.out.append(Diagnostic(code, message, span, help=help))


# ------------------------------------------------------------------ names and attributes
def _game_name(node, own: frozenset, checker) -> None:
    v, name = checker.v, node.id
    if (name in v.fixed or name in v.gvars or name in v.constants or name in v.zones or name in v.families
            or name in v.sets or name in v.members or name in v.tables):
        return
    if name in v.procedures or name in v.functions or name in REGISTRY:
        _say(checker, NAMED_NOT_CALLED, f"`{name}` is a {_what(v, name)}; call it with `{name}(...)`", node.span)
        return
    known = (own | v.gvars | v.constants | set(v.zones) | set(v.families) | set(v.sets) | set(v.members)
             | set(v.tables))
    _say(checker, UNKNOWN_NAME, f"unknown name `{name}`", node.span, suggestion_help(name, known))


def _what(v, name: str) -> str:
    if name in v.procedures:
        return "procedure"
    if name in v.functions:
        return "function"
    return REGISTRY[name].kind


def _attribute(node, checker, seen) -> None:
    v, name = checker.v, node.name
    known = v.pvars | set(v.pzones) | v.item_props | v.dynamic_props | v.member_props
    if name not in known:
        _say(checker, UNKNOWN_ATTRIBUTE, f"unknown attribute `{name}`", node.span, suggestion_help(name, known))
        return
    kind = checker.kinds.evident(node.obj, seen(node.obj))
    has = _attributes_of(v, kind)
    if has is not None and name not in has:
        said = f"`{node.obj.id}`" if node.obj.__class__ is ast.Name else "it"
        what = noun(kind)
        _say(checker, ATTRIBUTE_OF_WRONG_KIND, f"{said} is {what}, which has no `{name}` ({_whose(v, name)})",
             node.span, suggestion_help(name, has) or f"{what} has {_listed(has)}")


def _attributes_of(v, kind: str | None) -> set | None:
    """The attributes a value of evident ``kind`` has (None: any, as far as the text tells): a
    player its variables and zones, an item its properties, a set's member the set's (an item
    that is also a member has both)."""
    if kind == "seat":
        return v.pvars | set(v.pzones)
    if is_item(kind):
        shared = v.member_props if any(m in v.items for m in v.members) else set()
        own = v.kind_props.get(component_kind(kind))
        return set(own if own is not None else v.item_props | v.dynamic_props) | shared
    if kind == "member":
        return set(v.member_props)
    return None


def _whose(v, name: str) -> str:
    """What ``name`` is of, as a message says it."""
    if name in v.pvars:
        return f"`{name}` is a player variable"
    if name in v.pzones:
        return f"`{name}` is a player's zone"
    if name in v.item_props or name in v.dynamic_props:
        kinds = sorted(k for k, props in v.kind_props.items() if name in props)
        return f"`{name}` is a property of {', '.join(f'`{k}`' for k in kinds[:4])}" if kinds and len(kinds) < len(
            v.kind_props) else f"`{name}` is an item property"
    return f"`{name}` is a property of set members"


def _listed(names: set) -> str:
    shown = sorted(names)
    if not shown:
        return "no attributes"
    return ", ".join(f"`{n}`" for n in shown[:8]) + (", ..." if len(shown) > 8 else "")


# ------------------------------------------------------------------ calls
def _value_call(node, checker, seen) -> None:
    """A call whose value an expression uses."""
    v, name = checker.v, node.func
    if name in v.functions:
        _function_arity(node, checker)
        return
    if name in v.procedures:
        _say(checker, PROCEDURE_IN_EXPRESSION,
             f"procedure `{name}` can only be called as a statement or as `x = {name}(...)`", node.span,
             "procedures may ask players to decide, so they cannot run inside an expression")
        return
    builtin = REGISTRY.get(name)
    if builtin is None:
        candidates = set(v.functions) | set(v.procedures) | set(REGISTRY)
        _say(checker, UNKNOWN_FUNCTION, f"unknown function `{name}`", node.span, suggestion_help(name, candidates))
        return
    if builtin.kind == "effect":
        _say(checker, EFFECT_AS_VALUE, f"effect `{name}` changes the game and cannot be used as a value", node.span,
             f"write it as a statement of its own: `{builtin.signature}`")
        return
    _builtin_arguments(builtin, node, checker, seen)


def _statement_call(node, checker, seen) -> None:
    """A call written as a statement, or a procedure's call whose result is kept."""
    v, name = checker.v, node.func
    if name in v.procedures:
        _procedure_arguments(node, checker, v.procedures[name])
        return
    builtin = REGISTRY.get(name)
    if builtin is not None and builtin.kind == "effect":
        _builtin_arguments(builtin, node, checker, seen)
        return
    if builtin is not None or name in v.functions:
        _value_call(node, checker, seen)
        if builtin is None or builtin.pure:
            _say(checker, VALUE_THROWN_AWAY, f"`{name}(...)` computes a value that is thrown away", node.span,
                 "assign it, `x = ...`, or use it in a condition")
        return
    candidates = set(v.procedures) | {n for n, b in REGISTRY.items() if b.kind == "effect"}
    _say(checker, UNKNOWN_FUNCTION, f"unknown effect or procedure `{name}`", node.span,
         suggestion_help(name, candidates))


def _function_arity(node, checker) -> None:
    name = node.func
    params, _body = checker.v.functions[name]
    if node.kwargs or len(node.args) != len(params):
        _say(checker, WRONG_ARGUMENT_COUNT, f"function `{name}` takes {len(params)} argument"
             f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), got {len(node.args) + len(node.kwargs)}",
             node.span)


def _procedure_arguments(node, checker, params) -> None:
    name = node.func
    if node.kwargs:
        _say(checker, UNKNOWN_KEYWORD, f"procedure `{name}` takes positional arguments only", node.span)
    if len(node.args) != len(params):
        _say(checker, WRONG_ARGUMENT_COUNT, f"procedure `{name}` takes {len(params)} argument"
             f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), got {len(node.args)}", node.span)


def _builtin_arguments(builtin, node, checker, seen) -> None:
    """The call against the built-in's signature: count, keywords, kinds, and the kind, item or
    property a literal argument names (``names=``)."""
    names = list(builtin.params) + [n for n, _ in builtin.optional]
    if builtin.names is not None:
        _named(builtin, node, checker)
    if len(node.args) > len(names):
        _say(checker, WRONG_ARGUMENT_COUNT, f"`{builtin.name}` takes at most {len(names)} argument"
             f"{'s' if len(names) != 1 else ''}, got {len(node.args)}", node.span,
             f"the signature is `{builtin.signature}`")
    given = set(names[:len(node.args)])
    for key, value in node.kwargs:
        if key not in names:
            _say(checker, UNKNOWN_KEYWORD, f"`{builtin.name}` has no argument `{key}`", value.span,
                 suggestion_help(key, names) or f"the signature is `{builtin.signature}`")
        elif key in given:
            _say(checker, KEYWORD_TWICE, f"argument `{key}` of `{builtin.name}` given twice", value.span)
        else:
            given.add(key)
    if builtin.args:
        _argument_kinds(builtin, node, names, checker, seen)
    missing = [p for p in builtin.params if p not in given]
    if missing:
        _say(checker, MISSING_ARGUMENT, f"`{builtin.name}` is missing argument `{missing[0]}`", node.span,
             f"the signature is `{builtin.signature}`")


def _argument_kinds(builtin, node, names: list, checker, seen) -> None:
    """Each argument whose kind its text or a variable's type tells is one the built-in takes."""
    for pname, arg in list(zip(names, node.args)) + [(k, a) for k, a in node.kwargs if k in names]:
        kind = checker.kinds.evident(arg, seen(arg))
        if kind is None:
            kind = checker.typed_kind(arg)
        said = wrong_argument(builtin, pname, kind, name_of(arg))
        if said is not None:
            _say(checker, WRONG_ARGUMENT_KIND, said, arg.span, f"the signature is `{builtin.signature}`")


def _named(builtin, node, checker) -> None:
    """A literal argument that must name a kind, an item or a property names one the game has."""
    v = checker.v
    named = builtin.named or builtin.params[0]
    position = builtin.params.index(named)
    arg = node.args[position] if len(node.args) > position else dict(node.kwargs).get(named)
    if not isinstance(arg, ast.Str):
        return
    known, what = {"kinds": (v.kinds, "component kind"), "items": (v.items, "item"),
                   "props": (v.item_props | v.dynamic_props | v.member_props, "property")}[builtin.names]
    if known and arg.value not in known:
        _say(checker, UNKNOWN_KIND_ITEM_OR_PROPERTY, f"no {what} `{arg.value}`", arg.span,
             suggestion_help(arg.value, known))
