# SPDX-License-Identifier: MIT
"""The code writer's values as trees: Python's own expression and statement nodes, with what the
writer knows of each (``kind``, ``denotes``: dsl/pysource.py).

The writer says what code it makes as a *form* with holes, ``code("s.zones[$0]", zone)``, never by
joining texts: a form is a constant, read into a tree once (and kept), and each hole takes the
tree of the value given for it, so a value is placed by its structure, not its spelling, and the
printer (dsl/printer.py) is the one place that turns a tree into text, with the brackets
precedence needs. ``$0``...``$9`` are holes, ``$*`` a run of values (a call's arguments, a
list's items), given last. A line of a statement is a form too (``stmt("if $0:", test)``): a compound
statement's header is read with an empty body, as the printer prints it.

While the writer moves over, a value is also its text (:class:`~rulekit.dsl.pysource.Py` is a
``str``), made from the form with every hole bracketed, so a part of the writer not moved over
yet reads it as before; a text with no tree is read into one where a form takes it (and kept).
"""
from __future__ import annotations

import ast
import functools
import re

from .pysource import CONST, NAME, NUMBER, SLOT, TEXT, Exit, Py, kind

_HOLE = re.compile(r"\$(\d|\*)")
_HOLE_NAME = "__h"          # a hole as the form's tree holds it: __h0 ... __h9, and __hs for $*
_STAR = f"{_HOLE_NAME}s"
_ATOMS = frozenset((NAME, TEXT, CONST, SLOT))       # texts that need no bracket wherever they stand
# a value whose text is bracketed whole: the old writer's texts were, and a part not moved over yet
# puts a value's text in its own with no bracket
_OPERATIONS = frozenset((ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.NamedExpr, ast.Lambda))


class Line(str):
    """A statement's line: its text and its tree (``node``), and ``lead``, the keyword of a
    compound statement's header (``if``, ``while``, ``def``...; the tree then has an empty body),
    and a comment the line ends with (``note``)."""

    def __new__(cls, text: str, node, lead: str | None, note: str = ""):
        line = super().__new__(cls, text)
        line.node, line.lead, line.note = node, lead, note
        return line


def heading(name: str, params, note: str = "") -> Line:
    """``def name(params):`` (``note``: the comment after it)."""
    node = ast.FunctionDef(name, ast.arguments([], [ast.arg(str(p)) for p in params], None, [], [], None, []),
                           [ast.Pass()], [], None)
    return Line(f"def {name}({', '.join(map(str, params))}):", node, "def", note)


ELSE = Line("else:", None, "else")      # (an `if` line's further branch: the printer writes it as it is)


def code(form: str, *holes, kind: str | None = None, denotes: tuple | None = None) -> Py:
    """The expression ``form`` with its holes filled by ``holes`` (trees, or texts read into one),
    known to be of ``kind`` where the writer says so."""
    tree = _fill(_expression(form), holes)
    text = _text(form, holes)
    return Py(f"({text})" if tree.__class__ in _OPERATIONS else text, kind, denotes, tree)


def stmt(form: str, *holes) -> Line:
    """The statement line ``form`` with its holes filled (``if $0:``, ``$0 = $1``)."""
    tree, lead = _statement(form)
    text = _text(form, holes)
    return Line(text, _fill(tree, holes) if tree is not None else None, lead)


def exit(form: str, *holes) -> Exit:
    """A line that leaves its block (``return $0``: blocks.py threads jumps around it)."""
    line = stmt(form, *holes)
    return Exit(line, line.node)


def call(func, args, keywords: dict | None = None) -> Py:
    """``func(*args, k=v...)`` (a keyword's name is the writer's own)."""
    keywords = keywords or {}
    tree = ast.Call(tree_of(func), [tree_of(a) for a in args],
                    [ast.keyword(k, tree_of(v)) for k, v in keywords.items()])
    text = ", ".join([_bracketed(a) for a in args] + [f"{k}={_bracketed(v)}" for k, v in keywords.items()])
    return Py(f"{_bracketed(func)}({text})", None, None, tree)


def mapping(keys, values) -> Py:
    """``{k: v, ...}``."""
    tree = ast.Dict([tree_of(k) for k in keys], [tree_of(v) for v in values])
    text = "".join(f"{_bracketed(k)}: {_bracketed(v)}, " for k, v in zip(keys, values))
    return Py(f"{{{text}}}", None, None, tree)


def assigned(targets, value) -> Line:
    """``a = b = ... = value``."""
    tree = ast.Assign([_stored(t) for t in targets], tree_of(value))
    return Line(" = ".join([*map(str, targets), _bracketed(value)]), tree, None)


def all_of(tests) -> Py:
    """``a and b and ...`` of one test or more."""
    return _joined(ast.And(), " and ", list(tests))


def any_of(tests) -> Py:
    """``a or b or ...`` of one test or more."""
    return _joined(ast.Or(), " or ", list(tests))


def _joined(op, word: str, tests: list) -> Py:
    if len(tests) == 1:
        return tests[0]
    tree = ast.BoolOp(op, [tree_of(t) for t in tests])
    return Py("(" + word.join(_bracketed(t) for t in tests) + ")", None, None, tree)


