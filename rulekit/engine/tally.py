# SPDX-License-Identifier: MIT
"""Incremental counts of a zone's items by a fixed property.

Rules ask "how many items of zone Z have property P = V" constantly (cards of a
company in a fleet, tiles of a part on the board). The compiler turns that
pattern into :func:`tally_count`; the first question about (Z, P) builds a tally
from the zone, and ``mutate.move`` keeps every built tally current on each move.
A clone shares its original's tallies and copies one only when a move changes it
(as it does the zones' lists: ``State.owned``), so a search bot's clone neither
copies nor rebuilds them. ``State.tallied`` lists each tallied zone's tallies as
``(key, property, table)``: a move in a state never cloned (``State.alone``) changes
that table with no lookup of ``s.tallies[key]`` (hashing a tuple key each time).

A tally exists only while every item of its zone has the property. A zone holding an item
without it is answered as the scan the tally stands for would answer: a count fails on the
first such item (the read's line, naming that item), an ``any`` finds what lies before it
(:class:`_Before`); an item without the property joining a tallied zone drops that tally
(:func:`drop`), so nothing fails where the content's own scan would not.
"""
from __future__ import annotations

from ..codes import CANNOT_EVALUATE
from ..errors import ContentRuntimeError, lacks_property


def tally_count(s, zone, prop: str, value) -> int:
    return tally_table(s, (zone, prop)).get(value, 0)


def tally_table(s, key: tuple, scanning_any: bool = False) -> dict:
    """Value -> how many items of zone ``key[0]`` have property ``key[1]`` = value (built on
    first use). It starts with every value some item has at 0, so it is never empty:
    generated code reads ``(s.tallies.get(KEY) or TALLY_TABLE(s, KEY))``, which must not
    build a table twice. The table is kept under ``key`` itself, the tuple generated code
    holds (``TK_...``): a lookup with that very tuple is answered at the identity check,
    not by comparing two tuples field by field."""
    table = s.tallies.get(key)
    if table is None:
        zone, prop = key
        components = s.game.components
        values = components.prop_values.get(prop)
        table = dict.fromkeys(values, 0) if values else {}
        items = components.items
        for item in s.zones[zone]:
            try:
                value = items[item][prop]
            except KeyError:
                message = lacks_property(s.game, item, prop)
                if scanning_any:
                    return _Before(table, message)
                raise ContentRuntimeError(message, None, CANNOT_EVALUATE) from None
            table[value] = table.get(value, 0) + 1
        s.tallies[key] = table
        s.owned.add(key)
        # the zone's entry: a new tuple (clones share the old one); its table serves a state never
        # cloned (State.alone), whose tables are never copied (own), so stay s.tallies[key]
        s.tallied[zone] = s.tallied.get(zone, ()) + ((key, prop, table),)
    return table


def own(s, key) -> dict:
    """A tally shared with a clone, copied for this state to change."""
    table = s.tallies[key] = dict(s.tallies[key])
    s.owned.add(key)
    return table


def drop(s, key) -> None:
    """Forget the tally ``key``: an item without its property joined its zone."""
    del s.tallies[key]
    s.owned.discard(key)
    zone = key[0]
    keys = tuple(entry for entry in s.tallied[zone] if entry[0] != key)    # a new tuple: clones share the old one
    if keys:
        s.tallied[zone] = keys
    else:
        del s.tallied[zone]


class _Before(dict):
    """What ``any(x.PROP == v for x in ZONE)`` finds in a zone holding an item without PROP:
    the values of the items before it (a match there ends the scan), and for any other value
    the failure the scan meets at that item. Never kept: each read scans again, as the content's
    scan would."""

    __slots__ = ("message",)

    def __init__(self, before: dict, message: str):
        super().__init__((value, count) for value, count in before.items() if count)
        self.message = message

    def get(self, value, default=None):
        if value in self:
            return self[value]
        raise ContentRuntimeError(self.message, None, CANNOT_EVALUATE)
