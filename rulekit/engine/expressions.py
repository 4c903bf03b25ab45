# SPDX-License-Identifier: MIT
"""What generated expressions call at run time: indexing, ``in``, slices, mappings, counts.

A game's generated module runs in a namespace of its own, with no Python builtins: the names the
compiler writes (``GETITEM``, ``CONTAINS``, ``SLICE``, ``MAP``...) are bound here, beside those of
engine/runtime.py, and each takes the content's values, so Python refusing one is the content's
error on its line (``boundary``), never a traceback.
"""
from __future__ import annotations

from collections.abc import Callable

from ..codes import INDEX_OUT_OF_RANGE, MISSING_KEY_IN_TABLE, UNSUPPORTED_OPERATION, WRONG_KIND
from ..errors import ContentRuntimeError, boundary, suggestion_help
from . import memo, mutate, vm
from .elements import held_once, unshared
from .library import seq
from .limits import COUNTED_MAX_SIZE, built
from .redact import Marked, plain
from .runtime import NAMES as RUNTIME_NAMES
from .scoring import score
from .state import SEAT_NAMES, Family, Player, ZoneKey
from .tally import tally_count, tally_table

PLAIN_VALUE = frozenset((int, bool, float, str, type(None), Player))   # a variable stores them as they are
UNSET = object()   # a value a function asks for again (the reuse pass), not worked out yet


def namespace(items: dict) -> dict:
    """The globals of a game's generated code (``items``: its items' fixed properties): the
    engine's helpers under the names the compiler writes, nothing from content."""

    def getitem(s, o, i):
        if type(o) is Family:
            return space(s, o, i)
        if type(o) is ZoneKey:
            held = s.zones[o]
            if i.__class__ is int and not -len(held) <= i < len(held):
                past_end(i, f"`{o.text}`", len(held))
            return held[i]
        if (type(o) is list or type(o) is str or type(o) is Marked) and i.__class__ is int \
                and not -len(o) <= i < len(o):
            past_end(i, "the list" if type(o) is list else "the text", len(o))
        if type(o) is dict and i not in o:
            no_key(o, i)
        return o[i]

    def no_key(mapping, key):
        keys = [mutate.fmt(k) for k in mapping]
        hint = suggestion_help(mutate.fmt(key), keys)
        raise ContentRuntimeError(f"the mapping has no key `{mutate.fmt(key)}` (its keys: "
                                  f"{', '.join(keys[:12]) + (', ...' if len(keys) > 12 else '') or 'none'})"
                                  + (f"; {hint}" if hint else ""), None, MISSING_KEY_IN_TABLE)

    def contains(s, x, coll):
        if type(coll) is ZoneKey:
            return s.loc.get(x) == coll
        if type(coll) is Family:
            raise ContentRuntimeError(f"`in` cannot look inside a family of zones (`{coll.text}`); "
                                      "test one of its spaces", None, WRONG_KIND)
        return x in coll

    def tally(s, z, prop, value):
        if type(z) is ZoneKey:
            return tally_count(s, z, prop, value)     # looks the table up before it builds one
        return len([x for x in seq(s, z) if items[x][prop] == value])

    def nospace(family, key, s=None):
        if s is not None and key in family.zones:      # sized by a parameter: a space of larger games only
            raise ContentRuntimeError(f"`{family.text}` has no space `{mutate.fmt(key)}` in this game "
                                      f"(`{family.bound}` is {mutate.fmt(s.g[family.bound])})")
        raise ContentRuntimeError(f"`{family.text}` has no space `{mutate.fmt(key)}`")

    def space(s, family, key):
        return family.zones[key] if family.plays(s, key) else nospace(family, key, s)

    def slice_of(s, o, lo, hi):
        for bound in (lo, hi):
            if bound is not None and bound.__class__ is not int:
                raise ContentRuntimeError(f"a slice's bounds are whole numbers, not `{mutate.fmt(bound)}`", None,
                                          WRONG_KIND)
        if type(o) is ZoneKey:
            o = s.zones[o]
        if type(o) is list or type(o) is str or type(o) is Marked:
            part = o[lo:hi]
            built(len(part))
            return part
        raise ContentRuntimeError(f"only a list, a zone or a text can be sliced, not {mutate.fmt(o)}", None,
                                  UNSUPPORTED_OPERATION)

    boundary(getitem, contains, tally, _count_equal, tally_table, tally_count, _replaced, _map, _key, slice_of)

    return {"__builtins__": {}, **RUNTIME_NAMES, "UNLISTED": vm.unlisted, "SCORE": score, "len": len, "LIST": list,
            "SUM": sum, "MIN": min, "MAX": max, "INT": int, "PLAIN_VALUE": PLAIN_VALUE,
            "NOSPACE": nospace, "SPACE": space, "COUNT_EQUAL": _count_equal, "UNSET": UNSET,
            "TALLY_TABLE": tally_table, "SEQ": seq, "ITEMS": items, "GETITEM": getitem,
            "CONTAINS": contains, "TALLY": tally, "PLAYER": Player, "SEATS": SEAT_NAMES,
            "SEAT_OR_TEXT": memo.SEAT_OR_TEXT,
            "ANY": any, "ALL": all, "NEXT": next,
            "SET_PROP": mutate.set_prop, "FIRST_OF_EACH": _first_of_each, "REPLACED": _replaced,
            "SET_ELEMENT": _set_element, "MAP": _map,
            "SLICE": slice_of, "MAX_SIZE": COUNTED_MAX_SIZE}


