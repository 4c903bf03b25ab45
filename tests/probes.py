# SPDX-License-Identifier: MIT
"""Probes of what a game's generated code does, for tests that assert behaviour rather than
the spelling of the code: how often a function ran (a profiler hook), how often a state's
mapping was read, and the shape of one generated function (its Python syntax tree, found by
the compiled function's name and by what the names it reads are bound to, never by text)."""
from __future__ import annotations

import ast
import contextlib
import inspect
import sys
import types
from collections import Counter

from rulekit.dsl import passes


class Calls:
    """Counts the Python functions called while the block runs, by code object (a profiler
    hook: ``sys.setprofile``) and who called each: ``calls[fn]``, ``calls.made_by_module(fn, game)``."""

    def __init__(self):
        self.counts: Counter = Counter()
        self.pairs: Counter = Counter()      # (callee code, caller code) -> calls

    def __enter__(self) -> Calls:
        self._saved = sys.getprofile()
        sys.setprofile(self._hook)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(self._saved)

    def _hook(self, frame, event, arg) -> None:
        if event == "call" and not frame.f_code.co_flags & _RESUMABLE:
            self.counts[frame.f_code] += 1
            self.pairs[frame.f_code, frame.f_back.f_code if frame.f_back else None] += 1
        elif event == "c_call":
            self.counts[arg] += 1
            self.pairs[arg, frame.f_code] += 1

    def __getitem__(self, fn) -> int:
        return self.counts[_code(fn)]

    @property
    def total(self) -> int:
        """Calls of Python functions (a C function such as ``dict.get`` is left out)."""
        return sum(n for fn, n in self.counts.items() if isinstance(fn, types.CodeType))

    def made_by_module(self, fn, game) -> int:
        """Calls of ``fn`` made by the game's generated module (any of its functions)."""
        filename = game.program.module.filename
        return sum(n for (callee, caller), n in self.pairs.items()
                   if callee is _code(fn) and caller is not None and caller.co_filename == filename)


# a generator's frame is "called" each time it resumes: not counted
_RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def _code(fn):
    return getattr(fn, "__code__", fn)


@contextlib.contextmanager
def returns(fn):
    """The locals of each run of ``fn`` as it returns (a list of dicts filled as the block runs):
    what a compiled procedure keeps in its own Python frame."""
    seen: list = []
    code, saved = _code(fn), sys.getprofile()

    def hook(frame, event, arg):
        if event == "return" and frame.f_code is code:
            seen.append(dict(frame.f_locals))
    sys.setprofile(hook)
    try:
        yield seen
    finally:
        sys.setprofile(saved)


def list_again(state) -> None:
    """List the options of the decision ``state`` waits at once more, as engine/vm.py lists a
    bot's imagined position's (``Unlisted``): its frame runs its ``choose`` block again."""
    frame = state.frames[-1]
    frame.code.run(state, frame)


class ReadCounts(dict):
    """A dict that counts the reads of each key (``reads``): a state's variables, a frame's env."""

    def __init__(self, *args):
        super().__init__(*args)
        self.reads: Counter = Counter()

    def __getitem__(self, key):
        self.reads[key] += 1
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.reads[key] += 1
        return super().get(key, default)


class ClassChecks(frozenset):
    """A set of classes that counts the membership tests made of it (``asked``)."""

    asked = 0

    def __contains__(self, value) -> bool:
        self.asked += 1
        return frozenset.__contains__(self, value)


@contextlib.contextmanager
def without(*names: str):
    """Compile inside the block with the passes ``names`` off as well as those already off
    (``$RULEKIT_PASSES``): a test may need one off to see something, and still honours the
    setting that runs it with others off."""
    with passes.using(passes.Passes(passes.current().off | set(names))):
        yield


def tree(game) -> ast.Module:
    return ast.parse(game.program.module.source())


def defined(game, fn) -> ast.FunctionDef:
    """The definition of compiled function ``fn`` (a content function, a procedure's ``run`` or
    ``direct``) in the game's generated module."""
    name = fn.__name__
    found = [node for node in ast.walk(tree(game)) if isinstance(node, ast.FunctionDef) and node.name == name]
    assert len(found) == 1, (name, len(found))
    return found[0]


def helpers(game, *names: str) -> list:
    """What generated code calls by ``names`` (its runtime helpers: ``GETITEM``, ``SEQ``...)."""
    return [game.program.module.comp.ns[name] for name in names]


def names_of(game, value) -> set:
    """The names generated code reads ``value`` by (a helper, a table, a sentinel)."""
    return {name for name, bound in game.program.module.comp.ns.items() if bound is value}


def reads(node, names: set) -> int:
    """How many times the code under ``node`` reads one of ``names``."""
    return sum(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def count(node, *kinds) -> int:
    """How many nodes of the syntax ``kinds`` the code under ``node`` holds."""
    return sum(isinstance(n, kinds) for n in ast.walk(node))


COMPREHENSIONS = (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)
