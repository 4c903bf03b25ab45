# SPDX-License-Identifier: MIT
"""The only functions that change a :class:`State`; each one appends an event.

Keeping every change behind these few doors is what makes the event log complete
(every change is an event), bounds checks uniform (a counter below its declared
minimum is a content error naming the line), and lets a fast playout switch the
log off (``state.record = False``) without touching the rules.
"""
from __future__ import annotations

from ..codes import BAD_PIN, INDEX_OUT_OF_RANGE, NOT_IN_A_ZONE, OUT_OF_BOUNDS, WRONG_KIND, ZONE_FULL
from ..errors import ContentRuntimeError
from . import memo, rng, tally
from .limits import MAX_BITS, too_many_digits
from .state import PLAYERS, SEAT_NAMES, Family, Player, State, ZoneKey


def fmt(value) -> str:
    """How a value prints in notation, logs and templates."""
    kind = value.__class__
    if kind is str:
        return value
    if kind is Player:
        return SEAT_NAMES[value] if 0 <= value < len(SEAT_NAMES) else str(value)
    if kind is int:
        return str(value)
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{fmt(k)}: {fmt(v)}" for k, v in value.items()) + "}"
    return str(value)


def variable_setter(name: str, per_player: bool):
    """The one door a variable changes through: ``set(s, player, value, span)`` for player
    variable ``name`` (``per_player``), or global variable ``name`` with ``player`` None. Its
    bounds and what it forgets are looked up once per game; generated code holds one setter
    per variable it assigns. ``set(s, player, value, span, element, key, was)`` says that
    ``value`` is the variable's list or mapping with one element, ``key``, set to ``element``
    (it was ``was``, or ABSENT for a new key): a recorded game logs that element's change,
    ``("set_element", "p1.v", key, was, element)`` (``("set_element", "p1.v", key, element)``
    for a new key), not the whole value, which expressions._set_element may have changed in
    place."""
    game = bounds = forgets = None
    low, high = -_UNBOUNDED, _UNBOUNDED

    def learn(new_game) -> None:
        nonlocal game, bounds, low, high, forgets
        variables = new_game.variables
        bounds = (variables.pbounds if per_player else variables.gbounds).get(name)
        low, high = (-_UNBOUNDED, _UNBOUNDED) if bounds is None else (
            -_UNBOUNDED if bounds[0] is None else bounds[0], _UNBOUNDED if bounds[1] is None else bounds[1])
        forgets = new_game.memo.deps.get(("pvar" if per_player else "g", name), new_game.memo.always)
        game = new_game

    def setter(s: State, player, value, span=None, element=_WHOLE, key=None, was=None) -> None:
        if s.game is not game:
            learn(s.game)
        if bounds is not None and not (value.__class__ is int and low <= value <= high):
            _check_bounds(_what(name, player), value, bounds, span)
        if isinstance(value, str) and value.__class__ is not str:     # (a number: one test)
            value = str.__str__(value)      # a marked text (engine/redact.Marked) is kept as its plain text
        row = s.p[player] if per_player else s.g
        if s.record:        # a recorded game prints what it keeps: no number too long to print
            if element is not _WHOLE:       # one element of ``value`` set (to ``element``; it was ``was``)
                if was != element or was.__class__ is not element.__class__:
                    s.events.append(("set_element", _what(name, player), key, element) if was is ABSENT
                                    else ("set_element", _what(name, player), key, was, element))
            else:
                if value.__class__ is int and value.bit_length() > MAX_BITS:
                    too_many_digits(value.bit_length(), f"`{_what(name, player)}` grew without end?", span)
                old = row.get(name)
                if old != value or old.__class__ is not value.__class__:     # 1 -> true is a change too
                    s.events.append(("set", _what(name, player), old, value))
        row[name] = value
        if s.memo and (forgets or s.coarse):
            memo.drop(s, forgets)
        if value.__class__ is list or value.__class__ in _ZONELIKE:
            memo.stored(s, value if element is _WHOLE else element)      # (one element set in place: it alone is new)
    return setter


_WHOLE = object()    # a setter's ``element`` when the whole value is new (not one element set)
ABSENT = object()    # a setter's ``was`` when the element's key is new to the mapping


# A bound not given, as a whole number (comparing ints is quicker than with infinity): a value
# beyond it is looked at again by _check_bounds, which knows the bound is not there.
_UNBOUNDED = 1 << 62


def _what(name: str, player) -> str:
    """A variable as logs and errors name it: `p2.score`, `round`."""
    return name if player is None else f"{PLAYERS[player]}.{name}"


_ZONELIKE = frozenset((ZoneKey, Family))


