# SPDX-License-Identifier: MIT
"""YAML content with positions, several files per game, and variant overlays.

We compose YAML (never construct it: no tag can build an object), turn the node
tree into located nodes, merge the files of a game and any variant overlays at the
node level, and only then flatten to plain Python data plus a :class:`SourceMap`
from each JSON path to the span of its key and value. Keeping the map beside the
data, instead of subclassing dict and str, keeps the data plain and cheap.

Overlay semantics (documented in docs/language.md):
- mappings merge key by key; a key set to ``null`` in an overlay removes it;
- lists of mappings that carry ``id`` merge by id: an entry with a new id is
  appended, an entry with a known id is merged into it, ``remove: true`` drops it
  and ``replace: true`` replaces it whole;
- every other value (scalars, plain lists) is replaced.
"""
from __future__ import annotations

import os
from typing import Any

import attrs
import yaml

from .errors import Diagnostic, DiagnosticReport
from .source import Span, register_text, source_line

# libyaml's composer when present (several times faster; same nodes and marks).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000
MAX_DEPTH = 64
_STD_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@attrs.define(slots=True)
class LNode:
    """A located YAML value: ``value`` is a dict of LNode, a list of LNode or a scalar."""

    value: Any
    span: Span
    key_span: Span | None = None
    style: str | None = None       # scalar style: None plain, '|' literal, '>' folded, quotes
    indent: int = 0                # block scalar content indent (0-based column)


@attrs.frozen
class TextOrigin:
    """Where a string scalar's text starts, to map DSL positions back to the file."""

    span: Span
    style: str | None
    indent: int

    def locate(self, line: int, column: int, end_line: int | None = None,
               end_column: int | None = None) -> Span:
        """Map a 1-based (line, column) inside the string to a file span."""
        def one(ln: int, col: int) -> tuple[int, int]:
            if ln == 1 and self.style != "|":
                folded = self._folded(col)
                if folded is not None:
                    return folded
            if self.style in ("|", ">"):
                return self.span.line + ln, self.indent + col
            offset = 1 if self.style in ("'", '"') else 0
            if ln == 1:
                return self.span.line, self.span.column + offset + col - 1
            return self.span.line + ln - 1, col
        start = one(line, column)
        end = one(end_line, end_column) if end_line and end_column else (None, None)
        return Span(self.span.path, start[0], start[1], end[0], end[1])

    def _folded(self, column: int) -> tuple[int, int] | None:
        """File position of a column on the first text line of a folded (``>``), plain or
        quoted scalar. YAML folds the source lines of such a scalar into one line, joined by
        single spaces, so walk the source lines; None where that does not apply."""
        if self.style == ">":
            line, start = self.span.line + 1, self.indent + 1
        else:
            line, start = self.span.line, self.span.column + (1 if self.style in ("'", '"') else 0)
        remaining = column
        while True:
            text = source_line(self.span.path, line)
            if text is None or not text.strip():
                return None
            if line != self.span.line and not (self.style == ">" and line == self.span.line + 1):
                start = len(text) - len(text.lstrip()) + 1   # a continuation line
            segment = text[start - 1:].rstrip()
            if remaining <= len(segment) + 1:
                return line, start + remaining - 1
            remaining -= len(segment) + 1
            line += 1


class SourceMap:
    """JSON path (a tuple of keys and indices) -> spans of the value and its key."""

    def __init__(self) -> None:
        self.values: dict[tuple, Span] = {}
        self.keys: dict[tuple, Span] = {}
        self.texts: dict[tuple, TextOrigin] = {}

    def span(self, path: tuple, key: bool = False) -> Span | None:
        """The nearest known span for ``path`` (walking up to a parent if needed)."""
        path = tuple(path)
        while True:
            if key and path in self.keys:
                return self.keys[path]
            if path in self.values:
                return self.values[path]
            if not path:
                return None
            path = path[:-1]

    def text(self, path: tuple) -> TextOrigin | None:
        return self.texts.get(tuple(path))


def _span(path: str, mark, end=None) -> Span:
    if end is not None and end.line == mark.line:
        return Span(path, mark.line + 1, mark.column + 1, end.line + 1, end.column + 1)
    return Span(path, mark.line + 1, mark.column + 1)


