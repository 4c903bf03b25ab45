# SPDX-License-Identifier: MIT
"""The Python the compiler writes for some built-ins, in place of calling them.

A built-in (engine/library.py) says what it means: its arguments, what it reads, whether it
is pure, which aggregate it is. How generated code may write a common call out by hand is the
compiler's business, so it lives here: each template does exactly what the library's function
does for the common case it tests for, and falls back to the call (``{call}``) otherwise. The
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
    # Python for a one-argument call: {0} reads the argument, {first} is the read that runs first
    # (it may store it in a local), {call} the library's call
    inline: str | None = None
    # Python for what a `for` statement walks, by the number of positional arguments: an iterable of
    # its own; {0}, {1} read the arguments, {first0}, {first1} are the reads that run first
    walks: dict | None = None
    # an effect's statement where every argument the built-in says is a zone certainly is one: {NAME}
    # is an argument (its default when not given), {span} the statement's span
    direct: str | None = None
    # Python for a one-argument call whose argument the front end found is a player (``typed``)
    seated: str | None = None
    binds: dict = attrs.Factory(dict)


TEMPLATES: dict[str, Template] = {
    "range": Template(
        walks={1: "(RANGE({0}) if {first0}.__class__ is INT and {0} <= MAX_RANGE else {call})",
               2: "(RANGE({0}, {1}) if ({first0}.__class__ is INT) & ({first1}.__class__ is INT)"
                  " and {1} - {0} <= MAX_RANGE else {call})"},
        binds={"RANGE": range, "MAX_RANGE": MAX_RANGE}),
    "top": Template(
        inline="(s.zones[{0}][-1] if {first}.__class__ is ZONEKEY and s.zones[{0}] else {call})",
        binds={"ZONEKEY": ZoneKey}),
    "distinct": Template(
        inline="([*FROMKEYS({0})] if {first}.__class__ is LIST else {call})",
        walks={1: "(FROMKEYS({0}) if {first0}.__class__ is LIST else {call})"},
        binds={"FROMKEYS": dict.fromkeys}),
    "text": Template(inline="(SEATS[{0}] if {first}.__class__ is PLAYER and 0 <= {0} < len(SEATS) else {call})",
                     seated="SEATS[{0}]"),
    "others": Template(inline="(OTHERS[s.n][{0}] if {first}.__class__ is PLAYER and {0} < s.n else {call})",
                       binds={"OTHERS": OTHER_SEATS}, seated="OTHERS[s.n][{0}]"),
    "seat": Template(inline="({0} + 1 if {first}.__class__ is PLAYER else {call})", seated="({0} + 1)"),
    "item": Template(inline="({0} if {first} in ITEMS else {call})"),
    "move": Template(direct="MOVE(s, {item}, {to}, {at}, {span})", binds={"MOVE": mutate.move}),
}
NONE = Template()


def template(name: str) -> Template:
    """The template of built-in ``name`` (one with no field set where it has none)."""
    return TEMPLATES.get(name, NONE)
