# SPDX-License-Identifier: MIT
"""Go to definition, find references and rename, across the game's files, its variants and
its scripts (from :mod:`.names`)."""
from __future__ import annotations

import os
import re

from ..engine.library import REGISTRY
from ..model import BUILTIN_CONSTANTS
from ..source import inside
from .completion import KEYWORDS
from .documents import real
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
    out += [u.span for u in index.uses if u.name in names and u.how in ways and not u.own]
    return out


def rename_target(target: Target | None) -> Symbol | None:
    """The symbol a rename would change, or None (built-ins, locals, items are not renamed here)."""
    if target is None or target.local:
        return None
    found = [s for s in target.symbols if s.kind in RENAMEABLE]
    return found[0] if len(found) == 1 else None


def rename_spans(index: Index, symbol: Symbol, new: str) -> list:
    """The spans to write ``new`` over; a ValueError saying why when ``new`` is no name, a word of
    the language, a built-in or a name already in scope, or when a span lies in a file outside the
    game's folder once links are resolved (as ``source.open_regular`` refuses it)."""
    _check_name(index, new)
    spans = references(index, [symbol])
    for span in spans:
        if not inside(index.folder, span.path):
            raise ValueError(f"renaming `{symbol.name}` would change `{span.path}`, outside the game's folder "
                             f"`{index.folder}` once links are resolved; rename it there")
        scope = index.text_at(real(span.path), span.line)
        if scope is not None and new in scope[1]:
            raise ValueError(f"`{new}` is already a local or parameter of the text at "
                             f"{os.path.basename(span.path)}:{span.line}, which uses `{symbol.name}`")
    return spans


def _check_name(index: Index, new: str) -> None:
    if not _IDENTIFIER.match(new):
        raise ValueError(f"`{new}` is not a name (letters, digits and `_`, not starting with a digit)")
    if new in KEYWORDS or new in BUILTIN_CONSTANTS:
        raise ValueError(f"`{new}` is a word of the effect language (a keyword or a name it gives), not free")
    if new in REGISTRY:
        raise ValueError(f"`{new}` is a built-in {REGISTRY[new].kind} (`{REGISTRY[new].signature}`), not free")
    taken = index.named(new)
    if taken:
        raise ValueError(f"the game already has a {taken[0].kind} `{new}`")
