# SPDX-License-Identifier: MIT
"""What a body's statements give the game's variables, checked before any code is written.

A variable's type is what the game declares (``type:``) or what its initial value evidently is
(``typed.infer``, as a variant's values are checked); a value's is what its text evidently is
(``kinds.Kinds.evident``, or a variable's own type). Where both are evident and disagree (a text
added to a number, a list given to a truth value) the statement is refused at its own line,
whatever passes are on: only running it could tell otherwise, and running it would fail or,
worse, carry on with a value of the wrong type. A name only ever given a value by ``+=`` or
``-=`` (never set before) is an unknown name, as a misspelt variable is.

The compiler still checks names, calls and kinds as it writes (dsl/compiler.py); these checks
need no code written and live here, apart from it.
"""
from __future__ import annotations

import attrs

from ..codes import (
    NEVER_EQUAL,
    OPERANDS_OF_WRONG_TYPES,
    UNKNOWN_NAME,
    VALUE_OF_WRONG_TYPE_ASSIGNED,
    WRONG_ARGUMENT_KIND,
)
from ..content import typed
from ..engine.library import REGISTRY
from ..errors import Diagnostic, suggestion_help
from . import ast, resolve
from .kinds import wrong_argument
from .visit import Statements, assigned_values

# a variable's type (typed.py's words, head only) -> the evident kind (kinds.py's words) it holds
_KIND_OF_TYPE = {"int": "number", "bool": "bool", "text": "text", "list": "list"}
_NOUNS = {"number": "a number", "text": "a text", "bool": "a truth value", "list": "a list", "none": "none",
          "zone": "a zone", "family": "a family of zones"}
_HOLDS = {"int": "whole numbers", "bool": "true or false", "text": "texts", "list": "lists"}


@attrs.frozen
class Types:
    """The types of the game's variables: (name, per player) -> typed.py's type (``int``,
    ``list of symbol of goods``...), declared or inferred from the initial value."""

    of: dict
    declared: frozenset = frozenset()       # the variables whose type the content writes (`type:`)

    @classmethod
    def of_content(cls, data: dict, vocab: typed.Vocab) -> Types:
        out, declared = {}, set()
        for section, per_player in ((data.get("vars"), False), ((data.get("player") or {}).get("vars"), True)):
            for name, spec in (section or {}).items():
                spec = spec if isinstance(spec, dict) else {"initial": spec}
                written = spec.get("type")
                if isinstance(written, str):
                    declared.add((name, per_player))
                out[(name, per_player)] = written if isinstance(written, str) else \
                    typed.infer(spec.get("initial", 0), vocab)
        return cls(out, frozenset(declared))

    def head(self, name: str, per_player: bool) -> str | None:
        kind = self.of.get((name, per_player))
        return kind.partition(" of ")[0] if kind else None


