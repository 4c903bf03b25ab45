# SPDX-License-Identifier: MIT
"""How good a state is for each player, as the bots judge it: the content's ``estimate``
(remembered between states by :mod:`.estimates`) turned into ranks, margins and rewards, and
the lookahead that follows a player's own next decisions before judging."""
from __future__ import annotations

import math

from ..engine import api
from ..engine.state import PLAYERS
from .estimates import Estimates

_estimates = Estimates()   # the content's estimate of every player (a tuple), or None when the game declares none


def evaluate_all(s) -> list[float]:
    """How good a state is for each player, from 0 (worst) to 1 (best).

    A finished game scores by its result (a shared win shares the point); otherwise the
    content's ``estimate`` ranks the players (no estimate: every player 0.5).
    """
    if s.over:
        winners = s.result["winners"]
        return [1.0 / len(winners) if str(PLAYERS[q]) in winners else 0.0 for q in range(s.n)]
    values = _estimates(s) if s.n >= 2 else None
    if values is None:
        return [0.5] * s.n
    out = []
    for mine in values:     # below it, and level with it (itself not counted)
        below, equal = 0, -1
        for v in values:
            if v < mine:
                below += 1
            elif v == mine:
                equal += 1
        out.append((below + 0.5 * equal) / (s.n - 1))
    return out


def evaluate(s, player: int) -> float:
    """:func:`evaluate_all` for one player."""
    return evaluate_all(s)[player]


def _margin(s, player: int) -> float:
    """My estimate minus the best opponent's (finished games: a decisive margin)."""
    if s.over:
        return 1e6 * (evaluate(s, player) - 0.5)
    values = _estimates(s)
    if values is None:
        return 0.0
    others = [v for q, v in enumerate(values) if q != player]
    return values[player] - (max(others) if others else 0)


def _lookahead(s, me: int, depth: int) -> float:
    """My best margin after following my own next ``depth`` decisions (greedily). ``s`` is a
    trial of the caller's that is used up: its last option is played on it."""
    if depth <= 0 or s.over or s.pending.player != me:
        return _margin(s, me)
    best = None
    last = len(s.pending.choices) - 1
    for index in range(last + 1):
        if index < last:
            trial = s.clone()
            trial.record = False
        else:
            trial = s       # the caller's own trial, never looked at again: its last option needs no copy
        api.apply_index(trial, index, atomic=False)
        value = _margin(trial, me) if depth == 1 else _lookahead(trial, me, depth - 1)
        if best is None or value > best:
            best = value
    return best


def _scale(values: list) -> float:
    """How big a difference of estimates is, for squashing it by ``tanh``: 1 plus a tenth
    of the estimates' mean size."""
    return 1.0 + 0.1 * sum(abs(v) for v in values) / len(values)


def rewards(s) -> list[float]:
    """Each player's reward in 0..1 for search: a finished game's result, otherwise the
    player's estimate minus the best opponent's, squashed by ``tanh`` on the scale of the
    estimates themselves (with estimates around 20, a lead of 1 scores 0.66, of 3 scores 0.88)."""
    if s.over:
        return evaluate_all(s)
    values = _estimates(s) if s.n >= 2 else None
    if values is None:
        return [0.5] * s.n
    scale = _scale(values)
    out = []
    for q, mine in enumerate(values):
        best_other = max(v for k, v in enumerate(values) if k != q)
        out.append(0.5 + 0.5 * math.tanh((mine - best_other) / scale))
    return out
