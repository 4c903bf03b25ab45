# SPDX-License-Identifier: MIT
"""Testing content: scripts (:mod:`.script`, :mod:`.steps`), ``rulekit test`` (:mod:`.suite`,
:mod:`.coverage`), the pytest plugin, and helpers for pytest and syrupy
(:mod:`.transcripts`, :mod:`.random_play`) re-exported here.

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

from .random_play import RANDOM_GAME_ACTIONS, broken_invariants, play_random, random_game
from .transcripts import events_digest, transcript, transcript_of

__all__ = ["RANDOM_GAME_ACTIONS", "broken_invariants", "events_digest", "play_random", "random_game", "transcript",
           "transcript_of"]
