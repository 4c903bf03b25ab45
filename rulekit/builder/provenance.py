# SPDX-License-Identifier: MIT
"""Where the content says each rule comes from (`provenance:` anywhere): ((path, kind, text, span), ...)."""
from __future__ import annotations

from .context import Context


def provenance(ctx: Context) -> list:
    out = []

    def walk(node, path, shown):
        """``shown``: the path as the author knows it (a list entry by its ``id``)."""
        if isinstance(node, dict):
            if "provenance" in node:
                out.append((_path_text(shown), node["provenance"], node.get("text", ""),
                            ctx.smap.span(path + ("provenance",))))
            for k, v in node.items():
                walk(v, path + (k,), shown + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                ident = v.get("id") if isinstance(v, dict) else None
                walk(v, path + (i,), shown + ((ident,) if isinstance(ident, str) else (i,)))
    walk(ctx.data, (), ())
    return out


def _path_text(path) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out
