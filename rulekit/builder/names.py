# SPDX-License-Identifier: MIT
"""Every name of a game before any body is compiled: the parameters (and clashes between all the
names declared by then), then the signatures of functions, procedures and option groups, so that
bodies can call each other."""
from __future__ import annotations

from ..codes import DECLARED_TWICE
from ..dsl import ast
from ..dsl.compiler import Vocabulary
from ..errors import Diagnostic
from ..source import Span
from .context import Context, value

BUILTIN_CONSTANTS = ("players", "num_players")
ESTIMATE = "$estimate"    # the estimate among the functions (engine/memo.py remembers it)


def declare_params(ctx: Context, vocab: Vocabulary) -> dict:
    """Params are named before anything is compiled (their values come after the
    functions, since `expr:` params may call them: program.param_values); all names are known
    by now, so clashes between them are checked here. Returns the `params:` section."""
    params_spec = ctx.data.get("params") or {}
    vocab.constants = set(params_spec) | set(BUILTIN_CONSTANTS)
    for name, spec in params_spec.items():
        fixed = value(spec.get("value") if isinstance(spec, dict) else spec)
        if type(fixed) in (int, bool, str) and not (isinstance(spec, dict) and "expr" in spec):
            vocab.fixed[name] = fixed     # the same in every state of the game: a constant of its code
    _check_clashes(ctx, vocab)
    return params_spec


def signatures(ctx: Context, vocab: Vocabulary):
    """Functions, procedures and option groups, declared before any body is compiled so
    that bodies can call each other. Returns (functions spec, procedures spec)."""
    data = ctx.data
    functions_spec = data.get("functions") or {}
    for name, spec in functions_spec.items():
        body = ctx.parse(("functions", name, "expr"), "expr")
        vocab.functions[name] = (tuple(spec.get("params") or ()),
                                 body or ast.Const(None, span=Span(ctx.path, 1, 1)))
    procedures_spec = data.get("procedures") or {}
    for name, spec in procedures_spec.items():
        vocab.procedures[name] = tuple(spec.get("params") or ())
    if data.get("estimate"):
        body = ctx.parse(("estimate",), "expr")
        if body:      # a function of `p` like any other (ESTIMATE: a name content cannot write)
            vocab.functions[ESTIMATE] = (("p",), body)

    for name, spec in (data.get("option_groups") or {}).items():
        options = ctx.parse(("option_groups", name, "options"), "options")
        vocab.option_groups[name] = (tuple(spec.get("params") or ()), options or ())
    return functions_spec, procedures_spec


def _check_clashes(ctx: Context, vocab: Vocabulary) -> None:
    seen: dict[str, tuple] = {}
    groups = [("global variable", vocab.gvars, ("vars",)), ("parameter", vocab.constants, ("params",)),
              ("zone", vocab.zones, ("zones",)), ("zone family", vocab.families, ("zones",)),
              ("set", vocab.sets, ("sets",)), ("set member", vocab.members, None),
              ("table", vocab.tables, ("tables",))]
    for what, names, section in groups:
        for name in names:
            span = ctx.smap.span(section + (name,), key=True) if section else None
            if name in seen and seen[name][0] != what:
                first_what, first_span = seen[name]
                ctx.diagnostics.append(Diagnostic(
                    DECLARED_TWICE, f"`{name}` is both a {first_what} and a {what}", span or first_span,
                    related=(("the other definition", first_span),) if span and first_span else (),
                    help="give each a different name"))
            seen.setdefault(name, (what, span))
