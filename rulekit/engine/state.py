# SPDX-License-Identifier: MIT
"""The one mutable object of a running game.

We measured the trade-off the style guide asks about: copy-on-write frozen states
make every effect allocate, and random playouts run millions of effects. So the
*definitions* (:class:`~rulekit.model.Game`) are frozen and shared, while
:class:`State` is a plain mutable object with a cheap :meth:`State.clone` (a few
dict and list copies; values are immutable ints, strings and tuples). Atomicity of
refusals comes from checking an action against the pending decision *before* any
change, and from restoring a clone if content fails half-way (see ``api.apply``).

The program counter of the running rules (the VM frames) is part of the state, so
a game suspended at a decision can be cloned, serialised and resumed anywhere.
"""
from __future__ import annotations

import weakref
from typing import Any

from ..codes import SAME_LABEL_TWICE, VALUE_TOO_LARGE
from ..errors import RUNTIME_ERRORS, ContentRuntimeError, raise_failure
from .limits import MAX_LABELS


class Player(int):
    """A seat (0-based int) that prints as ``p1``, ``p2``... in notation and logs."""

    __slots__ = ()

    def __str__(self) -> str:
        if 0 <= self < len(SEAT_NAMES):
            return SEAT_NAMES[self]
        return f"p{int(self) + 1}"

    __repr__ = __str__


PLAYERS = tuple(Player(i) for i in range(16))
SEAT_NAMES = tuple(f"p{i + 1}" for i in range(len(PLAYERS)))
# In State.owned: the table of the items' states is the state's own (a property's name there:
# that property's table is). Zone keys and tally keys are never texts, so neither is taken for one.
ITEM_STATES = "$item states"


def item_states_of(game) -> dict:
    """A new game's items' states: property -> {item: value}, one table per state property,
    so generated code reads ``s.iprops["level"].get(item, 1)`` (no key tuple to build and
    hash). It holds the items whose kind gives a property another default than the
    game-wide one; any other item reads that default."""
    seed = game.components.state_seed
    return {prop: dict(seed.get(prop, ())) for prop in game.components.prop_defaults}


def item_state_entries(iprops: dict):
    """``(item, property, value)`` for every item state held, property by property."""
    for prop, table in iprops.items():
        for item, value in table.items():
            yield item, prop, value


class ZoneKey:
    """Identity of one zone: a global zone, a player's zone or one space of a family.

    A game creates each of its zone keys once (model.py; saved states map back to them
    by text), so keys compare and hash by identity: the commonest dictionary key of a
    running game needs no Python-level ``__eq__`` or ``__hash__``.
    """

    __slots__ = ("name", "owner", "key", "text", "capacity")

    def __init__(self, name: str, owner: int | None = None, key: Any = None, capacity: int | None = None):
        self.name = name
        self.owner = owner
        self.key = key
        self.capacity = capacity    # most items it may hold (`capacity:` of its zone), or None
        if owner is not None:     # a player's zone, or a space of a player's family: `p1.land[hill]`
            self.text = f"{PLAYERS[owner]}.{name}" if key is None else f"{PLAYERS[owner]}.{name}[{key}]"
        elif key is not None:
            self.text = f"{name}[{key}]"
        else:
            self.text = name

    def __str__(self):
        return self.text

    __repr__ = __str__


class Frame:
    """One activation of a procedure: its code, program counter and locals. ``chosen`` is
    the option a decision just took, ``(target pc, *values)``: set as the frame goes on at
    its block, whose first line binds the values to their names (dsl/codegen.py); nothing
    reads it after that, so a copy or a save leaves it out."""

    __slots__ = ("code", "pc", "env", "ret", "chosen")

    def __init__(self, code, pc: int, env: dict, ret: str | None = None):
        self.code = code
        self.pc = pc
        self.env = env
        self.ret = ret

    def copy(self) -> Frame:
        return Frame(self.code, self.pc, dict(self.env), self.ret)


