# SPDX-License-Identifier: MIT
"""The names one procedure, function or expression can read, and where each lives.

A content name may be a local of the procedure's frame (``e[...]``), a Python variable of the
generated code (a comprehension's, a function's parameter, an option's value while options are
listed), or a local of an included option group under a name of its own; what the compiler
writes for a name, and what it knows of the value, depend on which.
"""
from __future__ import annotations

from .visit import free_names


class Scope:
    """Local names of one procedure. ``alias`` renames the locals of an included
    option group (``group.name``) so they can never clash with the includer's."""

    values: dict = {}    # what a local evidently holds: the front end's (check_names.Seen); the writer asks none
    named: dict = {}     # id(Name) -> what a name bound by a `for` evidently holds (check_names.Seen)

    def __init__(self, locals_: set, loops: list | None = None, alias: dict | None = None,
                 py: dict | None = None, items: frozenset = frozenset(), kinds: dict | None = None):
        self.locals = set(locals_)
        self.loops = loops if loops is not None else []
        self.alias = alias or {}
        self.py = py or {}   # names held in Python variables (comprehension and function parameters)
        self.items = items   # Python variables certainly holding an item (they walk a zone)
        # what a procedure's local certainly holds ("list", "zone", "item": kinds.Kinds.of_locals),
        # by ("local", name) or ("py", Python variable)
        self.kinds = kinds if kinds is not None else {}

    def key(self, name: str) -> str:
        return self.alias.get(name, name)

    def where(self, name: str) -> tuple:
        """Where ``name`` lives, in the order a name is looked up: ``("py", variable)``, a Python
        variable's source; ``("env", key)``, a slot of the frame; else ``("game", name)``, one of
        the game's names (or none)."""
        if name in self.py:
            return "py", self.py[name]
        if name in self.alias or name in self.locals:
            return "env", self.alias.get(name, name)
        return "game", name

    def whereabouts(self, node) -> tuple:
        """Where each name ``node`` reads lives: the same expression at two places is the same
        value when this is the same."""
        return tuple((name, *self.where(name)) for name in sorted(free_names(node)))

    def bind(self, private: dict) -> Scope:
        """A scope where each name in ``private`` reads the env key it maps to."""
        alias = dict(self.alias)
        alias.update(private)
        return Scope(self.locals | set(private.values()), self.loops, alias, self.py,
                     self.items - set(private.values()), self.kinds)

    def bind_py(self, names: dict, items=()) -> Scope:
        """A scope where each name in ``names`` reads the Python variable it maps to (``items``:
        those of them that walk a zone)."""
        py = dict(self.py)
        py.update(names)
        return Scope(self.locals, self.loops, self.alias, py,
                     (self.items - set(names.values())) | frozenset(items), self.kinds)

    def with_kinds(self, kinds: dict) -> Scope:
        """The same names, knowing ``kinds`` of them (``Scope.kinds``)."""
        return Scope(self.locals, self.loops, self.alias, self.py, self.items, kinds)

    def let_go(self, names, dead) -> None:
        """The Python variables ``dead`` (a comprehension's or a loop's, written) are dead from
        here on: what this scope knows of them goes (its ``kinds``, shared with the scopes it was
        made from and those made from it), and ``names`` (``ModuleNames``) may give one of their
        names to a later variable of the function, which inherits nothing of theirs."""
        dead = list(dead)
        for var in dead:
            self.kinds.pop(("py", str(var)), None)
        names.forget(dead)

    def forget(self, key) -> None:
        """What a local holds is no longer known (``Kinds.of_locals`` as it settles)."""
        del self.kinds[key]
