# SPDX-License-Identifier: MIT
"""The checker/compiler: every name resolved once, every mistake a located diagnostic,
and compiled code that computes what the language says."""
from __future__ import annotations

import ast
import json
import textwrap

import pytest

import rulekit
from rulekit.engine.state import PLAYERS
from rulekit.errors import ContentRuntimeError, DiagnosticReport

from conftest import codes, game_dir, where
from probes import COMPREHENSIONS, Calls, ClassChecks, ReadCounts, count, defined, helpers, names_of, reads, without

# A tiny game with one of everything; SNIPPET is the body of procedure `snippet`.
BASE = """\
meta: {title: Snippet}
players: {min: 1, max: 2}
params: {limit: 3}
sets:
  colors: [red, blue]
vars:
  # the snippets give `total` values of every type
  total: {initial: 0, type: any}
player:
  vars:
    coins: 0
  zones:
    hand: {}
zones:
  pile: {}
functions:
  double:
    params: [x]
    expr: "x * 2"
procedures:
  helper:
    params: [a]
    do: |
      total = a
  snippet:
    do: |
SNIPPET
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        helper(1)
        snippet()
"""
SNIPPET_LINE = BASE.splitlines().index("SNIPPET") + 1
SNIPPET_COL = 7   # the snippet is indented by 6 spaces


def build(write_game, snippet: str, functions: dict | None = None, more_vars: dict | None = None):
    """A game folder: BASE with ``snippet`` as the body of procedure `snippet`, ``functions``
    (name -> (params, expression)) declared before `double` and ``more_vars`` (name -> initial
    value) after `total`."""
    body = textwrap.indent(textwrap.dedent(snippet), " " * 6)
    declared = "".join(f"  {name}:\n    params: [{', '.join(params)}]\n    expr: {json.dumps(expr)}\n"
                       for name, (params, expr) in (functions or {}).items())
    added = "".join(f"\n  {name}: {value}" for name, value in (more_vars or {}).items())
    text = BASE.replace("SNIPPET", body).replace("  double:", declared + "  double:", 1)
    return write_game({"game.yaml": text.replace("  total: {initial: 0, type: any}",
                                                 "  total: {initial: 0, type: any}" + added, 1)})


def diagnostics_of(write_game, snippet: str):
    folder = build(write_game, snippet)
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    return [d for d in info.value.diagnostics if d.severity == "error"]


# (snippet, code, message, help or None, column of the diagnostic on the snippet's line)
BAD = [
    ("x = pil", "RK0301", "unknown name `pil`", "did you mean `pile`?", 11),
    ("x = totl + 1", "RK0301", "unknown name `totl`", "did you mean `total`?", 11),
    ("x = zzzz", "RK0301", "unknown name `zzzz`", None, 11),
    ("x = helper", "RK0302", "`helper` is a procedure; call it with `helper(...)`", None, 11),
    ("x = double", "RK0302", "`double` is a function; call it with `double(...)`", None, 11),
    ("x = players[0].coin", "RK0303", "unknown attribute `coin`", "did you mean `coins`?", 11),
    ("players[0].coin += 1", "RK0303", "unknown attribute `coin`", "did you mean `coins`?", 7),
    ("x = helper(1) + 1", "RK0304",
     "procedure `helper` can only be called as a statement or as `x = helper(...)`",
     "procedures may ask players to decide, so they cannot run inside an expression", 11),
    ("x = cont(pile)", "RK0305", "unknown function `cont`", "did you mean `count`?", 11),
    ("hepler(1)", "RK0305", "unknown effect or procedure `hepler`", "did you mean `helper`?", 7),
    ("x = move(top(pile), to=pile)", "RK0306", "effect `move` changes the game and cannot be used as a value",
     'write it as a statement of its own: `move(item, to, at="top")`', 11),
    ("x = abs(1, 2)", "RK0307", "`abs` takes at most 1 argument, got 2", "the signature is `abs(number)`", 11),
    ("x = double(1, 2)", "RK0307", "function `double` takes 1 argument (x), got 2", None, 11),
    ("helper(1, 2)", "RK0307", "procedure `helper` takes 1 argument (a), got 2", None, 7),
    ("x = abs(1, y=2)", "RK0308", "`abs` has no argument `y`", "the signature is `abs(number)`", 20),
    ("draw(pile, to=pile, nn=2)", "RK0308", "`draw` has no argument `nn`", "did you mean `n`?", 30),
    ("x = min([1], numbers=[2])", "RK0309", "argument `numbers` of `min` given twice", None, 28),
    ("x = abs()", "RK0310", "`abs` is missing argument `number`", "the signature is `abs(number)`", 11),
    ("move(top(pile))", "RK0310", "`move` is missing argument `to`",
     'the signature is `move(item, to, at="top")`', 7),
    ("total = helper(1)", "RK0311", "a procedure's result can only be stored in a local name", None, 7),
    ("limit = 4", "RK0312", "`limit` is a constant and cannot be changed",
     "declare it under `vars:` if it changes during the game", 7),
    ("num_players += 1", "RK0312", "`num_players` is a constant and cannot be changed",
     "declare it under `vars:` if it changes during the game", 7),
    ("pile = 1", "RK0312", "`pile` names a zone or set and cannot be assigned", None, 7),
    ("players[0].hand = 1", "RK0313", "`hand` cannot be changed",
     "only player variables and item state declared under `state:` change", 7),
    ("[1][0] = 2", "RK0314", "only an element of a list or a table held by a variable can be set", None, 7),
    ("count(pile)", "RK0315", "`count(...)` computes a value that is thrown away",
     "assign it, `x = ...`, or use it in a condition", 7),
    ("break", "RK0316", "`break` outside a loop", None, 7),
    ("continue", "RK0316", "`continue` outside a loop", None, 7),
    ("if true:\n    break", "RK0316", "`break` outside a loop", None, 11),
]


@pytest.mark.parametrize("snippet,code,message,helptext,column", BAD, ids=[f"{b[1]}:{b[0]}" for b in BAD])
def test_bad_snippet(write_game, snippet, code, message, helptext, column):
    diags = diagnostics_of(write_game, snippet)
    assert [(d.code, d.message, d.help) for d in diags] == [(code, message, helptext)]
    (diag,) = diags
    last_line = SNIPPET_LINE + snippet.count("\n")
    assert (diag.span.line, diag.span.column) == (last_line, column)
    assert diag.span.path.endswith("game.yaml")


def test_good_snippet_compiles(write_game):
    folder = build(write_game, """\
        x = helper(2)        # helper returns nothing
        for c in colors:
            if c == red:
                continue
            total += double(limit)
            break
        players[0].coins = count(pile) + x if x != none else 0
        """)
    game = rulekit.load_game(folder)
    state = rulekit.new_game(game, 1)
    assert state.over
    assert state.g["total"] == 2 + 3 * 2      # helper(2), then blue: double(limit)
    assert state.p[0]["coins"] == 0           # x is none


