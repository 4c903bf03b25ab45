# SPDX-License-Identifier: MIT
"""Pictures of game states, drawn generically from content: SVG, and an HTML replay viewer.

    rulekit render LOG_OR_SCRIPT -o state.svg [--at STEP] [--as p2 | --full]
    rulekit render LOG_OR_SCRIPT -o replay.html [--at STEP]

What is drawn is always ``rulekit.engine.view.view(state, viewer)``: a spectator's view by
default, one player's with ``--as``, everything with ``--full``. Where it is drawn comes
only from the game's definitions, never from a state, so every step of a replay has
the same layout and only the contents of the boxes change.

Defaults (no ``render:`` section needed):

* a zone family whose keys are all set members with numeric ``row`` and ``col`` props
  is a **grid** (one cell per member, at its row and column);
* a family declared with ``range: [lo, hi]`` is a **track** (cells in order, in lines);
* any other family is a **row** of labelled boxes, one per key;
* a single zone is a labelled **box** with its items (ids, or a count per component
  kind when they do not fit; ``?`` for face-down items; hidden zones show their count);
* each player has an **area** with their variables and their zones as boxes;
* public global variables are listed at the top; the zone ``box`` is never drawn.

Keys read from content (all optional; the game schema lets content carry them):

Game level, ``render:``
  ``width``          picture width in px (default 1200)
  ``title``          the caption (default: the game's title)
  ``hide``           zone names never to draw
  ``order``          zone names to draw first, in this order (the rest as declared)
  ``label``          ``{kind: prop}``: label a kind's items by that static prop, not their id
  ``color_by``       ``{kind: prop}``: colour a kind's items by that prop's value
  ``colors``         ``{kind or prop value: css colour}``
  ``player_colors``  css colours for p1, p2, ...
  ``player_color_by`` ``{kind: prop}``: colour a kind's items in the colour of the player
                     that prop names (a seat ``pK``, or the k-th member of a set: player k)
  ``player_columns`` player areas side by side (default 2)

A label (``label:``) is a property name or a template such as ``"{company} {n}"`` over the
item's properties and its visible state.

Zone level, ``layout:`` in ``zones.NAME`` or ``player.zones.NAME``
  ``type``     ``grid`` | ``track`` | ``row`` | ``box`` | ``none`` (not drawn)
  ``label``    the caption (default: the zone's name)
  ``row``, ``col``  the member props that place a grid cell (default ``row``, ``col``); on a
               single zone with ``type: grid``, the item props (``col`` may be state) that
               place each item on a board of lines and cells (``cols: [lo, hi]``: the cells)
  ``per_row``  cells per line of a track or row (default: as many as fit)
  ``cell``     ``[width, height]`` of a cell or box in px
  ``rows``     lines of items a box has room for (default 3; 1 for hidden zones)
  ``pawns``    on a family: variables whose value is one of its keys, drawn as pawns in
               that cell: a player variable gives each player a pawn in their colour,
               a global one a marker (a mapping gives its label: ``{flag_space: flag}``)

A board (a family declared ``grid: {cols, rows}``, global or a player's own) is drawn as a grid
of its cells, each with its items, and every connected **region** of it is outlined: the cells
whose top items have the same value of the property the content's ``regions(board, "P")`` calls
group that board by (:func:`region_props`), or, where the content names no one property for it,
of the same item kind (adjacent occupied cells, what an adjacency scoring counts). The outlines
are worked out from the view, so a hidden item outlines nothing.

A zone declared ``internal: true`` (bookkeeping of the rules, not a place on the table)
is never drawn. The viewer's own zones never collapse to a count per kind: their
labels shorten until every item fits.

The HTML viewer embeds the SVG of the first shown step and, per step, the markup of
the boxes that changed (JSON), with a little script to step through them (buttons,
a slider, arrow keys, ``#step=N`` in the address).
"""
from __future__ import annotations

import html
import json
import math
import os
import re

from ..engine import api, boards
from ..engine.mutate import fmt
from ..engine.state import PLAYERS, Family, cell_name
from ..engine.view import HIDDEN, view
from ..errors import EXIT_OK, UsageError
from ..files import write_text
from .captions import caption as _caption
from .captions import last_told
from .captions import steps as told_steps
from .report import show_value

CHAR = 6.0          # width of one character of the 10px monospace font
CHIP_H = 15
GAP = 3
CAPTION = 16
PALETTE = ["#8ecae6", "#ffb703", "#90be6d", "#f4a261", "#cdb4db", "#e5989b", "#a8dadc", "#ffd6a5",
           "#b5e48c", "#bde0fe", "#f9c74f", "#ddbea9"]
