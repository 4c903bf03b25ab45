# SPDX-License-Identifier: MIT
"""Find a game, read its files and variant overlays, check them, build the model.

A game is a folder with ``game.yaml``; ``include:`` lists the other files of the
game. Mapping sections (``functions``, ``zones``, ...) may be spread over several
files; any name defined twice, and any other section given twice, is an error. A variant is
``variants/<name>.yaml`` (or any path): content-shaped, merged over the base with
the overlay rules of :mod:`loader` (strictly, :mod:`overlay`), and checked exactly like the base. Shipped games
are found by name, from a checkout or from an installed wheel.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import re
import threading
from importlib import resources

import attrs

from .codes import (
    DEFINED_TWICE,
    INCLUDE_OUTSIDE_GAME,
    LINK_OUTSIDE_GAME,
    MISSING_INCLUDE,
    NOT_A_MAPPING,
    NOT_A_REGULAR_FILE,
    UNKNOWN_NAME,
    UNREAD_PARAMETER,
    UNREADABLE_FILE,
)
from .content import against_base, properties, schema, typed
from .content.loader import LNode, SourceMap, flatten, load_yaml
from .content.overlay import apply as apply_overlay
from .dsl import code_cache, parse_cache
from .errors import Diagnostic, DiagnosticReport, UsageError, suggestion_help
from .model import Game, build_game
from .source import display_path, inside, read_regular, source_line

ROOT_FILE = "game.yaml"
_ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_HYPHENATED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)+")


def shipped_games_dir() -> str:
    """Where the shipped games live (the package data of ``rulekit_games``)."""
    try:
        return str(resources.files("rulekit_games"))
    except (ModuleNotFoundError, TypeError):
        return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "games")


def shipped_games() -> list[str]:
    base = shipped_games_dir()
    try:
        return sorted(n for n in os.listdir(base) if os.path.isfile(os.path.join(base, n, ROOT_FILE)))
    except OSError:
        return []


def find_game(name_or_path: str) -> str:
    """A game folder from a path (folder or its game.yaml) or a shipped game's name."""
    path = os.fspath(name_or_path)
    # lexists: a game.yaml that is a FIFO or a link leading out is this game's, refused when read
    if os.path.isdir(path) and os.path.lexists(os.path.join(path, ROOT_FILE)):
        return os.path.normpath(path)
    if os.path.lexists(path) and os.path.basename(path) == ROOT_FILE:
        return os.path.dirname(os.path.normpath(path)) or "."
    candidate = os.path.join(shipped_games_dir(), path)
    if os.path.isfile(os.path.join(candidate, ROOT_FILE)):
        return candidate
    if os.path.isdir(path):
        raise UsageError(f"`{path}` has no {ROOT_FILE}; a game folder starts with one")
    hint = suggestion_help(path, shipped_games())
    raise UsageError(f"no game `{path}`: not a folder with {ROOT_FILE} nor a shipped game "
                     f"({', '.join(shipped_games()) or 'none'})" + (f"; {hint}" if hint else ""))