class Checker(Statements):
    """The checks of one body (a procedure's, a phase's, a script's position) with its
    parameters; each problem goes to ``out``."""

    def __init__(self, vocab, kinds, types: Types, params, out: list):
        self.v = vocab
        self.kinds = kinds
        self.types = types
        self.out = out
        self.params = set(params)
        self.given: set = set()        # names a body gives a value by anything but `+=`/`-=`
        self.own: set = set()          # the bare names (their nodes' ids) that are the body's own (resolve.py)

    def check(self, text, statements: bool = True) -> None:
        """Check a text: a body of statements (what they give variables), or an expression; the
        operators and built-in arguments of either (:func:`check_operands`)."""
        self.own = {id(node) for node, meaning in resolve.names(text, self.params, self.v.gvars, statements)
                    if meaning == resolve.OWN}
        if statements:
            self.given = {name for name, values in assigned_values(text).items()
                          if values is None or any(not _grown_from(name, v) for v in values)}
            self.visit(text)
        check_operands(text, self)

    def Assign(self, st):
        self._gives(st.target, st.value, "=")

    def AugAssign(self, st):
        target = st.target
        if isinstance(target, ast.Name) and self._local(target.id) is None:
            self.out.append(Diagnostic(
                UNKNOWN_NAME, f"unknown name `{target.id}`", target.span,
                help=suggestion_help(target.id, self._names())
                or f"`{target.id} {st.op}= ...` needs a value to start from: set `{target.id} = ...` first"))
            return
        self._gives(target, st.value, f"{st.op}=")

    def _local(self, name: str) -> bool | None:
        """True: a local of the body; False: a variable of the game; None: neither (unknown)."""
        if name in self.params:
            return True
        if name in self.v.gvars or name in self.v.constants:
            return False        # a game's variable is never a local (codegen.Module.write)
        return True if name in self.given else None

    def _names(self) -> set:
        v = self.v
        return self.params | self.given | v.gvars | v.constants

    def _gives(self, target, value, op: str) -> None:
        """``target op value``: the value's evident kind must be one the target's type takes."""
        variable = self._variable(target)
        if variable is None:
            return
        name, per_player = variable
        head = self.types.head(name, per_player)
        got = self._kind(value)
        if head not in _KIND_OF_TYPE or got in (None, _KIND_OF_TYPE[head]) or (got == "none" and op == "="):
            return
        where = f"`{_shown(target)}`"
        self.out.append(Diagnostic(
            VALUE_OF_WRONG_TYPE_ASSIGNED, f"{where} holds {_HOLDS[head]}; `{op}` gives it {_NOUNS[got]}",
            value.span, help=_help(value, head) or _declare_help(self.types, variable, got),
            notes=(f"{_what(per_player)} `{name}` is {_declared(self.types, variable)}",)))

    def _variable(self, target):
        """(name, per player) of the game variable ``target`` sets, or None (a local, an element,
        an item's property, or a name that could be either)."""
        v = self.v
        if isinstance(target, ast.Name):
            return (target.id, False) if self._local(target.id) is False and target.id in v.gvars else None
        if isinstance(target, ast.Attr) and target.name in v.pvars and \
                target.name not in (v.item_props | v.dynamic_props | v.member_props) and target.name not in v.pzones:
            return target.name, True
        return None

    def _kind(self, node) -> str | None:
        """The evident kind of ``node``: the text's own (kinds.py), or a game variable's type; none
        where it reads a local of the body (kinds.py reads every name as the game's)."""
        if not isinstance(node, ast.Attr) and any(id(n) in self.own for n in ast.walk(node) if isinstance(n, ast.Name)):
            return None     # (`p.coins` of a loop's `p` is still a player variable)
        kind = self.kinds.evident(node)
        if kind is not None:
            return kind
        variable = self._variable(node) if isinstance(node, (ast.Name, ast.Attr)) else None
        return _KIND_OF_TYPE.get(self.types.head(*variable)) if variable else None


# what an operator takes, by the evident kinds of its two sides (a number, a truth value, a text, a
# list, none): a pair not listed fails whenever it is worked out (RK4022 in play)
_NUMBERS = {"number", "bool"}
_TAKES_PAIR = {
    "+": {(a, b) for a in _NUMBERS for b in _NUMBERS} | {("text", "text"), ("list", "list")},
    "-": {(a, b) for a in _NUMBERS for b in _NUMBERS},
    "*": {(a, b) for a in _NUMBERS for b in _NUMBERS} | {(k, n) for k in ("text", "list") for n in _NUMBERS}
    | {(n, k) for k in ("text", "list") for n in _NUMBERS},
}
_KNOWN = frozenset(("number", "bool", "text", "list", "none"))


