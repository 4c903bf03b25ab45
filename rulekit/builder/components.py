# SPDX-License-Identifier: MIT
"""The things of a game (`sets:`, `tables:`, `components:`): symbol sets, then the items made from
them, listed or generated, as :class:`Components`; where each item starts is checked once the zones
are known (:func:`check_starts`)."""
from __future__ import annotations

import re
from typing import Any

from ..codes import BAD_ID_TEMPLATE, DUPLICATE_ITEM_ID, MEMBER_OF_TWO_SETS, UNKNOWN_SET, UNKNOWN_START_ZONE
from ..dsl.compiler import Vocabulary
from ..errors import suggestion_help
from ..limits import MAX_ITEMS
from .context import Budget, Context, value
from .records import Components


def components(ctx: Context, vocab: Vocabulary) -> Components:
    """Sets, then the items made from them (:func:`_sets`, :func:`_items`)."""
    sets, members = _sets(ctx, vocab)
    return _items(ctx, vocab, sets, members)


def check_starts(ctx: Context, item_start: dict, item_kind: dict, zones: dict) -> None:
    """An unknown start zone is reported and the item starts in the box (so building goes on)."""
    for ident, start in item_start.items():
        if start not in zones:
            ctx.error(UNKNOWN_START_ZONE, f"unknown start zone `{start}` for `{item_kind[ident]}`",
                      ("components", item_kind[ident], "start"),
                      help=suggestion_help(start, zones))
            item_start[ident] = "box"


def _sets(ctx: Context, vocab: Vocabulary):
    """Returns (set -> member names, member -> static props); also the tables."""
    sets: dict[str, tuple] = {}
    members: dict[str, dict] = {}
    for set_name, spec in (ctx.data.get("sets") or {}).items():
        if isinstance(spec, list):
            entries = {str(m): {} for m in spec}
        else:
            entries = {str(m): value(dict(props or {})) for m, props in spec.items()}
        sets[set_name] = tuple(entries)
        for member, props in entries.items():
            if member in members:
                ctx.error(MEMBER_OF_TWO_SETS, f"`{member}` is a member of two sets", ("sets", set_name), key=True)
            members[member] = {k: v for k, v in props.items() if k not in ("text", "provenance")}
            vocab.member_props.update(members[member])
    vocab.sets = sets
    vocab.members = members
    vocab.tables = dict(ctx.data.get("tables") or {})
    return sets, members


def _items(ctx: Context, vocab: Vocabulary, sets: dict, members: dict) -> Components:
    """Components -> items; start zones are checked once the zones are known
    (:func:`check_starts`)."""
    items: dict[str, dict] = {}
    kinds: dict[str, tuple] = {}
    item_kind: dict[str, str] = {}
    item_start: dict[str, str] = {}
    prop_defaults: dict[str, Any] = {}
    kind_state: dict[str, dict] = {}
    budget = Budget(MAX_ITEMS, "items")
    for kind, spec in (ctx.data.get("components") or {}).items():
        ids = []
        for ident, props in _instances(ctx, budget, kind, spec, sets):
            if ident in items:
                ctx.error(DUPLICATE_ITEM_ID, f"two items share the id `{ident}`", ("components", kind), key=True)
                continue
            items[ident] = props = value(props)
            item_kind[ident] = kind
            item_start[ident] = spec.get("start", "box")
            ids.append(ident)
            vocab.item_props.update(props)
        kinds[kind] = tuple(ids)
        declared = {prop: value(default) for prop, default in (spec.get("state") or {}).items()}
        kind_state[kind] = declared
        prop_defaults.update(declared)
        vocab.dynamic_props.update(declared)
    vocab.items = items
    vocab.kinds = set(kinds)
    vocab.item_kind = item_kind
    vocab.kind_props = {kind: frozenset(p for ident in ids for p in items[ident]) | frozenset(kind_state[kind])
                        for kind, ids in kinds.items()}
    vocab.prop_defaults = prop_defaults
    return Components(
        sets=sets, members=members, items=items, kinds=kinds, item_kind=item_kind, item_start=item_start,
        prop_defaults=prop_defaults, kind_state={kind: frozenset(props) for kind, props in kind_state.items()},
        state_seed=_state_seed(kind_state, kinds, prop_defaults), prop_values=_prop_values(items))


