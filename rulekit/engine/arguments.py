# SPDX-License-Identifier: MIT
"""Checks of what a call gives a procedure, where the code written for it cannot tell.

A procedure's parameter that every call in the game gives a player is read as one in the code
written for its body (dsl/signatures.py). A call from outside those calls (a script's position)
is checked here first: anything else is a content error on the call's line, never a wrong read.
"""
from __future__ import annotations

from ..codes import WRONG_KIND
from ..errors import ContentRuntimeError
from .state import Player


def seat_argument(s, value, procedure: str, param: str, span):
    """``value`` if it is one of the game's players; else a content error naming the call."""
    if value.__class__ is Player and 0 <= value < s.n:
        return value
    raise ContentRuntimeError(f"procedure `{procedure}` takes a player as `{param}` (every call in the game "
                              f"gives one); this call gives {value!r}", span, WRONG_KIND)
