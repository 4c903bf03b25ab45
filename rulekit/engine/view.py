# SPDX-License-Identifier: MIT
"""What a player may see, derived only from the visibility declared in content.

``view(state, player)`` is the single source of every per-player picture (the
terminal, observations for learning agents, transcripts); ``player=None`` is the
spectator's view, and ``full=True`` is the omniscient one for debugging and logs.
Zones declare ``public``, ``owner``, ``hidden`` (count only) or ``face_up`` (each
item shown only while its ``face_up`` state is true); variables ``public``,
``owner`` or ``hidden``.

Item state (what components declare under ``state:``) follows its item: a view
lists the state of exactly the items it shows by name, so a hidden or face-down
item's state is as hidden as the item.

Texts (action labels, ``says`` and ``log`` texts, prompts, captions) are written once, for
the omniscient log; ``sight(state, player)`` is how every per-seat output reads them
(engine/redact.py): the items hidden from the seat are named by their kind only. The
legal actions a view lists are read so.
"""
from __future__ import annotations

import weakref

from .mutate import fmt
from .redact import Sight
from .state import PLAYERS, Decision, Family, State, ZoneKey

HIDDEN = "?"
_STATE_PROPS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _jsonable(value):
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, ZoneKey):
        return value.text
    if isinstance(value, dict):     # a mapping: its keys as they print (`p2`, `3`)
        return {fmt(k): _jsonable(v) for k, v in value.items()}
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
        face_up, default = s.iprops.get("face_up", {}), s.game.components.prop_defaults.get("face_up")
        return [i if face_up.get(i, default) else HIDDEN for i in items]
    return {"count": len(items)}


def view(s: State, player: int | None = None, full: bool = False) -> dict:
    """A JSON-ready picture of the state as ``player`` may see it."""
    game = s.game
    out: dict = {"round": s.g.get("round"), "over": s.over}
    out["vars"] = {k: _jsonable(s.g[k]) for k in game.variables.gvars if k != "round" and
                   (full or game.variables.gvis.get(k, "public") == "public")}
    zones = {}
    for name, key in game.board.zones.items():
        if name == "box":
            continue
        zones[name] = _zone(s, key, game.board.zone_vis[name], player, None, full)
    for name, fam in game.board.families.items():
        zones[name] = {fmt(key.key): _zone(s, key, game.board.zone_vis[name], player, None, full)
                       for key in fam.in_play(s)}
    out["zones"] = zones
    players = {}
    for i in range(s.n):
        p = PLAYERS[i]
        row = {}
        for name in game.variables.pvars:
            vis = game.variables.pvis[name]
            if full or vis == "public" or (vis == "owner" and player == i):
                row[name] = _jsonable(s.p[i][name])
            else:
                row[name] = HIDDEN
        for name, seats in game.board.pzones.items():
            zone, vis = seats[i], game.board.zone_vis[name]
            if zone.__class__ is Family:      # a family of the player's own: a picture per space
                row[name] = {fmt(key.key): _zone(s, key, vis, player, i, full) for key in zone.in_play(s)}
            else:
                row[name] = _zone(s, zone, vis, player, i, full)
        players[str(p)] = row
    out["players"] = players
    out["items"] = _item_states(s, zones, players, full)
    if s.pending is not None:
        _to_move(s, out, player, full)
    if s.result is not None:
        out["result"] = s.result
    return out


def sight(s: State, player: int | None = None, full: bool = False, before=None) -> Sight:
    """How ``player`` (None: a spectator) may read the texts of ``s``: ``sight(s, p).text(line)``.
    ``before``: the items hidden from the player before the action that led to ``s``
    (``redact.hidden_items`` of the earlier state), for a text about that action."""
    return Sight.of(s, player, full, before)


def _to_move(s: State, out: dict, player: int | None, full: bool) -> None:
    """Who is to move, and the viewer's own legal actions. In a simultaneous decision every
    player still to choose is listed (``deciding``), a viewer among them is the one to move
    and sees their own options; nobody sees what the others chose."""
    decision = s.pending
    deciding = decision.players
    if player is not None and player != decision.player and player in deciding:
        decision = decision.focus(player)
    out["to_move"] = str(PLAYERS[decision.player])
    if len(deciding) > 1 or decision.__class__ is not Decision:
        out["deciding"] = [str(PLAYERS[q]) for q in deciding]
    if full:
        out["legal"] = list(decision.labels)
    elif player == decision.player:
        out["legal"] = sight(s, player).labels(decision.labels)
    elif player is not None and decision.__class__ is not Decision:
        mine = decision.chosen(player)
        if mine is not None:
            out["chosen"] = mine


def state_props(game) -> dict:
    """Kind -> the state properties its components declare (``state:``), in order."""
    props = _STATE_PROPS.get(game)
    if props is None:
        props = {kind: tuple(spec["state"]) for kind, spec in (game.data.get("components") or {}).items()
                 if isinstance(spec, dict) and spec.get("state")}
        _STATE_PROPS[game] = props
    return props


def _shown(content):
    """The item ids a zone's picture names (a family's members included)."""
    if isinstance(content, list):
        for ident in content:
            if ident != HIDDEN:
                yield ident
    elif isinstance(content, dict) and "count" not in content:
        for sub in content.values():
            yield from _shown(sub)


def _item_states(s: State, zones: dict, players: dict, full: bool) -> dict:
    """The state of every item this view shows by name (every item when ``full``)."""
    game = s.game
    kinds = state_props(game)
    if not kinds:
        return {}
    if full:
        idents = [i for kind in kinds for i in game.components.kinds[kind]]
    else:
        idents = [i for content in zones.values() for i in _shown(content)]
        idents += [i for row in players.values() for content in row.values() for i in _shown(content)]
    out = {}
    defaults = game.components.prop_defaults
    for ident in idents:
        props = kinds.get(game.components.item_kind.get(ident))
        if props:
            out[ident] = {name: _jsonable(s.iprops[name].get(ident, defaults.get(name))) for name in props}
    return out


def item_props(s: State, item: str) -> dict:
    props = dict(s.game.components.items[item])
    for name, table in s.iprops.items():
        if item in table:
            props[name] = table[item]
    return props