def _instances(ctx: Context, budget: Budget, kind: str, spec: dict, sets: dict):
    """(id, props) of each item of a component: listed, or generated from sets. A
    generator: its diagnostics interleave with those of the caller, item by item."""
    base = {k: d["default"] for k, d in (spec.get("properties") or {}).items() if "default" in d}
    base.update(spec.get("props") or {})      # declared defaults, then `props:` (content/properties.py)
    if "items" in spec:
        yield from _listed_instances(ctx, budget, kind, spec, base)
    else:
        yield from _generated_instances(ctx, budget, kind, spec, sets, base)


def _listed_instances(ctx: Context, budget: Budget, kind: str, spec: dict, base: dict):
    if not budget.spend(ctx, len(spec["items"]), ("components", kind, "items"),
                        f"`{kind}` lists {len(spec['items'])} items"):
        return
    for _i, entry in enumerate(spec["items"]):
        props = dict(base)
        props.update({k: v for k, v in entry.items() if k not in ("id", "text", "provenance")})
        yield entry["id"], props


def _generated_instances(ctx: Context, budget: Budget, kind: str, spec: dict, sets: dict, base: dict):
    generate = spec.get("generate") or {}
    axes = []
    count = copies = spec.get("copies", 1)
    for prop, values in generate.items():
        axis, size = _generated_axis(ctx, kind, prop, values, sets)
        if axis is None:
            return
        axes.append(axis)
        count *= size
    if not budget.spend(ctx, count, ("components", kind, "copies" if "copies" in spec else "generate"),
                        f"`{kind}` makes {count} items"):
        return
    template = spec.get("id") or (kind + "".join(f"-{{{p}}}" for p in generate) + ("-{n}" if copies > 1 else ""))
    if re.search(r"\{[^{}]*:[^{}]*\d{4,}", template):     # `{n:>999999999}` would build huge ids
        ctx.error(BAD_ID_TEMPLATE, f"bad id template `{template}`: a width or precision too large",
                  ("components", kind, "id"))
        return
    combos = _product(axes)
    for combo in combos:
        for n in range(1, copies + 1):
            props = dict(base)
            props.update(combo)
            try:
                ident = template.format_map({"n": n, "kind": kind, **combo})    # a property named `n` wins
            except (KeyError, IndexError, ValueError) as exc:
                ctx.error(BAD_ID_TEMPLATE, f"bad id template `{template}`: {exc}", ("components", kind, "id"))
                return
            yield ident, props


def _generated_axis(ctx: Context, kind: str, prop: str, values, sets: dict):
    """``(axis, size)`` of one `generate:` property: ``(prop, value)`` pairs, one per member of
    a set or per number of ``{range: [low, high]}`` (numbered cards); ``(None, 0)`` after an
    error. A range is listed only up to the item budget (its size tells the budget check)."""
    if isinstance(values, dict):
        low, high = values["range"]
        size = max(0, high - low + 1)
        return [(prop, n) for n in range(low, low + min(size, MAX_ITEMS + 1))], size
    if values not in sets:
        ctx.error(UNKNOWN_SET, f"unknown set `{values}`", ("components", kind, "generate", prop),
                  help=suggestion_help(values, sets))
        return None, 0
    return [(prop, m) for m in sets[values]], len(sets[values])


def _product(axes):
    out = [{}]
    for axis in axes:
        out = [dict(prev, **{prop: m}) for prev in out for prop, m in axis]
    return out


def _state_seed(kind_state: dict, kinds: dict, prop_defaults: dict) -> dict:
    """The state values a new game starts with: an item whose kind gives a state property
    another default than the game-wide one (the last kind declaring it) holds its kind's
    default from the start, so reading any state property stays one lookup."""
    seed: dict = {}
    for kind, declared in kind_state.items():
        for prop, default in declared.items():
            common = prop_defaults[prop]
            if default.__class__ is not common.__class__ or default != common:
                seed.setdefault(prop, {}).update((ident, default) for ident in kinds[kind])
    return seed


def _prop_values(items: dict) -> dict:
    """Item property -> every value the items have, ``None`` for an item without it (a tally
    starts with each at 0: engine/tally.py). A property with a value that cannot be a key
    (a list) is left out."""
    names = dict.fromkeys(prop for props in items.values() for prop in props)
    out = {}
    for prop in names:
        try:
            out[prop] = tuple(dict.fromkeys(props.get(prop) for props in items.values()))
        except TypeError:
            continue
    return out
