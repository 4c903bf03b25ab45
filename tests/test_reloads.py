# SPDX-License-Identifier: MIT
"""Reloading a game keeps memory flat: what maps a generated module's lines to content lives as
long as the module (the language server reloads on every edit; benchmarks/reload_memory.py
measures the bytes)."""
from __future__ import annotations

import gc
import linecache

from rulekit.engine.runtime import LINE_SPANS
from rulekit.games import load_game


def _units(title: str) -> set:
    return {name for name in LINE_SPANS if name.startswith(f"<rulekit {title!r}")}


def test_a_dropped_game_leaves_no_line_table_nor_source_behind():
    kept = load_game("goa")
    before = _units("Goa")
    for _ in range(4):
        load_game("goa")
    gc.collect()
    assert _units("Goa") == before, "each reload left its module's line table behind"
    assert kept.program.module.filename in LINE_SPANS
    assert linecache.getline(kept.program.module.filename, 1)     # tracebacks of a live game still read it
    del kept
    gc.collect()
    assert not (_units("Goa") & before)
    assert not [name for name in linecache.cache if name in before]
