# SPDX-License-Identifier: MIT
"""Imagined worlds a bot cannot play: a redeterminised copy may deal cards the rules never
deal, so a content error met there discards the world, unless the real game fails too."""
from __future__ import annotations

from ..codes import STEP_TOO_SLOW
from ..errors import ContentRuntimeError


def _impossible(exc: ContentRuntimeError) -> bool:
    """Whether a content error met in an imagined world discards that world: any but the
    CPU-time bound of a step (RK4016), which stops the command whatever world it is in."""
    return exc.code != STEP_TOO_SLOW


WORLD_ATTEMPTS = 4   # worlds a one-world bot samples before it judges on the last one as it can


def _shared_failure(s, probe) -> None:
    """Run ``probe`` on a copy of the real state ``s``: a content error it raises there is the
    content's own, not an imagined world's, and stops the game as it did before worlds were
    discarded. Only whether it fails is used, never what it finds, so nothing is peeked at."""
    real = s.clone()
    real.record = False
    probe(real)
