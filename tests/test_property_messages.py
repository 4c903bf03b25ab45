# SPDX-License-Identifier: MIT
"""Property test (issue 36): content that validates, played at random, fails (when it fails) in
the author's words: never Python's (`list indices`, `NoneType`, `unhashable`...), and never as a
bug of rulekit. Hypothesis writes statements over a small game (arithmetic with division and
modulo, list and zone indexing, item properties, a player's family of zones, choose)."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.errors import DiagnosticReport, InternalError, RulekitError

GAME = """\
meta: {title: Props}
players: {min: 1, max: 2, default: 2}
sets:
  terrains: [forest, hill]
components:
  tile: {copies: 5, id: "t{n}", start: pool, props: {worth: 2}}
  coin: {copies: 2, id: "c{n}", start: hand}
zones:
  pool: {}
  hand: {}
vars:
  out: 0
  k: 2
player:
  vars:
    score: 0
  zones:
    land: {keys: terrains}
flow:
  rounds: 2
  phases:
    - id: go
      do: |
        for p in players:
            for t in terrains:
                STMT1
                STMT2
            choose p:
                "a {n}" for n in range(0, 3):
                    STMT3
                "b":
                    STMT4
scoring:
  categories:
    - {id: s, points: "p.score"}
"""

PYTHON_WORDS = re.compile(
    r"list indices|NoneType|object has no attribute|unhashable|not subscriptable|unsupported operand|"
    r"\btakes\b|positional argument|KeyError|TypeError|ValueError|IndexError|AttributeError|Traceback|"
    r"index out of range|'(int|str|list|dict|tuple|float|bool)'|object is not|Fraction\(")

ATOMS = st.sampled_from(["0", "1", "2", "-1", "k", "out", "n", "count(hand)", "count(pool)",
                         "count(p.land[t])", "p.score", "none"])


def _exprs(inner):
    two = st.tuples(inner, inner)
    return st.one_of(
        two.map(lambda ab: f"({ab[0]} + {ab[1]})"), two.map(lambda ab: f"({ab[0]} - {ab[1]})"),
        two.map(lambda ab: f"({ab[0]} * {ab[1]})"), two.map(lambda ab: f"({ab[0]} // {ab[1]})"),
        two.map(lambda ab: f"({ab[0]} % {ab[1]})"), two.map(lambda ab: f"({ab[0]} / {ab[1]})"),
        inner.map(lambda a: f"[1, 2, 3][{a}]"), inner.map(lambda a: f"hand[{a}]"),
        inner.map(lambda a: f"p.land[t][{a}]"), inner.map(lambda a: f"pool[{a}].worth"),
        inner.map(lambda a: f"max([x.worth for x in pool if x.worth > {a}])"),
        inner.map(lambda a: f"count(x for x in p.land[t] if x.worth == {a})"),
        two.map(lambda ab: f"({ab[0]} if {ab[1]} > 0 else 0)"),
        inner.map(lambda a: f"first([{a}])"), inner.map(lambda a: f"[{a}]"),
    )


EXPRS = st.recursive(ATOMS, _exprs, max_leaves=4)
STATEMENTS = st.one_of(
    EXPRS.map(lambda e: f"out = {e}"),
    EXPRS.map(lambda e: f"p.score += {e}"),
    st.just("move(top(pool), to=p.land[t])"),
    st.just("if count(pool) > 0:\n    move(top(pool), to=p.land[t])"),
    EXPRS.map(lambda e: f"move(hand[{e}], to=p.land[t])"),
    EXPRS.map(lambda e: f"move(p.land[t][{e}], to=pool)"),
    EXPRS.map(lambda e: f"k = {e}"),
    st.just("pass"),
)


def _indented(statement: str, depth: int) -> str:
    pad = " " * depth
    return statement.replace("\n", "\n" + pad)


def _content(statements) -> str:
    text = GAME
    for i, (statement, depth) in enumerate(zip(statements, (16, 16, 20, 20)), 1):
        if i != 3:      # `n` is bound in the first option alone
            statement = re.sub(r"\bn\b", "k", statement)
        text = text.replace(f"STMT{i}", _indented(statement, depth))
    return text


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
@given(statements=st.tuples(STATEMENTS, STATEMENTS, STATEMENTS, STATEMENTS), seed=st.integers(0, 3))
def test_content_that_validates_fails_in_its_own_words(tmp_path_factory, statements, seed):
    folder = tmp_path_factory.mktemp("g")
    (folder / "game.yaml").write_text(_content(statements), encoding="utf-8")
    try:
        game = rulekit.load_game(str(folder))
    except DiagnosticReport:
        return          # refused by validate, at its line: as it should be when it cannot work
    for players in (1, 2):
        try:
            state = rulekit.new_game(game, players, seed)
            for step in range(40):
                if state.over or state.pending is None:
                    break
                rulekit.apply_index(state, (seed + step) % len(state.pending.choices))
        except InternalError as exc:
            raise AssertionError(f"a bug in rulekit on content that validates:\n{_content(statements)}") from exc
        except RulekitError as exc:
            text = exc.render()
            assert not PYTHON_WORDS.search(text), f"Python's words in:\n{text}\n\nfor:\n{_content(statements)}"
