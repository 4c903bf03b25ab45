# SPDX-License-Identifier: MIT
"""What the code written so far knows, while the compiler writes one expression or body.

The compiler's choices while writing depend on this state and only this (``Compiler.at``);
everything else it asks was found before writing began (dsl/analysis.py, dsl/kinds.py).
"""
from __future__ import annotations

import attrs


@attrs.define
class Reuse:
    """One body's values asked for more than once (``Compiler._reuse_plan``), and how far the
    writing of the body has got with them: each is worked out where it is first certainly
    reached, ``(_r1 := ...)``, and read as ``_r1`` after that (``Compiler._reused_value``)."""
    plan: dict                          # node -> its local slot
    params: set                         # the body's own Python parameters (_unshadowed)
    reused: set = attrs.Factory(set)    # slots first reached only maybe: they start as UNSET
    known: set = attrs.Factory(set)     # slots certainly worked out by the code written so far
    branches: int = 0                   # > 0: the code being written may not run (maybe_runs)


@attrs.define
class Writing:
    """What the code written so far for one expression or body knows: the compiler's choices
    while writing it depend on these, and only these, so they live together (``Compiler.at``)."""
    reuse: Reuse | None = None      # while a function body or an expression is written
    in_iterable: int = 0            # > 0: inside a comprehension's iterable (no `:=` there)
    listing: dict | None = None     # while options are listed: what a table's key denotes (an any's?) -> its local
    # while a content function is written (tallies.listing): its parameters' Python names, which hold
    # one value all through it (its body is one expression: nothing gives a parameter another value)
    steady: frozenset = frozenset()
    lowered: dict = attrs.Factory(dict)     # id of a node -> the local a loop left its value in (loops.py)


class MaybeRuns:
    """``with compiler.maybe_runs():`` (a plain class: cheaper to enter than a generator's
    context manager, and the writer enters one for most parts it writes)."""

    __slots__ = ("reuse", "when")

    def __init__(self, reuse: Reuse | None, when: bool):
        self.reuse, self.when = reuse, when and reuse is not None

    def __enter__(self):
        if self.when:
            self.reuse.branches += 1

    def __exit__(self, *exc):
        if self.when:
            self.reuse.branches -= 1
