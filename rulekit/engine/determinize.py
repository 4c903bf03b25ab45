# SPDX-License-Identifier: MIT
"""Redeterminised copies: a state an observer could not tell from the real one.

Search bots must not peek. From the visibility the content declares, we know
which items the observer cannot see: everything in a ``hidden`` zone, another
player's ``owner`` zone, and face-down items of a ``face_up`` zone. Those items are
dealt again at random among the same unseen places, each only with items of its
own kind (a card stays among cards), so zone sizes and everything visible are
unchanged. Other players' secret variables are replaced by the observer's own
value of the same variable, a symmetric guess that reveals nothing. The random
streams are reseeded, so the copy's future chance is not the real one either.
"""
from __future__ import annotations

from . import rng, vm
from .state import Decision, State


def hidden_slots(s: State, observer: int) -> list:
    """(zone key, index) of every item the observer cannot see."""
    game = s.game
    out = []
    face_default = game.prop_defaults.get("face_up")
    for key, items in s.zones.items():
        if not items:
            continue
        vis = game.zone_vis.get(key.name, "public")
        if vis == "public" or (vis == "owner" and key.owner == observer):
            continue
        if vis == "face_up":
            out.extend((key, i) for i, item in enumerate(items)
                       if not s.iprops.get((item, "face_up"), face_default))
        else:
            out.extend((key, i) for i in range(len(items)))
    return out


def determinize(s: State, observer: int, seed_state: int) -> tuple[State, int]:
    """A copy of ``s`` with what ``observer`` cannot see sampled anew; returns (copy, rng state)."""
    c = s.clone()
    c.record = False
    game = s.game
    by_kind: dict[str, list] = {}
    for key, i in hidden_slots(c, observer):
        item = c.zones[key][i]
        by_kind.setdefault(game.item_kind.get(item), []).append((key, i, item))
    for slots in by_kind.values():
        if len(slots) < 2:
            continue
        seed_state, order = rng.shuffled(seed_state, [item for _k, _i, item in slots])
        for (key, i, _old), item in zip(slots, order):
            c.writable(key)[i] = item
            c.loc[item] = key
    for name, vis in game.pvis.items():
        if vis == "public":
            continue
        mine = c.p[observer][name]
        for q in range(c.n):
            if q != observer:
                c.p[q][name] = mine
    for stream in list(c.rng):
        if stream != "$seed":
            seed_state, fresh = rng.next_u64(seed_state)
            c.rng[stream] = fresh
    seed_state, fresh = rng.next_u64(seed_state)
    c.rng["$seed"] = fresh
    c.memo, c.tallies, c.tallied = {}, {}, {}     # the writes above bypass the caches
    if c.pending is not None and c.pending.__class__ is not Decision:
        _choose_again(c, observer)
    return c, seed_state


def _choose_again(c: State, observer: int) -> None:
    """A simultaneous decision (``choose_all``): what the others picked is as secret as their
    hands, so the copy forgets it, and lists everyone's options again from the redealt
    state; the observer, if still to choose, is the one asked."""
    decision = c.pending
    f = c.frames[-1]
    sim = decision.sim
    f.env[sim.picks] = tuple(pick for pick in f.env[sim.picks] if pick[0] == observer)
    f.pc = sim.ask
    c.pending = None
    vm.run(c)
    if c.pending is not None and observer in c.pending.players:
        c.pending = c.pending.focus(observer)
