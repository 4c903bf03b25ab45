# SPDX-License-Identifier: MIT
"""The outline of one file: its sections, and in them the phases, procedures, functions and
the other named entries, read from the buffer alone (a file of a game that does not load
still has an outline)."""
from __future__ import annotations

from lsprotocol import types

from ..content.loader import LNode, load_yaml
from ..errors import DiagnosticReport
from .names import SECTIONS

S = types.SymbolKind
_KINDS = {"procedures": S.Function, "functions": S.Function, "params": S.Constant, "vars": S.Variable,
          "zones": S.Array, "sets": S.Enum, "components": S.Class, "option_groups": S.Struct, "tables": S.Constant}


def outline(path: str, text: str) -> list:
    """DocumentSymbols of the file (none when it does not read as YAML)."""
    try:
        root = load_yaml(path, text)
    except DiagnosticReport:
        return []
    if not isinstance(root.value, dict):
        return []
    last = text.count("\n")
    return _entries(root, last, _section_children, lambda key: _KINDS.get(key, S.Namespace))


def _entries(node: LNode, last: int, children, kind_of) -> list:
    out = []
    items = [(k, v) for k, v in node.value.items() if v.key_span is not None]
    for i, (key, child) in enumerate(items):
        end = items[i + 1][1].key_span.line - 2 if i + 1 < len(items) else last
        kids = children(key, child, end)
        out.append(_symbol(key, child, max(end, child.key_span.line - 1), kind_of(key), kids))
    return out


def _section_children(key: str, node: LNode, end: int) -> list:
    if key == "flow" and isinstance(node.value, dict):
        return _phases(node.value.get("phases"), end)
    if key == "player" and isinstance(node.value, dict):
        return _entries(node, end, _section_children, lambda inner: _KINDS.get(inner, S.Namespace))
    named = {path[-1] for path, _kind in SECTIONS}
    if key in named and isinstance(node.value, dict):
        kind = _KINDS.get(key, S.Field)
        return _entries(node, end, lambda *_: [], lambda _inner: S.Function if kind == S.Function else S.Field)
    return []


def _phases(node: LNode | None, end: int) -> list:
    out = []
    entries = node.value if node is not None and isinstance(node.value, list) else []
    for i, phase in enumerate(entries):
        ident = phase.value.get("id") if isinstance(phase.value, dict) else None
        if ident is None:
            continue
        stop = entries[i + 1].span.line - 2 if i + 1 < len(entries) else end
        start = types.Position(phase.span.line - 1, 0)
        out.append(types.DocumentSymbol(str(ident.value), S.Event, types.Range(start, types.Position(stop, 0)),
                                        _selection(ident.span, str(ident.value)), detail="phase"))
    return out


def _symbol(name: str, node: LNode, end: int, kind, children) -> types.DocumentSymbol:
    key = node.key_span
    full = types.Range(types.Position(key.line - 1, key.column - 1), types.Position(end, 0))
    return types.DocumentSymbol(name, kind, full, _selection(key, name), children=children or None)


def _selection(span, name: str) -> types.Range:
    start = types.Position(span.line - 1, span.column - 1)
    return types.Range(start, types.Position(span.line - 1, span.column - 1 + len(name)))
