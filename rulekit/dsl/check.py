# SPDX-License-Identifier: MIT
"""What a body's statements give the game's variables, checked before any code is written.

A variable's type is what the game declares (``type:``) or what its initial value evidently is
(``typed.infer``, as a variant's values are checked); a value's is what its text evidently is
(``kinds.Kinds.evident``, or a variable's own type). Where both are evident and disagree (a text
added to a number, a list given to a truth value) the statement is refused at its own line,
whatever passes are on: only running it could tell otherwise, and running it would fail or,
worse, carry on with a value of the wrong type. A name only ever given a value by ``+=`` or
``-=`` (never set before) is an unknown name, as a misspelt variable is.

Names, attributes and calls are checked by check_names.py, from here. The writer
(dsl/compiler.py) reports what it meets only where these checks said it already.
"""
from __future__ import annotations

import attrs

from ..codes import (
    NEVER_EQUAL,
    OPERANDS_OF_WRONG_TYPES,
    UNKNOWN_NAME,
    VALUE_OF_WRONG_TYPE_ASSIGNED,
)
from ..content import typed
from ..errors import Diagnostic, suggestion_help
from . import ast, resolve
from .check_names import Seen, check_names, check_pure
from .check_statements import check_forms, check_locals, check_statements
from .kinds import NOUNS, is_item, player_variable
from .visit import Statements, assigned_values, bindings, walks

# a variable's type (typed.py's words, head only) -> the evident kind (kinds.py's words) it holds
_KIND_OF_TYPE = {"int": "number", "bool": "bool", "text": "text", "list": "list"}
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


class FrontEnd:
    """The checks of every text a build writes, each text once, before it is written: the writer
    calls it with each tree it is about to write (``Compiler.front_end``) and the builder with the
    texts it holds; the problems go to ``out``."""

    def __init__(self, vocab, kinds, types: Types, out: list, seats: dict | None = None):
        self.v, self.kinds, self.types, self.out = vocab, kinds, types, out
        self.checked: set = set()       # the ids of every node of the texts checked
        # (file, line, column) of a use of a text's own name -> what it evidently holds (a player, an
        # item, a number...): what the language server's hover says of a local (Game.name_kinds)
        self.typed: dict = {}
        # id(text) -> the names it is given that are a player (`p` of a scoring category): the
        # builder fills it as it parses (model.TEXT_PLACES), before any text is checked
        self.seats = seats if seats is not None else {}

    def __call__(self, text, params=(), statements: bool = True, function: str | None = None,
                 body_of: tuple | None = None) -> None:
        """Check ``text`` (its names ``params``; a body of ``statements`` or an expression; the
        text of content function ``function``, which must be pure; the body of the procedure
        ``body_of`` names, with where it is declared) unless it was checked."""
        if id(text) not in self.checked:
            checker = Checker(self.v, self.kinds, self.types, params, self.out, self.seats.get(id(text), ()),
                              self.typed)
            self.checked.update(checker.check(text, statements))
            self.checked.add(id(text))      # (a body is a tuple of statements)
            if function is not None:
                check_pure(text, checker, function)
            if body_of is not None:
                check_locals(text, checker, params, body_of)


