# SPDX-License-Identifier: MIT
"""Seeded randomness as plain integers in the game state.

Python's ``random`` module may change its algorithms between versions, and its
state is a 625-word tuple; we want byte-identical logs on any machine and a state
that clones for free. So each named stream (``setup``, ``decks``, ``dice``, ...) is
one 64-bit SplitMix64 counter, derived from the game seed and the stream name.
"""
from __future__ import annotations

import hashlib
import struct

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
        limit = _limit(n)
    while True:
        state = (state + GOLDEN) & MASK
        z = ((state ^ (state >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


_LIMITS: dict[int, int] = {}    # n -> the largest multiple of n that fits in 64 bits
_TOP = 1 << 64


def _limit(n: int) -> int:
    """The largest multiple of ``n`` that fits in 64 bits (remembered for small ``n``)."""
    limit = _LIMITS.get(n)
    if limit is None:
        limit = _TOP - (_TOP % n)
        if n < 4096:
            _LIMITS[n] = limit
    return limit


def shuffled(state: int, items: list) -> tuple[int, list]:
    """Fisher-Yates on a copy; returns (new_state, shuffled list). Each swap takes the place
    ``below(state, i + 1)`` gives: every deal and every search bot's redeterminised world
    shuffles, so a long shuffle works its draws out :data:`LANES` at a time (:func:`_outputs`).
    A draw ``below`` would reject (once in about 2**59 for a deck) goes on one draw at a time
    from there, as ``below`` does."""
    out = list(items)
    i = len(out) - 1
    while i >= FEW:
        lanes = min(i, LANES)
        zs = _outputs(state, lanes)
        if max(zs) < _SURE - i:     # below keeps them all (its bound for n is above 2**64 - n)
            for n, z in zip(range(i + 1, i + 1 - lanes, -1), zs):
                j = z % n
                out[n - 1], out[j] = out[j], out[n - 1]
            i -= lanes
        else:
            for d, z in enumerate(zs):
                if z >= _limit(i + 1):      # below draws again: so does the rest, one draw at a time
                    return _one_by_one((state + d * GOLDEN) & MASK, out, i)
                j = z % (i + 1)
                out[i], out[j] = out[j], out[i]
                i -= 1
        state = (state + lanes * GOLDEN) & MASK
    return _one_by_one(state, out, i)


def _one_by_one(state: int, out: list, top: int) -> tuple[int, list]:
    """The swaps of places ``top`` down to 1 of ``out`` (in place), each where ``below``
    puts it, one draw at a time (written out)."""
    mask, golden, mix1, mix2 = MASK, GOLDEN, MIX1, MIX2
    for i in range(top, 0, -1):
        n = i + 1
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _limit(n)
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


# SplitMix64's next states are state + k * GOLDEN: so the outputs of the next LANES draws are
# worked out at once, each in a 128-bit lane of one Python integer (room for a 64-bit value
# times a 64-bit multiplier), a dozen operations on one large integer instead of a dozen per
# draw on small ones.
LANES = 64
FEW = 8             # draws left that are quicker one at a time
_SURE = _TOP        # a draw below _SURE - n is kept by below for any bound up to n (tests lower it)
_LANE_MASKS = {}    # lanes -> (ones in each lane, k * GOLDEN in lane k, lane masks of 64, 34, 37, 33 bits, unpacker)


def _outputs(state: int, lanes: int) -> tuple:
    """What SplitMix64 gives at each of the next ``lanes`` steps from ``state`` (the same as
    ``below``'s ``z`` before the bound), as a tuple."""
    masks = _LANE_MASKS.get(lanes)
    if masks is None:
        masks = _LANE_MASKS[lanes] = _lane_masks(lanes)
    ones, steps, m64, m34, m37, m33, unpack = masks
    z = (state * ones + steps) & m64
    z = ((z ^ ((z >> 30) & m34)) * MIX1) & m64
    z = ((z ^ ((z >> 27) & m37)) * MIX2) & m64
    z ^= (z >> 31) & m33
    return unpack(z.to_bytes(16 * lanes, "little"))


def _lane_masks(lanes: int) -> tuple:
    ones = sum(1 << (128 * k) for k in range(lanes))
    steps = sum((((k + 1) * GOLDEN) & MASK) << (128 * k) for k in range(lanes))
    return (ones, steps, ones * MASK, ones * ((1 << 34) - 1), ones * ((1 << 37) - 1), ones * ((1 << 33) - 1),
            struct.Struct("<" + "Q8x" * lanes).unpack)
