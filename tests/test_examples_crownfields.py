"""Crownfields (examples/crownfields): a Kingdomino-like tile-laying game written from the docs alone.

- `rulekit test` passes on it: it validates with its harmony variant, every scenario matches its
  snapshot, and random games per player count keep every invariant (50 each when slow).
- Its rules do what the scenarios say, read here from their results and transcripts: a domino
  that fits nowhere is discarded without a decision, properties score squares x crowns, a tie
  goes to the largest property, and the harmony variant adds 5 for a full realm.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.testing.script import run_script

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "crownfields"
SCENARIOS = ("draft-order", "placement-touches", "discard", "scoring-and-tiebreak", "harmony-full-realm",
             "four-player-game")


def test_rulekit_test_passes(capsys):
    code, out, _err = run_cli(capsys, "test", str(GAME), "--random", "2")
    assert code == 0, out
    assert "validate crownfields +harmony" in out
    for name in SCENARIOS:
        assert f"crownfields/scenarios/{name}.yaml" in out
    assert ", 0 failed" in out


@pytest.mark.slow
def test_fifty_random_games_per_player_count(capsys):
    code, out, _err = run_cli(capsys, "test", str(GAME), "--random", "50")
    assert code == 0, out
    assert "random crownfields 4p x50" in out and "random crownfields +harmony 4p x50" in out


def test_a_domino_that_fits_nowhere_is_discarded_without_a_decision():
    result = run_script(str(GAME / "scenarios" / "discard.yaml"))
    lines = result.transcript
    assert "  # p1 cannot place 1: it is discarded" in lines
    assert not any(line.startswith("p1: place 1 ") for line in lines)
    assert lines.index("  # p1 cannot place 1: it is discarded") < lines.index("p1: take 4")


def test_properties_score_squares_times_crowns_and_the_largest_breaks_a_tie():
    result = run_script(str(GAME / "scenarios" / "scoring-and-tiebreak.yaml")).state.result
    p1, p2 = result["scores"]["p1"], result["scores"]["p2"]
    assert p1["total"] == p2["total"] == 9
    assert p1["tiebreak"] == [4, 3] and p2["tiebreak"] == [3, 5]    # largest property first, crowns second
    assert result["winners"] == ["p1"]


def test_harmony_adds_five_for_a_full_realm_only():
    scores = run_script(str(GAME / "scenarios" / "harmony-full-realm.yaml")).state.result["scores"]
    assert scores["p1"]["breakdown"] == {"properties": 5, "harmony": 5}
    assert scores["p2"]["breakdown"]["harmony"] == 0 and scores["p3"]["breakdown"]["harmony"] == 0
