# SPDX-License-Identifier: MIT
"""Remembered results of content functions, and their forgetting: all in one place.

Content functions are pure: a result depends on the arguments and on the parts of
the state the function reads (its *read set*, found once from its text by
``dsl/reads.py``). Two kinds of memory:

* **static**: a function that reads no state at all (board adjacency) is remembered
  per game definition and player count, across states and clones, and never forgotten;
  it pays, and is always on;
* **per state**: results kept in ``State.memo[name]`` until a change touches what the
  function reads (:func:`forget`, :func:`forget_move`, called by engine/mutate.py); off
  as shipped (below).

**Clones** share their original's tables (``State.clone`` copies the dict of tables, not
the tables): a table stays in a state only while nothing the function reads has changed
there since the table was made, so every state holding a table agrees on everything its
function reads, and a result any of them adds is right for all of them. A search bot's
clones thus start with what their root already knows.

**Per-state memory is off** (:data:`PER_STATE`): since content functions compile to plain
Python, working an answer out costs about what finding it in a table does, and the tables
cost their forgetting on every move. Measured side by side on both shipped games
(``benchmarks/bench_caches.py``; figures in docs/performance.md, tenth session), random and
greedy games ran faster without it and counted instructions moved by under 1% either way;
so callers call the functions themselves. The static memory and the tallies
(engine/tally.py) still pay and stay.

With ``PER_STATE = True`` (what ``bench_caches.py`` measures as "memo trial"), whether a
per-state memory pays is found by playing: every memoised function starts on *trial*
(:func:`trial_caller`) and after :data:`TRIAL_CALLS` calls keeps its memory only if at
least :data:`KEEP_RATE` of the calls were answered from it and the trial's calls took at
most :data:`KEEP_MARGIN` of the time working every answer out would have taken; otherwise
its callers call it directly from then on. Results never depend on the choice (functions
are pure), so games stay the same move for move; only time does.
"""
from __future__ import annotations

from time import perf_counter_ns

from ..limits import STATIC_MEMO_LIMIT as STATIC_LIMIT
from .state import PLAYERS, Family, Player, ZoneKey

_ZONELIKE = frozenset((ZoneKey, Family))
SEAT_OR_TEXT = frozenset((Player, str))     # argument classes whose equal values are of one class
PER_STATE = False        # per-state memory (State.memo), read when a game is compiled: see above
TRIAL_CALLS = 300
KEEP_RATE = 0.5          # at least this share of a trial's calls answered from memory...
KEEP_MARGIN = 0.6        # ...and the trial's calls took at most this share of the time without it
_MISSING = object()      # not in a table (a remembered result may be None)


# ------------------------------------------------------------------ remembering
def caller(name: str, arity: int, impls: dict):
    """A caller of function ``name`` that remembers results in ``s.memo[name]``. A zone given
    as an argument is not remembered (what the call reads is then not in the read set); a
    list argument is remembered by its contents. ``impls`` is looked up on each miss, so
    functions may be defined in any order."""
    if arity == 1:
        def call(s, x):
            table = s.memo.get(name)
            if table is None:
                table = s.memo[name] = {}
            key = (x, x.__class__)  # Player(0) == 0 == False: keep them apart
            try:
                value = table.get(key, _MISSING)    # a miss raises nothing: misses are common
            except TypeError:  # a list among the arguments: keyed by its contents
                return _by_contents(table, impls[name], s, (x,))
            if value is not _MISSING:
                return value
            if x.__class__ in _ZONELIKE:
                return impls[name](s, x)
            value = table[key] = impls[name](s, x)
            return value
    elif arity == 2:
        def call(s, x, y):
            table = s.memo.get(name)
            if table is None:
                table = s.memo[name] = {}
            key = (x, y, x.__class__, y.__class__)
            try:
                value = table.get(key, _MISSING)
            except TypeError:
                return _by_contents(table, impls[name], s, (x, y))
            if value is not _MISSING:
                return value
            if x.__class__ in _ZONELIKE or y.__class__ in _ZONELIKE:
                return impls[name](s, x, y)
            value = table[key] = impls[name](s, x, y)
            return value
    else:
        def call(s, *values):
            table = s.memo.get(name)
            if table is None:
                table = s.memo[name] = {}
            key = values + tuple(v.__class__ for v in values)
            try:
                value = table.get(key, _MISSING)
            except TypeError:
                return _by_contents(table, impls[name], s, values)
            if value is not _MISSING:
                return value
            if any(v.__class__ in _ZONELIKE for v in values):
                return impls[name](s, *values)
            value = table[key] = impls[name](s, *values)
            return value
    return call