class Decision:
    """A pending choice: who decides, the options and how to resume.

    ``choices`` are cheap tuples ``(target pc, *chosen values)``; the notation of the
    options (``labels``) is written only when someone asks for it (a person, a log, a
    script), so bots and random playouts never pay for text."""

    __slots__ = ("player", "choices", "spec", "_state", "_labels", "_index")

    def __init__(self, player: int, choices: list, spec, state):
        self.player = player
        self.choices = choices        # list of (target pc, *values)
        self.spec = spec              # runtime.ChooseSpec: env keys and label writers per target
        # The state the options were listed in (labels read it), held weakly: a state and
        # its pending decision must not form a cycle, or every dropped clone waits for the
        # garbage collector (search bots drop thousands a second).
        self._state = weakref.ref(state)
        self._labels = None
        self._index = None

    @property
    def state(self):
        state = self._state()
        if state is None:
            raise RuntimeError("the options of this decision cannot be written: its state is gone")
        return state

    def __len__(self) -> int:
        return len(self.choices)

    @property
    def span(self):
        return self.spec.span

    @property
    def players(self) -> tuple:
        """Everyone this decision waits for: its one player (a ``choose_all`` waits for several:
        engine/simultaneous.py)."""
        return (self.player,)

    def bound_to(self, state) -> Decision:
        """The same decision in a clone of its state (labels not written yet read the clone)."""
        if self._labels is not None:
            return self
        return Decision(self.player, self.choices, self.spec, state)

    def label(self, index: int) -> str:
        """The notation of one option, without writing the others."""
        if self._labels is not None:
            return self._labels[index]
        choice = self.choices[index]
        writer = self.spec.labels[choice[0]]
        return writer if writer.__class__ is str else self._written(writer, choice[1:])

    @property
    def labels(self) -> tuple:
        """The notation of every option (checked unique: RK4011)."""
        labels = self._labels
        if labels is None:
            writers = self.spec.labels

            def every(s, env):
                out = []
                size = 0
                for c in self.choices:
                    label = w if (w := writers[c[0]]).__class__ is str else w(s, env, *c[1:])
                    size += len(label)
                    if size > MAX_LABELS:       # each is within MAX_SIZE; all, within this
                        raise ContentRuntimeError(f"the options' labels come to more than {MAX_LABELS:,} "
                                                  "characters (shorter labels, or fewer options?)", None,
                                                  VALUE_TOO_LARGE)
                    out.append(label)
                return tuple(out)
            labels = self._written(every, ())
            if len(set(labels)) != len(labels):
                _duplicate(labels, self.spec.span)
            self._labels = labels
        return labels

    def verb(self, index: int) -> str:
        """The first word of one option's notation (what ``rulekit simulate`` counts), without
        writing the notation where its text fixes that word."""
        verb = self.spec.verbs.get(self.choices[index][0])
        return verb if verb is not None else self.label(index).split(" ", 1)[0]

    def prompt(self) -> str | None:
        """The choose's `prompt` for the one deciding, or None: written only when asked."""
        writer = self.spec.prompt
        return writer if writer is None or writer.__class__ is str else self._written(writer, ())

    def says(self, index: int) -> str | None:
        """What choosing option ``index`` says (its `says`), or None: written only when asked,
        in the state before the choice."""
        choice = self.choices[index]
        writer = self.spec.says.get(choice[0])
        return writer if writer is None or writer.__class__ is str else self._written(writer, choice[1:])

    def _written(self, writer, values):
        """``writer(state, env, *values)``, its failures on the line of the `choose` (as listing
        the options would put them)."""
        s = self.state
        try:
            return writer(s, s.frames[-1].env, *values)
        except ContentRuntimeError as exc:
            if exc.span is None:
                exc.span = self.spec.span
            raise
        except RUNTIME_ERRORS as exc:
            raise_failure(exc, s.game, self.spec.span)

    def index(self, label: str) -> int | None:
        if self._index is None:
            self._index = {text: i for i, text in enumerate(self.labels)}
        return self._index.get(label)