def test_generated_code_keeps_content_text_as_data(write_game):
    """Expressions compile to Python source, but content values are bound, never spliced:
    text that looks like Python stays text, and generated code sees no Python builtins."""
    folder = build(write_game, """\
        log("__import__('os').system('echo hi') \\" '")
        players[0].coins = count([c for c in colors if c != "x') or ('"]) + sum([k * 2 for k in range(3)])
        """)
    game = rulekit.load_game(folder)
    state = rulekit.new_game(game, 1)
    assert state.p[0]["coins"] == 2 + 6
    assert ("log", "__import__('os').system('echo hi') \" '") in state.events
    compiler = game.compiler_for_scripts()
    assert compiler.ns["__builtins__"] == {}
    assert not any(k in compiler.ns for k in ("eval", "exec", "open", "__import__"))


def test_any_all_first_over_a_comprehension_stop_early_and_keep_their_meaning(write_game):
    # compiled as Python generators (they stop at the first answer); a division by zero
    # after the answer shows they do stop, and the answers match the list forms
    folder = build(write_game, """\
        a = first([k for k in range(5) if k > 9], default=7)
        b = first([k for k in range(5) if k > 1])
        c = first([k for k in [2, 0] if 6 // k > 1])
        d = any([k > 1 for k in [3, 0] if 6 // k > 1])
        e = all([k < 1 for k in [3, 0] if 6 // k > 1])
        f = any([k > 9 for k in range(3)])
        g = all([k < 9 for k in range(3)])
        h = first([k for k in range(3) if k > 5], 4)
        players[0].coins = a * 10000000 + b * 1000000 + c * 100000 + (100000 if d else 0) + \\
            (0 if e else 10000) + (1000 if f else 0) + (100 if g else 0) + h
        """)
    game = rulekit.load_game(folder)
    state = rulekit.new_game(game, 1)
    assert state.p[0]["coins"] == 7 * 10000000 + 2 * 1000000 + 2 * 100000 + 100000 + 10000 + 0 + 100 + 4


def test_generated_code_is_named_after_its_content_line(write_game):
    folder = build(write_game, "players[0].coins = double(4)\n")
    game = rulekit.load_game(folder)
    code = game.program.functions["double"].__code__
    # in a profile: game.yaml:LINE(f_double), the function's name on its content line
    assert code.co_filename.endswith("game.yaml") and code.co_name == "f_double"
    assert BASE.splitlines()[code.co_firstlineno - 1].strip() == 'expr: "x * 2"'


def test_all_mistakes_are_reported_at_once_and_only_once():
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(game_dir("broken/compile_errors"))
    diags = info.value.diagnostics
    # `p.coin += 1` reads and writes the attribute: one diagnostic, not two
    assert [(d.code, where(d)) for d in diags if d.severity == "error"] == [
        ("RK0303", ("game.yaml", 15, 13)),
        ("RK0305", ("game.yaml", 16, 13)),
    ]
    # `totl = 1` and `x = cont(...)` bind locals nobody reads: warnings, not errors
    assert sorted((d.code, where(d)) for d in diags if d.severity == "warning") == [
        ("RK0340", ("game.yaml", 13, 9)), ("RK0340", ("game.yaml", 16, 9))]
    assert info.value.render().endswith("Found 2 errors and 2 warnings in 1 file.")


def test_loop_locals_do_not_leak_into_break_checks(write_game):
    # `break` inside an option body inside a loop is fine; after the loop it is not
    diags = diagnostics_of(write_game, """\
        while true:
            choose players[0]:
                "go":
                    break
        break
        """)
    assert [(d.code, d.span.line) for d in diags] == [("RK0316", SNIPPET_LINE + 4)]


# ------------------------------------------------------------------ model-level checks

MINIMAL = """\
meta: {title: Model}
players: {min: 1, max: 2}
flow:
  rounds: 1
  phases:
    - id: main
      do: "pass"
"""


@pytest.mark.parametrize("extra,code,fragment", [
    ("components:\n  card: {copies: 2, start: deck}\n", "RK0332", "unknown start zone `deck` for `card`"),
    ("components:\n  card: {generate: {color: colours}}\n", "RK0335", "unknown set `colours`"),
    ("zones:\n  row: {keys: colours}\n", "RK0335", "unknown set `colours`"),
    ("sets:\n  a: [x, y]\n  b: [y, z]\n", "RK0330", "`y` is a member of two sets"),
    ("components:\n  card: {items: [{id: c1}, {id: c1}]}\n", "RK0331", "two items share the id `c1`"),
    ("components:\n  card: {copies: 2, id: 'card-{m}'}\n", "RK0336", "bad id template `card-{m}`"),
    ("vars: {deck: 0}\nzones: {deck: {}}\n", "RK0337", "`deck` is both a global variable and a zone"),
])
def test_model_diagnostics(write_game, extra, code, fragment):
    folder = write_game(MINIMAL + extra)
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    assert codes(info.value) == [code]
    assert fragment in info.value.diagnostics[0].message


def test_flow_that_never_ends(write_game):
    folder = write_game(MINIMAL.replace("  rounds: 1\n", ""))
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0333"
    assert where(diag) == ("game.yaml", 3, 1)


def test_unused_procedure_is_only_a_warning(write_game):
    folder = write_game(MINIMAL + "procedures:\n  orphan: {do: pass}\n")
    game = rulekit.load_game(folder)       # a warning does not stop the build
    assert "orphan" in game.program.procedures
    bad = write_game(MINIMAL + "procedures:\n  orphan: {do: pass}\nsetup: log(nope)\n", name="bad")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(bad)
    assert sorted((d.code, d.severity) for d in info.value.diagnostics) == [
        ("RK0301", "error"), ("RK0334", "warning")]


# ------------------------------------------------------------------ what compiled code computes

EXPRESSIONS = """\
meta: {title: Expressions}
players: {min: 2, max: 4, default: 3}
params:
  base: 4
  scaled: {expr: "base * num_players"}
sets:
  goods:
    tea: {worth: 2}
    silk: {worth: 5}
  colors: [red, blue]
tables:
  bonus: [0, 1, 3, 6]
components:
  cube:
    generate: {color: colors}
    copies: 2
    start: supply
    props: {size: 1}
    state: {used: false}
  gold:
    items: [{id: nugget, size: 3}]
    start: supply
zones:
  supply: {}
  row: {range: [1, 3]}
  market: {keys: goods}
vars:
  out: none
functions:
  worth_of:
    params: [g]
    expr: "g.worth * 2"
  total_worth:
    expr: "sum(worth_of(g) for g in goods)"
setup: |
  move(item("nugget"), to=row[2])
  move(top(supply), to=market[silk])
  top(market[silk]).used = true
  results = []
  results = results + [scaled, total_worth(), bonus[2], silk.worth]
  results = results + [count(supply), count(row[2]), item("nugget") in row[2], "nugget" not in supply]
  results = results + [[c for c in supply if c.color == red], top(market[silk]).used, bottom(supply).used]
  results = results + [7 // 2, -7 % 3, 1 if none else 2, "x{1 + 1}y{colors}"]
  results = results + [first([x for x in range(10) if x > 6]), last([], default=9), max([3, 8, 1])]
  results = results + [players_from(players[1]), others(players[0]), next_player(players[2]), seat(players[1])]
  results = results + [index_of(players, players[2]), distinct([1, 1, 2]), sorted([3, 1]), reversed([1, 2])]
  results = results + [kind_of("nugget"), zone_of("nugget"), items("gold"), any([false, true]), all([])]
  results = results + [item("nugget").size, abs(-3), min([], default=0), list(row[2])]
  out = results
flow:
  rounds: 1
  phases:
    - id: main
      do: "pass"
"""


