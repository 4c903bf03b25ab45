# SPDX-License-Identifier: MIT
"""The ``greedy`` bot: a short lookahead on the content's estimate, on a redeterminised copy."""
from __future__ import annotations

from ..engine import api, rng
from ..engine.determinize import deal_plan, determinize
from ..engine.simultaneous import Simultaneous
from ..errors import ContentRuntimeError
from .evaluation import _estimates, _lookahead
from .worlds import WORLD_ATTEMPTS, _impossible, _shared_failure


class GreedyAgent:
    """One-step lookahead on the content's ``estimate`` (my estimate minus the best
    opponent's), on a redeterminised copy; ties broken at random.

    A "step" is the player's whole move: when an action leaves the same player to
    decide again (a play of several cards, a choice inside an action), the lookahead
    follows that player's best next decisions, up to ``follow`` of them, before it
    judges, so a first step that only pays off in the second is not overlooked.

    The redeterminised copy may be a world the content cannot play (free redealing gave
    a player cards the rules never deal them): when any option fails there with a content
    error, the world is discarded (counted in ``discarded``) and another one sampled; after
    :data:`WORLD_ATTEMPTS` worlds the options that still fail are judged worst. A position is
    judged by its estimate alone: its options are listed only if the lookahead goes on from it
    (``State.list_later``), so a world fails on the way to a position, never in the options
    of the next player there, which greedy never reads.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, follow: int = 2):
        self.state = rng.stream_seed(seed, "agent")
        self.follow = follow
        self.discarded = 0      # imagined worlds thrown away for a content error

    def choose(self, s) -> int:
        count = len(s.pending.choices)
        if count == 1:
            return 0
        me = s.pending.player
        plan = deal_plan(s, me)
        for attempt in range(WORLD_ATTEMPTS):
            base, self.state = determinize(s, me, self.state, plan)
            values = self._values(s, base, me, count, attempt == WORLD_ATTEMPTS - 1)
            if values is not None:
                break
        if all(value is None for value in values):
            self.state, index = rng.below(self.state, count)
            return index
        best, best_index, ties = None, 0, 0
        for index, value in enumerate(values):
            if value is None:
                continue
            if best is None or value > best:
                best, best_index, ties = value, index, 1
            elif value == best:
                ties += 1
                self.state, pick = rng.below(self.state, ties)
                if pick == 0:
                    best_index = index
        return best_index

    def _values(self, s, base, me: int, count: int, last: bool) -> list | None:
        """Each option's lookahead value in the world ``base`` (used up: its last option is played
        on it); None if an option fails there (the world is discarded), or on the ``last`` attempt
        None for each failing option (unless it fails in the real game too: then that error is raised)."""
        values: list = []
        try:
            _estimates.worked_out(base)    # the tallies it builds in the world serve every trial
        except ContentRuntimeError:
            pass                # each trial meets the failure below, where it is judged
        for index in range(count):
            trial = base.clone() if index < count - 1 else base    # the world's last use: no copy
            trial.record = False
            trial.list_later = True     # most trials are only judged: options listed when looked at
            try:
                values.append(self._judge(trial, index, me))
            except ContentRuntimeError as exc:
                if not _impossible(exc):
                    raise
                if not last:
                    self.discarded += 1
                    return None
                _shared_failure(s, lambda real, index=index: self._judge(real, index, me))
                values.append(None)
        if last and None in values:
            self.discarded += 1
        return values

    def _judge(self, trial, index: int, me: int) -> float:
        api.apply_index(trial, index, atomic=False)
        if trial.pending.__class__ is Simultaneous:
            self.state = _others_decide(trial, me, self.state)
        return _lookahead(trial, me, self.follow)


def _others_decide(trial, me: int, state: int) -> int:
    """After my pick in a simultaneous decision (``choose_all``), the others' picks are unknown
    (the imagined world forgot them): they pick at random there, so the decision's outcome, not
    only my half of it, is judged. Returns the random stream's state."""
    sim = trial.pending.sim
    while trial.pending is not None and getattr(trial.pending, "sim", None) is sim and me not in trial.pending.players:
        state, index = rng.below(state, len(trial.pending.choices))
        api.apply_index(trial, index, atomic=False)
    return state
