# SPDX-License-Identifier: MIT
"""Errors a user can cause, each with a stable code and exit status.

Content problems are collected as :class:`Diagnostic` values (never raised one at a
time) so an author sees every mistake in one run, rendered like a compiler error.
Everything a user can trigger derives from :class:`RulekitError`, which carries the
process exit code the CLI returns: 1 for content errors and illegal script actions,
2 for usage and I/O errors. An uncaught non-rulekit exception is an internal bug (101).
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable

import attrs

from .source import Span, source_line

EXIT_OK = 0
EXIT_CONTENT = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 101


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to ``word``, or None when nothing is close."""
    matches = difflib.get_close_matches(str(word), sorted({str(c) for c in candidates}), n=1, cutoff=0.6)
    return matches[0] if matches else None


def suggestion_help(word: str, candidates: Iterable[str]) -> str | None:
    match = did_you_mean(word, candidates)
    return f"did you mean `{match}`?" if match else None


@attrs.frozen
class Diagnostic:
    """One problem in content, a script or a log, with where it is and how to fix it."""

    code: str
    message: str
    span: Span | None = None
    help: str | None = None
    notes: tuple[str, ...] = ()
    related: tuple[tuple[str, Span], ...] = ()
    severity: str = "error"

    def concise(self) -> str:
        where = f"{self.span}: " if self.span else ""
        text = f"{where}{self.severity}[{self.code}]: {self.message}"
        if self.help:
            text += f" ({self.help})"
        return text

    def render(self) -> str:
        """Render with a caret excerpt, the way compilers do."""
        out = [f"{self.severity}[{self.code}]: {self.message}"]
        if self.span is not None:
            out.append(f"  --> {self.span}")
            out.extend(_excerpt(self.span))
        for label, span in self.related:
            out.append(f"  ::: {span}: {label}")
            out.extend(_excerpt(span))
        for note in self.notes:
            out.append(f"   = note: {note}")
        if self.help:
            out.append(f"   = help: {self.help}")
        return "\n".join(out)

    def to_json(self) -> dict:
        data = {"severity": self.severity, "code": self.code, "message": self.message}
        if self.span is not None:
            data.update(path=self.span.path, line=self.span.line, column=self.span.column)
        if self.help:
            data["help"] = self.help
        if self.notes:
            data["notes"] = list(self.notes)
        return data


EXCERPT = 160   # characters of a source line a diagnostic quotes (a window around the caret)
_UNPRINTABLE = {c: "\ufffd" for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]}


def _excerpt(span: Span) -> list[str]:
    text = source_line(span.path, span.line)
    if text is None:
        return []
    gutter = " " * len(str(span.line))
    width = 1
    if span.end_line == span.line and span.end_column and span.end_column > span.column:
        width = span.end_column - span.column
    text, column = _window(text.replace("\t", " ").translate(_UNPRINTABLE), span.column)
    width = max(1, min(width, len(text) - column + 1))
    return [f"{gutter} |", f"{span.line} | {text}", f"{gutter} | {' ' * (column - 1)}{'^' * width}"]


