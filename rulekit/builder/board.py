# SPDX-License-Identifier: MIT
"""Where items lie (`zones:`, `player.zones:`) as :class:`Board`: global zones, families (`keys:`,
`range:`, `grid:`, `graph:`) and player zones, with their visibility and capacity; what a hidden
zone is dealt from (`dealt_from:`) is compiled with the rest of the texts (:func:`dealt_from`)."""
from __future__ import annotations

from ..codes import FAMILY_SIZE, UNKNOWN_SET
from ..dsl.compiler import Compiler, Vocabulary
from ..dsl.texts import located, scope
from ..engine import graphs
from ..engine.state import PLAYERS, Family, ZoneKey, grid_cells
from ..errors import suggestion_help
from ..limits import MAX_ZONES
from .context import Budget, Context
from .records import Board

VISIBILITY = ("public", "owner", "hidden", "face_up")


def board(ctx: Context, vocab: Vocabulary, sets: dict) -> Board:
    """Global zones, families (`keys:`, `range:`) and player zones; what a zone is dealt
    from is compiled with the rest of the texts (:func:`dealt_from`)."""
    return _Zones(ctx, sets, vocab.members).board(vocab)


def dealt_from(ctx: Context, compiler: Compiler) -> dict:
    """``dealt_from:`` of each zone declaring it (global or player): what an observer knows
    the zone holds, for the search bots' imagined deals (engine/determinize.py)."""
    out = {}
    d = ctx.data
    for section, zones in (("zones", d.get("zones") or {}), ("player", (d.get("player") or {}).get("zones") or {})):
        for name, spec in zones.items():
            if not isinstance(spec, dict) or "dealt_from" not in spec:
                continue
            path = ("zones", name, "dealt_from") if section == "zones" else ("player", "zones", name, "dealt_from")
            body = ctx.parse(path, "expr")
            if body is not None:
                out[name] = (located(compiler.expr(body, scope({"p"})), body.span, f"`dealt_from` of `{name}`"),
                             body.span)
    return out


