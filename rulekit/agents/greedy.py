# SPDX-License-Identifier: MIT
"""The ``greedy`` bot: a short lookahead on the content's estimate, on a redeterminised copy."""
from __future__ import annotations

from ..codes import MOVE_TOO_BIG
from ..engine import api, moves, rng
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

    Where the content marks a move made in steps (``move: whole``: "claim a target, then pay
    for it"), the one step judged is the whole move: every complete move is played out and
    judged at its end (engine/moves.py), then ``follow`` more of my own decisions as ever.
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
        if moves.anchor(s) is not None:
            return self._choose_move(s)
        me = s.pending.player
        plan = deal_plan(s, me)
        for attempt in range(WORLD_ATTEMPTS):
            base, self.state = determinize(s, me, self.state, plan)
            values = self._values(s, base, me, count, attempt == WORLD_ATTEMPTS - 1)
            if values is not None:
                break
        return self._best(values)

    def _best(self, values: list) -> int:
        """The index of the best value (None: an option that failed), ties broken at random;
        at random among all when every option failed."""
        if all(value is None for value in values):
            self.state, index = rng.below(self.state, len(values))
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

    def _choose_move(self, s) -> int:
        """A decision that is a step of a move (a procedure marked ``move: whole``): every
        complete move from here is played out in the imagined world and judged at its end (then
        ``follow`` more of my own decisions, as any option), and the first step of the best one
        is taken; at the next step the rest of the move is judged again, the same way."""
        me = s.pending.player
        plan = deal_plan(s, me)
        for attempt in range(WORLD_ATTEMPTS):
            base, self.state = determinize(s, me, self.state, plan)
            judged = self._move_values(s, base, me, attempt == WORLD_ATTEMPTS - 1)
            if judged is not None:
                break
        listed, values = judged
        if not listed:         # the world's moves could not be listed: a step at random
            self.state, index = rng.below(self.state, len(s.pending.choices))
            return index
        return listed[self._best(values)].steps[0]

    def _move_values(self, s, base, me: int, last: bool) -> tuple | None:
        """(the complete moves in the world ``base``, each one's value), as :meth:`_values`
        judges options: None if the world fails (discarded), or on the ``last`` attempt None
        for each failing move (the real game's own failure is raised)."""
        base.record = False
        try:
            listed = moves.expand(base, labels=False, keep=True)
        except ContentRuntimeError as exc:
            if not _impossible(exc) or exc.code == MOVE_TOO_BIG:
                raise
            self.discarded += 1
            if not last:
                return None
            _shared_failure(s, lambda real: moves.expand(real, labels=False))
            return [], []

        def judge(k: int) -> float:
            end, listed[k].end = listed[k].end, None      # judged once: the position is not kept
            return self._judge_end(end, me)
        values = self._each(s, len(listed), judge, lambda real, k: self._replay(real, listed[k].steps, me), last)
        return None if values is None else (listed, values)

    def _replay(self, real, steps: tuple, me: int) -> float:
        for index in steps:
            api.apply_index(real, index, atomic=False)
        return self._judge_end(real, me)

    def _values(self, s, base, me: int, count: int, last: bool) -> list | None:
        """Each option's lookahead value in the world ``base`` (used up: its last option is played
        on it); None if an option fails there (the world is discarded), or on the ``last`` attempt
        None for each failing option (unless it fails in the real game too: then that error is raised)."""
        try:
            _estimates.worked_out(base)    # the tallies it builds in the world serve every trial
        except ContentRuntimeError:
            pass                # each trial meets the failure below, where it is judged

        def judge(index: int) -> float:
            trial = base.clone() if index < count - 1 else base    # the world's last use: no copy
            trial.record = False
            trial.list_later = True     # most trials are only judged: options listed when looked at
            return self._judge(trial, index, me)
        return self._each(s, count, judge, lambda real, index: self._judge(real, index, me), last)

    def _each(self, s, count: int, judge, probe, last: bool) -> list | None:
        """``judge(k)`` of each of ``count`` candidates; None if one fails with a content error
        (the world is discarded), or on the ``last`` attempt None for each failing one, unless
        ``probe(real, k)`` fails on a copy of the real game ``s`` too: then that error is raised."""
        values: list = []
        for k in range(count):
            try:
                values.append(judge(k))
            except ContentRuntimeError as exc:
                if not _impossible(exc):
                    raise
                if not last:
                    self.discarded += 1
                    return None
                _shared_failure(s, lambda real, k=k: probe(real, k))
                values.append(None)
        if last and None in values:
            self.discarded += 1
        return values

    def _judge(self, trial, index: int, me: int) -> float:
        api.apply_index(trial, index, atomic=False)
        return self._judge_end(trial, me)

    def _judge_end(self, trial, me: int) -> float:
        """The lookahead value of a position my choice reached (``trial``, used up)."""
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
