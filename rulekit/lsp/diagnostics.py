# SPDX-License-Identifier: MIT
"""rulekit's diagnostics as the protocol's, at their exact range, with the help and notes in the
message and a quick fix for every one that says "did you mean", whatever its code."""
from __future__ import annotations

import difflib
import re

from lsprotocol import types
from pygls.uris import from_fs_path

from ..source import Span
from .documents import real
from .positions import code_point, span_bounds, utf16

_DID_YOU_MEAN = re.compile(r"did you mean `([^`]+)`\?")
_QUOTED = re.compile(r"`([^`\n]+)`")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
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
    """The edit a "did you mean `X`?" proposes, for any diagnostic that says it (in its help, or in its
    message as an illegal action's does), whatever its code: X in place of the word written.

    The word written is the one the message quotes (`` unknown function `shufle` ``, `` `roll` has no
    argument `sidez` ``), found in the text as a whole word: inside the diagnostic's range first (a call's
    range starts with its name, an attribute's ends with it), else nearest to it on the range's lines (a
    keyword's diagnostic covers its value). Of several quoted words, the one closest to X; a message that
    quotes none found there falls back to the words inside the range. No such word, no fix: never a guess
    that would replace the wrong text."""
    match = _DID_YOU_MEAN.search(d.help or "") or _DID_YOU_MEAN.search(d.message)
    if match is None or d.span is None:
        return None
    meant = match.group(1)
    first = where.start.line
    rows = [line(d.span.path, n + 1) or "" for n in range(first, where.end.line + 1)]
    place = _written(rows, where, [w for w in _QUOTED.findall(d.message) if w != meant], meant)
    if place is None:
        place = _written(rows, where, _inside(rows, where, meant), meant)
    if place is None:
        return None
    row, start, end = place
    text = rows[row]
    return {"title": f"Change to `{meant}`", "line": first + row, "start": utf16(text, start),
            "end": utf16(text, end), "new": meant}


def _written(rows: list, where: types.Range, words, meant: str):
    """(row of ``rows``, start, end) in code points of the best occurrence of one of ``words``."""
    best = None
    for word in dict.fromkeys(words):
        likeness = difflib.SequenceMatcher(None, word, meant).ratio()
        for row, text in enumerate(rows):
            low = code_point(text, where.start.character) if row == 0 else 0
            high = code_point(text, where.end.character) if row == len(rows) - 1 else len(text)
            for found in re.finditer(rf"(?<![\w]){re.escape(word)}(?![\w])", text):
                inside = low <= found.start() and found.end() <= high
                far = 0 if inside else min(abs(found.start() - high), abs(low - found.end())) + 1
                rank = (-likeness, not inside, row if inside else far, found.start())
                if best is None or rank < best[0]:
                    best = (rank, (row, found.start(), found.end()))
    return None if best is None else best[1]


def _inside(rows: list, where: types.Range, meant: str) -> list:
    """The words inside the range close enough to ``meant`` to be its misspelling."""
    words = []
    for row, text in enumerate(rows):
        low = code_point(text, where.start.character) if row == 0 else 0
        high = code_point(text, where.end.character) if row == len(rows) - 1 else len(text)
        words += [w for w in _WORD.findall(text[low:high]) if w != meant]
    return difflib.get_close_matches(meant, words, n=1, cutoff=0.6)


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
