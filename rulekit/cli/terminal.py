# SPDX-License-Identifier: MIT
"""What rulekit prints reaches a terminal: content must not be able to drive it.

Labels, log lines, zone names and error messages carry text from content files, which
may hold control characters (``"\\e]0;...\\a"`` retitles a terminal, others move the
cursor or clear the screen). :func:`escaped_output` makes everything a command prints
on standard output show them as escapes (``\\x1b``), as Python writes them; newlines
and tabs stay. Colours that rulekit's own console writes to a terminal (``play``) may
be kept.
"""
from __future__ import annotations

import contextlib
import re
import sys

# C0 controls but tab and newline, DEL, C1 controls, and the Unicode line and paragraph separators
_CONTROLS = [c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0)) + [0x2028, 0x2029]
_ESCAPES = {c: repr(chr(c))[1:-1] for c in _CONTROLS}
_UNSAFE = re.compile("[" + "".join(re.escape(chr(c)) for c in _CONTROLS) + "]")
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def escape_controls(text: str, keep_colour: bool = False) -> str:
    """``text`` with its control characters written as escapes (``\\x1b``, ``\\r``); with
    ``keep_colour``, colour sequences (``ESC [ ... m``) are kept as they are."""
    if not _UNSAFE.search(text):
        return text
    if not keep_colour:
        return text.translate(_ESCAPES)
    pieces, at = [], 0
    for match in _COLOUR.finditer(text):
        pieces.append(text[at:match.start()].translate(_ESCAPES))
        pieces.append(match.group())
        at = match.end()
    pieces.append(text[at:].translate(_ESCAPES))
    return "".join(pieces)


class _Escaping:
    """A text stream that escapes control characters on their way to ``stream``."""

    def __init__(self, stream, keep_colour: bool):
        self._stream = stream
        self._keep_colour = keep_colour

    def write(self, text: str) -> int:
        self._stream.write(escape_controls(text, self._keep_colour))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def escaped_output(keep_colour: bool = False):
    """Standard output escapes control characters while the block runs."""
    saved = sys.stdout
    sys.stdout = _Escaping(saved, keep_colour)
    try:
        yield
    finally:
        sys.stdout = saved
