# SPDX-License-Identifier: MIT
"""What kind of value an expression certainly has, from the content alone.

Where a collection is certainly a list or a zone (a zone by name, a comprehension, `players`,
a local only ever given lists), generated code reads it directly instead of asking what it is
at run time (``SEQ``): the ``kinds`` pass (dsl/passes.py), which asks :meth:`Kinds.certain`.
Where an argument's kind is evident (a number, a text, a zone), a built-in given the wrong one
is refused where it is written. Both are facts of the content, found here before and apart from
any code being written: the compiler asks, and never infers a kind from the Python it wrote.
A check asks :meth:`Kinds.of`, which the pass setting never changes: switching an optimisation
off may not hide a mistake (tests/test_front_end.py).
"""
from __future__ import annotations

from ..engine.library import REGISTRY
from ..engine.state import Family
from . import ast, passes
from .scope import Scope
from .visit import assigned_values

_FIXED_KINDS = {int: "number", bool: "bool", str: "text"}


def _own(name: str, scope) -> bool:
    """Whether ``name`` is one of the text's own in ``scope`` (a local, a Python variable, an alias)."""
    return name in scope.locals or name in scope.py or name in scope.alias


def _one_kind(values) -> str | None:
    """The kind every value is ("number", "text", "bool", "list"), or None (mixed, none, empty)."""
    kinds = {"list" if isinstance(value, (list, tuple)) else _FIXED_KINDS.get(type(value)) for value in values}
    return kinds.pop() if len(kinds) == 1 else None


