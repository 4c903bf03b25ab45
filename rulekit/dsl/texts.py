# SPDX-License-Identifier: MIT
"""Effect-language texts outside a procedure: parsing one within limits, the scope an
expression compiles in, and running a compiled expression so that its errors name its line.

The game builder (model.py) and the tools that compile texts beside a built game (scripts'
expectations, narration, notation patterns) share these, so none of them imports another.
"""
from __future__ import annotations

import re
from fractions import Fraction

import attrs
from lark.exceptions import VisitError
from lark.indenter import DedentError

from ..codes import CANNOT_EVALUATE, INCONSISTENT_DEDENT, TOO_COMPLEX, UNEXPECTED_CHARACTER
from ..engine.limits import MAX_BITS, too_many_digits
from ..engine.mutate import fmt
from ..errors import RUNTIME_ERRORS, ContentRuntimeError, Diagnostic, DiagnosticReport, raise_failure
from ..limits import MAX_NESTING
from ..source import Span
from . import ast
from .parser import parse_expr, parse_options, parse_script
from .scope import Scope

_ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_PARSERS = {"script": parse_script, "expr": parse_expr, "options": parse_options}


def parse_text(text: str, locate, kind: str = "script"):
    """Parse effect-language text (``kind`` script, expr or options) within limits.

    Raises DiagnosticReport for syntax errors, for odd line-break characters (which
    the parser counts differently from the file) and for nesting too deep for the
    parser and the compiler, which recurse."""
    if locate is None:
        def locate(line, column, end_line=None, end_column=None):
            return Span("<script>", line, column, end_line, end_column)
    odd = _ODD_BREAKS.search(text)
    if odd is not None:
        at = odd.start()
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise DiagnosticReport([Diagnostic(
            UNEXPECTED_CHARACTER, f"unexpected character U+{ord(odd.group()):04X}", locate(line, column, None, None),
            help="effect-language text may break lines only with plain newlines")])
    too_deep = Diagnostic(TOO_COMPLEX, f"nested deeper than {MAX_NESTING} levels", locate(1, 1, None, None),
                          help="split it up with a function or a local variable")
    try:
        node = _PARSERS[kind](text, locate)
    except RecursionError:
        raise DiagnosticReport([too_deep]) from None
    except DedentError:
        line = _bad_dedent(text)
        raise DiagnosticReport([Diagnostic(
            INCONSISTENT_DEDENT, "this line's indentation matches no enclosing block", locate(line, 1, None, None),
            help="indent it exactly as far as the block it belongs to")]) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, RecursionError):
            raise DiagnosticReport([too_deep]) from None
        raise
    if _nesting(node) > MAX_NESTING:
        raise DiagnosticReport([too_deep])
    return node


def _bad_dedent(text: str) -> int:
    """The first line whose indentation closes blocks down to no open level (1 if none)."""
    levels = [0]
    depth = 0                        # open brackets: their lines continue a statement
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" \t")
        if depth == 0 and stripped and not stripped.startswith("#"):
            indent = len(line[:len(line) - len(stripped)].expandtabs(8))
            if indent > levels[-1]:
                levels.append(indent)
            else:
                while indent < levels[-1]:
                    levels.pop()
                if indent != levels[-1]:
                    return number
        depth = max(0, depth + sum(stripped.count(c) for c in "([{") - sum(stripped.count(c) for c in ")]}"))
    return 1


def _nesting(node) -> int:
    """How deeply AST nodes nest (without recursing, whatever the depth)."""
    deepest = 0
    stack = [(node, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, ast.Node):
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((getattr(item, f.name), depth) for f in attrs.fields(type(item)) if f.name != "span")
        elif isinstance(item, (tuple, list)):
            stack.extend((x, depth) for x in item)
    return deepest


def located(fn, span: Span, what: str, number: str | None = None):
    """An expression run outside the VM's error handling (parameters at the start,
    scoring at the end, invariants and estimates for tools): its errors name ``what``
    and its line. ``number``: the result must be a number ("points" also allows none)."""
    def run(s, e):
        try:
            value = fn(s, e)
        except ContentRuntimeError as exc:
            if exc.span is None:
                exc.span = span
            raise
        except RUNTIME_ERRORS as exc:
            raise_failure(exc, s.game, span, what)
        if number and value.__class__ is int and value.bit_length() > MAX_BITS:
            too_many_digits(value.bit_length(), "a runaway sum?", span, subject=what)
        if number and not (isinstance(value, (int, float)) or (value is None and number == "points")):
            if isinstance(value, Fraction) and number != "points":
                return value
            if isinstance(value, Fraction):
                raise ContentRuntimeError(f"{what} must be a whole number, not {fmt(value)} (round it: `x // 1` "
                                          "rounds down)", span, CANNOT_EVALUATE)
            raise ContentRuntimeError(f"{what} must be a number, not {fmt(value)}", span, CANNOT_EVALUATE)
        return value
    return run


def scope(names=()):
    """A compiler scope binding ``names`` (a function's parameters, `p` of a score)."""
    return Scope(set(names))
