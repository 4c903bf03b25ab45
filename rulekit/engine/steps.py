# SPDX-License-Identifier: MIT
"""One decision applied: the step every way of playing takes (``api.apply``, a bot's own copy,
a move in steps, engine/moves.py), below both so neither imports the other."""
from __future__ import annotations

from ..errors import ContentRuntimeError
from . import vm
from .state import PLAYERS, Decision, State


def apply_index(s: State, index: int, atomic: bool = True, step_limit: int = vm.DEFAULT_STEP_LIMIT) -> None:
    """Apply the legal action at ``index`` of ``legal_actions(s)`` (fast path for bots)."""
    if not atomic and not s.record:     # a bot's own copy: nothing to undo, no notation
        s.actions.append(index)
        f = s.frames[-1]                # vm.resume written out (every random game's every decision)
        f.chosen = choice = s.pending.choices[index]
        f.pc = choice[0]
        s.pending = None
        vm.run(s, step_limit)
        return
    backup = history = None
    if atomic:
        backup, history = s.checkpoint(), (len(s.events), len(s.actions))
    if s.record:
        decision = s.pending
        label = decision.label(index)
        s.actions.append(label if decision.__class__ is Decision else f"{PLAYERS[decision.player]}: {label}")
        s.events.append(("action", str(PLAYERS[decision.player]), label))
    else:
        s.actions.append(index)     # notation costs time: a game played without a record keeps option indices
    try:
        vm.resume(s, index, step_limit)
    except ContentRuntimeError:
        if backup is not None:
            s.restore(backup)
            del s.events[history[0]:], s.actions[history[1]:]   # shared with the checkpoint: cut back
        raise