class Kinds:
    """The kinds of one game's expressions (``vocab``: the game's names); ``on``: the ``kinds``
    pass is on, else no kind is certain to the code written (:meth:`certain`: every collection
    is asked at run time), though checks still know it (:meth:`of`). A content function's kinds
    are found once, when first asked."""

    def __init__(self, vocab, on: bool = True):
        self.v = vocab
        self.on = on
        self._functions: dict = {}      # content function -> the kind its body certainly gives (function)
        self._evident: dict = {}        # content function -> the evident kind of its body (evident)
        self._props: dict = {}          # item property -> the one kind of its every value (_held)
        self._elements: dict = {}       # content function -> what each element of the list it gives is

    def of_locals(self, body, names: set, scope: Scope, key=lambda name: ("local", name)) -> dict:
        """What each local of a procedure certainly holds ("list", "zone", "item"), for
        ``Scope.kinds`` (under ``key(name)``): a local among ``names`` (never a parameter) that
        only plain assignments give values (never a loop or option variable), all of one kind. Each starts as what its
        first value says and loses its kind when another value says otherwise, until none
        does (`xs = xs + [x]` keeps "list")."""
        kinds = _settled(body, names, key, self.of, scope, scope.with_kinds)
        return {k: kind for k, kind in kinds.items() if kind in ("list", "zone", "item")}

    def evident_locals(self, body, names: set, scope) -> dict:
        """The evident kind ("number", "text", "bool", "list", "none"...) of each local among
        ``names`` that plain assignments alone give values, all of that kind (``n = 0`` then
        ``n += 1``: a number), by name: what the front end's checks read (``Seen.values``)."""
        kinds = _settled(body, names, lambda name: name, self.evident, scope, scope.with_values)
        return {name: kind for name, kind in kinds.items() if kind is not None}

    def certain(self, node, scope) -> str | None:
        """What code may take for granted of ``node``'s kind: :meth:`of` while the ``kinds`` pass
        is on, else None (the value is asked what it is at run time)."""
        return self.of(node, scope) if self.on else None

    @passes.step("kinds")
    def of(self, node, scope) -> str | None:
        """The kind of ``node`` ("zone", "list", "family", "item") when it is certain, else None (a
        name a local could shadow is never taken for granted). A fact of the content, whatever
        passes are on: checks ask it; code asks :meth:`certain`."""
        v = self.v
        if isinstance(node, ast.Name):
            return self._name(node.id, scope)
        if isinstance(node, (ast.ListLit, ast.Comp, ast.Let)):
            return "list"
        if isinstance(node, ast.Attr) and self._only_player_zone(node.name):
            return self.player_zone(node.name)
        if isinstance(node, ast.Index) and self.of(node.obj, scope) == "family":
            return "zone"
        if isinstance(node, ast.Slice) and self.of(node.obj, scope) in ("list", "zone"):
            return "list"
        if isinstance(node, ast.Attr) and self.member_lists(node.name):
            return "list"
        if isinstance(node, ast.Call):
            if node.func in v.functions:
                return self.function(node.func)
            builtin = REGISTRY.get(node.func)
            if builtin is not None and node.func not in v.procedures:
                return builtin.gives
        if isinstance(node, ast.IfExp):
            then = self.of(node.then, scope)
            return then if then == self.of(node.orelse, scope) and then in ("list", "zone", "item") else None
        if isinstance(node, ast.BinOp) and node.op == "+" and \
                self.of(node.left, scope) == self.of(node.right, scope) == "list":
            return "list"
        return None

    def player_zone(self, name: str) -> str:
        """A player's zone is a "zone", or a "family" when declared with `keys:` or `range:`."""
        seats = self.v.pzones[name]
        return "family" if seats and seats[0].__class__ is Family else "zone"

    def _name(self, name: str, scope) -> str | None:
        """What a name certainly holds: a local as ``Scope.kinds`` knows it, a zone, a family, a set."""
        v = self.v
        if name in scope.py:
            return scope.kinds.get(("py", scope.py[name]))
        if name in scope.alias:
            return None
        if name in scope.locals:
            return scope.kinds.get(("local", name))
        if name in v.zones:
            return "zone"
        if name in v.families:
            return "family"
        if name in v.sets or name == "players":
            return "list"
        if name in v.tables and name not in v.members and v.tables[name].__class__ is list:
            return "list"       # a table written as a list (x_Name: a constant of the module)
        return None

    def member_lists(self, name: str) -> bool:
        """Whether attribute ``name`` can only be a property of set members that is a list on
        every member having it (a column's `costs`): indexing it needs no check of its kind."""
        v = self.v
        if name not in v.member_props or name in v.pvars or name in v.pzones or name in v.item_props \
                or name in v.dynamic_props:
            return False
        values = [props[name] for props in v.members.values() if name in props]
        return bool(values) and all(value.__class__ is list for value in values)

    def _only_player_zone(self, name: str) -> bool:
        """``x.NAME`` can only be a player's zone: no variable or property has that name."""
        v = self.v
        return name in v.pzones and not ({name} & (v.pvars | v.item_props | v.dynamic_props | v.member_props))

    def function(self, name: str):
        """What a user function certainly returns ("list", "zone", "item"), from its body alone."""
        if name not in self._functions:
            self._functions[name] = None     # a function asking about itself learns nothing
            params, body = self.v.functions[name]
            self._functions[name] = self.of(body, Scope(set(params)))
        return self._functions[name]

    def evident(self, node, scope: Scope | None = None):
        """The evident kind of an expression, or None when only running it would tell (a name of
        ``scope``'s own, a local called like a zone, tells nothing)."""
        v = self.v
        if isinstance(node, ast.Num) or isinstance(node, ast.Neg):
            return "number"
        if isinstance(node, (ast.Str, ast.Template)):
            return "text"
        if isinstance(node, ast.Const):
            return "none" if node.value is None else "bool"
        if isinstance(node, (ast.ListLit, ast.Comp)):
            return "list"
        if isinstance(node, (ast.Compare, ast.Not)):
            return "bool"
        if isinstance(node, ast.Name):
            if scope is not None and _own(node.id, scope):
                named = scope.named
                if named and id(node) in named:     # a seat, an item, a member: by what binds it
                    return named[id(node)]
                return scope.values.get(node.id) if scope.values else None     # a local's, where all agree
            if node.id in v.fixed:
                return _FIXED_KINDS[type(v.fixed[node.id])]
            if scope is not None and (node.id, False) in v.numbers:
                return "number"         # a bounded variable (no local: _own above)
            if node.id in v.zones:
                return "zone"
            if node.id in v.families:
                return "family"
            if node.id in v.sets:
                return "list"
            return None
        if isinstance(node, ast.Attr) and self._only_player_zone(node.name):
            return self.player_zone(node.name)
        if isinstance(node, ast.Attr) and self.bounded_player_variable(node.name):
            return "number"
        if isinstance(node, ast.Index) and self.evident(node.obj, scope) == "family":
            return "zone"
        if isinstance(node, ast.Call) and node.func == "item" and "item" not in v.functions:
            named = _literal(node)
            return f"item:{v.item_kind[named]}" if named in v.item_kind else "item"
        if isinstance(node, ast.Call) and node.func in REGISTRY:
            return REGISTRY[node.func].returns
        if scope is not None:       # (only where a scope says a name is not a local's)
            held = self._held(node, scope)
            if held is not None:
                return held
        return self._composed(node, scope)

    def element(self, coll, scope, inner=None) -> str | None:
        """The evident kind of each value a ``for`` over ``coll`` binds: a seat of ``players``, an
        item of a zone, a member of a set (none of whose members is an item), what a ``let``
        gives, what a comprehension's element is (read in ``inner``, the names seen there); None
        where only running would tell."""
        v = self.v
        if isinstance(coll, ast.Let):
            return self.evident(coll.value, scope)
        if isinstance(coll, ast.Name) and not _own(coll.id, scope):
            if seat_list(coll, v):
                return "seat"
            if coll.id in v.sets and coll.id not in v.zones and not any(m in v.items for m in v.sets[coll.id]):
                return "member"
        if isinstance(coll, ast.Call) and coll.func in v.functions:
            return self.function_elements(coll.func)
        if seat_list(coll, v):
            return "seat"
        if isinstance(coll, ast.Call) and coll.func == "items" and "items" not in v.functions:
            named = _literal(coll)
            return f"item:{named}" if named in v.kind_props else "item"
        if isinstance(coll, ast.Comp):
            kind = self.evident(coll.elt, inner if inner is not None else scope)
            return kind if kind in ("seat", "item", "member") or is_item(kind) else None
        return "item" if self.evident(coll, scope) == "zone" else None

    def function_elements(self, name: str) -> str | None:
        """What each element of the list content function ``name`` gives evidently is (a function
        picking items of a player's zone: an item), found once, from its body alone."""
        if name not in self._elements:
            self._elements[name] = None      # a function asking about itself learns nothing
            params, body = self.v.functions[name]
            self._elements[name] = self._elements_of(body, set(params))
        return self._elements[name]

    def _elements_of(self, body, own: set) -> str | None:
        """What each element of the list ``body`` gives is, ``own`` the names of its text."""
        if isinstance(body, ast.IfExp):
            sides = [self._elements_of(side, own) for side in (body.then, body.orelse)
                     if not (isinstance(side, ast.ListLit) and not side.items)]
            return sides[0] if sides and all(side == sides[0] for side in sides) else None
        if isinstance(body, ast.Comp):
            if not isinstance(body.elt, ast.Name):
                return None
            binding = [k for k, (name, _coll) in enumerate(body.fors) if name == body.elt.id]
            if not binding:
                return None
            k = binding[-1]
            before = {name for name, _coll in body.fors[:k]}
            return self.element(body.fors[k][1], Scope(own | before))
        return self.element(body, Scope(own))

    def bounded_player_variable(self, name: str) -> bool:
        """Whether ``x.name`` reads a player variable that holds whole numbers alone (its bounds
        refuse any other value: Vocabulary.numbers)."""
        return (name, True) in self.v.numbers and player_variable(name, self.v)

    def _held(self, node, scope):
        """What an element of a table or an item's printed property evidently is, where every
        value the content writes there is one kind (``colony_vp[i]``: a number; ``c.suit``: a text)."""
        v = self.v
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.id in v.tables \
                and not _own(node.obj.id, scope):
            table = v.tables[node.obj.id]
            return _one_kind(table.values() if isinstance(table, dict) else table if isinstance(table, list) else ())
        if isinstance(node, ast.Attr) and node.name in v.item_props and node.name not in v.dynamic_props \
                and node.name not in v.pvars and node.name not in v.member_props and node.name not in v.pzones:
            if node.name not in self._props:
                self._props[node.name] = _one_kind(props.get(node.name) for props in v.items.values())
            return self._props[node.name]
        return None

    def _composed(self, node, scope):
        """The evident kind of a user function's result, a sum of numbers or a conditional."""
        v = self.v
        if isinstance(node, ast.Call) and node.func in v.functions:
            if node.func not in self._evident:
                self._evident[node.func] = None      # a function asking about itself learns nothing
                params, body = v.functions[node.func]
                self._evident[node.func] = self.evident(body, Scope(set(params)))
            return self._evident[node.func]
        if isinstance(node, ast.BinOp) and \
                self.evident(node.left, scope) == self.evident(node.right, scope) == "number":
            return "number"
        if isinstance(node, ast.IfExp):
            then = self.evident(node.then, scope)
            return then if then == self.evident(node.orelse, scope) else None
        return None


