# SPDX-License-Identifier: MIT
"""End-of-game scoring from the content's categories and tie-breaks."""
from __future__ import annotations

from fractions import Fraction

from ..codes import NO_ONE_ELIGIBLE
from ..errors import ContentRuntimeError
from .state import PLAYERS, State


def score(s: State) -> dict:
    """Per-player breakdown, totals, ranking and winners (ties share the win)."""
    game = s.game
    rows = {}
    keys = []
    for i in range(s.n):
        p = PLAYERS[i]
        env = {"p": p}
        breakdown = {cid: int(fn(s, env) or 0) for cid, _text, fn in game.scoring.categories}
        total = sum(breakdown.values())
        tiebreak = [fn(s, env) for fn in game.scoring.tiebreak]
        rows[str(p)] = {"breakdown": breakdown, "total": total, "tiebreak": [_plain(v) for v in tiebreak]}
        keys.append(((total, *tiebreak), p))
    if game.scoring.eligible is not None:
        keys = _eligible_first(s, keys, rows)
    keys.sort(key=lambda kv: kv[0], reverse=True)
    best = keys[0][0]
    winners = [str(p) for k, p in keys if k == best]
    ranking = [str(p) for _k, p in keys]
    return {"scores": rows, "ranking": ranking, "winners": winners}


def _eligible_first(s: State, keys: list, rows: dict) -> list:
    """``scoring.eligible``: a player who may not win ranks after all who may (their scores
    stay as they are, marked ``"eligible": false``); no one eligible is the content's error."""
    fn, span = s.game.scoring.eligible
    out = []
    for key, p in keys:
        may = bool(fn(s, {"p": p}))
        rows[str(p)]["eligible"] = may
        out.append(((may, *key), p))
    if not any(key[0] for key, _p in out):
        raise ContentRuntimeError("no player may win: `eligible` is false for everyone", span, NO_ONE_ELIGIBLE)
    return out


def _plain(value):
    """A tie-break value as the result keeps it (plain data for logs): a fraction, ranked
    exactly, is kept as a whole number when it is one, else as a decimal."""
    if value.__class__ is Fraction:
        return value.numerator if value.denominator == 1 else float(value)
    return value
