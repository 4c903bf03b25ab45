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
import os
import re
import traceback
from collections.abc import Iterable

import attrs

from .codes import (
    CANNOT_EVALUATE,
    DIAGNOSTIC_REPORT,
    ERROR,
    ILLEGAL_ACTION,
    INDEX_OUT_OF_RANGE,
    INTERNAL,
    MISSING_KEY_IN_TABLE,
    RUNTIME_ERROR,
    UNSUPPORTED_OPERATION,
    USAGE,
    VALUE_OUT_OF_DOMAIN,
    VALUE_TOO_LARGE,
)
from .source import Span, source_line

EXIT_OK = 0
EXIT_CONTENT = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 101


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to ``word``, or None when nothing is close."""
    matches = difflib.get_close_matches(str(word), sorted({str(c) for c in candidates}), n=1, cutoff=0.6)
    return matches[0] if matches else None


# Words from other languages (Python's `len`, `None`, `True`) and the content language's word for
# each: the language fills it (dsl/syntax_errors.py), so that a name it does not know says which.
FOREIGN_WORDS: dict[str, str] = {}


def suggestion_help(word: str, candidates: Iterable[str]) -> str | None:
    ours = FOREIGN_WORDS.get(str(word))
    if ours is not None:
        return f"did you mean `{ours}`? (`{word}` is Python's; rulekit writes `{ours}`)"
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
    code = ERROR

    def render(self) -> str:
        return f"error[{self.code}]: {self}"


class UsageError(RulekitError):
    """Bad command-line use, a missing file, an unreadable path."""

    exit_code = EXIT_USAGE
    code = USAGE


class DiagnosticReport(RulekitError):
    """One or more content diagnostics, raised together after a stage collected them."""

    exit_code = EXIT_CONTENT
    code = DIAGNOSTIC_REPORT

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

    code = ILLEGAL_ACTION

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

    code = RUNTIME_ERROR

    def __init__(self, message: str, span: Span | None = None, code: str | None = None, related: tuple = ()):
        self.span = span
        self.related = tuple(related)   # ((what, span), ...): where a value it failed on was set
        if code:
            self.code = code
        super().__init__(message)

    def render(self) -> str:
        diag = Diagnostic(self.code, str(self), self.span, related=self.related)
        return diag.render()


# Python failures while content code runs. Where one was raised tells whose fault it is:
# generated code (file `<rulekit ...>` or the content's own file) and the built-ins it calls
# directly (BOUNDARY) work on the content's values, so a failure there is the content's (an
# RK4xxx error on its line, in its terms); one raised deeper in rulekit's own modules, or an
# AttributeError anywhere (generated code never asks a value for a Python attribute it may
# lack), is a bug in rulekit (InternalError, exit 101).
RUNTIME_ERRORS = (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError,
                  RecursionError, UnboundLocalError, MemoryError, OverflowError, NameError)
BOUNDARY: set = set()           # code objects of what generated code calls with content values
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_ALWAYS_CONTENT = (RecursionError, MemoryError, ZeroDivisionError, OverflowError)
_NEVER_CONTENT = (AttributeError, NameError)
REPORT = "please report it to the rulekit maintainers (the project's issue tracker) with the command you ran"


def boundary(*fns) -> None:
    """Mark functions generated code calls with the content's values: a Python failure raised
    in their own body is the content's (a value of the wrong kind), not rulekit's."""
    BOUNDARY.update(fn.__code__ for fn in fns if hasattr(fn, "__code__"))


class InternalError(RulekitError):
    """A failure of rulekit's own code while content ran: a bug in rulekit, never the author's
    (exit 101). It keeps its cause (``raise ... from exc``), shown under RULEKIT_DEBUG=1."""

    exit_code = EXIT_INTERNAL
    code = INTERNAL

    def render(self) -> str:
        text = f"internal error[{self.code}]: {self}\nthis is a bug in rulekit, not in your content; {REPORT}"
        if os.environ.get("RULEKIT_DEBUG"):
            return text + "\n" + "".join(traceback.format_exception(self)).rstrip()
        return text + " (set RULEKIT_DEBUG=1 for a traceback)"


def raised_in_rulekit(exc: BaseException) -> str | None:
    """``file:line`` of the innermost frame when it is rulekit's own code (not generated code,
    nor a built-in the generated code called directly), else None."""
    tb = exc.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    own = code.co_filename.startswith(_PACKAGE) and code.co_filename.endswith(".py")
    never = isinstance(exc, _NEVER_CONTENT) and not isinstance(exc, UnboundLocalError)  # a content local unset
    if isinstance(exc, _ALWAYS_CONTENT) or (code in BOUNDARY and not never):
        return None
    if own or never:
        return f"{code.co_filename[len(_PACKAGE) - len('rulekit/'):] if own else code.co_filename}:{tb.tb_lineno}"
    return None


def runtime_failure(exc: BaseException, game=None, span: Span | None = None,
                    subject: str | None = None) -> RulekitError:
    """A Python failure while content ran (on the content line ``span``; ``subject``: what was
    being worked out) as the error to report: the content's, in its terms, or rulekit's bug."""
    where = raised_in_rulekit(exc)
    if where is not None:
        at = f" while running {span}" if span is not None else ""
        return InternalError(f"{type(exc).__name__} in {where}{at}: {exc}")
    code, message = explain(exc, game)
    if subject:
        message = f"cannot compute {subject}: {message}"
    return ContentRuntimeError(message, span, code, set_at(game, span) if code in _READS_A_TABLE else ())


_READS_A_TABLE = frozenset((INDEX_OUT_OF_RANGE, MISSING_KEY_IN_TABLE))


def set_at(game, span: Span | None) -> tuple:
    """Where the tables the failing content line reads are set (a variant's line, say): the game
    answers (model.Game.tables_read_at), from the texts its checks parsed."""
    tables_read_at = getattr(game, "tables_read_at", None)
    return tables_read_at(span) if tables_read_at is not None and span is not None else ()


def raise_failure(exc: BaseException, game=None, span: Span | None = None, subject: str | None = None):
    """Raise :func:`runtime_failure`'s error: a content error alone, a bug with its cause."""
    error = runtime_failure(exc, game, span, subject)
    if isinstance(error, InternalError):
        raise error from exc
    raise error from None


def explain_failure(exc: Exception, game=None) -> str:
    """What a Python failure inside content code means, in the author's words."""
    return explain(exc, game)[1]


def explain(exc: BaseException, game=None) -> tuple[str, str]:
    """(code, message) of a Python failure inside content code, in the author's words, never
    Python's (``game``: the game it ran in, to name an item read for a property its kind lacks)."""
    if isinstance(exc, KeyError):
        missing = _missing_property(exc, game) if game is not None else None
        if missing:
            return CANNOT_EVALUATE, missing
        key = exc.args[0] if exc.args else None
        known = game is not None and (key in game.components.members or key in game.components.items)
        if key.__class__ is str and key.isidentifier() and not known:
            return CANNOT_EVALUATE, f"`{key}` has no value here (read before it was set?)"
        return MISSING_KEY_IN_TABLE, f"there is no entry {_shown(key)} here (a key missing from a table or mapping?)"
    if isinstance(exc, UnboundLocalError):
        name = str(exc).split("'")[1] if "'" in str(exc) else "a local"
        local = name[2:] if name.startswith("l_") else name
        return CANNOT_EVALUATE, f"`{local}` has no value here (read before it was set?)"
    if isinstance(exc, ZeroDivisionError):
        return CANNOT_EVALUATE, "division by zero (`/`, `//` or `%` by 0)"
    if isinstance(exc, RecursionError):
        return CANNOT_EVALUATE, "functions call each other too deeply (recursion?)"
    if isinstance(exc, MemoryError):
        return CANNOT_EVALUATE, "the machine ran out of memory working this out (a value that grows without end?)"
    if isinstance(exc, OverflowError):
        return VALUE_TOO_LARGE, "a number too large to work with (a fraction or a power that grows without end?)"
    if isinstance(exc, IndexError):
        return INDEX_OUT_OF_RANGE, ("an index past the end of a list or zone (or before its start: count its items "
                                    "first)")
    if isinstance(exc, TypeError):
        return UNSUPPORTED_OPERATION, _wrong_kind(str(exc))
    return VALUE_OUT_OF_DOMAIN, _out_of_range(str(exc))


_KINDS = {"int": "a number", "float": "a number", "Fraction": "a number", "bool": "true/false", "str": "text",
          "list": "a list", "tuple": "a list", "NoneType": "none", "dict": "a mapping", "Player": "a player",
          "ZoneKey": "a zone", "Family": "a family of zones", "set": "a set", "function": "a function"}
_TYPE = re.compile(r"'(\w+)'")


def _kind(name: str) -> str:
    return _KINDS.get(name, "a value of another kind")


def _wrong_kind(text: str) -> str:
    """A TypeError's message in the author's words: the operation and the kinds it was given."""
    kinds = [_kind(n) for n in _TYPE.findall(text)]
    op = re.search(r"for ([^:]+):", text) or re.search(r"'([<>=!]=?)' not supported", text)
    if "unhashable" in text:
        return f"{kinds[0] if kinds else 'a list'} cannot be a key or be told apart from equal ones " \
               "(only numbers, texts, items, players and zones can: `distinct`, a mapping's key...)"
    if op and len(kinds) >= 2:
        return f"`{op.group(1).strip()}` cannot take {kinds[0]} and {kinds[1]}"
    if "concatenate" in text:
        joined = re.search(r'\(not "(\w+)"\) to (\w+)', text)
        if joined:
            return f"`+` cannot join {_kind(joined.group(2))} and {_kind(joined.group(1))}"
    if "unary" in text and kinds:
        return f"`{text.split('unary ', 1)[1].split(':')[0]}` cannot take {kinds[0]}"
    index = re.search(r"(\w+) indices must be integers or slices, not (\w+)", text)
    if index:
        said = f"{_kind(index.group(1))} is indexed by a whole number, not by {_kind(index.group(2))}"
        if index.group(1) in ("list", "tuple") and index.group(2) == "NoneType":     # s.p[seat], a zone by seat
            said += " (a player's variable or zone read through a player that is none, as `who.score` with " \
                    "`who` unset?)"
        return said
    if "not subscriptable" in text and kinds:
        return f"{kinds[0]} cannot be indexed (lists, zones and families can)"
    if ("not iterable" in text or "has no len" in text) and kinds:
        return f"{kinds[0]} is not a list (a list or a zone was expected)"
    if "multiply sequence" in text and kinds:
        return f"`*` repeats a list or text by a whole number, not by {kinds[-1]}"
    return "a value of the wrong kind for this operation (a number, text, list or zone where another was expected?)"


def _out_of_range(text: str) -> str:
    """A ValueError's message in the author's words."""
    if "empty" in text:
        return "`max`, `min` or `first` of an empty list (give a default, or test `count(...) > 0` first)"
    if "not in list" in text:
        return "the value is not in the list"
    return "a value outside what this operation takes"


def _shown(key) -> str:
    if key.__class__ is str:
        return f"`{key}`"
    if key is None:
        return "for none"
    kind = type(key).__name__
    return f"for {_kind(kind)} `{key}`" if kind in _KINDS else "for this key"


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
