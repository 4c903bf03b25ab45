# SPDX-License-Identifier: MIT
"""Go to definition, find references and rename, across the game's files, its variants and
its scripts (from :mod:`.names`)."""
from __future__ import annotations

import re

from .lookup import ATTRIBUTES, CALLED, Target
from .names import RENAMEABLE, Index, Symbol

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# How a use may be written for a symbol of each kind.
_WRITTEN = {kind: ("call", "key") for kind in CALLED}
_WRITTEN.update({kind: ("attr", "key") for kind in ATTRIBUTES})
_WRITTEN["option group"] = ("include", "key")


def definitions(target: Target) -> list:
    """The spans declaring what the target stands for (for a property: each kind's key)."""
    return [s.span for s in target.symbols]


def property_spans(index: Index, target: Target) -> list:
    return [index.smap.span(("components", kind, part, target.word.text), key=True)
            for kind, part, _value in target.properties]


def references(index: Index, symbols, declaration: bool = True) -> list:
    """Every span where one of ``symbols`` is written (its declarations first, when asked)."""
    out = [s.span for s in symbols] if declaration else []
    names = {s.name for s in symbols}
    ways = {w for s in symbols for w in _WRITTEN.get(s.kind, ("name", "key"))}
    out += [u.span for u in index.uses if u.name in names and u.how in ways]
    return out


def rename_target(target: Target | None) -> Symbol | None:
    """The symbol a rename would change, or None (built-ins, locals, items are not renamed here)."""
    if target is None or target.local:
        return None
    found = [s for s in target.symbols if s.kind in RENAMEABLE]
    return found[0] if len(found) == 1 else None


def rename_spans(index: Index, symbol: Symbol, new: str) -> list:
    """The spans to write ``new`` over; a ValueError when ``new`` is no name or is taken."""
    if not _IDENTIFIER.match(new):
        raise ValueError(f"`{new}` is not a name (letters, digits and `_`, not starting with a digit)")
    if any(s.kind == symbol.kind for s in index.named(new)):
        raise ValueError(f"the game already has a {symbol.kind} `{new}`")
    return references(index, [symbol])
