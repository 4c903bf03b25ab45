# SPDX-License-Identifier: MIT
"""Generated code printed as a careful person would write it: the brackets precedence needs and
no others, long lines broken by the structure of what they say, and no line that is only a
bracket.

The code writer brackets every operation it writes, since it cannot know where its text will be
embedded: ``if (((a.get(k)) < 5) and (not (b))):``. The printer reads each logical line into
Python's own tree (``ast``), which is what the line means, and prints it from the tree:
``if a.get(k) < 5 and not b:``. ``not (a in b)`` is written ``a not in b``, which Python defines
as the same. A line too long for ``layout.WIDTH`` is broken where the tree has a place for it:
after a call's or a literal's opening bracket, at the commas between its parts, before the
``and``/``or``, comparison or arithmetic that joins two operands; a closing bracket ends the line
of the last part; a condition's further lines sit two steps in (PEP 8), apart from the body.

Every line printed has the tree of the line written, apart from those negations
(tests/test_printer.py), so printing never changes what the code does. A line that is not a
statement on its own (a comment, ``else:``, a ``def``) goes to the token layout of
dsl/layout.py, which only moves whitespace.
"""
from __future__ import annotations

import ast
import functools

from . import ir, layout

STEP = layout.STEP

# how tightly each operator binds (Python's grammar, loosest first)
_LAMBDA, _IFEXP, _OR, _AND, _NOT, _CMP, _BOR, _BXOR, _BAND, _SHIFT, _ARITH, _TERM, _FACTOR, _POWER, _ATOM = range(15)
_ARG = 0.5      # a call's positional argument: as _IFEXP, but a `:=` needs no brackets there (`f(x := 1)`)
_BINARY = {ast.BitOr: ("|", _BOR), ast.BitXor: ("^", _BXOR), ast.BitAnd: ("&", _BAND), ast.LShift: ("<<", _SHIFT),
           ast.RShift: (">>", _SHIFT), ast.Add: ("+", _ARITH), ast.Sub: ("-", _ARITH), ast.Mult: ("*", _TERM),
           ast.MatMult: ("@", _TERM), ast.Div: ("/", _TERM), ast.FloorDiv: ("//", _TERM), ast.Mod: ("%", _TERM),
           ast.Pow: ("**", _POWER)}
