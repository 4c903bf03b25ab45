# SPDX-License-Identifier: MIT
"""The seeded randomness (engine/rng.py): the same numbers on any machine, for ever: a log
replays only while a stream gives what it gave when the log was written."""
from __future__ import annotations

import pytest

from rulekit.engine import rng


def _fisher_yates(state: int, items: list) -> tuple[int, list]:
    """The definition `shuffled` writes out: each swap takes the place `below` gives."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 52, 64, 65, 122, 129, 5000])
def test_a_shuffle_is_fisher_yates_over_below(size):
    for seed in range(20):
        state = rng.stream_seed(seed, "decks")
        assert rng.shuffled(state, list(range(size))) == _fisher_yates(state, list(range(size)))


def test_the_streams_give_what_they_always_gave():
    assert rng.shuffled(12345, list(range(12))) == (
        14727398570297885984, [0, 10, 1, 4, 7, 2, 6, 11, 3, 5, 9, 8])
    assert rng.below(rng.stream_seed(7, "decks"), 6) == (14992429604087382547, 1)


@pytest.mark.parametrize("size", [9, 70, 300])
def test_a_shuffle_draws_again_where_below_would(monkeypatch, size):
    """A draw past the largest multiple of its bound is drawn again (once in about 2**59 for a real
    deck): with bounds that reject half the draws, the shuffle still takes below's places."""
    for n in (2, 5, 8, 66, 200):
        monkeypatch.setitem(rng._LIMITS, n, 1 << 63)
    monkeypatch.setattr(rng, "_SURE", 0)     # no draw is sure to be kept: each is checked
    redrawn = []
    one_by_one = rng._one_by_one
    monkeypatch.setattr(rng, "_one_by_one", lambda *args: redrawn.append(args[2]) or one_by_one(*args))
    for seed in range(30):
        state = rng.stream_seed(seed, "decks")
        assert rng.shuffled(state, list(range(size))) == _fisher_yates(state, list(range(size)))
    assert len(redrawn) >= 20        # most shuffles met a draw to take again