def _check_bounds(what: str, value, bounds, span) -> None:
    low, high = bounds
    if not isinstance(value, int):
        raise ContentRuntimeError(f"`{what}` must be a whole number, got {fmt(value)}", span, WRONG_KIND)
    if low is not None and value < low:
        raise ContentRuntimeError(f"`{what}` would become {value}, below its minimum {low}", span, OUT_OF_BOUNDS)
    if high is not None and value > high:
        raise ContentRuntimeError(f"`{what}` would become {value}, above its maximum {high}", span, OUT_OF_BOUNDS)


def set_prop(s: State, item: str, name: str, value) -> None:
    if isinstance(value, str) and value.__class__ is not str:     # (a number: one test)
        value = str.__str__(value)      # a marked text (engine/redact.Marked) is kept as its plain text
    table = s.iprops[name] if name in s.owned else s.item_states(name)
    record = s.record
    if record:          # what it was: only a recorded game logs the change
        old = table.get(item, s.game.components.prop_defaults.get(name))
    table[item] = value
    if s.memo:
        memo.forget(s, ("prop", name))
    if value.__class__ is list or value.__class__ in _ZONELIKE:
        memo.stored(s, value)
    if record and (old != value or old.__class__ is not value.__class__):
        if value.__class__ is int and value.bit_length() > MAX_BITS:
            too_many_digits(value.bit_length(), f"`{item}.{name}` grew without end?")
        s.events.append(("prop", item, name, value))


def move(s: State, item: str, to: ZoneKey, at: str = "top", span=None) -> None:
    """The one door items move through: zones, where each item is, tallies, memo, log. The item
    goes on top of ``to`` unless ``at`` is "bottom". (Every random playout moves items a few
    times a decision, so the common path is written out: a state never cloned (``State.alone``),
    and tallies updated through the tables their zones' entries hold, engine/tally.py.)"""
    loc = s.loc
    try:
        source = loc[item]
    except KeyError:
        raise ContentRuntimeError(f"`{fmt(item)}` is not an item in any zone", span, NOT_IN_A_ZONE) from None
    zones = s.zones
    capacity = to.capacity
    if capacity is not None and source is not to and len(zones[to]) >= capacity:
        raise ContentRuntimeError(f"zone `{to}` is full (capacity {capacity})", span, ZONE_FULL)
    if s.alone:                 # a state never cloned owns every list and tally (State.alone)
        held = zones[source]
        if held[-1] == item:    # from the top (drawing, playing the last card): no scan
            held.pop()
        else:
            held.remove(item)
        if at == "top":
            zones[to].append(item)
        else:
            _put(zones[to], item, at, to, span)
        loc[item] = to
        tallied = s.tallied
        if source in tallied or to in tallied:
            props = s.game.components.items[item]
            # the entries' tables are the state's own: no lookup of s.tallies (engine/tally.py)
            for _key, prop, table in tallied.get(source, ()):
                table[props[prop]] -= 1
            for key, prop, table in tallied.get(to, ()):
                try:
                    table[props[prop]] += 1
                except KeyError:        # a value new to the table, or an item without the property
                    _joined_anew(s, key, prop, props, table)
    else:
        _moved_shared(s, item, source, to, at, span)
    if s.memo:
        memo.forget_move(s, source.name, to.name)
    if s.record:
        s.events.append(("move", item, source.text, to.text))


def _put(dest: list, item: str, at, to: ZoneKey, span) -> None:
    """``item`` into ``dest`` at ``at`` ("bottom", or a number of items from the top: _position)."""
    dest.insert(0 if at == "bottom" else _position(dest, at, to, span), item)


def _moved_shared(s: State, item: str, source: ZoneKey, to: ZoneKey, at, span) -> None:
    """:func:`move`'s lists, place and tallies in a state that was cloned: each list and tally it
    changes is copied for this state before its first change (``State.writable``, tally.own)."""
    held = s.zones[source] if source in s.owned else s.writable(source)
    if held[-1] == item:
        held.pop()
    else:
        held.remove(item)
    dest = s.zones[to] if to in s.owned else s.writable(to)
    if at == "top":
        dest.append(item)
    else:
        _put(dest, item, at, to, span)
    s.loc[item] = to
    tallied = s.tallied
    if source in tallied or to in tallied:
        _tally_shared(s, s.game.components.items[item], tallied.get(source, ()), tallied.get(to, ()))


def _joined_anew(s: State, key: tuple, prop: str, props: dict, table: dict) -> None:
    """An item joined the tallied zone of ``key`` with a value its table does not hold yet (the
    first of it), or without the property: then only a scan answers for the zone (tally.drop)."""
    if prop in props:
        table[props[prop]] = table.get(props[prop], 0) + 1
    else:
        tally.drop(s, key)


