# SPDX-License-Identifier: MIT
"""The compiler's optimisations by name, each of which can be switched off.

An optimisation may change how fast a game runs, never what it does. Naming each one here,
with where it lives, lets a reader see the code a game compiles to without it
(``rulekit compile GAME --passes=-inline,-tallies``), lets any command run without some
(``RULEKIT_PASSES=-all rulekit autoplay GAME``), and lets a test play every game with each
one off in turn and require the same games, byte for byte (tests/test_passes.py): the
proof that each pass changes speed only.

A setting is a comma-separated list read left to right from "all on": ``-NAME`` switches a
pass off, ``+NAME`` (or ``NAME``) on again, ``-all`` and ``all`` every pass. So
``-all,+inline`` compiles with inlining alone.
"""
from __future__ import annotations

import contextlib
import functools
import os

import attrs

from ..errors import InternalError, RulekitError, UsageError, suggestion_help

ENV = "RULEKIT_PASSES"


@attrs.frozen
class Pass:
    name: str
    what: str       # what it does, in a line
    where: str      # the function that does it


PASSES: tuple[Pass, ...] = (
    Pass("kinds", "read a list or zone directly where its kind is certain from the text, not by asking at run time",
         "kinds.Kinds.of"),
    Pass("reuse", "a value a function asks for twice is worked out once, into a local",
         "compiler.Compiler._reuse_plan, analysis.asked_again"),
    Pass("inline", "a cheap function's body is written in place of its calls",
         "analysis.inlining, calls._user_function_call"),
    Pass("memo", "a function that reads no state is remembered for the whole game",
         "calls._memoised"),
    Pass("by-seat", "a remembered function of a seat or a text is looked up in a table where it is called",
         "calls._looked_up_by_seat"),
    Pass("tallies", "`count`/`any` of items with a property answered from a kept tally, or by list.count",
         "tallies._tally_count, tallies.tallied_any"),
    Pass("unroll", "`any`/`all` over a few members of a set written out member by member",
         "forms.unrollable"),
    Pass("typed", "a value the front end found is a player or an item is read as one, with no test of its class",
         "compiler.Compiler.typed_as"),
    Pass("forms", "built-ins written as the Python they stand for (`count` as len, `range` walked as is)",
         "forms._form, forms.walked_src"),
    Pass("loops", "a function's reduction (`sum`, `max`, a list comprehension...) written as a loop",
         "loops._reducer"),
    Pass("walk", "a loop over a function that picks items walks the picked collection itself",
         "calls.walked_body"),
    Pass("hoist", "parts of an option's condition moved before the loops they do not need",
         "choices.Choices._placed_tests"),
    Pass("listing", "a tally the options' tests, or a function's loops, read by the same key is looked up once",
         "tallies._tally_table, tallies.function_tables"),
    Pass("share-heads", "options walking the same call ask it once",
         "choices.Choices._share_heads"),
    Pass("params-once", "a parameter the options read twice is read into a local once",
         "choices.Choices._params_read_once"),
    Pass("stores", "a literal a variable may hold is stored with no test of it, and a Python variable with no copy",
         "compiler.Compiler._fits, compiler.Compiler.store_lines"),
    Pass("simplify", "a line's tree without what its forms leave: `not not x` tested, a literal's class tested, "
         "`a <= x and x <= b`", "transforms.simplified"),
    Pass("repeats", "a value a line works out twice is worked out once, into a local",
         "transforms.repeats_once"),
    Pass("threading", "a jump to a block that only jumps on goes straight to its end",
         "blocks.threaded"),
    Pass("unreachable", "a block no run can reach is not written",
         "blocks.without_unreachable"),
)
NAMES: tuple[str, ...] = tuple(p.name for p in PASSES)


@attrs.frozen
class Passes:
    """Which passes are off (every other one is on)."""

    off: frozenset = frozenset()

    def on(self, name: str) -> bool:
        return name not in self.off

    def setting(self) -> str:
        """The shortest setting that gives these passes (:func:`parse` reads it back): ``""``
        (all on), ``-inline,-tallies``, or ``-all,+threading`` where most are off."""
        off = [n for n in NAMES if n in self.off]
        on = [n for n in NAMES if n not in self.off]
        if len(on) < len(off):
            return ",".join(["-all"] + [f"+{n}" for n in on])
        return ",".join(f"-{n}" for n in off)

    def describe(self) -> str:
        """"all", "none", "all but inline, tallies", or "only threading" where most are off."""
        if not self.off:
            return "all"
        if len(self.off) == len(NAMES):
            return "none"
        on = [n for n in NAMES if n not in self.off]
        if len(on) < len(self.off):
            return "only " + ", ".join(on)
        return "all but " + ", ".join(n for n in NAMES if n in self.off)


ALL = Passes()
NONE = Passes(frozenset(NAMES))


def parse(text: str, origin: str = "--passes") -> Passes:
    """A setting (the module's docstring) as :class:`Passes`; a name no pass has is a usage error."""
    off = set()
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        sign, name = (item[0], item[1:].strip()) if item[0] in "+-" else ("+", item)
        if name == "all":
            names = set(NAMES)
        elif name in NAMES:
            names = {name}
        else:
            hint = suggestion_help(name, NAMES + ("all",))
            raise UsageError(f"{origin}: no pass `{name}`" + (f" ({hint})" if hint else "")
                             + f"; the passes are: {', '.join(NAMES)}")
        off = off | names if sign == "-" else off - names
    return Passes(frozenset(off))


_chosen: list = []      # a setting made by `using` (the innermost one wins)


def current() -> Passes:
    """The passes a compilation runs now: those ``using`` set, else ``$RULEKIT_PASSES``, else all."""
    if _chosen:
        return _chosen[-1]
    text = os.environ.get(ENV)
    return parse(text, f"${ENV}") if text else ALL


@contextlib.contextmanager
def using(passes: Passes):
    """Compile with ``passes`` inside the block (a command's ``--passes``, a test)."""
    _chosen.append(passes)
    try:
        yield passes
    finally:
        _chosen.pop()


def step(name: str):
    """Mark the function that does pass ``name``: Python failing inside it is a bug of the
    compiler, never the author's mistake, so it is an internal error (exit 101) that names the
    pass and how to compile without it. (A content error it reports, and running out of stack
    or memory on content too deep or too large, pass through as they are.)"""
    assert name in NAMES, name

    def wrap(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except (RulekitError, RecursionError, MemoryError):
                raise
            except Exception as exc:
                raise InternalError(f"the compiler's pass `{name}` failed ({type(exc).__name__}: {exc}); "
                                    f"{ENV}=-{name} compiles without it") from exc
        return run
    return wrap
