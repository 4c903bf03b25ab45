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

Free redealing may imagine a deal the rules never make (an opponent holding cards
only ever dealt to someone else). A zone that declares ``dealt_from:`` (the items it
is dealt from, as the observer knows them) then gets only such items: after the same
shuffle, each of its hidden places takes the first shuffled item of its source, and
the other places the rest in shuffled order. A game declaring none deals exactly as
described above.
"""
from __future__ import annotations

from itertools import repeat

from ..codes import WRONG_KIND
from ..errors import ContentRuntimeError
from . import mutate, rng, vm
from .library import seq
from .state import PLAYERS, Decision, State, ZoneKey


def hidden_slots(s: State, observer: int) -> list:
    """(zone key, index) of every item the observer cannot see."""
    return [(key, i) for key, places in _hidden_places(s, observer) for i in places]


def _hidden_places(s: State, observer: int) -> list:
    """(zone key, the indices of its items the observer cannot see), zone by zone: a range
    where none of the zone's items is seen."""
    game = s.game
    zone_vis = game.board.zone_vis
    out = []
    face_default = game.components.prop_defaults.get("face_up")
    face_up = s.iprops.get("face_up", {})
    for key, items in s.zones.items():
        if not items:
            continue
        vis = zone_vis.get(key.name, "public")
        if vis == "public" or (vis == "owner" and key.owner == observer):
            continue
        if vis != "face_up":
            out.append((key, range(len(items))))
        elif len(items) == 1:       # a space of a board: one tile, face up or not
            if not face_up.get(items[0], face_default):
                out.append((key, range(1)))
        else:
            places = [i for i, item in enumerate(items) if not face_up.get(item, face_default)]
            if places:
                out.append((key, places if len(places) < len(items) else range(len(items))))
    return out


def _sources(s: State, keys: set) -> dict:
    """Zone key -> the set of items it is dealt from, for each of ``keys`` whose zone declares
    ``dealt_from:`` (read in the real state: it should say only what everyone knows)."""
    out = {}
    for key in sorted(keys, key=lambda k: k.text):
        declared = s.game.board.dealt_from.get(key.name)
        if declared is None:
            continue
        fn, span = declared
        value = fn(s, {"p": PLAYERS[key.owner] if key.owner is not None else None})
        if value.__class__ is not list and value.__class__ is not ZoneKey:
            raise ContentRuntimeError(f"`dealt_from` of `{key.name}` must give a list of items or a zone, not "
                                      f"{mutate.fmt(value)}", span, WRONG_KIND)
        out[key] = {item for item in seq(s, value) if item.__class__ is str}    # items are their ids
    return out


def _by_kind(s: State, observer: int) -> dict:
    """Kind -> (runs, items): the hidden items of that kind in the order of their places, and
    runs ``(zone key, places, where its items start)``: a zone's places of one kind."""
    kind_of = s.game.components.item_kind.get
    zones = s.zones
    by_kind: dict = {}
    for key, places in _hidden_places(s, observer):
        held = zones[key]
        items = held if places.__class__ is range else [held[i] for i in places]
        kinds = set(map(kind_of, items))
        if len(kinds) == 1:     # the usual zone: a deck or a hand of one kind
            _add_run(by_kind, kinds.pop(), key, places, items)
            continue
        for i, item in zip(places, items):
            _add_run(by_kind, kind_of(item), key, [i], [item])
    return by_kind


def _add_run(by_kind: dict, kind, key: ZoneKey, places, items: list) -> None:
    entry = by_kind.get(kind)
    if entry is None:
        entry = by_kind[kind] = ([], [])
    runs, kept = entry
    if runs and runs[-1][0] is key and runs[-1][1].__class__ is list:    # the zone's previous place
        runs[-1][1].extend(places)
    else:
        runs.append((key, places if places.__class__ is range else list(places), len(kept)))
    kept.extend(items)


def _consistent(order: list, slots: list, sources: dict) -> list:
    """``order`` (the shuffled items of ``slots``) rearranged so that each place of a zone
    with a source takes the first shuffled item of it; the other places the rest, in order.
    When a source runs dry the free deal stands (the world may then be discarded)."""
    placed: list = [None] * len(slots)
    left = list(order)
    for j, (key, _i, _old) in enumerate(slots):
        source = sources.get(key)
        if source is None:
            continue
        pick = next((item for item in left if item in source), None)
        if pick is None:
            return order
        left.remove(pick)
        placed[j] = pick
    rest = iter(left)
    return [item if item is not None else next(rest) for item in placed]


def deal_plan(s: State, observer: int) -> tuple:
    """What a redeterminised copy of ``s`` deals again for ``observer``: the hidden places and
    items kind by kind, the sources of the zones that declare ``dealt_from``, and the zones it
    changes (two items or more of a kind to shuffle). A search bot
    samples many worlds of one state: it works this out once and hands it to each
    :func:`determinize` of that state (while the state does not change)."""
    by_kind = _by_kind(s, observer)
    sources = (_sources(s, {key for runs, _items in by_kind.values() for key, _places, _at in runs})
               if s.game.board.dealt_from else {})
    changed = frozenset(key for runs, items in by_kind.values() if len(items) > 1 for key, _places, _at in runs)
    return by_kind, sources, changed


def determinize(s: State, observer: int, seed_state: int, plan: tuple | None = None) -> tuple[State, int]:
    """A copy of ``s`` with what ``observer`` cannot see sampled anew; returns (copy, rng state).
    ``plan`` is ``deal_plan(s, observer)`` of ``s`` as it is now, when the caller has it."""
    c = s.clone()
    c.record = False
    game = s.game
    by_kind, sources, changed = plan if plan is not None else deal_plan(s, observer)
    loc = c.loc
    for runs, items in by_kind.values():
        if len(items) < 2:
            continue
        seed_state, order = rng.shuffled(seed_state, items)
        if sources:
            slots = [(key, i, items[at + k]) for key, places, at in runs for k, i in enumerate(places)]
            order = _consistent(order, slots, sources)
        for key, places, at in runs:
            held = c.writable(key)
            dealt = order[at:at + len(places)]
            if places.__class__ is range:
                held[:] = dealt
            else:
                for i, item in zip(places, dealt):
                    held[i] = item
            loc.update(zip(dealt, repeat(key)))
    for name, vis in game.variables.pvis.items():
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
    c.memo = {}     # the writes above bypass the caches: forget what they may have changed
    if changed and c.tallied:   # a tally of a zone not dealt again still counts right
        c.tallies = {key: table for key, table in c.tallies.items() if key[0] not in changed}
        c.tallied = {zone: keys for zone, keys in c.tallied.items() if zone not in changed}
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
