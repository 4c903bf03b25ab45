# SPDX-License-Identifier: MIT
"""Source files and spans.

Every value rulekit reads keeps the place it came from, so that any later stage
(schema check, DSL parser, type checker, even a run-time content error) can point
the author at ``file:line:col``. Lines and columns are 1-based everywhere.
"""
from __future__ import annotations

import io
import os
import stat

import attrs

from .limits import MAX_LINE_READ
from .limits import READ_WHOLE as _READ_WHOLE


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


def register_text(path: str, text: str) -> None:
    """Remember a file's text so diagnostics can quote it with a caret."""
    _TEXTS[path] = text.splitlines()


def withhold(path: str) -> None:
    """Never quote ``path``: a file refused unread (a link to outside a game's folder, a FIFO)
    is named by diagnostics, but its content must not reach a terminal or a CI log."""
    _TEXTS[path] = []


def source_line(path: str, line: int) -> str | None:
    """Line ``line`` of a file, to quote. A large file is not read whole for it (a 1 GB
    file refused for its size is quoted from its first line), and at most
    ``MAX_LINE_READ`` characters of one line are read. Only a regular file is read
    (:func:`open_regular`): quoting never blocks on a FIFO nor reads a /proc file."""
    lines = _TEXTS.get(path)
    if lines is None:
        try:
            handle, size = open_regular(path)
            with handle:
                if size > _READ_WHOLE:
                    return _streamed_line(handle, line)
                lines = handle.read(size).decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return None
        _TEXTS[path] = lines
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def _streamed_line(handle, line: int) -> str | None:
    text = io.TextIOWrapper(handle, encoding="utf-8", errors="replace")
    number = 1
    while number <= line:
        part = text.readline(MAX_LINE_READ)
        if not part:
            return None
        if number == line:
            return part.rstrip("\n")
        if part.endswith("\n"):
            number += 1          # else the rest of a long line follows
    return None


# -- reading only regular files ------------------------------------------------------------
class Refused(OSError):
    """A file rulekit will not read; ``problem`` says what it is, in words (never its content)."""

    def __init__(self, path: str, problem: str, outside: bool = False):
        super().__init__(problem)
        self.path = path
        self.problem = problem
        self.strerror = problem
        self.outside = outside      # refused for where it leads, not for what it is


OUTSIDE = "a symbolic link to a file outside the game's folder"
_KINDS = ((stat.S_ISLNK, "a symbolic link"),
          (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
_PSEUDO = "a special file of the system (like those in /proc), not a regular file"
_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
          | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))


def file_kind(mode: int) -> str:
    """What a file of ``mode`` that is no regular file is, in words ("a FIFO (named pipe)")."""
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def not_regular(mode: int) -> str | None:
    """What a file of ``mode`` is when it is no regular file (None when it is one)."""
    return None if stat.S_ISREG(mode) else f"{file_kind(mode)}, not a regular file"


def inside(folder: str, path: str, resolve: bool = True) -> bool:
    """Whether ``path`` lies in ``folder``: symbolic links resolved, or with ``resolve=False``
    as the path is written (where the user put it, not where it leads)."""
    where = os.path.realpath if resolve else os.path.abspath
    try:
        base = where(folder)
        return os.path.commonpath([base, where(path)]) == base
    except (ValueError, OSError):   # ValueError: another drive on Windows
        return False


def open_regular(path: str, within: str | None = None):
    """``(binary handle, size)`` of ``path``, opened only when it is a regular file (and, with
    ``within``, one inside that folder once links are resolved); else :class:`Refused`,
    without opening it (see :func:`open_name`). A /proc-like file (size 0, yet it reads) is
    refused too."""
    real = os.path.realpath(path)
    if within is not None and not inside(within, real):
        raise Refused(path, _outside(path, within), outside=True)
    handle, info = open_name(real, shown=path)
    if info.st_size == 0 and handle.read(1):
        handle.close()
        raise Refused(path, _PSEUDO)
    return handle, info.st_size


def open_name(path, shown=None):
    """``(binary handle, stat)`` of the regular file at ``path`` itself (a link there is not
    followed), else :class:`Refused` naming ``shown`` or ``path``. A FIFO or a device is never
    opened (opening a FIFO blocks, reading a device may never end): the type is checked
    before, the name opened without following a link nor blocking, and checked again on the
    descriptor, so a file swapped in between is caught."""
    shown = os.fspath(shown if shown is not None else path)
    _refuse_unless_regular(shown, os.lstat(path).st_mode)
    fd = os.open(path, _FLAGS)
    try:
        info = os.fstat(fd)
        _refuse_unless_regular(shown, info.st_mode)
    except OSError:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb"), info


def _outside(path: str, within: str) -> str:
    """How ``path``, which resolves to outside ``within``, leads there."""
    if os.path.islink(path):
        return OUTSIDE
    linked = inside(within, path, resolve=False)
    return "outside the game's folder" + (" (a folder on its way is a symbolic link)" if linked else "")


def _refuse_unless_regular(path: str, mode: int) -> None:
    problem = not_regular(mode)
    if problem is not None:
        raise Refused(path, problem)


def read_regular(path: str, within: str | None = None, most: int | None = None) -> bytes:
    """The bytes of a regular file (see :func:`open_regular`), at most ``most`` of them."""
    handle, size = open_regular(path, within)
    with handle:
        return handle.read(size if most is None else min(size, most))


def display_path(path: str) -> str:
    """A path as the user would type it: relative to where they stand when it is below there."""
    try:
        rel = os.path.relpath(path)
    except ValueError:   # another drive on Windows
        return path
    return path if rel.startswith("..") else rel
