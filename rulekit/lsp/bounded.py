# SPDX-License-Identifier: MIT
"""Running a script for the editor under a time and a memory bound, and dropping it at the next edit.

A script runs the game's rules: its ``position:`` or its steps may compute without end or build
values without end, and the language server must go on answering. So a script is played in a
child process (``python -m rulekit.lsp.child``), never in one of the server's threads: its
memory is capped (``RLIMIT_AS``), its steps are bounded by the engine's watchdog (a step stopped
on its line, RK4016 or RK4024, as the command line does), and past :data:`SECONDS` of wall-clock
time, or as soon as ``stale()`` says an edit came, it is killed.

A child that answered is kept for the next request (warm: rulekit imported, the game's texts
parsed), so a script's diagnostics cost its play, not a process's start; one that was killed is
not reused, and each is retired after :data:`REQUESTS` requests so that what it keeps stays
bounded. Requests and answers go through its pipes as length-prefixed pickles (the child is this
same program, started here).
"""
from __future__ import annotations

import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import time

from ..codes import STEP_TOO_SLOW
from ..errors import Diagnostic
from ..source import Span
from .documents import real

SECONDS = 10            # a script's whole run, wall-clock (RULEKIT_LSP_SCRIPT_SECONDS sets another)
MEMORY = 2 << 30        # a child's address space: a runaway value stops near it (RK4024 at 1 GB of growth)
POLL = 0.05             # how often a waiting run looks whether an edit made it stale
REQUESTS = 50           # requests a child serves before it is retired
_HEADER = struct.Struct("<Q")
_idle: list = []        # children that answered, waiting for the next request
_lock = threading.Lock()


def seconds() -> int:
    text = os.environ.get("RULEKIT_LSP_SCRIPT_SECONDS", "")
    return int(text) if text.isdigit() and 0 < int(text) <= 3600 else SECONDS


def run(request: tuple, stale=None):
    """What a child answers to ``request`` (``("script", path, texts)`` or ``("actions", path,
    texts, prefix)``): ``("done", value)``, ``("late", None)`` past the bound (or when the child
    failed), or None when ``stale()`` turned true (the caller's answer is no longer wanted)."""
    child = _take()
    answer = None
    try:
        send(child.stdin, pickle.dumps(request))
        answer = _wait(child, stale)
        return answer
    except (OSError, pickle.UnpicklingError, EOFError, struct.error):
        return ("late", None)
    finally:
        _give_back(child, answer)


def _take() -> subprocess.Popen:
    with _lock:
        while _idle:
            child = _idle.pop()
            if child.poll() is None:
                return child
    child = subprocess.Popen([sys.executable, "-m", "rulekit.lsp.child"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=_capped,
                             env=dict(os.environ, RULEKIT_STEP_SECONDS=str(seconds())))
    child.served = 0
    return child


def _give_back(child: subprocess.Popen, answer) -> None:
    """A child that answered in time goes back to the idle ones; any other is killed."""
    child.served += 1
    if answer is not None and answer[0] == "done" and child.served < REQUESTS and child.poll() is None:
        with _lock:
            _idle.append(child)
        return
    if child.poll() is None:
        child.kill()
    child.wait()
    child.stdin.close()
    child.stdout.close()


def _wait(child: subprocess.Popen, stale):
    """The child's answer, None when stale first, ("late", None) past the bound or at its end."""
    deadline = time.monotonic() + seconds() + 2     # the watchdog stops a step first, on its line
    fd = child.stdout.fileno()
    while not select.select([fd], [], [], POLL)[0]:
        if stale is not None and stale():
            return None
        if time.monotonic() > deadline or child.poll() is not None:
            return ("late", None)
    return pickle.loads(receive(child.stdout))


def send(stream, payload: bytes) -> None:
    stream.write(_HEADER.pack(len(payload)) + payload)
    stream.flush()


def receive(stream) -> bytes:
    header = stream.read(_HEADER.size)
    if len(header) != _HEADER.size:
        raise EOFError("the child ended")
    (size,) = _HEADER.unpack(header)
    payload = stream.read(size)
    if len(payload) != size:
        raise EOFError("the child ended mid-answer")
    return payload


def _capped() -> None:      # pragma: no cover - runs in the child, before it starts
    """The child's memory cap, and (Linux) its end when the server ends however it ends: a child
    computing without end would otherwise outlive a server killed outright."""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)     # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def position_line(text: str) -> int:
    """The line of a script's ``position:`` (else of its ``actions:``, else its first)."""
    lines = text.splitlines()
    return next((n for key in ("position", "actions") for n, row in enumerate(lines, 1)
                 if row.startswith(key + ":")), 1)


def late(path: str, text: str) -> Diagnostic:
    """The diagnostic of a script that did not finish in time, on its ``position:`` line."""
    return Diagnostic(STEP_TOO_SLOW, f"this position did not finish in {seconds()} s: the script's setup, "
                      "`position:` or steps compute without end (it was stopped)",
                      Span(real(path), position_line(text), 1))
