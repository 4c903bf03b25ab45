# SPDX-License-Identifier: MIT
"""The mutation harness (``benchmarks/mutants.py``) on a tiny game: a mutant a rule script catches
is killed, one nobody could see is equivalent, one that changes play unseen by every rule script
survives (a full-game script noticing it does not count), one that no longer loads is refused."""
from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
import textwrap
import types

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("mutants", os.path.join(HERE, "..", "benchmarks", "mutants.py"))
mutants = importlib.util.module_from_spec(spec)
sys.modules.setdefault("mutants", mutants)      # a pool's workers find its functions by module name
spec.loader.exec_module(mutants)

GAME = """\
meta: {title: Tiny}
players: {min: 2, max: 2}
params:
  bonus: 3
vars:
  total: 0
player:
  vars:
    score: 0
procedures:
  turn:
    params: [p]
    do: |
      choose p:
          "take {k}" for k in [1, 2]:
              p.score += k
          "double" if p.score > 0:
              p.score += p.score
          "wait":
              pass
      total += 1
flow:
  end_after_round_if: "total >= 6"
  phases:
    - id: turns
      do: |
        for p in players:
            turn(p)
scoring:
  categories:
    - id: score
      points: "p.score + bonus"
zones:
  spare: {visibility: hidden}
"""
RULE_SCRIPT = """\
title: Taking adds to the score
game: ..
players: 2
actions:
  - p1: take 2
  - expect: {"p1.score": 2}
"""
FULL_GAME = """\
title: A whole game (its score sees the bonus, but a full game names no rule)
game: ..
players: 2
actions: [take 1, take 2, take 1, take 2, take 1, take 2, {score: {p1: 6, p2: 9}}]
"""


@pytest.fixture
def tiny(tmp_path):
    folder = tmp_path / "tiny"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "scenarios" / "take.yaml").write_text(RULE_SCRIPT)
    (folder / "scenarios" / "full-game-2p.yaml").write_text(FULL_GAME)
    return str(folder)


def planted(old: str, new: str, nth: int = 0) -> mutants.Mutant:
    """A mutant of game.yaml: the ``nth`` occurrence of ``old`` becomes ``new``."""
    start = -1
    for _ in range(nth + 1):
        start = GAME.index(old, start + 1)
    return mutants.Mutant("game.yaml", GAME.count("\n", 0, start) + 1, start, start + len(old), new, "planted")


def test_generation_is_deterministic_and_covers_the_operators(tiny):
    first = mutants.mutants_of(tiny)
    assert first == mutants.mutants_of(tiny)
    changes = {m.describe(GAME) for m in first}
    expected = [
        'game.yaml:4: number +1: `bonus: 3` -> `bonus: 4`',
        'game.yaml:17: drop option condition: `"double" if p.score > 0:` -> `"double":`',
        'game.yaml:17: negate option condition: `"double" if p.score > 0:` -> `"double" if not (p.score > 0):`',
        'game.yaml:16: swap: `p.score += k` -> `p.score -= k`',
        'game.yaml:21: statement -> pass: `total += 1` -> `pass`',
        'game.yaml:23: swap: `end_after_round_if: "total >= 6"` -> `end_after_round_if: "total > 6"`',
    ]
    for change in expected:
        assert change in changes
    assert not any("take {k}" in c and "remove list item" in c for c in changes)   # a list in code is no YAML list
    assert all(m.file == "game.yaml" for m in first)
    assert not [m for m in first if "Tiny" in m.describe(GAME)]                   # meta is no rule


def test_killed_equivalent_survived_refused(tiny):
    plants = [
        planted("p.score += k", "p.score -= k"),                 # the rule script's expect fails
        planted("p.score += p.score", "p.score = p.score * 2"),  # the same rule, written otherwise
        planted('"double" if p.score > 0:', '"double":'),        # adds an option where no `legal:` looks
        planted("bonus: 3", "bonus: 4"),                         # only the full game's score sees it
        planted("p.score += k", "p.scor += k"),                  # no longer loads
    ]
    results = mutants.run_all(tiny, plants, jobs=1, timeout=20)
    fates = [r["fate"] for r in results]
    assert fates == ["killed", "equivalent", "survived", "survived", "refused"]
    assert results[0]["why"] == [os.path.join("scenarios", "take.yaml")]
    assert results[3]["why"].startswith("random game 2p")
    assert results[4]["why"].startswith("refused:")
    totals = mutants.summary(results, 1.0)
    assert (totals["killed"], totals["survived"], totals["equivalent"], totals["refused"]) == (1, 2, 1, 1)
    assert totals["score"] == pytest.approx(1 / 3, abs=1e-3)


