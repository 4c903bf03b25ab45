# SPDX-License-Identifier: MIT
"""Typed item properties: every printed property of a component kind has a type, checked at load.

A kind may declare its properties (``properties: {fields: {type: int, default: 0}}``, the
types of :mod:`typed`). A property it does not declare takes its type from the values the
*game's* own items of that kind give (before any variant): whole numbers or true/false when
most values are, the members of one set or the items of one kind when every word is one (or
is one misspelt), or lists of such; values that agree on no type are not checked. So
``fields: plenty`` among numbers is an error at its ``file:line:col`` (RK0354), in the game
and in every variant, and ``colour: gren`` among colours says "did you mean" (RK0355). A
property the rules read that some items of a kind lack, with no default, is reported once
per kind at the reading (RK0356); a declared ``default:`` is what those items carry.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import attrs

from ..codes import (
    PROPERTY_CONTRADICTS_KIND,
    PROPERTY_MISSING,
    PROPERTY_OF_WRONG_TYPE,
    UNKNOWN_PROPERTY_SYMBOL,
    UNKNOWN_TYPE,
)
from ..errors import Diagnostic
from ..source import Span, source_line
from . import typed
from .loader import SourceMap

CODES = (PROPERTY_OF_WRONG_TYPE,
         UNKNOWN_PROPERTY_SYMBOL)        # (a value of the wrong type, an unknown symbol): see typed.Declared
_NOT_PROPS = ("id", "remove", "replace", *typed.ANNOTATIONS)


@attrs.frozen
class Inferred:
    """What the game's own values of one property say of its type."""

    kind: str       # a type of :mod:`typed`, or "any" when the values agree on none
    agree: int      # how many values have it
    total: int      # how many values there are, none left out
    none: bool      # some value is none (then none stays allowed)


def check(data: dict, base: dict, smap: SourceMap, vocab: typed.Vocab) -> list[Diagnostic]:
    """Diagnostics for the item properties of ``data`` (merged content); ``base`` is the
    game's own ``components`` (before variants), which inferred types come from."""
    components = data.get("components")
    if not isinstance(components, dict):
        return []
    base = base if isinstance(base, dict) else {}
    out: list[Diagnostic] = []
    for kind, spec in components.items():
        if isinstance(spec, dict):
            own = base.get(kind)
            out += _declarations(kind, spec, smap, vocab)
            out += _values_of_kind(kind, spec, own if isinstance(own, dict) else spec, smap, vocab)
            out += _lacking(kind, spec, smap, vocab)
    return out


def _properties(spec: dict) -> dict:
    declared = spec.get("properties")
    return {p: d for p, d in declared.items() if isinstance(d, dict)} if isinstance(declared, dict) else {}


def _mapping(spec: dict, key: str) -> dict:
    value = spec.get(key)
    return value if isinstance(value, dict) else {}


def _defaults(spec: dict) -> dict:
    """What an item of the kind carries unless it says otherwise: declared defaults, then `props:`."""
    out = {p: d["default"] for p, d in _properties(spec).items() if "default" in d}
    out.update(_mapping(spec, "props"))
    return out


def _own(entry: dict) -> dict:
    """The properties one listed item writes itself."""
    return {k: v for k, v in entry.items() if k not in _NOT_PROPS}


def _entries(spec: dict) -> list[tuple[int, dict]]:
    items = spec.get("items")
    return [(i, e) for i, e in enumerate(items) if isinstance(e, dict)] if isinstance(items, list) else []


# --------------------------------------------------------------------------- declarations

def _declarations(kind: str, spec: dict, smap: SourceMap, vocab: typed.Vocab) -> list[Diagnostic]:
    """A declared type names a type (RK0350); a declared default is the only one (RK0357)."""
    out = []
    props, state, generate = (_mapping(spec, k) for k in ("props", "state", "generate"))
    for prop, decl in _properties(spec).items():
        where = ("components", kind, "properties", prop)
        problem = typed._type_problem(decl["type"], vocab) if "type" in decl else None
        if problem:
            out.append(Diagnostic(UNKNOWN_TYPE, problem[0], smap.span(where + ("type",)), help=problem[1]))
        if prop in state:
            out.append(Diagnostic(PROPERTY_CONTRADICTS_KIND,
                                  f"`{kind}` declares `{prop}` under `properties:`, but it is a state "
                                  "property", smap.span(where, key=True),
                                  help="`properties:` declares printed properties; remove it here"))
        elif "default" in decl and prop in props:
            out.append(Diagnostic(PROPERTY_CONTRADICTS_KIND,
                                  f"`{kind}` gives `{prop}` a default twice, under `props:` and under "
                                  "`properties:`", smap.span(where + ("default",), key=True), help="keep one",
                                  related=(("the other", smap.span(("components", kind, "props", prop))),)))
        elif "default" in decl and prop in generate:
            out.append(Diagnostic(PROPERTY_CONTRADICTS_KIND,
                                  f"`{kind}` generates `{prop}`: every item has its own, so a default "
                                  "is never read", smap.span(where + ("default",), key=True), help="remove it"))
    return out