_UNARY = {ast.Not: "not ", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Is: "is",
            ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
_FLIP = {ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_HEADERS = ("if", "elif", "while", "for")
_BRACKETED = (ast.Call, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.Subscript, ast.ListComp, ast.GeneratorExp,
              ast.SetComp, ast.DictComp)


def lines(indent: str, text: str, note: str = "", width: int | None = None) -> list[str]:
    """The physical lines of the logical line ``text`` at ``indent``, with ``note`` (``# line 12``)
    at the end of the first; ``text`` a :class:`~rulekit.dsl.ir.Line` is printed from its tree."""
    width = layout.WIDTH if width is None else width
    note = getattr(text, "note", "") or note
    lead = getattr(text, "lead", None)
    if lead == "def":       # a function's heading: its name and parameters, as made
        node = text.node
        heading = f"{indent}def {node.name}({', '.join(a.arg for a in node.args.args)}):"
        return [f"{heading}  {note}" if note else heading]
    if lead == "else":
        return [f"{indent}else:  {note}" if note else f"{indent}else:"]
    if not text:
        return [f"{indent}{note}".rstrip()]
    if lead == "inline" and TREES:     # `if x: f()`, its body on its line, as written
        node, f = text.node, _Flat()
        line = f"{indent}if {f(node.test)}: {f(node.body[0].value)}"
        if len(line) + (len(note) + 2 if note else 0) <= width:
            return [f"{line}  {note}" if note else line]
        return layout.lay_out(indent, text, note, width)
    room = width - (len(note) + 2 if note else 0)
    made = getattr(text, "node", None) if TREES else None
    printed = _printed(indent, str(text), room) if made is None else _printed_tree(indent, text, room)
    if printed is None:
        return layout.lay_out(indent, text, note, width)
    out = list(printed)
    if note:
        out[0] = f"{out[0]}  {note}"
    return out


def function(name: str, params, body, width: int | None = None) -> str:
    """The source of a function ``name(params)`` whose ``body`` is ``(indent, line)`` pairs (indent
    1 is the body's own)."""
    out = [f"def {name}({', '.join(params)}):"]
    for indent, line in body:
        out.extend(lines(STEP * indent, line, width=width))
    return "\n".join(out) + "\n"


def one_line(node, lead: str | None = None) -> str:
    """The statement ``node`` on one line (``lead``: a compound statement's header keyword)."""
    return _Printer(10**9).statement(_plain(node), lead, "")[0]


# Whether a line the writer made as a tree is printed from it (else from its text, read again: the
# two print the same, tests/test_ir.py)
TREES = True


def tidy(text: str) -> str:
    """``text`` printed on one line with the brackets it needs (for a reader: a note, a test)."""
    printed = _printed("", text, 10**9)
    return text if printed is None else printed[0]


@functools.lru_cache(maxsize=4096)
def _printed(indent: str, text: str, room: int) -> tuple | None:
    """(Kept: a game loaded again prints the same lines.)"""
    node, lead = _statement(text)
    return None if node is None else _printed_node(indent, node, lead, room)


def _printed_tree(indent: str, line, room: int) -> tuple | None:
    """A line made as a tree (kept by its text, which says the same)."""
    key = (indent, str(line), room)
    found = _TREES_PRINTED.get(key, _TREES_PRINTED)
    if found is _TREES_PRINTED:
        if len(_TREES_PRINTED) > 8192:      # (bounded, as _printed's)
            _TREES_PRINTED.clear()
        found = _TREES_PRINTED[key] = _printed_node(indent, _plain(line.node), line.lead, room)
    return found


_TREES_PRINTED: dict = {}


def _printed_node(indent: str, node, lead, room: int) -> tuple | None:
    try:
        out = _Printer(room).statement(node, lead, indent)
    except RecursionError:
        return None
    if any(len(line) > room for line in out):      # nothing in the tree to break at: by its tokens
        flat = _printed_node("", node, lead, 10**9) if len(out) > 1 else None
        return tuple(layout.lay_out(indent, flat[0], width=room)) if flat is not None else None
    return tuple(out)


def _statement(text: str) -> tuple:
    """(the statement ``text`` is, its leading word where it is a compound statement's header)."""
    if not text or text[0] in " #" or "\n" in text:
        return None, None
    lead = text.split(None, 1)[0]
    if lead not in _HEADERS and text.endswith(":"):
        return None, None       # else:, try:, def ...:, with ...:
    source = text[2:] if lead == "elif" else text
    if lead in _HEADERS:
        if not text.endswith(":"):
            return None, None   # a statement and its body on one line (`if x: f()`): left as written
        source += " pass"
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, None       # a part of a statement, or nested past what the parser takes
    if len(tree.body) != 1:
        return None, None
    node = tree.body[0]
    if lead in _HEADERS and (len(node.body) != 1 or getattr(node, "orelse", None)):
        return None, None
    return _plain(node), (lead if lead in _HEADERS else None)


def _plain(node):
    """``not (a in b)`` as ``a not in b``, ``not (a is b)`` as ``a is not b`` (and back): one
    comparison Python defines as the other's negation; ``(a and b) and c`` as ``a and b and c``,
    which Python works out in the same order to the same value. A new tree where one of these is
    found; the tree given is never changed (the writer's trees share their parts)."""
    node = ir.rebuilt(node, _plain)
    kind = type(node)
    if kind is ast.BoolOp:
        values = []
        for value in node.values:
            same = type(value) is ast.BoolOp and type(value.op) is type(node.op)
            values.extend(value.values if same else [value])
        return ast.BoolOp(node.op, values) if len(values) != len(node.values) else node
    if kind is ast.UnaryOp and isinstance(node.op, ast.Not):
        operand = node.operand
        if isinstance(operand, ast.Compare) and len(operand.ops) == 1 and type(operand.ops[0]) in _FLIP:
            return ast.Compare(operand.left, [_FLIP[type(operand.ops[0])]()], operand.comparators)
    return node


def _precedence(node) -> int:
    kind = type(node)
    if kind is ast.BoolOp:
        return _AND if isinstance(node.op, ast.And) else _OR
    if kind is ast.BinOp:
        return _BINARY[type(node.op)][1]
    if kind is ast.UnaryOp:
        return _NOT if isinstance(node.op, ast.Not) else _FACTOR
    if kind is ast.Compare:
        return _CMP
    if kind is ast.IfExp:
        return _IFEXP
    if kind in (ast.Lambda, ast.NamedExpr):
        return _LAMBDA
    return _ATOM


def _bracketed(node, need) -> bool:
    """Whether ``node`` needs brackets where an expression of precedence ``need`` is wanted: a
    ``:=`` has them everywhere but as a call's positional argument, where Python takes it bare."""
    if type(node) is ast.NamedExpr:
        return need != _ARG
    return _precedence(node) < need


class _Flat:
    """An expression on one line, with the brackets precedence needs."""

    def __call__(self, node, need: int = _LAMBDA) -> str:
        text = self.bare(node)
        return f"({text})" if _bracketed(node, need) else text

    def bare(self, node) -> str:
        method = getattr(self, "x_" + type(node).__name__, None)
        return method(node) if method is not None else ast.unparse(node)

    def x_Name(self, node):
        return node.id

    def x_Constant(self, node):
        if node.value is ...:
            return "..."
        return repr(node.value)

    def x_Attribute(self, node):
        value = self(node.value, _ATOM)
        if type(node.value) is ast.Constant and type(node.value.value) is int:
            value = f"({value})"
        return f"{value}.{node.attr}"

    def x_Subscript(self, node):
        return f"{self(node.value, _ATOM)}[{self.index(node.slice)}]"

    def index(self, node) -> str:
        return self.bare_tuple(node, _IFEXP)

    def bare_tuple(self, node, need: int) -> str:
        """A tuple without its brackets where Python needs none (``d[a, b]``, ``for k, v in``)."""
        if type(node) is ast.Tuple and node.elts:
            return ", ".join(self(e, need) for e in node.elts) + ("," if len(node.elts) == 1 else "")
        return self(node, need)

    def x_Slice(self, node):
        parts = [self(p, _IFEXP) if p is not None else "" for p in (node.lower, node.upper)]
        if node.step is not None:
            parts.append(self(node.step, _IFEXP))
        return ":".join(parts)

    def x_Starred(self, node):
        return "*" + self(node.value, _BOR)

    def x_Call(self, node):
        if len(node.args) == 1 and not node.keywords and type(node.args[0]) is ast.GeneratorExp:
            return self(node.func, _ATOM) + self.bare(node.args[0])     # sum(x for x in xs)
        return f"{self(node.func, _ATOM)}({', '.join(self.arguments(node))})"

    def arguments(self, node) -> list[str]:
        return [self(a, _ARG) for a in node.args] + [
            f"{k.arg}={self(k.value, _IFEXP)}" if k.arg is not None else f"**{self(k.value, _BOR)}"
            for k in node.keywords]

    def x_BinOp(self, node):
        symbol, prec = _BINARY[type(node.op)]
        right_assoc = prec == _POWER
        left = self(node.left, prec + right_assoc)
        right = self(node.right, prec + (not right_assoc) if not right_assoc else _FACTOR)
        return f"{left} {symbol} {right}"

    def x_UnaryOp(self, node):
        prec = _precedence(node)
        return _UNARY[type(node.op)] + self(node.operand, prec)

    def x_BoolOp(self, node):
        prec = _precedence(node)
        word = " and " if prec == _AND else " or "
        return word.join(self(v, prec + 1) for v in node.values)

    def x_Compare(self, node):
        parts = [self(node.left, _CMP + 1)]
        for op, right in zip(node.ops, node.comparators):
            parts.append(f"{_COMPARE[type(op)]} {self(right, _CMP + 1)}")
        return " ".join(parts)

    def x_IfExp(self, node):
        return f"{self(node.body, _OR)} if {self(node.test, _OR)} else {self(node.orelse, _IFEXP)}"

    def x_NamedExpr(self, node):
        return f"{node.target.id} := {self(node.value, _IFEXP)}"

    def x_Tuple(self, node):
        return f"({self.items(node.elts)}{',' if len(node.elts) == 1 else ''})"

    def items(self, elts) -> str:
        return ", ".join(self(e, _IFEXP) for e in elts)

    def x_List(self, node):
        return f"[{self.items(node.elts)}]"

    def x_Set(self, node):
        return f"{{{self.items(node.elts)}}}"

    def x_Dict(self, node):
        return "{" + ", ".join(self.entry(k, v) for k, v in zip(node.keys, node.values)) + "}"

    def entry(self, key, value) -> str:
        return f"**{self(value, _BOR)}" if key is None else f"{self(key, _IFEXP)}: {self(value, _IFEXP)}"

    def comprehension(self, node) -> str:
        parts = []
        for gen in node.generators:
            parts.append(f"{'async ' if gen.is_async else ''}for {self.target(gen.target)} in {self(gen.iter, _OR)}")
            parts.extend(f"if {self(c, _OR)}" for c in gen.ifs)
        return " ".join(parts)

    def target(self, node) -> str:
        return self.bare_tuple(node, _BOR)

    def x_ListComp(self, node):
        return f"[{self(node.elt, _IFEXP)} {self.comprehension(node)}]"

    def x_SetComp(self, node):
        return f"{{{self(node.elt, _IFEXP)} {self.comprehension(node)}}}"

    def x_GeneratorExp(self, node):
        return f"({self(node.elt, _IFEXP)} {self.comprehension(node)})"

    def x_DictComp(self, node):
        return f"{{{self.entry(node.key, node.value)} {self.comprehension(node)}}}"


class _Printer:
    """A statement as lines within ``room`` columns, broken by its tree where it must be."""

    def __init__(self, room: int):
        self.room = room
        self.flat = _Flat()

    # ------------------------------------------------------------ statements
    def statement(self, node, lead: str | None, indent: str) -> list[str]:
        f = self.flat
        kind = type(node)
        if lead is not None:
            more = indent + STEP + STEP         # a condition's further lines, apart from the body
            if kind is ast.For:
                head = f"{lead} {f.target(node.target)} in "
                return self.expr(node.iter, _LAMBDA, indent + head, ":", more, inside=False)
            return self.expr(node.test, _LAMBDA, f"{indent}{lead} ", ":", more, inside=False)
        more = indent + STEP
        if kind is ast.Assign:
            head = "".join(f"{f.target(t)} = " for t in node.targets)
            return self.expr(node.value, _LAMBDA, indent + head, "", more, inside=False)
        if kind is ast.AugAssign:
            head = f"{f.target(node.target)} {_BINARY[type(node.op)][0]}= "
            return self.expr(node.value, _LAMBDA, indent + head, "", more, inside=False)
        if kind is ast.Expr:
            return self.expr(node.value, _LAMBDA, indent, "", more, inside=False)
        if kind is ast.Return:
            if node.value is None:
                return [indent + "return"]
            return self.expr(node.value, _LAMBDA, indent + "return ", "", more, inside=False, tuple_bare=True)
        if kind in (ast.Pass, ast.Break, ast.Continue):
            return [indent + kind.__name__.lower()]
        return [indent + ast.unparse(node)]

    # ------------------------------------------------------------ expressions
    def expr(self, node, need: int, head: str, tail: str, more: str, inside: bool,
             tuple_bare: bool = False) -> list[str]:
        """``node`` printed after ``head`` and before ``tail``; further lines start at ``more``;
        ``inside``: within brackets, where Python joins lines by itself."""
        f = self.flat
        text = f.items(node.elts) if tuple_bare and type(node) is ast.Tuple and len(node.elts) > 1 else f(node, need)
        if len(head) + len(text) + len(tail) <= self.room:
            return [head + text + tail]
        if tuple_bare and type(node) is ast.Tuple and len(node.elts) > 1:
            return self.bracketed(head + "(", [(e, _IFEXP) for e in node.elts], ")" + tail, more)
        if _bracketed(node, need):
            return self.expr_bare(node, head + "(", ")" + tail, more, inside=True)
        return self.expr_bare(node, head, tail, more, inside)

    def expr_bare(self, node, head: str, tail: str, more: str, inside: bool) -> list[str]:
        f = self.flat
        kind = type(node)
        if kind is ast.Call:
            if len(node.args) == 1 and not node.keywords and type(node.args[0]) is ast.GeneratorExp:
                return self.expr_bare(node.args[0], head + f(node.func, _ATOM), tail, more, inside)
            opener = head + f(node.func, _ATOM) + "("
            parts = [(a, _ARG) for a in node.args] + [(k, None) for k in node.keywords]
            if len(opener) > self.room * 3 // 4 and type(node.func) is ast.Attribute:
                # the called thing is the long part (``(t or table(...)).get(k, 0)``): break it first
                out = self.expr(node.func, _ATOM, head, f"({', '.join(f.arguments(node))}){tail}", more, inside)
                if all(len(line) <= self.room for line in out):
                    return out
                out = self.expr(node.func, _ATOM, head, "(", more, inside)
                return out[:-1] + self.bracketed(out[-1], parts, ")" + tail, more)
            return self.bracketed(opener, parts, ")" + tail, more)
        if kind is ast.List:
            return self.bracketed(head + "[", [(e, _IFEXP) for e in node.elts], "]" + tail, more)
        if kind is ast.Tuple:
            return self.bracketed(head + "(", [(e, _IFEXP) for e in node.elts],
                                  ("," if len(node.elts) == 1 else "") + ")" + tail, more)
        if kind is ast.Dict:
            parts = [((k, v), "entry") for k, v in zip(node.keys, node.values)]
            return self.bracketed(head + "{", parts, "}" + tail, more)
        if kind is ast.Subscript and len(head) + len(f(node.value, _ATOM)) > self.room * 3 // 4:
            return self.expr(node.value, _ATOM, head, f"[{f.index(node.slice)}]{tail}", more, inside)
        if kind is ast.Subscript:
            return self.expr(node.slice, _IFEXP, head + f(node.value, _ATOM) + "[", "]" + tail, more + STEP, True)
        if kind is ast.Attribute and type(node.value) is not ast.Constant:
            return self.expr(node.value, _ATOM, head, "." + node.attr + tail, more, inside)
        if kind is ast.NamedExpr:
            return self.expr(node.value, _IFEXP, f"{head}{node.target.id} := ", tail, more, inside)
        if kind in (ast.ListComp, ast.GeneratorExp, ast.SetComp):
            opener, closer = {ast.ListComp: "[]", ast.GeneratorExp: "()", ast.SetComp: "{}"}[kind]
            return self.chain(head + opener, [(node.elt, _IFEXP, "")] + self.clauses(node), closer + tail, more)
        if not inside and kind in (ast.BoolOp, ast.Compare, ast.BinOp, ast.IfExp, ast.UnaryOp):
            return self.expr_bare(node, head + "(", ")" + tail, more, inside=True)
        if kind is ast.BoolOp:
            prec = _precedence(node)
            word = "and " if prec == _AND else "or "
            parts = [(v, prec + 1, "" if k == 0 else word) for k, v in enumerate(node.values)]
            return self.chain(head, parts, tail, more)
        if kind is ast.Compare:
            parts = [(node.left, _CMP + 1, "")] + [(right, _CMP + 1, _COMPARE[type(op)] + " ")
                                                   for op, right in zip(node.ops, node.comparators)]
            return self.one_broken(head, parts, tail, more) or self.chain(head, parts, tail, more)
        if kind is ast.BinOp:
            parts = self.operands(node)
            return self.one_broken(head, parts, tail, more) or self.chain(head, parts, tail, more)
        if kind is ast.Starred:
            return self.expr(node.value, _BOR, head + "*", tail, more, inside)
        if kind is ast.IfExp:
            return self.chain(head, [(node.body, _OR, ""), (node.test, _OR, "if "), (node.orelse, _IFEXP, "else ")],
                              tail, more)
        if kind is ast.UnaryOp:
            return self.expr(node.operand, _precedence(node), head + _UNARY[type(node.op)], tail, more, inside)
        return [head + f.bare(node) + tail]      # nothing to break at: as it is

    def operands(self, node) -> list:
        """A left-leaning run of one operator's operations (``a + b + c``) as one chain."""
        symbol, prec = _BINARY[type(node.op)]
        if prec == _POWER:
            return [(node.left, prec + 1, ""), (node.right, _FACTOR, symbol + " ")]
        left = node.left
        if type(left) is ast.BinOp and _BINARY[type(left.op)][1] == prec:
            first = self.operands(left)
        else:
            first = [(left, prec, "")]
        return first + [(node.right, prec + 1, symbol + " ")]

    def clauses(self, node) -> list:
        f = self.flat
        out = []
        for gen in node.generators:
            out.append((gen.iter, _OR, f"{'async ' if gen.is_async else ''}for {f.target(gen.target)} in "))
            out.extend((c, _OR, "if ") for c in gen.ifs)
        return out

    def one_broken(self, head: str, parts: list, tail: str, more: str) -> list[str] | None:
        """The operands on one line but for one in brackets, broken inside them (``f(`` ... ``) < 5``),
        where that fits: an operation is read whole before its parts."""
        f = self.flat
        texts = [words + f(node, need) for node, need, words in parts]
        for k in reversed(range(len(parts))):
            node, need, words = parts[k]
            if type(node) not in _BRACKETED or _precedence(node) < need:
                continue
            before = head + " ".join(texts[:k]) + (" " if k else "") + words
            after = "".join(" " + t for t in texts[k + 1:]) + tail
            if len(before) + len(after) > self.room * 3 // 4:
                continue
            out = self.expr(node, need, before, after, more, inside=True)
            if all(len(line) <= self.room for line in out):
                return out
        return None

    def chain(self, head: str, parts: list, tail: str, more: str) -> list[str]:
        """Operands (``(node, precedence, the words before it)``), the first after ``head``, each
        further one on a line of its own at ``more``, ``tail`` after the last."""
        out: list[str] = []
        for k, (node, need, words) in enumerate(parts):
            last = k == len(parts) - 1
            start = head + words if k == 0 else more + words
            out.extend(self.expr(node, need, start, tail if last else "", more + STEP, inside=True))
        return out

    def bracketed(self, opener: str, parts: list, closer: str, more: str) -> list[str]:
        """A bracket's parts after ``opener``: on the next line together where they fit, else each
        on a line of its own; ``closer`` ends the last one's line."""
        inner = max(" " * (len(opener) - len(opener.lstrip()) + len(STEP)), more, key=len)
        texts = [self.part_text(p) for p in parts]
        together = inner + ", ".join(texts) + closer
        if len(together) <= self.room:
            return [opener, together]
        out = [opener]
        for k, part in enumerate(parts):
            end = closer if k == len(parts) - 1 else ","
            out.extend(self.part(part, inner, end, inner + STEP))
        return out

    def part_text(self, part) -> str:
        node, need = part
        f = self.flat
        if need == "entry":
            return f.entry(*node)
        if need is None:
            return f"{node.arg}={f(node.value, _IFEXP)}" if node.arg is not None else f"**{f(node.value, _BOR)}"
        return f(node, need)

    def part(self, part, indent: str, end: str, more: str) -> list[str]:
        node, need = part
        if need == "entry":
            key, value = node
            if key is None:
                return self.expr(value, _BOR, indent + "**", end, more, inside=True)
            return self.expr(value, _IFEXP, f"{indent}{self.flat(key, _IFEXP)}: ", end, more, inside=True)
        if need is None:
            if node.arg is None:
                return self.expr(node.value, _BOR, indent + "**", end, more, inside=True)
            return self.expr(node.value, _IFEXP, f"{indent}{node.arg}=", end, more, inside=True)
        return self.expr(node, need, indent, end, more, inside=True)