# what a built-in's argument of each kind (its `args`) takes besides that kind, and how each is said
# (a player is a seat number; an item and a set's member are texts, their ids)
SEAT_CALLS = ("others", "players_from")     # the built-ins that give a list of players (engine/library.py)


def player_variable(name: str, vocab) -> bool:
    """Whether ``x.name`` reads a player variable and nothing else of that name (no item's
    property or state, no set member's property, no player's zone)."""
    return name in vocab.pvars and name not in vocab.item_props and name not in vocab.dynamic_props \
        and name not in vocab.member_props and name not in vocab.pzones


def seat_list(coll, vocab) -> bool:
    """``coll``, a name or call of the game's (the caller knows it is no local), is a list of
    players: ``players`` (no set of that name), or a built-in that gives players (``others(p)``,
    ``players_from(p)``; no content function of that name). What a ``for`` over it binds is a
    player (Kinds.element, signatures.py)."""
    if isinstance(coll, ast.Name):
        return coll.id == "players" and coll.id not in vocab.sets
    return isinstance(coll, ast.Call) and coll.func in SEAT_CALLS and coll.func not in vocab.functions

_TAKES_ALSO = {"zone": {"zone"}, "item": {"text", "member"}, "number": {"seat"},
               "text": {"number", "bool", "none", "seat", "item", "member"}, "list": {"zone", "family"}}
