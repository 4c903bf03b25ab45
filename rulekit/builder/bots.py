# SPDX-License-Identifier: MIT
"""Bots written as content (`bots:`) and how the search bots search (`search:`), as :class:`Bots`."""
from __future__ import annotations

import fnmatch
import re

from ..codes import UNKNOWN_ROLLOUT_BOT
from ..dsl.compiler import Compiler
from ..dsl.texts import scope
from ..errors import suggestion_help
from .context import Context
from .records import Bots


def bots(ctx: Context, compiler: Compiler) -> Bots:
    """Bots written as content and the `search:` settings; the rollout bot the settings
    name must be one of the bots."""
    rules = _compile_bots(ctx, compiler)
    search = ctx.data.get("search") or {}
    rollout_bot = search.get("rollout_bot")
    if rollout_bot is not None and rollout_bot not in rules:
        ctx.error(UNKNOWN_ROLLOUT_BOT, f"`search.rollout_bot` names no bot of this game: `{rollout_bot}`",
                  ("search", "rollout_bot"), help=suggestion_help(rollout_bot, rules)
                  or "declare it under `bots:`, or leave `rollout_bot` out for random rollouts")
    return Bots(rules, {k: v for k, v in search.items() if k not in ("text", "provenance", "ruling")})


def _compile_bots(ctx: Context, compiler: Compiler) -> dict:
    """Bots of the content as {name: [(condition fn or None, compiled pattern, text)]}."""
    out = {}
    for name, spec in (ctx.data.get("bots") or {}).items():
        rules = []
        for i, rule in enumerate(spec.get("rules") or []):
            cond = None
            if "when" in rule:
                node = ctx.parse(("bots", name, "rules", i, "when"), "expr")
                if node is not None:
                    cond = compiler.expr(node, scope({"p"}))
            pattern = rule.get("prefer", "*")
            rules.append((cond, re.compile(fnmatch.translate(pattern)), pattern))
        out[name] = rules
    return out
