# SPDX-License-Identifier: MIT
"""What each name of a text stands for: one of the text's own (a parameter, a local, a loop's,
an option's or a comprehension's variable) or one of the game's, by the language's scope rules.

The rules, in one place: a text's parameters are its own everywhere in it; in a body of statements,
every name it assigns is a local of the whole body, except the game's variables, which a body sets
and never shadows (dsl/codegen.py writes them so); a loop's, an option's and a ``choose_all``'s
variable is the body's own; a comprehension's variables are its own inside it (its element, its
test, its ``by`` and the collections of the clauses after theirs), and an option's ``for`` variables
inside the option (its label, test, ``by``, ``says`` and body). Anything else is the game's: a
variable, a zone, a set, a function... (the vocabulary says which, or that it is unknown).

Tools that ask what a name means (the language server's references, rename and hover) ask this,
not the text's words: a local called like a zone is not a use of the zone.
"""
from __future__ import annotations

from collections.abc import Iterator

from . import ast
from .visit import assigned_names, fields

OWN = "own"       # a parameter, local or bound variable of the text
GAME = "game"     # a name of the game (or no name at all: the checks say which)
PARAM = "param"   # binders(): a parameter of the text, which its body never assigns
LOCAL = "local"   # binders(): a local of the body (assigned, or a loop's variable)


def names(tree, params=(), game_vars=frozenset(), statements: bool = True) -> Iterator[tuple]:
    """(Name node, OWN or GAME) for every bare name in ``tree``, in the order written. ``params``:
    the text's parameters (``p`` of a scoring category too); ``game_vars``: the game's variables
    (a body's assignment sets them, never a local); ``statements``: a body of statements (its
    assignments bind locals), else an expression."""
    for node, own in _walk(tree, own_names(tree, params, game_vars, statements)):
        if isinstance(node, ast.Name):
            yield node, OWN if node.id in own else GAME


def scopes(tree, params=(), game_vars=frozenset(), statements: bool = True) -> dict:
    """id(node) -> the text's own names seen there, for every node of ``tree`` (the front end's
    checks ask what a name means at a call or an argument, as the writer's scope will say)."""
    return {id(node): own for node, own in _walk(tree, own_names(tree, params, game_vars, statements))}


def binders(tree, params=(), game_vars=frozenset(), statements: bool = True) -> dict:
    """id(Name node) -> (the node, what binds it), for every bare name of the text's own, in the
    order written: PARAM, LOCAL, or ``(clause, k)``, the ``k``-th ``for`` clause of the
    comprehension or option ``clause`` (the nearest, by the rules above). The front end types a
    bound name by what binds it (check.Checker._seen)."""
    locals_ = own_names(tree, (), game_vars, statements)
    env = {name: PARAM for name in params if name not in locals_}
    env.update((name, LOCAL) for name in locals_)
    out: dict = {}
    _bind(tree, env, out)
    return out


def _bind(node, env: dict, out: dict) -> None:
    if isinstance(node, tuple):
        for part in node:
            _bind(part, env, out)
        return
    if not isinstance(node, ast.Node):
        return
    if isinstance(node, ast.Name):
        binder = env.get(node.id)
        if binder is not None:
            out[id(node)] = node, binder
        return
    if isinstance(node, ast.Comp | ast.Option):
        inner = env
        for k, (name, coll) in enumerate(node.fors):
            _bind(coll, inner, out)
            inner = {**inner, name: (node, k)}
        rest = ("elt", "cond", "by") if isinstance(node, ast.Comp) else ("label", "cond", "by", "says", "body")
        for part in rest:
            _bind(getattr(node, part), inner, out)
        return
    for name in fields(node.__class__):
        _bind(getattr(node, name), env, out)


def own_names(tree, params, game_vars, statements: bool) -> frozenset:
    own = set(params)
    if statements:
        own |= assigned_names(tree) - set(game_vars)
    return frozenset(own)


def _walk(node, own: frozenset) -> Iterator[tuple]:
    """(node, the own names seen there) for every node, in the order written."""
    if isinstance(node, tuple):
        for part in node:
            yield from _walk(part, own)
        return
    if not isinstance(node, ast.Node):
        return
    yield node, own
    if isinstance(node, ast.Comp | ast.Option):
        yield from _binding(node, own)
        return
    for name in fields(node.__class__):
        yield from _walk(getattr(node, name), own)


def _binding(node, own: frozenset) -> Iterator[tuple]:
    """A comprehension or an option: each clause's collection sees the variables of the clauses
    before it; the rest sees them all."""
    inner = own
    for name, coll in node.fors:
        yield from _walk(coll, inner)
        inner = inner | {name}
    rest = ("elt", "cond", "by") if isinstance(node, ast.Comp) else ("label", "cond", "by", "says", "body")
    for part in rest:
        yield from _walk(getattr(node, part), inner)
