# SPDX-License-Identifier: MIT
"""The names of a game and where they are used, for hover, definition, references,
completion and rename.

Definitions are read off the game's merged content (its source map keeps every key's file
and place); uses off the parsed effect-language texts of the game, its variants and its
scripts (the same parse the checker made, from the parse cache): a call's name, a bare name,
an attribute after a dot, and a variant's key naming what it changes. Locals are not told
from a same-named parameter (the index reads names, it does not resolve scopes).
"""
from __future__ import annotations

import os
import re

import attrs

from ..content.loader import flatten, load_yaml
from ..dsl import ast, parse_cache
from ..dsl.texts import parse_text
from ..dsl.visit import assigned_names, bound_names
from ..errors import DiagnosticReport
from ..source import Span
from .documents import reading, real

# Where the effect language is written in content, and as what: `*` is any key or index.
DSL_PATHS = (
    (("procedures", "*", "do"), "script"), (("setup",), "script"), (("flow", "finish"), "script"),
    (("flow", "phases", "*", "do"), "script"), (("functions", "*", "expr"), "expr"), (("estimate",), "expr"),
    (("option_groups", "*", "options"), "options"), (("params", "*", "expr"), "expr"),
    (("flow", "end_after_round_if"), "expr"), (("flow", "phases", "*", "when"), "expr"),
    (("scoring", "categories", "*", "points"), "expr"), (("scoring", "tiebreak", "*"), "expr"),
    (("scoring", "eligible"), "expr"), (("invariants", "*", "expr"), "expr"), (("invariants", "*", "when"), "expr"),
    (("zones", "*", "dealt_from"), "expr"), (("player", "zones", "*", "dealt_from"), "expr"),
    (("bots", "*", "rules", "*", "when"), "expr"), (("position",), "script"),
)
# Named sections: (data path of the mapping, the kind of name it declares).
SECTIONS = (
    (("procedures",), "procedure"), (("functions",), "function"), (("params",), "parameter"),
    (("vars",), "variable"), (("player", "vars"), "player variable"), (("zones",), "zone"),
    (("player", "zones"), "player zone"), (("sets",), "set"), (("components",), "kind"),
    (("option_groups",), "option group"), (("tables",), "table"),
)
RENAMEABLE = frozenset({"procedure", "function", "parameter", "zone", "player zone", "variable",
                        "player variable", "set", "table", "option group"})
ANNOTATIONS = frozenset({"text", "provenance", "ruling"})
_BINDS = re.compile(r"^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:=(?!=)|\+=|-=)", re.M)
_LOOPS = re.compile(r"\bfor[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+in\b")


@attrs.frozen
class Symbol:
    """A name the content declares: its kind, where (the key, or an item's id) and what it says."""

    kind: str
    name: str
    span: Span
    path: tuple
    spec: object = None


@attrs.frozen
class Use:
    """One place a name is written: ``how`` is call, name, attr, key (a variant's key) or include;
    ``text`` the real path and data path of the text it is in."""

    name: str
    how: str
    span: Span
    text: tuple = ()


@attrs.define
class Index:
    """A game's names: symbols by name, uses in order, and the names each text binds."""

    folder: str
    data: dict
    smap: object
    symbols: dict = attrs.Factory(dict)      # name -> [Symbol]
    uses: list = attrs.Factory(list)
    texts: list = attrs.Factory(list)        # (real path, first line, last line, data path, bound names)

    def named(self, name: str, kinds=None) -> list:
        found = self.symbols.get(name, [])
        return [s for s in found if kinds is None or s.kind in kinds]

    def use_at(self, path: str, line: int, column: int) -> Use | None:
        for use in self.uses:
            span = use.span
            if span.line == line and span.column <= column <= span.end_column and real(span.path) == path:
                return use
        return None

    def text_at(self, path: str, line: int):
        """The effect-language text covering 1-based ``line`` of a file: (data path, bound names)."""
        for file, first, last, data_path, bound in self.texts:
            if file == path and first <= line <= last:
                return data_path, bound
        return None


def build(folder: str, texts: dict) -> Index | None:
    """The index of the game in ``folder`` as the buffers have it (None when its files do not read)."""
    from ..games import load_tree
    with reading(texts):
        try:
            tree = load_tree(folder)
        except DiagnosticReport:
            return None
        data, smap = flatten(tree)
        index = Index(folder, data, smap)
        _declare(index, data, smap)
        _used(index, data, smap)
        for path in _other_files(folder, texts):
            _file_uses(index, path)
    return index


