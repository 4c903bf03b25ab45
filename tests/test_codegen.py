# SPDX-License-Identifier: MIT
"""The generated module (dsl/codegen.py): procedures as plain or resumable Python, failures
on the author's line, options listed without their notation, clones freed at once."""
from __future__ import annotations

import gc
import textwrap
import weakref

import pytest

import rulekit
from rulekit.engine import api, memo, mutate, rng
from rulekit.engine.library import REGISTRY
from rulekit.errors import ContentRuntimeError

from probes import Calls, ReadCounts, list_again, returns

HEAD = """\
meta: {title: E}
players: {min: 1, max: 2}
vars:
  total: {initial: 0, min: 0}
player:
  vars:
    coins: {initial: 0, min: 0}
zones:
  pile: {}
components:
  chip: {copies: 2, start: pile}
functions:
  inv:
    params: [x]
    expr: "10 // x"
procedures:
  direct:
    params: [n]
    do: |
      a = 1
      if n > 5:
          b = 2
      total = a + b
  chooser:
    do: |
      choose players[0]:
          "go":
              pass
      k = inv(0)
  countdown:
    params: [n]
    do: |
      if n > 0:
          countdown(n - 1)
"""
PHASE_LINE = HEAD.count("\n") + 6      # the first line of the phase body below


def _game(write_game, body: str):
    text = HEAD + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n" + textwrap.indent(body, "        ") + "\n"
    return rulekit.load_game(write_game(text))


def _line_of(text: str) -> int:
    return HEAD.splitlines().index(text) + 1


# (phase body, code, line, start of the message): the same as the VM before the generated
# module gave, case by case (compared side by side when the compiler changed)
FAILURES = [
    ("direct(1)", "RK4000", _line_of("      total = a + b"), "`b` has no value here (read before it was set?)"),
    ("if false:\n    z = 1\nw = z", "RK4000", PHASE_LINE + 2, "`z` has no value here"),
    ("total = inv(0)", "RK4000", PHASE_LINE, "division by zero"),
    ("players[0].coins -= 1", "RK4003", PHASE_LINE, "`p1.coins` would become -1, below its minimum 0"),
    ('choose players[0]:\n    "a" if false:\n        pass', "RK4010", PHASE_LINE, "no option of this choice"),
    ('choose players[0]:\n    "a" if inv(0) > 1:\n        pass\n    "b":\n        pass', "RK4000", PHASE_LINE + 1,
     "division by zero"),     # (on the line of the option whose test fails)
    ('choose players[0]:\n    "a {inv(0)}":\n        pass', "RK4000", PHASE_LINE, "division by zero"),
    ("chooser()", "RK4000", _line_of("      k = inv(0)"), "division by zero"),
    # (`[1] + 1` itself is refused before the game runs, RK0324: read out of a list, its kind only play tells)
    ("x = [[1]][0] + 1\ntotal = 1 if x else 0", "RK4022", PHASE_LINE, "`+` cannot join a list and a number"),
    ('choose 7:\n    "a":\n        pass', "RK4013", PHASE_LINE, "`choose` asks 7, who is not a player"),
    ("for x in none:\n    total += 1", "RK4002", PHASE_LINE, "expected a list or a zone, got none"),
]


@pytest.mark.parametrize("body,code,line,message", FAILURES, ids=[f[1] + ":" + f[0][:20] for f in FAILURES])
def test_a_failure_names_its_content_line_and_code(write_game, body, code, line, message):
    game = _game(write_game, body)
    with pytest.raises(ContentRuntimeError) as info:
        state = rulekit.new_game(game, 1)
        while not state.over:
            rulekit.apply(state, state.pending.labels[0])
    err = info.value
    assert (err.code, err.span.line) == (code, line)
    assert str(err).startswith(message) or message in str(err)
    assert err.span.path.endswith("game.yaml")      # the content file, never the generated one


def test_procedures_that_never_decide_are_plain_python_functions(write_game):
    game = _game(write_game, "direct(9)\nchooser()\ncountdown(3)")
    procs = game.program.procedures
    assert not procs["direct"].stops and procs["direct"].direct is not None
    assert procs["chooser"].stops and procs["chooser"].run is not None        # it has a choose
    assert procs["countdown"].stops       # it calls itself: frames keep its depth bounded (RK4008)
    with returns(procs["direct"].direct) as runs:
        rulekit.new_game(game, 1)
    (kept,) = runs                          # a plain procedure's locals are Python locals: n, a and b
    assert {9, 1, 2} <= {value for value in kept.values() if type(value) is int}


