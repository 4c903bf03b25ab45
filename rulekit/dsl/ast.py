# SPDX-License-Identifier: MIT
"""Typed AST of the effect language.

Frozen attrs nodes with tuple children and a :class:`~rulekit.source.Span` that
already points into the author's YAML file (the parser maps DSL positions back
through the string's origin), so no later stage has to know where a script lived.
"""
from __future__ import annotations

import attrs

from ..source import Span


@attrs.frozen
class Node:
    span: Span = attrs.field(eq=False, repr=False, kw_only=True)


# ---------------------------------------------------------------- expressions
@attrs.frozen
class Num(Node):
    value: int


@attrs.frozen
class Str(Node):
    value: str


@attrs.frozen
class Template(Node):
    """A string with ``{expr}`` holes: ``"bid {n}"``."""
    parts: tuple  # of str | Expr


@attrs.frozen
class Const(Node):
    value: object  # True, False or None


@attrs.frozen
class Name(Node):
    id: str


@attrs.frozen
class Attr(Node):
    obj: Expr
    name: str


@attrs.frozen
class Index(Node):
    obj: Expr
    index: Expr


@attrs.frozen
class Slice(Node):
    """``xs[lo:hi]``: the items from ``lo`` up to ``hi`` (either may be left out: None)."""
    obj: Expr
    lo: Expr | None
    hi: Expr | None


@attrs.frozen
class Call(Node):
    func: str
    args: tuple
    kwargs: tuple  # of (name, Expr)


@attrs.frozen
class ListLit(Node):
    items: tuple


@attrs.frozen
class MapLit(Node):
    """``{k: v, ...}``: a mapping, its keys in the order written."""
    keys: tuple
    values: tuple


@attrs.frozen
class Comp(Node):
    """``[elt for x in xs if cond]``; also a bare generator argument ``sum(x for x in xs)``."""
    elt: Expr
    fors: tuple  # of (name, Expr)
    cond: Expr | None
    by: Expr | None = None  # `by KEY` (a generator argument only): items are compared by KEY


@attrs.frozen
class Let(Node):
    """``let NAME = value`` among a comprehension's or an option's ``for`` clauses: the
    collection of a clause that binds NAME to the one value (``for NAME in [value]``)."""
    value: Expr


@attrs.frozen
class BinOp(Node):
    op: str
    left: Expr
    right: Expr


@attrs.frozen
class Compare(Node):
    op: str
    left: Expr
    right: Expr


@attrs.frozen
class BoolOp(Node):
    op: str  # "and" | "or"
    left: Expr
    right: Expr


@attrs.frozen
class Not(Node):
    operand: Expr


@attrs.frozen
class Neg(Node):
    operand: Expr


@attrs.frozen
class IfExp(Node):
    cond: Expr
    then: Expr
    orelse: Expr


Expr = (Num | Str | Template | Const | Name | Attr | Index | Slice | Call | ListLit | MapLit | Comp | Let | BinOp
        | Compare | BoolOp | Not | Neg | IfExp)


# ----------------------------------------------------------------- statements
@attrs.frozen
class Assign(Node):
    target: Expr
    value: Expr


@attrs.frozen
class AugAssign(Node):
    target: Expr
    op: str  # "+" | "-"
    value: Expr


@attrs.frozen
class CallStmt(Node):
    call: Call


@attrs.frozen
class Pass(Node):
    pass


@attrs.frozen
class Break(Node):
    pass


@attrs.frozen
class Continue(Node):
    pass


@attrs.frozen
class Return(Node):
    value: Expr | None


@attrs.frozen
class Assert(Node):
    """``assert test, "message"``: the game fails on this line (RK4019) when ``test`` is false."""
    test: Expr
    message: Expr | None


@attrs.frozen
class If(Node):
    branches: tuple  # of (cond, body)
    orelse: tuple


@attrs.frozen
class For(Node):
    var: str
    iter: Expr
    body: tuple


@attrs.frozen
class While(Node):
    cond: Expr
    body: tuple


@attrs.frozen
class Option(Node):
    label: Str | Template
    fors: tuple  # of (name, Expr)
    cond: Expr | None
    body: tuple
    by: Expr | None = None  # `by KEY`: one option per key (the first of each)
    says: Str | Template | None = None  # `says "..."`: the narration of choosing it (written on demand)


@attrs.frozen
class Include(Node):
    """``include group(args)`` inside ``choose``: the options of a named option group."""
    name: str
    args: tuple


@attrs.frozen
class Choose(Node):
    player: Expr
    options: tuple
    prompt: Str | Template | None = None  # `, prompt "..."`: what the chooser is told (written on demand)
    orelse: tuple = ()      # `else:`: run, without asking, when no option is listed


@attrs.frozen
class ChooseAll(Choose):
    """``choose_all q in players:``: every listed player picks one option (``var`` bound to
    them), none seeing the others' picks; then each pick's body runs, in the listed order.
    A kind of ``Choose``, so everything that asks "may this stop for a decision?" sees it."""
    var: str = ""


Stmt = Assign | AugAssign | CallStmt | Pass | Break | Continue | Return | Assert | If | For | While | Choose | ChooseAll


def walk(node):
    """Every node of a tree (a node, or a tuple of them), parents before children."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Node):
            yield item
            stack.extend(reversed([getattr(item, f.name) for f in attrs.fields(type(item)) if f.name != "span"]))
        elif isinstance(item, tuple):
            stack.extend(reversed(item))


def dump(node, indent: int = 0) -> str:
    """A readable tree dump (the `rulekit ast` debugging aid and parser snapshots)."""
    pad = "  " * indent
    if isinstance(node, tuple):
        return "\n".join(dump(n, indent) for n in node)
    if not isinstance(node, Node):
        return f"{pad}{node!r}"
    fields = [f for f in attrs.fields(type(node)) if f.name != "span"]
    simple = []
    nested = []
    for field in fields:
        value = getattr(node, field.name)
        if isinstance(value, Node) or (isinstance(value, tuple) and any(
                isinstance(v, (Node, tuple)) for v in value)):
            nested.append((field.name, value))
        elif field.default is attrs.NOTHING or value != field.default:    # a clause left out is not shown
            simple.append(f"{field.name}={value!r}")
    head = f"{pad}{type(node).__name__}({', '.join(simple)})"
    lines = [head]
    for name, value in nested:
        lines.append(f"{pad}  {name}:")
        if isinstance(value, tuple):
            for item in value:
                if isinstance(item, tuple):
                    lines.append(f"{pad}    -")
                    for part in item:
                        lines.append(dump(part, indent + 3))
                else:
                    lines.append(dump(item, indent + 2))
        else:
            lines.append(dump(value, indent + 2))
    return "\n".join(lines)