def _window(text: str, column: int) -> tuple[str, int]:
    """At most ``EXCERPT`` characters of a line around ``column`` (a 4 MB line is not
    printed whole), marked ``...`` where cut; returns (text, the column in it)."""
    if len(text) <= EXCERPT:
        return text, column
    start = max(0, min(column - 1 - EXCERPT // 2, len(text) - EXCERPT))
    head = "..." if start else ""
    tail = "..." if start + EXCERPT < len(text) else ""
    return head + text[start:start + EXCERPT] + tail, column - start + len(head)


class RulekitError(Exception):
    """Base of every error a user can cause; ``exit_code`` is what the CLI returns."""

    exit_code = EXIT_CONTENT
    code = "RK0000"

    def render(self) -> str:
        return f"error[{self.code}]: {self}"


class UsageError(RulekitError):
    """Bad command-line use, a missing file, an unreadable path."""

    exit_code = EXIT_USAGE
    code = "RK0001"


class DiagnosticReport(RulekitError):
    """One or more content diagnostics, raised together after a stage collected them."""

    exit_code = EXIT_CONTENT
    code = "RK0002"

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(d.concise() for d in self.diagnostics))

    def render(self) -> str:
        parts = [d.render() for d in self.diagnostics]
        files = {d.span.path for d in self.diagnostics if d.span}
        errors = sum(1 for d in self.diagnostics if d.severity == "error")
        warnings = len(self.diagnostics) - errors
        counts = []
        if errors or not warnings:
            counts.append(f"{errors} error{'' if errors == 1 else 's'}")
        if warnings:
            counts.append(f"{warnings} warning{'' if warnings == 1 else 's'}")
        parts.append(f"Found {' and '.join(counts)} in {len(files) or 1} file{'s' if len(files) > 1 else ''}.")
        return "\n\n".join(parts)


class IllegalAction(RulekitError):
    """An action that is not legal now; names the legal ones. The state is unchanged."""

    code = "RK3001"

    def __init__(self, action: str, legal: list[str], reason: str = "not legal now",
                 player: str | None = None, span: Span | None = None):
        self.action = action
        self.legal = list(legal)
        self.reason = reason
        self.player = player
        self.span = span
        shown = ", ".join(f"`{a}`" for a in self.legal[:40])
        if len(self.legal) > 40:
            shown += f", ... ({len(self.legal)} in all)"
        who = f" for {player}" if player else ""
        text = f"illegal action `{action}`{who}: {reason}"
        if self.legal:
            text += f"; legal actions: {shown}"
        hint = did_you_mean(action, self.legal)
        if hint:
            text += f" (did you mean `{hint}`?)"
        super().__init__(text)

    def render(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}error[{self.code}]: {self}"


class ContentRuntimeError(RulekitError):
    """Content that checked clean but did something impossible while running
    (a counter below its minimum, a step limit hit). Names the source line."""

    code = "RK4001"

    def __init__(self, message: str, span: Span | None = None, code: str | None = None):
        self.span = span
        if code:
            self.code = code
        super().__init__(message)

    def render(self) -> str:
        diag = Diagnostic(self.code, str(self), self.span)
        return diag.render()


# Python failures inside content code (a wrong kind of value, a missing key...) that become
# content errors on the author's line (RK4000); anything else is a rulekit bug.
RUNTIME_ERRORS = (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError,
                  RecursionError, UnboundLocalError, MemoryError)


def explain_failure(exc: Exception, game=None) -> str:
    """What a Python failure inside content code means, in the author's words (``game``: the
    game it ran in, to name an item read for a property its kind does not have)."""
    if isinstance(exc, KeyError):
        missing = _missing_property(exc, game) if game is not None else None
        return missing or f"`{exc.args[0]}` has no value here (read before it was set?)"
    if isinstance(exc, UnboundLocalError):
        name = str(exc).split("'")[1] if "'" in str(exc) else "a local"
        return f"`{name[2:] if name.startswith('l_') else name}` has no value here (read before it was set?)"
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, RecursionError):
        return "functions call each other too deeply (recursion?)"
    if isinstance(exc, MemoryError):
        return "the machine ran out of memory working this out (a value that grows without end?)"
    return f"cannot evaluate: {exc}"


def _missing_property(exc: KeyError, game) -> str | None:
    """``x.prop`` read on an item (or set member) that lacks ``prop``: the message names it, its
    kind and the property. Reads compile to plain lookups (nothing is checked on the way), so
    the item is found afterwards, among the values the failing code held."""
    prop = exc.args[0] if exc.args else None
    items, members = game.components.items, game.components.members
    if prop.__class__ is not str or not (any(prop in p for p in items.values())
                                         or any(prop in p for p in members.values())):
        return None
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    held = list(tb.tb_frame.f_locals.values()) if tb is not None else []
    held += [v for env in held if env.__class__ is dict for v in env.values()]
    lacking = sorted({v for v in held if v.__class__ is str and (v in items or v in members)
                      and prop not in _props_of(v, items, members)})
    return lacks_property(game, lacking[0] if len(lacking) == 1 else None, prop)


def lacks_property(game, value: str | None, prop: str) -> str:
    """The message for ``value.prop`` read on an item (or set member) without ``prop``
    (``value`` None: the item is not known)."""
    items = game.components.items
    having = sorted({game.components.item_kind[i] for i, p in items.items() if prop in p})
    hint = f"give it a default under its kind's `props:`, or ask `has(x, \"{prop}\")` first"
    if value is None:
        return f"an item has no property `{prop}` (only {_kinds(having)} have it; {hint})"
    what = f"kind `{game.components.item_kind[value]}`" if value in items else "a set member"
    return f"`{value}` ({what}) has no property `{prop}` (only {_kinds(having)} have it; {hint})"


def _props_of(value: str, items: dict, members: dict):
    props = items.get(value)
    return props if props is not None else members.get(value, ())


def _kinds(kinds: list) -> str:
    return ", ".join(f"`{k}`" for k in kinds) + " items" if kinds else "some set members"