def test_compiled_expressions_compute(write_game):
    game = rulekit.load_game(write_game(EXPRESSIONS))
    state = rulekit.new_game(game, 3)
    got = state.g["out"]
    assert [str(v) if not isinstance(v, (int, list, str, bool)) else v for v in got[:4]] == [12, 14, 3, 5]
    assert got[4:8] == [3, 1, True, True]
    assert got[8:11] == [["cube-red-1", "cube-red-2"], True, False]
    assert got[11:15] == [3, 2, 2, "x2y[red, blue]"]
    assert got[15:18] == [7, 9, 8]
    assert [str(p) for p in got[18]] == ["p2", "p3", "p1"]
    assert [str(p) for p in got[19]] == ["p2", "p3"]
    assert (str(got[20]), got[21]) == ("p1", 2)
    assert got[22:26] == [2, [1, 2], [1, 3], [2, 1]]
    assert got[26] == "gold" and str(got[27]) == "row[2]"
    assert got[28:31] == [["nugget"], True, True]
    assert got[31:] == [3, 3, 0, ["nugget"]]


def test_params_are_computed_per_player_count(write_game):
    game = rulekit.load_game(write_game(EXPRESSIONS))
    assert rulekit.new_game(game, 3).g["scaled"] == 12
    assert rulekit.new_game(game, 4).g["scaled"] == 16


def _calls_of_setup(write_game, text: str, name: str, players: int = 3):
    """(how many calls the setup made, the state after it)."""
    game = rulekit.load_game(write_game(text, name=name))
    with Calls() as calls:
        state = rulekit.new_game(game, players)
    return calls.total, state


def test_a_table_written_as_a_list_is_indexed_as_one(write_game):
    """`bonus[k]` of a list table is plain indexing in generated code: it costs no call (no
    helper asking what is indexed), as the setup with the value written in its place shows;
    an index past its end fails as it always did, on the content line, with the same code."""
    indexed, state = _calls_of_setup(write_game, EXPRESSIONS, "indexed")
    written, _ = _calls_of_setup(write_game, EXPRESSIONS.replace("bonus[2]", "3"), "written")
    assert state.g["out"][2] == 3 and indexed == written
    failing = "  results = results + [scaled, total_worth(), bonus[7], silk.worth]"
    text = EXPRESSIONS.replace(failing.replace("[7]", "[2]"), failing)
    with pytest.raises(rulekit.errors.ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(write_game(text, name="past")), 3)
    err = info.value
    assert (err.code, err.span.line) == ("RK4020", text.splitlines().index(failing) + 1)
    assert "index 7 is past the end of the list" in str(err)


def test_small_functions_are_written_in_place_and_fail_on_a_content_line(write_game):
    """`double` (no loop, no call) is written into its caller when the argument is a plain
    name; a complex argument goes through the memoising call; both compute the same, and
    a failure inside the written-in body still names a content line (RK4000)."""
    folder = build(write_game, """\
        n = 4
        players[0].coins = double(n) * 100 + double(n + 1)
        """)
    game = rulekit.load_game(folder)
    assert "double" in game.compiler_for_scripts().inlining
    state = rulekit.new_game(game, 1)
    assert state.p[0]["coins"] == 8 * 100 + 10
    # only the complex argument went through the memo (per game: `double` reads no state)
    assert game.memo.static["double"] == {(1, 5, int): 10}
    broken = build(write_game, """\
        n = "x"
        players[0].coins = double(n) // 0
        """)
    with pytest.raises(rulekit.errors.ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(broken), 1)
    assert info.value.code == "RK4022" and info.value.span is not None and info.value.span.line > 1



def test_a_function_of_the_board_that_builds_a_text_is_remembered_not_written_in_place(write_game):
    """`tag` (no loop, no call, reads no state) would be written into its callers, but it joins
    texts: a new string (its hash, its size check) on every call costs more than its remembered
    answer, so callers ask the per-game table; `double` is still written in place."""
    game = rulekit.load_game(build(write_game, """\
        total = [tag(q, c) for q in players for c in colors]
        players[0].coins = double(total_n)
        """, {"tag": (["p", "c"], "'seat-' + text(p) + '-' + c")}, {"total_n": 2}))
    compiler = game.compiler_for_scripts()
    assert "tag" not in compiler.inlining and "double" in compiler.inlining
    state = rulekit.new_game(game, 2)
    assert state.g["total"] == ["seat-p1-red", "seat-p1-blue", "seat-p2-red", "seat-p2-blue"]
    assert sorted(v for v in game.memo.static["tag"].values()) == sorted(state.g["total"])
    assert state.p[0]["coins"] == 4 and not game.memo.static["double"]     # written in place: never asked


def test_a_function_of_a_seat_and_a_text_is_looked_up_where_it_is_called(write_game):
    """`tag(p, c)` and `mark(x)` read no state and not the player count: called with a seat and
    a text (a seat or a text), the remembered answer is read where they are called
    (memo.StaticTable ``by_seat``), no call made. `1` and `true` equal seat p2 as keys but are
    no seats, and `1` is no text: those calls are made, each answered for what it was given.
    `near` asks `others(p)`, which reads the player count: it keeps no table by seat."""
    game = rulekit.load_game(build(write_game, """\
        q = players[1]
        n = 1
        k = 'red'
        total = [tag(x, c) for x in players for c in colors]
        total = total + [tag(n, 'red'), tag(n == 1, 'red'), tag(q, n), tag(q, 'red'), near(q, 'x')]
        total = total + [mark(q), mark(k), mark(n), mark(n == 1), mark(q), mark(k)]
        """, {"tag": (["p", "c"], "text(p) + '-' + text(c)"), "mark": (["x"], "text(x) + '!'"),
              "near": (["p", "c"], "text(first(others(p))) + c")}))
    expected = ["p1-red", "p1-blue", "p2-red", "p2-blue", "1-red", "true-red", "p2-1", "p2-red", "p1x",
                "p2!", "red!", "1!", "true!", "p2!", "red!"]
    assert rulekit.new_game(game, 2).g["total"] == expected
    table = game.memo.static["tag"]
    assert table.by_seat[PLAYERS[0]] == {"red": "p1-red", "blue": "p1-blue"}
    assert table.by_seat[PLAYERS[1]] == {"red": "p2-red", "blue": "p2-blue"}
    assert game.memo.static["mark"].by_seat == {PLAYERS[1]: "p2!", "red": "red!"}
    assert game.memo.static["near"].by_seat is None
    ns = game.program.module.comp.ns
    asked = []
    for fn in ("tag", "mark"):
        wrapper = game.program.module.comp.names.callers[fn]      # the name calls of `fn` go through
        ns[wrapper] = (lambda call: lambda s, *args: asked.append(args) or call(s, *args))(ns[wrapper])
    assert rulekit.new_game(game, 2).g["total"] == expected      # a second game: the seats' answers are known
    assert asked == [(1, "red"), (True, "red"), (PLAYERS[1], 1), (1,), (True,)]
    table.clear()       # a table past its size starts over: every seat keeps an empty row
    game.memo.static["mark"].clear()
    assert set(table.by_seat) == set(PLAYERS) and not any(table.by_seat.values())
    assert game.memo.static["mark"].by_seat == {}
    assert rulekit.new_game(game, 2).g["total"] == expected