def direct_caller(name: str, impls: dict, settle):
    """A caller that hands its callers the function itself at the first call (``settle``): the
    function may be defined after the code that calls it."""
    def first(s, *values):
        fn = impls[name]
        settle(fn)
        return fn(s, *values)
    return first


def trial_caller(name: str, arity: int, impls: dict, settle):
    """A remembering caller on trial: after TRIAL_CALLS calls it hands ``settle`` the caller
    to use from then on, the remembering one if remembering saved time, else the function
    itself. The trial times the calls (a hit against working it out): a function asked the
    same thing often but quick to work out is not worth remembering, since every change to
    what it reads must then forget it."""
    remembering = caller(name, arity, impls)
    counts = [0, 0, 0, 0]     # calls, results computed, ns spent on hits, ns spent computing

    def trial(s, *values):
        table = s.memo.get(name)
        before = 0 if table is None else len(table)
        started = perf_counter_ns()
        value = remembering(s, *values)
        spent = perf_counter_ns() - started
        counts[0] += 1
        if len(s.memo[name]) != before:
            counts[1] += 1
            counts[3] += spent
        else:
            counts[2] += spent
        if counts[0] == TRIAL_CALLS:
            settle(remembering if _pays(*counts) else impls[name])
        return value
    return trial


def _pays(calls: int, computed: int, hit_ns: int, compute_ns: int) -> bool:
    """Whether remembering beat working out every call by KEEP_MARGIN (which stands for
    the forgetting that remembering costs on every change)."""
    hits = calls - computed
    if hits < KEEP_RATE * calls or not computed:
        return bool(hits) and not computed
    per_compute = compute_ns / computed
    with_memory = hit_ns + compute_ns
    return with_memory < KEEP_MARGIN * calls * per_compute


