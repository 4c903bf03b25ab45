# SPDX-License-Identifier: MIT
"""Source files and spans.

Every value rulekit reads keeps the place it came from, so that any later stage
(schema check, DSL parser, type checker, even a run-time content error) can point
the author at ``file:line:col``. Lines and columns are 1-based everywhere.
"""
from __future__ import annotations

import os

import attrs


@attrs.frozen
class Span:
    """A region of a source file (1-based, end inclusive of the last column)."""

    path: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, line: int, column: int, end_line: int | None = None,
                end_column: int | None = None) -> Span:
        return Span(self.path, line, column, end_line, end_column)


_TEXTS: dict[str, list[str]] = {}
_READ_WHOLE = 1 << 20          # a file larger than this is read only up to the line quoted
MAX_LINE_READ = 1 << 16        # characters of one line read to quote it


def register_text(path: str, text: str) -> None:
    """Remember a file's text so diagnostics can quote it with a caret."""
    _TEXTS[path] = text.splitlines()


def source_line(path: str, line: int) -> str | None:
    """Line ``line`` of a file, to quote. A large file is not read whole for it (a 1 GB
    file refused for its size is quoted from its first line), and at most
    ``MAX_LINE_READ`` characters of one line are read."""
    lines = _TEXTS.get(path)
    if lines is None:
        try:
            if os.path.getsize(path) > _READ_WHOLE:
                return _streamed_line(path, line)
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError):
            return None
        _TEXTS[path] = lines
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def _streamed_line(path: str, line: int) -> str | None:
    with open(path, encoding="utf-8", errors="replace") as handle:
        number = 1
        while number <= line:
            part = handle.readline(MAX_LINE_READ)
            if not part:
                return None
            if number == line:
                return part.rstrip("\n")
            if part.endswith("\n"):
                number += 1          # else the rest of a long line follows
    return None


def display_path(path: str) -> str:
    """A path as the user would type it: relative to where they stand when it is below there."""
    try:
        rel = os.path.relpath(path)
    except ValueError:   # another drive on Windows
        return path
    return path if rel.startswith("..") else rel