def test_a_small_function_asking_a_remembered_one_is_written_in_place(write_game):
    """`tagged` reads the state and asks `tag`, which is remembered per game and not written in
    place: that call is one table lookup, so `tagged` is as cheap as `double` and written into
    its callers (a literal argument is as plain as a name). Functions asking each other in a
    circle are never written in place, so writing them out ends."""
    game = rulekit.load_game(build(write_game, """\
        total = [tag(q, 'red') for q in players]
        first = players[0]
        players[0].coins = 10 * ping(3) + (1 if tagged(first, 'red') else 0)
        """, {"tag": (["p", "c"], "'seat-' + text(p) + '-' + c"), "tagged": (["p", "c"], "tag(p, c) in total"),
              "ping": (["x"], "0 if x <= 0 else pong(x - 1) + 1"), "pong": (["x"], "ping(x)")}))
    compiler = game.compiler_for_scripts()
    assert "tag" not in compiler.inlining and "tagged" in compiler.inlining
    assert "ping" not in compiler.inlining and "pong" not in compiler.inlining
    functions = game.program.functions
    with Calls() as calls:
        assert rulekit.new_game(game, 2).p[0]["coins"] == 31
    assert calls[functions["tagged"]] == 0          # written in place
    assert calls[functions["tag"]] == 2             # `tag` is asked, once for each seat: then remembered

REUSED = """\
meta: {title: Reused}
players: {min: 1, max: 2}
vars:
  out: none
functions:
  g:
    params: [x]
    expr: "sum([y * 3 for y in range(0, x + 1)]) + 1"
  maybe_then_sure:
    params: [x]
    expr: "(x > 0 and g(x) > 1) or g(x) == 1"
  branch_then_sure:
    params: [x]
    expr: "(g(x) if x > 0 else 0) + g(x)"
  sure_then_branch:
    params: [x]
    expr: "g(x) + (g(x) if x > 0 else 1)"
  looped_then_sure:
    params: [x]
    expr: "sum([g(x) for y in range(1, x)]) + g(x)"
  keyword_then_sure:
    params: [x]
    expr: "last([], default=g(x)) + g(x)"
setup: |
  out = [[maybe_then_sure(x), branch_then_sure(x), sure_then_branch(x), looped_then_sure(x),
          keyword_then_sure(x)] for x in [0, 2]]
flow:
  rounds: 1
  phases:
    - id: main
      do: "pass"
"""


def test_a_value_asked_twice_is_worked_out_once_where_it_is_certainly_reached(write_game):
    """A function asking g(x) twice keeps it in a local where the first ask certainly runs; where
    the first ask may not run (the right of `and`, a branch, a comprehension's body, a keyword
    argument) the local is checked, so the later ask still works it out when the first did not
    (x = 0 below). Either way g runs once per call (with `memo` off, so that each ask would run it)."""
    with without("memo"):
        game = rulekit.load_game(write_game(REUSED))
    g = lambda x: sum(y * 3 for y in range(x + 1)) + 1      # noqa: E731 - the content's g
    want = [[(x > 0 and g(x) > 1) or g(x) == 1, (g(x) if x > 0 else 0) + g(x), g(x) + (g(x) if x > 0 else 1),
             sum(g(x) for _ in range(1, x)) + g(x), g(x) + g(x)] for x in (0, 2)]
    state = rulekit.new_game(game, 1)
    assert state.g["out"] == want
    functions = game.program.functions
    for x in (0, 2):
        for name in ("maybe_then_sure", "branch_then_sure", "sure_then_branch", "looped_then_sure",
                     "keyword_then_sure"):
            with Calls() as calls:
                functions[name](state, x)
            assert calls[functions["g"]] == 1, (name, x)


READ_TWICE = """\
meta: {title: Twice}
players: {min: 3, max: 3}
sets:
  names: [a, b]
components:
  card: {items: [{id: c-a, v: 1}, {id: c-b, v: 2}, {id: c-c, v: 2}], start: row}
zones:
  row: {}
  pile: {}
player:
  zones: {hand: {}}
vars:
  out: none
functions:
  pick:
    params: [n]
    expr: "item('c-' + n)"
  second:
    expr: "players[0 + 1]"
setup: |
  out = [pick(names[1]).v, top(row), top(pile), others(second()), seat(second()), text(players[1 + 1]),
         [item('c-' + n).v for n in names], [o for o in others(players[0 + 2])],
         count([x for x in [1, 2, 2] + [2] if x == 1 + 1]), [c for c in [top(pile if 1 > 2 else row)] + ['c-a']]]
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        choose second():
            "take {t.v}" for t in [item('c-' + n) for n in names] + [top(row)] by t.v:
                move(t, to=second().hand)
"""


def test_a_built_in_reads_a_computed_argument_once_even_where_python_allows_no_store(write_game):
    """`item`, `top`, `others`, `seat`, `text` and `count(x == v)` write their common case in
    place: an argument that is not a plain variable is stored in a local by its first read;
    in a comprehension's iterable (and a grouped option's), where Python allows no store, the
    library is called instead. Either way they compute what the library computes, and the
    argument is worked out once (`second()`, kept a call by switching `inline` and `memo` off, and
    `repeats`, which would keep a call a line makes twice and hide a read made twice here)."""
    from rulekit.engine.library import REGISTRY
    from rulekit.engine.mutate import fmt

    with without("inline", "memo", "repeats"):
        game = rulekit.load_game(write_game(READ_TWICE))
    with Calls() as calls:
        s = rulekit.new_game(game, 3)
    assert [fmt(v) for v in s.g["out"]] == ["2", "c-c", "none", "[p3, p1]", "2", "p3", "[1, 2]", "[p1, p2]", "3",
                                            "[c-c, c-a]"]
    assert sorted(s.pending.labels) == ["take 1", "take 2"]
    assert calls[game.program.functions["second"]] == 3      # others(second()), seat(second()), choose second()
    assert [calls[REGISTRY[name].impl] for name in ("others", "seat", "text", "count")] == [1, 0, 0, 0]
    with Calls() as calls:
        rulekit.apply(s, "take 2")
    assert s.zones[game.board.pzones["hand"][1]] == ["c-b"]
    assert calls[game.program.functions["second"]] == 1      # move(t, to=second().hand)