def _declared_type(spec: dict, prop: str, vocab: typed.Vocab) -> str | None:
    """The type the kind declares for ``prop``, if it declares a valid one."""
    kind = _properties(spec).get(prop, {}).get("type")
    return kind if kind is not None and typed._type_problem(kind, vocab) is None else None


# --------------------------------------------------------------------------- values

def _values_of_kind(kind: str, spec: dict, base_spec: dict, smap: SourceMap,
                    vocab: typed.Vocab) -> list[Diagnostic]:
    """Every value the kind writes, checked against its property's type."""
    out: list[Diagnostic] = []
    game_values = None
    types: dict = {}
    for prop, path, value, what in _written(kind, spec):
        if prop not in types:
            declared = _declared_type(spec, prop, vocab)
            if declared is None and game_values is None:
                game_values = _values(base_spec, vocab)
            types[prop] = (declared, None, "") if declared else _inferred(kind, prop, game_values.get(prop, ()), vocab)
        type_, info, note = types[prop]
        if type_ is None or (info is not None and info.none and (value is None or value == "none")):
            continue
        decl = typed.Declared(what, path, path, {}, None, codes=CODES, inferred_note=note)
        out += typed._value_problems(value, type_, decl, path, smap, vocab, info is not None)
    return out


def _inferred(kind: str, prop: str, values, vocab: typed.Vocab) -> tuple[str | None, Inferred | None, str]:
    """(type, what the values say, the note that says it); no type when they agree on none."""
    info = infer_values(values, vocab)
    return (None, None, "") if info.kind == "any" else (info.kind, info, _note(kind, prop, info.kind, info))


def _note(kind: str, prop: str, type_: str, info: Inferred) -> str:
    return (f"the type is inferred from the game's own `{kind}` items ({info.agree} of {info.total} values of "
            f"`{prop}` are {typed._noun(type_)}); declare `properties: {{{prop}: {{type: ...}}}}` under `{kind}` "
            "to say otherwise")


def _written(kind: str, spec: dict) -> Iterator[tuple[str, tuple, object, str]]:
    """(property, path, value, what it is) of every value the kind writes: `props:`,
    declared defaults, and each listed item's own."""
    root = ("components", kind)
    for prop, value in _mapping(spec, "props").items():
        yield prop, root + ("props", prop), value, f"`{kind}` property `{prop}` (under `props:`)"
    for prop, decl in _properties(spec).items():
        if "default" in decl:
            yield prop, root + ("properties", prop, "default"), decl["default"], f"`{kind}` default `{prop}`"
    for i, entry in _entries(spec):
        for prop, value in _own(entry).items():
            yield prop, root + ("items", i, prop), value, f"`{entry.get('id')}` (kind `{kind}`) property `{prop}`"


def _values(spec: dict, vocab: typed.Vocab) -> dict:
    """Property -> the values the kind's items have (a generated property: its set's members or its range)."""
    out: dict = {}
    defaults = _defaults(spec)
    entries = _entries(spec)
    if entries:
        for _, entry in entries:
            for prop, value in {**defaults, **_own(entry)}.items():
                out.setdefault(prop, []).append(value)
        return out
    out = {prop: [value] for prop, value in defaults.items()}
    for prop, axis in _mapping(spec, "generate").items():
        if isinstance(axis, str):
            out[prop] = list(vocab.sets.get(axis, ()))
        elif isinstance(axis, dict) and isinstance(axis.get("range"), list):
            out[prop] = list(axis["range"])
    return out


