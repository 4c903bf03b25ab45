# SPDX-License-Identifier: MIT
"""Boards as planes for an observation: each grid (a zone family declared ``grid: {cols, rows}``)
laid out as planes of rows x columns, so a convolutional policy sees a board as a picture.

A board's planes, in order: ``count`` (the items in each cell, seen or not, as a zone's count
slot), one per component kind (the items of that kind the observer sees there), then one per
member of a set for each printed item property whose values are all members of that set
(``colour=blue``...): the seen items with that value. A player's board has a block of
these planes per seat, counted from the observer (``seat+0`` first), so the array of a board
is ``(seats * planes, rows, cols)``, row 1 first, column ``a`` first. docs/rl.md documents it.
"""
from __future__ import annotations

import attrs

from ..engine.boards import place
from ..engine.state import Family


@attrs.frozen
class BoardPlanes:
    """One board's planes: where they start in the observer's values, and their layout."""

    name: str
    seats: int          # 1: a global board; n: a player's own, a block of planes per seat from the observer
    rows: int
    cols: int
    planes: tuple       # what each plane counts: "count", each kind, "PROP=MEMBER"
    base: int           # its first value's index in the observer's values (after the vector)
    owned: bool = False     # a player's own board

    @property
    def shape(self) -> tuple:
        return (self.seats * len(self.planes), self.rows, self.cols)

    @property
    def size(self) -> int:
        return self.seats * len(self.planes) * self.rows * self.cols

    def labels(self) -> list[str]:
        """One name per plane, in order: ``seat+R.NAME:PLANE`` (a global board: ``NAME:PLANE``)."""
        if not self.owned:
            return [f"{self.name}:{plane}" for plane in self.planes]
        return [f"seat+{rel}.{self.name}:{plane}" for rel in range(self.seats) for plane in self.planes]

    def slot(self, rel: int, plane: int, col: int, row: int) -> int:
        """The index of cell (col, row), 1-based, of plane ``plane`` of seat+``rel``'s board."""
        return self.base + ((rel * len(self.planes) + plane) * self.rows + row - 1) * self.cols + col - 1


def has_boards(game) -> bool:
    """Whether a zone family of the game, global or a player's, is declared as a grid."""
    board = game.board
    return any(fam.grid is not None for fam in board.families.values()) or any(
        seats[0].__class__ is Family and seats[0].grid is not None for seats in board.pzones.values())


def marks(game, kinds: list) -> tuple[list, list]:
    """The names of what a cell's planes count past ``count`` (each kind, then ``PROP=MEMBER``,
    these only in a game with boards), and for each item (in ``game.components.items`` order)
    the indices of those it counts in."""
    components = game.components
    names = list(kinds)
    by_value: dict = {}
    for prop, members in _member_props(components) if has_boards(game) else ():
        for member in members:
            by_value[(prop, member)] = len(names)
            names.append(f"{prop}={member}")
    kind_index = {k: i for i, k in enumerate(kinds)}
    per_item = []
    for ident, printed in components.items.items():
        found = [kind_index.get(components.item_kind.get(ident), 0)]     # as the zones' kind slots count
        if by_value:
            found += [by_value[(prop, value)] for prop, value in printed.items()
                      if value.__class__ is str and (prop, value) in by_value]
        per_item.append(tuple(found))
    return names, per_item


def _member_props(components) -> list:
    """(property, members of its set) for each printed property whose values are all members of
    one set (the first declared that holds them all), properties in the order items first give them."""
    values: dict = {}           # property -> its texts; None once it holds anything else
    for printed in components.items.values():
        for prop, value in printed.items():
            if value is None:
                continue
            if value.__class__ is str and values.get(prop, ()) is not None:
                values.setdefault(prop, set()).add(value)
            else:
                values[prop] = None
    out = []
    for prop, seen in values.items():
        if not seen:
            continue
        for members in components.sets.values():
            if seen <= set(members):
                out.append((prop, tuple(members)))
                break
    return out


def boards(game, n: int, planes: tuple, base: int) -> tuple[list, dict]:
    """The game's boards laid out from ``base`` (global boards, then players' boards, in the order
    of their declarations), and each of their cells' zone key -> (board, owner seat or None, col, row)."""
    out, cells = [], {}
    board = game.board
    for name, fam in board.families.items():
        if fam.grid is not None:
            laid = BoardPlanes(name, 1, fam.grid[1], fam.grid[0], planes, base)
            base += laid.size
            out.append(laid)
            for cell, key in fam.zones.items():
                cells[key] = (laid, None, *place(cell))
    for name, seats in board.pzones.items():
        fam = seats[0]
        if fam.__class__ is Family and fam.grid is not None:
            laid = BoardPlanes(name, n, fam.grid[1], fam.grid[0], planes, base, owned=True)
            base += laid.size
            out.append(laid)
            for owner in range(n):
                for cell, key in seats[owner].zones.items():
                    cells[key] = (laid, owner, *place(cell))
    return out, cells