class _Builder:
    def __init__(self, path: str, text: str, diagnostics: list[Diagnostic]):
        self.path = path
        self.lines = text.splitlines()
        self.diagnostics = diagnostics
        self.count = 0

    def build(self, node, depth: int = 0) -> LNode | None:
        self.count += 1
        if self.count > MAX_NODES:
            raise _TooBig(_span(self.path, node.start_mark))
        if depth > MAX_DEPTH:
            raise _TooDeep(_span(self.path, node.start_mark))
        span = _span(self.path, node.start_mark, node.end_mark)
        if node.tag not in _STD_TAGS and not (
                isinstance(node, yaml.ScalarNode) and node.tag.startswith("tag:yaml.org,2002:")
                and not node.tag.startswith("tag:yaml.org,2002:python/")):
            self.diagnostics.append(Diagnostic(
                "RK0104", f"tag `{node.tag}` is not allowed in content", span,
                help="remove the tag; content is plain YAML (strings, numbers, lists, mappings)"))
            return LNode(None, span)
        if isinstance(node, yaml.MappingNode):
            out: dict[str, LNode] = {}
            first: dict[str, Span] = {}
            for key_node, value_node in node.value:
                key_span = _span(self.path, key_node.start_mark, key_node.end_mark)
                if not isinstance(key_node, yaml.ScalarNode):
                    self.diagnostics.append(Diagnostic("RK0103", "mapping keys must be plain names", key_span))
                    continue
                if key_node.tag == "tag:yaml.org,2002:merge" or key_node.value == "<<":
                    self.diagnostics.append(Diagnostic(
                        "RK0105", "YAML merge keys (`<<`) are not supported", key_span,
                        help="write the keys out, or use a variant overlay"))
                    continue
                key = key_node.value
                if key in first:
                    self.diagnostics.append(Diagnostic(
                        "RK0102", f"duplicate key `{key}`", key_span,
                        related=(("first defined here", first[key]),),
                        help="each key may appear once in a mapping; remove or rename one")) 
                    continue
                first[key] = key_span
                child = self.build(value_node, depth + 1)
                if child is not None:
                    child.key_span = key_span
                    out[key] = child
            return LNode(out, span)
        if isinstance(node, yaml.SequenceNode):
            items = [self.build(item, depth + 1) for item in node.value]
            return LNode([i for i in items if i is not None], span)
        return self.scalar(node, span)

    def scalar(self, node, span: Span) -> LNode:
        style = node.style or None  # libyaml says "" for plain scalars, PyYAML None
        indent = 0
        if style in ("|", ">"):
            # The block's content starts on the next non-empty line; its indent is
            # the column where that line's text begins.
            for line in self.lines[node.start_mark.line + 1:]:
                if line.strip():
                    indent = len(line) - len(line.lstrip(" "))
                    break
        value = _resolve_scalar(node)
        return LNode(value, span, style=style, indent=indent)


def _resolve_scalar(node) -> Any:
    tag = node.tag
    text = node.value
    if tag == "tag:yaml.org,2002:str" or node.style:
        return text
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return text.lower() in ("true", "yes", "on")
    if tag == "tag:yaml.org,2002:int":
        try:
            return int(text.replace("_", ""), 0)
        except ValueError:
            return text
    if tag == "tag:yaml.org,2002:float":
        try:
            return float(text.replace("_", ""))
        except ValueError:
            return text
    return text


class _TooBig(Exception):
    def __init__(self, span):
        self.span = span


class _TooDeep(Exception):
    def __init__(self, span):
        self.span = span