def _duplicate(labels, span):
    seen = set()
    for label in labels:
        if label in seen:
            raise ContentRuntimeError(f"two legal options share the notation `{label}`; "
                                      "give options labels that tell them apart", span, SAME_LABEL_TWICE)
        seen.add(label)


class State:
    """A game in progress. Mutate it only through the engine (``api.apply``)."""

    __slots__ = ("game", "n", "g", "p", "zones", "loc", "iprops", "rng", "frames", "pending",
                 "events", "actions", "over", "result", "pins", "record", "steps", "memo", "tallies",
                 "tallied", "coarse", "budget", "limit", "owned", "alone", "list_later", "auto", "weak",
                 "__weakref__")

    def clone(self) -> State:
        """A copy that shares the zones' item lists, and the items' states, with this state
        until either changes one (copy on write: see :meth:`writable` and :meth:`item_states`);
        a search bot's clone changes a few zones of many, and seldom an item's state."""
        new = State.__new__(State)
        new.game = self.game
        new.n = self.n
        new.g = dict(self.g)
        new.p = [dict(d) for d in self.p]
        new.zones = dict(self.zones)
        new.owned = set()
        self.owned = set()          # the lists (and tallies) are shared now: neither state may change them in place
        new.alone = self.alone = False
        new.loc = dict(self.loc)
        new.iprops = self.iprops
        new.rng = dict(self.rng)
        new.frames = [f.copy() for f in self.frames]
        pending = self.pending
        new.pending = pending if pending is None else pending.bound_to(new)
        new.events = list(self.events) if self.record else self.events[:0]
        new.actions = list(self.actions)
        new.over = self.over
        new.result = self.result
        new.pins = {k: list(v) for k, v in self.pins.items()} if self.pins else {}
        new.record = self.record
        new.list_later = self.list_later
        new.auto = None
        new.steps = self.steps
        new.memo = dict(self.memo)           # shared tables: see engine/memo.py, "Clones"
        new.tallies = dict(self.tallies)     # shared tables, copied on write (engine/tally.py)
        new.tallied = dict(self.tallied)
        new.coarse = self.coarse
        new.budget = new.limit = 0
        new.weak = None
        return new

    def checkpoint(self) -> State:
        """A copy to undo one action with (``api.apply_index``): a clone that shares the
        history lists (events, actions) instead of copying them, since an action only
        appends to them; the caller cuts them back. So an atomic action costs the size of
        the position, not of the whole game played so far."""
        events, actions = self.events, self.actions
        self.events = self.actions = []
        try:
            new = self.clone()
        finally:
            self.events, self.actions = events, actions
        new.events, new.actions = events, actions
        return new

    def restore(self, other: State) -> None:
        """Become ``other`` (used to undo a half-applied action)."""
        for slot in State.__slots__:
            if slot != "__weakref__" and slot != "weak":     # (a weak reference to this state stays its own)
                setattr(self, slot, getattr(other, slot))
        if self.pending is not None:
            self.pending = self.pending.bound_to(self)
        self.memo = {}
        self.tallies = {}
        self.tallied = {}

    def writable(self, key: ZoneKey) -> list:
        """The item list of zone ``key``, this state's own to change in place."""
        items = self.zones[key]
        if key not in self.owned:
            items = self.zones[key] = items[:]
            self.owned.add(key)
        return items

    def item_states(self, prop: str) -> dict:
        """The items' states of property ``prop`` (``iprops[prop]``), this state's own to
        change in place: a clone shares the table of tables, and each table, until one
        changes it, so a change copies one property's table, not every item's state."""
        owned = self.owned
        if prop in owned:       # a property's name, in State.owned: its table is this state's own
            return self.iprops[prop]
        if ITEM_STATES not in owned:
            self.iprops = dict(self.iprops)
            owned.add(ITEM_STATES)
        table = self.iprops[prop] = dict(self.iprops.get(prop, ()))
        owned.add(prop)
        return table

    @property
    def current_player(self) -> int | None:
        return None if self.pending is None else self.pending.player

    def legal_actions(self) -> list[str]:
        return [] if self.pending is None else list(self.pending.labels)

    @staticmethod
    def fresh(game, n: int) -> State:
        """An empty state of ``game`` for ``n`` players (every slot set; callers fill it)."""
        s = State.__new__(State)
        s.game = game
        s.n = n
        s.g = {}
        s.p = []
        s.zones = {}
        s.loc = {}
        s.iprops = item_states_of(game)
        s.rng = {}
        s.frames = []
        s.pending = None
        s.events = []
        s.actions = []
        s.over = False
        s.result = None
        s.pins = {}
        s.record = True
        s.list_later = False        # a bot's imagined position lists its options only when asked (engine/vm.py)
        s.auto = None               # a runtime.Autoplay: decisions taken at random as they come
        s.steps = 0
        s.memo = {}
        s.tallies = {}
        s.tallied = {}
        s.coarse = False
        s.budget = s.limit = 0
        s.owned = set()             # zones whose lists this state may change in place (the filler adds them)
        # True while the state has never been cloned (nor checkpointed): it shares no zone's list and no
        # tally with another state, so it may change them all in place (mutate.move asks this first)
        s.alone = True
        s.weak = None               # a weak reference to this state, made when first asked for (runtime.decide)
        return s