def check_operands(tree, checker: Checker) -> None:
    """Every ``+``, ``-``, ``*`` of ``tree`` whose two sides are evidently of kinds it cannot take
    (``1 + "a"``, ``[1] + 1``, ``none - 1``) is refused where it is written (RK0324); an ``==``/``!=``
    of a number and a text, which is never equal, is a warning (RK0325). ``checker`` knows the
    text's own names (``Checker.own``: a local's kind is not evident)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and node.op in _TAKES_PAIR:
            pair = (checker._kind(node.left), checker._kind(node.right))
            if set(pair) <= _KNOWN and pair not in _TAKES_PAIR[node.op]:
                checker.out.append(Diagnostic(
                    OPERANDS_OF_WRONG_TYPES, f"`{node.op}` cannot take {_NOUNS[pair[0]]} and {_NOUNS[pair[1]]}",
                    node.span, help=_operand_help(node.op, pair)))
        elif isinstance(node, ast.Call):
            _check_arguments(node, checker)
        elif isinstance(node, ast.Compare) and node.op in ("==", "!="):
            pair = {checker._kind(node.left), checker._kind(node.right)}
            if pair == {"number", "text"}:
                checker.out.append(Diagnostic(
                    NEVER_EQUAL, f"`{node.op}` compares a number with a text: they are never equal", node.span,
                    help="write the number without quotes, or compare texts: `text(n) == \"3\"`",
                    severity="warning"))


def _check_arguments(call, checker: Checker) -> None:
    """A built-in's argument whose kind only a variable's type tells (``count(p.coins)``, coins a
    number): RK0321 as the compiler says it of an argument whose text tells (kinds.wrong_argument)."""
    builtin = REGISTRY.get(call.func)
    v = checker.v
    if builtin is None or not builtin.args or call.func in v.functions or call.func in v.procedures:
        return
    names = list(builtin.params) + [n for n, _ in builtin.optional]
    for name, arg in list(zip(names, call.args)) + [(k, a) for k, a in call.kwargs if k in names]:
        if checker.kinds.evident(arg) is not None:
            continue            # the compiler says it, as it writes the call
        said = wrong_argument(builtin, name, checker._kind(arg), _shown(arg))
        if said is not None:
            checker.out.append(Diagnostic(WRONG_ARGUMENT_KIND, said, arg.span,
                                          help=f"the signature is `{builtin.signature}`"))


def _operand_help(op: str, pair: tuple) -> str | None:
    if op == "+" and "text" in pair and pair[0] != pair[1]:
        return "join a number to a text with text(...): `\"bid \" + text(n)`, or write a template: `\"bid {n}\"`"
    if op == "+" and "list" in pair:
        return "add one element to a list as a list of one: `xs + [x]`"
    return None


def _grown_from(name: str, value) -> bool:
    """``value`` is ``name + ...`` (what ``name += v`` gives, visit.bindings): it needs ``name`` set before."""
    return isinstance(value, ast.BinOp) and isinstance(value.left, ast.Name) and value.left.id == name


def _shown(target) -> str:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attr) and isinstance(target.obj, ast.Name):
        return f"{target.obj.id}.{target.name}"
    return f"(a player).{target.name}" if isinstance(target, ast.Attr) else "it"


def _what(per_player: bool) -> str:
    return "player variable" if per_player else "variable"


def _declared(types: Types, variable: tuple) -> str:
    return types.of.get(variable) or "untyped"


def _declare_help(types: Types, variable: tuple, got: str) -> str | None:
    """Where the type was only inferred from the initial value: how to say it holds more."""
    if variable not in types.declared:
        name, per_player = variable
        section = "player.vars" if per_player else "vars"
        return f"its type is inferred from its initial value; if it holds {_NOUNS[got]} too, declare " \
               f"`{name}: {{initial: ..., type: any}}` under `{section}`"
    return None


def _help(value, head: str) -> str | None:
    """How to write the value the variable takes, where the text shows it."""
    if head == "int" and isinstance(value, ast.Str) and value.value.strip().lstrip("-").isdigit():
        return f"write the number without quotes: {value.value.strip()}"
    if head == "bool" and isinstance(value, ast.Str) and value.value in ("true", "false"):
        return f"write `{value.value}` without quotes"
    return None
