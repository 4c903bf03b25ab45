# SPDX-License-Identifier: MIT
"""What validates runs (issue 36): a player's own family of zones (`player: zones: land: {keys:
...}`) works everywhere a game's family does; what cannot work is refused by `validate` at its
line; a content fault at play is an RK4xxx error in the author's words; a failure of rulekit's
own code is a bug in rulekit (exit 101) that keeps its cause."""
from __future__ import annotations

import json

import pytest

import rulekit
from rulekit.engine import serialize, view
from rulekit.engine import state as state_module
from rulekit.errors import ContentRuntimeError, DiagnosticReport, InternalError

from conftest import run_cli

FAMILY = """\
meta: {title: Family}
players: {min: 1, max: 3, default: 2}
sets:
  terrains: [forest, hill]
components:
  tile: {copies: 6, id: "tile-{n}", start: pool, props: {worth: 2}}
zones:
  pool: {visibility: public}
player:
  vars:
    score: 0
  zones:
    land: {keys: terrains, visibility: owner, capacity: 2}
    track: {range: [1, 2]}
functions:
  worth_of:
    params: [z]
    expr: "sum(x.worth for x in z)"
flow:
  rounds: 3
  phases:
    - id: turns
      do: |
        for p in players:
            choose p:
                "put {t}" for t in terrains if count(p.land[t]) < 2 and count(pool) > 0:
                    move(top(pool), to=p.land[t])
                    p.score += worth_of(p.land[t])
                "back {t}" for t in terrains if count(p.land[t]) > 0:
                    mine = p.land
                    x = top(mine[t])
                    if x in mine[t]:
                        move(x, to=p.track[1])
                "pass":
                    pass
scoring:
  categories:
    - {id: score, points: "p.score"}
"""


def _game(write_game, text=FAMILY):
    return rulekit.load_game(write_game(text))


def test_a_players_family_plays_moves_counts_and_replays(write_game, capsys):
    """It used to validate, then fail at the first move with `list indices must be integers`."""
    game = _game(write_game)
    state = rulekit.new_game(game, 2, 1)
    rulekit.apply(state, "put hill")
    rulekit.apply(state, "put hill")
    land = game.board.pzones["land"]
    assert [str(z) for z in land[:2]] == ["p1.land", "p2.land"]
    assert state.zones[land[0].zones["hill"]] == ["tile-6"] and state.zones[land[1].zones["hill"]] == ["tile-5"]
    assert state.p[0]["score"] == 2
    assert ("move", "tile-6", "pool", "p1.land[hill]") in state.events
    rulekit.apply(state, "back hill")                    # out of the family, through a local holding it
    assert state.zones[game.board.pzones["track"][0].zones[1]] == ["tile-6"]
    folder = game.path
    log = str(folder) + "/game.log"
    code, _out, _err = run_cli(capsys, "autoplay", str(folder), "--seed", "4", "--log", log, "--quiet")
    assert code == 0
    code, out, _err = run_cli(capsys, "run", log)
    assert code == 0 and "p1.land[" in out + open(log).read() or "p2.land[" in out


def test_every_bot_plays_a_players_family(write_game, capsys):
    folder = write_game(FAMILY)
    for bots in ("random", "greedy", "mcts:8"):
        code, out, _err = run_cli(capsys, "simulate", folder, "--games", "2", "--bots", bots)
        assert code == 0, out


def test_a_players_family_is_viewed_saved_and_loaded(write_game):
    game = _game(write_game)
    state = rulekit.new_game(game, 2, 1)
    rulekit.apply(state, "put forest")
    rulekit.apply(state, "put hill")
    mine, theirs = view.view(state, 0)["players"]["p1"], view.view(state, 0)["players"]["p2"]
    assert mine["land"] == {"forest": ["tile-6"], "hill": []}
    assert theirs["land"] == {"forest": {"count": 0}, "hill": {"count": 1}}      # visibility: owner
    assert mine["track"] == {"1": [], "2": []}
    again = serialize.from_dict(game, json.loads(json.dumps(serialize.to_dict(state))))
    assert {k.text: v for k, v in again.zones.items()} == {k.text: v for k, v in state.zones.items()}
    assert again.legal_actions() == state.legal_actions()
    saved = serialize._enc(game.board.pzones["land"][1])        # a local holding a player's family
    assert serialize._dec(saved, serialize.zone_index(game, 2), game) is game.board.pzones["land"][1]


def test_a_players_family_is_drawn_space_by_space(write_game, capsys, tmp_path):
    folder = write_game(FAMILY)
    log, svg = str(tmp_path / "g.log"), str(tmp_path / "g.svg")
    assert run_cli(capsys, "autoplay", folder, "--seed", "2", "--log", log, "--quiet")[0] == 0
    assert run_cli(capsys, "render", log, "-o", svg, "--full")[0] == 0
    text = open(svg).read()
    assert 'data-zone="p1.land[forest]"' in text and 'data-zone="p2.track[2]"' in text