LOCAL_KINDS = """\
meta: {title: Kinds}
players: {min: 2, max: 2}
components:
  card: {items: [{id: c1}, {id: c2}], start: deck}
zones:
  deck: {}
vars:
  out: none
procedures:
  tally:
    do: |
      seen = []
      maybe = []
      i = 0
      while i < 3:
          seen = seen + [i]
          seen += [i * 10]
          i += 1
      if count(seen) > 2:
          maybe = none
      left = -1
      if maybe != none:
          left = count(maybe)
      out = [count(seen), seen[1], 10 in seen, maybe, left]
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        tally()
        choose players[0]:
            "stop":
                pass
"""


def test_a_local_given_only_lists_is_read_as_a_list(write_game):
    """`seen` only ever holds lists (`[]`, `seen + [i]`, `seen += [..]`), so it is counted,
    indexed and searched as a Python list, with no call to ask what it is (`maybe` may hold
    none, so it would be asked: the procedure counts it only when it is not none)."""
    from rulekit.engine.library import REGISTRY
    from rulekit.engine.mutate import fmt

    game = rulekit.load_game(write_game(LOCAL_KINDS))
    with Calls() as calls:
        assert fmt(rulekit.new_game(game, 2).g["out"]) == "[6, 0, true, none, -1]"
    asking = helpers(game, "SEQ", "GETITEM", "CONTAINS") + [REGISTRY["count"].impl]
    assert [calls[fn] for fn in asking] == [0, 0, 0, 0]


LOOPED = """\
meta: {title: Looped}
players: {min: 1, max: 1}
vars:
  out: none
  ref: none
functions:
  best:      {params: [xs], expr: "max([v for v in xs], default=-1)"}
  least:     {params: [xs], expr: "min([v * 2 for v in xs if v > 0])"}
  total:     {params: [xs], expr: "sum([v for v in xs]) + sum([1 for v in xs if v > 1])"}
  counted:   {params: [xs], expr: "count([v for v in xs if v > 1])"}
  pairs:     {params: [xs], expr: "any(a > b for a in xs for b in xs)"}
  ordered:   {params: [xs], expr: "all(a <= b for a in xs for b in xs if a == b)"}
  big:       {params: [xs], expr: "first([v for v in xs if v > 1], default=0)"}
  listed:    {params: [xs], expr: "[v + 1 for v in xs if v != 2]"}
  either:    {params: [xs], expr: "[v for v in xs] if count(xs) > 2 else [0]"}
  mixed:     {params: [xs], expr: "count(xs) + max([v for v in xs], default=0) - sum([v for v in xs])"}
  guarded:   {params: [xs], expr: "max([v for v in xs]) if count(xs) > 0 and count([v for v in xs if v > 1]) > 0
                                    else -1"}
  both:      {params: [xs], expr: "count(xs) > 1 and any(v > 2 for v in xs)"}
  falsy:     {params: [xs], expr: "count(xs) and sum([v for v in xs])"}
  nested:    {params: [xs], expr: "[v for v in xs if v > 0 and any(w > v for w in xs)]"}
  orelse:    {params: [xs], expr: "1 if count(xs) == 0 or max([v for v in xs]) > 2 else 2"}
setup: |
  out = [[best(xs), least(xs), total(xs), counted(xs), pairs(xs), ordered(xs), big(xs), listed(xs), either(xs),
          mixed(xs), guarded(xs), both(xs), falsy(xs), nested(xs), orelse(xs)]
         for xs in [[], [3, 1, 2], [2, 2], [true, 1], [1, true]]]
  ref = [[max([v for v in xs], default=-1), min([v * 2 for v in xs if v > 0]),
          sum([v for v in xs]) + sum([1 for v in xs if v > 1]), count([v for v in xs if v > 1]),
          any(a > b for a in xs for b in xs), all(a <= b for a in xs for b in xs if a == b),
          first([v for v in xs if v > 1], default=0), [v + 1 for v in xs if v != 2],
          [v for v in xs] if count(xs) > 2 else [0],
          count(xs) + max([v for v in xs], default=0) - sum([v for v in xs]),
          max([v for v in xs]) if count(xs) > 0 and count([v for v in xs if v > 1]) > 0 else -1,
          count(xs) > 1 and any(v > 2 for v in xs), count(xs) and sum([v for v in xs]),
          [v for v in xs if v > 0 and any(w > v for w in xs)],
          1 if count(xs) == 0 or max([v for v in xs]) > 2 else 2]
         for xs in [[], [3, 1, 2], [2, 2], [true, 1], [1, true]]]
flow:
  rounds: 1
  phases:
    - id: main
      do: "pass"
"""


def test_a_function_whose_value_is_a_reduction_is_written_as_loops_with_the_same_values(write_game):
    """`max`, `min`, `sum`, `count`, `any`, `all`, `first` of a comprehension and a list
    comprehension, at the top of a function, in a branch or the test of a conditional there, in
    a part of an `and` or an `or` there or among the operands of an operator there, are written as loops
    (dsl/loops.py): the same values as the expressions (which stay comprehensions), down to
    which of equal values `max` keeps and the false part an `and` gives."""
    game = rulekit.load_game(write_game(LOOPED))
    state = rulekit.new_game(game, 1)
    out, ref = state.g["out"], state.g["ref"]
    assert repr(out) == repr(ref)
    assert out[1] == [3, 2, 8, 2, True, True, 3, [4, 2], [3, 1, 2], 0, 3, True, 6, [1, 2], 1]
    assert [row[14] for row in out] == [1, 1, 2, 2, 2]
    assert [row[10:13] for row in out] == [[-1, False, 0], [3, True, 6], [2, False, 4], [-1, False, 2], [-1, False, 2]]
    assert repr(out[3][0]) == "True" and repr(out[4][0]) == "1"      # the first of equal values
    for name in ("best", "least", "total", "counted", "pairs", "ordered", "big", "listed", "either", "mixed",
                 "guarded", "both", "falsy", "nested", "orelse"):
        body = defined(game, game.program.functions[name])
        assert count(body, ast.For) and not count(body, *COMPREHENSIONS), name


