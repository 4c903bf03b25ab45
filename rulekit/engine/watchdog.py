# SPDX-License-Identifier: MIT
"""A bound on the work of one step: content that computes for minutes without reaching a
decision (a comprehension over a million times a million numbers) is stopped on its line.

The step limit of engine/vm.py counts statements and loop turns, but one statement can
hide unbounded work inside an expression, and counting every turn of every comprehension
would tax every game. Instead the command line arms a CPU-time timer (:func:`arm`); each
tick looks whether the VM has been inside the same run since the last ticks, and after
:data:`LIMIT_SECONDS` raises a content error there, which the VM puts on the statement
that was running. A run costs one counter increment at its start and one at its end. The same ticks bound how far
a run may grow the process's memory (limits.MAX_STEP_MEMORY): copies written inline by the
compiler (`keep = keep + [xs + []]` in a loop) are counted by nothing else.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading

from ..codes import STEP_BUILT_TOO_MUCH, STEP_TOO_SLOW
from ..errors import ContentRuntimeError
from ..limits import STEP_SECONDS as LIMIT_SECONDS
from .limits import MAX_STEP_MEMORY, RUNS  # RUNS: odd while the VM runs content (engine/vm.py)

TICKS = 4             # ticks a CPU second: a step growing memory fast is seen within a quarter second
_kept: list = []       # what SIGPROF had before each arm() not yet disarmed
_watch = {"seen": -1, "since": 0, "limit": LIMIT_SECONDS, "base": 0, "last": 0, "sticky": False, "fired": None}


def _limit_from_environment() -> int:
    text = os.environ.get("RULEKIT_STEP_SECONDS", "")
    return int(text) if text.isdigit() and 0 < int(text) <= 10 ** 6 else LIMIT_SECONDS


@contextlib.contextmanager
def first_stop_ends():
    """Within it, once a step is stopped by the watchdog every later step of this process is
    stopped at its first tick, and ``fired()`` gives the first error: for loops that go on past
    a content error (the probe games of the action cap), so that the bound is paid once."""
    _watch.update(sticky=True, fired=None)
    try:
        yield fired
    finally:
        _watch["sticky"] = False


def fired() -> ContentRuntimeError | None:
    """The first error the watchdog raised inside :func:`first_stop_ends`, if any."""
    return _watch["fired"]


def arm(limit: int | None = None) -> bool:
    """Start watching this process (the main thread only); False where the platform cannot. The
    bound is ``limit`` seconds, else RULEKIT_STEP_SECONDS (a whole number of at least 1), else
    LIMIT_SECONDS. What SIGPROF meant before is kept, and :func:`disarm` gives it back: rulekit run
    inside another program (a test runner, a profiler) leaves its signals as it found them."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return False
    _kept.append((signal.getsignal(signal.SIGPROF), signal.getitimer(signal.ITIMER_PROF)))
    _watch.update(seen=-1, since=0, limit=limit or _limit_from_environment(), last=resident(), fired=None)
    signal.signal(signal.SIGPROF, _tick)
    # other threads (a Ray or gRPC client's) share the process's signals: their system calls are
    # restarted rather than failed with EINTR, which some C++ clients take for a lost connection
    signal.siginterrupt(signal.SIGPROF, False)
    signal.setitimer(signal.ITIMER_PROF, 1.0 / TICKS, 1.0 / TICKS)
    return True


def disarm() -> None:
    """Stop watching, and give SIGPROF back what it had before :func:`arm`."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return
    handler, (delay, interval) = _kept.pop() if _kept else (signal.SIG_DFL, (0.0, 0.0))
    signal.setitimer(signal.ITIMER_PROF, 0, 0)
    signal.signal(signal.SIGPROF, handler if handler is not None else signal.SIG_DFL)
    if delay or interval:
        signal.setitimer(signal.ITIMER_PROF, delay, interval)


@contextlib.contextmanager
def paused():
    """No ticks within: for a driver whose own threads (Ray's) do the waiting while no content
    runs here, so that no signal reaches their system calls."""
    armed = _armed()
    if armed:
        disarm()
    try:
        yield
    finally:
        if armed:
            arm(_watch["limit"])


def _armed() -> bool:
    return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGPROF) is _tick)


def resident() -> int:
    """The process's resident memory in bytes (its peak where /proc is not there)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _tick(_signum, _frame) -> None:
    runs = RUNS[0]
    now = resident()
    if runs % 2 == 0 or runs != _watch["seen"]:
        # a new run: its growth is counted from before it began where the last tick saw that
        _watch.update(seen=runs, since=0, base=min(now, _watch["last"]), last=now)
        return
    _watch["last"] = now
    _watch["since"] += 1
    if _watch["sticky"] and _watch["fired"] is not None:
        _stop(ContentRuntimeError(str(_watch["fired"].args[0]), None, _watch["fired"].code))
    if now - _watch["base"] > MAX_STEP_MEMORY:
        _stop(ContentRuntimeError(f"one step of the rules grew this process's memory by more than "
                                  f"{MAX_STEP_MEMORY >> 20:,} MB without reaching a decision (a value copied in a "
                                  "loop and kept?)", None, STEP_BUILT_TOO_MUCH))
    if _watch["since"] >= _watch["limit"] * TICKS:
        _stop(ContentRuntimeError(f"one step of the rules has computed for {_watch['limit']} s of CPU time without "
                                  "reaching a decision (a comprehension over too many values?)", None, STEP_TOO_SLOW))


def _stop(error: ContentRuntimeError):
    _watch.update(seen=-1, since=0)
    if _watch["sticky"] and _watch["fired"] is None:
        _watch["fired"] = error         # the VM puts it on its line as it goes up (vm._located)
    raise error