class Family:
    """A named family of zones indexed by a key (board spaces): ``route[3]``; a player's own
    family (``player: zones: land: {keys: ...}``) has an ``owner`` and prints ``p1.land``.

    A family sized by a parameter (``range: [1, displays]``) holds the zones of its largest
    game; a game plays the keys up to that parameter's value, and only those are its spaces:
    walked, counted, indexed and shown (:meth:`in_play`)."""

    __slots__ = ("name", "zones", "owner", "text", "grid", "bound", "_upto", "graph")

    def __init__(self, name: str, keys, capacity: int | None = None, owner: int | None = None,
                 grid: tuple | None = None, bound: str | None = None, graph=None):
        self.name = name
        self.owner = owner
        self.text = name if owner is None else f"{PLAYERS[owner]}.{name}"
        self.zones = {k: ZoneKey(name, owner, k, capacity) for k in keys}
        self.grid = grid        # (columns, rows) of a board (`grid:`): its keys are cells, `a1`...
        self.bound = bound      # the parameter whose value is the highest key in play, or None
        self._upto: dict = {}   # that value -> the zones in play
        self.graph = graph      # a map's nodes and edges (`graph:`, engine/graphs.Graph), or None

    def in_play(self, s) -> list:
        """The family's zones in game ``s``, in key order."""
        if self.bound is None:
            return list(self.zones.values())
        high = s.g[self.bound]
        found = self._upto.get(high)
        if found is None:
            found = self._upto[high] = [zone for key, zone in self.zones.items() if key <= high]
        return list(found)

    def plays(self, s, key) -> bool:
        """Whether ``key`` is one of the family's spaces in game ``s``."""
        return key in self.zones and (self.bound is None or key <= s.g[self.bound])

    def __getitem__(self, key):
        return self.zones[key]

    def __str__(self):
        return self.text

    __repr__ = __str__


def cell_name(col: int, row: int) -> str:
    """A board's cell as content names it: column letter, row number (`c2`: third column, row 2)."""
    return f"{chr(ord('a') + col - 1)}{row}"


def grid_cells(cols: int, rows: int) -> list[str]:
    """Every cell of a board, row by row from row 1, each row from column a."""
    return [cell_name(c, r) for r in range(1, rows + 1) for c in range(1, cols + 1)]


def keys_of(zone) -> tuple:
    """The zone keys of a player's zone as ``Board.pzones`` holds it for one seat: the zone
    itself, or every space of the player's family."""
    return tuple(zone.zones.values()) if zone.__class__ is Family else (zone,)
