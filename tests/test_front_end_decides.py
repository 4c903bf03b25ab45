"""The front end decides every mistake of a name, a call, a store and a jump before any code is
written (issue #50): dsl/check_names.py and dsl/check_statements.py say it; the code writer meets
the same things as it writes and only sets them aside (``Compiler.error``), to be matched with what
the front end said. The suite runs with RULEKIT_STRICT_FRONT_END (tests/conftest.py): a mistake the
writer meets that the front end did not say is an internal error, so each row below passing shows
that the front end said it, at its own line, in the words authors have always read."""
from __future__ import annotations

import textwrap

import pytest

import rulekit
from rulekit import codes
from rulekit.dsl import check_names, check_statements
from rulekit.dsl.compiler import Compiler
from rulekit.errors import DiagnosticReport, InternalError

GAME = """\
meta: {title: Decided}
players: {min: 1, max: 2}
vars:
  x: 0
zones:
  deck: {}
  rows: {keys: [a, b]}
components:
  token: {generate: {weight: {range: [1, 2]}}, id: "token-{weight}", start: deck, state: {lit: false}}
functions:
  double: {params: [n], expr: "n * 2"}
  rolled: {params: [], expr: "FUNCTION"}
option_groups:
  always:
    options: |
      "a":
          pass
  circle:
    options: |
      include other()
  other:
    options: |
      include circle()
procedures:
  helper:
    do: |
      return 1
setup: |
  BODY
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        helper()
        choose players[0]:
            "end":
                pass
tables:
  scores: [1, 2, 3]
"""
SETUP_LINE = 29

CASES = [
    (codes.UNKNOWN_NAME, "x = y + 1"),                          # a misspelt name
    (codes.NAMED_NOT_CALLED, "x = count"),                      # a function named, not called
    (codes.UNKNOWN_ATTRIBUTE, "x = players[0].cions"),          # a misspelt attribute
    (codes.UNKNOWN_FUNCTION, "x = cuont(deck)"),                # an unknown function
    (codes.UNKNOWN_FUNCTION, "shufle(deck)"),                   # an unknown effect, as a statement
    (codes.PROCEDURE_IN_EXPRESSION, "x = 1 + helper()"),        # a procedure inside an expression
    (codes.EFFECT_AS_VALUE, "x = shuffle(deck)"),               # an effect as a value
    (codes.WRONG_ARGUMENT_COUNT, "x = count(deck, deck)"),      # too many arguments of a built-in
    (codes.WRONG_ARGUMENT_COUNT, "x = double(1, 2)"),           # ... of a function
    (codes.WRONG_ARGUMENT_COUNT, "helper(1)"),                  # ... of a procedure
    (codes.UNKNOWN_KEYWORD, "x = count(deck, wat=1)"),          # an unknown keyword
    (codes.UNKNOWN_KEYWORD, "helper(a=1)"),                     # a procedure takes none
    (codes.KEYWORD_TWICE, "x = count(range(1, 2, stop=3))"),    # a keyword given twice
    (codes.MISSING_ARGUMENT, "x = count(range(stop=3))"),       # a missing argument
    (codes.WRONG_ARGUMENT_KIND, "x = count(3)"),                # an argument of the wrong kind
    (codes.UNKNOWN_KIND_ITEM_OR_PROPERTY, 'x = count(items("tokn"))'),     # a kind that is not there
    (codes.VALUE_THROWN_AWAY, "count(deck)"),                   # a value thrown away
    (codes.ASSIGNED_CONSTANT, "deck = 3"),                      # a zone assigned
    (codes.UNCHANGEABLE_ATTRIBUTE, "item('token-1').weight = 2"),    # a printed property changed
    (codes.BAD_ASSIGNMENT_TARGET, "deck[0] = 5"),               # a zone's element set
    (codes.BREAK_OUTSIDE_LOOP, "break"),                        # a jump outside a loop
    (codes.RESULT_NOT_IN_LOCAL, "x = helper()"),                # a procedure's result in a game variable
    (codes.UNKNOWN_OPTION_GROUP, "choose players[0]:\n    include nope()"),     # an unknown option group
    (codes.BY_NOT_TAKEN, "x = count(a for a in [1] by a)"),     # `by` where it is not taken
    (codes.BY_NOT_TAKEN, "choose players[0]:\n    \"a\" by x:\n        pass"),
    (codes.IN_ON_FAMILY, "x = 1 if 'a' in rows else 0"),        # `in` on a family of zones
    (codes.ELSE_NEVER_RUNS, "choose players[0]:\n    \"a\":\n        pass\n    else:\n        pass"),  # a dead else
    (codes.ELSE_NEVER_RUNS, "choose players[0]:\n    include always()\n    else:\n        pass"),  # via a group
    (codes.GROUP_INCLUDES_ITSELF, "choose players[0]:\n    include circle()"),     # a group that includes itself
    (codes.TEXT_TOO_LONG, "x = count('" + "a" * 1_000_001 + "')"),     # a text longer than any may be
]


def _game(write_game, body: str, function: str = "1", name: str = "g"):
    text = GAME.replace("BODY", body.replace("\n", "\n  ")).replace("FUNCTION", function)
    return write_game(textwrap.dedent(text), name=name)


