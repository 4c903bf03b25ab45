# SPDX-License-Identifier: MIT
"""The aggregate built-ins (``sum``, ``count``, ``max``, ``min``, ``any``, ``all``, ``first``) and
a list comprehension, as the compiler writes them: one table of what each is.

A built-in says which aggregate it is (``Builtin.form``); everything the compiler needs to
write one without calling the library lives in its row here: whether it stops at its first
answer, whether it takes a default, the Python for it over a generator or a list known to be
one, and the loop that works it out item by item (dsl/loops.py). Each does exactly what the
library's function does, in the same order, comparing with the same operators.
"""
from __future__ import annotations

import attrs

from .ir import BREAK, stmt
from .pysource import literal


@attrs.frozen
class Aggregate:
    name: str
    stops: bool = False             # stops at its first answer: over several `for`s only where it returns
    default: bool = False           # takes a default (`max(xs, default=0)`, `first(xs, d)`)
    start: str | None = None        # a loop's value before any item (None: the default)
    found: str | None = None        # the value a loop that found no answer gives (None: what it holds)
    generator: str | None = None    # Python over a generator (a form, dsl/ir.py): $0 the items, $1 the default
    listed: str | None = None       # Python over a list or zone known to be one: $0 the items, $1 the default

    def step(self, acc, item, returned: bool) -> list[tuple[int, str]]:
        """The loop's body for one ``item`` (its source; None for a `count` of plain values):
        (extra indent, line) pairs; ``returned``: the loop's function returns the value."""
        name = self.name
        if name == "sum":
            return [(0, stmt("$0 = $0 + $1", acc, item))]
        if name == "count":
            return ([(0, stmt("$0", item))] if item is not None else []) + [(0, stmt("$0 += 1", acc))]   # as listed
        if name == "list":
            return [(0, stmt("$0.append($1)", acc, item))]
        if name in ("max", "min"):
            better = "if $0 is UNSET or $1 > $0:" if name == "max" else "if $0 is UNSET or $1 < $0:"
            return [(0, stmt(better, acc, item)), (1, stmt("$0 = $1", acc, item))]
        if name in ("any", "all"):
            answer = literal(name == "any")
            return [(0, stmt("if $0:" if name == "any" else "if not $0:", item))] + (
                [(1, stmt("return $0", answer))] if returned else [(1, stmt("$0 = $1", acc, answer)), (1, BREAK)])
        return [(0, stmt("return $0", item))] if returned else [(0, stmt("$0 = $1", acc, item)), (0, BREAK)]  # first


AGGREGATES: dict[str, Aggregate] = {a.name: a for a in (
    Aggregate("sum", start="0", listed="SUM($0)"),
    Aggregate("count", start="0", listed="len($0)"),
    Aggregate("max", default=True, start="UNSET", listed="MAX($0, default=$1)"),
    Aggregate("min", default=True, start="UNSET", listed="MIN($0, default=$1)"),
    Aggregate("any", stops=True, start="False", found="False", generator="ANY($0)"),
    Aggregate("all", stops=True, start="True", found="True", generator="ALL($0)"),
    Aggregate("first", stops=True, default=True, generator="NEXT($0, $1)"),
    Aggregate("list", start="[]"),       # a list comprehension written as a loop
)}
