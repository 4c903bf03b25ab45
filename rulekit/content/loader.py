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
  and ``replace: true`` replaces it whole; ``before: ID`` / ``after: ID`` place
  the entry (a new one, or move a known one);
- every other value (scalars, plain lists) is replaced.

A variant's ``add:`` section merges with ``adding=True``: there ``null`` is content (a zone
with its defaults), as in a game's file. Which names may be changed or added is
:mod:`overlay`'s business; this module only merges.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import sys
from typing import Any

import attrs
import yaml

from ..codes import (
    DUPLICATE_KEY,
    EMPTY_FILE,
    FILE_TOO_LARGE,
    INVALID_YAML,
    KEY_NOT_A_NAME,
    LINK_OUTSIDE_GAME,
    NOT_A_REGULAR_FILE,
    NOT_UTF8,
    NUMBER_TOO_LONG_IN_YAML,
    UNKNOWN_IN_DRAWING_HINT,
    UNREADABLE_FILE,
    VARIANT_BAD_POSITION,
    YAML_MERGE_KEY,
    YAML_TAG,
    YAML_TOO_DEEP,
)
from ..errors import Diagnostic, DiagnosticReport, suggestion_help
from ..limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_LOGGED_ACTIONS, MAX_NODES
from ..limits import YAML_DEPTH as MAX_DEPTH
from ..source import Refused, Span, open_regular, register_text, source_line, withhold

# libyaml's composer when present (several times faster; same nodes and marks).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
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
    raw: str | None = None         # source of a flow scalar whose lines or escapes differ from its value


@attrs.frozen
class TextOrigin:
    """Where a string scalar's text starts, to map DSL positions back to the file."""

    span: Span
    style: str | None
    indent: int
    raw: str | None = None
    value: str | None = None

    def locate(self, line: int, column: int, end_line: int | None = None,
               end_column: int | None = None) -> Span:
        """Map a 1-based (line, column) inside the string to a file span."""
        def one(ln: int, col: int) -> tuple[int, int]:
            if self.raw is not None and self.value is not None:
                return self._scanned(ln, col)
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

    def _scanned(self, line: int, column: int) -> tuple[int, int]:
        """File position of a (line, column) of a plain or quoted scalar's value, by
        re-reading its source: escapes decoded, line breaks folded."""
        positions, end = _flow_positions(self.raw, self.style, self.span.line, self.span.column)
        lines = self.value.split("\n")
        offset = sum(len(text) + 1 for text in lines[:line - 1]) + max(column, 1) - 1
        return positions[offset] if 0 <= offset < len(positions) else end

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


_ESCAPED_HEX = {"x": 2, "u": 4, "U": 8}


