"""Azul (examples/azul): the boards example, content only.

- `rulekit test` passes on it: it validates with its grey-wall variant, every scenario matches its
  snapshot, and a few random games per player count keep every invariant (50 each when slow).
- The end-of-game scenario scores the bonuses and the tiebreak as the rulebook says.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.testing.script import run_script

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "azul"


def test_rulekit_test_passes(capsys):
    code, out, _err = run_cli(capsys, "test", str(GAME), "--random", "2")
    assert code == 0, out
    assert "validate azul +grey-wall" in out
    for name in ("take-from-factory", "centre-and-marker", "overflow-to-floor",
                 "wall-tiling-adjacency", "end-and-bonuses", "grey-wall-placement"):
        assert f"azul/scenarios/{name}.yaml" in out
    assert ", 0 failed" in out


@pytest.mark.slow
def test_fifty_random_games_per_player_count(capsys):
    code, out, _err = run_cli(capsys, "test", str(GAME), "--random", "50")
    assert code == 0, out
    assert "random azul 4p x50" in out and "random azul +grey-wall 4p x50" in out


def test_end_bonuses_and_tiebreak():
    result = run_script(str(GAME / "scenarios" / "end-and-bonuses.yaml")).state.result
    p1, p2 = result["scores"]["p1"], result["scores"]["p2"]
    assert p1["breakdown"] == {"wall": 19, "rows": 2, "columns": 7, "colours": 10}
    assert p1["total"] == p2["total"] == 38
    assert p1["tiebreak"] == [1] and p2["tiebreak"] == [0]
    assert result["winners"] == ["p1"]


def test_grey_wall_line_with_no_space_falls_to_the_floor():
    lines = run_script(str(GAME / "scenarios" / "grey-wall-placement.yaml")).transcript
    assert "p1: red to c2" in lines
    assert "  # p1 lays red on c2: 2" in lines
    assert "  # p1 cannot place blue from line 3: it falls to the floor line" in lines
    assert "  p1.score: 12 -> 8" in lines
