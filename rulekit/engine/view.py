# SPDX-License-Identifier: MIT
"""What a player may see, derived only from the visibility declared in content.

``view(state, player)`` is the single source of every per-player picture (the
terminal, observations for learning agents, transcripts); ``player=None`` is the
spectator's view, and ``full=True`` is the omniscient one for debugging and logs.
Zones declare ``public``, ``owner``, ``hidden`` (count only) or ``face_up`` (each
item shown only while its ``face_up`` state is true); variables ``public``,
``owner`` or ``hidden``.
"""
from __future__ import annotations

from .mutate import fmt
from .state import PLAYERS, State, ZoneKey

HIDDEN = "?"


def _jsonable(value):
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, ZoneKey):
        return value.text
    if value is None or isinstance(value, (bool, str)):
        return value
    if type(value) is int or isinstance(value, float):
        return value
    return fmt(value)


def _zone(s: State, key: ZoneKey, vis: str, viewer, owner, full: bool):
    items = s.zones[key]
    if full or vis == "public" or (vis == "owner" and viewer is not None and viewer == owner):
        return list(items)
    if vis == "face_up":
        return [i if s.iprops.get((i, "face_up"), s.game.prop_defaults.get("face_up")) else HIDDEN
                for i in items]
    return {"count": len(items)}


def view(s: State, player: int | None = None, full: bool = False) -> dict:
    """A JSON-ready picture of the state as ``player`` may see it."""
    game = s.game
    out: dict = {"round": s.g.get("round"), "over": s.over}
    out["vars"] = {k: _jsonable(s.g[k]) for k in game.gvars if k != "round" and
                   (full or game.gvis.get(k, "public") == "public")}
    zones = {}
    for name, key in game.zones.items():
        if name == "box":
            continue
        zones[name] = _zone(s, key, game.zone_vis[name], player, None, full)
    for name, fam in game.families.items():
        zones[name] = {fmt(k): _zone(s, key, game.zone_vis[name], player, None, full)
                       for k, key in fam.zones.items()}
    out["zones"] = zones
    players = {}
    for i in range(s.n):
        p = PLAYERS[i]
        row = {}
        for name in game.pvars:
            vis = game.pvis[name]
            if full or vis == "public" or (vis == "owner" and player == i):
                row[name] = _jsonable(s.p[i][name])
            else:
                row[name] = HIDDEN
        for name, keys in game.pzones.items():
            row[name] = _zone(s, keys[i], game.zone_vis[name], player, i, full)
        players[str(p)] = row
    out["players"] = players
    if s.pending is not None:
        out["to_move"] = str(PLAYERS[s.pending.player])
        if full or player == s.pending.player:
            out["legal"] = list(s.pending.labels)
    if s.result is not None:
        out["result"] = s.result
    return out


def item_props(s: State, item: str) -> dict:
    props = dict(s.game.items[item])
    for (ident, name), value in s.iprops.items():
        if ident == item:
            props[name] = value
    return props
