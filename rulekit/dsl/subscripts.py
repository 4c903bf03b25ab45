# SPDX-License-Identifier: MIT
"""What an index past the end read in generated code: a table made as the module is made.

Generated code indexes lists and zones in place (``s.zones[Z][i]``, ``xs[i]``), so an index
past the end is Python's IndexError, which names no value. To say ``index 5 is past the end of
`hand` (3 items)``, engine/vm.py needs the indexed value and the index at the failure. This
module tells it how to read them, from what the compiler wrote: for every subscript of a
generated module that only reads values (working it out again changes nothing: no store, no
call but a read, arithmetic or a pure built-in function, decided here against the namespace
the module runs in), the table maps where Python places the subscript (line, end line, start
column, end column, as ``code.co_positions()`` gives them for the failing instruction) to a
code object, compiled here once with the module, that reads ``(held value, index)`` (or
``(zones, zone key, index)`` for a zone's list) in the failing frame's globals and locals.
The VM looks the failing instruction's position up and runs that read; it never parses
generated source. ``runtime.keep_subscripts`` keeps the table as long as the module's line
table.

A module compiled afresh is made into its table from the tree ``dsl/verify.py`` parsed to
check it (:func:`checking`: no second parse); one whose code came from the code cache
(dsl/code_cache.py, which checks nothing again) is parsed here, as it loads (:func:`table`).
Either way the last few sources' tables are kept for the process under their source, which
says what each name it calls is (the compiler binds a name it writes to one value), so a game
loaded again makes none. A module of 2,900 lines takes about 30 ms from the tree, and as much
again for the parse when its code came from the cache file of an earlier process.
"""
from __future__ import annotations

import ast
import threading
from collections import OrderedDict

from ..engine.library import REGISTRY
from ..engine.runtime import keep_subscripts
from .pysource import READ_ONLY_CALLS

_WRITES = (ast.NamedExpr, ast.Lambda, ast.Starred, ast.Del, ast.Await, ast.Yield)
_STATEMENTS = ("body", "orelse", "handlers", "finalbody")   # a compound statement's parts that are statements
_KEPT = 4                           # sources whose table this process holds (about 300 KB for a large game)
_tables: OrderedDict = OrderedDict()    # source -> its table, the last used last
_lock = threading.Lock()


def checking(check, names: dict):
    """``check`` (dsl/verify.py's, which gives the tree of the source it checked), making the
    source's table from that tree while it is at hand (``names``: the namespace the module runs
    in): a module compiled afresh is parsed once."""
    def checked(source: str) -> ast.Module | None:
        tree = check(source)
        if tree is not None:
            _keep(source, _table_of(tree, source, names))
        return tree
    return checked


def keep(filename: str, source: str, names: dict) -> None:
    """Keep the table of the module ``filename`` compiled from ``source`` beside its line table
    (runtime.keep_subscripts), ``names`` the namespace it runs in."""
    keep_subscripts(filename, table(source, names))


def table(source: str, names: dict) -> dict:
    """The table of generated ``source``, run with ``names`` as its globals: position of a
    subscript -> ``(read, zone)``; ``read`` a code object giving ``(held, index)``, or
    ``(zones, zone key, index)`` when ``zone`` (the held value is the zone ``zones[zone key]``)."""
    with _lock:
        kept = _tables.get(source)
        if kept is not None:
            _tables.move_to_end(source)
            return kept
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}                   # (compiling it fails too, and says why)
    return _keep(source, _table_of(tree, source, names))


def _keep(source: str, made: dict) -> dict:
    with _lock:
        _tables[source] = made
        _tables.move_to_end(source)
        while len(_tables) > _KEPT:
            _tables.popitem(last=False)
    return made


def forget() -> None:
    """Forget the tables this process holds (tests)."""
    with _lock:
        _tables.clear()


def _table_of(tree: ast.Module, source: str, names: dict) -> dict:
    pure = {builtin.impl for builtin in REGISTRY.values() if builtin.kind == "function" and builtin.pure}
    out = {}
    for node in _subscripts(tree.body):
        if not _indexes(node.slice) or not _reads_alone(node, names, pure):
            continue
        held = node.value
        zone = held.__class__ is ast.Subscript and held.value.__class__ is ast.Attribute and held.value.attr == "zones"
        parts = [held.value, held.slice, node.slice] if zone else [held, node.slice]
        read = ast.Expression(ast.copy_location(ast.Tuple(parts, ast.Load()), node))
        try:
            code = compile(read, "<index>", "eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        out[(node.lineno, node.end_lineno, node.col_offset, node.end_col_offset)] = (code, zone)
    return out


def _subscripts(body: list):
    """The subscripts of the statements ``body`` (a walk of their trees: generated source is never
    searched as text, tests/test_compiler_state.py)."""
    for st in body:
        yield from (node for node in ast.walk(st) if node.__class__ is ast.Subscript)


def _indexes(index) -> bool:
    """Whether a subscript by ``index`` may be an index of a list or a text (not a slice, not a
    table's key written as a text)."""
    if index.__class__ is ast.Constant:
        return index.value.__class__ is int
    return index.__class__ is not ast.Slice


def _reads_alone(node, names: dict, pure: set) -> bool:
    """Whether generated ``node`` only reads values (working it out again changes nothing): no
    store, no call but a read, arithmetic or a pure built-in function (``names``: the globals)."""
    for n in ast.walk(node):
        if isinstance(n, _WRITES) or "__" in getattr(n, "attr", getattr(n, "id", "")):
            return False
        if n.__class__ is ast.Call:
            called = getattr(n.func, "attr", getattr(n.func, "id", None))
            if called not in READ_ONLY_CALLS and not _pure(names.get(called), pure):
                return False
    return True


def _pure(value, pure: set) -> bool:
    try:
        return value in pure
    except TypeError:               # (a value that cannot be hashed is no function)
        return False
