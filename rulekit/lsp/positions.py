# SPDX-License-Identifier: MIT
"""Between rulekit's places (1-based lines and columns in characters) and the protocol's
(0-based lines, columns in UTF-16 code units), and the word under the cursor."""
from __future__ import annotations

import re

import attrs

from ..source import Span

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class Place:
    """A 0-based (line, character) in code points of the line's text."""

    line: int
    column: int


def utf16(text: str, column: int) -> int:
    """The UTF-16 offset of code-point ``column`` (0-based) of a line."""
    head = text[:column]
    return column + sum(1 for ch in head if ord(ch) > 0xFFFF)


def code_point(text: str, offset: int) -> int:
    """The code-point column of UTF-16 ``offset`` in a line."""
    units = 0
    for i, ch in enumerate(text):
        if units >= offset:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def span_bounds(span: Span, line_text) -> tuple[tuple[int, int], tuple[int, int]]:
    """((line, char), (line, char)) 0-based, in UTF-16 units, of a span; a span without an end
    covers the word it starts (or one character). ``line_text(n)`` is 1-based line n's text."""
    start_text = line_text(span.line) or ""
    start = max(span.column - 1, 0)
    if span.end_line is not None and span.end_column is not None:
        end_text = start_text if span.end_line == span.line else (line_text(span.end_line) or "")
        end_line, end = span.end_line, max(span.end_column - 1, 0)
        if end_line == span.line and end <= start:
            end = start + 1
    else:
        match = _WORD.match(start_text, start)
        end_text, end_line = start_text, span.line
        end = match.end() if match else min(start + 1, max(len(start_text), start + 1))
    return ((span.line - 1, utf16(start_text, start)), (end_line - 1, utf16(end_text, end)))


def contains(span: Span, line: int, column: int) -> bool:
    """Whether 1-based (line, column) lies in ``span`` (end exclusive; a one-line span)."""
    if span.line != line or span.end_column is None:
        return False
    return span.column <= column <= span.end_column


@attrs.frozen
class Word:
    """The identifier at a place: its text, 1-based columns, and what stands before it."""

    text: str
    column: int          # 1-based first column
    end: int             # 1-based column just after
    owner: str | None    # ``p`` in ``p.bankd``: the word before a dot, if any
    dotted: bool         # a dot stands right before it
    called: bool         # a ``(`` follows it


def word_at(text: str, column: int) -> Word | None:
    """The identifier of line ``text`` covering 0-based ``column`` (or ending there)."""
    for match in _WORD.finditer(text):
        if match.start() <= column <= match.end():
            return _word(text, match)
    return None


def word_before(text: str, column: int) -> Word:
    """The identifier being typed, ending at 0-based ``column`` (empty when none)."""
    start = column
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    match = _WORD.match(text, start, column) if start < column else None
    if match is None:
        return Word("", column + 1, column + 1, *_before(text, column), False)
    return _word(text, match)


def _word(text: str, match) -> Word:
    owner, dotted = _before(text, match.start())
    called = text[match.end():].lstrip().startswith("(")
    return Word(match.group(), match.start() + 1, match.end() + 1, owner, dotted, called)


def _before(text: str, start: int) -> tuple[str | None, bool]:
    if start > 0 and text[start - 1] == ".":
        owner = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", text[:start - 1])
        return (owner.group(1) if owner else None), True
    return None, False
