# SPDX-License-Identifier: MIT
"""What a game could ever offer: the label templates of every ``choose`` option.

A script that names an action no option of the game could ever be written as has a
typo, not a refusal; this module tells the two apart. Templates are read from the
content's statement texts (procedures, option groups, setup, phases, finish), so no
state is needed. Patterns in scripts are globs (``bid *``): ``*`` any text, ``?`` one
character, ``[...]`` one character of a class.
"""
from __future__ import annotations

import fnmatch
import re

from ..engine.mutate import fmt
from ..engine.simultaneous import split
from ..errors import DiagnosticReport
from . import ast

_TEMPLATES: dict = {}      # content hash -> templates: the scripts of one game load it again and again
_KEEP = 16
# Tokens: a literal character, ANY (exactly one character) or MANY (any text, maybe empty).
ANY, MANY = object(), object()


def templates(game) -> tuple:
    """Every option label of ``game`` as tokens (a ``{hole}`` is one or more characters)."""
    found = _TEMPLATES.get(game.content_hash)
    if found is None:
        found = tuple({_label_tokens(node.label) for node in _options(game.data)})
        if len(_TEMPLATES) >= _KEEP:
            _TEMPLATES.pop(next(iter(_TEMPLATES)))
        _TEMPLATES[game.content_hash] = found
    return found


def _options(data: dict):
    from .texts import parse_text
    for text, kind in _statement_texts(data):
        try:
            tree = parse_text(text, None, kind)
        except DiagnosticReport:   # the game checked clean, so this cannot happen; be safe
            continue
        yield from (node for node in ast.walk(tree) if isinstance(node, ast.Option))


def _statement_texts(data: dict):
    for spec in (data.get("procedures") or {}).values():
        if isinstance(spec, dict) and isinstance(spec.get("do"), str):
            yield spec["do"], "script"
    for spec in (data.get("option_groups") or {}).values():
        if isinstance(spec, dict) and isinstance(spec.get("options"), str):
            yield spec["options"], "options"
    flow = data.get("flow") or {}
    for text in [data.get("setup"), flow.get("finish")] + [p.get("do") for p in flow.get("phases") or ()]:
        if isinstance(text, str):
            yield text, "script"


def _label_tokens(label) -> tuple:
    if isinstance(label, ast.Str):
        return tuple(label.value)
    out: list = []
    for part in label.parts:
        out.extend(part if isinstance(part, str) else (ANY, MANY))
    return tuple(out)


def glob_tokens(pattern: str) -> tuple:
    """A glob as tokens (a ``[...]`` class counts as any one character)."""
    out: list = []
    for piece in re.findall(r"\[[^\]]+\]|.", pattern, re.S):
        out.append(MANY if piece == "*" else ANY if piece == "?" or len(piece) > 1 else piece)
    return tuple(out)


def could_be(game, pattern: str, glob: bool = True) -> bool:
    """Whether some action of ``game`` could ever match ``pattern`` (a glob, or a literal
    action when ``glob`` is false)."""
    seat, bare = split(pattern)     # `p2: bid 5`: an action of one player deciding at once with others
    if seat is not None:
        pattern = bare
    tokens = glob_tokens(pattern) if glob else tuple(pattern)
    return any(_overlap(tokens, t) for t in templates(game))


def matches(label: str, pattern: str) -> bool:
    return fnmatch.fnmatchcase(label, pattern)


def _overlap(a: tuple, b: tuple) -> bool:
    """Whether some text matches both token sequences (a walk over pairs of positions)."""
    seen, todo = set(), [(0, 0)]
    while todo:
        i, j = todo.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(a) and j == len(b):
            return True
        x = a[i] if i < len(a) else None
        y = b[j] if j < len(b) else None
        if x is MANY:
            todo.append((i + 1, j))
            if y is not None:
                todo.append((i, j + 1))
        if y is MANY:
            todo.append((i, j + 1))
            if x is not None:
                todo.append((i + 1, j))
        if x is not None and y is not None and x is not MANY and y is not MANY and (
                x is ANY or y is ANY or x == y):
            todo.append((i + 1, j + 1))
    return False


def render_event(event: tuple) -> str:
    """One event as a transcript line (actions flush left, their effects indented)."""
    kind = event[0]
    if kind == "action":
        return f"{event[1]}: {event[2]}"
    if kind == "move":
        return f"  move {event[1]}: {event[2]} -> {event[3]}"
    if kind == "set":
        return f"  {event[1]}: {fmt(event[2])} -> {fmt(event[3])}"
    if kind == "set_element":       # one element of a list or mapping: `board[1]: 0 -> 5`, a new key `d[b] = 2`
        if len(event) == 4:
            return f"  {event[1]}[{fmt(event[2])}] = {fmt(event[3])}"
        return f"  {event[1]}[{fmt(event[2])}]: {fmt(event[3])} -> {fmt(event[4])}"
    if kind == "prop":
        return f"  {event[1]}.{event[2]} = {fmt(event[3])}"
    if kind == "shuffle":
        return f"  shuffle {event[1]} ({event[2]} items)"
    if kind == "roll":
        return f"  roll d{event[2]} ({event[1]}): {event[3]}"
    if kind == "log":
        return f"  # {event[1]}"
    if kind == "start":
        return f"start {event[1]} players={event[2]} seed={event[3]}"
    return "  " + " ".join(fmt(x) for x in event)