def test_a_variable_is_stored_in_place_or_through_its_setter_with_the_same_result(write_game):
    """Where no record is kept and nothing is remembered, a whole number within a variable's
    bounds is stored in place; a recorded game goes through the setter, which logs the change.
    Both end in the same values, and the bounds still stop a value outside them (RK4003)."""
    body = "total = 3\nplayers[0].coins += 2\nplayers[0].coins -= 1\ntotal = players[0]\ntotal = 4"
    game = _game(write_game, body)
    setter = mutate.variable_setter("total", False)      # the code every variable's setter runs
    through = {}
    for record in (False, True):
        with Calls() as calls:
            state = api.new_game(game, 1, 1, record=record)
        assert (state.g["total"], state.p[0]["coins"]) == (4, 1)
        through[record] = calls[setter]
    assert through[True] - through[False] == 4      # the four whole numbers, stored in place in the plain game
    assert [" ".join(map(str, e[1:])) for e in state.events if e[0] == "set" and e[1] != "round"] == [
        "total 0 3", "p1.coins 0 2", "p1.coins 2 1", "total 3 p1", "total p1 4"]
    with pytest.raises(ContentRuntimeError) as info:
        api.new_game(_game(write_game, "players[0].coins -= 1"), 1, 1, record=False)
    assert info.value.code == "RK4003"


def test_a_dropped_clone_is_freed_without_the_garbage_collector():
    game = rulekit.load_game("batavia")
    state = api.new_game(game, 3, 1, record=False)
    gc.disable()
    try:
        clone = state.clone()
        api.apply_index(clone, 0, atomic=False)
        alive = weakref.ref(clone)
        del clone
        assert alive() is None     # no cycle through the pending decision
    finally:
        gc.enable()
    assert state.pending.labels     # the original still writes its options


def test_random_playouts_never_write_the_notation():
    game = rulekit.load_game("goa")
    state = api.new_game(game, 3, 5, record=False)
    r = rng.stream_seed(5, "test")
    steps = 0
    while not state.over:
        assert state.pending._labels is None       # options listed as tuples, no text
        r, i = rng.below(r, len(state.pending.choices))
        api.apply_index(state, i, atomic=False)
        steps += 1
    assert steps > 200 and len(state.actions) == steps     # the action log still has every move,
    assert all(type(a) is int for a in state.actions)       # as the index of the option taken
    recorded = api.new_game(game, 3, 5)
    for index in state.actions:                             # which replays the same game, with notation
        api.apply_index(recorded, index)
    assert recorded.over and recorded.result == state.result
    assert all(isinstance(a, str) and a for a in recorded.actions)


def test_a_recorded_game_writes_and_checks_the_notation_at_once(write_game):
    game = _game(write_game, 'choose players[0]:\n    "same" for k in [1, 2]:\n        pass')
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(game, 1)
    assert info.value.code == "RK4011"
    state = rulekit.new_game(game, 1, record=False)          # listed, not written
    with pytest.raises(ContentRuntimeError) as info:
        _ = state.pending.labels                             # reading the labels writes them
    assert info.value.code == "RK4011"


