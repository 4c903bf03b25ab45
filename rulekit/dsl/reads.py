# SPDX-License-Identifier: MIT
"""Which parts of the state each user function may read.

Memoised function results used to be forgotten on every change to the state; most
changes touch one zone or one variable, and most functions read a few. So each
function gets a *read set*, found here once from its AST: the zones (by name: a
player's `hand`, a family `track`), global and player variables and item states it
reads, itself or through the functions it calls. A change then forgets only the
results of the functions that read what changed (engine/mutate.py).

Two ways a function could read a zone this analysis cannot name are handled at run
time instead: a zone passed as an argument (such calls are not memoised) and a
zone stored in a variable (the state falls back to forgetting everything, see
``memo.holds_zone``). A function calling a built-in that declares ``reads="state"``
(``zone_of``) may read anything.
"""
from __future__ import annotations

import attrs

from ..engine.library import REGISTRY
from . import ast, resolve

EVERYTHING = None  # the read set of a function that may read any part of the state
PLAYER_COUNT = ("players",)   # read by `players`, `num_players`, a parameter, `others`...: never changes in a game


def function_reads(vocab) -> dict:
    """Function name -> frozenset of resources, or EVERYTHING.

    Resources: ("zone", name), ("g", var), ("pvar", var), ("prop", state), ("loc",) (where
    items are, asked by `x in zone`), :data:`PLAYER_COUNT` (a constant, or a built-in declaring
    ``reads="players"``: a function reading no more than that is remembered per game and player
    count, memo.StaticTable)."""
    direct: dict = {}
    calls: dict = {}
    for name, (params, body) in vocab.functions.items():
        found: set = set()
        called: set = set()
        # a parameter called like a variable or a zone reads neither (resolve.py says which names are its own)
        own = {id(node) for node, meaning in resolve.names(body, params, vocab.gvars, False) if meaning == resolve.OWN}
        direct[name] = found if _walk(body, vocab, found, called, own) else EVERYTHING
        calls[name] = called
    result = {}
    for name in vocab.functions:
        seen: set = set()
        stack = [name]
        reads: set | None = set()
        while stack:
            fn = stack.pop()
            if fn in seen:
                continue
            seen.add(fn)
            own = direct.get(fn, EVERYTHING)
            if own is EVERYTHING:
                reads = EVERYTHING
                break
            reads |= own
            stack.extend(calls.get(fn, ()))
        result[name] = EVERYTHING if reads is EVERYTHING else frozenset(reads)
    return result


def _walk(node, v, found: set, called: set, own: set) -> bool:
    """Add what ``node`` reads to ``found``; False when it may read anything. ``own``: the ids of
    the bare names that are the text's own (a parameter, a comprehension's variable)."""
    if isinstance(node, ast.Name):
        if id(node) in own:
            return True
        if node.id in v.gvars:
            found.add(("g", node.id))
        elif node.id in v.zones or node.id in v.families:
            found.add(("zone", node.id))
        elif node.id in v.constants:
            found.add(PLAYER_COUNT)
        return True
    if isinstance(node, ast.Attr):
        if node.name in v.pvars:
            found.add(("pvar", node.name))
        if node.name in v.pzones:
            found.add(("zone", node.name))
        if node.name in v.dynamic_props:
            found.add(("prop", node.name))
    elif isinstance(node, ast.Call):
        if node.func in v.functions:
            called.add(node.func)
        else:
            builtin = REGISTRY.get(node.func)
            if builtin is None or builtin.kind != "function" or builtin.reads == "state":
                return False
            if builtin.reads == "players":
                found.add(PLAYER_COUNT)
    elif isinstance(node, ast.Compare) and node.op in ("in", "not in"):
        found.add(("loc",))
    if isinstance(node, ast.Node):
        for field in attrs.fields(type(node)):
            if not _walk(getattr(node, field.name), v, found, called, own):
                return False
    elif isinstance(node, tuple):
        for item in node:
            if not _walk(item, v, found, called, own):
                return False
    return True


def memo_table(reads: dict) -> tuple[dict, tuple]:
    """(resource -> functions to forget when it changes, functions to forget on any change)."""
    always = tuple(sorted(name for name, r in reads.items() if r is EVERYTHING))
    table: dict = {}
    for name, r in sorted(reads.items()):
        if r is EVERYTHING:
            continue
        for resource in r - {PLAYER_COUNT}:      # no change of a game names it
            table.setdefault(resource, [])
            table[resource].append(name)
    return {k: tuple(v) + always for k, v in table.items()}, always


def seat_params(vocab, name: str) -> frozenset | None:
    """The parameters through which function ``name`` reads players' variables and zones
    (``p.coins``, ``p.hand``, or passing ``p`` on to a function that reads them); None when
    it may read some player's another way (``q.hand for q in players``, ``players[0].coins``,
    a parameter its comprehension reuses as a name). A function of ``p`` whose set is within
    ``{p}`` reads no other player's: the bots' estimate of one player is then kept apart from
    the others' (agents/estimates.py). Only ``name`` and the functions it calls are looked at."""
    out: dict = {}

    def of(fn: str):
        if fn not in out:
            out[fn] = None          # a function asking about itself: taken as reading another way
            params, body = vocab.functions[fn]
            found: set = set()
            out[fn] = frozenset(found) if _through(body, vocab, frozenset(params), found, of) else None
        return out[fn]
    return of(name) if name in vocab.functions else None


def _through(node, v, params: frozenset, found: set, of) -> bool:
    """Add to ``found`` the parameters through which ``node`` reads a player's variables and
    zones; False when it reads them through anything else."""
    if isinstance(node, ast.Attr) and (node.name in v.pvars or node.name in v.pzones):
        if not (isinstance(node.obj, ast.Name) and node.obj.id in params):
            return False
        found.add(node.obj.id)
    elif isinstance(node, ast.Call) and node.func in v.functions:
        given = of(node.func)
        if given is None or node.kwargs:
            return False
        for param, arg in zip(v.functions[node.func][0], node.args):
            if param in given:
                if not (isinstance(arg, ast.Name) and arg.id in params):
                    return False
                found.add(arg.id)
    elif isinstance(node, ast.Comp) and any(name in params for name, _coll in node.fors):
        return False
    if isinstance(node, ast.Node):
        return all(_through(getattr(node, f.name), v, params, found, of) for f in attrs.fields(type(node)))
    if isinstance(node, tuple):
        return all(_through(item, v, params, found, of) for item in node)
    return True
