# SPDX-License-Identifier: MIT
"""Each seat's observation values kept up to date from the state's log, so a look costs what
changed since that seat last looked, not the whole vector (env steps per second, issue #39).

Every change to a state is an event of its log (engine/mutate.py): an item moves (``move``), its
state changes (``prop``), a variable is set (``set``, or ``set_element`` for one element of its
list or mapping). So a seat's values, once read, are brought up to date by reading again only the
items the events since its last look name, and the variables (they are few) after either; the
round, the end and the seat to act at every look. (A variable set to a value equal to the one it
holds is no event: a seat for the same number, which typed content does not mix, would be read at
the next ``set``.) A look reads everything afresh when the state is another, its log another or
shorter (a reset, a restore), the game keeps no log (``record=False``), an event of a kind not
known here is met, or after :meth:`Follower.forget` (a state changed by hand). Values are float32
(``array('f')``, numpy arrays over the same memory), written one slot at a time with their
normalised value computed as ``Observer.normalise`` computes the whole vector in float32, bit for
bit: an exact product ``x * a`` rounded once, or ``x / t`` of float32 operands, which a float64
division rounded to float32 gives exactly (a count's from a table ``normalise`` made).
tests/test_rl_observe_log.py compares the two.
"""
from __future__ import annotations

from array import array
from itertools import compress
from operator import is_not, itemgetter

import numpy as np

from ..limits import OBSERVATION_LIMIT as LIMIT

ITEM_EVENTS = frozenset({"move", "prop"})
VARIABLE_EVENTS = frozenset({"set", "set_element"})
QUIET_EVENTS = frozenset({"shuffle", "roll", "log", "action", "start"})    # nothing observed changes
_NONE: dict = {}


class Seen:
    """What one seat last saw: its values as they are and normalised (float32, with numpy views
    ``raw_np`` and ``norm_np``, and ``raw_vec`` and ``norm_vec`` of the vector's slots), each item's
    zone and visibility then, the head and variables read, and how far into which log."""

    __slots__ = ("state", "events", "at", "raw", "norm", "raw_np", "norm_np", "raw_vec", "norm_vec", "zone", "vis",
                 "head", "vars", "set")

    def __init__(self, state, raw: np.ndarray, norm: np.ndarray, size: int, zone: list, vis: list):
        self.state, self.events, self.at = state, state.events, len(state.events)
        self.raw, self.norm = array("f", raw.tobytes()), array("f", norm.tobytes())
        self.raw_np = np.frombuffer(self.raw, dtype=np.float32)
        self.norm_np = np.frombuffer(self.norm, dtype=np.float32)
        self.raw_vec, self.norm_vec = self.raw_np[:size], self.norm_np[:size]
        self.zone, self.vis = zone, vis
        self.head = self.vars = None
        self.set = True         # a variable may have changed since they were read