def read_text(path: str) -> str:
    """Read a content file as UTF-8, turning every I/O problem into a diagnostic."""
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise DiagnosticReport([Diagnostic("RK0100", f"cannot read `{path}`: {exc.strerror or exc}",
                                           Span(path, 1, 1))]) from None
    if size > MAX_FILE_BYTES:
        raise DiagnosticReport([Diagnostic(
            "RK0106", f"file is too large ({size} bytes; the limit is {MAX_FILE_BYTES})", Span(path, 1, 1))])
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise DiagnosticReport([Diagnostic("RK0100", f"cannot read `{path}`: {exc.strerror or exc}",
                                           Span(path, 1, 1))]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DiagnosticReport([Diagnostic(
            "RK0107", "file is not valid UTF-8", Span(path, line, 1),
            help="save the file as UTF-8")]) from None
    return text


def load_yaml(path: str, text: str | None = None) -> LNode:
    """Parse one YAML file into located nodes; every problem becomes a diagnostic."""
    if text is None:
        text = read_text(path)
    register_text(path, text)
    diagnostics: list[Diagnostic] = []
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = _span(path, mark) if mark else Span(path, 1, 1)
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        helptext = None
        if "\t" in text and ("tab" in problem or "found character" in problem):
            helptext = "YAML indentation must use spaces, not tabs"
        raise DiagnosticReport([Diagnostic("RK0101", f"invalid YAML: {problem}", span, help=helptext)]) from None
    except yaml.YAMLError as exc:
        raise DiagnosticReport([Diagnostic("RK0101", f"invalid YAML: {exc}", Span(path, 1, 1))]) from None
    except RecursionError:
        raise DiagnosticReport([Diagnostic("RK0108", "YAML nesting is too deep", Span(path, 1, 1))]) from None
    if node is None:
        raise DiagnosticReport([Diagnostic("RK0109", "file is empty", Span(path, 1, 1),
                                           help="a content file holds a YAML mapping")])
    builder = _Builder(path, text, diagnostics)
    try:
        root = builder.build(node)
    except _TooBig as exc:
        raise DiagnosticReport([Diagnostic(
            "RK0106", f"file expands to more than {MAX_NODES} values (aliases?)", exc.span,
            help="avoid anchors and aliases that multiply content")]) from None
    except _TooDeep as exc:
        raise DiagnosticReport([Diagnostic(
            "RK0108", f"nesting deeper than {MAX_DEPTH} levels", exc.span)]) from None
    if diagnostics:
        raise DiagnosticReport(diagnostics)
    return root


# --------------------------------------------------------------------------- merge

def merge(base: LNode, overlay: LNode) -> LNode:
    """Merge an overlay into base (see the module docstring); returns a new tree."""
    if isinstance(base.value, dict) and isinstance(overlay.value, dict):
        out = dict(base.value)
        for key, child in overlay.value.items():
            if child.value is None:
                out.pop(key, None)
            elif key in out:
                merged = merge(out[key], child)
                merged.key_span = out[key].key_span
                out[key] = merged
            else:
                out[key] = child
        return LNode(out, base.span, base.key_span)
    if isinstance(base.value, list) and isinstance(overlay.value, list) and _keyed(base) and _keyed(overlay):
        out_list = list(base.value)
        index = {item.value["id"].value: i for i, item in enumerate(out_list)}
        for item in overlay.value:
            ident = item.value["id"].value
            flags = {k: bool(item.value[k].value) for k in ("remove", "replace") if k in item.value}
            if flags.get("remove"):
                if ident in index:
                    out_list[index[ident]] = None
                continue
            if ident in index and not flags.get("replace"):
                out_list[index[ident]] = merge(out_list[index[ident]], item)
            else:
                clean = LNode({k: v for k, v in item.value.items() if k != "replace"}, item.span, item.key_span)
                if ident in index:
                    out_list[index[ident]] = clean
                else:
                    index[ident] = len(out_list)
                    out_list.append(clean)
        return LNode([i for i in out_list if i is not None], base.span, base.key_span)
    return overlay


def _keyed(node: LNode) -> bool:
    return all(isinstance(i.value, dict) and "id" in i.value and isinstance(i.value["id"].value, str)
               for i in node.value)


def flatten(node: LNode, smap: SourceMap | None = None, path: tuple = ()) -> tuple[Any, SourceMap]:
    """Plain data plus the source map for every path."""
    if smap is None:
        smap = SourceMap()
    smap.values[path] = node.span
    if node.key_span is not None:
        smap.keys[path] = node.key_span
    value = node.value
    if isinstance(value, dict):
        return {k: flatten(v, smap, path + (k,))[0] for k, v in value.items()}, smap
    if isinstance(value, list):
        return [flatten(v, smap, path + (i,))[0] for i, v in enumerate(value)], smap
    if isinstance(value, str):
        smap.texts[path] = TextOrigin(node.span, node.style, node.indent)
    return value, smap