_WANTED = {"zone": "a zone", "item": "an item", "number": "a whole number", "text": "text", "list": "a list or a zone"}
_GOT = {"number": "a number", "text": "text", "bool": "true/false", "none": "none", "zone": "a zone",
        "list": "a list"}


# how a message says each kind a value evidently has (check.py, check_names.py, the hover)
NOUNS = {"number": "a number", "text": "a text", "bool": "a truth value", "list": "a list", "none": "none",
         "zone": "a zone", "family": "a family of zones", "seat": "a player", "item": "an item",
         "member": "a member of a set"}


def noun(kind: str | None) -> str | None:
    """How a message says a kind: "a player", "an item of kind `card`", "a number"."""
    if component_kind(kind) is not None:
        return f"an item of kind `{component_kind(kind)}`"
    return NOUNS.get(kind)


def is_item(kind: str | None) -> bool:
    """An item, of a known component kind (``item:card``) or not (``item``)."""
    return kind == "item" or component_kind(kind) is not None


def component_kind(kind: str | None) -> str | None:
    """The component kind of an item of a known kind (``item:card`` -> ``card``), else None."""
    return kind[len("item:"):] if kind is not None and kind.startswith("item:") else None


def _literal(call) -> str | None:
    """The text a call's first argument is written as, if a literal (``items("card")``)."""
    first = call.args[0] if call.args else None
    return first.value if first.__class__ is ast.Str else None


def wrong_argument(builtin, name: str, got: str | None, written: str) -> str | None:
    """What RK0321 says when an argument ``name`` of ``builtin`` whose kind is evidently ``got`` is
    not what it takes (``written``: how the argument reads, to name a family's space), else None."""
    got = "item" if is_item(got) else got
    want = (builtin.args or {}).get(name)
    if want is None or got is None or got == want or got in _TAKES_ALSO[want]:
        return None
    said = f"a family of zones (pick one: `{written}[key]`)" if got == "family" else _GOT.get(got) or noun(got)
    return f"argument `{name}` of `{builtin.name}` must be {_WANTED[want]}, got {said}"


def name_of(node) -> str:
    """How a message names an argument whose kind is wrong (its name, or what it is)."""
    if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name):
        return f"{node.obj.id}.{node.name}"       # a player's family: `p.land`
    return node.id if isinstance(node, ast.Name) else "zones"


def _settled(body, names: set, key, kind_of, scope, knowing) -> dict:
    """key(local) -> its kind by ``kind_of``, for the locals among ``names`` whose every value
    (plain assignments only) has that one kind: first as ``scope`` reads it, then as the scope
    ``knowing(known)`` gives. Each starts as what its first value says and loses its kind when
    another value says otherwise, until none does; a local losing its kind is asked of again only
    by those whose values name it (asking every local again after each loss was quadratic)."""
    values = {name: given for name, given in assigned_values(body).items() if given is not None and name in names}
    kinds = {key(name): kind_of(given[0], scope) for name, given in values.items()}
    known = knowing({k: kind for k, kind in kinds.items() if kind is not None})
    readers: dict = {}
    for name, given in values.items():
        for node in ast.walk(given):
            if isinstance(node, ast.Name) and node.id in values:
                readers.setdefault(node.id, set()).add(name)
    work = list(values)
    waiting = set(work)
    while work:
        name = work.pop()
        waiting.discard(name)
        kind = kinds[key(name)]
        if kind is not None and any(kind_of(value, known) != kind for value in values[name]):
            kinds[key(name)] = None
            known.forget(key(name))
            for reader in readers.get(name, ()):
                if reader not in waiting:
                    waiting.add(reader)
                    work.append(reader)
    return kinds