def infer_values(values, vocab: typed.Vocab) -> Inferred:
    """The type the values of one property evidently share (see the module docstring)."""
    given = [v for v in values if v is not None and v != "none"]
    kind, agree = _common(given, vocab)
    return Inferred(kind, agree, len(given), len(given) < len(values))


def _common(values: list, vocab: typed.Vocab) -> tuple[str, int]:
    """The type most values have and how many have it; ("any", 0) when they agree on none."""
    if not values:
        return "any", 0
    if all(isinstance(v, list) for v in values):
        inner, _ = _common([x for v in values for x in v if x is not None and x != "none"], vocab)
        return ("any", 0) if inner == "any" else (f"list of {inner}", len(values))
    if any(isinstance(v, (list, dict)) for v in values):
        return "any", 0
    for head in ("int", "bool"):
        agree = sum(typed._is(v, head) for v in values)
        if agree * 2 > len(values):
            return head, agree
    if not all(isinstance(v, str) for v in values):
        return "any", 0
    each = {v: typed.infer(v, vocab) for v in set(values)}
    kinds = Counter(each[v] for v in values)
    known = [k for k in kinds if k != "any"]
    if len(known) != 1:
        return "any", 0
    pool = _pool(known[0], vocab)
    strays = {v for v, k in each.items() if k == "any"}
    return (known[0], kinds[known[0]]) if all(_misspelt(w, pool) for w in strays) else ("any", 0)


def _pool(kind: str, vocab: typed.Vocab) -> tuple:
    head, _, rest = kind.partition(" of ")
    if head == "symbol":
        return vocab.sets.get(rest, ())
    return tuple(i for i, k in (vocab.items or {}).items() if k == rest)


def _misspelt(word: str, pool) -> bool:
    """``word`` is a few keystrokes from some member of ``pool`` (so it is a typo, not free text)."""
    return any(_distance(word, m, max(1, min(2, len(m) // 3))) is not None for m in pool)


def _distance(a: str, b: str, limit: int) -> int | None:
    """Edit distance of ``a`` and ``b`` if it is at most ``limit``, else None."""
    if abs(len(a) - len(b)) > limit:
        return None
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
        if min(row) > limit:
            return None
    return row[-1] if row[-1] <= limit else None


# --------------------------------------------------------------------------- properties some items lack

def _lacking(kind: str, spec: dict, smap: SourceMap, vocab: typed.Vocab) -> list[Diagnostic]:
    """A property the rules read (and never ask about with `has`) that some listed items of the
    kind lack, with no default: once per kind, at the first reading."""
    entries = _entries(spec)
    if not entries or not vocab.reads:
        return []
    given = set(_defaults(spec)) | set(_mapping(spec, "state"))
    names = dict.fromkeys([*_properties(spec), *(p for _, e in entries for p in _own(e))])
    out = []
    for prop in names:
        if prop in given or prop in vocab.asked or not vocab.reads.get(prop):
            continue
        lacking = [(i, e) for i, e in entries if prop not in e]
        if lacking:
            out.append(_lacking_diagnostic(kind, prop, lacking, len(entries), smap, vocab))
    return out


def _lacking_diagnostic(kind: str, prop: str, lacking: list, total: int, smap: SourceMap,
                        vocab: typed.Vocab) -> Diagnostic:
    reading = min(vocab.reads[prop], key=lambda s: (s.path, s.line, s.column))
    index, entry = lacking[0]
    item = smap.span(("components", kind, "items", index))
    return Diagnostic(
        PROPERTY_MISSING, f"`{_shown(reading, prop)}`: {len(lacking)} of {total} `{kind}` items have no `{prop}` "
        f"(first: `{entry.get('id')}` at {item})", reading,
        help=f"give them one, or declare a default under `{kind}`: `properties: {{{prop}: {{default: ...}}}}`",
        notes=(f"or ask `has(x, \"{prop}\")` before reading it, where some items lack it on purpose",),
        related=((f"`{entry.get('id')}` has no `{prop}`", item),) if item else ())


def _shown(span: Span, prop: str) -> str:
    """The reading as written (``t.fields``), or ``.prop`` when it spans lines."""
    line = source_line(span.path, span.line) if span.end_line in (None, span.line) else None
    text = line[span.column - 1:span.end_column] if line and span.end_column else ""
    end = text.find("." + prop)
    return text[:end + len(prop) + 1] if end > 0 else f".{prop}"
