# SPDX-License-Identifier: MIT
"""Every player's estimate of a state, remembered by what the estimate reads.

The search bots score thousands of states a decision, and many of them agree on all the
estimate reads: greedy's trials differ in a hand or a display the estimate never looks at,
a rollout ends where another ended. The estimate is a content function (``$estimate``) with
a read set like any other (``dsl/reads.py``: the zones by name, the global and player
variables, the item states it reads), so two states of one game and player count that hold
the same values there have the same estimates. A state's key is those values, compared
exactly (with their classes: ``1``, ``True`` and a seat ``p2`` are told apart); a state
whose estimate may read anything (a zone kept in a variable, a built-in reading where items
are) is never remembered. The per-state memo (engine/memo.py) forgets the estimate on every
change to what it reads; this table outlives the change, so it serves other states.

Most trials change one player's things: when one player's estimate reads no other player's
variables and zones (``Scoring.estimate_of_own_seat``, dsl/reads.py ``seat_params``), a
state the table misses takes each player's estimate from a second table, keyed by what that
player's estimate reads (its own, and what all read alike), and works out only the others.
"""
from __future__ import annotations

from io import BytesIO
from operator import itemgetter
from pickle import HIGHEST_PROTOCOL, Pickler, PicklingError

from ..engine.state import ITEM_STATES, PLAYERS, keys_of
from ..limits import ESTIMATES_KEPT as LIMIT

ESTIMATE = "$estimate"   # the estimate's name among the content functions (model.ESTIMATE; a test checks)


_BUFFER = BytesIO()
_PICKLER = Pickler(_BUFFER, HIGHEST_PROTOCOL)
_PICKLER.fast = True     # no memo: values are written out in full (none is cyclic), which is quicker


def dumps(value) -> bytes:
    """``value`` pickled by one pickler kept for every key (making one is a good part of a
    small pickle's cost)."""
    _BUFFER.seek(0)
    _BUFFER.truncate()
    _PICKLER.dump(value)
    return _BUFFER.getvalue()


def _values_at(keys: tuple):
    """A function giving a container's values at ``keys`` as a tuple (one ``itemgetter`` call)."""
    if len(keys) > 1:
        return itemgetter(*keys)
    if keys:
        key = keys[0]
        return lambda held: (held[key],)
    return lambda held: ()


class _Reads:
    """Where the estimate reads in the states of one game and player count."""

    __slots__ = ("props", "last", "seats", "zones_at", "vars_at", "gvars_at", "shared_at", "own_at")

    def __init__(self, zones: tuple, pvars: tuple, gvars: tuple, props: tuple, seats: tuple | None = None):
        self.props = props
        self.last: tuple | None = None      # (items' states no state changes any more, their pickle)
        self.zones_at, self.vars_at, self.gvars_at = _values_at(zones), _values_at(pvars), _values_at(gvars)
        # where one player's estimate reads, when it reads no other player's variables and zones
        # (Scoring.estimate_of_own_seat): the zones no player owns, and each seat's own
        self.seats = seats
        self.shared_at = _values_at(tuple(k for k in zones if not any(k in own for own in seats or ())))
        self.own_at = [_values_at(own) for own in seats or ()]

    @staticmethod
    def of(game, n: int) -> _Reads | None:
        """The estimate's read set as state keys, or None when it may read anything (or where
        items are, which would take the whole state)."""
        if ESTIMATE in game.memo.always:
            return None
        found = sorted(r for r, names in game.memo.deps.items() if ESTIMATE in names)
        if ("loc",) in found:
            return None
        zones: list = []
        for name in (r[1] for r in found if r[0] == "zone"):
            if name in game.board.zones:
                zones.append(game.board.zones[name])
            elif name in game.board.families:
                zones.extend(game.board.families[name].zones.values())
            elif name in game.board.pzones:
                zones.extend(key for zone in game.board.pzones[name][:n] for key in keys_of(zone))
        seats = None
        if game.scoring.estimate_of_own_seat:
            owned = [name for name in (r[1] for r in found if r[0] == "zone") if name in game.board.pzones]
            seats = tuple(tuple(key for name in owned for key in keys_of(game.board.pzones[name][q]))
                          for q in range(n))
        return _Reads(tuple(zones), tuple(r[1] for r in found if r[0] == "pvar"),
                      tuple(r[1] for r in found if r[0] == "g"),
                      tuple(sorted({r[1] for r in found if r[0] == "prop"})), seats)

    def key(self, s) -> bytes | tuple:
        """The values the estimate reads in ``s``, pickled: equal bytes hold equal values of
        equal classes (``1``, ``True``, ``1.0`` and a seat ``p2`` all differ), and equal values
        held differently (other items' states, another order of them) merely miss. Raises
        KeyError for a zone the state lacks, a pickling error for a value that cannot be kept."""
        read = dumps((self.zones_at(s.zones), list(map(self.vars_at, s.p)), self.gvars_at(s.g)))
        return (read, self._item_states(s)) if self.props else read

    def seat_keys(self, s, key) -> list:
        """The keys of each player's estimate in ``s`` (whose whole key is ``key``): the seat, what
        it reads of its own, and what every seat reads alike (zones no player owns, global
        variables, the items' states)."""
        zones, p, vars_at = s.zones, s.p, self.vars_at
        alike = (dumps((self.shared_at(zones), self.gvars_at(s.g))), key[1] if self.props else None)
        return [(q, dumps((own_at(zones), vars_at(p[q]))), alike)
                for q, own_at in enumerate(self.own_at)]

    def _item_states(self, s) -> bytes:
        """The states of the properties the estimate reads, pickled. The pickle of tables no
        state may change any more (``s`` shares them with its clones until one changes an
        item's state: ``State.item_states``) is kept with them: the trials of one decision
        share their world's tables unless they change an item."""
        iprops = s.iprops
        shared = ITEM_STATES not in s.owned
        if shared and self.last is not None and self.last[0] is iprops:
            return self.last[1]
        pickled = dumps([iprops.get(prop) for prop in self.props])
        if shared:
            self.last = (iprops, pickled)
        return pickled


