# SPDX-License-Identifier: MIT
"""A player's observation vector, read from the state with the visibility ``view`` applies.

The layout is fixed by the game's definitions, never by a state, with seats counted from the
observer (``seat+0`` is the observer): see docs/rl.md for the table. ``raw`` gives the
values as they are (counts, variables, 1 + indices); ``encode`` the same vector normalised
into [-1, 1] (:meth:`Observer.normalise`). The vector is read straight from the state, as
``rulekit.engine.view.view`` would show it to the observer (zones ``public``, ``owner``,
``hidden``: count only, ``face_up``: each item while its ``face_up`` state is true; variables
``public``, ``owner``, ``hidden``), so nothing the content hides reaches it, without building
the view's dictionaries: the per-observer tables are built once here
(tests/test_pettingzoo.py checks the two agree).
"""
from __future__ import annotations

import operator

import numpy as np

from ..engine.mutate import fmt
from ..engine.state import Family
from ..engine.view import state_props

LIMIT = float(2 ** 24)
SOFT_SCALE = 10.0       # an unbounded number x reads as x / (|x| + SOFT_SCALE)
COUNT_SCALE = 4.0       # a count c reads as c / (c + COUNT_SCALE)


class Observer:
    """The fixed layout of a game's observation vector for ``n`` players, and its encoding."""

    def __init__(self, game, n: int):
        self.game = game
        self.n = n
        components, variables, board = game.components, game.variables, game.board
        self.kinds = list(components.kinds)
        kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.item_index = {ident: i for i, ident in enumerate(components.items)}
        self.item_kind = {ident: kind_index[components.item_kind[ident]] for ident in components.items
                          if components.item_kind.get(ident) in kind_index}
        self.member_index: dict = {}
        for members in components.sets.values():
            for i, member in enumerate(members):
                self.member_index.setdefault(member, i)
        self.gvars = [k for k in variables.gvars if k != "round" and variables.gvis.get(k, "public") == "public"]
        self.pvars = list(variables.pvars)
        self.pvis = [variables.pvis[name] for name in self.pvars]
        self.zone_slots, owners = self._zone_slots(board, n)
        self.width = 1 + len(self.kinds)
        kinds = state_props(game)
        self.state_slots = [(ident, prop) for ident in components.items
                            for prop in kinds.get(components.item_kind[ident], ())]
        self.zone_base = 4 + len(self.gvars)
        self.pvar_base = self.zone_base + len(self.zone_slots) * self.width
        self.item_base = self.pvar_base + n * len(self.pvars)
        self.state_base = self.item_base + len(self.item_index)
        self.size = self.state_base + len(self.state_slots)
        self.states_of: dict = {}
        for j, (ident, prop) in enumerate(self.state_slots):
            self.states_of.setdefault(ident, []).append((self.state_base + j, prop))
        self.face_up_default = components.prop_defaults.get("face_up")
        self._tables(board, owners)
        self.items = list(self.item_index)
        self._locate = operator.itemgetter(*self.items) if len(self.items) > 1 else (
            lambda loc: tuple(loc[i] for i in self.items))
        kind_of = np.array([self.item_kind.get(ident, 0) for ident in self.items], dtype=np.intp)
        self.item_kind_arr = kind_of
        self.state_item = np.array([self.item_index[ident] for ident, _prop in self.state_slots], dtype=np.intp)
        self.state_index: dict = {}
        for j, (ident, prop) in enumerate(self.state_slots):
            self.state_index.setdefault(prop, {})[ident] = j
        defaults = components.prop_defaults
        self.state_default = [np.array([self.value(defaults.get(prop), me) for _i, prop in self.state_slots],
                                       dtype=np.float32) for me in range(n)]
        self._last_where = None
        self._last_states = [None] * n
        self._last_body = [None] * n         # what depends on where items lie and their states
        self._scales()

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

    def _tables(self, board, owners) -> None:
        """Every zone key of a state (an index each), and per observer: the zone each slot
        shows, how it is seen, and each zone's slot + 1 (0: the box, in no slot)."""
        keys = list(board.zones.values())
        for fam in board.families.values():
            keys += list(fam.zones.values())
        for seats in board.pzones.values():
            for zone in seats[:self.n]:
                keys += list(zone.zones.values()) if zone.__class__ is Family else [zone]
        self.zone_id = {key: i for i, key in enumerate(keys)}
        self.slot_zone, self.place_of, self.shown_of, self.faceup_of = [], [], [], []
        for me in range(self.n):
            slot_zone = np.zeros(len(owners), dtype=np.intp)
            place = np.zeros(len(keys), dtype=np.float32)
            shown = np.zeros(len(keys), dtype=bool)
            faceup = np.zeros(len(keys), dtype=bool)
            for slot, (name, key, rel) in enumerate(owners):
                owner = None if rel is None else (me + rel) % self.n
                if rel is not None:
                    zone = board.pzones[name][owner]
                    key = zone.zones[key] if zone.__class__ is Family else zone
                z = self.zone_id[key]
                vis = board.zone_vis[name]
                slot_zone[slot], place[z] = z, slot + 1
                shown[z] = vis == "public" or (vis == "owner" and owner == me)
                faceup[z] = vis == "face_up"
            for table, value in ((self.slot_zone, slot_zone), (self.place_of, place), (self.shown_of, shown),
                                 (self.faceup_of, faceup)):
                table.append(value)
        self.any_face_up = any(f.any() for f in self.faceup_of)

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
        """Per slot: divide by ``linear`` (soft False), or squash x / (|x| + scale) (soft True)."""
        size = self.size
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
        self._a = np.where(soft, 1.0, 1.0 / linear).astype(np.float32)
        self._b = soft.astype(np.float32)
        self._c = np.where(soft, scale, 1.0).astype(np.float32)

    @staticmethod
    def _number_slot(at: int, bound, linear, soft) -> None:
        if bound is not None and bound[0] is not None and bound[1] is not None:
            linear[at] = max(abs(bound[0]), abs(bound[1]), 1)
        else:
            soft[at] = True

    # ---------------------------------------------------------------- encoding
    def value(self, value, me: int) -> float:
        """A scalar as a number: itself, a truth 0/1, a seat as its distance from ``me`` + 1, a
        set member or item as 1 + its index, a list or mapping as its length, anything else 0."""
        kind = value.__class__
        if kind is int or kind is float:
            return float(value) if -LIMIT <= value <= LIMIT else (LIMIT if value > 0 else -LIMIT)
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

    def raw(self, s, me: int, to_move: int | None) -> np.ndarray:
        """The vector of seat ``me`` as values (``to_move``: the seat to act, or None)."""
        out = np.zeros(self.size, dtype=np.float32)
        value = self.value
        head = [value(s.g.get("round"), me), 1.0 if s.over else 0.0, 0.0, 0.0]
        if to_move is not None:
            head[2:] = [(to_move - me) % self.n + 1, 1.0 if to_move == me else 0.0]
        g = s.g
        head += [value(g[name], me) for name in self.gvars]
        out[:self.zone_base] = head
        self._players(s, me, out)
        where = self._where(s)
        states = self._item_states(s, me) if self.state_slots else None
        last = self._last_body[me]
        if last is not None and last[0] is where and last[1] is states:
            out[self.zone_base:self.pvar_base] = last[2]
            out[self.item_base:] = last[3]
            return out
        zid, zk, face_up = where
        visible = self.shown_of[me][zid]
        if face_up is not None:
            visible |= self.faceup_of[me][zid] & face_up
        zones, kinds = len(self.zone_id), len(self.kinds)
        seen_kinds = np.bincount(zk[visible], minlength=zones * kinds).reshape(zones, kinds)
        slot_zone = self.slot_zone[me]
        block = out[self.zone_base:self.pvar_base].reshape(len(slot_zone), self.width)
        block[:, 0] = np.bincount(zid, minlength=zones)[slot_zone]
        block[:, 1:] = seen_kinds[slot_zone]
        out[self.item_base:self.state_base] = np.where(visible, self.place_of[me][zid], 0.0)
        if states is not None:
            out[self.state_base:] = states * visible[self.state_item]
        self._last_body[me] = (where, states, out[self.zone_base:self.pvar_base].copy(), out[self.item_base:].copy())
        return out

    def _players(self, s, me: int, out: np.ndarray) -> None:
        width, n, value = len(self.pvars), self.n, self.value
        row_values = []
        for rel in range(n):
            seat = (me + rel) % n
            row = s.p[seat]
            row_values += [value(row[name], me) if vis == "public" or (vis == "owner" and seat == me) else 0.0
                           for name, vis in zip(self.pvars, self.pvis)]
        out[self.pvar_base:self.pvar_base + n * width] = row_values

    def _where(self, s) -> tuple:
        """Each item's zone index, zone * kinds + kind, and face_up state (None: no zone shows
        items by it). Remembered while no item moves (the places compare by identity)."""
        places = self._locate(s.loc)
        face = s.iprops.get("face_up", {}) if self.any_face_up else None
        last = self._last_where
        if last is not None and places == last[0] and (face is None or face == last[1]):
            return last[2]
        zid = np.fromiter(map(self.zone_id.__getitem__, places), dtype=np.intp, count=len(self.items))
        zk = zid * len(self.kinds) + self.item_kind_arr
        face_up = None
        if face is not None:
            face_up = np.full(len(self.items), bool(self.face_up_default), dtype=bool)
            index = self.item_index
            for ident, up in face.items():
                face_up[index[ident]] = bool(up)
        found = (zid, zk, face_up)
        self._last_where = (places, dict(face) if face is not None else None, found)
        return found

    def _item_states(self, s, me: int) -> np.ndarray:
        """Every state slot's value (visible or not: the caller masks it); remembered while the
        items' states stay the same (values are replaced, never changed in place)."""
        tables = [s.iprops.get(prop) for prop in self.state_index]
        last = self._last_states[me]
        if last is not None and all(a == b for a, b in zip(tables, last[0])):
            return last[1]
        out = self.state_default[me].copy()
        at, vals, value = [], [], self.value
        for table, slots in zip(tables, self.state_index.values()):
            if table:
                for ident, v in table.items():
                    j = slots.get(ident)
                    if j is not None:
                        at.append(j)
                        vals.append(v if v.__class__ is int or v.__class__ is bool else value(v, me))
        if at:
            out[at] = vals
        np.clip(out, -LIMIT, LIMIT, out=out)
        self._last_states[me] = ([dict(table) if table else None for table in tables], out)
        return out

    def normalise(self, raw: np.ndarray) -> np.ndarray:
        """Every slot into [-1, 1]: a count c as c / (c + 4), a number with declared bounds
        divided by the larger bound, any other number x as x / (|x| + 10), an item's place
        divided by the number of zone slots, ``to_move`` by the player count. One formula,
        x * a / (|x| * b + c), with (a, b, c) = (1 / scale, 0, 1) or (1, 1, scale) per slot."""
        out = np.abs(raw)
        out *= self._b
        out += self._c
        np.divide(raw, out, out=out)
        out *= self._a
        np.minimum(out, 1.0, out=out)
        np.maximum(out, -1.0, out=out)
        return out

    def encode(self, s, me: int, to_move: int | None) -> np.ndarray:
        return self.normalise(self.raw(s, me, to_move))

