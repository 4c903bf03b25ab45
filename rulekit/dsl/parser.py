# SPDX-License-Identifier: MIT
"""Effect-language text -> typed AST, with positions in the author's YAML file.

One LALR parser (fast, and its errors are predictable enough to match against a
catalogue of known mistakes, see :mod:`syntax_errors`). The Transformer only builds
nodes. DSL line/column pairs are mapped through the string's
:class:`~rulekit.content.loader.TextOrigin` so every node's span is a real file position.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import re
import threading
from collections.abc import Callable
from pathlib import Path

import lark
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.grammar import Rule
from lark.indenter import Indenter
from lark.lark import _LOAD_ALLOWED_OPTIONS
from lark.lexer import TerminalDef

from ..codes import NUMBER_TOO_LONG, UNEXPECTED_CHARACTER, UNEXPECTED_TOKEN
from ..errors import Diagnostic, DiagnosticReport
from ..limits import MAX_DIGITS
from ..source import Span
from . import ast, parse_cache
from .syntax_errors import CATALOGUE

Locate = Callable[[int, int, "int | None", "int | None"], Span]


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


_LARK_OPTIONS = dict(parser="lalr", start=["start", "expr_start", "options_start"], propagate_positions=True,
                     maybe_placeholders=True)


@functools.cache
def _lark() -> Lark:
    """The parser. Building its LALR tables takes longer than loading a whole game, so they
    are kept as signed JSON data in rulekit's private cache folder, never in lark's own cache
    (a pickle of a predictable name in the shared temp folder, which anyone could plant).
    The options lark does not save with its tables (``propagate_positions``) are given again."""
    grammar = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    name = "grammar-" + hashlib.sha256(f"{grammar}{lark.__version__}{_LARK_OPTIONS}".encode()).hexdigest()[:16] \
        + ".json"
    data = parse_cache.read_data(name)
    if data is not None:
        with contextlib.suppress(Exception):   # signed by us: only a lark of another make fails here
            return Lark._load_from_dict(_untagged(data["data"]), _untagged(data["memo"]), postlex=_Indenter(),
                                        **{k: v for k, v in _LARK_OPTIONS.items() if k in _LOAD_ALLOWED_OPTIONS})
    parser = Lark(grammar, postlex=_Indenter(), **_LARK_OPTIONS)
    with contextlib.suppress(Exception):   # a cache is best effort
        tables, memo = parser.memo_serialize([TerminalDef, Rule])
        tables["options"] = {k: v for k, v in tables["options"].items() if k not in _LOAD_ALLOWED_OPTIONS}
        parse_cache.write_data(name, {"data": _tagged(tables), "memo": _tagged(memo)})
    return parser


def _tagged(value):
    """lark's serialised tables as JSON data: tuples and dicts with other keys than text tagged."""
    if isinstance(value, tuple):
        return {"$t": [_tagged(v) for v in value]}
    if isinstance(value, list):
        return [_tagged(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _tagged(v) for k, v in value.items()}
        return {"$d": [[_tagged(k), _tagged(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"lark table value {type(value).__name__}")


def _untagged(value):
    if isinstance(value, list):
        return [_untagged(v) for v in value]
    if isinstance(value, dict):
        if "$t" in value:
            return tuple(_untagged(v) for v in value["$t"])
        if "$d" in value:
            return {_untagged(k): _untagged(v) for k, v in value["$d"]}
        return {k: _untagged(v) for k, v in value.items()}
    return value


def _plain_locate(path: str) -> Locate:
    def locate(line, column, end_line=None, end_column=None):
        return Span(path, line, column, end_line, end_column)
    return locate


class _Said:
    """A ``prompt "..."`` or ``says "..."`` clause on its way into its choose or option."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def _all_of(tests: list):
    """``a and b and ...`` of a clause's tests (None for none)."""
    if not tests:
        return None
    joined = tests[0]
    for test in tests[1:]:
        joined = ast.BoolOp("and", joined, test, span=test.span)
    return joined


def _guard(tests: list, position: int) -> tuple:
    """A comprehension clause that lets the clauses after it run only where ``tests`` hold."""
    test = _all_of(tests)
    none = ast.ListLit((ast.Const(None, span=test.span),), span=test.span)
    return (f"$if{position}", ast.IfExp(test, none, ast.ListLit((), span=test.span), span=test.span))


class _Else:
    """A choose's ``else:`` block on its way into its choose."""

    __slots__ = ("body",)

    def __init__(self, body):
        self.body = body


class _By:
    """A ``by KEY`` clause on its way into its comprehension."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key


class _ToAst(Transformer):
    def __init__(self, locate: Locate):
        super().__init__()
        self.locate = locate

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return self.locate(1, 1, None, None)
        return self.locate(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return self.locate(tok.line, tok.column, tok.end_line, tok.end_column)

    # statements
    @v_args(meta=True)
    def start(self, meta, children):
        return tuple(children)

    @v_args(meta=True)
    def expr_start(self, meta, children):
        return children[0]

    @v_args(meta=True)
    def options_start(self, meta, children):
        return tuple(children)

    @v_args(meta=True)
    def include(self, meta, c):
        return ast.Include(str(c[0]), tuple(x for x in c[1:] if x is not None), span=self._span(meta))

    @v_args(meta=True)
    def assign(self, meta, c):
        return ast.Assign(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def aug_assign(self, meta, c):
        return ast.AugAssign(c[0], str(c[1])[0], c[2], span=self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, c):
        return ast.CallStmt(c[0], span=self._span(meta))

    @v_args(meta=True)
    def pass_stmt(self, meta, c):
        return ast.Pass(span=self._span(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, c):
        return ast.Break(span=self._span(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta, c):
        return ast.Continue(span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, c):
        return ast.Return(c[0] if c else None, span=self._span(meta))

    @v_args(meta=True)
    def assert_stmt(self, meta, c):
        return ast.Assert(c[0], c[1] if len(c) > 1 else None, span=self._span(meta))

    @v_args(meta=True)
    def attr_target(self, meta, c):
        return ast.Attr(c[0], str(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def item_target(self, meta, c):
        return ast.Index(c[0], c[1], span=self._span(meta))

    def block(self, c):
        return tuple(c)

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse = ()
        for extra in c[2:]:
            if extra is None:
                continue
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return ast.If(tuple(branches), orelse, span=self._span(meta))

    def elif_clause(self, c):
        return ("elif", c[0], c[1])

    def else_clause(self, c):
        return ("else", c[0])

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        return ast.For(str(c[0]), c[1], c[2], span=self._span(meta))

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return ast.While(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta, c):
        prompts = [x.text for x in c[1:] if isinstance(x, _Said)]
        orelse = [x.body for x in c[1:] if isinstance(x, _Else)]
        return ast.Choose(c[0], tuple(x for x in c[1:] if not isinstance(x, (_Said, _Else)) and x is not None),
                          prompts[0] if prompts else None, orelse[0] if orelse else (), span=self._span(meta))

    def choose_else(self, c):
        return _Else(c[0])

    def choose_prompt(self, c):
        return _Said(self._string(c[0]))

    def option_says(self, c):
        return _Said(self._string(c[0]))

    @v_args(meta=True)
    def choose_all_stmt(self, meta, c):
        return ast.ChooseAll(c[1], tuple(c[2:]), var=str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def option(self, meta, c):
        label = self._string(c[0])
        fors = tuple(x for x in c[1:-1] if isinstance(x, tuple))
        keys = [x.key for x in c[1:-1] if isinstance(x, _By)]
        says = [x.text for x in c[1:-1] if isinstance(x, _Said)]
        conds = [x for x in c[1:-1] if not isinstance(x, (tuple, _By, _Said)) and x is not None]
        return ast.Option(label, fors, conds[0] if conds else None, c[-1], keys[0] if keys else None,
                          says[0] if says else None, span=self._span(meta))

    def option_for(self, c):
        return (str(c[0]), c[1])

    def option_if(self, c):
        return c[0]

    # expressions
    @v_args(meta=True)
    def cond_expr(self, meta, c):
        return ast.IfExp(c[1], c[0], c[2], span=self._span(meta))

    @v_args(meta=True)
    def or_op(self, meta, c):
        return ast.BoolOp("or", c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def and_op(self, meta, c):
        return ast.BoolOp("and", c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def not_op(self, meta, c):
        return ast.Not(c[0], span=self._span(meta))

    def comp_op(self, c):
        return " ".join(str(t) for t in c)

    @v_args(meta=True)
    def compare(self, meta, c):
        return ast.Compare(c[1], c[0], c[2], span=self._span(meta))

    @v_args(meta=True)
    def binop(self, meta, c):
        return ast.BinOp(str(c[1]), c[0], c[2], span=self._span(meta))

    @v_args(meta=True)
    def neg(self, meta, c):
        return ast.Neg(c[0], span=self._span(meta))

    @v_args(meta=True)
    def getattr(self, meta, c):
        return ast.Attr(c[0], str(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def getitem(self, meta, c):
        return ast.Index(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def getslice(self, meta, c):
        return ast.Slice(c[0], c[1], c[2], span=self._span(meta))

    def number(self, c):
        if len(c[0]) > MAX_DIGITS:
            raise DiagnosticReport([Diagnostic(
                NUMBER_TOO_LONG, f"a number of {len(c[0]):,} digits is too long to write (at most {MAX_DIGITS:,})",
                self._tok_span(c[0]), help="no rule needs such a number; is a digit key stuck?")])
        return ast.Num(int(c[0]), span=self._tok_span(c[0]))

    def string(self, c):
        return self._string(c[0])

    @v_args(meta=True)
    def true(self, meta, c):
        return ast.Const(True, span=self._span(meta))

    @v_args(meta=True)
    def false(self, meta, c):
        return ast.Const(False, span=self._span(meta))

    @v_args(meta=True)
    def none(self, meta, c):
        return ast.Const(None, span=self._span(meta))

    def name(self, c):
        return ast.Name(str(c[0]), span=self._tok_span(c[0]))

    @v_args(meta=True)
    def call(self, meta, c):
        args, kwargs = [], []
        for arg in c[1:]:
            if arg is None:
                continue
            if isinstance(arg, tuple) and arg and arg[0] == "kw":
                kwargs.append((arg[1], arg[2]))
            else:
                args.append(arg)
        return ast.Call(str(c[0]), tuple(args), tuple(kwargs), span=self._span(meta))

    def kwarg(self, c):
        return ("kw", str(c[0]), c[1])

    @v_args(meta=True)
    def gen_arg(self, meta, c):
        return self._comp(meta, c)

    @v_args(meta=True)
    def list_comp(self, meta, c):
        return self._comp(meta, c)

    def _comp(self, meta, c):
        """Clauses in any order, as Python takes them: the ``if``s after the last ``for`` or ``let``
        are the comprehension's test (joined by ``and``); ``if``s before one become a clause of its
        own, over one value where they hold and none where they do not (``for $if1 in [none] if
        TEST else []``), so each test runs where it is written, before the clauses after it."""
        fors, tests = [], []
        for clause in c[1:]:
            if isinstance(clause, tuple):
                if tests:
                    fors.append(_guard(tests, len(fors)))
                    tests = []
                fors.append(clause)
            elif clause is not None and not isinstance(clause, _By):
                tests.append(clause)
        keys = [x.key for x in c[1:] if isinstance(x, _By)]
        return ast.Comp(c[0], tuple(fors), _all_of(tests), keys[0] if keys else None, span=self._span(meta))

    def comp_by(self, c):
        return _By(c[0])

    def comp_for(self, c):
        return (str(c[0]), c[1])

    def comp_if(self, c):
        return c[0]

    @v_args(meta=True)
    def comp_let(self, meta, c):
        return (str(c[0]), ast.Let(c[1], span=self._span(meta)))

    @v_args(meta=True)
    def list_expr(self, meta, c):
        return ast.ListLit(tuple(x for x in c if x is not None), span=self._span(meta))

    @v_args(meta=True)
    def map_expr(self, meta, c):
        entries = [x for x in c if x is not None]
        return ast.MapLit(tuple(k for k, _v in entries), tuple(v for _k, v in entries), span=self._span(meta))

    def map_entry(self, c):
        return (c[0], c[1])

    # strings and templates
    def _string(self, tok: Token):
        span = self._tok_span(tok)
        raw = str(tok)[1:-1]
        text = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), raw)
        if "{" not in text:
            return ast.Str(text, span=span)
        parts: list = []
        pos = 0
        for match in re.finditer(r"\{([^{}]*)\}", text):
            if match.start() > pos:
                parts.append(text[pos:match.start()])
            inner_col = tok.column + 1 + match.start(1)
            line = tok.line

            def locate(_expr_line, col, el=None, ec=None, _line=line, _col=inner_col):
                return self.locate(_line, _col + col - 1, _line if el else None,
                                   (_col + ec - 1) if ec else None)
            parts.append(parse_expr(match.group(1), locate))
            pos = match.end()
        if pos < len(text):
            parts.append(text[pos:])
        return ast.Template(tuple(parts), span=span)


def _diagnose(exc: UnexpectedInput, text: str, locate: Locate, start: str) -> Diagnostic:
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.rstrip("\n").splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    span = locate(line, column, None, None)
    try:
        label = _match_catalogue(exc, start)
    except Exception:  # matching re-parses the examples; any surprise falls back to the generic text
        label = None
    if label:
        code, message, helptext = CATALOGUE_BY_CODE[label]
        return Diagnostic(code, message, span, help=helptext)
    if isinstance(exc, UnexpectedCharacters):
        char = text.splitlines()[exc.line - 1][exc.column - 1] if exc.line <= len(text.splitlines()) else "?"
        return Diagnostic(UNEXPECTED_CHARACTER, f"unexpected character `{char}`", span,
                          help="check for a stray symbol or an unclosed string")
    if isinstance(exc, UnexpectedToken):
        expected = sorted(_pretty(t) for t in exc.expected if not t.startswith("_") or t in ("_NL",))
        found = _pretty(exc.token.type) if exc.token.type in ("_NL", "$END", "_INDENT", "_DEDENT") \
            else f"`{exc.token}`"
        return Diagnostic(UNEXPECTED_TOKEN, f"unexpected {found}", span,
                          help=f"expected one of: {', '.join(expected[:12])}" if expected else None)
    return Diagnostic(UNEXPECTED_TOKEN, "unexpected end of script", span)


def _position(state):
    """The LALR state number of a parser state (lark's own equality also compares the
    stack depth, which would make a catalogue example match only as a script's first
    top-level statement)."""
    return getattr(state, "position", state)


def _match_catalogue(exc: UnexpectedInput, start: str) -> str | None:
    """The catalogue code whose example fails in the same parser state (and, for a
    wrong token, with the same expected tokens) as ``exc``; an exact token match wins."""
    if getattr(exc, "state", None) is None:
        return None
    here = _position(exc.state)
    candidate = None
    for code, examples in CATALOGUE_EXAMPLES[start].items():
        for example in examples:
            try:
                _lark().parse(example, start=start)
            except UnexpectedInput as ut:
                if getattr(ut, "state", None) is None or _position(ut.state) != here:
                    continue
                if isinstance(exc, UnexpectedCharacters) != isinstance(ut, UnexpectedCharacters):
                    continue
                if isinstance(exc, UnexpectedCharacters) and exc.char != ut.char:
                    continue   # a stray `$` is not the `&&` of an example in the same state
                if isinstance(exc, UnexpectedToken) and isinstance(ut, UnexpectedToken) \
                        and ut.accepts != exc.accepts:
                    continue
                if isinstance(exc, (UnexpectedToken, UnexpectedEOF)) and \
                        isinstance(ut, (UnexpectedToken, UnexpectedEOF)) and ut.token == exc.token:
                    return code
                if candidate is None:
                    candidate = code
    return candidate


_PRETTY = {"_NL": "end of line", "$END": "end of script", "_INDENT": "indented block",
           "_DEDENT": "end of block", "NAME": "a name", "NUMBER": "a number", "STRING": "a string",
           "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`", "COLON": "`:`", "COMMA": "`,`",
           "EQUAL": "`=`", "DOT": "`.`", "MINUS": "`-`"}


def _pretty(name: str) -> str:
    return _PRETTY.get(name, f"`{name.lower()}`" if name.isupper() else name)


CATALOGUE_EXAMPLES: dict[str, dict[str, list[str]]] = {"start": {}, "expr_start": {}, "options_start": {}}
CATALOGUE_BY_CODE: dict[str, tuple[str, str, str | None]] = {}
for _code, _message, _help, _start, _examples in CATALOGUE:
    CATALOGUE_EXAMPLES[_start][_code] = list(_examples)
    CATALOGUE_BY_CODE[_code] = (_code, _message, _help)


# lark's parser keeps a parse's indentation in its postlexer (one object): two threads parsing at
# once (the language server's) broke each other's (an AssertionError inside lark). A parse and the
# diagnosis of its failure, which parses the catalogue's examples, hold this lock.
_PARSING = threading.RLock()


def _parse(text: str, locate: Locate, start: str):
    source = text if text.endswith("\n") else text + "\n"
    with _PARSING:
        try:
            tree = _lark().parse(source, start=start)
        except UnexpectedInput as exc:
            raise DiagnosticReport([_diagnose(exc, source, locate, start)]) from None
    try:
        return _ToAst(locate).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, DiagnosticReport):
            raise exc.orig_exc from None
        raise


def parse_script(text: str, locate: Locate | None = None, path: str = "<script>") -> tuple:
    """Parse a block of statements; raises DiagnosticReport with one positioned diagnostic."""
    return _parse(text, locate or _plain_locate(path), "start")


def parse_options(text: str, locate: Locate | None = None, path: str = "<options>") -> tuple:
    """Parse the options of an option group (what may stand inside ``choose``)."""
    return _parse(text, locate or _plain_locate(path), "options_start")


def parse_expr(text: str, locate: Locate | None = None, path: str = "<expr>"):
    """Parse one expression."""
    return _parse(text, locate or _plain_locate(path), "expr_start")
