# SPDX-License-Identifier: MIT
"""Helpers for testing content with pytest and syrupy.

    from rulekit.testing import transcript

    def test_my_variant(snapshot):
        assert transcript("games/mygame/scenarios/opening.yaml") == snapshot

``transcript`` plays a script (failing the test with the script's file:line on a
wrong action or a failed expectation) and returns a compact, JSON-ready record:
the action and event lines, each checkpoint's per-player views, and the result.
Snapshots of it change only when the rules' behaviour does, so read them when
they change.
"""
from __future__ import annotations

from .script import run_script


def transcript(path: str, views: bool = True) -> dict:
    """Play the script at ``path``; returns {"lines", "checkpoints", "result"}."""
    result = run_script(path)
    out = {"lines": list(result.transcript), "result": result.state.result}
    if views:
        out["checkpoints"] = result.checkpoints
    return out