class Estimates:
    """``estimates(s)``: the content's estimate of every player in ``s`` (a tuple), or None
    when the game declares none; remembered for states that read alike (at most
    :data:`LIMIT` of them, for the game and player count last asked about)."""

    def __init__(self):
        self.game = None
        self.n = 0
        self.reads: _Reads | None = None
        self.table: dict = {}
        self.seats: dict = {}      # one player's estimate by what it reads, when it reads its own alone

    def __call__(self, s) -> tuple | None:
        if s.game.scoring.estimate is None:
            return None
        key = self._key(s)
        values = self.table.get(key) if key is not None else None
        return values if values is not None else self._worked_out(s, key)

    def worked_out(self, s) -> tuple | None:
        """The estimates of ``s`` worked out even when remembered as a whole (and then remembered):
        the tallies that working them out builds in ``s`` serve its clones (a player's estimate
        kept apart is taken as it was: working out only the others pays more)."""
        return None if s.game.scoring.estimate is None else self._worked_out(s, self._key(s))

    def _key(self, s):
        """The key of ``s`` in the table, or None when its estimates are not remembered."""
        if s.game is not self.game or s.n != self.n:
            self.game, self.n, self.table, self.seats = s.game, s.n, {}, {}
            self.reads = _Reads.of(s.game, s.n)
        if self.reads is None or s.coarse:
            return None
        try:
            return self.reads.key(s)
        except (KeyError, TypeError, AttributeError, PicklingError, ValueError):   # ValueError: a cycle
            return None

    def _worked_out(self, s, key) -> tuple:
        """Every player's estimate in ``s``; where one player's reads its own alone, one whose own
        reads and the shared ones match a state seen before is that state's."""
        estimate = s.game.scoring.estimate
        if key is None or self.reads.seats is None:
            values = tuple([estimate(s, {"p": PLAYERS[q]}) for q in range(s.n)])
        else:
            seats = self.seats
            if len(seats) >= LIMIT:
                seats.clear()
            found = []
            for q, seat_key in enumerate(self.reads.seat_keys(s, key)):
                value = seats.get(seat_key)
                if value is None:
                    value = seats[seat_key] = estimate(s, {"p": PLAYERS[q]})
                found.append(value)
            values = tuple(found)
        if key is not None:
            if len(self.table) >= LIMIT:
                self.table.clear()
            self.table[key] = values
        return values