class Checker(Statements):
    """The checks of one body (a procedure's, a phase's, a script's position) with its
    parameters; each problem goes to ``out``."""

    def __init__(self, vocab, kinds, types: Types, params, out: list, seats=(), typed: dict | None = None):
        self.v = vocab
        self.seats = frozenset(seats)  # the parameters that are a player
        self.typed = typed             # where to say what each use of a name of the text's own holds
        self.kinds = kinds
        self.types = types
        self.out = out
        self.params = set(params)
        self.given: set = set()        # names a body gives a value by anything but `+=`/`-=`
        self.own: set = set()          # the bare names (their nodes' ids) that are the body's own (resolve.py)
        self.seen = None               # node -> the names seen there, as the writer's scope (_seen)

    def check(self, text, statements: bool = True) -> dict:
        """Check a text: a body of statements (what they give variables), or an expression; the
        operators, names and calls of either. Returns resolve.scopes of the text (id(node) -> the
        text's own names seen there), whose keys are every node checked."""
        scopes = resolve.scopes(text, self.params, self.v.gvars, statements)
        binders = resolve.binders(text, self.params, self.v.gvars, statements)
        self.own = set(binders)         # (every use of a name of the text's own, and only those)
        seen = self.seen = self._seen(text, scopes, binders, statements)
        if statements:
            self.given = {name for name, values in assigned_values(text).items()
                          if values is None or any(not _grown_from(name, v) for v in values)}
            self.visit(text)
            check_statements(text, self, seen)
        check_operands(text, self)
        check_names(text, self, scopes, seen)
        check_forms(text, self, seen)
        return scopes

    def _seen(self, text, scopes: dict, binders: dict, statements: bool):
        """node -> the writer's view of the names there: the text's own, and what its locals
        certainly hold (a body's, as the writer finds them: ``Kinds.of_locals``)."""
        top = resolve.own_names(text, self.params, self.v.gvars, statements)
        values: dict = {}
        kinds: dict = {}
        if statements:
            local = set(top) - self.params
            kinds = self.kinds.of_locals(text, local, Seen(top))
            # (a comprehension's or an option's variable called like a local is not that local)
            bound = {name for node in ast.walk(text) if node.__class__ in (ast.Comp, ast.Option)
                     for name, _coll in node.fors}
            values = self.kinds.evident_locals(text, local - bound, Seen(top, kinds))
        made: dict = {}
        named: dict = {}

        def seen(node):
            own = scopes[id(node)]
            found = made.get(own)
            if found is None:
                found = made[own] = Seen(own, kinds, values, named)
            return found
        if statements:
            values.update(self._walked_locals(text, top - self.params, seen))
        self._bound(binders, seen, named)
        if self.typed is not None:
            for key, (node, binder) in binders.items():
                kind = values.get(node.id) if binder == resolve.LOCAL else named.get(key)
                if kind is not None and node.span is not None:
                    self.typed[node.span.path, node.span.line, node.span.column] = kind
        return seen

    def _walked_locals(self, text, local: set, seen) -> dict:
        """The locals only ``for`` loops and ``choose_all`` bind (never assigned), each by what
        every collection it walks evidently holds: ``for q in players`` binds a seat, ``for c in
        p.hand`` an item."""
        plain = {name for name, value in bindings(text) if value is not None}
        walked: dict = {}
        for name, coll in walks(text):
            walked.setdefault(name, []).append(coll)
        out = {}
        for name, colls in walked.items():
            if name in local and name not in plain:
                held = {self.kinds.element(coll, seen(coll), _inner(coll, seen)) for coll in colls}
                if len(held) == 1 and None not in held:
                    out[name] = held.pop()
        return out

    def _bound(self, binders: dict, seen, named: dict) -> None:
        """``named``: id(Name) -> the evident kind of each use of a name a comprehension's or an
        option's clause binds (what its collection holds; None when nothing tells), or of a
        parameter that is a player. In the order written, so a clause's collection may read a
        name an earlier clause binds."""
        held: dict = {}
        for key, (node, binder) in binders.items():
            if binder == resolve.PARAM:
                if node.id in self.seats:
                    named[key] = "seat"
            elif binder != resolve.LOCAL:
                clause, k = binder
                if (id(clause), k) not in held:
                    coll = clause.fors[k][1]
                    held[id(clause), k] = self.kinds.element(coll, seen(coll), _inner(coll, seen))
                named[key] = held[id(clause), k]

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
        got = None if got == "seat" else _as_value(got)     # (a player is typed.py's `seat`, not a number)
        if head not in _KIND_OF_TYPE or got in (None, _KIND_OF_TYPE[head]) or (got == "none" and op == "="):
            return
        where = f"`{_shown(target)}`"
        self.out.append(Diagnostic(
            VALUE_OF_WRONG_TYPE_ASSIGNED, f"{where} holds {_HOLDS[head]}; `{op}` gives it {NOUNS[got]}",
            value.span, help=_help(value, head) or _declare_help(self.types, variable, got),
            notes=(f"{_what(per_player)} `{name}` is {_declared(self.types, variable)}",)))

    def _variable(self, target):
        """(name, per player) of the game variable ``target`` sets, or None (a local, an element,
        an item's property, or a name that could be either)."""
        v = self.v
        if isinstance(target, ast.Name):
            return (target.id, False) if self._local(target.id) is False and target.id in v.gvars else None
        if isinstance(target, ast.Attr) and player_variable(target.name, v):
            return target.name, True
        return None

    def _kind(self, node) -> str | None:
        """The evident kind of ``node``: what its text says (kinds.py; a local's, where every value
        the body gives it says the same), or a game variable's type."""
        kind = self.kinds.evident(node, self.seen(node))      # (a local's where every value it is given agrees)
        return kind if kind is not None else self.typed_kind(node)

    def typed_kind(self, node) -> str | None:
        """What a game variable's type says ``node`` holds, where ``node`` reads one (``p.coins``)."""
        if node.__class__ is ast.Name and id(node) in self.own:
            return None
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
            pair = (_as_value(checker._kind(node.left)), _as_value(checker._kind(node.right)))
            if set(pair) <= _KNOWN and pair not in _TAKES_PAIR[node.op]:
                checker.out.append(Diagnostic(
                    OPERANDS_OF_WRONG_TYPES, f"`{node.op}` cannot take {NOUNS[pair[0]]} and {NOUNS[pair[1]]}",
                    node.span, help=_operand_help(node.op, pair)))
        elif isinstance(node, ast.Compare) and node.op in ("==", "!="):
            pair = {_as_value(checker._kind(node.left)), _as_value(checker._kind(node.right))}
            if pair == {"number", "text"}:
                checker.out.append(Diagnostic(
                    NEVER_EQUAL, f"`{node.op}` compares a number with a text: they are never equal", node.span,
                    help="write the number without quotes, or compare texts: `text(n) == \"3\"`",
                    severity="warning"))


def _inner(coll, seen):
    """The names seen at a comprehension's element, where ``coll`` is one (Kinds.element)."""
    return seen(coll.elt) if coll.__class__ is ast.Comp else None


def _as_value(kind: str | None) -> str | None:
    """What an operator sees of a value: a player is its seat number, an item or a set's member
    its id, a text."""
    return "text" if is_item(kind) else _VALUE_OF.get(kind, kind)


_VALUE_OF = {"seat": "number", "item": "text", "member": "text"}


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
        return f"its type is inferred from its initial value; if it holds {NOUNS[got]} too, declare " \
               f"`{name}: {{initial: ..., type: any}}` under `{section}`"
    return None


def _help(value, head: str) -> str | None:
    """How to write the value the variable takes, where the text shows it."""
    if head == "int" and isinstance(value, ast.Str) and value.value.strip().lstrip("-").isdigit():
        return f"write the number without quotes: {value.value.strip()}"
    if head == "bool" and isinstance(value, ast.Str) and value.value in ("true", "false"):
        return f"write `{value.value}` without quotes"
    return None