def load_tree(folder: str, files: list | None = None, problems: list | None = None) -> LNode:
    """The game's root file with its includes merged in, as located nodes (the paths
    of the files read are appended to ``files`` when given). An include that cannot be read
    is left out: its diagnostics are raised, or appended to ``problems`` when given (the
    rest of the game is still checked)."""
    root_path = display_path(os.path.join(folder, ROOT_FILE))
    root = load_yaml(root_path, within=folder)
    if files is not None:
        files.append(root_path)
    if not isinstance(root.value, dict):
        raise DiagnosticReport([Diagnostic(NOT_A_MAPPING, "a game file must be a mapping of sections", root.span)])
    diagnostics: list[Diagnostic] = []
    includes = root.value.get("include")
    merged = dict(root.value)
    if includes is not None and isinstance(includes.value, list):
        for entry in includes.value:
            rel = entry.value
            if not isinstance(rel, str):
                continue
            path = display_path(os.path.join(folder, rel))
            if not inside(folder, os.path.join(folder, rel)):
                diagnostics.append(_outside_include(folder, rel, entry.span))
                continue
            if not os.path.lexists(path):
                diagnostics.append(Diagnostic(MISSING_INCLUDE, f"included file `{rel}` does not exist", entry.span,
                                              help=suggestion_help(rel, _yaml_files(folder))))
                continue
            try:
                part = load_yaml(path, within=folder)
            except DiagnosticReport as report:
                diagnostics.extend(_included_here(d, entry.span) for d in report.diagnostics)
                continue
            if files is not None:
                files.append(path)
            if not isinstance(part.value, dict):
                diagnostics.append(Diagnostic(NOT_A_MAPPING, "an included file must be a mapping of sections",
                                              part.span))
                continue
            for key, child in part.value.items():
                if key not in merged:
                    merged[key] = child
                    continue
                first = merged[key]
                if isinstance(first.value, dict) and isinstance(child.value, dict):
                    # Mapping sections (functions, zones, player vars...) may be spread over files.
                    merged[key] = _merge_sections(first, child, key, diagnostics)
                    continue
                diagnostics.append(Diagnostic(
                    DEFINED_TWICE, f"section `{key}` is defined in two files", child.key_span,
                    related=(("first defined here", first.key_span),),
                    help="keep each list or script section in one file"))
    if diagnostics and problems is None:
        raise DiagnosticReport(diagnostics)
    if problems is not None:
        problems.extend(diagnostics)
    merged.pop("include", None)
    return LNode(merged, root.span)


def _included_here(diagnostic: Diagnostic, span) -> Diagnostic:
    """An include's file refused unread is reported at the line that includes it (the file is no
    place to show: a folder, a pipe, a link out); one that cannot be read also points there."""
    if diagnostic.code in (LINK_OUTSIDE_GAME, NOT_A_REGULAR_FILE):
        return attrs.evolve(diagnostic, span=span)
    if diagnostic.code != UNREADABLE_FILE:
        return diagnostic
    return attrs.evolve(diagnostic, related=(*diagnostic.related, ("included here", span)))


def _outside_include(folder: str, rel: str, span) -> Diagnostic:
    """RK0113 for an include that leads out of the game's folder, saying how."""
    how = " a symbolic link to a file" if os.path.islink(os.path.join(folder, rel)) else ""
    return Diagnostic(INCLUDE_OUTSIDE_GAME, f"included file `{rel}` is{how} outside the game's folder", span,
                      help="a game includes files from its own folder")


def _merge_sections(first: LNode, child: LNode, path: str, diagnostics: list) -> LNode:
    combined = dict(first.value)
    for inner, node in child.value.items():
        if inner not in combined:
            combined[inner] = node
        elif isinstance(combined[inner].value, dict) and isinstance(node.value, dict):
            combined[inner] = _merge_sections(combined[inner], node, f"{path}.{inner}", diagnostics)
        else:
            diagnostics.append(Diagnostic(
                DEFINED_TWICE, f"`{path}.{inner}` is defined in two files", node.key_span,
                related=(("first defined here", combined[inner].key_span),)))
    return LNode(combined, first.span, first.key_span)


def _yaml_files(folder: str) -> list[str]:
    out = []
    for dirpath, _dirs, files in os.walk(folder):
        for f in files:
            if f.endswith((".yaml", ".yml")):
                out.append(os.path.relpath(os.path.join(dirpath, f), folder))
    return out


def variant_path(folder: str, variant: str) -> str:
    """A variant given to a command: a file anywhere, or a name in the game's ``variants/``."""
    if os.path.isfile(variant):
        return variant
    return named_variant(folder, variant)


def named_variant(folder: str, variant: str) -> str:
    """The file of the variant ``variant`` of the game in ``folder``, or a UsageError naming the known ones."""
    path = os.path.join(folder, "variants", f"{variant}.yaml")
    known = _listed_variants(folder)
    if os.path.lexists(path) or variant in known:
        return display_path(path)     # reading it says what is wrong with it, if anything
    hint = suggestion_help(variant, known)
    raise UsageError(f"no variant `{variant}` (known: {', '.join(known) or 'none'})" + (f"; {hint}" if hint else ""))


def variants_of(name_or_path: str) -> list[str]:
    return _listed_variants(find_game(name_or_path))


