# SPDX-License-Identifier: MIT
"""rulekit's diagnostics as the protocol's, at their exact range, with the help and notes in the
message and a quick fix where the help says "did you mean"."""
from __future__ import annotations

import re

from lsprotocol import types
from pygls.uris import from_fs_path

from ..source import Span
from .documents import real
from .positions import span_bounds

_DID_YOU_MEAN = re.compile(r"did you mean `([^`]+)`\?")
_TRAILING_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*$")
SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}


def to_range(span: Span, line) -> types.Range:
    (sl, sc), (el, ec) = span_bounds(span, lambda n: line(span.path, n))
    return types.Range(types.Position(sl, sc), types.Position(el, ec))


def convert(d, line) -> types.Diagnostic:
    """One rulekit Diagnostic (``line(path, n)`` reads the buffers) as the protocol's."""
    where = to_range(d.span, line)
    message = d.message + "".join(f"\nnote: {n}" for n in d.notes) + (f"\nhelp: {d.help}" if d.help else "")
    related = [types.DiagnosticRelatedInformation(types.Location(from_fs_path(real(s.path)), to_range(s, line)), label)
               for label, s in d.related if s is not None]
    return types.Diagnostic(range=where, message=message, severity=SEVERITY.get(d.severity, 1), code=d.code,
                            source="rulekit", related_information=related or None, data=_fix(d, where, line))


def _fix(d, where: types.Range, line) -> dict | None:
    """The edit a "did you mean `X`?" help proposes: X in place of the word that ends the range."""
    match = _DID_YOU_MEAN.search(d.help or "")
    if match is None or where.start.line != where.end.line:
        return None
    text = line(d.span.path, d.span.line) or ""
    head = text[:where.end.character]
    word = _TRAILING_WORD.search(head[where.start.character:])
    if word is None:
        return None
    start = where.start.character + word.start()
    return {"title": f"Change to `{match.group(1)}`", "line": where.start.line, "start": start,
            "end": where.end.character, "new": match.group(1)}


def quick_fixes(uri: str, diagnostics) -> list:
    """The code actions for the diagnostics of a request's context that carry a fix."""
    out = []
    for d in diagnostics:
        fix = d.data if isinstance(d.data, dict) else None
        if not fix or not {"title", "line", "start", "end", "new"} <= fix.keys():
            continue
        edit = types.TextEdit(types.Range(types.Position(fix["line"], fix["start"]),
                                          types.Position(fix["line"], fix["end"])), fix["new"])
        out.append(types.CodeAction(title=fix["title"], kind=types.CodeActionKind.QuickFix, diagnostics=[d],
                                    is_preferred=True, edit=types.WorkspaceEdit(changes={uri: [edit]})))
    return out
