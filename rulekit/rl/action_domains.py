# SPDX-License-Identifier: MIT
"""What each hole of an option's label can print, found from the rules' text alone.

An option ``"bid {n}" for n in range(high + 1, p.coins + 1)`` can print ``bid 1``, ``bid 2``...
The holes' values come from the collections the option's ``for`` clauses walk, from what
the names they read are bound to (a procedure's locals and loops, its parameters at every
call site, a function's body with its arguments, the game's parameters, variables and
their declared bounds), and from the game's definitions: a zone holds items, a set its
members, ``players``/``others(...)`` seats, ``range(a, b)`` whole numbers, ``cells(board)`` and
``neighbours(board, c)`` the board's cells (``row``/``col`` 1 up to its rows/columns). The analysis
reads the flow of a procedure as a whole (every assignment of a name counts wherever it
is), so a domain may hold values no state reaches, never the reverse, within one limit:
a bound on a number it cannot find is ``max_number`` (below, 0 for a lower bound). What
cannot be bounded at all (a label printing a built text or a list) raises
:class:`Unbounded`, which the vocabulary reports on the option's line.
"""
from __future__ import annotations

import attrs

from ..dsl import ast
from ..dsl.visit import walks
from ..engine.mutate import fmt
from ..engine.state import PLAYERS, Family


class Unbounded(Exception):
    """An expression whose values the analysis cannot bound (the message says which)."""

    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.node = node


@attrs.frozen
class Dom:
    """The values an expression may take: texts as they print, and whole numbers (exact ones,
    and an interval whose ends are None where no bound was found)."""

    texts: frozenset = frozenset()
    ints: frozenset = frozenset()
    span: tuple | None = None       # (lo, hi) of an interval of whole numbers; None: no interval

    def __or__(self, other: Dom) -> Dom:
        span = self.span if other.span is None else other.span if self.span is None else _hull(self.span, other.span)
        return Dom(self.texts | other.texts, self.ints | other.ints, span)

    def bounds(self) -> tuple | None:
        """The numbers' (lo, hi), None ends where no bound was found; None when there are none."""
        spans = [self.span] if self.span is not None else []
        if self.ints:
            spans.append((min(self.ints), max(self.ints)))
        if not spans:
            return None
        out = spans[0]
        for other in spans[1:]:
            out = _hull(out, other)
        return out

    def printed(self, max_number: int) -> list[str]:
        """Every text a value prints as, numbers first (ascending), then texts (sorted)."""
        numbers = set(self.ints)
        if self.span is not None:
            lo, hi = self.span
            lo = 0 if lo is None else lo
            hi = max_number if hi is None else hi
            numbers.update(range(lo, hi + 1))
        return [str(n) for n in sorted(numbers)] + sorted(self.texts - {str(n) for n in numbers})


EMPTY = Dom()
BOOLS = Dom(frozenset({"true", "false"}))
SOME_NUMBER = Dom(span=(None, None))


def _hull(a: tuple, b: tuple) -> tuple:
    lo = None if a[0] is None or b[0] is None else min(a[0], b[0])
    hi = None if a[1] is None or b[1] is None else max(a[1], b[1])
    return (lo, hi)


def numbers(lo, hi) -> Dom:
    return Dom(span=(lo, hi))


def _value_dom(value) -> Dom:
    """A constant of the game (a property's value, a parameter) as a domain."""
    if value.__class__ is int:
        return Dom(ints=frozenset({value}))
    if isinstance(value, (list, tuple, dict)):
        raise Unbounded("a list or table printed in a label")
    return Dom(frozenset({fmt(value)}))


@attrs.frozen(eq=False)
class Body:
    """A text of the rules the analysis reads names in: a procedure, function, option group,
    setup, phase or finish. ``binds``: what each name is bound to in it (loops, locals,
    option values, a `choose_all`'s player): name -> [(how, expr)], ``how`` "elem" (an
    element of expr), "value" or "number" (a number changed by `+=`)."""

    name: str
    params: tuple
    binds: dict
    key: tuple | None = None        # ("procedure" or "group", name): whose call sites bind its params