def _declare(index: Index, data: dict, smap) -> None:
    for path, kind in SECTIONS:
        section = _dig(data, path)
        if not isinstance(section, dict):
            continue
        for name, spec in section.items():
            _add(index, Symbol(kind, name, smap.span((*path, name), key=True), (*path, name), spec))
    for name, spec in (data.get("sets") or {}).items():
        members = spec if isinstance(spec, list) else [k for k in (spec or {}) if k not in ANNOTATIONS]
        for i, member in enumerate(members):
            where = (("sets", name, i), False) if isinstance(spec, list) else (("sets", name, member), True)
            _add(index, Symbol("member", str(member), smap.span(where[0], key=where[1]), where[0], name))
    for kind, spec in (data.get("components") or {}).items():
        for i, item in enumerate((spec or {}).get("items") or () if isinstance(spec, dict) else ()):
            if isinstance(item, dict) and "id" in item:
                path = ("components", kind, "items", i)
                _add(index, Symbol("item", str(item["id"]), smap.span((*path, "id")), path, (kind, item)))
    for i, phase in enumerate(_dig(data, ("flow", "phases")) or ()):
        if isinstance(phase, dict) and "id" in phase:
            _add(index, Symbol("phase", str(phase["id"]), smap.span(("flow", "phases", i, "id")),
                               ("flow", "phases", i), phase))


def _add(index: Index, symbol: Symbol) -> None:
    if symbol.span is not None:
        index.symbols.setdefault(symbol.name, []).append(symbol)


def _used(index: Index, data: dict, smap, prefix: tuple = ()) -> None:
    """The uses in every effect-language text of ``data`` (under ``prefix`` in its file)."""
    for path, kind in dsl_texts(data):
        origin = smap.text((*prefix, *path))
        text = _dig(data, path)
        if origin is None or not isinstance(text, str):
            continue
        file = real(origin.span.path)
        try:
            tree = parse_cache.parsed((kind, text, origin), lambda t=text, o=origin, k=kind: parse_text(t, o.locate, k))
        except DiagnosticReport:        # mid-edit: the names it binds, read off its lines
            bound = set(_BINDS.findall(text)) | set(_LOOPS.findall(text))
        else:
            uses, bound = uses_in(tree, file, (*prefix, *path))
            index.uses.extend(uses)
        params = _dig(data, (*path[:-1], "params")) if path[0] in ("procedures", "functions") else None
        bound |= {str(p) for p in params or () if isinstance(p, str)}
        last = origin.span.line + text.count("\n") + (1 if origin.style in ("|", ">") else 0)
        index.texts.append((file, origin.span.line, last, (*prefix, *path), frozenset(bound)))


def dsl_texts(data: dict):
    """(data path, kind) of every effect-language text in content ``data``."""
    for pattern, kind in DSL_PATHS:
        yield from ((path, kind) for path in _expand(data, pattern, ()))


def _expand(value, pattern: tuple, done: tuple):
    if not pattern:
        yield done
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        keys = value.keys() if isinstance(value, dict) else range(len(value)) if isinstance(value, list) else ()
    else:
        keys = (head,) if isinstance(value, dict) and head in value else ()
    for key in keys:
        yield from _expand(value[key], rest, (*done, key))


def uses_in(tree, file: str, where: tuple) -> tuple[list, set]:
    """The uses in a parsed text, and the names it binds (assigned, looped over, compared by)."""
    uses = []
    for node in ast.walk(tree):
        span = node.span
        if isinstance(node, ast.Call):
            uses.append(Use(node.func, "call", _word(span, span.column, node.func), (file, where)))
        elif isinstance(node, ast.Name):
            uses.append(Use(node.id, "name", _word(span, span.column, node.id), (file, where)))
        elif isinstance(node, ast.Attr) and span.end_column is not None:
            line = span.end_line or span.line
            uses.append(Use(node.name, "attr", Span(span.path, line, span.end_column - len(node.name), line,
                                                    span.end_column), (file, where)))
        elif isinstance(node, ast.Include):
            uses.append(Use(node.name, "include", _word(span, span.column + len("include "), node.name),
                            (file, where)))
    return uses, assigned_names(tree) | bound_names(tree)


def _word(span: Span, column: int, word: str) -> Span:
    return Span(span.path, span.line, column, span.line, column + len(word))


def _other_files(folder: str, texts: dict) -> list:
    """The folder's YAML files that are not parts of the game: variants and scripts."""
    out = []
    for sub in ("variants", "scenarios", "faq", "scripts"):
        where = os.path.join(folder, sub)
        if os.path.isdir(where):
            out += sorted(os.path.join(where, f) for f in os.listdir(where) if f.endswith((".yaml", ".yml")))
    seen = {real(p) for p in out}
    out += [p for p in texts if p.startswith(real(folder) + os.sep) and p not in seen and "/variants/" in p]
    return out


def _file_uses(index: Index, path: str) -> None:
    """Uses in a variant or a script: its texts (a variant's ``add:`` too) and a variant's keys."""
    try:
        node = load_yaml(path, within=index.folder)
    except DiagnosticReport:
        return
    data, smap = flatten(node)
    if not isinstance(data, dict):
        return
    _used(index, data, smap)
    added = data.get("add")
    if isinstance(added, dict):
        _used(index, added, smap, ("add",))
    if "variant" in data:
        for path_, _kind in SECTIONS:
            section = _dig(data, path_)
            for name in section if isinstance(section, dict) else ():
                span = smap.span((*path_, name), key=True)
                if span is not None and index.named(name):
                    index.uses.append(Use(name, "key", Span(span.path, span.line, span.column, span.line,
                                                            span.column + len(name)), (real(path), path_)))


def _dig(data, path):
    for key in path:
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data