STATED = """\
meta: {title: Stated}
players: {min: 1, max: 1}
sets:
  colors: [red, blue]
components:
  cube:
    generate: {color: colors}
    copies: 2
    start: supply
zones:
  supply: {}
  kept: {}
vars:
  out: none
procedures:
  keep:
    params: [c, n]
    do: |
      move(c, to=kept)
      out = out + [n]
setup: |
  out = []
  move(first([c for c in supply if c.color == blue]), to=kept)
  keep(first(c for c in supply if c.color == red), max([v for v in [3, 1, 2]]))
  most = max([count([c for c in supply if c.color == k]) for k in colors])
  out = out + [most, list(kept)]
flow:
  rounds: 1
  phases:
    - id: main
      do: "pass"
"""


def test_a_statement_works_out_the_reductions_among_its_arguments_as_loops_before_it(write_game):
    """`move(first(...), ...)`, a procedure's arguments and a value stored in a name: the reduction
    is a loop just before the statement (loops.py), in the order the arguments are evaluated:
    the setup builds no comprehension and calls neither `next` nor `max`, and each `first` stops
    its loop at a `break`."""
    game = rulekit.load_game(write_game(STATED))
    state = rulekit.new_game(game, 1)
    assert state.g["out"] == [3, 1, ["cube-blue-1", "cube-red-1"]]
    setup = defined(game, game.program.procedures["$setup"].direct)
    assert not count(setup, *COMPREHENSIONS) and not reads(setup, names_of(game, next) | names_of(game, max))
    assert count(setup, ast.Break) == 2


@pytest.mark.parametrize("lowered, expression", [
    ("move(first([c for c in supply if c.color // 0]), to=kept)", "x = [first([c for c in supply if c.color // 0])]"),
    ("keep(bottom(kept), max([c.color if c.color == red else 1 for c in supply]))",
     "x = [max([c.color if c.color == red else 1 for c in supply])]"),
    ("x = sum([c.color for c in supply])", "x = [sum([c.color for c in supply])]")])
def test_a_reduction_before_a_statement_fails_as_the_expression_does(write_game, lowered, expression):
    def failure(statement: str):
        folder = write_game(STATED.replace("  most = max(", f"  {statement}\n  most = max("), name=str(len(statement)))
        with pytest.raises(ContentRuntimeError) as caught:
            rulekit.new_game(rulekit.load_game(folder), 1)
        return caught.value.code, caught.value.span.line, str(caught.value).split(": ", 1)[-1].split("\n")[0]
    assert failure(lowered) == failure(expression)


@pytest.mark.parametrize("body", ["sum([x for x in xs])", "max([x for x in xs])", "first([x // 0 for x in xs])",
                                  "any(x // 0 for x in xs for y in xs)", "count(xs) > 0 and any(x // 0 for x in xs)",
                                  "1 if count(xs) > 1 and max([x for x in xs]) > 0 else 2",
                                  "1 if count(xs) == 0 or max([x for x in xs]) > 0 else 2"])
def test_a_reduction_written_as_a_loop_fails_as_the_expression_does(write_game, body):
    """The same failure, on the same line, with the same code and words, as the comprehension."""
    def failure(expr_in_function: bool):
        setup = "out = f(['a', 1])" if expr_in_function else f"out = {body.replace('xs', repr(['a', 1]))}"
        folder = write_game({"game.yaml": LOOPED.split("functions:")[0] + "functions:\n  f: {params: [xs], expr: \""
                             + body + "\"}\nsetup: |\n  " + setup + "\n" + "flow:" + LOOPED.split("flow:")[1]},
                            name=f"g{expr_in_function}")
        with pytest.raises(ContentRuntimeError) as caught:
            rulekit.new_game(rulekit.load_game(folder), 1)
        return caught.value.code, caught.value.span.line, str(caught.value).split(": ", 1)[-1].split("\n")[0]
    assert failure(True) == failure(False)


RANGED = """\
meta: {title: Ranged}
players: {min: 1, max: 1}
vars:
  out: none
  picked: none
  low: {initial: LOW, type: any}
functions:
  upto: {params: [n], expr: "sum([i * 2 for i in range(n)])"}
  between: {params: [a, b], expr: "[i for i in range(a, b)]"}
procedures:
  walked:
    params: [a, b]
    do: |
      got = []
      for i in range(a, b):
          got = got + [i]
      for j in range(b):
          got = got + [j * 10]
      return got
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        w = walked(low, HIGH)
        out = [w, upto(HIGH), between(low, HIGH)]
        choose players[0]:
            "take {n}" for n in range(low, HIGH + 1):
                picked = n
            "none":
                pass
"""


@pytest.mark.parametrize("low, high", [(1, 4), (3, 3), (5, 2), (-2, 1), (True, 2)])
def test_a_loop_over_a_range_walks_it_as_the_list_would(write_game, low, high):
    """`for` statements, a function's loop and a choose's options walk Python's range itself; the
    values and the options are those of the list `range` gives (a truth value counts as 0 or 1
    there, as in the built-in, where only running tells: a written `true` is refused, RK0321)."""
    text = RANGED.replace("LOW", str(low).lower()).replace("HIGH", f"({high})")
    state = rulekit.new_game(rulekit.load_game(write_game(text, name=f"r{low}{high}")), 1)
    assert state.g["out"] == [[*range(low, high), *[j * 10 for j in range(high)]], sum(i * 2 for i in range(high)),
                              list(range(low, high))]
    assert [choice[1:] for choice in state.pending.choices] == [(n,) for n in range(low, high + 1)] + [()]


def test_a_written_truth_value_as_a_bound_of_range_is_refused_wherever_range_is(write_game):
    """`range(true, 2)` as a value was RK0321 and as a loop's or an option's collection was not:
    the writer checked the one and lowered the other. The front end checks every call."""
    text = RANGED.replace("low: {initial: LOW, type: any}", "low: 0").replace("between(low", "range((true)")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text.replace("LOW", "0").replace("HIGH", "2").replace(
            "range(low, 2 + 1)", "range(true, 2 + 1)")))
    assert [(d.code, d.span.line) for d in info.value.diagnostics] == [("RK0321", 26), ("RK0321", 28)]


_END = "\nchoose players[0]:\n    'end':\n        pass"


@pytest.mark.parametrize("bounds", ["v[0]", "v[2]", "v[3]", "0, v[3]", "v[2], 3", "1, v[0]", "v[4], v[3]"])
@pytest.mark.parametrize("where", ["for i in range({}):\n    x = i" + _END, "x = sum([i for i in range({})])" + _END,
                                   "choose players[0]:\n    'take {{n}}' for n in range({}):\n        x = n"],
                         ids=["statement", "function", "options"])