def attribute_reader(name: str, paths: frozenset, items: dict, members: dict, pzone_keys) -> Callable:
    """``o.NAME`` where only running tells what ``o`` is (a seat, an item, a member of a set):
    ``paths`` says what NAME can be ("pvar" a seat's variable, "pzone" a seat's zone, "dprop"
    an item's state, "sprop" an item's printed property, "mprop" a member's property)."""

    def read(s, o):
        if type(o) is not str and type(o) is not Marked:
            seat = (type(o) is Player or type(o) is int) and 0 <= o < s.n
            if "pvar" in paths and seat:
                return s.p[o][name]
            if "pzone" in paths and seat:
                return pzone_keys[o]
        elif o in items:
            if "dprop" in paths:
                value = s.iprops[name].get(o, _MISSING)
                return s.game.components.prop_defaults.get(name) if value is _MISSING else value
            if "sprop" in paths:
                return items[o][name]
        if "mprop" in paths and o in members:
            return members[o][name]
        raise ContentRuntimeError(f"{mutate.fmt(o)} has no attribute `{name}`")
    boundary(read)
    return read


_MISSING = object()


def past_end(index: int, what: str, size: int):
    """An index past either end of a list, a text or a zone, in the author's words."""
    end = "end" if index >= 0 else "start"
    raise ContentRuntimeError(f"index {index} is past the {end} of {what} ({size} item{'' if size == 1 else 's'})",
                              None, INDEX_OUT_OF_RANGE)


_KEYS = (str, int, bool, type(None), Player)


def _map(*pairs):
    """``{k: v, ...}``: keys are texts, numbers, players, truth values or none (a list or a zone
    names no entry)."""
    new = {}
    for i in range(0, len(pairs), 2):
        new[_key(pairs[i])] = pairs[i + 1]
    return new


def _key(key):
    """``key`` when a mapping can be keyed by it (a marked text as its plain text), else the
    content's error."""
    if key.__class__ not in _KEYS:
        if key.__class__ is Marked:
            return plain(key)
        raise ContentRuntimeError(f"a mapping's key is a text, a number, a player, a truth value or none, not "
                                  f"{mutate.fmt(key)}", None, UNSUPPORTED_OPERATION)
    return key


def _element_key(container, key):
    """``key`` as an element of ``container`` takes it (a list's index within it, a mapping's key),
    or the content's error: what ``xs[i] = v`` and ``d[k] = v`` check before setting anything."""
    if container.__class__ is list:
        if key.__class__ is not int:
            raise ContentRuntimeError(f"a list's index is a whole number, not {mutate.fmt(key)}", None, WRONG_KIND)
        if not -len(container) <= key < len(container):
            past_end(key, "the list", len(container))
        return key
    if container.__class__ is dict:
        return _key(key)
    raise ContentRuntimeError(f"only an element of a list or a table can be set, not of {mutate.fmt(container)}",
                              None, UNSUPPORTED_OPERATION)


def _replaced(container, key, value):
    """``xs[i] = v``, ``d[k] = v``: the list or mapping with the element set. A value is never
    changed where another name could see it (``ys = xs``), so the variable gets the new value
    through its own door (its setter, its event) like any assignment; when nobody else holds it,
    it is set in place (engine/elements.py), and a loop of assignments costs each one once."""
    key = _element_key(container, key)
    if unshared(container):
        container[key] = value
        return container
    built(len(container))
    new = list(container) if container.__class__ is list else dict(container)
    new[key] = value
    return new


def _set_element(s, setter, player, name: str, key, value, span) -> None:
    """``v[i] = x`` for game variable ``v`` (``player``'s, or a global one with None), through its
    setter (what to forget, and a recorded game's event, which keeps the element's change alone:
    ``set_element``, engine/mutate.py). The list or mapping is changed in place where the row of
    the state is its only holder (elements.held_once: a clone of the state, another name, a memo,
    an event keeping the whole value are each one more), so a loop of n assignments costs n,
    recorded or not; otherwise the variable gets a copy of its own first."""
    container = (s.g if player is None else s.p[player])[name]
    key = _element_key(container, key)
    if not held_once(container):
        built(len(container))
        container = list(container) if container.__class__ is list else dict(container)
    if container.__class__ is list:
        if key < 0:
            key += len(container)       # the event names the element as it stands
        was = container[key]
    else:
        was = container.get(key, mutate.ABSENT)
    container[key] = value
    setter(s, player, container, span, value, key, was)


def _first_of_each(pairs: list) -> list:
    """The first value of each key of ``(key, value)`` pairs, in order (options grouped `by`)."""
    firsts: dict = {}
    for key, value in pairs:
        if key not in firsts:
            firsts[key] = value
    return list(firsts.values())


def _count_equal(s, items, value) -> int:
    """How many of ``items`` (a list, or a zone, or whatever a comprehension walks) equal
    ``value``: ``list.count`` for a list, asked without a second call to see what it is."""
    if items.__class__ is list:
        return items.count(value)
    return len([x for x in seq(s, items) if x == value])
