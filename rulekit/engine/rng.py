# SPDX-License-Identifier: MIT
"""Seeded randomness as plain integers in the game state.

Python's ``random`` module may change its algorithms between versions, and its
state is a 625-word tuple; we want byte-identical logs on any machine and a state
that clones for free. So each named stream (``setup``, ``decks``, ``dice``, ...) is
one 64-bit SplitMix64 counter, derived from the game seed and the stream name.
"""
from __future__ import annotations

import hashlib

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1, MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB    # SplitMix64's two multipliers


def stream_seed(seed: int, name: str) -> int:
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def next_u64(state: int) -> tuple[int, int]:
    """Advance a SplitMix64 state; returns (new_state, output)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) without modulo bias; returns (new_state, value).
    (SplitMix64 written out: this is every random bot's and every shuffle's inner loop.)"""
    if n <= 1:
        return state, 0
    limit = _LIMITS.get(n)
    if limit is None:
        limit = (1 << 64) - ((1 << 64) % n)
        if n < 4096:
            _LIMITS[n] = limit
    while True:
        state = (state + GOLDEN) & MASK
        z = ((state ^ (state >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


_LIMITS: dict[int, int] = {}    # n -> the largest multiple of n that fits in 64 bits


def shuffled(state: int, items: list) -> tuple[int, list]:
    """Fisher-Yates on a copy; returns (new_state, shuffled list). Each swap takes the place
    ``below(state, i + 1)`` gives, written out here: every deal and every search bot's
    redeterminised world shuffles."""
    out = list(items)
    limits, mask, golden, mix1, mix2 = _LIMITS, MASK, GOLDEN, MIX1, MIX2
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = limits.get(n)
        if limit is None:
            limit = (1 << 64) - ((1 << 64) % n)
            if n < 4096:
                limits[n] = limit
        while True:
            state = (state + golden) & mask
            z = ((state ^ (state >> 30)) * mix1) & mask
            z = ((z ^ (z >> 27)) * mix2) & mask
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    return state, out
