# SPDX-License-Identifier: MIT
"""Incremental counts of a zone's items by a fixed property.

Rules ask "how many items of zone Z have property P = V" constantly (cards of a
company in a fleet, tiles of a part on the board). The compiler turns that
pattern into :func:`tally_count`; the first question about (Z, P) builds a tally
from the zone, and :func:`moved` keeps every built tally current on each move.
Tallies are a cache: a clone starts without them and rebuilds what it asks for,
so cloning stays cheap.
"""
from __future__ import annotations


def tally_count(s, zone, prop: str, value) -> int:
    return tally_table(s, zone, prop).get(value, 0)


def tally_table(s, zone, prop: str) -> dict:
    """Value -> how many items of ``zone`` have ``prop`` = value (built on first use)."""
    table = s.tallies.get((zone, prop))
    if table is None:
        table = {}
        items = s.game.items
        for item in s.zones[zone]:
            key = items[item][prop]
            table[key] = table.get(key, 0) + 1
        s.tallies[(zone, prop)] = table
        s.tallied.setdefault(zone, []).append(prop)
    return table


def moved(s, item: str, source, to) -> None:
    """Keep the tallies of ``source`` and ``to`` current after ``item`` moved."""
    tallied = s.tallied
    tallies = s.tallies
    props = s.game.items[item]
    for prop in tallied.get(source, ()):
        tallies[(source, prop)][props[prop]] -= 1
    for prop in tallied.get(to, ()):
        table = tallies[(to, prop)]
        key = props[prop]
        table[key] = table.get(key, 0) + 1