def _listed_variants(folder: str) -> list[str]:
    """The names of the ``.yaml`` entries of the game's ``variants/`` (whatever they are)."""
    try:
        return sorted(f[:-5] for f in os.listdir(os.path.join(folder, "variants")) if f.endswith(".yaml"))
    except OSError:
        return []


def load_game(name_or_path: str, variants: tuple | list = ()) -> Game:
    """Load, check and compile a game with optional variant overlays.

    Raises DiagnosticReport for content errors and UsageError for a bad name.
    """
    folder = find_game(name_or_path)
    with parse_cache.game(folder, tuple(variants)), code_cache.game(folder, tuple(variants)), _few_collections():
        return _load_game(folder, variants)


@contextlib.contextmanager
def _few_collections():
    """Loading builds millions of short-lived objects (parse trees, AST nodes, generated
    source) and keeps many: Python's collector, run every 700 allocations, made checking
    grow faster than the content (a 10x longer procedure took 14x the time; with collections
    100 times rarer, 8-9x). Cycles made meanwhile are still collected, later. The setting is
    the process's: the first of loads going on at once (the language server's threads) makes
    it, the last to end puts it back."""
    with _loads["lock"]:
        if _loads["going_on"] == 0:
            _loads["before"] = before = gc.get_threshold()
            gc.set_threshold(max(before[0], 70_000), *before[1:])
        _loads["going_on"] += 1
    try:
        yield
    finally:
        with _loads["lock"]:
            _loads["going_on"] -= 1
            if _loads["going_on"] == 0:
                gc.set_threshold(*_loads["before"])


_loads: dict = {"lock": threading.Lock(), "going_on": 0, "before": None}    # _few_collections


def _load_game(folder: str, variants) -> Game:
    """Every stage runs, whatever the one before it found, on what it could read: a file that
    cannot be read, a variant the schema refuses and a value the schema refuses are left out of
    what the later stages check, so one run reports every mistake (the root file alone, unread,
    stops it)."""
    files: list[str] = []
    early: list[Diagnostic] = []
    tree = load_tree(folder, files, early)
    base = typed_sections(tree, components=bool(variants))
    for variant in variants:
        tree = _with_variant(tree, folder, variant, files, early)
    data, smap = flatten(tree)
    problems, refused = schema.checked(data, smap, "game")
    early += problems
    name = os.path.basename(os.path.abspath(folder))
    game = _build(schema.without(data, refused), smap, base, name, display_path(folder), tuple(variants), early)
    return attrs.evolve(game, files=file_hashes(folder, files))


def _with_variant(tree: LNode, folder: str, variant: str, files: list, early: list) -> LNode:
    """``tree`` with the variant merged over it, strictly (names it changes exist, names it adds
    are new); a variant that cannot be read, or that the schema refuses, is reported and left out."""
    path = variant_path(folder, variant)
    try:
        # a file of the game must stay inside it; a variant file elsewhere is the user's own choice
        overlay = load_yaml(path, within=folder if inside(folder, path, resolve=False) else None)
    except DiagnosticReport as report:
        early += report.diagnostics
        return tree
    files.append(path)
    problems = schema.check(overlay, "variant")
    if problems:
        early += problems
        return tree
    try:
        return apply_overlay(tree, overlay)
    except DiagnosticReport as report:
        early += report.diagnostics
        return tree


def _with_errors(diagnostics: list) -> list:
    """What a game with errors is told: all but an unread parameter (RK0345), which a misspelt read
    (RK0301) says already, and which the code left unbuilt cannot tell; errors first, then
    warnings, each in the order of the files and their lines, whichever stage found them."""
    return sorted((d for d in diagnostics if d.code != UNREAD_PARAMETER), key=_place)


def _place(diagnostic: Diagnostic) -> tuple:
    span = diagnostic.span
    where = (str(span.path), span.line or 0, span.column or 0) if span is not None else ("", 0, 0)
    return diagnostic.severity != "error", *where


