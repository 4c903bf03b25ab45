# SPDX-License-Identifier: MIT
"""Boards: families of zones declared as a grid (`grid: {cols, rows}`), one zone per cell.

A cell is named as on a chessboard, column letter then row number (`a1`, `c4`), so notation,
transcripts and pictures read it at once. What the built-ins ask of a board (its cells, a cell's
neighbours, its connected regions) is worked out here from the family's declared size alone.
"""
from __future__ import annotations

from ..codes import VALUE_OUT_OF_DOMAIN, WRONG_KIND
from ..errors import ContentRuntimeError, suggestion_help
from .state import Family, State, cell_name


def place(cell) -> tuple[int, int]:
    """(column, row) of a cell name, 1-based: `c4` is (3, 4)."""
    if isinstance(cell, str) and len(cell) >= 2 and "a" <= cell[0] <= "z" and cell[1:].isdigit():
        return ord(cell[0]) - ord("a") + 1, int(cell[1:])
    raise ContentRuntimeError(f"`{cell}` is no board cell (a column letter and a row number, as `c4`)", None,
                              WRONG_KIND)


def grid_of(board, asked: str) -> Family:
    """``board`` when it is a family declared as a grid, else the content's error."""
    if board.__class__ is not Family or board.grid is None:
        raise ContentRuntimeError(f"`{asked}` asks a board (a zone family declared with `grid:`), not {board}", None,
                                  WRONG_KIND)
    return board


def on_board(board: Family, cell) -> tuple[int, int]:
    """(column, row) of ``cell``, which must be one of ``board``'s cells."""
    if cell not in board.zones:
        hint = suggestion_help(str(cell), board.zones) or f"its cells run from a1 to {cell_name(*board.grid)}"
        raise ContentRuntimeError(f"`{board}` has no cell `{cell}` ({hint})", None, VALUE_OUT_OF_DOMAIN)
    return place(cell)


def neighbours(board: Family, cell) -> list[str]:
    """The cells next to ``cell`` across an edge, in the board's order (row by row)."""
    col, row = on_board(board, cell)
    cols, rows = board.grid
    near = ((col, row - 1), (col - 1, row), (col + 1, row), (col, row + 1))
    return [cell_name(c, r) for c, r in near if 1 <= c <= cols and 1 <= r <= rows]


def regions(s: State, board: Family, prop: str) -> list[list[str]]:
    """The connected groups of occupied cells whose top items have the same value of ``prop``
    (an item's state first, then what is printed on it), each listed in the board's order,
    the groups in the order of their first cells."""
    zones = s.zones
    value = {}
    for cell, zone in board.zones.items():
        held = zones[zone]
        if held:
            value[cell] = _prop(s, held[-1], prop)
    seen: set = set()
    order = {cell: k for k, cell in enumerate(board.zones)}
    groups = []
    for cell in board.zones:
        if cell not in value or cell in seen:
            continue
        group, todo = [], [cell]
        seen.add(cell)
        while todo:             # no recursion: a board of any size is walked
            here = todo.pop()
            group.append(here)
            for near in neighbours(board, here):
                if near in value and near not in seen and value[near] == value[cell]:
                    seen.add(near)
                    todo.append(near)
        groups.append(sorted(group, key=order.__getitem__))
    return groups


def bounding_box(s: State, cells) -> dict | None:
    """The box of ``cells`` (a list of cells, or a board: its cells holding items)."""
    if cells.__class__ is Family:
        board = grid_of(cells, "bounding_box")
        cells = [cell for cell, zone in board.zones.items() if s.zones[zone]]
    elif cells.__class__ is not list:
        raise ContentRuntimeError(f"`bounding_box` asks a list of cells or a board, not {cells}", None, WRONG_KIND)
    if not cells:
        return None
    places = [place(cell) for cell in cells]
    cols, rows = [c for c, _r in places], [r for _c, r in places]
    box = {"first_col": min(cols), "last_col": max(cols), "first_row": min(rows), "last_row": max(rows)}
    box["cols"] = box["last_col"] - box["first_col"] + 1
    box["rows"] = box["last_row"] - box["first_row"] + 1
    return box


def _prop(s: State, item: str, prop: str):
    table = s.iprops.get(prop)
    if table is not None and item in table:
        return table[item]
    components = s.game.components
    printed = components.items[item]
    return printed[prop] if prop in printed else components.prop_defaults.get(prop)
