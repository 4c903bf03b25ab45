# SPDX-License-Identifier: MIT
"""Limits and defaults that more than one module needs, each with its reason (issue 56).

A value is written here once and imported where it is used; a module that uses a value alone
may keep it, beside the code it bounds."""
from __future__ import annotations

# The largest whole number an observation holds as itself: a float32 (what the RL environments hand
# a learner) has a 24-bit significand, so every whole number up to 2**24 is exact and beyond it
# neighbours merge. A larger value is clipped to it (rl/observe.py, and rl/observe_log.py, which
# follows the same values from the log and must clip them alike).
OBSERVATION_LIMIT = float(2 ** 24)