def listed(element, fors, test=None) -> Py:
    """``[element for var in source ... if test]``: ``fors`` is ``(var, source)`` pairs."""
    return listed_from(generator(element, fors, test))


def generator(element, fors, test=None) -> Py:
    """``(element for var in source ... if test)``: ``fors`` is ``(var, source)`` pairs."""
    tree = ast.GeneratorExp(tree_of(element), [
        ast.comprehension(_stored(var), tree_of(source), [], 0) for var, source in fors])
    if test is not None:
        tree.generators[-1].ifs.append(tree_of(test))
    text = " ".join(f"for {var} in {_bracketed(source)}" for var, source in fors)
    return Py(f"({_bracketed(element)} {text}{f' if {_bracketed(test)}' if test is not None else ''})",
              None, None, tree)


def listed_from(items: Py) -> Py:
    """A list of what the generator ``items`` gives: ``[element for ...]``."""
    gen = items.node
    return Py(f"[{items[1:-1]}]", None, None, ast.ListComp(gen.elt, gen.generators))


def _stored(var) -> ast.expr:
    return ast.Name(str(var), ast.Store())


def name(text: str, kind_: str = NAME, denotes: tuple | None = None) -> Py:
    """A Python name the writer made (a local, a constant's name)."""
    return Py(text, kind_, denotes, ast.Name(text, ast.Load()))


def standing(value) -> Py:
    """``value`` as a part of a text not moved over yet may put it anywhere (``(1).__class__``)."""
    return Py(_bracketed(value), None, None, tree_of(value))


def tuple_of(items) -> Py:
    """A tuple of the values ``items``."""
    return code("($*,)", items) if items else code("()")


def rebuilt(node, part):
    """``node`` with ``part`` applied to each of its parts that is a tree: a new node where one
    changed, else ``node`` itself (the writer's trees share their parts: none is changed in place;
    printer._plain and the transforms walk trees so)."""
    fields, changed = {}, False
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            new = [part(item) if isinstance(item, ast.AST) else item for item in value]
            changed = changed or any(a is not b for a, b in zip(new, value))
        else:
            new = part(value) if isinstance(value, ast.AST) else value
            changed = changed or new is not value
        fields[field] = new
    return type(node)(**fields) if changed else node


def tree_of(value) -> ast.AST:
    """The tree of a value of the writer: its own, or its text read (a part not moved over yet)."""
    node = getattr(value, "node", None)
    return node if node is not None else _read(str(value))


# ------------------------------------------------------------------ forms

@functools.cache
def _expression(form: str) -> ast.expr:
    return ast.parse(_HOLE.sub(_hole_name, form), mode="eval").body


@functools.cache
def _statement(form: str) -> tuple:
    source = _HOLE.sub(_hole_name, form)
    lead = source.split(None, 1)[0]
    if lead in ("if", "elif", "while", "for"):
        if not source.endswith(":"):
            (node,) = ast.parse(source).body
            return node, "inline"   # a statement and its body on one line (`if x: f()`)
        source = (source[2:] if lead == "elif" else source) + " pass"
    else:
        lead = None
    (node,) = ast.parse(source).body
    return node, lead


def _hole_name(match) -> str:
    return f"*{_STAR}" if match.group(1) == "*" else f"{_HOLE_NAME}{match.group(1)}"


@functools.lru_cache(maxsize=8192)
def _read(text: str) -> ast.expr:
    """A text of the writer's not moved over yet, as a tree (kept: the same text is read once)."""
    return ast.parse(text, mode="eval").body


def _fill(node, holes: tuple):
    """A copy of the form's tree with its holes' trees in place (the form's own is kept as read)."""
    if isinstance(node, ast.Name):
        if node.id.startswith(_HOLE_NAME):
            return tree_of(holes[int(node.id[len(_HOLE_NAME):])])
        return node
    if isinstance(node, (ast.Constant, ast.Load, ast.Store, ast.operator, ast.cmpop, ast.boolop, ast.unaryop)):
        return node
    fields = {}
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            items = []
            for item in value:
                if isinstance(item, ast.Starred) and isinstance(item.value, ast.Name) and item.value.id == _STAR:
                    items.extend(tree_of(h) for h in holes[-1])
                else:
                    items.append(_fill(item, holes) if isinstance(item, ast.AST) else item)
            fields[field] = items
        elif isinstance(value, ast.AST):
            fields[field] = _fill(value, holes)
        else:
            fields[field] = value
    return type(node)(**fields)


def _text(form: str, holes: tuple) -> str:
    """The form's text with each hole's, bracketed unless it stands anywhere as it is."""
    def hole(match):
        if match.group(1) == "*":
            return ", ".join(_bracketed(h) for h in holes[-1])
        return _bracketed(holes[int(match.group(1))])
    return _HOLE.sub(hole, form)


def _bracketed(value) -> str:
    """A hole's text as it may stand anywhere: a value made by a form brackets its own text where
    it is an operation; a number is bracketed (``(1).__class__``, ``(-1) ** 2``), and so is a text
    the writer made without a form."""
    return str(value) if kind(value) in _ATOMS or (getattr(value, "node", None) is not None and kind(value) != NUMBER) \
        else f"({value})"


PASS, BREAK, CONTINUE = stmt("pass"), stmt("break"), stmt("continue")