class Follower:
    """The values of each seat of an :class:`~rulekit.rl.observe.Observer`, followed."""

    def __init__(self, observer):
        self.obs = observer
        self.seen: list = [None] * observer.n
        # a count c (of items: never more than all of them) -> c / (c + 4), as ``normalise`` gives it
        self.counts = observer.normalise_counts(len(observer.items) + 1).tolist()
        self.place_norm = [[observer.normalise_at(observer.item_base, place) for place in places]
                           for places in observer.place_of] if observer.items else []
        self.gvars_of = _getter(observer.gvars)
        self.pvars_of = [[(seat, _getter(names)) for seat, names in reads] for reads in observer.pvar_reads]

    def forget(self) -> None:
        self.seen = [None] * self.obs.n

    def look(self, s, me: int, to_move: int | None) -> Seen:
        """Seat ``me``'s values now (``to_move``: the seat it sees to act, or None)."""
        seen = self.seen[me]
        if (seen is None or seen.state is not s or seen.events is not s.events or not s.record
                or len(s.events) < seen.at or not self._catch_up(seen, s, me)):
            seen = self.seen[me] = self._read(s, me)
        self._head(seen, s, me, to_move)
        if seen.set:
            self._variables(seen, s, me)
        return seen

    def _face(self, s) -> dict:
        return s.iprops.get("face_up", _NONE) if self.obs.any_face_up else _NONE

    # ---------------------------------------------------------------- afresh
    def _read(self, s, me: int) -> Seen:
        """Every item's values read from the state (the head and variables: ``_head``, ``_variables``)."""
        obs = self.obs
        vals = [0.0] * obs.total
        zone_id, loc, iprops, value = obs.zone_id, s.loc, s.iprops, obs.value
        place, counts, seen_slots = obs.place_of[me], obs.count_slots[me], obs.seen_slots[me]
        shown, faceup, face, up = obs.shown_of[me], obs.faceup_of[me], self._face(s), obs.face_up_default
        item_base, item_group, item_states = obs.item_base, obs.item_group, obs.item_states
        zone, vis = [], []
        for i, ident in enumerate(obs.items):
            z = zone_id[loc[ident]]
            v = shown[z] or (faceup[z] and bool(face.get(ident, up)))
            zone.append(z)
            vis.append(v)
            for slot in seen_slots[z][item_group[i]] if v else counts[z]:
                vals[slot] += 1.0
            if v:
                vals[item_base + i] = place[z]
                for slot, prop, default in item_states[i]:
                    vals[slot] = value(iprops.get(prop, _NONE).get(ident, default), me)
        raw = np.array(vals, dtype=np.float32)
        return Seen(s, raw, obs.normalise(raw), obs.size, zone, vis)

    # ---------------------------------------------------------------- from the log
    def _catch_up(self, seen: Seen, s, me: int) -> bool:
        """Read again the items the log names since the last look, and note a variable set; False
        for an event not known here."""
        events = s.events
        if len(events) == seen.at:
            return True
        named: dict = {}
        for event in events[seen.at:]:
            kind = event[0]
            if kind in ITEM_EVENTS:
                named[event[1]] = None
            elif kind in VARIABLE_EVENTS:
                seen.set = True
            elif kind not in QUIET_EVENTS:
                return False
        seen.at = len(events)
        if named:
            self._items(seen, s, me, named)
        return True

    def _items(self, seen: Seen, s, me: int, named) -> None:
        """The counts, place and states of the items ``named``, read again (written out in one
        loop: it is most of what a look costs)."""
        obs = self.obs
        raw, norm, counts_norm, zone_of, vis_of = seen.raw, seen.norm, self.counts, seen.zone, seen.vis
        zone_id, loc, index = obs.zone_id, s.loc, obs.item_index
        shown, faceup, face, up = obs.shown_of[me], obs.faceup_of[me], self._face(s), obs.face_up_default
        counts, seen_slots, place, place_norm = obs.count_slots[me], obs.seen_slots[me], obs.place_of[me], \
            self.place_norm[me]
        item_base, item_group, item_states = obs.item_base, obs.item_group, obs.item_states
        for ident in named:
            i = index.get(ident)
            if i is None:           # a set member's state: no slot of the vector
                continue
            z = zone_id[loc[ident]]
            v = shown[z] or (faceup[z] and bool(face.get(ident, up)))
            was, seen_then = zone_of[i], vis_of[i]
            if z != was:            # counted out of one zone, into another (seen: by its marks too)
                left = seen_slots[was][item_group[i]] if seen_then else counts[was]
                joined = seen_slots[z][item_group[i]] if v else counts[z]
                zone_of[i] = z
            elif v != seen_then:    # seen, or no longer, where it lies: its marks only
                marks = seen_slots[z][item_group[i]][len(counts[z]):]
                left, joined = (marks, ()) if seen_then else ((), marks)
            else:
                if item_states[i]:
                    self._states(seen, s, me, ident, i, v)
                continue
            for slot in left:
                x = raw[slot] - 1.0
                raw[slot] = x
                norm[slot] = counts_norm[int(x)]
            for slot in joined:
                x = raw[slot] + 1.0
                raw[slot] = x
                norm[slot] = counts_norm[int(x)]
            if v:
                raw[item_base + i] = place[z]
                norm[item_base + i] = place_norm[z]
            else:
                raw[item_base + i] = norm[item_base + i] = 0.0
            vis_of[i] = v
            if item_states[i]:
                self._states(seen, s, me, ident, i, v)

    def _states(self, seen: Seen, s, me: int, ident: str, i: int, v: bool) -> None:
        """Item ``ident``'s state slots: its states while seen, else 0."""
        obs, iprops, raw = self.obs, s.iprops, seen.raw
        for slot, prop, default in obs.item_states[i]:
            x = obs.value(iprops.get(prop, _NONE).get(ident, default), me) if v else 0.0
            if raw[slot] != x:
                raw[slot] = x
                seen.norm[slot] = obs.normalise_at(slot, x)

    def _head(self, seen: Seen, s, me: int, to_move: int | None) -> None:
        """The round, whether the game is over, the seat to act: read at every look."""
        head = (s.g.get("round"), s.over, to_move)
        old = seen.head
        if old is None or head[0] is not old[0]:
            self._put(seen, 0, self.obs.value(head[0], me))
        if old is None or head[1] is not old[1]:
            self._put(seen, 1, float(head[1]))
        if old is None or to_move != old[2]:
            self._put(seen, 2, 0.0 if to_move is None else float((to_move - me) % self.obs.n + 1))
            self._put(seen, 3, 0.0 if to_move is None else float(to_move == me))
        seen.head = head

    def _variables(self, seen: Seen, s, me: int) -> None:
        """The public global variables and the player variables ``me`` may see, read whole after
        a ``set`` event (a variable set to the value it holds is none); only those that are not
        the same object as at the last read are converted, and only changed slots written."""
        g, p = s.g, s.p
        read = list(self.gvars_of(g))
        for seat, of in self.pvars_of[me]:
            read += of(p[seat])
        old = seen.vars
        seen.vars, seen.set = read, False
        changed = range(len(read)) if old is None else compress(range(len(read)), map(is_not, read, old))
        slots, value, put = self.obs.scalar_slots[me], self.obs.value, self._put
        for j in changed:
            x = read[j]
            put(seen, slots[j + 4], float(x) if x.__class__ is int and -LIMIT <= x <= LIMIT else value(x, me))

    def _put(self, seen: Seen, slot: int, x: float) -> None:
        """Store one value (float32-exact: ``Observer.value`` gives no other) and its normalised value."""
        if seen.raw[slot] != x:
            seen.raw[slot] = x
            seen.norm[slot] = self.obs.normalise_at(slot, x)


def _getter(names):
    """``row -> tuple`` of the values of ``names`` in ``row``."""
    if len(names) > 1:
        return itemgetter(*names)
    return (lambda row: (row[names[0]],)) if names else (lambda row: ())
