# SPDX-License-Identifier: MIT
"""What every part of one build shares: the content and where it was written, the diagnostics so
far (their order is the order the parts run in), and every effect-language text parsed, each parsed
once here (:meth:`Context.parse`)."""
from __future__ import annotations

from ..codes import NOT_EFFECT_TEXT, TOO_MANY_ITEMS
from ..content.loader import SourceMap
from ..dsl import ast, parse_cache
from ..dsl.texts import parse_text
from ..errors import Diagnostic, DiagnosticReport
from ..source import Span
from .texts import OWN_PARAMS, dig, text_place


class Context:
    """One game's build in progress. The parts of the build read the content from it, report on
    it (:meth:`error`) and parse its texts through it (:meth:`parse`); dsl/narrate.py reads
    ``data``, ``smap``, ``path`` and ``diagnostics`` of it too."""

    def __init__(self, data: dict, smap: SourceMap, path: str):
        self.data = data
        self.smap = smap
        self.path = path
        self.diagnostics: list[Diagnostic] = []
        self.read: set = set()        # every name some parsed text of the game reads (RK0345)
        self.texts: dict = {}         # content path -> its effect-language text's tree (Game.texts)
        self.seat_params: dict = {}   # id(a text's tree) -> the names it is given that are a player

    def error(self, code, message, path, help=None, key=False):
        diagnostic = Diagnostic(code, message, self.smap.span(path, key=key), help=help)
        if diagnostic not in self.diagnostics:  # e.g. one bad `start` zone, not one per copy
            self.diagnostics.append(diagnostic)

    def parse(self, path: tuple, kind: str = "script"):
        """The tree of the text at content ``path`` (None after a diagnostic), kept in ``texts``."""
        text = dig(self.data, path)
        origin = self.smap.text(path)
        if not isinstance(text, str):
            self.error(NOT_EFFECT_TEXT, f"expected effect-language text here, got {type(text).__name__}", path)
            return None
        if origin is not None:
            locate = origin.locate
            key = (kind, text, origin)
        else:
            span = self.smap.span(path) or Span(self.path, 1, 1)
            key = (kind, text, span.path, span.line)

            def locate(line, col, el=None, ec=None):
                return Span(span.path, span.line + line - 1, col)
        try:
            tree = parse_cache.parsed(key, lambda: parse_text(text, locate, kind))
        except DiagnosticReport as report:
            self.diagnostics.extend(report.diagnostics)
            return None
        self.read.update(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))
        self.texts[path] = tree
        place = text_place(path)
        if place is not None and place[1] != OWN_PARAMS and place[1]:
            self.seat_params[id(tree)] = frozenset(place[1])    # every name a place gives is a player (`p`)
        return tree


class Budget:
    """A content limit spent as a build goes (the items of all components, the zones of all families)."""

    def __init__(self, limit: int, noun: str):
        self.limit = limit
        self.noun = noun
        self.left = limit

    def spend(self, ctx: Context, count: int, path: tuple, what: str) -> bool:
        """Spend ``count``; False (with a diagnostic) when it is exceeded."""
        if count > self.left:
            ctx.error(TOO_MANY_ITEMS, f"{what}; a game may have at most {self.limit} {self.noun}", path,
                      help="is a number too large?")
            return False
        self.left -= max(count, 0)
        return True


def value(v):
    """Content values: YAML has `null`, the effect language `none`; accept both."""
    if v == "none":
        return None
    if isinstance(v, list):
        return [value(x) for x in v]
    if isinstance(v, dict):
        return {k: value(x) for k, x in v.items()}
    return v
