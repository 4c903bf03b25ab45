# SPDX-License-Identifier: MIT
"""Completion in the effect language: after a dot, the attributes of a player (variables,
zones) and of items (properties, state); elsewhere the names in scope (the text's own locals
and parameters, the game's names, built-ins with their signature, keywords). In a script's
``actions:``, the legal actions at that point (:func:`legal_actions_at`)."""
from __future__ import annotations

import re

from lsprotocol import types

from ..engine.library import REGISTRY
from .hover import builtin_text
from .names import Index
from .positions import word_before

KEYWORDS = ("and", "assert", "break", "by", "choose", "choose_all", "continue", "elif", "else", "false", "for",
            "if", "in", "include", "let", "none", "not", "or", "pass", "prompt", "return", "says", "true", "while",
            "players")
K = types.CompletionItemKind
_KINDS = {"procedure": K.Function, "function": K.Function, "parameter": K.Constant, "variable": K.Variable,
          "player variable": K.Field, "zone": K.Module, "player zone": K.Module, "set": K.Enum,
          "member": K.EnumMember, "table": K.Constant, "option group": K.Snippet, "kind": K.Class, "phase": K.Event}
_IN_SCOPE = ("procedure", "function", "parameter", "variable", "zone", "set", "member", "table")
_ACTION_LINE = re.compile(r"^\s*-\s+(?:(p\d+)\s*:\s*)?([^#]*)$")


def complete(index: Index | None, path: str, text: str, line: int, column: int) -> list:
    """Completion items at 0-based ``line``/``column`` of the file ``path`` whose line is ``text``."""
    word = word_before(text, column)
    if word.dotted:
        return _attributes(index, word.owner) if index is not None else []
    out = []
    scope = index.text_at(path, line + 1) if index is not None else None
    for name in sorted(scope[1]) if scope else ():
        out.append(types.CompletionItem(name, kind=K.Variable, detail="local", sort_text=f"0{name}"))
    for _name, symbols in sorted((index.symbols if index is not None else {}).items()):
        for s in symbols:
            if s.kind in _IN_SCOPE:
                out.append(_item(s, "1"))
    for b in sorted(REGISTRY.values(), key=lambda b: b.name):
        out.append(types.CompletionItem(b.name, kind=K.Function, detail=b.signature, sort_text=f"2{b.name}",
                                        documentation=types.MarkupContent(types.MarkupKind.Markdown,
                                                                          builtin_text(b))))
    out += [types.CompletionItem(k, kind=K.Keyword, sort_text=f"3{k}") for k in KEYWORDS]
    return out


def _attributes(index: Index, owner: str | None) -> list:
    """A player's variables and zones first, then the items' properties and state."""
    out = [_item(s, "0") for symbols in index.symbols.values() for s in symbols
           if s.kind in ("player variable", "player zone")]
    seen: dict = {}
    for kind, spec in (index.data.get("components") or {}).items():
        for part in ("props", "state"):
            for name in (spec.get(part) or {}) if isinstance(spec, dict) else ():
                seen.setdefault(name, []).append(f"{kind}.{part}")
    out += [types.CompletionItem(name, kind=K.Property, detail="item: " + ", ".join(where[:3]),
                                 sort_text=f"1{name}") for name, where in sorted(seen.items())]
    return out


def _item(s, rank: str) -> types.CompletionItem:
    spec = s.spec if isinstance(s.spec, dict) else {}
    detail = s.kind
    if s.kind in ("procedure", "function"):
        detail = f"{s.kind} {s.name}({', '.join(str(p) for p in spec.get('params') or ())})"
    doc = spec.get("text")
    return types.CompletionItem(s.name, kind=_KINDS.get(s.kind, K.Text), detail=detail, sort_text=f"{rank}{s.name}",
                                documentation=doc.strip() if isinstance(doc, str) else None)


_SEAT_MARK = "# completing for "     # the last line of a prefix whose action names its seat


def action_prefix(text: str, line: int) -> tuple[str, str] | None:
    """(the script's text up to the action being written, the seat written) when 0-based
    ``line`` is an action step (``- p2: bid ...``) of a script's ``actions:``; else None. A seat
    written is told to :func:`legal_actions_at` as a last comment line of the text, which the
    script reads as nothing, so that the child process that plays it hears of it."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    match = _ACTION_LINE.match(lines[line])
    if match is None or not any(re.match(r"^actions\s*:", ln) for ln in lines[:line]):
        return None
    seat = match.group(1) or ""
    return "\n".join(lines[:line]) + "\n" + (f"{_SEAT_MARK}{seat}\n" if seat else ""), seat


def legal_actions_at(path: str, texts: dict, prefix: str) -> list[tuple[str, str]]:
    """(notation, as shown) of each legal action after the steps of ``prefix`` (the script's text
    so far), played as the checker plays scripts, the buffer standing in for the file. With a seat
    (``- p2: ``), that seat's own (none when the game does not wait for it), shown as that seat
    may read them (view.sight: what is hidden from it redacted), while the notation, what a
    script must write, is the real one: a script is the author's omniscient record, and must
    replay. Without a seat they show as written."""
    from ..engine.api import current_players, legal_actions
    from ..engine.state import PLAYERS
    from ..engine.view import sight
    from ..testing.script import run_script
    from .documents import reading, real
    last = prefix.rstrip("\n").rpartition("\n")[2]
    seat = last[len(_SEAT_MARK):].strip() if last.startswith(_SEAT_MARK) else None
    with reading({**texts, real(path): prefix}):
        result = run_script(path)
    state = result.state
    if state.over:
        return []
    if seat is None:
        return [(action, action) for action in legal_actions(state)]
    waiting = [q for q in current_players(state) if str(PLAYERS[q]) == seat]
    if not waiting:
        return []
    actions = legal_actions(state, waiting[0])
    return list(zip(actions, sight(state, waiting[0]).labels(actions)))


def bounded_actions(path: str, texts: dict, prefix: str, stale=None) -> list[tuple[str, str]]:
    """:func:`legal_actions_at` in a bounded child process (lsp/bounded.py): none when it fails,
    runs past its bound or is no longer wanted (``stale()``)."""
    from . import bounded
    answer = bounded.run(("actions", path, texts, prefix), stale)
    return answer[1] if answer is not None and answer[0] == "done" else []