@functools.lru_cache(maxsize=128)
def _flow_positions(raw: str, style: str | None, line: int, column: int) -> tuple[tuple, tuple[int, int]]:
    """The file position (line, column) of every character of a flow scalar's value
    (plain, 'single' or "double" quoted, ``raw`` being its source from ``line:column``),
    and the position just after it. Escapes are decoded and line breaks folded as YAML
    does; where this reading and YAML's differ, positions stay inside the scalar."""
    where = []
    ln, col = line, column
    for ch in raw:
        where.append((ln, col))
        ln, col = (ln + 1, 1) if ch == "\n" else (ln, col + 1)
    where.append((ln, col))
    quoted = style in ("'", '"')
    i, end = (1, len(raw) - 1) if quoted else (0, len(raw))
    end = max(end, i)
    out = []
    while i < end:
        ch = raw[i]
        if style == '"' and ch == "\\" and i + 1 < end:
            escape = raw[i + 1]
            if escape in "\r\n":            # an escaped line break joins the lines
                i += 2
                while i < end and raw[i] in " \t\r\n":
                    i += 1
                continue
            out.append(where[i])
            i += 2 + _ESCAPED_HEX.get(escape, 0)
            continue
        if style == "'" and ch == "'" and raw[i + 1:i + 2] == "'":
            out.append(where[i])
            i += 2
            continue
        if ch in " \t\r\n":
            j = i
            while j < end and raw[j] in " \t\r\n":
                j += 1
            run = raw[i:j]
            breaks = run.count("\n") + run.replace("\r\n", "").count("\r")
            if not breaks:
                out.extend(where[i:j])
            elif breaks == 1:                # folded into one space
                out.append(where[i])
            else:                            # each empty line is a newline
                starts = [k + 1 for k in range(i, j) if raw[k] == "\n"]
                out.extend(where[k] for k in starts[:breaks - 1])
            i = j
            continue
        out.append(where[i])
        i += 1
    return tuple(out), where[end] if end < len(where) else where[-1]


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
    def __init__(self, path: str, text: str, diagnostics: list[Diagnostic], limit: int = MAX_NODES):
        self.path = path
        self.text = text
        self.lines = text.splitlines()
        self.diagnostics = diagnostics
        self.count = 0
        self.limit = limit          # how many values the file may hold (:func:`_prescan`)

    def build(self, node, depth: int = 0) -> LNode | None:
        self.count += 1
        if self.count > self.limit:
            raise _TooBig(_span(self.path, node.start_mark), self.limit)
        if depth > MAX_DEPTH:
            raise _TooDeep(_span(self.path, node.start_mark))
        span = _span(self.path, node.start_mark, node.end_mark)
        if node.tag not in _STD_TAGS and not (
                isinstance(node, yaml.ScalarNode) and node.tag.startswith("tag:yaml.org,2002:")
                and not node.tag.startswith("tag:yaml.org,2002:python/")):
            self.diagnostics.append(Diagnostic(
                YAML_TAG, f"tag `{brief(node.tag)}` is not allowed in content", span,
                help="remove the tag; content is plain YAML (strings, numbers, lists, mappings)"))
            return LNode(None, span)
        if isinstance(node, yaml.MappingNode):
            out: dict[str, LNode] = {}
            first: dict[str, Span] = {}
            for key_node, value_node in node.value:
                key_span = _span(self.path, key_node.start_mark, key_node.end_mark)
                if not isinstance(key_node, yaml.ScalarNode):
                    self.diagnostics.append(Diagnostic(KEY_NOT_A_NAME, "mapping keys must be plain names", key_span))
                    continue
                if key_node.tag == "tag:yaml.org,2002:merge" or key_node.value == "<<":
                    self.diagnostics.append(Diagnostic(
                        YAML_MERGE_KEY, "YAML merge keys (`<<`) are not supported", key_span,
                        help="write the keys out, or use a variant overlay"))
                    continue
                key = key_node.value
                if key in first:
                    self.diagnostics.append(Diagnostic(
                        DUPLICATE_KEY, f"duplicate key `{key}`", key_span,
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
        if node.tag == "tag:yaml.org,2002:int" and not style and len(node.value) > MAX_DIGITS:
            written = node.value.lstrip("+-").replace("_", "")
            digits = len(written) - 2 * (written[:2].lower() in ("0x", "0o", "0b"))
            if digits > MAX_DIGITS:     # Python reads no more than 4,300; no rule needs a tenth of them
                self.diagnostics.append(Diagnostic(
                    NUMBER_TOO_LONG_IN_YAML,
                    f"a number of {digits:,} digits is too long to write (at most {MAX_DIGITS:,})",
                    span, help="no game needs such a number; quote it if it is meant as text"))
                return LNode(None, span)
        value = _resolve_scalar(node)
        raw = None
        if style not in ("|", ">") and isinstance(value, str):
            source = self.text[node.start_mark.index:node.end_mark.index]
            if "\n" in source or "\r" in source or "\\" in source or "''" in source:
                raw = source
        return LNode(value, span, style=style, indent=indent, raw=raw)


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


def _prescan(path: str, text: str) -> int:
    """Refuse deep nesting and alias bombs from the event stream, before composing:
    libyaml's composer recurses in C (a few ten thousand ``[`` crash the process), and
    a few lines of anchors and aliases can stand for billions of values. Values are
    counted the way :class:`_Builder` counts them (mapping keys do not count).

    Returns how many values the file may hold: MAX_NODES, and for a log as many more as
    the actions it declares (its closing ``action_count``) and lists written out, so a log
    rulekit wrote replays however long it is; a count declared without the actions lifts
    nothing, and no count lifts the limit past what MAX_FILE_BYTES could list."""
    sizes: dict[str, int] = {}        # anchor -> how many values it stands for
    stack: list[list] = []            # per open collection: [values, anchor, is_map, children, in_key]
    total = 0
    declared = _declared_actions(text)
    limit = MAX_NODES + declared      # while reading: the most the file could still prove it needs
    log = _LogShape() if declared else None
    over = None                       # where the values first passed MAX_NODES
    for event in yaml.parse(text, Loader=_LOADER):
        if log is not None:
            log.see(event, stack)
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            in_key = _is_key(stack) or bool(stack and stack[-1][4])
            stack.append([1, event.anchor, isinstance(event, yaml.MappingStartEvent), 0, in_key])
            if len(stack) > MAX_DEPTH:
                raise _TooDeep(_span(path, event.start_mark))
            total += not in_key
            continue
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            count, anchor, _, _, _ = stack.pop()
            key = _is_key(stack)
        elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            alias = isinstance(event, yaml.AliasEvent)
            count, anchor = (sizes.get(event.anchor, 1), None) if alias else (1, event.anchor)
            key = _is_key(stack)
            if not (key or (stack and stack[-1][4])):
                total += count
        else:
            continue
        if anchor is not None:
            sizes[anchor] = count
        if stack:
            stack[-1][3] += 1
            if not key:
                stack[-1][0] += count
        if total > MAX_NODES:
            over = over or _span(path, event.start_mark)
            if total > limit:
                raise _TooBig(over, limit)
    allowed = MAX_NODES + (log.proven(declared) if log is not None else 0)
    if total > allowed:
        raise _TooBig(over, allowed)
    return allowed


def _declared_actions(text: str) -> int:
    """The count on a log's closing line (``action_count: N``, as :func:`write_log` ends a
    log), at most MAX_LOGGED_ACTIONS; 0 for any other file."""
    tail = text[-64:].rstrip()
    _, newline, line = tail.rpartition("\n")
    name, colon, number = line.partition(":")
    number = number.strip()
    if (newline or len(tail) == len(text.rstrip())) and name == "action_count" and colon \
            and number.isascii() and number.isdigit() and len(number) <= 12:
        return min(int(number), MAX_LOGGED_ACTIONS)
    return 0


class _LogShape:
    """What a log's event stream proves of its size: the ``actions`` of its top-level
    mapping written out (plain entries, not aliases) and its top-level ``action_count``."""

    def __init__(self) -> None:
        self.key = None             # the top-level key whose value comes next
        self.in_actions = False     # inside the top-level `actions` list
        self.listed = 0
        self.count = 0

    def see(self, event, stack: list) -> None:
        """One event, seen before :func:`_prescan` opens or closes a collection for it."""
        depth = len(stack)
        if depth == 2 and self.in_actions:
            if isinstance(event, yaml.ScalarEvent):
                self.listed += 1
            elif isinstance(event, yaml.SequenceEndEvent):
                self.in_actions = False
        elif depth == 1 and stack[0][2]:
            if _is_key(stack):
                self.key = event.value if isinstance(event, yaml.ScalarEvent) else None
            elif self.key == "actions":
                self.in_actions = isinstance(event, yaml.SequenceStartEvent)
            elif self.key == "action_count" and isinstance(event, yaml.ScalarEvent) and not event.style:
                value = event.value
                self.count = int(value) if value.isascii() and value.isdigit() and len(value) <= 12 else 0

    def proven(self, declared: int) -> int:
        """The actions that lift the limit: declared, counted and listed alike."""
        return min(declared, self.count, self.listed)


def _is_key(stack: list) -> bool:
    """Whether the next node of the innermost open collection is a mapping key."""
    return bool(stack) and stack[-1][2] and stack[-1][3] % 2 == 0


def _too_big(span: Span, limit: int = MAX_NODES) -> Diagnostic:
    return Diagnostic(FILE_TOO_LARGE, f"file expands to more than {limit} values (aliases?)", span,
                      help="avoid anchors and aliases that multiply content")


class _TooBig(Exception):
    def __init__(self, span, limit: int = MAX_NODES):
        self.span = span
        self.limit = limit


class _TooDeep(Exception):
    def __init__(self, span):
        self.span = span


_BUFFERS: contextvars.ContextVar = contextvars.ContextVar("rulekit_buffers", default=None)


@contextlib.contextmanager
def buffers(texts: dict):
    """Read the files in ``texts`` (real path -> text: an editor's unsaved buffers) from there
    instead of the disk, in this thread, inside the block (rulekit/lsp)."""
    token = _BUFFERS.set(texts)
    try:
        yield
    finally:
        _BUFFERS.reset(token)


def read_text(path: str, within: str | None = None) -> str:
    """Read a content file as UTF-8, turning every I/O problem into a diagnostic. Only a
    regular file is read (with ``within``, one inside that folder once links are resolved):
    anything else is refused by name, unread and never quoted (RK0114, RK0115)."""
    texts = _BUFFERS.get()
    if texts is not None:
        text = texts.get(os.path.realpath(os.path.abspath(path)))
        if text is not None:
            return text
    try:
        handle, size = open_regular(path, within)
    except Refused as exc:
        raise DiagnosticReport([_refused(path, exc, within)]) from None
    except OSError as exc:
        raise DiagnosticReport([Diagnostic(UNREADABLE_FILE, f"cannot read `{path}`: {exc.strerror or exc}",
                                           Span(path, 1, 1))]) from None
    with handle:
        if size > MAX_FILE_BYTES:
            raise DiagnosticReport([Diagnostic(
                FILE_TOO_LARGE, f"file is too large ({size} bytes; the limit is {MAX_FILE_BYTES})", Span(path, 1, 1))])
        try:
            raw = handle.read(size)
        except OSError as exc:
            raise DiagnosticReport([Diagnostic(UNREADABLE_FILE, f"cannot read `{path}`: {exc.strerror or exc}",
                                               Span(path, 1, 1))]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DiagnosticReport([Diagnostic(
            NOT_UTF8, "file is not valid UTF-8", Span(path, line, 1),
            help="save the file as UTF-8")]) from None
    return text


BRIEF = 80     # characters of a word from a file a message quotes (the excerpt shows the line)


def brief(text: str) -> str:
    """``text`` cut to ``BRIEF`` characters, marked ``...`` where cut: a message quoting a tag
    or a parser's complaint from a file that is one huge line must not print all of it."""
    return text if len(text) <= BRIEF else text[:BRIEF] + "..."


def _refused(path: str, exc: Refused, within: str | None) -> Diagnostic:
    """The diagnostic for a file refused unread; it is named, never quoted."""
    withhold(path)
    where = "inside the game's folder" if within is not None else ""
    return Diagnostic(LINK_OUTSIDE_GAME if exc.outside else NOT_A_REGULAR_FILE,
                      f"`{path}` is not read: it is {exc.problem}",
                      Span(path, 1, 1), help=f"content is read from regular files {where}".rstrip())


def load_yaml(path: str, text: str | None = None, within: str | None = None) -> LNode:
    """Parse one YAML file into located nodes; every problem becomes a diagnostic
    (``within``: the game folder the file must lie in, see :func:`read_text`)."""
    if text is None:
        text = read_text(path, within)
    register_text(path, text)
    diagnostics: list[Diagnostic] = []
    try:
        limit = _prescan(path, text)
        node = yaml.compose(text, Loader=_LOADER)
    except _TooDeep as exc:
        raise DiagnosticReport([Diagnostic(
            YAML_TOO_DEEP, f"nesting deeper than {MAX_DEPTH} levels", exc.span)]) from None
    except _TooBig as exc:
        raise DiagnosticReport([_too_big(exc.span, exc.limit)]) from None
    except yaml.reader.ReaderError as exc:
        # a character YAML does not allow (NUL, most control characters)
        char = exc.character if isinstance(exc.character, str) else chr(exc.character or 0)
        at = text.find(char)    # the first one (libyaml counts its position in bytes)
        at = at if at >= 0 else min(exc.position or 0, len(text))
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise DiagnosticReport([Diagnostic(
            INVALID_YAML, f"invalid YAML: the character U+{ord(char):04X} is not allowed", Span(path, line, column),
            help="remove it; YAML files may not hold control characters")]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = _span(path, mark) if mark else Span(path, 1, 1)
        problem = brief((exc.problem or exc.context or "invalid YAML").strip())
        helptext = None
        if "\t" in text and ("tab" in problem or "found character" in problem):
            helptext = "YAML indentation must use spaces, not tabs"
        if "nesting depth" in problem:  # libyaml's own limit, hit before ours
            raise DiagnosticReport([Diagnostic(
                YAML_TOO_DEEP, f"nesting deeper than libyaml allows ({problem})", span)]) from None
        raise DiagnosticReport([Diagnostic(INVALID_YAML, f"invalid YAML: {problem}", span, help=helptext)]) from None
    except yaml.YAMLError as exc:
        raise DiagnosticReport([Diagnostic(INVALID_YAML, f"invalid YAML: {brief(str(exc))}", Span(path, 1,
                                                                                                  1))]) from None
    except RecursionError:
        raise DiagnosticReport([Diagnostic(YAML_TOO_DEEP, "YAML nesting is too deep", Span(path, 1, 1))]) from None
    if node is None:
        raise DiagnosticReport([Diagnostic(EMPTY_FILE, "file is empty", Span(path, 1, 1),
                                           help="a content file holds a YAML mapping")])
    builder = _Builder(path, text, diagnostics, limit)
    try:
        root = builder.build(node)
    except _TooBig as exc:
        raise DiagnosticReport([_too_big(exc.span, exc.limit)]) from None
    except _TooDeep as exc:
        raise DiagnosticReport([Diagnostic(
            YAML_TOO_DEEP, f"nesting deeper than {MAX_DEPTH} levels", exc.span)]) from None
    if diagnostics:
        raise DiagnosticReport(diagnostics)
    return root


# --------------------------------------------------------------------------- merge

ENTRY_FLAGS = ("remove", "replace", "before", "after")     # words of a merge in an entry of an id-keyed list


def merge(base: LNode, overlay: LNode, problems: list | None = None, adding: bool = False) -> LNode:
    """Merge an overlay into base (see the module docstring); returns a new tree. A placement
    (``before:``/``after:``) naming no entry is reported in ``problems`` (RK0133)."""
    if isinstance(base.value, dict) and isinstance(overlay.value, dict):
        out = dict(base.value)
        for key, child in overlay.value.items():
            if child.value is None and not adding:
                out.pop(key, None)
            elif key in out:
                merged = merge(out[key], child, problems, adding)
                merged.key_span = out[key].key_span
                out[key] = merged
            else:
                out[key] = _fresh(child, problems) if adding else child
        return LNode(out, base.span, base.key_span)
    if keyed_pair(base, overlay):
        return _merge_keyed(base, overlay, problems, adding)
    return _fresh(overlay, problems) if adding else overlay


def _fresh(node: LNode, problems: list | None) -> LNode:
    """A new part of an ``add:`` section, its id-keyed lists placed and cleared of merge words."""
    if isinstance(node.value, dict) or _keyed(node):
        empty = LNode({} if isinstance(node.value, dict) else [], node.span, node.key_span)
        return merge(empty, node, problems, adding=True)
    if isinstance(node.value, list):    # a plain list (`params: [p, k]`): each entry new in its turn
        return LNode([_fresh(entry, problems) for entry in node.value], node.span, node.key_span)
    return node


def _merge_keyed(base: LNode, overlay: LNode, problems: list | None, adding: bool) -> LNode:
    """Entries merged by ``id``, in the base's order; new ones appended or placed."""
    out = list(base.value)
    for item in overlay.value:
        ident = item.value["id"].value
        at = _position(out, ident)
        if _flag(item, "remove"):
            if at is not None:
                del out[at]
            continue
        clean = LNode({k: v for k, v in item.value.items() if k not in ENTRY_FLAGS}, item.span, item.key_span)
        if at is not None and not _flag(item, "replace"):
            entry = merge(out[at], clean, problems, adding)
        else:
            entry = _fresh(clean, problems) if adding else clean
        placed = _placement(item)
        if at is not None and placed is None:
            out[at] = entry
            continue
        if at is not None:
            del out[at]
        out.insert(_place(out, item, placed, problems), entry)
    return LNode(out, base.span, base.key_span)


def _flag(item: LNode, key: str) -> bool:
    return key in item.value and bool(item.value[key].value)


def _placement(item: LNode) -> str | None:
    """``before`` or ``after`` when the entry says where it goes (one of them: the overlay's
    checks report both)."""
    return next((k for k in ("before", "after") if k in item.value), None)


def _position(entries: list, ident) -> int | None:
    return next((i for i, e in enumerate(entries) if e.value["id"].value == ident), None)


def _place(entries: list, item: LNode, placed: str | None, problems: list | None) -> int:
    """Where ``item`` goes in ``entries``: beside the entry its ``before:``/``after:`` names,
    else at the end (a name of no entry is RK0133)."""
    if placed is None:
        return len(entries)
    target = item.value[placed]
    at = _position(entries, target.value)
    if at is not None:
        return at + (placed == "after")
    if problems is not None:
        ids = [str(e.value["id"].value) for e in entries]
        problems.append(Diagnostic(
            VARIANT_BAD_POSITION,
            f"`{placed}: {'null' if target.value is None else brief(str(target.value))}` names no entry of this list",
            target.span,
            help=suggestion_help(str(target.value), ids) or (f"entries: {', '.join(ids)}" if ids else None)))
    return len(entries)


def keyed_pair(base: LNode, overlay: LNode) -> bool:
    """Whether ``overlay`` merges into ``base`` entry by entry: both lists of mappings with a text ``id``."""
    return _keyed(base) and _keyed(overlay)


def _keyed(node: LNode) -> bool:
    return isinstance(node.value, list) and all(
        isinstance(i.value, dict) and "id" in i.value and isinstance(i.value["id"].value, str) for i in node.value)


def flatten(node: LNode, smap: SourceMap | None = None, path: tuple = ()) -> tuple[Any, SourceMap]:
    """Plain data plus the source map for every path."""
    if smap is None:
        smap = SourceMap()
    smap.values[path] = node.span
    if node.key_span is not None:
        smap.keys[path] = node.key_span
    value = node.value
    if isinstance(value, dict):
        return {_interned(k): flatten(v, smap, path + (k,))[0] for k, v in value.items()}, smap
    if isinstance(value, list):
        return [flatten(v, smap, path + (i,))[0] for i, v in enumerate(value)], smap
    if isinstance(value, str):
        value = _interned(value)
        smap.texts[path] = TextOrigin(node.span, node.style, node.indent, node.raw,
                                      value if node.raw is not None else None)
    return value, smap


def _interned(value):
    """Content's words as Python's one copy of each: a running game compares them (``x.kind
    == k``) and looks them up (``ITEMS[x]``) constantly, and two equal words that are one
    object are told equal at the identity check, without comparing their characters."""
    return sys.intern(value) if value.__class__ is str else value


# -- drawing hints ------------------------------------------------------------------------
def layout_problems(data: dict, smap: SourceMap) -> list[Diagnostic]:
    """Names in drawing hints (``render:``, a zone's ``layout:``) that the game does not define
    (RK0125), each at its place: a misspelt hint would otherwise silently draw nothing."""
    from ..errors import suggestion_help
    out: list[Diagnostic] = []

    def unknown(path: tuple, what: str, name, known, of: str = "") -> None:
        if name not in known:
            out.append(Diagnostic(UNKNOWN_IN_DRAWING_HINT, f"unknown {what} `{name}`{of} in a drawing hint",
                                  smap.span(path),
                                  help=suggestion_help(str(name), [str(k) for k in known])))
    _check_render_hints(data, unknown)
    _check_pawn_hints(data, unknown)
    _check_board_hints(data, unknown)
    return out


def _check_render_hints(data: dict, unknown) -> None:
    """``render:``: the zones it hides or orders, the kinds and properties it labels and colours by."""
    zones = set(data.get("zones") or {}) | set((data.get("player") or {}).get("zones") or {}) | {"box"}
    components = data.get("components") or {}
    render = data.get("render") or {}
    for key in ("hide", "order"):
        for i, name in enumerate(render.get(key) or ()):
            unknown(("render", key, i), "zone", name, zones)
    for key in ("label", "color_by", "player_color_by"):
        for kind, prop in (render.get(key) or {}).items():
            unknown(("render", key, kind), "component kind", kind, set(components))
            if kind in components and "{" not in str(prop):
                unknown(("render", key, kind), "property", prop, _kind_props(components[kind]), f" of `{kind}`")


def _check_pawn_hints(data: dict, unknown) -> None:
    """A zone's ``layout: {pawns: ...}``: the variables that place pawns on its spaces."""
    player = data.get("player") or {}
    variables = set(data.get("vars") or ()) | set(player.get("vars") or ()) | {"round"}
    for section, specs in ((("zones",), dict(data.get("zones") or {})), (("player", "zones"),
                                                                          dict(player.get("zones") or {}))):
        for name, spec in specs.items():
            pawns = ((spec or {}).get("layout") or {}).get("pawns") if isinstance(spec, dict) else None
            names = [pawns] if isinstance(pawns, str) else list(pawns or ())
            for var in names:
                where = section + (name, "layout", "pawns") + ((var,) if isinstance(pawns, dict) else ())
                unknown(where, "variable", var, variables)


def _check_board_hints(data: dict, unknown) -> None:
    """A single zone drawn as a grid (``layout: {type: grid, row: P, col: Q}``): P and Q are
    properties some component kind's items carry."""
    props = set()
    for spec in (data.get("components") or {}).values():
        props |= _kind_props(spec)
    player = data.get("player") or {}
    for section, specs in ((("zones",), dict(data.get("zones") or {})), (("player", "zones"),
                                                                          dict(player.get("zones") or {}))):
        for name, spec in specs.items():
            layout = (spec or {}).get("layout") if isinstance(spec, dict) else None
            if not isinstance(layout, dict) or layout.get("type") != "grid" or "keys" in spec or "range" in spec:
                continue
            for key in ("row", "col"):
                if key in layout:
                    unknown(section + (name, "layout", key), "property", layout[key], props)


def _kind_props(spec) -> set:
    """The properties a component kind's items may carry: props, generated keys, state, per-item keys."""
    if not isinstance(spec, dict):
        return set()
    props = set(spec.get("props") or ()) | set(spec.get("generate") or ()) | set(spec.get("state") or ())
    props |= set(spec.get("properties") or ())
    for item in spec.get("items") or ():
        if isinstance(item, dict):
            props |= set(item) - {"id"}
    return props