class StaticTable(dict):
    """The results of one function that reads nothing of the state, for one game definition:
    ``(n, *args, *their classes) -> value``. ``nested`` holds the same results of one- and
    two-argument calls by player count, then argument by argument, each with its class
    (``n -> x -> (class, value)``; ``n -> x -> (class, y -> (class, value))``): looking up a
    seat and a column there needs no key tuple built and hashed (clearing clears both).

    ``by_seat`` (see :meth:`seated`), for a function of one or two arguments that does not
    read the player count either (not ``of_count``), holds results for generated code to look up in place of
    the call (``ST.get(x) or fn(s, x)``; ``ST[p].get(c) or fn(s, p, c)``): of one argument, by
    that argument where it is a seat or a text; of two, seat -> text -> value where they are
    exactly a seat and a text. A seat's class is checked where it is looked up (``1`` and
    ``True`` equal seat ``p2`` as keys); every seat has its row from the start, so it needs no
    ``get``; only a text equals a text."""

    def __init__(self, *args, of_count: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.of_count = of_count        # its results may depend on the player count (dsl/reads.py)
        self.nested: dict = {}
        self.by_seat: dict | None = None
        self.rows_by_seat = False

    def seated(self, arity: int) -> dict:
        """The ``by_seat`` table (made on the first question)."""
        if self.by_seat is None:
            self.rows_by_seat = arity == 2
            self.by_seat = {seat: {} for seat in PLAYERS} if self.rows_by_seat else {}
        return self.by_seat

    def clear(self) -> None:
        super().clear()
        self.nested.clear()
        if self.by_seat is None:
            return
        if self.rows_by_seat:
            for row in self.by_seat.values():       # every seat keeps its row
                row.clear()
        else:
            self.by_seat.clear()


def static_caller(name: str, impls: dict, table: StaticTable, arity: int = -1):
    """A caller of a function that reads nothing of the state: one table per game
    definition, keyed by the player count and the arguments (and their classes: ``1``,
    ``True`` and seat ``p2`` are equal keys to Python, not to content)."""
    nested = table.nested
    if arity == 1:
        def call1(s, x):
            try:
                kind, value = nested[s.n][x]
                if kind is x.__class__:
                    return value
            except (KeyError, TypeError):
                pass
            return call(s, x)
        fast = call1
    elif arity == 2:
        def call2(s, x, y):
            try:
                kind, row = nested[s.n][x]
                kind_y, value = row[y]
                if kind is x.__class__ and kind_y is y.__class__:
                    return value
            except (KeyError, TypeError):
                pass
            return call(s, x, y)
        fast = call2
    else:
        fast = None

    def call(s, *values):
        key = (s.n,) + values + tuple(v.__class__ for v in values)
        try:
            value = table[key]
        except KeyError:
            if any(v.__class__ in _ZONELIKE for v in values):
                return impls[name](s, *values)   # it reads the zone it was given
            if len(table) >= STATIC_LIMIT:
                table.clear()
            value = table[key] = impls[name](s, *values)
        except TypeError:
            if len(table) >= STATIC_LIMIT:
                table.clear()
            return _by_contents(table, impls[name], s, values, (s.n,))
        if fast is not None:
            _nest(nested.setdefault(s.n, {}), values, value)
            if table.by_seat is not None:
                if len(values) == 1:
                    if values[0].__class__ in SEAT_OR_TEXT:
                        table.by_seat[values[0]] = value
                elif values[0].__class__ is Player and values[1].__class__ is str:
                    table.by_seat[values[0]][values[1]] = value
        return value
    return fast or call


def _nest(rows: dict, values: tuple, value) -> None:
    """Keep ``value`` for ``values`` (one or two) in a nested table, unless an equal argument of
    another class holds its place there (such calls find their result in the flat table)."""
    x = values[0]
    if len(values) == 1:
        rows.setdefault(x, (x.__class__, value))
        return
    kind, row = rows.setdefault(x, (x.__class__, {}))
    if kind is x.__class__:
        y = values[1]
        row.setdefault(y, (y.__class__, value))


def _contents_key(value):
    """A hashable stand-in for an argument that holds lists (by contents and types), or
    None when it holds a zone (the call then reads that zone, which no read set names)."""
    if value.__class__ is list:
        parts = []
        for item in value:
            part = _contents_key(item)
            if part is None:
                return None
            parts.append(part)
        return (list, tuple(parts))
    if value.__class__ in _ZONELIKE:
        return None
    hash(value)   # anything else unhashable is not memoised (TypeError, caught by the caller)
    return (value.__class__, value)


def _by_contents(table: dict, impl, s, values: tuple, prefix: tuple = ()):
    """The memo for a call with a list among its arguments (``can_pay(p, [red, red, blue])``);
    ``prefix`` starts the key as the caller's plain keys start (the player count, per game)."""
    try:
        key = tuple(_contents_key(v) for v in values)
    except TypeError:
        return impl(s, *values)
    if None in key:
        return impl(s, *values)
    key = (_by_contents,) + prefix + key   # apart from the keys of plain calls
    try:
        return table[key]
    except KeyError:
        value = table[key] = impl(s, *values)
        return value


# ------------------------------------------------------------------ forgetting
def _zonelike(value) -> bool:
    kind = value.__class__
    if kind in _ZONELIKE:
        return True
    if kind is list:
        for x in value:
            if x.__class__ in _NESTED and (x.__class__ is not list or _zonelike(x)):
                return True
    return False


_NESTED = _ZONELIKE | {list}     # an item of a list that may be or hold a zone


def holds_zone(s) -> bool:
    """Whether a variable or item state holds a zone (then functions reading it may read
    any zone, and every change forgets every remembered result; see dsl/reads.py)."""
    return (any(_zonelike(v) for v in s.g.values()) or any(_zonelike(v) for row in s.p for v in row.values())
            or any(_zonelike(v) for table in s.iprops.values() for v in table.values()))


def stored(s, value) -> None:
    """A value was stored in a variable or item state: a zone there makes forgetting coarse."""
    kind = type(value)
    if (kind is list or kind in _ZONELIKE) and not s.coarse and _zonelike(value):
        s.coarse = True


def forget(s, resource) -> None:
    """Forget the results of the functions that read ``resource`` (``("g", var)``,
    ``("pvar", var)``, ``("prop", state)``, ``("zone", name)``)."""
    tables = s.game.memo
    drop(s, tables.deps.get(resource, tables.always))


def forget_move(s, source: str, to: str) -> None:
    """Forget what a move from zone ``source`` to ``to`` may change (``drop``, written out:
    moves are the commonest change)."""
    names = s.game.memo.moves.get((source, to))
    if names is None:
        names = _move_forgets(s.game, source, to)
    memo = s.memo
    if s.coarse:
        memo.clear()
        return
    for name in names:
        if name in memo:
            del memo[name]


def drop(s, names) -> None:
    """Forget the results of ``names`` (all results, when a variable holds a zone)."""
    memo = s.memo
    if s.coarse:
        memo.clear()
        return
    for name in names:
        if name in memo:
            del memo[name]


def _move_forgets(game, source: str, to: str) -> tuple:
    """The functions a move from zone ``source`` to ``to`` may change (both zones and
    where the item is), worked out once per pair of zone names."""
    deps, always = game.memo.deps, game.memo.always
    names = dict.fromkeys(deps.get(("zone", source), always) + deps.get(("zone", to), always)
                          + deps.get(("loc",), always))
    game.memo.moves[(source, to)] = tuple(names)
    return game.memo.moves[(source, to)]
