# SPDX-License-Identifier: MIT
"""Incremental counts of a zone's items by a fixed property.

Rules ask "how many items of zone Z have property P = V" constantly (cards of a
company in a fleet, tiles of a part on the board). The compiler turns that
pattern into :func:`tally_count`; the first question about (Z, P) builds a tally
from the zone, and ``mutate.move`` keeps every built tally current on each move.
A clone shares its original's tallies and copies one only when a move changes it
(as it does the zones' lists: ``State.owned``), so a search bot's clone neither
copies nor rebuilds them.
"""
from __future__ import annotations


def tally_count(s, zone, prop: str, value) -> int:
    return tally_table(s, (zone, prop)).get(value, 0)


def tally_table(s, key: tuple) -> dict:
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
            value = items[item][prop]
            table[value] = table.get(value, 0) + 1
        s.tallies[key] = table
        s.owned.add(key)
        s.tallied[zone] = s.tallied.get(zone, ()) + (key,)   # a new tuple: clones share the old one
    return table


def own(s, key) -> dict:
    """A tally shared with a clone, copied for this state to change."""
    table = s.tallies[key] = dict(s.tallies[key])
    s.owned.add(key)
    return table
