# SPDX-License-Identifier: MIT
"""What is asked of a position without changing it, as :class:`Scoring`: the score categories,
tie-breaks and who may win (`scoring:`), the invariants, and the estimate bots judge positions by
(:func:`estimate`, compiled after the bots)."""
from __future__ import annotations

from ..dsl import calls
from ..dsl.compiler import Compiler
from ..dsl.texts import located, scope
from .context import Context
from .names import ESTIMATE
from .records import Scoring


def scoring(ctx: Context, compiler: Compiler) -> Scoring:
    """Categories, tie-breaks, who may win (`scoring:`) and the invariants; the estimate
    comes after the bots (:func:`estimate`)."""
    categories = []
    sc = ctx.data.get("scoring") or {}
    for i, cat in enumerate(sc.get("categories") or []):
        body = ctx.parse(("scoring", "categories", i, "points"), "expr")
        cid = cat.get("id", f"category{i + 1}")
        fn = located(compiler.expr(body, scope({"p"})), body.span, f"the points of `{cid}`", "points") \
            if body else (lambda s, e: 0)
        categories.append((cid, cat.get("text", ""), fn))
    tiebreak, names = [], []
    for i, entry in enumerate(sc.get("tiebreak") or []):
        named = isinstance(entry, dict)         # `{id: NAME, expr: ...}`
        body = ctx.parse(("scoring", "tiebreak", i) + (("expr",) if named else ()), "expr")
        if body:
            what = f"tie-break `{entry['id']}`" if named else f"tie-break {i + 1}"
            tiebreak.append(located(compiler.expr(body, scope({"p"})), body.span, what, "tiebreak"))
            names.append(str(entry["id"]) if named else None)
    return Scoring(tuple(categories), tuple(tiebreak), _eligible(ctx, compiler), _invariants(ctx, compiler),
                   estimate=None, tiebreak_names=tuple(names))


def estimate(compiler: Compiler):
    """The estimate is compiled as a function of ``p``, so that it is remembered like one:
    a greedy or search bot judges many copies of one state that differ in a move or two,
    and a copy whose moves did not touch what the estimate reads asks the memo, not the rules."""
    if ESTIMATE not in compiler.v.functions:
        return None
    caller = calls.call_function(compiler, ESTIMATE)
    return located(lambda s, env: caller(s, env["p"]), compiler.v.functions[ESTIMATE][1].span, "the estimate",
                   "estimate")


def _eligible(ctx: Context, compiler: Compiler):
    """``scoring.eligible``: whether ``p`` may win, or None (everyone may)."""
    if "eligible" not in (ctx.data.get("scoring") or {}):
        return None
    body = ctx.parse(("scoring", "eligible"), "expr")
    if body is None:
        return None
    return located(compiler.expr(body, scope({"p"})), body.span, "`eligible`"), body.span


def _invariants(ctx: Context, compiler: Compiler) -> tuple:
    """((id, text, fn), ...): ``fn(s, e)`` is true when the invariant holds, or when its
    ``when:`` does not (the invariant is not asked then)."""
    invariants = []
    for i, inv in enumerate(ctx.data.get("invariants") or []):
        body = ctx.parse(("invariants", i, "expr"), "expr")
        if body:
            iid = inv.get("id", f"invariant{i + 1}")
            fn = located(compiler.expr(body, scope()), body.span, f"invariant `{iid}`")
            when = ctx.parse(("invariants", i, "when"), "expr") if "when" in inv else None
            if when is not None:
                fn = _when(located(compiler.expr(when, scope()), when.span, f"the `when` of invariant `{iid}`"),
                           fn)
            invariants.append((iid, inv.get("text", ""), fn))
    return tuple(invariants)


def _when(condition, check):
    """An invariant with a ``when:``: it holds wherever its condition does not."""
    def run(s, e):
        return not condition(s, e) or check(s, e)
    return run
