# SPDX-License-Identifier: MIT
"""A player's observation vector (and boards as planes), read from the state with the
visibility ``view`` applies.

The layout is fixed by the game's definitions, never by a state, with seats counted from the
observer (``seat+0`` is the observer): see docs/rl.md for the table. ``raw`` gives the
values as they are (counts, variables, 1 + indices); ``encode`` the same vector normalised
into [-1, 1] (:meth:`Observer.normalise`); ``planes`` each board (rl/board_planes.py). The
values are read straight from the state, as ``rulekit.engine.view.view`` would show them to the
observer (zones ``public``, ``owner``, ``hidden``: count only, ``face_up``: each item while its
``face_up`` state is true; variables ``public``, ``owner``, ``hidden``), so nothing the content
hides reaches them, without building the view's dictionaries (tests/test_pettingzoo.py checks
the two agree). Each seat's values are kept up to date from the state's log
(rl/observe_log.py): an observation costs what changed since that seat last looked.
"""
from __future__ import annotations

import numpy as np

from ..engine.mutate import fmt
from ..engine.state import Family
from ..engine.view import state_props
from ..limits import OBSERVATION_LIMIT as LIMIT
from .board_planes import boards, marks
from .observe_log import Follower

SOFT_SCALE = 10.0       # an unbounded number x reads as x / (|x| + SOFT_SCALE)
COUNT_SCALE = 4.0       # a count c reads as c / (c + COUNT_SCALE)