@attrs.frozen(eq=False)
class Ctx:
    """Where an expression is read: a body, the names bound around it (an option's or a
    comprehension's ``for`` clauses), and a function's arguments where it is called with them."""

    body: Body
    local: dict = attrs.Factory(dict)        # name -> [(how, expr)], read in this ctx
    args: dict | None = None                 # a function's param -> (expr, caller ctx)
    parent: Ctx | None = None


class Domains:
    """The analysis over one game: ``label_domains(option, ctx)`` for each option's holes."""

    # built-ins whose value is an element of their first argument, a number, a truth value
    ELEMENT = {"first", "last", "top", "bottom", "max", "min"}
    NUMBER = {"count": (0, None), "index_of": (0, None), "abs": (0, None), "sum": (None, None)}
    TRUTH = {"all", "any", "has"}
    SAME_ELEMENTS = {"distinct", "list", "reversed", "sorted", "without"}
    DEPTH = 200

    def __init__(self, game, max_number: int):
        self.game = game
        self.max_number = max_number
        self.vocab = game.program.vocab
        self.bodies: list = []          # (Body, tree)
        self.calls: dict = {}           # procedure or option group -> [(args, ctx)]
        self.gsets: dict = {}           # ("g", name) or ("p", name) -> [(how, expr, ctx)] assignments
        self.returns: dict = {}         # procedure -> [(expr, ctx)]: what it returns
        self._busy: set = set()
        self._params: dict | None = None
        self._ctxs: dict = {}           # stable contexts: a body's own, a function's at one call
        self._read_bodies()

    # ---------------------------------------------------------------- the texts
    def _read_bodies(self) -> None:
        data, vocab = self.game.data, self.vocab
        for name, spec in (data.get("procedures") or {}).items():
            if isinstance(spec, dict) and isinstance(spec.get("do"), str):
                self._add(f"procedure `{name}`", tuple(vocab.procedures.get(name, ())), ("procedures", name, "do"),
                          ("procedure", name))
        for path, what in [(("setup",), "setup"), (("flow", "finish"), "finish")]:
            self._add(what, (), path)
        for i, phase in enumerate((data.get("flow") or {}).get("phases") or ()):
            if isinstance(phase, dict) and isinstance(phase.get("do"), str):
                self._add(f"phase `{phase.get('id', i)}`", (), ("flow", "phases", i, "do"))
        for name, (params, options) in vocab.option_groups.items():
            body = Body(f"option group `{name}`", tuple(params), {}, ("group", name))
            self._collect(options, body)
            self.bodies.append((body, options))

    def _add(self, what: str, params: tuple, path: tuple, key: tuple | None = None) -> None:
        tree = self.game.texts.get(path)     # as the game's checks parsed it (model.Game.texts)
        if tree is None:
            return
        body = Body(what, params, {}, key)
        self._collect(tree, body)
        self.bodies.append((body, tree))

    def _collect(self, tree, body: Body) -> None:
        """What names the body binds, the calls it makes, the variables it assigns."""
        binds, ctx = body.binds, self.root(body)
        gvars, pvars = self.vocab.gvars, self.vocab.pvars
        for name, coll in walks(tree):      # loop, `choose_all` and option variables (dsl/visit.py)
            binds.setdefault(name, []).append(_clause(coll))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                how = "value" if isinstance(node, ast.Assign) else "number"
                target = node.target
                if isinstance(target, ast.Name) and target.id in gvars and target.id not in body.params:
                    self.gsets.setdefault(("g", target.id), []).append((how, node.value, ctx))
                elif isinstance(target, ast.Name):
                    binds.setdefault(target.id, []).append((how, node.value))
                elif isinstance(target, ast.Attr) and target.name in pvars:
                    self.gsets.setdefault(("p", target.name), []).append((how, node.value, ctx))
            elif isinstance(node, ast.Return) and node.value is not None and body.key is not None:
                self.returns.setdefault(body.key[1], []).append((node.value, ctx))
            elif isinstance(node, ast.Call) and node.func in self.vocab.procedures:
                self.calls.setdefault(("procedure", node.func), []).append((node.args, ctx))
            elif isinstance(node, ast.Include):
                self.calls.setdefault(("group", node.name), []).append((node.args, ctx))

    def root(self, body: Body) -> Ctx:
        """The context of a body's own names (one object per body: cycles are found by it)."""
        ctx = self._ctxs.get(id(body))
        if ctx is None:
            ctx = self._ctxs[id(body)] = Ctx(body)
        return ctx

    # ---------------------------------------------------------------- names
    def _bindings(self, name: str, ctx: Ctx):
        """(how, expr, ctx) for each binding of ``name`` seen from ``ctx``, or None for a global."""
        at = ctx
        while at is not None:
            if name in at.local:
                return [(how, expr, at) for how, expr in at.local[name]]
            if at.args is not None and name in at.args:
                expr, caller = at.args[name]
                return [("value", expr, caller)]
            if at.parent is None:
                break
            at = at.parent
        body = at.body
        root = self.root(body)
        found = [(how, expr, root) for how, expr in body.binds.get(name, ())]
        if name in body.params:
            index = body.params.index(name)
            for args, caller in self.calls.get(body.key, ()):
                if index < len(args):
                    found.append(("value", args[index], caller))
        return found or None

    def _name_values(self, node: ast.Name, ctx: Ctx) -> Dom:
        found = self._bindings(node.id, ctx)
        if found is not None:
            return self._union(found, self.values, node)
        return self._global_values(node)

    def _union(self, found, method, node) -> Dom:
        out = EMPTY
        for how, expr, at in found:
            if how == "elem":
                out = out | self.elements(expr, at)
            elif how == "number":
                out = out | SOME_NUMBER
            else:
                out = out | method(expr, at)
        return out

    def _global_values(self, node: ast.Name) -> Dom:
        name, v, game = node.id, self.vocab, self.game
        if name == "num_players":
            return Dom(ints=frozenset(range(game.min_players, game.max_players + 1)))
        if name in v.gvars:
            return self._variable(("g", name), game.variables.gvars.get(name), game.variables.gbounds.get(name))
        if name in v.fixed:
            return _value_dom(v.fixed[name])
        if name in game.program.params:
            return self._param(name)
        if name in v.members or name in v.items:
            return Dom(frozenset({name}))
        raise Unbounded(f"`{name}` is not bound to values the analysis can find", node)

    def _variable(self, key: tuple, initial, declared) -> Dom:
        """A variable's values: its declared bounds where both are given, else its first value
        and every value assigned to it."""
        if declared is not None and declared[0] is not None and declared[1] is not None:
            return numbers(*declared)
        if key in self._busy:
            return EMPTY
        self._busy.add(key)
        try:
            out = _value_dom(initial) if initial is not None else EMPTY
            for how, expr, ctx in self.gsets.get(key, ()):
                out = out | (SOME_NUMBER if how == "number" else self.values(expr, ctx))
        finally:
            self._busy.discard(key)
        if declared is not None and out.bounds() is not None:
            lo, hi = out.bounds()
            out = Dom(out.texts, frozenset(), (declared[0] if declared[0] is not None else lo,
                                               declared[1] if declared[1] is not None else hi))
        return out

    def _param(self, name: str) -> Dom:
        """A parameter of the game: its value at every player count."""
        if self._params is None:
            from ..engine import api
            self._params = {}
            for n in range(self.game.min_players, self.game.max_players + 1):
                s = api.new_game(self.game, n, 0, record=False)
                for key in self.game.program.params:
                    self._params.setdefault(key, []).append(s.g.get(key))
        out = EMPTY
        for value in self._params.get(name, ()):
            out = out | _value_dom(value)
        return out

    # ---------------------------------------------------------------- values
    def values(self, node, ctx: Ctx) -> Dom:
        """The values ``node`` may print as, read in ``ctx``."""
        return self._guarded(self._values, node, ctx, "v")

    def _guarded(self, method, node, ctx: Ctx, what: str) -> Dom:
        """``method(node, ctx)``, except in a cycle (a name bound through itself: `high = n` with
        n above `high`) or a recursion deeper than ``DEPTH``, which add nothing."""
        key = (id(node), id(ctx), what)
        if key in self._busy or len(self._busy) > self.DEPTH:
            return EMPTY
        self._busy.add(key)
        try:
            return method(node, ctx)
        finally:
            self._busy.discard(key)

    def _values(self, node, ctx: Ctx) -> Dom:
        if isinstance(node, ast.Num):
            return Dom(ints=frozenset({node.value}))
        if isinstance(node, ast.Str):
            return Dom(frozenset({node.value}))
        if isinstance(node, ast.Const):
            return Dom(frozenset({fmt(node.value)}))
        if isinstance(node, (ast.Compare, ast.Not)):
            return BOOLS
        if isinstance(node, ast.Name):
            return self._name_values(node, ctx)
        if isinstance(node, ast.Attr):
            return self._attr_values(node, ctx)
        if isinstance(node, ast.Index):
            return self.elements(node.obj, ctx)
        if isinstance(node, ast.IfExp):
            return self.values(node.then, ctx) | self.values(node.orelse, ctx)
        if isinstance(node, ast.BoolOp):
            return self.values(node.left, ctx) | self.values(node.right, ctx)
        if isinstance(node, ast.Neg):
            return _arith("-", Dom(ints=frozenset({0})), self.values(node.operand, ctx))
        if isinstance(node, ast.BinOp):
            return _arith(node.op, self.values(node.left, ctx), self.values(node.right, ctx))
        if isinstance(node, ast.Call):
            return self._call_values(node, ctx)
        raise Unbounded("a text built in the label, or a list, has no fixed set of values", node)

    def _attr_values(self, node: ast.Attr, ctx: Ctx) -> Dom:
        v, name = self.vocab, node.name
        if name in v.pvars:
            variables = self.game.variables
            return self._variable(("p", name), variables.pvars.get(name), variables.pbounds.get(name))
        out, found = EMPTY, False
        for table in (v.items, v.members):
            for props in table.values():
                if name in props:
                    out, found = out | _value_dom(props[name]), True
        if name in v.dynamic_props:
            default = v.prop_defaults.get(name)
            if default.__class__ is bool:
                return out | BOOLS
            raise Unbounded(f"the changeable property `{name}` has no fixed set of values", node)
        if not found:
            raise Unbounded(f"`.{name}` has no values the analysis can find", node)
        return out

    def _call_values(self, node: ast.Call, ctx: Ctx) -> Dom:
        name, args = node.func, node.args
        if name in self.vocab.functions:
            return self.values(*self._function_body(node, ctx))
        if name in self.vocab.procedures:
            return self._returned(node, self.values)
        if name in self.ELEMENT and args:
            return self.elements(args[0], ctx)
        if name in self.NUMBER:
            return numbers(*self.NUMBER[name])
        if name in self.TRUTH:
            return BOOLS
        if name == "roll" and args:
            sides = self.values(args[0], ctx).bounds()
            return numbers(1, sides[1] if sides else None)
        if name in ("next_player", "seat"):
            return self._seats() if name == "next_player" else numbers(0, self.game.max_players - 1)
        if name in ("row", "col"):
            grids = [fam.grid for fam in self._families() if fam.grid is not None]
            return numbers(1, max((g[1] if name == "row" else g[0] for g in grids), default=None))
        if name == "item":
            return Dom(frozenset(self.vocab.items))
        if name == "kind_of":
            return Dom(frozenset(self.vocab.kinds))
        raise Unbounded(f"what `{name}(...)` returns has no fixed set of values", node)

    def _returned(self, node: ast.Call, method) -> Dom:
        """What a procedure called for its value returns (each `return`, read in its body)."""
        found = self.returns.get(node.func)
        if not found:
            raise Unbounded(f"`{node.func}(...)` returns no value the analysis can find", node)
        out = EMPTY
        for expr, ctx in found:
            out = out | method(expr, ctx)
        return out

    def _function_body(self, node: ast.Call, ctx: Ctx) -> tuple:
        params, body = self.vocab.functions[node.func]
        key = (id(node), id(ctx))
        inner = self._ctxs.get(key)
        if inner is None:
            args = {param: (arg, ctx) for param, arg in zip(params, node.args)}
            inner = self._ctxs[key] = Ctx(Body(f"function `{node.func}`", tuple(params), {}), args=args)
        return body, inner

    def _seats(self) -> Dom:
        return Dom(frozenset(str(PLAYERS[i]) for i in range(self.game.max_players)))

    # ---------------------------------------------------------------- elements
    def elements(self, node, ctx: Ctx) -> Dom:
        """The values the elements of collection ``node`` may print as."""
        return self._guarded(self._elements, node, ctx, "e")

    def _elements(self, node, ctx: Ctx) -> Dom:
        v = self.vocab
        if isinstance(node, ast.Name):
            found = self._bindings(node.id, ctx)
            if found is not None:
                return self._union(found, self.elements, node)
            if node.id in v.zones or node.id in v.families:
                return self._items()
            if node.id in v.sets:
                return Dom(frozenset(v.sets[node.id]))
            if node.id == "players":
                return self._seats()
            if node.id in v.tables and isinstance(v.tables[node.id], list):
                out = EMPTY
                for value in v.tables[node.id]:
                    out = out | _value_dom(value)
                return out
            raise Unbounded(f"`{node.id}` is not a collection whose elements the analysis can find", node)
        if isinstance(node, ast.Attr):
            return self._attr_elements(node)
        if isinstance(node, ast.Index) and self._is_family(node.obj):
            return self._items()
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Attr):
            return self._attr_elements(node.obj, nested=True)
        if isinstance(node, ast.ListLit):
            out = EMPTY
            for item in node.items:
                out = out | self.values(item, ctx)
            return out
        if isinstance(node, ast.Comp):
            inner = Ctx(ctx.body, {name: [_clause(coll)] for name, coll in node.fors}, parent=ctx)
            return self.values(node.elt, inner)
        if isinstance(node, ast.IfExp):
            return self.elements(node.then, ctx) | self.elements(node.orelse, ctx)
        if isinstance(node, ast.BinOp) and node.op == "+":
            return self.elements(node.left, ctx) | self.elements(node.right, ctx)
        if isinstance(node, ast.Call):
            return self._call_elements(node, ctx)
        raise Unbounded("a collection whose elements the analysis cannot find", node)

    def _is_family(self, node) -> bool:
        v = self.vocab
        return (isinstance(node, ast.Name) and node.id in v.families) or (
            isinstance(node, ast.Attr) and node.name in v.pzones)

    def _items(self) -> Dom:
        return Dom(frozenset(self.vocab.items))

    def _attr_elements(self, node: ast.Attr, nested: bool = False) -> Dom:
        """The elements of a property holding a list (``nested``: of each list in such a list)."""
        v, name = self.vocab, node.name
        if name in v.pzones and not nested:
            return self._items()
        out, found = EMPTY, False
        for table in (v.items, v.members):
            for props in table.values():
                if isinstance(props.get(name), list):
                    found = True
                    for value in props[name]:
                        for element in (value if nested and isinstance(value, list) else [value]):
                            out = out | _value_dom(element)
        if not found or name in v.dynamic_props:
            raise Unbounded(f"the elements of `.{name}` have no fixed set of values", node)
        return out

    def _call_elements(self, node: ast.Call, ctx: Ctx) -> Dom:
        name, args = node.func, node.args
        if name in self.vocab.functions:
            return self.elements(*self._function_body(node, ctx))
        if name in self.vocab.procedures:
            return self._returned(node, self.elements)
        if name == "range" and args:
            return self._range(node, ctx)
        if name in ("others", "players_from"):
            return self._seats()
        if name in self.SAME_ELEMENTS and args:
            return self.elements(args[0], ctx)
        if name == "items":
            return self._items()
        if name in ("cells", "neighbours", "edges", "ends", "shortest_path") and args:     # a map's too
            return self._spaces(args[0])
        raise Unbounded(f"the elements of `{name}(...)` have no fixed set of values", node)

    def _families(self, node=None) -> list:
        """The family ``node`` names (``route``, ``p.land``), or every family of the game (global
        and players') when it names none."""
        board = self.game.board
        if isinstance(node, ast.Name) and node.id in board.families:
            return [board.families[node.id]]
        if isinstance(node, ast.Attr) and node.name in board.pzones and board.pzones[node.name][0].__class__ is Family:
            return [board.pzones[node.name][0]]
        owned = [seats[0] for seats in board.pzones.values() if seats[0].__class__ is Family]
        return [*board.families.values(), *owned]

    def _spaces(self, node) -> Dom:
        """The keys of the family ``node`` (a board's cells: ``cells``, ``neighbours``; a map's nodes and
        edges: ``edges``, ``ends``, ``shortest_path``)."""
        keys = [key for fam in self._families(node) for key in fam.zones]
        return Dom(frozenset(fmt(k) for k in keys if k.__class__ is not int),
                   frozenset(k for k in keys if k.__class__ is int))

    def _range(self, node: ast.Call, ctx: Ctx) -> Dom:
        """``range(stop)`` or ``range(start, stop)``: whole numbers from the least start to the
        greatest stop - 1 the analysis finds (0 and ``max_number`` where it finds none)."""
        args = node.args
        start = self.values(args[0], ctx).bounds() if len(args) > 1 else (0, 0)
        stop = self.values(args[-1], ctx).bounds()
        lo = start[0] if start else None
        hi = stop[1] - 1 if stop and stop[1] is not None else None
        return numbers(lo, hi)


