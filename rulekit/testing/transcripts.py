# SPDX-License-Identifier: MIT
"""A played script or game as a few JSON-ready values for a syrupy snapshot: the transcript
(action and event lines, checkpoints' views, result) and the digest of a whole game.

A board (a zone family declared ``grid:``) in a checkpoint's view reads as rows of cells, as
``rulekit play`` prints it (:func:`board_rows`), not as a mapping of every cell to its items."""
from __future__ import annotations

import hashlib
import json

from ..engine.boards import place
from .script import run_script


def transcript(path: str, views: bool = True) -> dict:
    """Play the script at ``path``; returns {"lines", "checkpoints", "result"}."""
    return transcript_of(run_script(path), views)


def transcript_of(result, views: bool = True) -> dict:
    """``transcript`` of a script already played (a ScriptResult), to keep its state too."""
    out = {"lines": list(result.transcript), "result": result.state.result}
    if views:
        game = result.state.game
        out["checkpoints"] = {name: {seat: compact_boards(picture, game) for seat, picture in seen.items()}
                              for name, seen in result.checkpoints.items()}
    return out


def board_names(game) -> set:
    """The zones (global, or each player's own) the content declares as boards (``grid:``)."""
    declared = {**game.board.families, **{name: seats[0] for name, seats in game.board.pzones.items()}}
    return {name for name, zone in declared.items() if getattr(zone, "grid", None) is not None}


def compact_boards(picture: dict, game) -> dict:
    """A view with each board as :func:`board_rows` (the view itself when the game has none)."""
    grids = board_names(game)
    if not grids:
        return picture
    zones = {k: board_rows(v) if k in grids else v for k, v in picture["zones"].items()}
    players = {p: {k: board_rows(v) if k in grids else v for k, v in row.items()}
               for p, row in picture["players"].items()}
    return {**picture, "zones": zones, "players": players}


def board_rows(cells: dict, label=None) -> list[str]:
    """A board's cells (cell -> its items, as a view has them) as text: a head line of column
    letters, then a line per row (`1  forest-1  .  lake-2`), each cell its top item (``label``
    of the items, else the top item's id), `.` when empty, `?` for items the viewer may not
    see, `+N` for more under the top one."""
    rows: dict = {}
    for cell, held in cells.items():
        col, row = place(cell)
        shown = held if isinstance(held, list) else []
        hidden = isinstance(held, dict) and held.get("count", 0)
        top = (label(shown) if label else str(shown[-1])) if shown else ("?" if hidden else ".")
        rows.setdefault(row, {})[col] = top + (f" +{len(shown) - 1}" if len(shown) > 1 else "")
    width = max(len(text) for line in rows.values() for text in line.values())
    cols = max(col for line in rows.values() for col in line)
    head = "   " + " ".join(chr(ord("a") + c - 1).ljust(width) for c in range(1, cols + 1))
    return [head.rstrip()] + [(f"{r:<2} " + " ".join(rows[r].get(c, "").ljust(width)
                                                     for c in range(1, cols + 1))).rstrip() for r in sorted(rows)]


def events_digest(state) -> dict:
    """A whole game in a few values for a snapshot: how many actions and events, and the
    sha256 of the JSON of both (any change to what happened changes it)."""
    played = {"events": state.events, "actions": state.actions}
    text = json.dumps(played, default=str, separators=(",", ":"), ensure_ascii=False)
    return {"actions": len(state.actions), "events": len(state.events),
            "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}
