# SPDX-License-Identifier: MIT
"""Which parameters of the procedures and option groups are a player at every call.

A procedure's parameter has no declared type, but the content shows what it is given: when every
call of ``gain_tile(p, t)`` in the game passes a player as ``p`` (a loop's ``q`` over ``players``,
a parameter that is itself a player at every call), ``p`` is a player, and the code written for
the body reads it as one, with no test of its class (the ``typed`` pass). The answer is the
largest one the calls allow: every parameter is a player until a call passes something else,
worked out again until nothing changes, so a procedure calling itself keeps what its other calls
give. A call from outside the game's texts (a script's position) is checked where it is written
(``codegen._proc_args``): it cannot pass a player's parameter anything else.
"""
from __future__ import annotations

from . import ast, resolve
from .kinds import seat_list


def seat_params(vocab, bodies: dict, game_vars: frozenset) -> dict:
    """callee -> the frozenset of its parameters a player is given at every call, for each
    procedure and option group; ``bodies``: every body that may call one, by name (procedures,
    groups, phases, setup, finish) -> (its parameters, its body)."""
    callees = {name: tuple(vocab.procedures[name]) for name in vocab.procedures}
    callees.update({f"group:{name}": tuple(params) for name, (params, _opts) in vocab.option_groups.items()})
    seats = {name: set(params) for name, params in callees.items()}
    while True:
        changed = False
        for caller, (params, body) in bodies.items():
            known = _Caller(vocab, params, body, frozenset(seats.get(caller, ())), game_vars)
            for callee, given in known.calls():
                for k, param in enumerate(callees[callee]):
                    if param in seats[callee] and not (k < len(given) and known.is_seat(given[k])):
                        seats[callee].discard(param)
                        changed = True
        if not changed:
            return {name: frozenset(found) for name, found in seats.items() if found}


class _Caller:
    """One body: the calls it makes, and which of its names are a player wherever they are read."""

    def __init__(self, vocab, params, body, seat_params: frozenset, game_vars: frozenset):
        self.v = vocab
        self.body = body
        self.binders = resolve.binders(body, params, game_vars)
        self.seat_params = seat_params
        self.local_seats = self._local_seats()

    def calls(self):
        """(callee, its argument nodes) of every procedure call and group inclusion."""
        for node in ast.walk(self.body):
            if isinstance(node, ast.Call) and node.func in self.v.procedures:
                yield node.func, () if node.kwargs else node.args      # (a keyword is refused: it types nothing)
            elif isinstance(node, ast.Include) and node.name in self.v.option_groups:
                yield f"group:{node.name}", node.args

    def is_seat(self, node) -> bool:
        if not isinstance(node, ast.Name):
            return False
        found = self.binders.get(id(node))
        if found is None:
            return False        # a name of the game
        binder = found[1]
        if binder == resolve.PARAM:
            return node.id in self.seat_params
        if binder == resolve.LOCAL:
            return node.id in self.local_seats
        clause, k = binder
        return self._seat_list(clause.fors[k][1])

    def _seat_list(self, coll, lists: frozenset = frozenset()) -> bool:
        """``coll`` is a list of players: one of the game's (not a local called ``players``), or a
        local of ``lists``."""
        if isinstance(coll, ast.Name) and id(coll) in self.binders:
            return coll.id in lists and self.binders[id(coll)][1] == resolve.LOCAL
        return seat_list(coll, self.v)

    def _local_seats(self) -> frozenset:
        """The locals of the body every binding of which gives a player: a ``for`` over players, a
        ``choose_all``'s player, an assignment of a player (a parameter that is one, such a local)
        or of an element of a local list of players (``order = players_from(p)``, then
        ``p = order[i]``). A local is a list of players when every assignment gives it one. The
        largest answer the bindings allow: every local is taken to be one until a binding says
        otherwise, worked out again until nothing changes."""
        fors, assigned, other = [], [], set()
        for node in ast.walk(self.body):
            if isinstance(node, ast.For):
                fors.append((node.var, node.iter))
            elif isinstance(node, ast.ChooseAll) and node.var:
                fors.append((node.var, None))
            elif isinstance(node, ast.Assign) and isinstance(node.target, ast.Name):
                assigned.append((node.target.id, node.value))
            elif isinstance(node, (ast.Assign, ast.AugAssign)):
                other.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
        names = {name for name, _ in fors} | {name for name, _ in assigned}
        seats, lists = set(names) - other, set(names) - other
        while True:
            seat_now = {name for name in seats
                        if all(coll is None or self._seat_list(coll, frozenset(lists)) for var, coll in fors
                               if var == name)
                        and all(self._gives_seat(value, seats, lists) for var, value in assigned if var == name)}
            lists_now = {name for name in lists if not any(var == name for var, _ in fors)
                         and all(self._seat_list(value, frozenset(lists)) for var, value in assigned if var == name)}
            if (seat_now, lists_now) == (seats, lists):
                return frozenset(seats)
            seats, lists = seat_now, lists_now

    def _gives_seat(self, value, seats: set, lists: set) -> bool:
        """An assignment of ``value`` gives a player: a parameter or local that is one, or an
        element of a local list of players."""
        if isinstance(value, ast.Index) and isinstance(value.obj, ast.Name):
            return self._seat_list(value.obj, frozenset(lists))
        if not isinstance(value, ast.Name) or id(value) not in self.binders:
            return False
        binder = self.binders[id(value)][1]
        if binder == resolve.PARAM:
            return value.id in self.seat_params
        return binder == resolve.LOCAL and value.id in seats
