# SPDX-License-Identifier: MIT
"""Global (`vars:`) and player (`player.vars:`) variables as :class:`Variables`: initial values,
visibility and bounds."""
from __future__ import annotations

from ..dsl.compiler import Vocabulary
from .context import Context, value
from .records import Variables

BUILTIN_VARS = ("round",)


def variables(ctx: Context, vocab: Vocabulary) -> Variables:
    """Global and player variables."""
    gvars, gvis, gbounds = _var_table(ctx.data.get("vars"))
    for name in BUILTIN_VARS:
        gvars.setdefault(name, 0)
        gvis.setdefault(name, "public")
    pvars, pvis, pbounds = _var_table((ctx.data.get("player") or {}).get("vars"))
    vocab.gvars = set(gvars)
    vocab.pvars = set(pvars)
    vocab.bounds = {(name, False): b for name, b in gbounds.items()} | \
        {(name, True): b for name, b in pbounds.items()}
    vocab.numbers = frozenset((name, per_player) for (name, per_player) in vocab.bounds
                              if (pvars if per_player else gvars)[name].__class__ is int)
    return Variables(gvars, gvis, gbounds, pvars, pvis, pbounds)


def _var_table(spec) -> tuple:
    """(initial values, visibility, bounds) of the variables a `vars:` section declares;
    a bare value is the initial value."""
    values, vis, bounds = {}, {}, {}
    for name, var in (spec or {}).items():
        var = var if isinstance(var, dict) else {"initial": var}
        values[name] = value(var.get("initial", 0))
        vis[name] = var.get("visibility", "public")
        if "min" in var or "max" in var:
            bounds[name] = (var.get("min"), var.get("max"))
    return values, vis, bounds
