# SPDX-License-Identifier: MIT
"""Running a script for the editor under a time and a memory bound, and dropping it at the next edit.

A script runs the game's rules: its ``position:`` or its steps may compute without end or build
values without end, and the language server must go on answering. So a script is played in a
child process (``python -m rulekit.lsp.child``), never in one of the server's threads: its
memory is capped (``RLIMIT_AS``), its steps are bounded by the engine's watchdog (a step stopped
on its line, RK4016 or RK4024, as the command line does), and past :data:`SECONDS` of the child's
CPU time (read in ``/proc``, as the watchdog counts it: a machine loaded by other work slows a
script without making it late), or as soon as ``stale()`` says an edit came, it is killed. A child
that waits without computing is killed at the backstop, :data:`BACKSTOP` times that bound of
wall-clock time; where ``/proc`` cannot be read, the bound itself is wall-clock time.

A child that answered is kept for the next request (warm: rulekit imported, the game's texts
parsed), so a script's diagnostics cost its play, not a process's start; one that was killed is
not reused, and each is retired after :data:`REQUESTS` requests so that what it keeps stays
bounded. Requests and answers go through its pipes as length-prefixed JSON data, never pickles:
an answer is read back into diagnostics and texts only (:func:`answer_data`, :func:`answer_of`),
so what a child writes can never run code in the server.
"""
from __future__ import annotations

import json
import os
import select
import struct
import subprocess
import sys
import threading
import time

from ..codes import STEP_TOO_SLOW
from ..errors import Diagnostic
from ..limits import LSP_BACKSTOP as BACKSTOP
from ..limits import LSP_CHILD_MEMORY as MEMORY
from ..limits import LSP_CHILD_REQUESTS as REQUESTS
from ..limits import LSP_SCRIPT_SECONDS as SECONDS
from ..source import Span
from .documents import real

POLL = 0.05             # how often a waiting run looks whether an edit made it stale
_HEADER = struct.Struct("<Q")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100     # /proc counts in these
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
        send(child.stdin, json.dumps(request).encode())
        answer = _wait(child, stale)
        return answer
    except (OSError, ValueError, TypeError, KeyError, EOFError, struct.error):
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
    """The child's answer, None when stale first, ("late", None) past the bound (its CPU time
    for this request, else wall-clock time), past the backstop or at its end."""
    bound = seconds() + 2       # the watchdog stops a step first, on its line
    spent = cpu_seconds(child.pid)
    backstop = time.monotonic() + (bound if spent is None else BACKSTOP * seconds())
    fd = child.stdout.fileno()
    while not select.select([fd], [], [], POLL)[0]:
        if stale is not None and stale():
            return None
        now = cpu_seconds(child.pid) if spent is not None else None
        if child.poll() is not None or time.monotonic() > backstop or (now is not None and now - spent > bound):
            return ("late", None)
    return "done", answer_of(json.loads(receive(child.stdout)))


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) a process has used, from ``/proc/PID/stat``; None where
    there is no such file (not Linux, or the process is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()     # the name, in parentheses, may hold spaces
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return None


def answer_data(value) -> dict:
    """A child's answer as JSON data: a script's diagnostics by path, or a step's legal actions."""
    if isinstance(value, dict):
        return {"diagnostics": {path: [_diagnostic_data(d) for d in found] for path, found in value.items()}}
    return {"actions": [[str(notation), str(shown)] for notation, shown in value]}


def answer_of(data: dict):
    """:func:`answer_data` read back: diagnostics and texts only."""
    if "actions" in data:
        return [(str(notation), str(shown)) for notation, shown in data["actions"]]
    return {str(path): tuple(_diagnostic_of(d) for d in found) for path, found in data["diagnostics"].items()}


def _diagnostic_data(d: Diagnostic) -> dict:
    return {"code": d.code, "message": d.message, "span": _span_data(d.span), "help": d.help,
            "notes": list(d.notes), "related": [[label, _span_data(span)] for label, span in d.related],
            "severity": d.severity}


def _diagnostic_of(data: dict) -> Diagnostic:
    return Diagnostic(str(data["code"]), str(data["message"]), _span_of(data["span"]), data["help"],
                      tuple(str(n) for n in data["notes"]),
                      tuple((str(label), _span_of(span)) for label, span in data["related"]), str(data["severity"]))


def _span_data(span: Span | None):
    return None if span is None else [span.path, span.line, span.column, span.end_line, span.end_column]


def _span_of(data) -> Span | None:
    if data is None:
        return None
    path, line, column, end_line, end_column = data
    return Span(str(path), int(line), int(column), end_line, end_column)


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
