# SPDX-License-Identifier: MIT
"""A played script or game as a few JSON-ready values for a syrupy snapshot: the transcript
(action and event lines, checkpoints' views, result) and the digest of a whole game."""
from __future__ import annotations

import hashlib
import json

from .script import run_script


def transcript(path: str, views: bool = True) -> dict:
    """Play the script at ``path``; returns {"lines", "checkpoints", "result"}."""
    return transcript_of(run_script(path), views)


def transcript_of(result, views: bool = True) -> dict:
    """``transcript`` of a script already played (a ScriptResult), to keep its state too."""
    out = {"lines": list(result.transcript), "result": result.state.result}
    if views:
        out["checkpoints"] = result.checkpoints
    return out


def events_digest(state) -> dict:
    """A whole game in a few values for a snapshot: how many actions and events, and the
    sha256 of the JSON of both (any change to what happened changes it)."""
    played = {"events": state.events, "actions": state.actions}
    text = json.dumps(played, default=str, separators=(",", ":"), ensure_ascii=False)
    return {"actions": len(state.actions), "events": len(state.events),
            "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}
