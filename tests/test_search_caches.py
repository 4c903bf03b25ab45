# SPDX-License-Identifier: MIT
"""What the search bots remember between states never changes an answer."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.agents import estimates
from rulekit.engine import api, rng
from rulekit.engine.state import PLAYERS
from rulekit.model import ESTIMATE

GAME = """
meta: {title: Points}
players: {min: 2, max: 3, default: 2}
components:
  card:
    generate: {value: {range: [1, 6]}}
    id: "c{value}"
    start: deck
zones:
  deck: {visibility: hidden}
  table: {visibility: public}
player:
  vars:
    points: 0
    luck: 0
  zones:
    hand: {visibility: owner}
setup: |
  for p in players:
      move(top(deck), to=p.hand)
flow:
  rounds: 2
  phases:
    - id: turns
      do: |
        for p in players:
            choose p:
                "play {c}" for c in p.hand:
                    move(c, to=table)
                    p.points += c.value
                "pass":
                    p.luck += 1
scoring:
  categories:
    - id: points
      points: "p.points"
estimate: ESTIMATE
"""


def _game(write_game, estimate: str):
    return rulekit.load_game(write_game(GAME.replace("ESTIMATE", f'"{estimate}"')))


def _worked_out(s) -> tuple:
    return tuple(s.game.scoring.estimate(s, {"p": PLAYERS[q]}) for q in range(s.n))


def test_the_estimate_is_found_under_the_models_name():
    assert estimates.ESTIMATE == ESTIMATE


@pytest.mark.parametrize("name, players", [("batavia", 5), ("goa", 4)])
def test_remembered_estimates_match_worked_out_ones(name, players):
    """Every option's trial from states along random games: the estimates remembered from
    earlier trials are the ones worked out afresh, and most trials are answered from memory."""
    game = rulekit.load_game(name)
    remembered = estimates.Estimates()
    asked = 0
    for seed in range(2):
        s = api.new_game(game, players, seed, record=False)
        r = rng.stream_seed(seed, "test")
        while not s.over and len(s.actions) < 120:
            for index in range(len(s.pending.choices)):
                trial = s.clone()
                api.apply_index(trial, index, atomic=False)
                assert remembered(trial) == _worked_out(trial)
                asked += 1
            r, i = rng.below(r, len(s.pending.choices))
            api.apply_index(s, i, atomic=False)
    assert len(remembered.table) < asked / 2


def test_a_state_that_differs_in_what_the_estimate_reads_is_worked_out_again(write_game):
    game = _game(write_game, "p.points * 2 + count(p.hand)")
    remembered = estimates.Estimates()
    s = api.new_game(game, 2, 0, record=False)
    assert remembered(s) == (1, 1) and len(remembered.table) == 1
    other = s.clone()
    other.p[1]["luck"] = 7                     # not read: the same key
    assert remembered(other) == (1, 1) and len(remembered.table) == 1
    for value, expected in ((1, (3, 1)), (True, (3, 1)), (1.0, (3.0, 1)), (3, (7, 1))):
        changed = s.clone()
        changed.p[0]["points"] = value         # 1, True and 1.0 are equal in Python, not here
        changed.memo = {}                      # written past the engine: forget what the state remembers
        got = remembered(changed)
        assert got == expected == _worked_out(changed) and type(got[0]) is type(expected[0])
    assert len(remembered.table) == 5


def test_an_estimate_that_may_read_anything_is_never_remembered(write_game):
    remembered = estimates.Estimates()
    s = api.new_game(_game(write_game, "p.points + count(x for x in table if x in deck)"), 2, 0, record=False)
    assert remembered(s) == (0, 0) and remembered.reads is None and not remembered.table
    s = api.new_game(_game(write_game, "p.points"), 2, 0, record=False)
    s.coarse = True                            # a variable holds a zone: reads cannot be named
    assert remembered(s) == (0, 0) and not remembered.table


def test_the_estimate_follows_the_verdict_of_its_memory_trial(write_game, monkeypatch):
    """The estimate is called through the memo like any function, and a trial that finds
    remembering does not pay hands it the plain function: later states remember nothing."""
    from rulekit.engine import memo

    monkeypatch.setattr(memo, "PER_STATE", True)      # off as shipped (engine/memo.py)
    monkeypatch.setattr(memo, "TRIAL_CALLS", 3)
    monkeypatch.setattr(memo, "KEEP_RATE", 2.0)        # more than every call: never worth it
    game = _game(write_game, "p.points * 2 + count(p.hand)")
    for seed in range(3):                              # the trial: three calls, each remembered
        s = api.new_game(game, 2, seed, record=False)
        assert game.scoring.estimate(s, {"p": PLAYERS[0]}) == 1 and ESTIMATE in s.memo
    s = api.new_game(game, 2, 9, record=False)
    assert game.scoring.estimate(s, {"p": PLAYERS[1]}) == 1 and ESTIMATE not in s.memo


WITH_HELPERS = GAME.replace("scoring:\n", """functions:
  own_points:
    params: [x]
    expr: "x.points"
  best:
    expr: "max([q.points for q in players])"
  ping:
    params: [x]
    expr: "x.luck + pong(x)"
  pong:
    params: [x]
    expr: "0 if x.luck > 9 else ping(x)"
scoring:
""")


@pytest.mark.parametrize("estimate, own", [
    ("p.points * 2 + count(p.hand) + count(table)", True),
    ("own_points(p) + 1", True),
    ("own_points(players[0])", False),          # the first player's, whoever asks
    ("p.points - best()", False),
    ("sum([p.points for p in players])", False),   # `p` is every player here
    ("ping(p)", False),                         # functions asking each other: not followed
])
def test_an_estimate_of_its_own_seat_is_told_from_one_reading_others(write_game, estimate, own):
    game = rulekit.load_game(write_game(WITH_HELPERS.replace("ESTIMATE", f'"{estimate}"')))
    assert game.scoring.estimate_of_own_seat is own


@pytest.mark.parametrize("estimate, own, calls", [("p.points * 2 + count(p.hand)", True, 1),
                                                   ("p.points - best()", False, 2)])
def test_a_seats_estimate_is_kept_apart_when_it_reads_its_own_alone(write_game, estimate, own, calls):
    """A change to one player's points works out that player's estimate again and takes the
    others' from the seat they had; an estimate reading the others' points works out all."""
    import attrs
    game = rulekit.load_game(write_game(WITH_HELPERS.replace("ESTIMATE", f'"{estimate}"')))
    asked = []
    plain = game.scoring.estimate
    game = attrs.evolve(game, scoring=attrs.evolve(
        game.scoring, estimate=lambda s, env: asked.append(env["p"]) or plain(s, env)))
    remembered = estimates.Estimates()
    s = api.new_game(game, 2, 0, record=False)
    remembered(s)
    assert (remembered.reads.seats is not None) is own
    changed = s.clone()
    changed.p[0]["points"] = 5
    changed.memo = {}
    asked.clear()
    assert remembered(changed) == _worked_out(changed)
    assert len(asked) - 2 == calls and asked[0] == PLAYERS[0], "the last two are _worked_out's"


def test_the_kept_pickler_writes_equal_values_alike_and_outlives_a_failure():
    value = ([1, "x"], (2, True), PLAYERS[1])
    first = estimates.dumps(value)
    cyclic: list = [1]
    cyclic.append(cyclic)
    for bad in (cyclic, [1, [2, lambda: 0]]):
        with pytest.raises(Exception):  # noqa: B017 - which one is pickle's business
            estimates.dumps(bad)
    assert estimates.dumps(value) == first and estimates.dumps(([1, "x"], (2, True), 1)) != first
