# SPDX-License-Identifier: MIT
"""A variant's tables and player counts, checked against the game it changes.

The game's own values are its types and bounds: a table the game writes as numbers stays numbers
(a variant's ``[0, "one", 3]`` is refused at the variant's own line, never at the rule that reads
it, in a game that may have played for an hour), a list a variant shortens may no longer hold an
entry the rules read (a warning), and the players a variant allows lie within the game's own
range (a game for 2-4 has components and rules for 2-4, not 5). Parameters and variables are
checked the same way by :mod:`typed`.
"""
from __future__ import annotations

from ..codes import PLAYERS_OUTSIDE_GAME, TABLE_SHORTENED, TABLE_VALUE_OF_WRONG_TYPE
from ..errors import Diagnostic
from .loader import SourceMap

_NOUNS = {"number": "numbers", "text": "texts", "bool": "true or false", "list": "lists", "mapping": "mappings"}
_ONE = {"number": "a number", "text": "a text", "bool": "a truth value", "list": "a list", "mapping": "a mapping",
        "none": "none"}


def check(data: dict, base: dict, smap: SourceMap, base_map: SourceMap) -> list[Diagnostic]:
    """Diagnostics for the merged content ``data`` whose tables or players stray from ``base``,
    the game's own (before variants)."""
    out = _players(data.get("players"), base.get("players"), smap, base_map)
    own = base.get("tables") if isinstance(base.get("tables"), dict) else {}
    for name, value in (data.get("tables") or {}).items() if isinstance(data.get("tables"), dict) else ():
        if name in own and value is not own[name]:
            out += _table(value, own[name], ("tables", name), smap, base_map, name)
    return out


def _shape(value) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "none" if value == "none" else "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return "none"


def _uniform(values) -> object:
    """An exemplar of ``values`` when they all have one shape (and are some), else None."""
    values = list(values)
    shapes = {_shape(v) for v in values}
    return values[0] if len(shapes) == 1 and "none" not in shapes else None


def _table(value, own, path: tuple, smap: SourceMap, base_map: SourceMap, name: str) -> list[Diagnostic]:
    """``value`` (at ``path``) against ``own``, the game's value there: the same shape, and the same
    inside (a list's elements as the game's all are, a mapping's values key by key)."""
    want, got = _shape(own), _shape(value)
    if want != got:
        if want == "none" or got == "none":
            return []
        return [Diagnostic(TABLE_VALUE_OF_WRONG_TYPE, f"table `{name}` holds {_NOUNS[want]} here; "
                           f"{_shown(value)} is {_ONE[got]}", smap.span(path),
                           related=(("the game's own value", base_map.span(path)),))]
    if want == "list":
        exemplar = _uniform(own)
        out = [d for i, v in enumerate(value) if exemplar is not None
               for d in _table(v, exemplar, path + (i,), smap, base_map, name)]
        if len(value) < len(own) and not out:
            out.append(Diagnostic(
                TABLE_SHORTENED, f"table `{name}` has {len(value)} entries where the game's own has {len(own)}: "
                f"a rule that reads entry {len(value)} or later fails when it is reached", smap.span(path),
                related=(("the game's own value", base_map.span(path)),), severity="warning",
                help="keep every entry the rules may read (the game's own length), changing their values"))
        return out
    if want == "mapping":
        exemplar = _uniform(own.values())
        return [d for key, v in value.items()
                if key in own or exemplar is not None
                for d in _table(v, own.get(key, exemplar), path + (key,), smap, base_map, name)]
    return []


def _players(players, own, smap: SourceMap, base_map: SourceMap) -> list[Diagnostic]:
    """The players a variant allows (min, max, default) within the game's own range."""
    if not isinstance(players, dict) or not isinstance(own, dict) or players is own:
        return []
    low, high = own.get("min", 1), own.get("max", 8)
    if not all(isinstance(b, int) and not isinstance(b, bool) for b in (low, high)):
        return []
    out = []
    for key in ("min", "max", "default"):
        value = players.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high \
                and value != own.get(key):
            out.append(Diagnostic(
                PLAYERS_OUTSIDE_GAME, f"`players.{key}` is {value}, outside the game's own {low}-{high} players",
                smap.span(("players", key)), related=(("the game's own range", base_map.span(("players",))),),
                help=f"a variant plays the game with {low} to {high} players: choose {key} within them"))
    return out


def _shown(value) -> str:
    text = f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else repr(value)
    return f"`{text[:40]}`"
