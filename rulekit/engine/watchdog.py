# SPDX-License-Identifier: MIT
"""A bound on the work of one step: content that computes for minutes without reaching a
decision (a comprehension over a million times a million numbers) is stopped on its line.

The step limit of engine/vm.py counts statements and loop turns, but one statement can
hide unbounded work inside an expression, and counting every turn of every comprehension
would tax every game. Instead the command line arms a CPU-time timer (:func:`arm`); each
tick looks whether the VM has been inside the same run since the last ticks, and after
:data:`LIMIT_SECONDS` raises a content error there, which the VM puts on the statement
that was running. A run costs one counter increment at its start and one at its end.
"""
from __future__ import annotations

import signal
import threading

from ..codes import STEP_TOO_SLOW
from ..errors import ContentRuntimeError

LIMIT_SECONDS = 60
RUNS = [0]            # odd while the VM runs content: increased as a run starts and as it ends
_watch = {"seen": -1, "since": 0, "limit": LIMIT_SECONDS}


def arm(limit: int = LIMIT_SECONDS) -> bool:
    """Start watching this process (the main thread only); False where the platform cannot."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return False
    _watch.update(seen=-1, since=0, limit=limit)
    signal.signal(signal.SIGPROF, _tick)
    signal.setitimer(signal.ITIMER_PROF, 1.0, 1.0)
    return True


def disarm() -> None:
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)


def _tick(_signum, _frame) -> None:
    runs = RUNS[0]
    if runs % 2 == 0 or runs != _watch["seen"]:
        _watch.update(seen=runs, since=0)
        return
    _watch["since"] += 1
    if _watch["since"] >= _watch["limit"]:
        _watch.update(seen=-1, since=0)
        raise ContentRuntimeError(f"one step of the rules has computed for {_watch['limit']} s of CPU time without "
                                  "reaching a decision (a comprehension over too many values?)", None, STEP_TOO_SLOW)