def test_a_memo_that_does_not_pay_is_dropped_and_results_stay_the_same(write_game, monkeypatch):
    monkeypatch.setattr(memo, "PER_STATE", True)      # off as shipped: the trial, for those who turn it on
    monkeypatch.setattr(memo, "TRIAL_CALLS", 50)
    text = HEAD.replace("functions:\n", "functions:\n  plus:\n    params: [n]\n"
                        "    expr: \"total + sum([k for k in [n]])\"\n"
                        "  pile_size:\n    params: [n]\n"
                        "    expr: \"sum([sum([count(pile) * k for k in range(30)]) for j in range(n * 30)])\"\n")
    body = "for i in range(200):\n    total = plus(i) % 7 + pile_size(1) // 900 + pile_size(1) // 900"
    folder = write_game(text + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n"
                        + textwrap.indent(body, "        ") + "\n")
    game = rulekit.load_game(folder)
    state = rulekit.new_game(game, 1)
    total = 0
    for i in range(200):
        total = (total + i) % 7 + 2 * (30 * 2 * sum(range(30)) // 900)     # two chips in the pile
    assert state.g["total"] == total
    ns = game.program.module.comp.ns
    settled = {name: getattr(ns[name], "__name__", "") for name in ("fn_plus", "fn_pile_size")}
    # `plus` is asked something new every time: after its trial its callers call it directly;
    # `pile_size(1)` is asked again and again (the pile never changes) and takes long to
    # work out: its memory is kept
    assert settled == {"fn_plus": "f_plus", "fn_pile_size": "call"}


def test_loops_nested_deeper_than_python_allows_still_run(write_game):
    """Python refuses more than 20 loops nested in one function; such a procedure is written
    with its loops as blocks (as the VM ran it), and runs."""
    body = "".join("    " * i + f"for i{i} in {'[1, 2]' if i < 3 else '[1]'}:\n" for i in range(25)) \
        + "    " * 25 + "total += 1\n"
    game = _game(write_game, body)
    state = rulekit.new_game(game, 1)
    assert state.over and state.g["total"] == 8          # every pass of the innermost loop counted


def test_a_built_in_declared_inline_is_written_out_for_plain_variables(write_game):
    """`seat(p)` and `text(p)` of a player are written in place (`inline=` on the built-in); any
    other value still goes through the built-in, with the same results."""
    game = _game(write_game, 'for p in players:\n    total = total + seat(p)\n'
                 'k = 2\nlabel = text(players[1]) + text(k) + text(true)\ntotal = total + seat(k) + count(label)')
    with Calls() as calls:
        state = api.new_game(game, 2, 1)
    assert state.g["total"] == (1 + 2) + 3 + len("p22true")
    assert calls[REGISTRY["seat"].impl] == 1 and calls[REGISTRY["text"].impl] == 2   # seat(k); text(k), text(true)


OFFER = HEAD.replace("procedures:\n", """procedures:
  offer:
    params: [p, n, tag]
    do: |
      choose p:
          "take {k}" for k in range(1, n + 1) if k <= p.coins + n:
              p.coins += k
          "pass" if n > 0 and p != players[1]:
              pass
          "{tag}":
              pass
""", 1)


def test_a_parameter_the_listing_reads_more_than_once_is_read_once(write_game):
    """Listing options changes no local, and a parameter is in the env from its frame's start:
    one read before the listing serves every option (`tag`, read once, stays where it is)."""
    text = OFFER + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n        offer(players[0], 2, 'x')\n"
    game = rulekit.load_game(write_game(text))
    state = rulekit.new_game(game, 2)
    assert list(state.pending.labels) == ["take 1", "take 2", "pass", "x"]
    frame = state.frames[-1]
    frame.env = ReadCounts(frame.env)
    list_again(state)
    assert frame.env.reads == {"p": 1, "n": 1, "tag": 1}     # each once: the one read of `p` also says who decides
    assert list(state.pending.labels) == ["take 1", "take 2", "pass", "x"]
    rulekit.apply(state, "take 2")
    assert state.p[0]["coins"] == 2 and state.over


PICKS = """\
meta: {title: Picks}
players: {min: 1, max: 1}
sets:
  colors: [red, blue, green]
vars:
  played: false
  seen: NSEEN
components:
  card: {items: [{id: r1, color: red}, {id: b1, color: blue}, {id: r2, color: red}], start: pile}
zones:
  pile: {}
player:
  zones: {hand: {}}
functions:
  of_color:
    params: [p, k]
    expr: "[c for c in p.hand if c.color == k]"
  playable:
    params: [p, k]
    expr: "[] if played else [c for c in p.hand if c.color == k]"
  roomy:
    params: [p, k]
    expr: "count(p.hand) < 5 and k != 'green'"
  inv:
    params: [x]
    expr: "10 // x"
procedures:
  turn:
    params: [p]
    do: |
      choose p:
          "keep {c}" for c in of_color(p, 'red'):
              played = true
          "play {c}" for c in playable(p, 'blue'):
              pass
          "name {k}" for k in colors if roomy(p, k):
              pass
          "shed {c}" for c in p.hand if inv(seen) > 0:
              pass
flow:
  rounds: 1
  phases:
    - id: m
      do: |
        draw(pile, to=players[0].hand, n=NCARDS)
        turn(players[0])
"""


def _picks(write_game, cards: int, seen: int = 1):
    return rulekit.load_game(write_game(PICKS.replace("NCARDS", str(cards)).replace("NSEEN", str(seen))))


def test_an_option_walks_what_its_function_picks_from(write_game):
    """``for c in of_color(p, 'red')`` where the function is ``[c for c in p.hand if ...]``: the
    listing walks the hand and tests each card in place (no call, no list), with the function's
    own guard (``[] if played else ...``) before the loop; the options are the function's."""
    game = _picks(write_game, 3)
    with Calls() as calls:
        state = rulekit.new_game(game, 1)
    assert list(state.pending.labels) == ["keep r2", "keep r1", "play b1", "name red", "name blue",
                                          "shed r2", "shed b1", "shed r1"]
    functions = game.program.functions
    assert calls[functions["of_color"]] == calls[functions["playable"]] == 0


def test_a_test_goes_before_loops_over_sets_only(write_game):
    """``roomy(p, k)`` written out: ``count(p.hand) < 5`` needs no ``k`` and the loop walks a
    set, so it is asked once before the loop; a failing test of a hand (``10 // 0``) stays inside
    its loop: with no card in hand it is never asked, as before."""
    game = _picks(write_game, 0, seen=0)
    state = rulekit.new_game(game, 1)       # an empty hand: no `shed` option, and no failure
    assert list(state.pending.labels) == ["name red", "name blue"]
    with Calls() as calls:
        list_again(state)
    assert calls.made_by_module(len, game) == 1          # count(p.hand), once for the three colours
    with pytest.raises(ContentRuntimeError) as failed:
        rulekit.new_game(_picks(write_game, 1, seen=0), 1)   # a card in hand: the test is asked, and fails
    assert failed.value.code == "RK4000"


ASKS = """\
meta: {title: Asks}
players: {min: 1, max: 1}
sets:
  colors: [red, blue, green]
components:
  card: {items: [{id: r1, color: red}, {id: b1, color: blue}, {id: r2, color: red}, EXTRA], start: pile}
zones:
  pile: {}
player:
  zones: {hand: {}}
flow:
  rounds: 3
  phases:
    - id: m
      do: |
        p = players[0]
        if round == 1:
            draw(pile, to=p.hand, n=NCARDS)
        choose p:
            "give {k}" for k in colors if round >= FROM and count([c for c in p.hand if c.color == k]) > 0:
                move(first([c for c in p.hand if c.color == k]), to=pile)
            "keep {k}" for k in colors if round >= FROM and count([c for c in p.hand if c.color == k]) > 1:
                pass
            "wait":
                pass
"""


class _CountedGets(dict):
    def __init__(self, *args):
        super().__init__(*args)
        self.gets = 0

    def get(self, *args):
        self.gets += 1
        return super().get(*args)


def _asks(write_game, cards: int, extra: str = "{id: r3, color: red}", first_round: int = 1, more: str = ""):
    text = ASKS.replace("NCARDS", str(cards)).replace("EXTRA", extra).replace("FROM", str(first_round))
    return rulekit.load_game(write_game(text + more))


# content that asks `has(c, "color")` somewhere says some cards may lack it: validate lets it pass
MAY_LACK_COLOR = 'functions:\n  colored: {params: [c], expr: "has(c, \'color\')"}\n'


def test_a_tally_the_listing_asks_in_a_loop_is_looked_up_once(write_game):
    """``count(... c.color == k)`` for each ``k`` of a set: the hand's tally is one table for
    the whole listing (no move happens while options are listed), looked up where it is first
    asked; the next listing, after a move, looks it up again and sees the move."""
    game = _asks(write_game, 4)
    state = rulekit.new_game(game, 1)
    assert list(state.pending.labels) == ["give red", "give blue", "keep red", "wait"]
    state.tallies = _CountedGets(state.tallies)
    rulekit.apply(state, "give red")
    assert state.tallies.gets == 1      # six tests of two options over three colours: one lookup
    assert list(state.pending.labels) == ["give red", "give blue", "keep red", "wait"]   # r1, r2, r3: two red
    rulekit.apply(state, "give red")
    assert list(state.pending.labels) == ["give red", "give blue", "wait"]


def test_a_tally_kept_for_the_listing_fails_where_it_is_first_asked(write_game):
    """A card without the property in the hand: the count fails as its scan would, on the line
    of the option that first asks it, when the listing first asks it, and not where no test asks
    it (the first counts wait for round 2: the first round lists `wait` alone, the second fails)."""
    with pytest.raises(ContentRuntimeError) as failed:
        rulekit.new_game(_asks(write_game, 4, extra="{id: x1}", more=MAY_LACK_COLOR), 1)
    assert failed.value.code == "RK4000" and "x1" in str(failed.value)
    first_asks = next(k for k, line in enumerate(ASKS.splitlines(), 1) if '"give {k}"' in line)
    assert failed.value.span.line == first_asks      # the line of the option that asks it
    state = rulekit.new_game(_asks(write_game, 4, extra="{id: x1}", first_round=2, more=MAY_LACK_COLOR), 1)
    assert list(state.pending.labels) == ["wait"]
    with pytest.raises(ContentRuntimeError) as again:
        rulekit.apply(state, "wait")
    assert again.value.code == "RK4000" and again.value.span == failed.value.span
