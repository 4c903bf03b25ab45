# SPDX-License-Identifier: MIT
"""A whole game state as JSON-ready data, and back.

Everything in a :class:`State` is data except three kinds of references, which are
written by name: players (``{"$p": 0}``), zones (``{"$z": "p1.hand"}``) and running
code (a frame names its procedure). The pending decision is not stored: loading
re-runs the ``choose`` the top frame stands on, which rebuilds it exactly. Caches
(memo, tallies) are never stored.
"""
from __future__ import annotations

from fractions import Fraction

from ..codes import BAD_SAVED_STATE
from ..errors import RulekitError
from . import memo
from .redact import plain
from .state import PLAYERS, Family, Frame, Player, State, ZoneKey, item_state_entries, keys_of

FORMAT = 3  # 3: program counters number the blocks of generated code (dsl/codegen.py)


class StateFormatError(RulekitError):
    code = BAD_SAVED_STATE


def _code_names(game) -> dict:
    names = {"$main": game.program.main}
    names.update(game.program.procedures)
    return names


def zone_index(game, n: int | None = None) -> dict:
    """Every zone of ``game`` by the text that names it (``deck``, ``route[3]``, ``p1.hand``),
    the players' own zones for ``n`` players (for every seat when None)."""
    index = {key.text: key for key in game.board.zones.values()}
    for fam in game.board.families.values():
        for key in fam.zones.values():
            index[key.text] = key
    for seats in game.board.pzones.values():
        for zone in seats[:n]:
            for key in keys_of(zone):
                index[key.text] = key
    return index


def _family_index(game) -> dict:
    """Every family of ``game`` by the text that names it (``route``, ``p1.land``)."""
    index = dict(game.board.families)
    for seats in game.board.pzones.values():
        index.update((zone.text, zone) for zone in seats if zone.__class__ is Family)
    return index


def _enc(value):
    if type(value) is Player:
        return {"$p": int(value)}
    if type(value) is ZoneKey:
        return {"$z": value.text}
    if type(value) is Family:
        return {"$f": value.text}
    if isinstance(value, tuple):
        return {"$t": [_enc(v) for v in value]}
    if isinstance(value, list):
        return [_enc(v) for v in value]
    if isinstance(value, dict):
        return {"$d": [[_enc(k), _enc(v)] for k, v in value.items()]}
    if type(value) is Fraction:
        return {"$q": [value.numerator, value.denominator]}
    return plain(value)         # a Marked text (engine/redact.py) is saved as its plain text


def _dec(value, zones, game):
    if isinstance(value, list):
        return [_dec(v, zones, game) for v in value]
    if isinstance(value, dict):
        if "$p" in value:
            return PLAYERS[value["$p"]]
        if "$z" in value:
            return zones[value["$z"]]
        if "$f" in value:
            return _family_index(game)[value["$f"]]
        if "$t" in value:
            return tuple(_dec(v, zones, game) for v in value["$t"])
        if "$d" in value:
            return {_dec(k, zones, game): _dec(v, zones, game) for k, v in value["$d"]}
        if "$q" in value:
            return Fraction(*value["$q"])
    return value


def to_dict(s: State) -> dict:
    """The state as plain JSON-ready data."""
    names = {id(code): name for name, code in _code_names(s.game).items()}
    frames = []
    for f in s.frames:
        if id(f.code) not in names:
            raise StateFormatError(f"cannot save a state while `{f.code.name}` runs (not part of the game)")
        frames.append({"code": names[id(f.code)], "pc": f.pc, "env": _enc(f.env), "ret": f.ret})
    return {
        "format": FORMAT,
        "game": s.game.name,
        "content_hash": s.game.content_hash,
        "players": s.n,
        "g": _enc(s.g),
        "p": [_enc(row) for row in s.p],
        "zones": {key.text: list(items) for key, items in s.zones.items()},
        "iprops": [[item, prop, _enc(value)] for item, prop, value in item_state_entries(s.iprops)],
        "rng": dict(s.rng),
        "frames": frames,
        "events": [_enc(list(e)) for e in s.events],
        "actions": [plain(a) for a in s.actions],
        "over": s.over,
        "result": s.result,
        "pins": {k: list(v) for k, v in (s.pins or {}).items()},
        "record": s.record,
        "steps": s.steps,
    }


def from_dict(game, data: dict) -> State:
    """Rebuild a state saved by :func:`to_dict` for the same game content."""
    if data.get("format") != FORMAT:
        raise StateFormatError(f"unknown state format {data.get('format')!r}")
    if data.get("content_hash") != game.content_hash:
        raise StateFormatError("the state was saved with different content "
                               f"({data.get('content_hash')}, now {game.content_hash})")
    n = data["players"]
    zones = zone_index(game, n)
    codes = _code_names(game)
    s = State.fresh(game, n)
    s.g = _dec(data["g"], zones, game)
    s.g = {k: v for k, v in s.g.items()} if isinstance(s.g, dict) else s.g
    s.p = [_dec(row, zones, game) for row in data["p"]]
    s.zones = {zones[text]: list(items) for text, items in data["zones"].items()}
    s.loc = {item: key for key, items in s.zones.items() for item in items}
    s.owned = set(s.zones)
    for item, prop, value in data["iprops"]:
        s.iprops.setdefault(prop, {})[item] = _dec(value, zones, game)
    s.rng = dict(data["rng"])
    s.frames = [Frame(codes[f["code"]], f["pc"], _dec(f["env"], zones, game), f["ret"]) for f in data["frames"]]
    s.pending = None
    s.events = [tuple(_dec(e, zones, game)) for e in data["events"]]
    s.actions = list(data["actions"])
    s.over = data["over"]
    s.result = data["result"]
    s.pins = {k: list(v) for k, v in data["pins"].items()}
    s.record = data["record"]
    s.steps = data["steps"]
    s.coarse = memo.holds_zone(s)
    if s.frames and not s.over:
        top = s.frames[-1]
        while not top.code.run(s, top) and s.pending is None:
            pass              # the choose it stands on rebuilds the pending decision (a choose_all lists by player)
    return s