class _Zones:
    """The zones of one game as they are declared, with what declaring them finds out: the
    parameter that sizes a family (`range:`), a family's map (`graph:`) and the zones left to
    the game (``MAX_ZONES`` in all families)."""

    def __init__(self, ctx: Context, sets: dict, members: dict):
        self.ctx = ctx
        self.sets = sets
        self.members = members                # set member -> its properties (what a map is made of)
        self.bounds: dict[str, str] = {}      # family -> the parameter that sizes it (`range:`)
        self.graphs: dict = {}                # family -> its map (`graph:`, engine/graphs.Graph)
        self.budget = Budget(MAX_ZONES, "zones in families")

    def board(self, vocab: Vocabulary) -> Board:
        zones = {"box": ZoneKey("box")}
        zone_vis = {"box": "hidden"}
        families: dict[str, Family] = {}
        capacity: dict[str, int] = {}
        data = self.ctx.data
        for name, spec in (data.get("zones") or {}).items():
            spec = spec or {}
            zone_vis[name] = spec.get("visibility", "public")
            if "capacity" in spec:
                capacity[name] = spec["capacity"]
            keys = self._zone_keys(name, spec)
            if keys is None:
                zones[name] = ZoneKey(name, capacity=capacity.get(name))
            else:
                families[name] = Family(name, keys, capacity.get(name), grid=_grid(spec), bound=self.bounds.get(name),
                                        graph=self.graphs.get(name))
        pzones: dict[str, tuple] = {}
        for name, spec in ((data.get("player") or {}).get("zones") or {}).items():
            spec = spec or {}
            zone_vis[name] = spec.get("visibility", "public")
            if "capacity" in spec:
                capacity[name] = spec["capacity"]
            keys = self._zone_keys(name, spec, ("player", "zones", name), self._seats())
            if keys is None:
                pzones[name] = tuple(ZoneKey(name, i, capacity=capacity.get(name)) for i in range(len(PLAYERS)))
            else:       # a family of each player's own: one per seat a game may have
                pzones[name] = tuple(Family(name, keys, capacity.get(name), i, _grid(spec), self.bounds.get(name),
                                            self.graphs.get(name))
                                     for i in range(self._seats()))
        vocab.zones = zones
        vocab.families = families
        vocab.pzones = pzones
        return Board(zones, zone_vis, families, pzones, capacity, dealt_from={})

    def _zone_keys(self, name: str, spec: dict, path: tuple | None = None, copies: int = 1):
        """The keys of a family (`keys:` or `range:`), or None for a single zone; ``path`` is
        where the zone is declared, ``copies`` how many families it makes (one per seat of a
        player's own)."""
        path = path or ("zones", name)
        sets = self.sets
        if "keys" in spec:
            keys = spec["keys"]
            if isinstance(keys, str):
                if keys not in sets:
                    self.ctx.error(UNKNOWN_SET, f"unknown set `{keys}`", (*path, "keys"),
                                   help=suggestion_help(keys, sets))
                    return []
                keys = sets[keys]
            if not self.budget.spend(self.ctx, len(keys) * copies, (*path, "keys"),
                                     f"`{name}` makes {len(keys) * copies} zones"):
                return []
            return list(keys)
        if "graph" in spec:
            return self._graph_keys(name, spec["graph"], path, copies)
        if "grid" in spec:
            cols, rows = _grid(spec)
            if not self.budget.spend(self.ctx, cols * rows * copies, (*path, "grid"),
                                     f"`{name}` makes {cols * rows * copies} zones"):
                return []
            return grid_cells(cols, rows)
        if "range" in spec:
            low, high = spec["range"]
            if high.__class__ is str:
                high = self._family_bound(name, high, (*path, "range"))
            size = max(high - low + 1, 0)
            if not self.budget.spend(self.ctx, size * copies, (*path, "range"),
                                     f"`{name}` makes {size * copies} zones"):
                return []
            return list(range(low, high + 1))
        return None

    def _graph_keys(self, name: str, spec: dict, path: tuple, copies: int) -> list:
        """A map's spaces, its nodes then its edges (the members of two sets); what is wrong with
        it is reported on the member's line (graphs.build says what)."""
        found = []
        for part in ("nodes", "edges"):
            if spec[part] not in self.sets:
                self.ctx.error(UNKNOWN_SET, f"unknown set `{spec[part]}`", (*path, "graph", part),
                               help=suggestion_help(spec[part], self.sets))
                return []
            found.append(self.sets[spec[part]])
        nodes, edges = found
        graph, problems = graphs.build(nodes, edges, self.members, spec.get("owner"))
        for code, message, member, prop, hint in problems:
            where = ("sets", spec["edges" if member in edges else "nodes"], member)
            self.ctx.error(code, message, (*where, prop) if prop else where, help=hint, key=not prop)
        size = len(graph.nodes) + len(graph.edges)
        if not self.budget.spend(self.ctx, size * copies, (*path, "graph"), f"`{name}` makes {size * copies} zones"):
            return []
        self.graphs[name] = graph
        return list(graph.nodes) + list(graph.edges)

    def _family_bound(self, name: str, param: str, path: tuple) -> int:
        """The most keys a family sized by ``param`` may have: the parameter's value, or the
        `max:` of one computed when a game starts (the family holds the zones of its largest game)."""
        params = self.ctx.data.get("params") or {}
        spec = params.get(param)
        if param not in params:
            self.ctx.error(FAMILY_SIZE, f"`{name}` is sized by `{param}`, which is no parameter", path,
                           help=suggestion_help(param, params)
                           or "name a parameter under `params:` (or write a number)")
            return 0
        if not isinstance(spec, dict):
            spec = {"value": spec}
        value = spec.get("max") if "expr" in spec else spec.get("value")
        if value.__class__ is not int:
            self.ctx.error(FAMILY_SIZE, f"`{name}` is sized by `{param}`, " + (
                "which is computed when a game starts and declares no `max:`" if "expr" in spec
                else "which holds no whole number"), path,
                help=f"give `{param}` a `max:`: the most zones `{name}` can have" if "expr" in spec else None)
            return 0
        self.bounds[name] = param
        return value

    def _seats(self) -> int:
        """The most players the game declares (within the seats a game may have)."""
        most = (self.ctx.data.get("players") or {}).get("max", 8)
        return min(most, len(PLAYERS)) if most.__class__ is int else len(PLAYERS)


def _grid(spec: dict) -> tuple | None:
    """(columns, rows) of a zone declared as a board (`grid: {cols, rows}`), else None."""
    grid = spec.get("grid")
    return (int(grid["cols"]), int(grid["rows"])) if isinstance(grid, dict) else None