def _clause(coll) -> tuple:
    """A ``for`` clause's binding: ``let NAME = value`` binds the value, others an element."""
    return ("value", coll.value) if isinstance(coll, ast.Let) else ("elem", coll)


def _arith(op: str, left: Dom, right: Dom) -> Dom:
    """Interval arithmetic on the numbers of two domains (None ends stay unknown)."""
    a, b = left.bounds(), right.bounds()
    if a is None or b is None:
        return SOME_NUMBER if (a or b) else EMPTY
    if left.ints and right.ints and left.span is None and right.span is None and op in "+-*" \
            and len(left.ints) * len(right.ints) <= 4096:
        return Dom(ints=frozenset(_exact(op, x, y) for x in left.ints for y in right.ints))
    if op == "+":
        return numbers(_add(a[0], b[0]), _add(a[1], b[1]))
    if op == "-":
        return numbers(_sub(a[0], b[1]), _sub(a[1], b[0]))
    if op in ("//", "%") and a[0] is not None and a[0] >= 0 and b[0] is not None and b[0] > 0:
        return numbers(0, a[1] if op == "//" else (None if b[1] is None else b[1] - 1))
    return SOME_NUMBER


def _exact(op: str, x: int, y: int) -> int:
    return x + y if op == "+" else x - y if op == "-" else x * y


def _add(x, y):
    return None if x is None or y is None else x + y


def _sub(x, y):
    return None if x is None or y is None else x - y
