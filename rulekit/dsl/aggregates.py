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


@attrs.frozen
class Aggregate:
    name: str
    stops: bool = False             # stops at its first answer: over several `for`s only where it returns
    default: bool = False           # takes a default (`max(xs, default=0)`, `first(xs, d)`)
    start: str | None = None        # a loop's value before any item (None: the default)
    found: str | None = None        # the value a loop that found no answer gives (None: what it holds)
    generator: str | None = None    # Python over a generator: {items} and {default}
    listed: str | None = None       # Python over a list or zone known to be one: {items} and {default}

    def step(self, acc: str, item, returned: bool) -> list[tuple[int, str]]:
        """The loop's body for one ``item`` (its source; None for a `count` of plain values):
        (extra indent, line) pairs; ``returned``: the loop's function returns the value."""
        name = self.name
        if name == "sum":
            return [(0, f"{acc} = {acc} + {item}")]
        if name == "count":
            return ([(0, item)] if item is not None else []) + [(0, f"{acc} += 1")]     # worked out, as listed
        if name == "list":
            return [(0, f"{acc}.append({item})")]
        if name in ("max", "min"):
            return [(0, f"if {acc} is UNSET or {item} {'>' if name == 'max' else '<'} {acc}:"), (1, f"{acc} = {item}")]
        if name in ("any", "all"):
            answer = "True" if name == "any" else "False"
            return [(0, f"if {'' if name == 'any' else 'not '}{item}:")] + (
                [(1, f"return {answer}")] if returned else [(1, f"{acc} = {answer}"), (1, "break")])
        return [(0, f"return {item}")] if returned else [(0, f"{acc} = {item}"), (0, "break")]    # first


AGGREGATES: dict[str, Aggregate] = {a.name: a for a in (
    Aggregate("sum", start="0", listed="SUM({items})"),
    Aggregate("count", start="0", listed="len({items})"),
    Aggregate("max", default=True, start="UNSET", listed="MAX({items}, default={default})"),
    Aggregate("min", default=True, start="UNSET", listed="MIN({items}, default={default})"),
    Aggregate("any", stops=True, start="False", found="False", generator="ANY({items})"),
    Aggregate("all", stops=True, start="True", found="True", generator="ALL({items})"),
    Aggregate("first", stops=True, default=True, generator="NEXT(({items}), {default})"),
    Aggregate("list", start="[]"),       # a list comprehension written as a loop
)}