def _tally_shared(s: State, props: dict, left: tuple, joined: tuple) -> None:
    """An item (``props``, its properties) left the zone of the tallies ``left`` for that of
    ``joined`` (a tallied zone's entries are ``(key, property, table)``, engine/tally.py) in a
    state that was cloned: each tally it changes is ``s.tallies[key]``, copied for this state
    before its first change (tally.own)."""
    owned, tallies = s.owned, s.tallies
    for key, prop, _table in left:
        table = tallies[key] if key in owned else tally.own(s, key)
        table[props[prop]] -= 1
    for key, prop, _table in joined:
        if prop not in props:       # an item without the property: only a scan answers for the zone now
            tally.drop(s, key)
            continue
        table = tallies[key] if key in owned else tally.own(s, key)
        table[props[prop]] = table.get(props[prop], 0) + 1


def _position(dest: list, at, to: ZoneKey, span) -> int:
    """Where ``move(..., at=N)`` puts an item in ``dest`` (kept bottom first): N items above it, or
    for a negative N, -N - 1 below it (-1 is the bottom), as a deck is counted by hand."""
    if at.__class__ is not int:
        raise ContentRuntimeError(f"`at` is \"top\", \"bottom\" or a whole number of items from the top (negative: "
                                  f"from the bottom), not `{fmt(at)}`", span, WRONG_KIND)
    size = len(dest)
    if not -size - 1 <= at <= size:
        raise ContentRuntimeError(f"`at={at}` is past the {'bottom' if at >= 0 else 'top'} of `{to}` ({size} "
                                  f"item{'' if size == 1 else 's'} besides the one moved)", span, INDEX_OUT_OF_RANGE)
    return size - at if at >= 0 else -at - 1


def _stream(s: State, name: str) -> int:
    state = s.rng.get(name)
    if state is None:
        state = rng.stream_seed(s.rng["$seed"], name)
    return state


def shuffle(s: State, zone: ZoneKey, stream: str, span=None) -> None:
    items = s.zones[zone]
    pinned = s.pins.get(f"shuffle:{zone.text}") if s.pins else None
    if pinned:
        order = list(pinned.pop(0))
        if sorted(order) != sorted(items):
            exc = ContentRuntimeError(
                f"pinned order for `{zone}` is not a permutation of its {len(items)} items", span, BAD_PIN)
            exc.pin = ("shuffles", zone.text, -1 - len(pinned))    # script.py names the script's line
            raise exc
        s.zones[zone] = order
        s.owned.add(zone)
    else:
        state, order = rng.shuffled(_stream(s, stream), items)
        s.rng[stream] = state
        s.zones[zone] = order
        s.owned.add(zone)
    on_top = s.pins.pop(f"top:{zone.text}", None) if s.pins else None
    if on_top:
        s.zones[zone] = _pinned_on_top(s.zones[zone], on_top, zone, span)
    if s.memo:
        memo.forget(s, ("zone", zone.name))
    if s.record:
        s.events.append(("shuffle", zone.text, len(items)))


def _pinned_on_top(order: list, on_top: list, zone: ZoneKey, span) -> list:
    """A script's partial pin (``pins: top:``): these items are drawn first, the first listed
    first; the rest keep the order the shuffle gave them (so the random streams are untouched)."""
    missing = [x for x in on_top if x not in order]
    if missing:
        exc = ContentRuntimeError(f"pinned on top of `{zone}`: `{missing[0]}` is not in `{zone}` when it is "
                                  "shuffled", span, BAD_PIN)
        exc.pin = ("top", zone.text, on_top.index(missing[0]))     # script.py names the script's line
        raise exc
    chosen = set(on_top)
    return [x for x in order if x not in chosen] + on_top[::-1]


def roll(s: State, sides: int, stream: str, span=None) -> int:
    pinned = s.pins.get(f"roll:{stream}") if s.pins else None
    if pinned:
        value = int(pinned.pop(0))
        if not 1 <= value <= sides:
            exc = ContentRuntimeError(f"pinned roll {value} is not between 1 and {sides}", span, BAD_PIN)
            exc.pin = ("rolls", stream, -1 - len(pinned))           # counted from the end of the pins
            raise exc
    else:
        state, value = rng.below(_stream(s, stream), sides)
        s.rng[stream] = state
        value += 1
    if s.record:
        s.events.append(("roll", stream, sides, value))
    return value


def random_below(s: State, n: int, stream: str) -> int:
    state, value = rng.below(_stream(s, stream), n)
    s.rng[stream] = state
    return value


def log(s: State, text: str) -> None:
    if s.record:
        s.events.append(("log", text))
