# SPDX-License-Identifier: MIT
"""What a name under the cursor stands for: the game's symbols of that name that fit where it
is written (a call, an attribute, a bare name), a built-in, or a property of items."""
from __future__ import annotations

import re

import attrs

from ..engine.library import REGISTRY
from .names import Index, Symbol
from .positions import Word, word_at

_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
CALLED = ("procedure", "function")
ATTRIBUTES = ("player variable", "player zone")
BARE = ("parameter", "variable", "zone", "set", "member", "table", "item", "kind", "phase", "option group",
        "procedure", "function", "player variable", "player zone")


@attrs.frozen
class Target:
    """The word, what it was written as, and what it may stand for."""

    word: Word
    how: str                       # call, attr, name, key, include
    symbols: tuple = ()
    builtin: object = None
    properties: tuple = ()         # (kind, "props"|"state", value) of items having it
    local: bool = False            # bound in its own text (a local or a parameter of the procedure)


def target_at(index: Index | None, path: str, text: str, line: int, column: int) -> Target | None:
    """The target at 0-based ``line``/``column`` (code points) of the file ``path`` whose line is ``text``."""
    word = word_at(text, column)
    if word is None:
        return None
    use = index.use_at(path, line + 1, word.column) if index is not None else None
    how = use.how if use is not None else "call" if word.called else "attr" if word.dotted else "name"
    if index is None:
        return Target(word, how, builtin=REGISTRY.get(word.text))
    scope = index.text_at(path, line + 1)       # a name the front end resolved says; else the text's binds
    local = use.own if use is not None and how == "name" else \
        scope is not None and word.text in scope[1] and how == "name"
    resolved_own = use is not None and use.own      # the front end says: the text's own, no symbol
    symbols = () if resolved_own else tuple(_fitting(index, word.text, how))
    builtin = REGISTRY.get(word.text) if how in ("call", "name") and not symbols else None
    props = tuple(properties(index, word.text)) if how == "attr" else ()
    item = _item_id(text, column)          # `card-7` is one id (written quoted in rules), not `card - 7`
    if item is not None and "-" in item.text and index.named(item.text, ("item",)):
        return Target(item, "name", tuple(index.named(item.text, ("item",))))
    return Target(word, how, symbols, builtin, props, local)


def _item_id(text: str, column: int) -> Word | None:
    for match in _ID.finditer(text):
        if match.start() <= column <= match.end():
            return Word(match.group(), match.start() + 1, match.end() + 1, None, False, False)
    return None


def _fitting(index: Index, name: str, how: str) -> list[Symbol]:
    kinds = {"call": CALLED, "attr": ATTRIBUTES, "include": ("option group",)}.get(how, BARE)
    found = index.named(name, kinds)
    return found or (index.named(name) if how == "key" else [])


def properties(index: Index, name: str):
    """(kind, props|state, default) of every kind of item with property ``name``."""
    for kind, spec in (index.data.get("components") or {}).items():
        for part in ("props", "state"):
            values = spec.get(part) if isinstance(spec, dict) else None
            if isinstance(values, dict) and name in values:
                yield kind, part, values[name]
