# SPDX-License-Identifier: MIT
"""The mutation harness (``benchmarks/mutants.py``) on a tiny game: a mutant a rule script catches
is killed, one nobody could see is equivalent, one that changes play unseen by every rule script
survives (a full-game script noticing it does not count), one that no longer loads is refused."""
from __future__ import annotations

import importlib.util
import json
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


NAMES_GAME = """\
meta: {title: Names}
players: {min: 2, max: 2}
sets:
  colors: [red, blue, green]
components:
  card:
    generate: {color: colors}
    copies: 2
    id: "card-{color}-{n}"
    props: {rank: 1}
    state: {tapped: false}
    start: deck
zones:
  deck: {visibility: hidden}
  discard: {visibility: public}
  box: {visibility: public}
player:
  vars:
    score: 0
    coins: 0
  zones:
    hand: {visibility: owner}
    table: {visibility: public}
vars:
  turns: 0
functions:
  reds:
    params: [p]
    expr: "count([x for x in p.hand if x.color == 'red'])"
  blues:
    params: [p]
    expr: "count([x for x in p.hand if x.color == 'blue'])"
procedures:
  deal:
    params: [p]
    do: |
      draw(deck, to=p.hand, n=2)
  turn:
    params: [p]
    do: |
      choose p:
          "score":
              p.score += reds(p)
              p.coins += 1
          "red" if count(p.hand) > 0:
              log("red")
              move(top(p.hand), to=discard, at="bottom")
      turns += 1
setup: |
  shuffle(deck, stream="setup")
  for p in players:
      deal(p)
flow:
  end_after_round_if: "turns >= 4"
  phases:
    - id: turns
      do: |
        for p in players:
            turn(p)
scoring:
  categories:
    - id: score
      points: "p.score + p.coins"
"""
COINS = """\
title: Scoring earns a coin
game: ..
players: 2
actions:
  - p1: score
  - expect: {"p1.coins": 1}
"""


@pytest.fixture
def named(tmp_path):
    folder = tmp_path / "names"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text(NAMES_GAME)
    (folder / "scenarios" / "coins.yaml").write_text(COINS)
    return str(folder)


def test_each_names_operator_plants_the_wrong_name(named):
    """The names family: the right shape, the wrong name, each a single change of one line."""
    found = mutants.mutants_of(named, family="names")
    assert found == mutants.mutants_of(named, family="names")
    changes = [m.describe(NAMES_GAME) for m in found]
    expected = [
        # 1. a set's member written as a text: each other member
        """game.yaml:29: set member: `expr: "count([x for x in p.hand if x.color == 'red'])"` -> """
        """`expr: "count([x for x in p.hand if x.color == 'blue'])"`""",
        """game.yaml:29: set member: `expr: "count([x for x in p.hand if x.color == 'red'])"` -> """
        """`expr: "count([x for x in p.hand if x.color == 'green'])"`""",
        # 2. an attribute: another of its kind (the occurrences of `.color` take rank, then tapped)
        """game.yaml:29: attribute: `expr: "count([x for x in p.hand if x.color == 'red'])"` -> """
        """`expr: "count([x for x in p.hand if x.rank == 'red'])"`""",
        """game.yaml:32: attribute: `expr: "count([x for x in p.hand if x.color == 'blue'])"` -> """
        """`expr: "count([x for x in p.hand if x.tapped == 'blue'])"`""",
        "game.yaml:37: attribute: `draw(deck, to=p.hand, n=2)` -> `draw(deck, to=p.table, n=2)`",
        "game.yaml:44: attribute: `p.coins += 1` -> `p.score += 1`",
        # 3. a zone passed to a call: another global zone
        "game.yaml:37: zone: `draw(deck, to=p.hand, n=2)` -> `draw(discard, to=p.hand, n=2)`",
        """game.yaml:47: zone: `move(top(p.hand), to=discard, at="bottom")` -> """
        """`move(top(p.hand), to=box, at="bottom")`""",
        # 4. a content call: another of the same section and arity
        "game.yaml:43: call: `p.score += reds(p)` -> `p.score += blues(p)`",
        "game.yaml:52: call: `deal(p)` -> `turn(p)`",
        # 5. a built-in's optional keyword dropped; top and bottom swapped
        "game.yaml:37: drop keyword: `draw(deck, to=p.hand, n=2)` -> `draw(deck, to=p.hand)`",
        """game.yaml:50: drop keyword: `shuffle(deck, stream="setup")` -> `shuffle(deck)`""",
        """game.yaml:47: drop keyword: `move(top(p.hand), to=discard, at="bottom")` -> """
        """`move(top(p.hand), to=discard)`""",
        """game.yaml:47: top/bottom: `move(top(p.hand), to=discard, at="bottom")` -> """
        """`move(top(p.hand), to=discard, at="top")`""",
    ]
    for change in expected:
        assert change in changes
    assert not [c for c in changes if c.startswith(("game.yaml:45: set", "game.yaml:46: set"))]  # a label, a log
    drops = [c.split(" -> ") for c in changes if "drop keyword" in c]
    assert len(drops) == 3 and all(a.count("to=") == b.count("to=") for a, b in drops)     # `to` is no option
    assert len(changes) == 28
    assert mutants.mutants_of(named) == mutants.mutants_of(named, family="text") + found   # text first


def test_the_text_family_is_listed_first_and_alone(tiny, capsys):
    """`--family text` is the syntactic family alone, the first part of `all`: its numbering and
    its samples do not move when names mutants are added."""
    assert mutants.main([tiny, "--list", "--family", "text"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert mutants.main([tiny, "--list"]) == 0
    both = capsys.readouterr().out.splitlines()
    assert text and both[:len(text)] == text
    assert [m.describe(mutants._text(tiny, m.file)) for m in mutants.mutants_of(tiny, family="text")] == text


def test_survivors_of_an_earlier_run_are_run_again(tiny, tmp_path, capsys):
    """`--survivors FILE` keeps the mutants an earlier `--json` run says survived, and only those."""
    assert mutants.main([tiny, "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    earlier = {"mutants": [{"change": listed[1], "fate": "survived"}, {"change": listed[2], "fate": "killed"}]}
    path = tmp_path / "earlier.json"
    path.write_text(json.dumps(earlier), encoding="utf-8")
    assert mutants.main([tiny, "--list", "--survivors", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [listed[1]]


def test_a_names_mutant_is_judged(named, capsys):
    """End to end: `--family names --match` picks one mutant; the rule script kills it."""
    assert mutants.main([named, "--family", "names", "--match", "`p.coins += 1`", "--jobs", "1",
                         "--json", "--quiet", "--timeout", "20"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(r["change"], r["fate"]) for r in report["mutants"]] == [
        ("game.yaml:44: attribute: `p.coins += 1` -> `p.score += 1`", "killed")]