def test_a_players_family_keeps_its_capacity_per_space(write_game):
    game = _game(write_game, FAMILY.replace('"put {t}" for t in terrains if count(p.land[t]) < 2 and',
                                            '"put {t}" for t in terrains if'))
    state = rulekit.new_game(game, 1, 1)
    rulekit.apply(state, "put forest")
    rulekit.apply(state, "put forest")
    with pytest.raises(ContentRuntimeError) as failed:
        rulekit.apply(state, "put forest")
    assert failed.value.code == "RK4005" and "p1.land[forest]" in str(failed.value)


@pytest.mark.parametrize("test", ["x in p.land", "x not in p.land"])
def test_in_a_family_is_refused_at_its_line(write_game, test):
    """`in` on a family asked a zone's list of a Family (`0` has no value here, at play)."""
    text = FAMILY.replace("if x in mine[t]:", f"if {test}:")
    with pytest.raises(DiagnosticReport) as report:
        _game(write_game, text)
    diag = report.value.diagnostics[0]
    assert diag.code == "RK0344" and diag.span.line == text.splitlines().index(f"                    if {test}:") + 1
    assert "x in p.land[key]" in diag.message or "x not in p.land[key]" in diag.message


def test_a_family_given_where_a_zone_goes_names_the_players_family(write_game):
    with pytest.raises(DiagnosticReport) as report:
        _game(write_game, FAMILY.replace("to=p.land[t])", "to=p.land)"))
    assert report.value.diagnostics[0].code == "RK0321" and "`p.land[key]`" in report.value.diagnostics[0].message


# ------------------------------------------------------------------ content faults, in content terms
FAULT = """\
meta: {title: Faults}
players: {min: 1, max: 1}
components:
  card: {copies: 2, id: "c{n}", start: hand}
zones:
  hand: {}
vars:
  out: 0
  k: 5
flow:
  rounds: 1
  phases:
    - id: go
      do: |
        FAULT
scoring:
  categories:
    - {id: s, points: "out"}
"""


@pytest.mark.parametrize("fault, code, words", [
    ("out = hand[k]", "RK4020", "index 5 is past the end of `hand` (2 items)"),
    ("out = [1, 2, 3][k] if k > 9 else [1][k - 7]", "RK4020", "index -2 is past the start of the list (1 item)"),
    ("out = [[1, 2], 3][k - 4][0]", "RK4022", "a number cannot be indexed"),
    # (`none + k` and `[1] + k` are refused before the game runs, RK0324: a value read out of a
    # list has no evident kind, so these fail in play)
    ("out = [none][0] + k", "RK4022", "`+` cannot take none and a number"),
    ("out = [[1]][0] + k", "RK4022", "`+` cannot join a list and a number"),
    ("out = count(distinct([[1], 2]))", "RK4022", "a list cannot be a key"),
    ("out = k % 0", "RK4000", "division by zero"),
    ("out = count([k][0])", "RK4022", "a number is not a list"),     # (`count(k)`: RK0321 before play)
])
def test_a_content_fault_is_an_rk4_error_in_content_terms(write_game, fault, code, words):
    game = rulekit.load_game(write_game(FAULT.replace("FAULT", fault)))
    with pytest.raises(ContentRuntimeError) as failed:
        rulekit.new_game(game, 1)
    assert failed.value.code == code and words in str(failed.value), str(failed.value)
    assert failed.value.span.line == 15


# ------------------------------------------------------------------ rulekit's own failures
def _broken_writable(monkeypatch):
    """A bug planted in rulekit's own code: moving an item asks a dict of its zone's list."""
    monkeypatch.setattr(state_module.State, "writable", state_module.State.item_states)


def test_a_failure_of_rulekits_own_code_is_an_internal_error_with_its_cause(write_game, monkeypatch):
    game = _game(write_game)
    state = rulekit.new_game(game, 2, 1)
    _broken_writable(monkeypatch)
    with pytest.raises(InternalError) as failed:
        rulekit.apply(state, "put hill")
    error = failed.value
    assert error.exit_code == 101 and error.code == "RK9999"
    assert isinstance(error.__cause__, KeyError)                # kept, not dropped
    assert "rulekit/engine/mutate.py" in str(error) and "bug in rulekit" in error.render()


def test_an_internal_error_exits_101_and_shows_its_traceback_when_asked(write_game, monkeypatch, capsys):
    folder = write_game(FAMILY)
    _broken_writable(monkeypatch)
    code, out, _err = run_cli(capsys, "simulate", folder, "--games", "1", "--bots", "greedy")
    assert code == 101 and "internal error[RK9999]" in out and "bug in rulekit" in out and "RK4000" not in out
    assert "Traceback" not in out
    monkeypatch.setenv("RULEKIT_DEBUG", "1")
    code, out, _err = run_cli(capsys, "simulate", folder, "--games", "1", "--bots", "greedy")
    assert code == 101 and "Traceback" in out and "mutate.py" in out and "direct cause" in out
