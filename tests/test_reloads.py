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


def test_a_script_positions_line_table_lives_as_long_as_its_code():
    """A script's ``position:`` is a module of its own that nothing holds once its code is made: its
    table must live with the code (it went at once, and a failure there was put on the game's
    folder instead of the position's line)."""
    game = load_game("tests/games/counter")
    code = game.compile_script("total = 1 // 0\n")
    gc.collect()
    mine = [name for name in LINE_SPANS if name.startswith("<rulekit 'counter position'")]
    assert len(mine) == 1 and any(span is not None for span in LINE_SPANS[mine[0]])
    del code
    gc.collect()
    assert mine[0] not in LINE_SPANS