def test_a_loop_over_a_range_with_bad_bounds_fails_as_the_built_in_does(write_game, bounds, where):
    """The same code, line and words as `x = range(...)` (the built-in called as a value): a text,
    none, a range too long."""
    def failure(statement: str, tag: str):
        do = textwrap.indent(statement + "\n", "        ")
        text = ("meta: {title: Bounds}\nplayers: {min: 1, max: 1}\nvars:\n  x: none\n  v: none\n"
                "setup: |\n  v = ['x', true, none, 2000000, 0 - 5]\n"
                "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n" + do)
        with pytest.raises(ContentRuntimeError) as caught:
            rulekit.new_game(rulekit.load_game(write_game(text, name=tag)), 1)
        return caught.value.code, caught.value.span.line, str(caught.value).split(": ", 1)[-1].split("\n")[0]
    code, line, words = failure("x = range(" + bounds + ")" + _END, "called")
    # an option's listing fails on the option's own line, the line after the `choose`'s
    line += where.startswith("choose")
    assert failure(where.format(bounds), "looped") == (code, line, words)


_ONE_CHOICE = """\
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        choose players[0]:
            "end":
                pass
"""


DISTINCT = """\
meta: {title: Distinct}
players: {min: 1, max: 1}
vars:
  out: none
  got: none
sets:
  colours: [red, blue]
components:
  chip:
    generate: {colour: colours, n: {range: [1, 2]}}
    id: "{colour}-{n}"
    start: pile
zones:
  pile: {visibility: public}
functions:
  firsts: {params: [xs], expr: "sum([1 for x in distinct(xs)])"}
setup: |
  alias = ALIASED
  got = []
  for x in distinct(VALUE):
      got = got + [x]
  out = [distinct(VALUE), firsts(VALUE), got]
""" + _ONE_CHOICE


@pytest.mark.parametrize("value, want", [("[3, 1, 3, 2, 1]", [3, 1, 2]), ("[]", []), ("['b', 'a', 'b']", ["b", "a"]),
                                         ("pile", ["red-1", "red-2", "blue-1", "blue-2"]),
                                         ("[1, true, 2]", [1, 2]), ("alias", [2, 1]), ("[[1], 2]", None)])
def test_distinct_written_out_gives_what_the_built_in_gives(write_game, value, want):
    """`distinct` of a list is written in place (as a value, and walked by a `for`), the built-in
    called for anything else (a zone); the answers are the built-in's, and an item that cannot be
    told apart from others by value (a list) fails on the line that asked, as the built-in did."""
    from rulekit.engine.library import REGISTRY

    text = DISTINCT.replace("VALUE", value).replace("ALIASED", "[2, 1, 2]")
    game = rulekit.load_game(write_game(text))
    try:
        with Calls() as calls:
            out = rulekit.new_game(game, 1).g["out"]
    except ContentRuntimeError as exc:
        assert calls[REGISTRY["distinct"].impl] == 0
        assert want is None and exc.code == "RK4022" and "cannot be a key" in str(exc)
        assert exc.span.line == 1 + text.splitlines().index("  for x in distinct([[1], 2]):")
        with pytest.raises(TypeError, match="unhashable"):
            REGISTRY["distinct"].impl(None, [[1], 2])
        return
    assert out == [want, len(want), want]
    assert calls[REGISTRY["distinct"].impl] == (3 if value == "pile" else 0)   # the setup's two, the function's loop
    if value.startswith("["):
        assert REGISTRY["distinct"].impl(None, eval(value.replace("true", "True"))) == want


def test_a_parameter_of_one_written_value_is_a_constant_of_the_code(write_game):
    """A parameter whose value is written (not worked out with `expr:`) is the same in every
    state: the generated code holds its value (it never reads it from the state, as it reads
    `per`), and a number needs no size check (`k * n`: no call); a variant that changes it
    changes the code."""
    text = ("meta: {title: Fixed}\nplayers: {min: 1, max: 2}\n"
            "params:\n  k: {value: 3}\n  word: {value: gold, type: text}\n  per: {expr: 'num_players * 2'}\n"
            "vars:\n  out: none\n  xs: none\n"
            "setup: |\n  xs = [1, 2]\n"
            "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n"
            "        choose players[0]:\n            'end':\n                pass\n"
            "        out = [k * count(xs), word, per]\n")
    folder = write_game({"game.yaml": text, "variants/big.yaml": "variant: {name: big}\nparams:\n  k: {value: 5}\n"})

    def played(game):
        state = rulekit.new_game(game, 2)
        state.g = ReadCounts(state.g)
        with Calls() as calls:
            rulekit.apply(state, "end")
        (mul,) = helpers(game, "MUL")
        return state.g["out"], {name: state.g.reads[name] for name in ("k", "word", "per")}, calls[mul]

    assert played(rulekit.load_game(folder)) == ([6, "gold", 4], {"k": 0, "word": 0, "per": 1}, 0)
    assert played(rulekit.load_game(folder, variants=["big"]))[0] == [10, "gold", 4]


AMBIGUOUS = """\
meta: {title: Ambiguous}
players: {min: 2, max: 2}
sets:
  metals:
    tin: {gold: 7}
components:
  coin:
    items: [{id: c1, gold: 3}, {id: c2, gold: 4}]
    state: {level: 1}
    start: pile
zones:
  pile: {visibility: public}
player:
  vars:
    gold: 10
    level: 20
vars:
  out: none
setup: |
  c1 = item('c1')
  c2 = item('c2')
  c2.level = 5
  players[0].level = 21
  xs = [c1, c2, players[1], tin]
  out = [[x.gold for x in xs], [x.level for x in [c1, c2, players[1], players[0]]]]
  out = out + [BAD]
""" + _ONE_CHOICE


@pytest.mark.parametrize("bad, want", [("0", None), ("[c1, 'nothing'][1].gold", "RK4001"), ("[5][0].gold", "RK4001")])
def test_an_attribute_of_several_meanings_reads_the_one_its_value_has(write_game, bad, want):
    """`x.gold` names a player variable, an item's property and a set member's (`x.level` a player
    variable and an item's state): the item's is written out, the seat's too, and anything else
    asks at run time (a member), failing on its line when the value has no such attribute; a
    store (`c2.level = 5`) goes to the item's state or the seat's variable as the value is.
    Reading an item's or a seat's costs no call: the setup calls as much with no value to read
    (`x.level`), and three calls more with `tin` in place of the two items and the seat."""
    text = AMBIGUOUS.replace("BAD", bad)
    game = rulekit.load_game(write_game(text))
    try:
        state = rulekit.new_game(game, 2)
    except ContentRuntimeError as exc:
        assert exc.code == want and exc.span.line == 1 + text.splitlines().index(f"  out = out + [{bad}]")
        return
    assert want is None and state.g["out"] == [[3, 4, 10, 7], [1, 5, 20, 21], 0]
    read = _calls_of_setup(write_game, text, "read", 2)[0]
    members = text.replace("xs = [c1, c2, players[1], tin]", "xs = [tin, tin, tin, tin]")
    assert _calls_of_setup(write_game, members, "members", 2)[0] == read + 3
    unread = text.replace("for x in [c1, c2, players[1], players[0]]", "for x in []")
    assert _calls_of_setup(write_game, unread, "unread", 2)[0] == read