def test_a_legal_exactly_step_kills_an_added_option(tiny):
    """Once a script looks at the decision the option joins, the same mutant is killed."""
    with open(os.path.join(tiny, "scenarios", "second-turn.yaml"), "w") as f:
        f.write(textwrap.dedent("""\
            title: With no score, doubling is not offered
            game: ..
            players: 2
            actions:
              - p1: wait
              - p2: wait
              - legal: {player: p1, exactly: [take 1, take 2, wait]}
            """))
    [result] = mutants.run_all(tiny, [planted('"double" if p.score > 0:', '"double":')], jobs=1, timeout=20)
    assert result["fate"] == "killed"
    assert result["why"] == [os.path.join("scenarios", "second-turn.yaml")]


def test_what_no_view_or_option_shows_is_equivalent(tiny):
    """Equivalent means: the same options to the same players and the same views at every
    decision, and the same results; a log line, or a zone that is empty whenever anyone looks,
    changes nothing. A change of what a player is shown is a change."""
    plants = [
        planted("total += 1", 'total += 1\n      log("a turn ends")'),           # the log only
        planted("spare: {visibility: hidden}", "spare: {visibility: public}"),    # always empty
        planted("score: 0", "score: {initial: 0, visibility: owner}"),           # p2 no longer sees p1's
    ]
    results = mutants.run_all(tiny, plants, jobs=1, timeout=20)
    assert [r["fate"] for r in results] == ["equivalent", "equivalent", "survived"]
    assert results[2]["why"] == "random game 2p seed 1 differs at decision 0"


def test_a_view_is_compared_by_what_it_tells():
    """A zone naming none of its items tells its count, whether hidden, face down or empty."""
    game = types.SimpleNamespace(board=types.SimpleNamespace(pzones={"hand": None}))
    picture = {"round": 1, "zones": {"deck": ["?", "?"], "row": ["a", "?"], "slot": {"1": [], "2": {"count": 0}}},
               "players": {"p1": {"hand": [], "notes": ["?"]}}}
    assert mutants.told(game, picture) == {
        "round": 1, "zones": {"deck": {"count": 2}, "row": ["a", "?"], "slot": {"1": {"count": 0}, "2": {"count": 0}}},
        "players": {"p1": {"hand": {"count": 0}, "notes": ["?"]}}}     # a variable is left as it is


@pytest.mark.parametrize("jobs", [1, 2])
def test_no_scratch_folder_is_left_behind(tiny, tmp_path, monkeypatch, jobs):
    """Every worker's scratch folder is removed, when the run ends and when it fails (here a rule
    script that fails on the unmutated game: with several workers this used to hang)."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    results = mutants.run_all(tiny, [planted("bonus: 3", "bonus: 4")] * 3, jobs=jobs, timeout=20)
    assert [r["fate"] for r in results] == ["survived"] * 3
    assert os.listdir(scratch) == []
    with open(os.path.join(tiny, "scenarios", "wrong.yaml"), "w") as f:
        f.write(RULE_SCRIPT.replace('"p1.score": 2', '"p1.score": 3'))
    with pytest.raises(SystemExit, match="scripts fail on the unmutated game: .*wrong.yaml"):
        mutants.run_all(tiny, [planted("bonus: 3", "bonus: 4")], jobs=jobs, timeout=20)
    assert os.listdir(scratch) == []


@pytest.mark.slow
def test_batavia_sample_has_no_survivors():
    """A fixed sample of Batavia's mutants: every one that changes play is caught by a rule script."""
    folder = os.path.join(HERE, "..", "games", "batavia")
    chosen = mutants.mutants_of(folder)[::7]
    results = mutants.run_all(folder, chosen, jobs=1)
    assert [r["change"] for r in results if r["fate"] == "survived"] == []
