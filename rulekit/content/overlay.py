# SPDX-License-Identifier: MIT
"""A variant merged strictly: every name it changes is in the game, every name it adds is new.

A variant names what it changes: a parameter, a procedure, a phase, an invariant... Merged
leniently, a misspelt name adds a new entry beside the one meant (or removes nothing), and the
variant validates while doing nothing. So every name a variant writes outside its ``add:``
section must be in the base (the game and the variants applied before it), and every name under
``add:`` must be new (RK0130-RK0134), all reported together.

Which keys are names is read from the game's schema, so a new section is covered without a list
to keep: a key that a mapping's schema lists under ``properties`` is a fixed field (a
parameter's ``value``, ``flow.rounds``), any other key is a name the author chose (a parameter,
a set's member, a table's row, an item's property); the ids of id-keyed lists are names too.
"""
from __future__ import annotations

import functools
import re

from ..codes import (
    VARIANT_ADDS_EXISTING,
    VARIANT_BAD_POSITION,
    VARIANT_CHANGES_UNKNOWN,
    VARIANT_REMOVE_UNDER_ADD,
    VARIANT_REMOVES_UNKNOWN,
)
from ..errors import Diagnostic, DiagnosticReport, suggestion_help
from ..limits import SCHEMA_REFS as _MAX_REFS
from . import schema
from .loader import ENTRY_FLAGS, LNode, keyed_pair, merge

HEADER = "variant"
ADD = "add"


def apply(base: LNode, overlay: LNode) -> LNode:
    """``base`` with one variant's overlay merged over it (its ``add:`` section last); every
    name it changes must be in ``base`` and every name it adds new, or a DiagnosticReport."""
    changes = LNode({k: v for k, v in overlay.value.items() if k not in (HEADER, ADD)}, overlay.span)
    added = overlay.value.get(ADD)
    problems: list[Diagnostic] = []
    _changes(base, changes, _expanded(_game_schema()), (), problems)
    if added is not None:
        _additions(base, added, (), problems)
    merged = merge(base, changes, problems)
    if added is not None:
        merged = merge(merged, added, problems, adding=True)
    if problems:
        raise DiagnosticReport(problems)
    return merged


# ---------------------------------------------------------------- changes (outside `add:`)

def _changes(base: LNode, over: LNode, schemas: list, path: tuple, problems: list) -> None:
    """Check that every name ``over`` writes is in ``base`` (a mapping, or an id-keyed list);
    an overlay of another shape replaces the base's value whole and names nothing in it."""
    if isinstance(over.value, dict) and isinstance(base.value, dict):
        for key, child in over.value.items():
            fixed, sub = _field(schemas, key)
            if key in base.value:
                if child.value is not None:
                    _changes(base.value[key], child, sub, path + (key,), problems)
            elif child.value is None:
                problems.append(_removes_nothing(f"`{key}: null`", key, child.key_span, list(base.value), path))
            elif not fixed:
                problems.append(_unknown(key, child.key_span, list(base.value), path))
            else:       # a field the base leaves out: whatever it names is new
                _changes(_empty(child), child, sub, path + (key,), problems)
    elif keyed_pair(base, over):
        _changed_entries(base, over, _items(schemas), path, problems)


def _changed_entries(base: LNode, over: LNode, schemas: list, path: tuple, problems: list) -> None:
    """An id-keyed list: each entry names an entry of the base by its id."""
    ids = [entry.value["id"].value for entry in base.value]
    if not over.value and ids:
        problems.append(Diagnostic(
            VARIANT_REMOVES_UNKNOWN, f"an empty list changes nothing{_in(path)}", over.span,
            help="its entries merge by id: name each one to change, with `remove: true` to drop it"))
    for item in over.value:
        ident = item.value["id"]
        _placed_twice(item, problems)
        if ident.value not in ids:
            if _flag(item, "remove"):
                problems.append(_removes_nothing("`remove: true`", ident.value, ident.span, ids, path))
            else:
                problems.append(_unknown(ident.value, ident.span, ids, path))
            continue
        if not (_flag(item, "remove") or _flag(item, "replace")):      # a replacement is whole and new
            _changes(base.value[ids.index(ident.value)], _fields(item), schemas, path + (ident.value,), problems)


# ---------------------------------------------------------------- additions (under `add:`)

def _additions(base: LNode, over: LNode, path: tuple, problems: list) -> None:
    """Check that everything ``over`` (part of ``add:``) writes is new: a name the base has is
    gone through (to add inside it) when both are mappings or id-keyed lists, else it is an error."""
    if isinstance(over.value, dict) and isinstance(base.value, dict):
        for key, child in over.value.items():
            if key not in base.value:
                _additions(_empty(child), child, path + (key,), problems)
            elif _container_pair(base.value[key], child):
                _additions(base.value[key], child, path + (key,), problems)
            else:
                problems.append(_already(key, child.key_span, path))
    elif keyed_pair(base, over):
        _added_entries(base, over, path, problems)