def _build(data: dict, smap: SourceMap, base: tuple, name: str, path: str, variants: tuple,
           early: list) -> Game:
    """Build the game, then check the types of its values (see :mod:`typed`); the
    diagnostics of both come out together, after ``early`` (what reading the files and the
    schema found), types last."""
    built, kept = _without_set_annotations(data, smap)
    try:
        game = build_game(built, smap, name, path, variants)
    except DiagnosticReport as report:
        found = [*early, *(_hint_quoted_id(d) for d in report.diagnostics)]
        found += typed.check(data, base, smap, vocab := typed.Vocab(typed.sets_of(data), None))
        found += properties.check(data, base[0].get("components"), smap, vocab)
        found += against_base.check(data, base[0], smap, base[1]) if variants else []
        raise DiagnosticReport(_with_errors(found)) from None
    except Exception:
        if not early:
            raise
        # content the schema refused, left out, left the rest unbuildable: its mistakes say why
        raise DiagnosticReport(_with_errors(early)) from None
    names = game.program.vocab
    vocab = typed.Vocab(game.components.sets, game.components.item_kind, names.prop_reads, frozenset(names.prop_asked))
    problems = typed.check(data, base, smap, vocab) + properties.check(data, base[0].get("components"), smap, vocab)
    problems += against_base.check(data, base[0], smap, base[1]) if variants else []
    if early or [d for d in problems if d.severity == "error"]:
        raise DiagnosticReport(_with_errors([*early, *problems, *game.warnings]))
    return attrs.evolve(game, provenance=(*game.provenance, *kept), warnings=(*game.warnings, *problems))


def typed_sections(tree: LNode, components: bool = True) -> tuple[dict, SourceMap]:
    """The game's own parameters, variables, tables, players and (when variants follow) components
    as plain data with their source map (before variants): the values types are inferred from, the
    declarations a variant keeps. Without variants the merged components are the game's own."""
    out: dict = {}
    smap = SourceMap()
    sections = (("params",), ("vars",), ("player", "vars"), ("tables",), ("players",), ("components",))
    for path in sections[:6 if components else 5]:
        node = tree
        for key in path:
            node = node.value.get(key) if isinstance(node.value, dict) else None
            if node is None:
                break
        if node is not None:
            target = out.setdefault("player", {}) if path[0] == "player" else out
            target[path[-1]] = flatten(node, smap, path)[0]
    return out, smap


def _without_set_annotations(data: dict, smap) -> tuple[dict, list]:
    """The content with the ``text:``/``provenance:``/``ruling:`` of sets in mapping form
    taken out (the builder would take them for members), and the provenance entries they
    carried, for ``rulekit validate --provenance``."""
    sets = data.get("sets")
    if not isinstance(sets, dict):
        return data, []
    clean, kept = {}, []
    for name, spec in sets.items():
        if isinstance(spec, dict) and any(k in spec for k in typed.ANNOTATIONS):
            if "provenance" in spec:
                kept.append((f"sets.{name}", spec["provenance"], spec.get("text", ""),
                             smap.span(("sets", name, "provenance"))))
            spec = {k: v for k, v in spec.items() if k not in typed.ANNOTATIONS}
        clean[name] = spec
    return {**data, "sets": clean}, kept


_QUOTE_HINT = "an item id with `-` is one word only in quotes: write item(\"{0}\") or \"{0}\""


def _hint_quoted_id(diagnostic: Diagnostic) -> Diagnostic:
    """An unknown name that is the start of ``word-word`` in the source is most likely a
    hyphenated item id written bare (``card-7`` reads as ``card - 7``): say so."""
    if diagnostic.code != UNKNOWN_NAME or diagnostic.span is None:
        return diagnostic
    text = source_line(diagnostic.span.path, diagnostic.span.line) or ""
    match = _HYPHENATED.match(text, max(diagnostic.span.column - 1, 0))
    if match is None or (match.start() > 0 and text[match.start() - 1] in _ID_CHARS):
        return diagnostic
    return attrs.evolve(diagnostic, help=_QUOTE_HINT.format(match.group(0)))


def file_hashes(folder: str, paths: list) -> dict:
    """Path (relative to the game's folder, with ``/``) -> short hash of the file's bytes."""
    out = {}
    for path in paths:
        try:
            digest = hashlib.sha256(read_regular(path)).hexdigest()[:16]
        except OSError:   # Refused too: a file swapped for a FIFO since it was read
            continue
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(folder))
        out[rel.replace(os.sep, "/")] = "sha256:" + digest
    return out
