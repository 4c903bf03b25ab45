# SPDX-License-Identifier: MIT
"""The bound of the language server's script children (lsp/bounded.py) is the child's CPU time,
as the engine's watchdog counts it, not the wall-clock time a loaded machine stretches: a child
that waits without computing is not late at the bound, one that computes is, and an edit still
drops a child at once. Real child processes, decided by what they do, never by how fast the
machine is: the backstop is pushed out of reach, so a "late" here can only be the CPU bound."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulekit.lsp import bounded

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a child's CPU time in /proc")
BOUND = 1           # RULEKIT_LSP_SCRIPT_SECONDS here: late past BOUND + 2 s of the child's CPU time
# waits past BOUND + 2 s of wall-clock time (the old bound), computing nothing, then answers
WAITS = ("import struct, sys, time; time.sleep({pause}); data = b'{{\"actions\": [[\"pass\", \"pass\"]]}}'; "
         "sys.stdout.buffer.write(struct.pack('<Q', len(data)) + data); sys.stdout.flush(); time.sleep(60)")
COMPUTES = "while True: pass"      # never answers


@pytest.fixture(autouse=True)
def bound(monkeypatch):
    monkeypatch.setenv("RULEKIT_LSP_SCRIPT_SECONDS", str(BOUND))
    monkeypatch.setattr(bounded, "BACKSTOP", 3600)


def _child(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _waited(code: str, stale=None):
    child = _child(code)
    try:
        return bounded._wait(child, stale), bounded.cpu_seconds(child.pid)
    finally:
        child.kill()
        child.wait()
        child.stdin.close()
        child.stdout.close()


def test_a_child_waiting_without_computing_past_the_bound_still_answers():
    """Its answer comes after BOUND + 3 s of wall-clock time, where the wall-clock bound gave up:
    a script slowed by a loaded machine, not computing without end, is not reported late."""
    answer, _ = _waited(WAITS.format(pause=BOUND + 3))
    assert answer == ("done", [("pass", "pass")])


def test_a_child_computing_past_the_bound_is_late():
    answer, spent = _waited(COMPUTES)
    assert answer == ("late", None)
    assert spent > BOUND + 2        # stopped by its CPU time: the backstop is out of reach


def test_an_edit_drops_a_waiting_child_at_once():
    asked = []
    answer, _ = _waited(WAITS.format(pause=3600), stale=lambda: asked.append(1) or len(asked) > 2)
    assert answer is None and len(asked) == 3


def test_a_childs_cpu_time_is_read_and_a_gone_process_has_none():
    child = _child(COMPUTES)
    try:
        assert bounded.cpu_seconds(child.pid) >= 0
    finally:
        child.kill()
        child.wait()
        child.stdin.close()
        child.stdout.close()
    assert bounded.cpu_seconds(child.pid) is None
