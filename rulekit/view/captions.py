# SPDX-License-Identifier: MIT
"""A log's actions as one seat reads them: the captions of ``rulekit render`` (SVG and replay).

The log is omniscient (``keep x-3 y-7``); a picture drawn ``--as`` a seat, or for a spectator,
is captioned as that viewer may read the action (``view.sight``): the option's ``says`` when it
has one (the author's public wording), else ``pK label``, with the items hidden from the viewer
both before and after the action named by kind, a value printed in it that the viewer may not
see (another player's `owner` variable, a property of such an item) read `?`, and another
player's pick of a simultaneous decision told only as chosen. ``--full`` captions the log as it is.
"""
from __future__ import annotations

from ..engine import api
from ..engine.redact import hidden_items
from ..engine.simultaneous import focused
from ..engine.state import PLAYERS, Decision
from ..engine.view import sight


def steps(start, actions, viewer: int | None = None, full: bool = False):
    """Yield (step, state, actor, caption text of the step) from the start through every action,
    applying them on ``start`` itself; step 0's text is None."""
    s = start
    yield 0, s, None, None
    for i, action in enumerate(actions, 1):
        who = str(PLAYERS[s.pending.player])
        if full:
            api.apply(s, action, atomic=False)
            yield i, s, who, f"{who} {action}"
            continue
        decision, bare = focused(s, str(action))
        index = decision.index(bare)
        seat = decision.player
        secret = decision.__class__ is not Decision and seat != viewer
        says = decision.says(index) if index is not None and not secret else None
        label = decision.label(index) if index is not None and not secret else bare    # with what it prints marked
        before = hidden_items(s, viewer)
        api.apply(s, action, atomic=False)
        if secret:
            yield i, s, who, f"{PLAYERS[seat]} has chosen"
        else:
            yield i, s, who, sight(s, viewer, before=before).action(seat, label, says)


def caption(step: int, total: int, told: str | None) -> str:
    return f"step 0 of {total}: the start" if step == 0 else f"step {step} of {total}: {told}"


def last_told(start, actions, viewer: int | None = None, full: bool = False) -> str | None:
    """:func:`steps` played through: the last action's text (None with no action)."""
    told = None
    for step in steps(start, actions, viewer, full):
        told = step[3]
    return told
