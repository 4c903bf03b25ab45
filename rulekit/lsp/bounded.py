# SPDX-License-Identifier: MIT
"""Running a script for the editor under a time and a memory bound, and dropping it at the next edit.

A script runs the game's rules: its ``position:`` or its steps may compute without end or build
values without end, and the language server must go on answering. So a script is played in a
child process of its own (``python -m rulekit.lsp.bounded``), never in one of the server's
threads: its memory is capped (``RLIMIT_AS``), its steps are bounded by the engine's watchdog (a
step stopped on its line, RK4016 or RK4024, as the command line does), and past
:data:`SECONDS` of wall-clock time, or as soon as ``stale()`` says an edit came, it is killed.
The buffers go to the child on its standard input and what it found comes back on its standard
output (pickled: the child is this same program, started here).
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time

from ..codes import STEP_TOO_SLOW
from ..errors import Diagnostic
from ..source import Span
from .documents import real

SECONDS = 10            # a script's whole run, wall-clock (RULEKIT_LSP_SCRIPT_SECONDS sets another)
MEMORY = 2 << 30        # the child's address space: a runaway value stops near it (RK4024 at 1 GB of growth)
POLL = 0.05             # how often a waiting run looks whether an edit made it stale


def seconds() -> int:
    text = os.environ.get("RULEKIT_LSP_SCRIPT_SECONDS", "")
    return int(text) if text.isdigit() and 0 < int(text) <= 3600 else SECONDS


def run(request: tuple, stale=None):
    """What the child answers to ``request`` (``("script", path, texts)`` or ``("actions", path,
    texts, prefix)``): ``("done", value)``, ``("late", None)`` past the bound, or None when
    ``stale()`` turned true (the caller's answer is no longer wanted)."""
    child = subprocess.Popen([sys.executable, "-m", "rulekit.lsp.bounded"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=_capped,
                             env=dict(os.environ, RULEKIT_STEP_SECONDS=str(seconds())))
    try:
        child.stdin.write(pickle.dumps(request))
        child.stdin.close()
        deadline = time.monotonic() + seconds() + 2     # the watchdog stops a step first, on its line
        while child.poll() is None:
            if stale is not None and stale():
                return None
            if time.monotonic() > deadline:
                return ("late", None)
            time.sleep(POLL)
        answer = child.stdout.read()
        return pickle.loads(answer) if child.returncode == 0 and answer else ("late", None)
    except (OSError, pickle.UnpicklingError, EOFError):
        return ("late", None)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stdout.close()


def _capped() -> None:      # pragma: no cover - runs in the child, before it starts
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    os.setpgrp()


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


def _answer(request: tuple):
    from . import checking, completion
    kind, path, texts = request[:3]
    if kind == "script":
        return checking.play_script(path, texts)
    try:
        return completion.legal_actions_at(path, texts, request[3])
    except Exception:       # a script that does not run to here has no actions to offer
        return []


def main() -> None:         # pragma: no cover - the child
    from ..engine import watchdog
    request = pickle.loads(sys.stdin.buffer.read())
    channel = sys.stdout.buffer
    sys.stdout = sys.stderr
    watchdog.arm()
    value = _answer(request)
    watchdog.disarm()
    channel.write(pickle.dumps(("done", value)))
    channel.flush()


if __name__ == "__main__":
    main()
