# SPDX-License-Identifier: MIT
"""The names of a game and where they are used, for hover, definition, references,
completion and rename.

Definitions are read off the game's merged content (its source map keeps every key's file
and place); uses off the parsed effect-language texts of the game, its variants and its
scripts (the same parse the checker made, from the parse cache; where the texts are, from
model.TEXT_PLACES): a call's name, a bare name, an attribute after a dot, and a variant's key
naming what it changes. What a bare name stands for (the text's own or the game's) is the
front end's answer (dsl/resolve.py): a local called like a zone is no use of the zone. A text
that does not parse mid-edit binds the names its last parse did.
"""
from __future__ import annotations

import os
from collections import OrderedDict

import attrs

from ..content.loader import flatten, load_yaml
from ..dsl import ast, parse_cache, resolve
from ..dsl.texts import parse_text
from ..dsl.visit import assigned_names, bound_names
from ..errors import DiagnosticReport
from ..model import OWN_PARAMS, TEXT_PLACES
from ..source import Span
from .documents import reading, real

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
_LAST_PARSE: OrderedDict = OrderedDict()    # (file, data path) -> the names its last parse bound
_LAST_KEPT = 2048                             # texts remembered so (the oldest is forgotten first)


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
    own: bool = False       # a bare name that is the text's own (a local, a parameter): no use of a symbol


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
    game_vars = frozenset(index.data.get("vars") or ()) if isinstance(index.data.get("vars"), dict) else frozenset()
    for path, kind, params in dsl_texts(data):
        origin = smap.text((*prefix, *path))
        text = _dig(data, path)
        if origin is None or not isinstance(text, str):
            continue
        file = real(origin.span.path)
        own = {str(p) for p in _dig(data, (*path[:-1], "params")) or () if isinstance(p, str)} \
            if params == OWN_PARAMS else set(params)
        where = (*prefix, *path)
        try:
            tree = parse_cache.parsed((kind, text, origin), lambda t=text, o=origin, k=kind: parse_text(t, o.locate, k))
        except DiagnosticReport:        # mid-edit: the names the rest of it binds, or its last parse bound
            bound = _recovered(text, kind) or _LAST_PARSE.get((file, where), frozenset())
        else:
            uses, bound = uses_in(tree, file, where, own, game_vars, kind != "expr")
            index.uses.extend(uses)
            _remember(file, where, bound)
        last = origin.span.line + text.count("\n") + (1 if origin.style in ("|", ">") else 0)
        index.texts.append((file, origin.span.line, last, where, frozenset(bound | own)))


def _recovered(text: str, kind: str, tries: int = 3) -> frozenset:
    """The names a text that does not parse binds, read off its parse with each line the parser
    stops at written as ``pass`` (the line being typed, most often): the parser's tree, never a
    guess at the text's words."""
    if kind == "expr":
        return frozenset()
    lines = text.split("\n")
    for _ in range(tries):
        try:
            tree = parse_text("\n".join(lines), None, kind)
        except DiagnosticReport as report:
            line = report.diagnostics[0].span.line if report.diagnostics and report.diagnostics[0].span else 0
            if not 0 < line <= len(lines) or lines[line - 1].strip() == "pass":
                return frozenset()
            stopped = lines[line - 1]
            lines[line - 1] = stopped[:len(stopped) - len(stopped.lstrip())] + "pass"
        else:
            return frozenset(assigned_names(tree) | bound_names(tree))
    return frozenset()


def _remember(file: str, where: tuple, bound) -> None:
    _LAST_PARSE[(file, where)] = frozenset(bound)
    _LAST_PARSE.move_to_end((file, where))
    while len(_LAST_PARSE) > _LAST_KEPT:
        _LAST_PARSE.popitem(last=False)


def dsl_texts(data: dict):
    """(data path, kind, the names it is given) of every effect-language text in content ``data``."""
    for pattern, kind, params in TEXT_PLACES:
        yield from ((path, kind, params) for path in _expand(data, pattern, ()))


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


def uses_in(tree, file: str, where: tuple, params=(), game_vars=frozenset(), statements: bool = True) \
        -> tuple[list, set]:
    """The uses in a parsed text, and the names it binds (assigned, looped over, compared by); a
    bare name is marked ``own`` where the front end resolves it to the text's own (dsl/resolve.py)."""
    uses = []
    own = {id(node) for node, meaning in resolve.names(tree, params, game_vars, statements)
           if meaning == resolve.OWN}
    for node in ast.walk(tree):
        span = node.span
        if isinstance(node, ast.Call):
            uses.append(Use(node.func, "call", _word(span, span.column, node.func), (file, where)))
        elif isinstance(node, ast.Name):
            uses.append(Use(node.id, "name", _word(span, span.column, node.id), (file, where), id(node) in own))
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
