# SPDX-License-Identifier: MIT
"""The Python the compiler writes for some built-ins, in place of calling them.

A built-in (engine/library.py) says what it means: its arguments, what it reads, whether it
is pure, which aggregate it is. How generated code may write a common call out by hand is the
compiler's business, so it lives here: each template does exactly what the library's function
does for the common case it tests for, and falls back to the call (a hole) otherwise. The
names a template reads besides the generated code's own are bound in the module's namespace
(``binds``), never spelled out as values.
"""
from __future__ import annotations

import attrs

from ..engine import mutate
from ..engine.library import MAX_RANGE, OTHER_SEATS
from ..engine.state import ZoneKey


@attrs.frozen
class Template:
    # Python for a one-argument call (a form, dsl/ir.py): $0 reads the argument, $1 is the read that
    # runs first (it may store it in a local), $2 the library's call
    inline: str | None = None
    # Python for what a `for` statement walks, by the number N of positional arguments: an iterable
    # of its own; $0 .. $(N-1) read the arguments, $N .. $(2N-1) are the reads that run first, $2N
    # is the library's call
    walks: dict | None = None
    # an effect's statement where every argument the built-in says is a zone certainly is one: its
    # holes are the arguments ``direct_args`` names, in order (a default when not given), then the
    # statement's span
    direct: str | None = None
    direct_args: tuple = ()
    # Python for a one-argument call whose argument the front end found is a player (``typed``)
    seated: str | None = None
    # Python for a one-argument call that is all the library's function does with any argument ($0
    # reads it): the same value, and the same failure on the same content line
    plain: str | None = None
    binds: dict = attrs.Factory(dict)


TEMPLATES: dict[str, Template] = {
    "range": Template(
        walks={1: "RANGE($0) if $1.__class__ is INT and $0 <= MAX_RANGE else $2",
               2: "RANGE($0, $1) if ($2.__class__ is INT) & ($3.__class__ is INT) and $1 - $0 <= MAX_RANGE else $4"},
        binds={"RANGE": range, "MAX_RANGE": MAX_RANGE}),
    "top": Template(
        inline="s.zones[$0][-1] if $1.__class__ is ZONEKEY and s.zones[$0] else $2",
        binds={"ZONEKEY": ZoneKey}),
    "distinct": Template(
        inline="[*FROMKEYS($0)] if $1.__class__ is LIST else $2",
        walks={1: "FROMKEYS($0) if $1.__class__ is LIST else $2"},
        binds={"FROMKEYS": dict.fromkeys}),
    "text": Template(inline="SEATS[$0] if $1.__class__ is PLAYER and 0 <= $0 < len(SEATS) else $2",
                     seated="SEATS[$0]"),
    "others": Template(inline="OTHERS[s.n][$0] if $1.__class__ is PLAYER and $0 < s.n else $2",
                       binds={"OTHERS": OTHER_SEATS}, seated="OTHERS[s.n][$0]"),
    "seat": Template(inline="$0 + 1 if $1.__class__ is PLAYER else $2", seated="$0 + 1"),
    "item": Template(inline="$0 if $1 in ITEMS else $2"),
    "abs": Template(plain="ABS($0)", binds={"ABS": abs}),
    "move": Template(direct="MOVE(s, $0, $1, $2, $3)", direct_args=("item", "to", "at"), binds={"MOVE": mutate.move}),
}
NONE = Template()


def template(name: str) -> Template:
    """The template of built-in ``name`` (one with no field set where it has none)."""
    return TEMPLATES.get(name, NONE)
