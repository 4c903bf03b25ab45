# SPDX-License-Identifier: MIT
"""Hover text: a built-in's signature and description; a procedure's, function's or parameter's
declaration, its ``text:`` (the rulebook's words) and provenance; an item's properties; a set's
members. Markdown."""
from __future__ import annotations

import json
import os

from ..dsl.kinds import noun
from ..engine.library import Builtin
from .lookup import Target
from .names import Symbol

_SHOWN = 12      # members or properties listed before "..."


def hover_text(target: Target, holds: str | None = None) -> str | None:
    """``holds``: what the front end found a local name evidently holds here (dsl/check.py's
    words for a kind: "seat", "item", "number"...), if anything."""
    parts = [_symbol(s) for s in target.symbols]
    if target.builtin is not None:
        parts.append(builtin_text(target.builtin))
    if target.properties:
        parts.append(_property(target.word.text, target.properties))
    if target.local and not target.symbols:
        said = f"`{target.word.text}`: a local name of this text (assigned, looped over or a parameter)"
        if noun(holds) is not None:
            said += f"; it holds {noun(holds)}"
        parts.append(said)
    return "\n\n---\n\n".join(p for p in parts if p) or None


def builtin_text(b: Builtin) -> str:
    out = f"```rulekit\n{b.signature}\n```\nbuilt-in {b.kind}"
    if b.doc:
        out += f": {b.doc}"
    if b.example:
        out += f"\n\nexample: `{b.example}`"
    return out


def _symbol(s: Symbol) -> str:
    spec = s.spec if isinstance(s.spec, dict) else {}
    head = f"```rulekit\n{_declaration(s, spec)}\n```\n{s.kind} `{s.name}`"
    lines = [head, *_details(s, spec)]
    if spec.get("text"):
        lines.append(f"> {spec['text'].strip()}")
    marks = [f"{k}: {spec[k]}" for k in ("provenance", "ruling") if k in spec]
    if marks:
        lines.append("; ".join(str(m).strip() for m in marks))
    lines.append(f"defined at {os.path.relpath(s.span.path) if s.span.path else '?'}:{s.span.line}")
    return "\n\n".join(lines)


def _declaration(s: Symbol, spec: dict) -> str:
    if s.kind in ("procedure", "function"):
        return f"{s.name}({', '.join(str(p) for p in spec.get('params') or ())})"
    if s.kind == "parameter":
        value = spec.get("value", spec.get("expr")) if spec else s.spec
        return f"{s.name} = {_short(value)}"
    if s.kind in ("variable", "player variable"):
        return f"{'p.' if s.kind.startswith('player') else ''}{s.name} = {_short(spec.get('initial'))}"
    if s.kind == "player zone":
        return f"p.{s.name}"
    return s.name


def _details(s: Symbol, spec: dict) -> list:
    if s.kind == "set":
        members = s.spec if isinstance(s.spec, list) else [k for k in spec if k not in ("text", "provenance", "ruling")]
        return [f"members: {_listed(members)}"]
    if s.kind == "member":
        return [f"member of the set `{s.spec}`"]
    if s.kind == "item":
        kind, item = s.spec
        shown = {k: v for k, v in item.items() if k not in ("id", "text", "provenance", "ruling")}
        return [f"item of kind `{kind}`", "properties: " + (", ".join(f"`{k}: {_short(v)}`"
                                                                    for k, v in shown.items()) or "none")]
    if s.kind == "kind":
        items = spec.get("items") or ()
        props = {**(spec.get("props") or {}), **(spec.get("state") or {})}
        return [f"{len(items)} items; properties: {_listed(props)}"]
    if s.kind in ("variable", "player variable", "zone", "player zone", "parameter"):
        keys = [f"{k}: {_short(v)}" for k, v in spec.items() if k not in ("text", "provenance", "ruling", "initial",
                                                                            "value", "expr")]
        return [", ".join(keys)] if keys else []
    return []


def _property(name: str, found) -> str:
    rows = [f"- `{kind}.{part}.{name}` (default `{_short(value)}`)" for kind, part, value in found[:_SHOWN]]
    return f"item property `{name}` of:\n" + "\n".join(rows)


def _listed(values) -> str:
    values = list(values)
    shown = ", ".join(f"`{v}`" for v in values[:_SHOWN])
    return shown + (f", ... ({len(values)} in all)" if len(values) > _SHOWN else "") if values else "none"


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."
