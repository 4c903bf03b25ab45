# SPDX-License-Identifier: MIT
"""`assert test, "message"` fails on its line (RK4019); invariants with `when:`; `deciding()`."""
from __future__ import annotations

import pytest
from test_suite import COUNT

from rulekit import load_game
from rulekit.engine import api
from rulekit.errors import ContentRuntimeError, DiagnosticReport
from rulekit.testing import broken_invariants

# The counting game of test_suite.py, ending at 5, with assertions after each turn, one in setup, and an
# invariant checked only while a player decides in `turn`.
GAME = COUNT.replace("""              p.total += n
""", """              p.total += n
      assert p.total < 6, "{p} passed 5 with {p.total}"
      assert p.total != 4
""").replace("[1, 2]", "[1, 2, 3]").replace("q.total >= 10", "q.total >= 5").replace("flow:", """setup: |
  assert num_players <= 3, "too many"
flow:""").replace("""    expr: "all(q.total <= cap for q in players)"
""", """    expr: "all(q.total <= cap for q in players)"
  - id: small_while_adding
    when: "deciding() == 'turn'"
    expr: "all(q.total <= 3 for q in players)"
""")


def line_of(text: str) -> int:
    return GAME.splitlines().index(text) + 1


def play(game, actions):
    state = api.new_game(game, 2, 0)
    for action in actions:
        api.apply(state, action)
    return state


def failure(game, actions) -> ContentRuntimeError:
    with pytest.raises(ContentRuntimeError) as info:
        play(game, actions)
    return info.value


def test_a_false_assert_fails_on_its_line_with_its_message(write_game):
    game = load_game(write_game(GAME))
    exc = failure(game, ["add 3", "add 1", "add 3"])
    assert exc.code == "RK4019" and str(exc) == "p1 passed 5 with 6"
    assert exc.span.path.endswith("game.yaml")
    assert exc.span.line == line_of('      assert p.total < 6, "{p} passed 5 with {p.total}"')
    assert "error[RK4019]: p1 passed 5 with 6" in exc.render()


def test_an_assert_without_a_message_shows_its_test(write_game):
    game = load_game(write_game(GAME))
    exc = failure(game, ["add 3", "add 1", "add 1"])
    assert (exc.code, str(exc)) == ("RK4019", "assertion failed: `p.total != 4`")
    assert exc.span.line == line_of("      assert p.total != 4")


def test_true_asserts_change_nothing(write_game):
    game = load_game(write_game(GAME))
    plain = COUNT.replace("[1, 2]", "[1, 2, 3]").replace("q.total >= 10", "q.total >= 5")
    plain = load_game(write_game(plain, name="plain"))
    a, b = play(game, ["add 2", "add 1", "add 3", "add 1"]), play(plain, ["add 2", "add 1", "add 3", "add 1"])
    assert a.over and a.events[1:] == b.events[1:] and a.result == b.result


def test_an_assert_in_setup_fails_the_start(write_game):
    game = load_game(write_game(GAME.replace("num_players <= 3", "num_players > 2")))
    with pytest.raises(ContentRuntimeError) as info:
        api.new_game(game, 2, 0)
    assert (info.value.code, str(info.value), info.value.span.line) == ("RK4019", "too many",
                                                                  line_of('  assert num_players <= 3, "too many"'))


def test_an_assert_is_checked_like_any_statement(write_game):
    with pytest.raises(DiagnosticReport) as info:
        load_game(write_game(GAME.replace("p.total != 4", "p.totl != 4")))
    assert "RK0303" in info.value.render() or "totl" in info.value.render()


def test_an_invariant_is_checked_only_where_its_when_holds(write_game):
    game = load_game(write_game(GAME.replace("p.total < 6", "p.total < 9").replace("p.total != 4", "true")))
    state = api.new_game(game, 2, 0)
    assert broken_invariants(state) == []
    api.apply(state, "add 3")
    api.apply(state, "add 1")
    assert broken_invariants(state) == []
    api.apply(state, "add 2")            # p1 at 5 while p2 decides
    assert broken_invariants(state) == ["small_while_adding"]
    api.apply(state, "add 1")            # the game is over, nothing pending: `when` is false
    assert state.over and broken_invariants(state) == []


def test_deciding_names_the_procedure_that_waits(write_game):
    game = load_game(write_game(GAME))
    fn = game.scoring.invariants[1][2]
    state = api.new_game(game, 2, 0)
    from rulekit.engine.library import REGISTRY
    assert REGISTRY["deciding"].impl(state) == "turn" and fn(state, {})
    over = play(game, ["add 2", "add 1", "add 3", "add 1"])
    assert over.over and REGISTRY["deciding"].impl(over) is None


def test_deciding_is_not_allowed_in_a_function(write_game):
    text = GAME.replace("procedures:", "functions:\n  asking:\n    expr: \"deciding()\"\nprocedures:")
    with pytest.raises(DiagnosticReport) as info:
        load_game(write_game(text))
    assert "RK0318" in info.value.render() and "call it in a procedure, an invariant or an expectation" in \
        info.value.render()


def test_batavia_pirates_below_threshold_holds_in_play_and_not_in_the_other_reading():
    game = load_game("batavia")
    assert "pirates_below_threshold" in [i[0] for i in game.scoring.invariants]
    once = load_game("batavia", ("pirates-once",))
    assert "pirates_below_threshold" not in [i[0] for i in once.scoring.invariants]