PLAYER_PALETTE = ["#d62828", "#1d4ed8", "#2a9d8f", "#e9c46a", "#7b2cbf", "#f77f00", "#6d597a", "#43aa8b"]
STYLE = """
text{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:10px;fill:#222}
.cap{font-size:11px;font-weight:bold;fill:#4a4030}
.title{font-size:18px;font-weight:bold;fill:#222}
.sub{font-size:12px;fill:#333}
.box{fill:#fffdf7;stroke:#b9ad94;stroke-width:1}
.cell{fill:#fbf7ec;stroke:#c9bda4;stroke-width:1}
.area{fill:#f7f3ea;stroke-width:2}
.chip{stroke:#6b6250;stroke-width:.6}
.down{fill:#9a9a9a;stroke:#6b6b6b;stroke-width:.6}
.hid{fill:#cfcfcf;stroke:#8a8a8a;stroke-width:.6;stroke-dasharray:3 2}
.n{fill:#6b6250}
.pawn{stroke:#222;stroke-width:1.2}
.region{fill:none;stroke:#b5179e;stroke-width:3;stroke-linecap:square}
"""
REGION_MARGIN = 2   # an outline runs half-way between a board's cells (they lie 4px apart)


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _num(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Slot:
    """A box whose contents change from step to step."""

    __slots__ = ("id", "kind", "x", "y", "w", "h", "pick", "rows")

    def __init__(self, ident, kind, x, y, w, h, pick=None, rows=1):
        self.id, self.kind, self.x, self.y, self.w, self.h = ident, kind, x, y, w, h
        self.pick, self.rows = pick, rows


class Skyline:
    """Packs blocks left to right at the lowest place they fit."""

    STEP = 4

    def __init__(self, x0: float, y0: float, width: float):
        self.x0, self.y0, self.width = x0, y0, width
        self.cols = [y0] * (int(width) // self.STEP + 1)

    def place(self, w: float, h: float, gap: float = 10) -> tuple[float, float]:
        span = min(len(self.cols), max(1, math.ceil(w / self.STEP)))
        best = None
        for start in range(0, len(self.cols) - span + 1):
            top = max(self.cols[start:start + span])
            if best is None or top < best[1] - 0.5:
                best = (start, top)
        start, top = best
        for i in range(start, min(len(self.cols), start + span + math.ceil(gap / self.STEP))):
            self.cols[i] = top + h + gap
        return self.x0 + start * self.STEP, top

    @property
    def bottom(self) -> float:
        return max(self.cols)


class Renderer:
    """The layout of one game at one player count; draws views into it."""

    def __init__(self, game, n: int, viewer: int | None = None):
        self.game = game
        self.n = n
        self.viewer = viewer
        cfg = game.data.get("render") or {}
        self.cfg = cfg if isinstance(cfg, dict) else {}
        self.width = int(self.cfg.get("width", 1200))
        self.title = str(self.cfg.get("title", game.title))
        self.hide = set(self.cfg.get("hide") or ()) | {"box"} | internal_zones(game)
        self.labels = dict(self.cfg.get("label") or {})
        self.color_by = dict(self.cfg.get("color_by") or {})
        self.player_color_by = dict(self.cfg.get("player_color_by") or {})
        self.seat_of = {m: i for members in game.components.sets.values() for i, m in enumerate(members) if i < n}
        self.seat_of.update({str(PLAYERS[i]): i for i in range(n)})
        self.colors = {str(k): str(v) for k, v in (self.cfg.get("colors") or {}).items()}
        pcolors = list(self.cfg.get("player_colors") or ())
        self.player_colors = [pcolors[i] if i < len(pcolors) else PLAYER_PALETTE[i % len(PLAYER_PALETTE)]
                              for i in range(n)]
        self.kind_color = {k: self.colors.get(k, PALETTE[i % len(PALETTE)])
                           for i, k in enumerate(game.components.kinds)}
        self.value_color = self._value_colors()
        longest = max((len(self._item_label(i)) for i in game.components.items), default=8)
        self.cell_w = max(70, min(160, longest * CHAR + 14))
        self.static: list[str] = []
        self.slots: list[Slot] = []
        self._first_cell: dict = {}      # a board's zone -> its first cell (where a hidden count shows)
        self.region_by = region_props(game)
        self._build()

    # -- configuration -------------------------------------------------------------
    def _zone_spec(self, name: str, player: bool) -> dict:
        section = (self.game.data.get("player") or {}).get("zones") if player else self.game.data.get("zones")
        spec = (section or {}).get(name) or {}
        return spec if isinstance(spec, dict) else {}

    def _layout(self, name: str, player: bool = False) -> dict:
        layout = self._zone_spec(name, player).get("layout") or {}
        return layout if isinstance(layout, dict) else {}

    def _slot(self, kind, x, y, w, h, pick, rows=1) -> Slot:
        slot = Slot(f"s{len(self.slots)}", kind, x, y, w, h, pick, rows)
        self.slots.append(slot)
        return slot

    # -- layout --------------------------------------------------------------------
    def _build(self) -> None:
        game, W, M = self.game, self.width, 16
        inner = W - 2 * M
        self.static.append(f'<text class="title" x="{M}" y="{M + 16}">{_esc(self.title)}</text>')
        self._slot("header", M, M + 22, inner, 30, None)
        y = M + 58
        self.internal_vars = internal_vars(game)
        gvars = [k for k in game.variables.gvars if k != "round" and game.variables.gvis.get(k, "public") == "public"
                 and k not in self.internal_vars]
        if gvars:
            per = max(1, int(inner // 230))
            lines = math.ceil(len(gvars) / per)
            h = CAPTION + lines * 14 + 6
            self.static.append(f'<g class="zone" data-zone="vars"><rect class="box" x="{M}" y="{y}" '
                               f'width="{inner}" height="{h}" rx="4"/>'
                               f'<text class="cap" x="{M + 6}" y="{y + 12}">table</text></g>')
            self._slot("vars", M + 6, y + CAPTION, inner - 12, h - CAPTION, ("gvars", tuple(gvars), per))
            y += h + 10
        order = [z for z in self.cfg.get("order") or () if z in game.board.zone_vis]
        declared = [z for z in list(game.board.families) + list(game.board.zones) if z not in order]
        families = [z for z in order + declared if z in game.board.families]
        singles = [z for z in order + declared if z in game.board.zones]
        sky = Skyline(M, y, inner)
        for name in families:
            if name not in self.hide and self._layout(name).get("type") != "none":
                self._family(sky, name, inner)
        for name in singles:
            if name not in self.hide and self._layout(name).get("type") != "none":
                self._single(sky, name)
        y = sky.bottom + 6
        cols = max(1, int(self.cfg.get("player_columns", 2)))
        pw = (inner - (cols - 1) * 12) / cols
        psky = Skyline(M, y, inner)
        for i in range(self.n):
            self._player(psky, i, pw)
        self.height = psky.bottom + M

    def _single(self, sky: Skyline, name: str) -> None:
        """A global zone: a box, or a board (see :meth:`_board`)."""
        layout = self._layout(name)
        board = self._board(layout)
        if board is not None:
            w, h = self._board_size(board)
            x, y = sky.place(w, h)
            self._emit_board(x, y, w, h, name, ("zone", name), layout, board)
        else:
            self._box(sky, name, ("zone", name), layout, 280,
                      1 if self.game.board.zone_vis[name] == "hidden" else 3, caption=name)

    def _family(self, sky: Skyline, name: str, inner: float) -> None:
        game = self.game
        fam = game.board.families[name]
        if fam.graph is not None:           # a map: its nodes where the content places them
            from .render_map import draw
            return draw(self, sky, name, fam, inner)
        layout = self._layout(name)
        keys = list(fam.zones)
        spec = self._zone_spec(name, False)
        rprop, cprop = layout.get("row", "row"), layout.get("col", "col")
        kind = layout.get("type")
        places = {}
        for key in keys:
            props = game.components.members.get(str(key), {}) if isinstance(key, str) else {}
            if fam.grid is not None:        # a board: each cell at its own row and column
                places[key] = boards.place(key)[::-1]
            elif _num(props.get(rprop)) and _num(props.get(cprop)):
                places[key] = (props[rprop], props[cprop])
        if kind is None:
            kind = "grid" if places and len(places) == len(keys) else "track" if "range" in spec else "row"
        if kind == "grid" and len(places) != len(keys):
            kind = "row"
        caption = str(layout.get("label", name))
        hidden = game.board.zone_vis.get(name) == "hidden"
        if kind == "grid":
            rows = sorted({r for r, _c in places.values()})
            cols = sorted({c for _r, c in places.values()})
            rmin, cmin = min(rows), min(cols)
            nr, nc = int(max(rows) - rmin) + 1, int(max(cols) - cmin) + 1
            cw, ch = layout.get("cell") or (min(self.cell_w, (inner - 12) / nc - 4), 58)
            w, h = nc * (cw + 4) + 8, nr * (ch + 4) + CAPTION + 8
            x, y = sky.place(w, h)
            self._frame(name, caption, x, y, w, h)
            cells = []
            for key, (r, c) in places.items():
                cx, cy = x + 4 + (c - cmin) * (cw + 4), y + CAPTION + 4 + (r - rmin) * (ch + 4)
                self._cell(name, key, cx, cy, cw, ch, hidden)
                cells.append((key, cx, cy, cw, ch))
            if fam.grid is not None:
                self._regions_slot(name, ("zone", name), cells)
            return
        cw, ch = layout.get("cell") or ((min(self.cell_w, 120), 48) if kind == "track" else (160, 64))
        per = int(layout.get("per_row") or max(1, (inner - 8) // (cw + 4)))
        per = min(per, len(keys)) or 1
        lines = math.ceil(len(keys) / per)
        w, h = per * (cw + 4) + 8, lines * (ch + 4) + CAPTION + 8
        x, y = sky.place(w, h)
        self._frame(name, caption, x, y, w, h)
        for i, key in enumerate(keys):
            cx, cy = x + 4 + (i % per) * (cw + 4), y + CAPTION + 4 + (i // per) * (ch + 4)
            self._cell(name, key, cx, cy, cw, ch, hidden)

    def _frame(self, name, caption, x, y, w, h) -> None:
        self.static.append(f'<g class="family" data-family="{_esc(name)}"><rect class="box" x="{x}" y="{y}" '
                           f'width="{w}" height="{h}" rx="5"/><text class="cap" x="{x + 6}" y="{y + 12}">'
                           f'{_esc(caption)}</text></g>')

    def _cell(self, name, key, x, y, w, h, hidden) -> None:
        label = fmt(key)
        self.static.append(f'<g class="zone" data-zone="{_esc(name)}[{_esc(label)}]"><rect class="cell" '
                           f'x="{x}" y="{y}" width="{w}" height="{h}" rx="3"/><text class="n" x="{x + 3}" '
                           f'y="{y + 10}">{_esc(label)}</text></g>')
        rows = max(1, int((h - 14) // (CHIP_H + GAP)))
        self._slot("items", x + 3, y + 13, w - 6, h - 15, ("family", name, label), rows)

    def _pawns(self, picture: dict, name: str, key: str) -> list:
        """Chips for the pawns a family's ``pawns:`` puts on its cell ``key``."""
        pawns = self._layout(name).get("pawns") or ()
        labels = pawns if isinstance(pawns, dict) else {v: None for v in ([pawns] if isinstance(pawns, str) else pawns)}
        chips = []
        for var, label in labels.items():
            if var in self.game.variables.pvars:
                for i in range(self.n):
                    if _show(picture["players"][str(PLAYERS[i])].get(var)) == key:
                        chips.append((str(PLAYERS[i]), "pawn", self.player_colors[i], f"{PLAYERS[i]}: {var} {key}"))
            elif _show(picture["vars"].get(var)) == key:
                chips.append((str(label or var), "pawn", "#222222", f"{var} {key}"))
        return chips

    def _box(self, sky, name, pick, layout, width, rows, caption, gap=10) -> None:
        w, h = self._box_size(layout, width, rows)
        x, y = sky.place(w, h, gap)
        self._emit_box(x, y, w, h, name, pick, layout, rows, caption)

    def _box_size(self, layout, width, rows) -> tuple:
        rows = int(layout.get("rows", rows))
        return tuple(layout.get("cell") or (width, CAPTION + rows * (CHIP_H + GAP) + 6))

    def _emit_box(self, x, y, w, h, name, pick, layout, rows, caption) -> None:
        rows = int(layout.get("rows", rows))
        zone = name if pick[0] == "zone" else f"{PLAYERS[pick[2]]}.{name}"
        self.static.append(f'<g class="zone" data-zone="{_esc(zone)}"><rect class="box" x="{x:.0f}" y="{y:.0f}" '
                           f'width="{w:.0f}" height="{h:.0f}" rx="4"/><text class="cap" x="{x + 6:.0f}" '
                           f'y="{y + 12:.0f}">{_esc(layout.get("label", caption))}</text></g>')
        rows = max(1, min(rows, int((h - CAPTION - 3) // (CHIP_H + GAP)) or 1))
        self._slot("items", x + 5, y + CAPTION + 1, w - 10, h - CAPTION - 3, pick, rows)

    def _grid_cells(self, z: str, family, grid: tuple, inner, width: float, gap: int) -> list:
        """The boxes of a player's board, one per cell at its column and row, placed as one block."""
        cols, rows = grid
        layout = self._layout(z, True)
        cw, ch = layout.get("cell") or (min(90.0, (width - (cols - 1) * 4) / cols), CAPTION + CHIP_H + GAP + 6)
        gx, gy = inner.place(cols * (cw + 4) - 4, rows * (ch + 4) - 4, gap)
        out = []
        for key in family.zones:
            col, row = boards.place(key)
            out.append((f"{z}[{key}]", layout, 1, gx + (col - 1) * (cw + 4), gy + (row - 1) * (ch + 4), cw, ch,
                        None, key))
        return out

    def _player(self, sky, i: int, pw: float) -> None:
        game = self.game
        zones = [z for z in game.board.pzones if z not in self.hide and self._layout(z, True).get("type") != "none"]
        gap, pad = 8, 8
        bw = (pw - 2 * pad - gap) / 2 - Skyline.STEP
        chars = sum(len(v) + 6 for v in game.variables.pvars) + 8
        vlines = 1 if chars * CHAR <= pw - 16 else 2
        head = 28 + 13 * vlines
        inner = Skyline(0, 0, pw - 2 * pad)   # lay the boxes out first, to know the area's height
        boxes = []
        for z in zones:
            grid = getattr(game.board.pzones[z][i], "grid", None)
            if grid is not None:        # a board of the player's own: its cells as a grid
                boxes += self._grid_cells(z, game.board.pzones[z][i], grid, inner, pw - 2 * pad, gap)
        for z, space in [(name, k) for name in zones for k in _spaces(game.board.pzones[name][i])
                         if getattr(game.board.pzones[name][i], "grid", None) is None]:
            layout = self._layout(z, True)
            rows = 1 if game.board.zone_vis[z] == "hidden" else 2
            board = self._board(layout)
            w, h = self._board_size(board) if board is not None else self._box_size(layout, bw, rows)
            rx, ry = inner.place(w, h, gap)
            boxes.append((z if space is None else f"{z}[{space}]", layout, rows, rx, ry, w, h, board, space))
        h = head + max(0, inner.bottom - gap) + pad
        x, y = sky.place(pw, h, 12)
        color = self.player_colors[i]
        p = str(PLAYERS[i])
        self.static.append(f'<g class="player" data-player="{p}"><rect class="area" x="{x:.0f}" y="{y:.0f}" '
                           f'width="{pw:.0f}" height="{h:.0f}" rx="6" stroke="{_esc(color)}"/><rect x="{x:.0f}" '
                           f'y="{y:.0f}" width="{pw:.0f}" height="20" rx="6" fill="{_esc(color)}"/>'
                           f'<text class="cap" x="{x + 8:.0f}" y="{y + 14:.0f}" style="fill:#fff">{p}</text></g>')
        self._slot("pvars", x + 8, y + 22, pw - 16, 13 * vlines, ("pvars", i), vlines)
        cells: dict = {}        # a board of the player's own -> its cells where they are drawn
        for z, layout, rows, rx, ry, w, bh, board, space in boxes:
            base = z.split("[", 1)[0]
            pick = ("player", base, i) + (() if space is None else (space,))
            if board is not None:
                self._emit_board(x + pad + rx, y + head + ry, w, bh, z, pick, layout, board)
            else:
                self._emit_box(x + pad + rx, y + head + ry, w, bh, z, pick, layout, rows, z)
            if getattr(game.board.pzones[base][i], "grid", None) is not None:
                cells.setdefault(base, []).append((space, x + pad + rx, y + head + ry, w, bh))
        for base, drawn in cells.items():
            self._regions_slot(f"{p}.{base}", ("player", base, i), drawn)

    # -- boards declared `grid:`: the outlines of their regions ------------------------------
    def _regions_slot(self, zone: str, pick: tuple, cells: list) -> None:
        """A slot over a board's cells, drawn after them, for the outlines of its regions.
        ``cells``: (cell, x, y, w, h) of each cell as drawn."""
        name = zone.rpartition(".")[2]
        if self._layout(name, pick[0] == "player").get("regions") is False:    # `layout: {regions: false}`
            return
        x0, y0 = min(c[1] for c in cells), min(c[2] for c in cells)
        x1, y1 = max(c[1] + c[3] for c in cells), max(c[2] + c[4] for c in cells)
        self._slot("regions", x0, y0, x1 - x0, y1 - y0, ("regions", pick, zone, self.region_by.get(name),
                                                           tuple(cells)))

    def _outlines(self, picture: dict, pick: tuple) -> str:
        """One path per region of the board: the edges of its cells that no other cell of it shares."""
        _k, zone_pick, zone, prop, cells = pick
        content = _pick(picture, zone_pick)
        if not isinstance(content, dict):
            return ""
        tops = {cell: held[-1] for cell, held in content.items()
                if isinstance(held, list) and held and held[-1] != HIDDEN}
        value = {cell: self._region_value(ident, prop, picture.get("items")) for cell, ident in tops.items()}
        drawn = {cell: (x, y, w, h) for cell, x, y, w, h in cells}
        m = REGION_MARGIN
        out = []
        for group in view_regions(value):
            inside = {boards.place(c) for c in group}
            d = []
            for cell in group:
                (col, row), (x, y, w, h) = boards.place(cell), drawn[cell]
                left, right, top, bottom = x - m, x + w + m, y - m, y + h + m
                if (col, row - 1) not in inside:
                    d.append(f"M{left:.0f} {top:.0f}H{right:.0f}")
                if (col, row + 1) not in inside:
                    d.append(f"M{left:.0f} {bottom:.0f}H{right:.0f}")
                if (col - 1, row) not in inside:
                    d.append(f"M{left:.0f} {top:.0f}V{bottom:.0f}")
                if (col + 1, row) not in inside:
                    d.append(f"M{right:.0f} {top:.0f}V{bottom:.0f}")
            what = f"{prop or 'kind'} {fmt(value[group[0]])}"
            out.append(f'<path class="region" data-zone="{_esc(zone)}" data-cells="{_esc(" ".join(group))}" '
                       f'data-value="{_esc(fmt(value[group[0]]))}" d="{"".join(d)}"><title>{_esc(zone)}: '
                       f'{_esc(what)}, {len(group)} cell{"s" if len(group) != 1 else ""}</title></path>')
        return "".join(out)

    def _region_value(self, ident: str, prop: str | None, states: dict | None):
        """What groups a top item into a region: ``prop`` (its visible state first, then what is
        printed on it), or its kind."""
        components = self.game.components
        if prop is None:
            return components.item_kind.get(ident, "item")
        state = (states or {}).get(ident) or {}
        if prop in state:
            return state[prop]
        printed = components.items.get(ident, {})
        return printed[prop] if prop in printed else components.prop_defaults.get(prop)

    # -- boards: one zone's items placed by two of their properties ---------------------------
    def _board(self, layout: dict):
        """A single zone with ``layout: {type: grid, row: P, col: Q, cols: [lo, hi]}`` is a
        board: a line per value of ``P`` (in the order of the items that have it), a cell per
        value of ``Q`` (``cols``, or the values items have), each item in the cell its two
        properties name (``Q`` may be state: markers at the level they reached). None: not a board."""
        if layout.get("type") != "grid" or not layout.get("row") or not layout.get("col"):
            return None
        rprop, cprop = layout["row"], layout["col"]
        rows = []
        for props in self.game.components.items.values():
            value = props.get(rprop)
            if value is not None and value not in rows:
                rows.append(value)
        span = layout.get("cols")
        if span:
            cols = list(range(int(span[0]), int(span[1]) + 1))
        else:
            cols = sorted({p[cprop] for p in self.game.components.items.values() if _num(p.get(cprop))})
        if not rows or not cols:
            return None
        cw, ch = layout.get("cell") or (30, CHIP_H + 4)
        head = max(len(fmt(r)) for r in rows) * CHAR + 14
        return rprop, cprop, rows, cols, float(cw), float(ch), head

    def _board_size(self, board) -> tuple:
        _r, _c, rows, cols, cw, ch, head = board
        return head + len(cols) * (cw + 2) + 8, CAPTION + 13 + len(rows) * (ch + 2) + 6

    def _emit_board(self, x, y, w, h, name, pick, layout, board) -> None:
        rprop, cprop, rows, cols, cw, ch, head = board
        zone = name if pick[0] == "zone" else f"{PLAYERS[pick[2]]}.{name}"
        parts = [f'<g class="zone board" data-zone="{_esc(zone)}"><rect class="box" x="{x:.0f}" y="{y:.0f}" '
                 f'width="{w:.0f}" height="{h:.0f}" rx="4"/><text class="cap" x="{x + 6:.0f}" y="{y + 12:.0f}">'
                 f'{_esc(layout.get("label", name))}</text>']
        top = y + CAPTION + 13
        for j, col in enumerate(cols):
            cx = x + head + j * (cw + 2) + 3
            parts.append(f'<text class="n" x="{cx:.0f}" y="{top - 3:.0f}">{_esc(fmt(col))}</text>')
        for k, row in enumerate(rows):
            cy = top + k * (ch + 2)
            parts.append(f'<text x="{x + 6:.0f}" y="{cy + ch - 6:.0f}">{_esc(fmt(row))}</text>')
            for j, col in enumerate(cols):
                cx = x + head + j * (cw + 2)
                parts.append(f'<rect class="cell" x="{cx:.0f}" y="{cy:.0f}" width="{cw:.0f}" '
                             f'height="{ch:.0f}" rx="2"/>')
                self._slot("items", cx + 1, cy + 2, cw - 2, ch - 2, ("cell", pick, rprop, row, cprop, col))
        parts.append("</g>")
        self.static.append("".join(parts))

    def _cell_items(self, picture: dict, pick) -> list | dict | None:
        """The items of a board's zone that lie in one of its cells (a hidden zone: its count, in
        the first cell only)."""
        _k, zone_pick, rprop, row, cprop, col = pick
        content = _pick(picture, zone_pick)
        if isinstance(content, dict):
            first = self._first_cell.setdefault(zone_pick, pick)
            return content if first == pick else None
        states = picture.get("items") or {}
        out = []
        for ident in content or ():
            props = dict(self.game.components.items.get(ident, {}))
            props.update(states.get(ident) or {})
            if props.get(rprop) == row and props.get(cprop) == col:
                out.append(ident)
        return out

    # -- drawing -------------------------------------------------------------------
    def _item_label(self, ident: str, states: dict | None = None) -> str:
        kind = self.game.components.item_kind.get(ident)
        prop = self.labels.get(kind)
        if prop is None:
            return ident
        props = dict(self.game.components.items.get(ident, {}))
        props.update((states or {}).get(ident) or {})
        if "{" in str(prop):
            return _template(str(prop), props) or ident
        value = props.get(prop)
        return ident if value is None else fmt(value)

    def _value_colors(self) -> dict:
        """``color_by`` values -> colours, dealt in the order of the items' definitions, so an
        item has the same colour in every picture of the game (an SVG of one state, each step
        of the replay viewer) whatever the items drawn before it."""
        out: dict = {}
        for ident, props in self.game.components.items.items():
            prop = self.color_by.get(self.game.components.item_kind.get(ident))
            value = None if prop is None else props.get(prop)
            if value is not None and fmt(value) not in out:
                out[fmt(value)] = self.colors.get(fmt(value), PALETTE[len(out) % len(PALETTE)])
        return out

    def _item_color(self, ident: str) -> str:
        kind = self.game.components.item_kind.get(ident)
        owner = self.player_color_by.get(kind)
        if owner is not None:
            value = self.game.components.items.get(ident, {}).get(owner)
            seat = self.seat_of.get(fmt(value))
            if seat is None and value.__class__ is int and 1 <= value <= self.n:    # a seat number: 2 is p2
                seat = value - 1
            if seat is not None:
                return self.player_colors[seat]
        prop = self.color_by.get(kind)
        if prop is not None:
            value = self.game.components.items.get(ident, {}).get(prop)
            if value is not None:
                return self.value_color[fmt(value)]
        return self.kind_color.get(kind, "#eeeeee")

    def _chips(self, slot: Slot, chips: list, maxc: int | None = None) -> str:
        """chips: (label, css class, fill or None, tooltip or None); flowed into the slot."""
        out = []
        maxc = max(2, int((slot.w - 6) // CHAR)) if maxc is None else maxc
        x, row = 0.0, 0
        placed = 0
        for label, cls, fill, tip in chips:
            text = label if len(label) <= maxc else label[:maxc - 1] + "~"
            w = len(text) * CHAR + 6
            if x > 0 and x + w > slot.w:
                x, row = 0.0, row + 1
            if row >= slot.rows:
                break
            cx, cy = slot.x + x, slot.y + row * (CHIP_H + GAP)
            attr = f' fill="{_esc(fill)}"' if fill else ""
            ink = ' style="fill:#fff"' if fill and _dark(fill) else ""
            title = f"<title>{_esc(tip or label)}</title>" if tip or text != label else ""
            out.append(f'<g><rect class="{cls}" x="{cx:.0f}" y="{cy:.0f}" width="{w:.0f}" height="{CHIP_H}" '
                       f'rx="3"{attr}/><text x="{cx + 3:.0f}" y="{cy + 11:.0f}"{ink}>{_esc(text)}</text>{title}</g>')
            x += w + GAP
            placed += 1
        if placed < len(chips):
            return None
        return "".join(out)

    def _draw_items(self, slot: Slot, content, states: dict | None = None, pawns: list = ()) -> str:
        if content is None:
            return self._chips(slot, list(pawns)) or "" if pawns else ""
        if isinstance(content, dict):
            n = content.get("count", 0)
            if not n:
                return ""
            return self._chips(slot, [(f"{n} hidden", "hid", None, None)]) or ""
        chips = []
        for ident in content:
            if ident == HIDDEN:
                chips.append(("?", "down", None, "face down"))
            else:
                chips.append((self._item_label(ident, states), "chip", self._item_color(ident),
                               _tooltip(ident, states)))
        chips.extend(pawns)
        drawn = self._chips(slot, chips)
        if drawn is not None:
            return drawn
        if self._own(slot):     # the viewer's own zone never collapses: shorter labels instead
            for maxc in (10, 6, 4, 2):
                drawn = self._chips(slot, chips, maxc)
                if drawn is not None:
                    return drawn
        groups: dict = {}
        for ident in content:
            kind = "face down" if ident == HIDDEN else self.game.components.item_kind.get(ident, "item")
            groups.setdefault(kind, []).append(ident)
        grouped = []
        for kind, members in groups.items():
            fill = None if kind == "face down" else _common({self._item_color(i) for i in members},
                                                            self.kind_color.get(kind))
            grouped.append((f"{kind} x{len(members)}", "down" if fill is None else "chip", fill,
                            ", ".join(members[:40])))
        drawn = self._chips(slot, grouped)
        if drawn is not None:
            return drawn
        return self._chips(slot, [(f"{len(content)} items", "chip", "#eeeeee", None)]) or ""

    def _lines(self, slot: Slot, parts: list[str], per: int | None = None) -> str:
        out = []
        if per is None:  # flow the parts into lines that fit
            maxc = max(10, int(slot.w // CHAR))
            lines, line = [], ""
            for part in parts:
                if line and len(line) + 3 + len(part) > maxc:
                    lines.append(line)
                    line = part
                else:
                    line = f"{line}   {part}" if line else part
            if line:
                lines.append(line)
            for k, line in enumerate(lines[:max(1, slot.rows)]):
                out.append(f'<text x="{slot.x:.0f}" y="{slot.y + 11 + k * 13:.0f}">{_esc(line)}</text>')
            return "".join(out)
        cw = slot.w / per
        maxc = max(6, int(cw // CHAR) - 1)
        for k, part in enumerate(parts):
            text = part if len(part) <= maxc else part[:maxc - 1] + "~"
            out.append(f'<text x="{slot.x + (k % per) * cw:.0f}" y="{slot.y + 10 + (k // per) * 14:.0f}">'
                       f'{_esc(text)}</text>')
        return "".join(out)

    def contents(self, picture: dict, caption: str = "") -> dict:
        """The markup of every slot for one view."""
        out = {}
        for slot in self.slots:
            pick = slot.pick
            if slot.kind == "header":
                round_ = picture.get("round")
                line = f"{self.game.round_name} {round_}" if round_ is not None else ""
                if picture.get("to_move"):
                    line += f" · {picture['to_move']} to act"
                result = picture.get("result")
                if result:
                    winners = result.get("winners") or []
                    totals = ", ".join(f"{p} {result['scores'][p]['total']}" for p in result.get("ranking", []))
                    line += f" · over: {'winner' if len(winners) == 1 else 'winners'} {', '.join(winners)} ({totals})"
                out[slot.id] = (f'<text class="sub" x="{slot.x}" y="{slot.y + 12}">{_esc(caption)}</text>'
                                f'<text class="sub" x="{slot.x}" y="{slot.y + 27}">{_esc(line)}</text>')
            elif slot.kind == "vars":
                _k, names, per = pick
                parts = [f"{k} = {_show(picture['vars'].get(k))}" for k in names]
                out[slot.id] = self._lines(slot, parts, per)
            elif slot.kind == "pvars":
                row = picture["players"][str(PLAYERS[pick[1]])]
                parts = [f"{k} {_show(v)}" for k, v in row.items()
                         if not isinstance(v, (list, dict)) and k not in self.internal_vars]
                me = "to act" if picture.get("to_move") == str(PLAYERS[pick[1]]) else ""
                out[slot.id] = self._lines(slot, parts + ([me] if me else []))
            elif slot.kind == "regions":
                out[slot.id] = self._outlines(picture, pick)
            elif pick[0] == "cell":
                out[slot.id] = self._draw_items(slot, self._cell_items(picture, pick), picture.get("items"))
            else:
                pawns = self._pawns(picture, pick[1], pick[2]) if pick[0] == "family" else ()
                out[slot.id] = self._draw_items(slot, _pick(picture, pick), picture.get("items"), pawns)
        return out

    def _own(self, slot: Slot) -> bool:
        return self.viewer is not None and slot.pick is not None and slot.pick[0] == "player" \
            and slot.pick[2] == self.viewer

    def svg(self, contents: dict, standalone: bool = True) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height:.0f}" '
                f'viewBox="0 0 {self.width} {self.height:.0f}">')
        parts = [head, f"<style>{STYLE}</style>",
                 f'<rect width="{self.width}" height="{self.height:.0f}" fill="#efe9dc"/>']
        parts.extend(self.static)
        for slot in self.slots:
            held = _slot_zone(slot.pick)     # whose items the slot draws: what a reader of the SVG looks for
            attr = f' data-items="{_esc(held)}"' if held else ""
            parts.append(f'<g id="{slot.id}" class="slot"{attr}>{contents.get(slot.id, "")}</g>')
        parts.append("</svg>")
        text = "\n".join(parts)
        if standalone:
            text = '<?xml version="1.0" encoding="UTF-8"?>\n' + text + "\n"
        return text


def _slot_zone(pick) -> str | None:
    """The zone (as views name it: `p1.wall[a1]`) whose items a slot draws, or None."""
    if not pick or pick[0] not in ("zone", "family", "player"):
        return None
    if pick[0] == "zone":
        return str(pick[1])
    if pick[0] == "family":
        return f"{pick[1]}[{pick[2]}]"
    return f"{PLAYERS[pick[2]]}.{pick[1]}" + (f"[{pick[3]}]" if len(pick) > 3 else "")


def view_regions(value: dict) -> list[list[str]]:
    """The connected groups of a board's cells (``value``: cell -> what groups it), as the
    built-in ``regions`` finds them on a state: neighbours across an edge with the same value,
    each group in the board's order (row by row), the groups in the order of their first cells."""
    order = sorted(value, key=lambda c: boards.place(c)[::-1])
    seen: set = set()
    groups = []
    for cell in order:
        if cell in seen:
            continue
        group, todo = [], [cell]
        seen.add(cell)
        while todo:
            here = todo.pop()
            group.append(here)
            col, row = boards.place(here)
            for near in (cell_name(col, row - 1), cell_name(col - 1, row), cell_name(col + 1, row),
                         cell_name(col, row + 1)):
                if near in value and near not in seen and value[near] == value[cell]:
                    seen.add(near)
                    todo.append(near)
        groups.append(sorted(group, key=lambda c: boards.place(c)[::-1]))
    return groups


def region_props(game) -> dict:
    """Board name -> the property its outlined regions group by: the one the content's
    ``regions(board, "P")`` calls name for that board (``p.land`` is board ``land``), as the
    compiler found them; a call on something else (a function's parameter) counts for every
    board. A board with no such property, or with several, is left out: its regions group by
    item kind."""
    named = game.program.props_named.get("regions", {})
    declared = set(game.board.families) | set(game.board.pzones)
    loose = {prop for board, props in named.items() if board not in declared for prop in props}
    out = {}
    for board in declared:
        props = named.get(board) or loose
        if len(props) == 1:
            out[board] = next(iter(props))
    return out


def _common(colours: set, default):
    """The one colour all members of a group share, else ``default``."""
    return next(iter(colours)) if len(colours) == 1 else default


def internal_zones(game) -> set:
    """Zones (global or player) the content declares ``internal: true``."""
    return _internal(game, "zones")


def internal_vars(game) -> set:
    """Variables (global or player) the content declares ``internal: true``: the rules'
    bookkeeping (`level_rewarded`, `chain_owner`), not what a player looks at on the table."""
    return _internal(game, "vars")


def _internal(game, section: str) -> set:
    player = game.data.get("player") or {}
    return {name for part in (game.data.get(section), player.get(section)) for name, spec in (part or {}).items()
            if isinstance(spec, dict) and spec.get("internal") is True}


def _template(text: str, props: dict) -> str:
    """``"{company} {n}"`` filled from an item's properties (unknown fields stay as written)."""
    return re.sub(r"\{(\w+)\}", lambda m: fmt(props[m.group(1)]) if m.group(1) in props else m.group(0), text)


def _tooltip(ident: str, states: dict | None) -> str:
    """An item's id and its visible state, for the chip's tooltip."""
    state = (states or {}).get(ident)
    if not state:
        return ident
    return ident + "\n" + ", ".join(f"{k} {_show(v)}" for k, v in state.items())


def _dark(colour: str) -> bool:
    """Whether a #rgb / #rrggbb colour needs light text on it."""
    c = colour.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return False
    return 0.299 * r + 0.587 * g + 0.114 * b < 128


_show = show_value


def _pick(picture: dict, pick):
    kind = pick[0]
    if kind == "zone":
        return picture["zones"].get(pick[1])
    if kind == "family":
        return (picture["zones"].get(pick[1]) or {}).get(pick[2])
    if kind == "player":
        content = picture["players"][str(PLAYERS[pick[2]])].get(pick[1])
        return (content or {}).get(pick[3]) if len(pick) > 3 else content    # a space of a player's family
    return None


def _spaces(zone) -> list:
    """The spaces of a player's family drawn one box each (their keys as they print); [None]
    for a plain zone."""
    return [fmt(k) for k in zone.zones] if zone.__class__ is Family else [None]


# -- states of a log -------------------------------------------------------------------
def replay(path: str, force: bool = False):
    """The game, the log and a fresh state at step 0 of a log or script, plus the
    actions to apply (the script is checked by running it once)."""
    from ..testing.script import pins_from, run_script
    result = run_script(path, force=force)
    log = result.log
    game = result.state.game
    position = game.compile_script(log["position"]) if log.get("position") is not None else None
    start = api.new_game(game, result.state.n, int(log.get("seed", 0)), pins_from(log.get("pins")),
                         position=position)
    return game, log, start, list(log["actions"])


def _viewer_seat(viewer, n: int) -> int | None:
    if viewer is None:
        return None
    raw = str(viewer).lower().lstrip("p")
    if not raw.isdigit() or not 1 <= int(raw) <= n:
        raise UsageError(f"--as takes a player p1..p{n}, not `{viewer}`")
    return int(raw) - 1


def render_svg(state, viewer: int | None = None, full: bool = False, caption: str = "") -> str:
    """An SVG picture of ``state`` as ``viewer`` (a seat, or None for a spectator) sees it."""
    r = Renderer(state.game, state.n, viewer)
    return r.svg(r.contents(view(state, viewer, full=full), caption))


def render_html(game, start, actions, viewer: int | None = None, full: bool = False, at: int = 0) -> str:
    """A self-contained HTML replay viewer of a game, one frame per action."""
    r = Renderer(game, start.n, viewer)
    total = len(actions)
    deltas, captions = [], []
    previous: dict = {}
    first = None
    for step, s, _who, told in told_steps(start, actions, viewer, full):
        caption = _caption(step, total, told)
        now = r.contents(view(s, viewer, full=full), caption)
        if first is None:
            first = now
        deltas.append({k: v for k, v in now.items() if previous.get(k) != v})
        captions.append(caption)
        previous = now
    data = json.dumps({"captions": captions, "deltas": deltas, "start": at}, separators=(",", ":"))
    data = data.replace("</", "<\\/")
    who = "spectator" if viewer is None and not full else "everything" if full else f"as {PLAYERS[viewer]}"
    return VIEWER.format(title=_esc(f"{r.title}: replay"), svg=r.svg(first, standalone=False), data=data,
                         total=total, who=_esc(who))


VIEWER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body{{margin:0;background:#e4ddcc;font-family:system-ui,sans-serif}}
#bar{{position:sticky;top:0;background:#2b2620;color:#f4efe4;padding:6px 12px;display:flex;gap:8px;
align-items:center;z-index:1}}
#bar button{{font-size:14px;min-width:34px}}
#slider{{flex:1}}
#caption{{min-width:22em;font-family:monospace}}
#board{{padding:8px}}
</style></head>
<body>
<div id="bar"><button id="first" title="start (Home)">|&lt;</button><button id="prev" title="back (Left)">&lt;</button>
<button id="play" title="play/pause (Space)">play</button><button id="next" title="forward (Right)">&gt;</button>
<button id="last" title="end (End)">&gt;|</button><input id="slider" type="range" min="0" max="{total}" value="0">
<span id="caption"></span><span>({who})</span></div>
<div id="board">{svg}</div>
<script id="frames" type="application/json">{data}</script>
<script>
(function () {{
  const data = JSON.parse(document.getElementById("frames").textContent);
  const frames = [];
  let acc = {{}};
  for (const d of data.deltas) {{ acc = Object.assign({{}}, acc, d); frames.push(acc); }}
  const shown = Object.assign({{}}, frames[0]);
  const slider = document.getElementById("slider"), caption = document.getElementById("caption");
  let step = 0, timer = null;
  function go(k) {{
    step = Math.max(0, Math.min(frames.length - 1, k | 0));
    const f = frames[step];
    for (const id in f) {{
      if (shown[id] !== f[id]) {{ document.getElementById(id).innerHTML = f[id]; shown[id] = f[id]; }}
    }}
    slider.value = step;
    caption.textContent = data.captions[step];
    document.title = data.captions[step];
    if (history.replaceState) history.replaceState(null, "", "#step=" + step);
  }}
  function toggle() {{
    if (timer) {{ clearInterval(timer); timer = null; document.getElementById("play").textContent = "play"; return; }}
    document.getElementById("play").textContent = "pause";
    timer = setInterval(function () {{ if (step >= frames.length - 1) toggle(); else go(step + 1); }}, 400);
  }}
  document.getElementById("first").onclick = function () {{ go(0); }};
  document.getElementById("prev").onclick = function () {{ go(step - 1); }};
  document.getElementById("next").onclick = function () {{ go(step + 1); }};
  document.getElementById("last").onclick = function () {{ go(frames.length - 1); }};
  document.getElementById("play").onclick = toggle;
  slider.oninput = function () {{ go(+slider.value); }};
  document.addEventListener("keydown", function (e) {{
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(frames.length - 1);
    else if (e.key === " ") {{ e.preventDefault(); toggle(); }}
    else return;
  }});
  const m = /step=(\\d+)/.exec(location.hash);
  go(m ? +m[1] : data.start);
}})();
</script>
</body></html>
"""


def cmd_render(args) -> int:
    out = args.out
    ext = os.path.splitext(out)[1].lower()
    if ext not in (".svg", ".html", ".htm"):
        raise UsageError(f"the output must end in .svg or .html, not `{out}`")
    if not os.path.lexists(args.log) or os.path.isdir(args.log):     # the reader refuses a pipe or a device
        raise UsageError(f"no such log or script `{args.log}`")
    game, _log, start, actions = replay(args.log, force=args.force)
    viewer = _viewer_seat(args.viewer, start.n)
    total = len(actions)
    at = total if args.at is None and ext == ".svg" else (args.at or 0)
    if at < 0:
        at += total
    if not 0 <= at <= total:
        raise UsageError(f"--at {args.at} is outside the log's 0..{total} steps")
    if ext == ".svg":
        told = last_told(start, actions[:at], viewer, args.full)       # plays the actions on `start` itself
        text = render_svg(start, viewer, args.full, _caption(at, total, told))
    else:
        text = render_html(game, start, actions, viewer, args.full, at)
    write_text(out, text)
    if ext == ".svg":
        print(f"wrote {out}: the state after step {at} of {total}")
    else:
        print(f"wrote {out}: a replay viewer of steps 0..{total}, opening at step {at}")
    return EXIT_OK