class Observer:
    """The fixed layout of a game's observation vector and boards for ``n`` players, and its encoding.

    Its values (``total`` of them) are the vector's ``size`` slots, then each board's planes."""

    def __init__(self, game, n: int):
        self.game = game
        self.n = n
        self._names(game.components, game.variables)
        self.zone_slots, owners = self._zone_slots(game.board, n)
        self._offsets(game)
        mark_names, item_marks = marks(game, self.kinds)
        self.groups = list(dict.fromkeys(item_marks))        # the distinct marks items count in
        group_of = {group: g for g, group in enumerate(self.groups)}
        self.item_group = [group_of[found] for found in item_marks]
        self.boards, cells = boards(game, n, ("count", *mark_names), self.size)
        self.total = self.size + sum(b.size for b in self.boards)
        self._tables(game.board, owners, cells, len(mark_names))
        self._scalar_reads()
        self._scales()
        self.follow = Follower(self)

    def _names(self, components, variables) -> None:
        """The kinds, items, set members and variables the vector counts, each with its index."""
        self.kinds = list(components.kinds)
        kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.item_index = {ident: i for i, ident in enumerate(components.items)}
        self.items = list(self.item_index)
        self.item_kind = {ident: kind_index[components.item_kind[ident]] for ident in components.items
                          if components.item_kind.get(ident) in kind_index}
        self.member_index: dict = {}
        for members in components.sets.values():
            for i, member in enumerate(members):
                self.member_index.setdefault(member, i)
        self.gvars = [k for k in variables.gvars if k != "round" and variables.gvis.get(k, "public") == "public"]
        self.pvars = list(variables.pvars)
        self.pvis = [variables.pvis[name] for name in self.pvars]
        self.face_up_default = components.prop_defaults.get("face_up")

    def _offsets(self, game) -> None:
        """Where each part of the vector starts, its ``size``, and each item's state slots
        (slot, property, default)."""
        components = game.components
        self.width = 1 + len(self.kinds)
        kinds = state_props(game)
        self.state_slots = [(ident, prop) for ident in components.items
                            for prop in kinds.get(components.item_kind[ident], ())]
        self.zone_base = 4 + len(self.gvars)
        self.pvar_base = self.zone_base + len(self.zone_slots) * self.width
        self.item_base = self.pvar_base + self.n * len(self.pvars)
        self.state_base = self.item_base + len(self.item_index)
        self.size = self.state_base + len(self.state_slots)
        states_of: dict = {}
        for j, (ident, prop) in enumerate(self.state_slots):
            states_of.setdefault(ident, []).append((self.state_base + j, prop, components.prop_defaults.get(prop)))
        self.item_states = [tuple(states_of.get(ident, ())) for ident in self.items]

    # ---------------------------------------------------------------- layout
    @staticmethod
    def _zone_slots(board, n: int) -> tuple:
        """[(label, zone name)] in slot order, and (zone name, key, space) -> owner seat or None."""
        slots, owners = [], []
        for name, key in board.zones.items():
            if name != "box":
                slots.append((name, name))
                owners.append((name, key, None))
        for name, fam in board.families.items():
            for key, zkey in fam.zones.items():
                slots.append((str(fam.zones[key]), name))
                owners.append((name, zkey, None))
        for rel in range(n):
            for name, seats in board.pzones.items():
                if seats[0].__class__ is Family:    # a player's family: a slot per space
                    for key in seats[0].zones:
                        slots.append((f"seat+{rel}.{name}[{fmt(key)}]", name))
                        owners.append((name, key, rel))
                else:
                    slots.append((f"seat+{rel}.{name}", name))
                    owners.append((name, None, rel))
        return slots, owners

    def _tables(self, board, owners, cells: dict, marks_: int) -> None:
        """Every zone key of a state (an index each), and per observer and zone: the item slot's
        value there (the zone's slot + 1; 0: the box, in no slot), whether it shows its items
        (or each by its face_up state), the values its items count in (``count_slots``) and
        those its seen items count in, by their group of marks (``seen_slots``: the count slots,
        then the slots of each mark: a kind, a property's value)."""
        keys = list(board.zones.values())
        for fam in board.families.values():
            keys += list(fam.zones.values())
        for seats in board.pzones.values():
            for zone in seats[:self.n]:
                keys += list(zone.zones.values()) if zone.__class__ is Family else [zone]
        self.zone_id = {key: i for i, key in enumerate(keys)}
        self.place_of, self.shown_of, self.faceup_of, self.count_slots, self.seen_slots = [], [], [], [], []
        for me in range(self.n):
            self._seat_tables(me, board, owners, cells, marks_)
        self.any_face_up = any(any(f) for f in self.faceup_of)

    def _seat_tables(self, me: int, board, owners, cells: dict, marks_: int) -> None:
        """:meth:`_tables` for observer ``me``."""
        size = len(self.zone_id)
        place, shown, faceup = [0.0] * size, [False] * size, [False] * size
        counts = [[] for _ in range(size)]
        by_mark = [[[] for _m in range(marks_)] for _ in range(size)]
        for slot, (name, key, rel) in enumerate(owners):
            owner = None if rel is None else (me + rel) % self.n
            if rel is not None:
                zone = board.pzones[name][owner]
                key = zone.zones[key] if zone.__class__ is Family else zone
            z = self.zone_id[key]
            vis = board.zone_vis[name]
            place[z] = float(slot + 1)
            shown[z] = vis == "public" or (vis == "owner" and owner == me)
            faceup[z] = vis == "face_up"
            base = self.zone_base + slot * self.width
            counts[z].append(base)
            for k in range(len(self.kinds)):
                by_mark[z][k].append(base + 1 + k)
        for key, (laid, owner, col, row) in cells.items():
            z, rel = self.zone_id[key], 0 if owner is None else (owner - me) % self.n
            counts[z].append(laid.slot(rel, 0, col, row))
            for m in range(marks_):
                by_mark[z][m].append(laid.slot(rel, m + 1, col, row))
        self.place_of.append(place)
        self.shown_of.append(shown)
        self.faceup_of.append(faceup)
        self.count_slots.append([tuple(c) for c in counts])
        self.seen_slots.append([[tuple(c) + tuple(slot for m in group for slot in zone_marks[m])
                                 for group in self.groups] for c, zone_marks in zip(counts, by_mark)])

    def _scalar_reads(self) -> None:
        """Per observer: the slots of the values read whole rather than followed item by item (the
        head, the public global variables, the player variables it may see), and which player
        variables those are (observe_log.py reads them)."""
        self.scalar_slots, self.pvar_reads = [], []
        width = len(self.pvars)
        for me in range(self.n):
            slots = list(range(self.zone_base))
            reads = []
            for rel in range(self.n):
                seat = (me + rel) % self.n
                names = []
                for j, (name, vis) in enumerate(zip(self.pvars, self.pvis)):
                    if vis == "public" or (vis == "owner" and seat == me):
                        names.append(name)
                        slots.append(self.pvar_base + rel * width + j)
                reads.append((seat, tuple(names)))
            self.scalar_slots.append(slots)
            self.pvar_reads.append(reads)

    def zone_labels(self) -> list[str]:
        """The zone slots in order: an item's location slot holds 1 + an index of this list."""
        return [label for label, _name in self.zone_slots]

    def labels(self) -> list[str]:
        """One name per slot of the vector, in order."""
        out = ["round", "over", "to_move", "my_turn", *(f"var.{name}" for name in self.gvars)]
        for zone in self.zone_labels():
            out += [f"{zone}.count", *(f"{zone}.{kind}" for kind in self.kinds)]
        out += [f"seat+{rel}.{name}" for rel in range(self.n) for name in self.pvars]
        out += [f"item.{ident}.zone" for ident in self.item_index]
        out += [f"item.{ident}.{prop}" for ident, prop in self.state_slots]
        return out

    def _scales(self) -> None:
        """Per value: divide by ``linear`` (soft False), or squash x / (|x| + scale) (soft True);
        kept as arrays (``normalise``) and as lists (one value at a time, ``observe_log``)."""
        size = self.total
        linear = np.ones(size, dtype=np.float32)
        soft = np.zeros(size, dtype=bool)
        scale = np.full(size, SOFT_SCALE, dtype=np.float32)
        soft[0] = True                                          # round
        linear[2] = self.n                                      # to_move: 1..n
        variables = self.game.variables
        bounded = [variables.gbounds.get(name) for name in self.gvars]
        for at, bound in enumerate(bounded, start=4):
            self._number_slot(at, bound, linear, soft)
        for slot in range(len(self.zone_slots)):
            base = self.zone_base + slot * self.width
            soft[base:base + self.width] = True
            scale[base:base + self.width] = COUNT_SCALE
        for rel in range(self.n):
            for j, name in enumerate(self.pvars):
                self._number_slot(self.pvar_base + rel * len(self.pvars) + j, variables.pbounds.get(name), linear,
                                  soft)
        linear[self.item_base:self.state_base] = max(1, len(self.zone_slots))
        soft[self.state_base:] = True
        scale[self.size:] = COUNT_SCALE                         # the boards' planes: counts
        self._a = np.where(soft, 1.0, 1.0 / linear).astype(np.float32)
        self._b = soft.astype(np.float32)
        self._c = np.where(soft, scale, 1.0).astype(np.float32)
        self.soft, self.scale_a, self.scale_c = soft.tolist(), self._a.tolist(), self._c.tolist()

    @staticmethod
    def _number_slot(at: int, bound, linear, soft) -> None:
        if bound is not None and bound[0] is not None and bound[1] is not None:
            linear[at] = max(abs(bound[0]), abs(bound[1]), 1)
        else:
            soft[at] = True

    def board_labels(self) -> dict:
        """Board name -> one name per plane of its array (``planes``), in order."""
        return {b.name: b.labels() for b in self.boards}

    # ---------------------------------------------------------------- encoding
    def value(self, value, me: int) -> float:
        """A scalar as a number: itself, a truth 0/1, a seat as its distance from ``me`` + 1, a
        set member or item as 1 + its index, a list or mapping as its length, anything else 0."""
        kind = value.__class__
        if kind is int:
            return float(value) if -LIMIT <= value <= LIMIT else (LIMIT if value > 0 else -LIMIT)
        if kind is float:           # as the float32 vector holds it
            return float(np.float32(value)) if -LIMIT <= value <= LIMIT else (LIMIT if value > 0 else -LIMIT)
        if kind is bool:
            return float(value)
        if value is None:
            return 0.0
        if kind is str:
            if value in self.member_index:
                return float(self.member_index[value] + 1)
            if value in self.item_index:
                return float(self.item_index[value] + 1)
            return 0.0
        if isinstance(value, int):          # a seat (state.Player)
            return float((int(value) - me) % self.n + 1) if 0 <= value < self.n else 0.0
        if isinstance(value, (list, tuple, dict)):
            return float(len(value))
        return 0.0

    def normalise(self, raw: np.ndarray) -> np.ndarray:
        """Every slot into [-1, 1]: a count c as c / (c + 4), a number with declared bounds
        divided by the larger bound, any other number x as x / (|x| + 10), an item's place
        divided by the number of zone slots, ``to_move`` by the player count. One formula,
        x * a / (|x| * b + c), with (a, b, c) = (1 / scale, 0, 1) or (1, 1, scale) per slot
        (``raw`` the vector, or every value: the vector, then the boards' planes)."""
        size = len(raw)
        out = np.abs(raw)
        out *= self._b[:size]
        out += self._c[:size]
        np.divide(raw, out, out=out)
        out *= self._a[:size]
        np.minimum(out, 1.0, out=out)
        np.maximum(out, -1.0, out=out)
        return out

    def normalise_counts(self, size: int) -> np.ndarray:
        """Counts 0..size - 1 normalised as :meth:`normalise` normalises a count slot."""
        counts = np.arange(size, dtype=np.float32)
        out = np.abs(counts)
        out += np.float32(COUNT_SCALE)
        np.divide(counts, out, out=out)
        return out

    def normalise_at(self, slot: int, x: float) -> float:
        """Value ``x`` (float32-exact) of slot ``slot`` normalised as :meth:`normalise` does it in
        float32, once rounded to float32 (as storing it does): ``x * a`` is exact in float64, and
        ``x / t`` of float32 operands rounds to the float32 quotient."""
        if self.soft[slot]:
            t = abs(x) + self.scale_c[slot]
            if t > LIMIT or not t.is_integer():
                t = float(np.float32(t))
            q = x / t
        else:
            q = x * self.scale_a[slot]
        return 1.0 if q > 1.0 else -1.0 if q < -1.0 else q

    def raw(self, s, me: int, to_move: int | None) -> np.ndarray:
        """The vector of seat ``me`` as values (``to_move``: the seat to act, or None)."""
        return self.follow.look(s, me, to_move).raw_vec.copy()

    def encode(self, s, me: int, to_move: int | None) -> np.ndarray:
        """The vector of seat ``me``, normalised."""
        return self.follow.look(s, me, to_move).norm_vec.copy()

    def planes(self, s, me: int, to_move: int | None, normalize: bool = True) -> dict:
        """Board name -> its planes as seat ``me`` sees them, ``(seats * planes, rows, cols)``."""
        values = self.follow.look(s, me, to_move)
        values = values.norm_np if normalize else values.raw_np
        return {b.name: values[b.base:b.base + b.size].reshape(b.shape).copy() for b in self.boards}

    def forget(self) -> None:
        """Read every seat's values afresh at its next look (the state was changed by hand)."""
        self.follow.forget()