def _added_entries(base: LNode, over: LNode, path: tuple, problems: list) -> None:
    """An id-keyed list under ``add:``: new entries, or new fields of an entry of the base."""
    ids = [entry.value["id"].value for entry in base.value]
    for item in over.value:
        ident = item.value["id"]
        _placed_twice(item, problems)
        flags = [flag for flag in ("remove", "replace") if flag in item.value]
        for flag in flags:
            problems.append(Diagnostic(
                VARIANT_REMOVE_UNDER_ADD, f"`{flag}:` under `add:`", item.value[flag].key_span,
                help=f"`add:` only adds; to {flag} `{ident.value}`, write it outside `add:`"))
        fields = _fields(item)
        if flags and not fields.value:
            continue
        if ident.value not in ids:
            _additions(_empty(fields), fields, path + (ident.value,), problems)
            continue
        placed = next((k for k in ("before", "after") if k in item.value), None)
        if placed is not None:
            problems.append(Diagnostic(
                VARIANT_BAD_POSITION, f"`{placed}:` moves `{ident.value}`, which is already{_in(path)}",
                item.value[placed].key_span, help=f"under `add:`, `{placed}:` places a new entry; "
                                                  f"to move `{ident.value}`, write it outside `add:`"))
        if fields.value:
            _additions(base.value[ids.index(ident.value)], fields, path + (ident.value,), problems)
        elif placed is None:
            problems.append(_already(ident.value, ident.span, path))


# ---------------------------------------------------------------- the schema: which keys are names

@functools.cache
def _game_schema() -> dict:
    return schema.load_schema("game")


def _expanded(node, out: list | None = None, hops: int = 0) -> list:
    """The object schemas ``node`` stands for: its ``$ref`` followed, its alternatives
    (``allOf``/``anyOf``/``oneOf``) taken together."""
    out = [] if out is None else out
    if not isinstance(node, dict) or hops > _MAX_REFS:
        return out
    if isinstance(node.get("$ref"), str):
        _expanded(_resolved(node["$ref"]), out, hops + 1)
    for key in ("allOf", "anyOf", "oneOf"):
        for alternative in node.get(key) or ():
            _expanded(alternative, out, hops + 1)
    out.append(node)
    return out


def _resolved(ref: str):
    """The part of the game schema a ``$ref`` names (``#/$defs/x``, ``game.schema.json#/$defs/x``)."""
    document, _, pointer = ref.partition("#")
    if document and not document.endswith("game.schema.json"):
        return None
    node = _game_schema()
    for part in filter(None, pointer.split("/")):
        node = node.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(node, dict) else None
    return node


def _field(schemas: list, key: str) -> tuple[bool, list]:
    """(whether ``key`` is a fixed field of a mapping of these schemas, the schemas of its value)."""
    fixed = [s["properties"][key] for s in schemas if key in (s.get("properties") or {})]
    if fixed:
        out: list = []
        for child in fixed:
            _expanded(child, out)
        return True, out
    out = []
    for s in schemas:
        for pattern, child in (s.get("patternProperties") or {}).items():
            if re.search(pattern, key):
                _expanded(child, out)
        if isinstance(s.get("additionalProperties"), dict):
            _expanded(s["additionalProperties"], out)
    return False, out


def _items(schemas: list) -> list:
    out: list = []
    for s in schemas:
        if isinstance(s.get("items"), dict):
            _expanded(s["items"], out)
    return out


# ---------------------------------------------------------------- helpers

def _container_pair(base: LNode, over: LNode) -> bool:
    return (isinstance(base.value, dict) and isinstance(over.value, dict)) or keyed_pair(base, over)


def _empty(node: LNode) -> LNode:
    """An empty base of ``node``'s shape: everything ``node`` names is new to it."""
    if isinstance(node.value, dict):
        return LNode({}, node.span)
    return LNode([] if isinstance(node.value, list) else None, node.span)


def _fields(item: LNode) -> LNode:
    """An entry of an id-keyed list without its id and the merge's words."""
    return LNode({k: v for k, v in item.value.items() if k != "id" and k not in ENTRY_FLAGS}, item.span)


def _flag(item: LNode, key: str) -> bool:
    return key in item.value and bool(item.value[key].value)


def _placed_twice(item: LNode, problems: list) -> None:
    if "before" in item.value and "after" in item.value:
        problems.append(Diagnostic(VARIANT_BAD_POSITION, "an entry placed both `before:` and `after:`",
                                   item.value["after"].key_span, help="give one of them"))


def _where(path: tuple) -> str:
    return ".".join(str(p) for p in path)


def _in(path: tuple) -> str:
    """Where in the game: `` in the game's `flow.phases` `` (or `` in the game `` at its top)."""
    return f" in the game's `{_where(path)}`" if path else " in the game"


def _unknown(name, span, known: list, path: tuple) -> Diagnostic:
    """RK0130: a name the variant changes that the game does not have."""
    hint = suggestion_help(str(name), [str(k) for k in known])
    new = f"if `{name}` is meant to be new, write it under `add:`"
    return Diagnostic(VARIANT_CHANGES_UNKNOWN, f"no `{name}`{_in(path)}", span,
                      help=f"{hint} ({new})" if hint else new)


def _removes_nothing(what: str, name, span, known: list, path: tuple) -> Diagnostic:
    """RK0131: a removal of something the game does not have."""
    return Diagnostic(VARIANT_REMOVES_UNKNOWN, f"{what} removes nothing: no `{name}`{_in(path)}", span,
                      help=suggestion_help(str(name), [str(k) for k in known]))


def _already(name, span, path: tuple) -> Diagnostic:
    """RK0132: a name under ``add:`` that the game has."""
    return Diagnostic(VARIANT_ADDS_EXISTING, f"`{name}` is already{_in(path)}", span,
                      help="`add:` only adds; to change it, write it outside `add:`")
