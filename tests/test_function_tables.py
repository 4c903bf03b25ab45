# SPDX-License-Identifier: MIT
"""A tally a content function reads by its parameters alone, in two lines or in a loop, is looked
up once (the ``listing`` pass, tallies.function_tables; issue 54): the function keeps it in a local
that starts as None. One read in one line alone stays as it is, and one keyed by a loop's variable
is never kept. The games play the same with the pass off."""
from __future__ import annotations

import rulekit
from rulekit.dsl import passes
from rulekit.engine import api

GAME = """\
meta: {title: Function tables}
players: {min: 2, max: 3, default: 2}
sets:
  colours: [red, blue, green]
components:
  card:
    generate: {colour: colours, n: {range: [1, 9]}}
    id: "{colour}-{n}"
    start: deck
zones:
  deck: {visibility: public}
  bin:
    keys: colours
    visibility: public
vars:
  total: 0
player:
  zones:
    hand: {visibility: public}
functions:
  held: {params: [p, c], expr: "count(x for x in p.hand if x.colour == c)"}
  in_bin: {params: [c, d], expr: "count(x for x in bin[c] if x.colour == d)"}
  best: {params: [p], expr: "max([held(p, c) for c in colours], default=0)"}
  once: {params: [p], expr: "held(p, 'red') + 1"}
  others: {params: [c], expr: "max([held(q, c) for q in players], default=0)"}
  binned: {params: [c], expr: "in_bin(c, 'red') + max([in_bin(c, d) for d in colours], default=0)"}
setup: |
  shuffle(deck)
  for p in players:
      for i in range(5):
          move(top(deck), to=p.hand)
  for c in colours:
      move(top(deck), to=bin[c])
      move(top(deck), to=bin[c])
  for p in players:
      total += best(p) + once(p) + others('red') + binned('blue')
flow:
  rounds: 1
  phases:
    - id: m
      do: pass
"""


def _function(source: str, name: str) -> list:
    """The lines of generated function ``name``."""
    lines = source.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(f"def f_{name}("))
    end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith("def ")), len(lines))
    return [line.strip() for line in lines[start + 1:end] if line.strip()]


def _load(folder: str, setting: str = "all"):
    with passes.using(passes.parse(setting)):
        return rulekit.load_game(folder)


def _source(folder: str, setting: str = "all") -> str:
    return _load(folder, setting).program.module.source()


def test_a_table_a_loop_reads_by_a_parameter_is_looked_up_once(write_game):
    body = _function(_source(write_game(GAME)), "best")
    assert body[0] == "_tc = None", body
    assert "(_tc or (_tc := s.tallies.get(TK_hand[v_p]) or TALLY_TABLE(s, TK_hand[v_p]))).get(v_c, 0)" \
        in " ".join(body), body


def test_a_table_of_a_familys_space_by_a_parameter_is_looked_up_once(write_game):
    body = _function(_source(write_game(GAME)), "binned")
    assert body[0] == "_tc = None" and " ".join(body).count("_tc or (_tc := ") == 2, body
    assert not any(line.startswith("_tc_2") for line in body), body


def test_a_table_read_once_or_by_a_loops_variable_is_read_as_it_is(write_game):
    source = _source(write_game(GAME))
    assert "_tc" not in "\n".join(_function(source, "once")), _function(source, "once")
    assert "_tc" not in "\n".join(_function(source, "others")), _function(source, "others")


def test_the_game_is_the_same_with_the_pass_off(write_game):
    folder = write_game(GAME)
    off = _source(folder, "-listing")
    assert "_tc" not in "\n".join(_function(off, "best") + _function(off, "binned"))
    totals = []
    for setting in ("all", "-listing"):
        game = _load(folder, setting)
        totals.append([api.new_game(game, n, seed).g["total"] for n in (2, 3) for seed in range(6)])
    assert totals[0] == totals[1] and len(set(totals[0])) > 1, totals
