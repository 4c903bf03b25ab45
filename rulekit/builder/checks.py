# SPDX-License-Identifier: MIT
"""What can be told only once every text is compiled, and the build's verdict: the compiler's
diagnostics after the parser's, procedures never called, parameters never read, labels that name
hidden items; an error stops the build, the warnings go with the game."""
from __future__ import annotations

from ..codes import UNREAD_PARAMETER, UNUSED_PROCEDURE
from ..dsl import secrecy
from ..dsl.check_names import unsaid
from ..dsl.compiler import Compiler
from ..errors import Diagnostic, DiagnosticReport
from .context import Context


def final_checks(ctx: Context, compiler: Compiler, procedures_spec: dict) -> tuple:
    """Compiler diagnostics come after the parse diagnostics; unused procedures can only
    be told once everything is compiled. Raises on any error; returns the warnings."""
    diagnostics = ctx.diagnostics
    diagnostics.extend(compiler.out.diagnostics)
    diagnostics.extend(unsaid(diagnostics, compiler.out.writer_found))
    for name in procedures_spec:
        if name not in compiler.out.used_procedures:
            diagnostics.append(Diagnostic(
                UNUSED_PROCEDURE, f"procedure `{name}` is never called", ctx.smap.span(("procedures", name), key=True),
                help="call it from a phase or another procedure, or remove it", severity="warning"))
    diagnostics.extend(_unread_params(ctx))
    diagnostics.extend(secrecy.leaking_labels(ctx.data, ctx.texts))     # RK0390
    if any(d.severity == "error" for d in diagnostics):
        # errors first (what stops the build), then warnings; each group in source order
        raise DiagnosticReport(sorted(diagnostics, key=lambda d: d.severity != "error"))
    return tuple(d for d in diagnostics if d.severity == "warning")


def _unread_params(ctx: Context) -> list:
    """RK0345: a parameter no text of the game reads, which a variant would change to no effect
    (dropped from a report with errors: games._with_errors)."""
    return [Diagnostic(UNREAD_PARAMETER,
                       f"parameter `{name}` is never read: a variant that changes it changes nothing",
                       ctx.smap.span(("params", name), key=True), severity="warning",
                       help="read it in the rules, or remove it; a variant that needs it adds it under `add:`")
            for name in ctx.data.get("params") or {} if name not in ctx.read]