ANY_OF = """\
meta: {title: Any}
players: {min: 1, max: 1}
sets:
  colours: [red, blue, green]
vars:
  out: none
components:
  chip:
    generate: {colour: colours, n: {range: [1, 2]}}
    id: "{colour}-{n}"
    start: bag
zones:
  bag: {visibility: public}
  table: {visibility: public}
functions:
  has: {params: [c], expr: "any(x.colour == c for x in bag)"}
  laid: {params: [c], expr: "any([c == x.colour for x in table])"}
setup: |
  before = [has('red'), laid('red'), has([1]), has(none)]
  for x in [c for c in bag if c.colour == 'red']:
      move(x, to=table)
  out = [before, [has('red'), laid('red'), has('blue'), laid('blue'), has([1]), laid(none)]]
""" + _ONE_CHOICE


def test_whether_a_zone_holds_an_item_of_a_property_is_asked_of_its_tally(write_game):
    """`any(x.colour == c for x in ZONE)` reads the zone's tally (no scan), kept current by moves;
    a value no table can hold (a list) is compared item by item, as the scan would: asking for
    `'red'` looks at no item, asking for `[1]` at each."""
    game = rulekit.load_game(write_game(ANY_OF))
    state = rulekit.new_game(game, 1)
    assert state.g["out"] == [[True, False, False, False], [False, True, True, False, False, False]]
    items = _items_read(game)
    for name, held in (("has", 4), ("laid", 2)):      # four chips left in the bag, two on the table
        looked_at = []
        for value in ("red", [1]):
            items.reads.clear()
            game.program.functions[name](state, value)
            looked_at.append(sum(items.reads.values()))
        assert looked_at == [0, held], name


def _items_read(game) -> ReadCounts:
    """The items' properties as generated code reads them, counting the reads from now on."""
    items = ReadCounts(game.program.vocab.items)
    for name in names_of(game, game.program.vocab.items):
        game.program.module.comp.ns[name] = items
    return items


MIXED = """\
meta: {title: Mixed}
players: {min: 1, max: 1}
sets:
  colours: [red, blue]
components:
  card:
    generate: {colour: colours}
    id: "card-{colour}"
    start: deck
  token:
    start: deck
    items:
      - id: coin
zones:
  deck: {visibility: public}
  table: {visibility: public}
functions:
  reds:
    params: [z]
    expr: "count([c for c in z if c.colour == 'red'])"
  any_red:
    params: []
    expr: "any(c.colour == 'red' for c in table)"
vars:
  out: none
setup: |
  out = [reds(table), any_red()]
  for x in ORDER:
      move(item(x), to=table)
  out = out + [any_red()]
  ASK
""" + _ONE_CHOICE


@pytest.mark.parametrize("order, ask", [
    ("['card-red', 'coin']", "out = out + [reds(deck)]"),           # the coin joined the tallied table: no failure
    ("['card-red', 'coin']", "out = out + [any_red()]"),            # a red card before the coin: found
    ("['coin', 'card-red']", "out = out + [reds(deck)]"),           # the deck no longer holds the coin
    ("['coin', 'card-red']", "out = out + [reds(table)]"),          # a count meets the coin: fails on its line
    ("['card-blue', 'coin', 'card-red']", "out = out + [reds(deck)]"),
    ("['card-blue']", "out = out + [reds(deck)]"),                  # the deck still holds the coin: fails
])
def test_a_tally_answers_as_the_scan_where_an_item_lacks_its_property(write_game, order, ask):
    """A zone holding an item without the tallied property is answered as the content's own scan
    (the `tallies` pass off) answers it: the same results, or the same failure on the same line
    naming the same item."""
    from rulekit.engine.tally import tally_table

    text = MIXED.replace("ORDER", order).replace("ASK", ask)

    def outcome(*off):
        with without(*off):
            game = rulekit.load_game(write_game(text, name="-".join(("game",) + off)))
        with Calls() as calls:
            try:
                result = rulekit.new_game(game, 1).g["out"]
            except ContentRuntimeError as exc:
                result = exc.code, exc.span.line, str(exc)
        return result, calls[tally_table] > 0

    (tallied, asked), (scanned, scan_asked) = outcome(), outcome("tallies")
    assert asked and not scan_asked         # one asked a tally, the other scanned
    assert tallied == scanned
    assert isinstance(tallied, list) or "`coin` (kind `token`) has no property `colour`" in tallied[2]


def test_a_cheap_function_asking_another_is_written_out_so_shared_questions_are_asked_once(write_game):
    """`price` asks `level_of`, both cheap: `affordable` asking both gets `price`'s body written
    out, and `level_of(p)`, asked twice then, is worked out once. A body naming what its caller
    binds (`rich` reads the game's `total`, the caller's loop binds a `total` of its own) is not
    written out there, so each name keeps its meaning."""
    game = rulekit.load_game(build(write_game, """\
        players[0].coins = 1
        total = 5
        players[1].coins = (10 if affordable(players[0]) else 0) + richest(players[0])
        """, {"level_of": (["p"], "p.coins + 1"), "price": (["p"], "[0, 1, 2, 3, 4, 5, 6][level_of(p)]"),
              "affordable": (["p"], "level_of(p) < 5 and limit >= price(p)"), "rich": (["p"], "total + level_of(p)"),
              "richest": (["p"], "max([rich(p) + total for total in [100]])")}))
    state = rulekit.new_game(game, 2)
    assert state.p[1]["coins"] == 10 + (5 + 2) + 100      # `rich` read the game's total, 5
    functions = game.program.functions
    state.p[0] = ReadCounts(state.p[0])
    with Calls() as calls:
        assert functions["affordable"](state, PLAYERS[0]) is True
    assert state.p[0].reads["coins"] == 1
    assert calls[functions["price"]] == calls[functions["level_of"]] == 0


def test_a_set_member_is_asked_of_a_tally_with_no_check_of_its_class(write_game):
    """A variable walking a set holds one of its members, a text a tally table holds as it is:
    `has(c)` written in place for it reads the tally without first checking the value's class:
    the walk adds no check to those ANY_OF's setup makes (where 'red' and none are plain as
    written, and `has([1])`, a value of another class, is asked of the function, which compares
    it item by item)."""
    walked = ANY_OF.replace("  out = [before,", "  present = [c for c in colours if has(c)]\n  out = [before, present,")

    def played(text: str, name: str):
        game = rulekit.load_game(write_game(text, name=name))
        (plain,) = helpers(game, "PLAIN_VALUE")
        checks = ClassChecks(plain)
        for bound in names_of(game, plain):
            game.program.module.comp.ns[bound] = checks
        with Calls() as calls:
            out = rulekit.new_game(game, 1).g["out"]
        return out, checks.asked, calls[game.program.functions["has"]]

    out, checked, asked = played(walked, "walked")
    assert out == [[True, False, False, False], ["blue", "green"], [False, True, True, False, False, False]]
    assert checked == played(ANY_OF, "plain")[1] and asked == 2
