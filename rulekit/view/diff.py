# SPDX-License-Identifier: MIT
"""What a variant changes, as a readable rules diff.

Both sides are the merged, checked content data, so the diff shows exactly what
the engine will run differently: values, components (items added or removed),
procedures and phases (their text, line by line), the order of phases a variant
moves. Each section lists what is added (``+``, a new entry of an id-keyed list with
the entry it follows), then what is changed (``~``), then what is removed (``-``),
each change with where the variant says it.
"""
from __future__ import annotations

import difflib

from ..engine.mutate import fmt
from ..games import load_game

SECTION_TITLES = {
    "params": "values", "tables": "values", "sets": "values", "vars": "values", "player": "values",
    "components": "components", "zones": "components",
    "procedures": "rules", "functions": "rules", "option_groups": "rules", "setup": "rules", "flow": "rules",
    "scoring": "scoring", "invariants": "checks", "estimate": "bots", "meta": "about",
}


KINDS = ("added", "changed", "removed")     # the order a section lists them in, each kind apart


def _path_text(path) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def _walk(old, new, path, at, out):
    """Every difference of ``new`` from ``old`` as (kind, path, old, new, place in new, note);
    ``path`` names entries of id-keyed lists by id, ``at`` is their place in ``new`` (for the
    source map)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            if key not in new:
                out.append(("removed", path + (key,), old[key], None, None, ""))
            elif key not in old:
                out.append(("added", path + (key,), None, new[key], at + (key,), ""))
            else:
                _walk(old[key], new[key], path + (key,), at + (key,), out)
        return
    if isinstance(old, list) and isinstance(new, list) and _keyed(old) and _keyed(new):
        _walk_keyed(old, new, path, at, out)
        return
    if old != new:
        out.append(("changed", path, old, new, at, ""))


def _walk_keyed(old: list, new: list, path, at, out) -> None:
    """Entries of an id-keyed list: removed, merged (walked into), added (with the entry they
    follow), and the order of the kept ones when a variant moved some."""
    old_ids = {item["id"]: item for item in old}
    new_at = {item["id"]: i for i, item in enumerate(new)}
    for ident, item in old_ids.items():
        if ident not in new_at:
            out.append(("removed", path + (ident,), item, None, None, ""))
        else:
            _walk(item, new[new_at[ident]], path + (ident,), at + (new_at[ident],), out)
    for ident, i in new_at.items():
        if ident not in old_ids:
            note = f"after {new[i - 1]['id']}" if i else "first"
            out.append(("added", path + (ident,), None, new[i], at + (i,), note))
    kept_before = [ident for ident in old_ids if ident in new_at]
    kept_after = [item["id"] for item in new if item["id"] in old_ids]
    if kept_before != kept_after:
        out.append(("changed", path, kept_before, kept_after, at, "order"))


def _keyed(items) -> bool:
    return all(isinstance(i, dict) and "id" in i for i in items)


def diff_game(game_ref: str, variants) -> list[dict]:
    """The changes ``variants`` make to the base game, in content order."""
    base = load_game(game_ref)
    changed = load_game(game_ref, tuple(variants))
    raw: list = []
    _walk(base.data, changed.data, (), (), raw)
    out = []
    for kind, path, old, new, at, note in raw:
        span = changed.source_map.span(at) if at is not None else None
        out.append({"kind": kind, "section": SECTION_TITLES.get(path[0], path[0]), "path": _path_text(path),
                    "old": old, "new": new, "where": str(span) if span else None, **({"note": note} if note else {})})
    items_before, items_after = set(base.components.items), set(changed.components.items)
    for ident in sorted(items_before - items_after):
        out.append({"kind": "removed", "section": "components", "path": f"item {ident}", "old": ident,
                    "new": None, "where": None})
    for ident in sorted(items_after - items_before):
        out.append({"kind": "added", "section": "components", "path": f"item {ident}", "old": None,
                    "new": ident, "where": None})
    return out


def render(changes: list[dict]) -> str:
    if not changes:
        return "no differences"
    lines = []
    for section in dict.fromkeys(c["section"] for c in changes):
        lines.append(f"## {section}")
        for c in sorted((c for c in changes if c["section"] == section), key=lambda c: KINDS.index(c["kind"])):
            where = f"  ({c['where']})" if c["where"] else ""
            path = c["path"] + (f" ({c['note']})" if "note" in c else "")
            old, new = c["old"], c["new"]
            if c["kind"] == "changed" and isinstance(old, str) and isinstance(new, str) and "\n" in old + new:
                lines.append(f"~ {path}{where}")
                for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=1):
                    if not line.startswith(("---", "+++")):
                        lines.append(f"    {line}")
            elif c["kind"] == "changed":
                lines.append(f"~ {path}: {_short(old)} -> {_short(new)}{where}")
            elif c["kind"] == "added":
                lines.append(f"+ {path}: {_short(new)}{where}")
            else:
                lines.append(f"- {path}: {_short(old)}")
        lines.append("")
    return "\n".join(lines).rstrip()


def _short(value) -> str:
    text = fmt(value) if not isinstance(value, (dict, list)) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= 100 else text[:97] + "..."