def test_the_rows_name_the_codes_they_test():
    """Each row's code is one the front end decides (and the table is not stale)."""
    decided = check_names.DECIDED | check_statements.DECIDED
    assert {code for code, _ in CASES} <= decided


@pytest.mark.parametrize("code, body", CASES, ids=[f"{c}-{b.split(chr(10))[0][:24]}" for c, b in CASES])
def test_each_mistake_is_said_by_the_front_end_at_its_line(write_game, code, body):
    folder = _game(write_game, body)
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    found = [(d.code, d.span.line) for d in info.value.diagnostics if d.severity == "error"]
    lines = range(SETUP_LINE, SETUP_LINE + body.count("\n") + 1)
    if code == codes.GROUP_INCLUDES_ITSELF:
        lines = [23]        # where the circle closes: `other`'s include of `circle` (circle -> other -> circle)
    assert any(c == code and line in lines for c, line in found), found


def test_a_function_that_calls_an_effect_is_said_at_its_call(write_game):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(_game(write_game, "x = rolled()", function="roll(6)"))
    assert [(d.code, d.span.line) for d in info.value.diagnostics if d.severity == "error"] == \
        [(codes.IMPURE_FUNCTION, 12)]


def test_an_unused_local_is_a_warning_the_front_end_gives(write_game):
    game = rulekit.load_game(_game(write_game, "spare = 1"))
    assert [(d.code, d.span.line) for d in game.warnings if d.code == codes.UNUSED_LOCAL] == \
        [(codes.UNUSED_LOCAL, SETUP_LINE)]


def test_a_mistake_the_front_end_misses_is_rulekits_bug_not_the_authors(write_game, monkeypatch):
    """With the front end's name check taken out, the writer still meets `y`: under the strict
    setting that is an internal error naming the front end; without it, the author reads the
    writer's words (RK0301 at the line), never nothing."""
    folder = _game(write_game, "x = y + 1")
    monkeypatch.setattr(check_names, "_game_name", lambda *args: None)
    with pytest.raises(InternalError) as info:
        rulekit.load_game(folder)
    assert codes.UNKNOWN_NAME in str(info.value) and "check_names.py" in str(info.value)
    monkeypatch.delenv("RULEKIT_STRICT_FRONT_END")
    with pytest.raises(DiagnosticReport) as report:
        rulekit.load_game(folder)
    assert [(d.code, d.span.line) for d in report.value.diagnostics] == [(codes.UNKNOWN_NAME, SETUP_LINE)]


def test_the_writer_reports_none_of_the_codes_the_front_end_decides(write_game, monkeypatch):
    """Whatever the writer meets of those codes it sets aside: with its findings kept from the
    report, every row still reports its code (the front end's words alone)."""
    seen: list = []
    keep = Compiler.error

    def error(self, code, message, span, help=None):
        seen.append(code)
        keep(self, code, message, span, help)
    monkeypatch.setattr(Compiler, "error", error)
    from rulekit.builder import checks
    monkeypatch.setattr(checks, "unsaid", lambda said, found: [])
    for i, (code, body) in enumerate(CASES):
        with pytest.raises(DiagnosticReport) as info:
            rulekit.load_game(_game(write_game, body, name=f"g{i}"))
        assert code in {d.code for d in info.value.diagnostics}, body
    assert seen, "the writer still meets the mistakes it writes around"


# ------------------------------------------------------------------ what a local holds
LOCALS = [
    ('n = "3"\np = players[0]\nx += n', codes.VALUE_OF_WRONG_TYPE_ASSIGNED, 2),   # a text given to a number
    ('n = 0\nn += 1\nx = n + "a"', codes.OPERANDS_OF_WRONG_TYPES, 2),             # a number plus a text
    ('n = "a"\nx = count(n)', codes.WRONG_ARGUMENT_KIND, 1),                        # a text counted
    ('x = scores[1] + "a"', codes.OPERANDS_OF_WRONG_TYPES, 0),                      # a table of numbers
    ("x = count(item('token-1').weight)", codes.WRONG_ARGUMENT_KIND, 0),            # a printed number counted
]


@pytest.mark.parametrize("body, code, line", LOCALS, ids=[c for _, c, _ in LOCALS])
def test_a_local_every_value_of_which_is_one_kind_has_that_kind(write_game, body, code, line):
    """`n = "3"` then `x += n`: the local holds a text wherever it is read, as a variable declared
    a text would (it validated, and failed in play); so does an element of a table of numbers, and
    an item's printed property every item prints as a number."""
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(_game(write_game, body))
    assert [(d.code, d.span.line - SETUP_LINE) for d in info.value.diagnostics if d.severity == "error"] == \
        [(code, line)]


@pytest.mark.parametrize("body", ['n = 0\nn = "a"\nx = count([n]) + 1', 'n = 0\nfor n in ["a"]:\n    x = 1\nx = n + 1',
                                  'n = 1\nx = count([n for n in ["a", "b"]]) + n'])
def test_a_local_given_values_of_two_kinds_or_bound_by_a_loop_has_none(write_game, body):
    """Only what every value of a local says is its kind: two kinds, a loop's variable, or a
    comprehension's variable called like it tell nothing, so nothing is refused."""
    rulekit.load_game(_game(write_game, body))
