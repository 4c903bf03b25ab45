# SPDX-License-Identifier: MIT
"""Generated code checked before it runs: defence in depth.

The code generator (dsl/codegen.py, dsl/compiler.py, dsl/loops.py) writes content text
only as ``repr`` literals, so content can never add code. Should a bug let text through,
this check stops the module before ``exec``: it holds only the node kinds the generator
writes, each function reads only names of the namespace, the module's functions and its own
(parameters, locals), touches only the attributes generated code touches, and no dunder but
``x.__class__`` compared with ``is``/``in``. A refusal is a bug of rulekit (exit 101), not
the author's mistake. The code cache (dsl/code_cache.py) keeps only code checked here, so
a source is checked once, when it is first compiled.
"""
from __future__ import annotations

import ast
import gc
import hashlib
from pathlib import Path


class RefusedCode(RuntimeError):
    """Generated code that breaks the rules above: a bug of rulekit's code generator."""


# every kind of node the generator writes; no import, class, lambda, f-string, try, with, global...
_NODES = frozenset((
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg,
    ast.Return, ast.Assign, ast.AugAssign, ast.If, ast.For, ast.While, ast.Break, ast.Continue,
    ast.Pass, ast.Expr,
    ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.keyword, ast.Constant, ast.Starred,
    ast.BinOp, ast.BoolOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.NamedExpr,
    ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.GeneratorExp, ast.comprehension,
    ast.Load, ast.Store,
    ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.USub, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn,
))
# the parts of each that may hold nodes; not a load's or a store's context (half the nodes: a
# deletion's comes only with `del`, a foreign kind)
_FIELDS = {cls: tuple(field for field in cls._fields if field != "ctx") for cls in _NODES}
# the attributes generated code reads or calls (of the state, a frame, a list, a dict, a text)
_ATTRIBUTES = frozenset((
    "append", "budget", "chosen", "clear", "count", "env", "frames", "g", "get", "iprops", "join",
    "list_later", "loc", "memo", "n", "over", "p", "pc", "pop", "record", "result", "ret", "tallies",
    "zones",
))
_CONSTANTS = (str, int, float, bool, type(None))
_LOOKS = (ast.Is, ast.IsNot, ast.In, ast.NotIn)     # what a value's __class__ may only be compared by
# the rules' own version: a cache written under other rules is never trusted (dsl/code_cache.py)
VERSION = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]


def check(source: str, namespace: dict) -> ast.Module | None:
    """Refuse (:class:`RefusedCode`) generated ``source`` that is not what the generator writes,
    to run with ``namespace`` as its globals; returns its tree (unchanged: Python compiles it
    to the code it compiles from the source, without parsing it again), or None where it does
    not parse (compiling the source reports why: a bug, or content nested too deeply, RK0219)."""
    collecting = gc.isenabled()
    gc.disable()        # a module's tree is tens of thousands of objects, none of them in a cycle
    try:
        tree = ast.parse(source)
        for node in tree.body:
            if node.__class__ is not ast.FunctionDef:
                _refuse(node, "a statement outside a function")
        functions = {node.name for node in tree.body}
        for node in tree.body:
            own, read = _walk(node)
            stray = sorted(name for name in read - own - functions if name not in namespace)
            if stray:       # (a local of another function: one of a procedure's blocks reading another's)
                _refuse(node, f"unknown name `{stray[0]}` in `{node.name}`")
    except SyntaxError:
        return None
    finally:
        if collecting:
            gc.enable()
    return tree


def _walk(tree) -> tuple:
    """(names the module binds, names it reads); refuses a node of a foreign kind, a dunder,
    an attribute generated code never uses, a constant of a foreign kind, a function with
    decorators, defaults or annotations."""
    own: set = set()
    read: set = set()
    stack = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        cls = node.__class__
        fields = _FIELDS.get(cls)
        if fields is None:
            _refuse(node, f"a node of kind `{cls.__name__}`")
        if cls is ast.Name:
            name = node.id
            if name.startswith("__"):
                _refuse(node, f"the name `{name}`")
            (read if node.ctx.__class__ is ast.Load else own).add(name)
            continue
        if cls is ast.Attribute:
            if node.attr not in _ATTRIBUTES:
                _refuse(node, f"the attribute `{node.attr}`")
        elif cls is ast.Compare and _class_test(node):
            push(node.left.value)       # `x` of `x.__class__ is C`: walked, the dunder is not
            extend(node.ops)
            extend(node.comparators)
            continue
        elif cls is ast.Constant:
            if node.value.__class__ not in _CONSTANTS:
                _refuse(node, f"a constant of kind `{node.value.__class__.__name__}`")
            continue
        elif cls is ast.FunctionDef:
            _plain_function(node)
            own.add(node.name)
        elif cls is ast.arg:
            if node.annotation is not None or node.arg.startswith("__"):
                _refuse(node, f"the parameter `{node.arg}`")
            own.add(node.arg)
            continue
        for field in fields:
            value = getattr(node, field)
            if value.__class__ is list:
                extend(value)
            elif isinstance(value, ast.AST):
                push(value)
    return own, read


def _class_test(node) -> bool:
    """``x.__class__ is C`` (``is not``, ``in``, ``not in``): the one dunder generated code
    writes, and only to compare a value's class."""
    left = node.left
    return left.__class__ is ast.Attribute and left.attr == "__class__" and len(node.ops) == 1 \
        and node.ops[0].__class__ in _LOOKS


def _plain_function(node) -> None:
    """A function as the generator writes it: positional parameters only, nothing run when it
    is defined (no decorator, default or annotation)."""
    args = node.args
    if node.decorator_list or node.returns is not None or args.posonlyargs or args.vararg or args.kwonlyargs \
            or args.kwarg or args.defaults or args.kw_defaults or node.name.startswith("__"):
        _refuse(node, f"the function `{node.name}`")


def _refuse(node, what: str) -> None:
    line = getattr(node, "lineno", None)
    where = f" (generated line {line})" if line else ""
    raise RefusedCode(f"generated code refused: {what}{where}; this is a bug in rulekit's code generator")
