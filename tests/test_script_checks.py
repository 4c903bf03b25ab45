# SPDX-License-Identifier: MIT
"""What a script checks besides its steps (issue 36): the game's invariants after setup,
`position:` and every action (`skip_invariants:` for a position impossible on purpose); what
one player is shown (`sees:`); and a failing `run_script` in a user's own pytest test showing
the script's file:line:col and the caret."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
import yaml

from rulekit.errors import DiagnosticReport
from rulekit.testing.script import ScriptError, run_script, write_log

# A counting game: each turn a player adds 1 or 2. `under_cap` holds while the totals stay at
# most `cap`; `low_while_adding` only while a player decides in `turn`; `debt` has no minimum.
GAME = """\
meta: {title: Count}
players: {min: 2, max: 3, default: 2}
params:
  cap: {value: 4}
vars:
  debt: {initial: 0}
player:
  vars:
    total: {initial: 0, min: 0}
    purse: {initial: 3, visibility: owner}
procedures:
  turn:
    params: [p]
    do: |
      choose p:
          "add {n}" for n in [1, 2]:
              p.total += n
flow:
  phases:
    - id: turns
      do: |
        for p in players:
            turn(p)
  end_after_round_if: "any(q.total >= 6 for q in players)"
scoring:
  categories:
    - id: total
      points: "p.total"
invariants:
  - id: under_cap
    text: "No total passes the cap."
    expr: "sum(q.total for q in players) <= cap"
  - id: low_while_adding
    when: "deciding() == 'turn'"
    expr: "all(q.total <= 5 for q in players)"
"""


@pytest.fixture
def game(write_game) -> str:
    return write_game(GAME)


def script(folder: str, text: str, name: str = "s.yaml") -> str:
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(textwrap.dedent(text))
    return path


def line_of(path: str, needle: str) -> int:
    (found,) = [i + 1 for i, line in enumerate(open(path, encoding="utf-8").read().splitlines()) if needle in line]
    return found


def failure(path: str) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        run_script(path)
    return info.value


# ------------------------------------------------------------------ invariants

def test_an_action_that_breaks_an_invariant_fails_at_its_line(game):
    path = script(game, """\
        game: .
        actions:
          - p1: add 2
          - p2: add 2
          - p1: add 1
          - expect: {"p1.total": 3}
        """)
    exc = failure(path)
    assert exc.code == "RK5026" and exc.span.line == line_of(path, "p1: add 1")
    assert str(exc) == "invariant `under_cap` is broken after this action: No total passes the cap."
    rendered = exc.render()
    assert "`sum(q.total for q in players) <= cap` is false: its `<=` compares 5 with 4" in rendered
    assert "the invariant is declared at " in rendered and "game.yaml:" in rendered
    assert "skip_invariants: [under_cap]" in rendered


def test_a_position_that_breaks_an_invariant_is_reported_at_the_position(game):
    path = script(game, """\
        game: .
        position: |
          players[0].total = 5
        actions:
          - p1: add 1
        """)
    exc = failure(path)
    assert exc.code == "RK5026" and exc.span.line == line_of(path, "position:")
    assert str(exc) == "invariant `under_cap` is broken after setup and `position:`: No total passes the cap."
    assert exc.more == ()        # low_while_adding holds: 5 <= 5


def test_every_invariant_broken_by_a_step_is_reported(game):
    path = script(game, """\
        game: .
        position: |
          players[0].total = 6
        actions: []
        """)
    exc = failure(path)
    assert [str(e).split("`")[1] for e in (exc, *exc.more)] == ["under_cap", "low_while_adding"]


def test_an_invariant_is_not_asked_where_its_when_is_false(write_game):
    folder = write_game(GAME.replace("<= cap", "<= 99"))
    path = script(folder, """\
        game: .
        actions: [add 1, add 2, add 1, add 2, add 1, add 2]
        """)
    assert run_script(path).state.over       # p2 reaches 6 as the game ends: nobody decides, `when` is false


def test_a_player_variable_below_zero_fails_as_in_random_games(game):
    path = script(game, """\
        game: .
        position: |
          players[1].purse = -1
        actions: []
        """)
    exc = failure(path)
    assert exc.code == "RK5026" and str(exc).startswith("p2.purse is -1 after setup and `position:`")


def test_a_script_says_which_invariants_it_breaks_on_purpose(game):
    path = script(game, """\
        game: .
        skip_invariants: [under_cap]
        position: |
          players[0].total = 3
          players[1].total = 2
        actions:
          - p1: add 1
        """)
    result = run_script(path)
    assert result.state.g is not None and result.log["skip_invariants"] == ["under_cap"]
    log = os.path.join(game, "s.log.yaml")
    write_log(log, result.log)                 # the log replays as the script was meant
    assert run_script(log).state.actions == ["add 1"]
    everything = script(game, """\
        game: .
        skip_invariants: all
        position: |
          players[0].total = 9
          players[1].purse = -2
        actions: []
        """, "all.yaml")
    run_script(everything)


def test_skipping_an_invariant_the_game_lacks_is_an_error(game):
    path = script(game, """\
        game: .
        skip_invariants: [under_cup]
        actions: []
        """)
    exc = failure(path)
    assert exc.code == "RK5027" and exc.span.line == line_of(path, "under_cup")
    assert exc.help == "did you mean `under_cap`?"


def test_skip_invariants_takes_a_list_or_all(game):
    path = script(game, """\
        game: .
        skip_invariants: none
        actions: []
        """)
    with pytest.raises(DiagnosticReport) as info:
        run_script(path)
    assert "`skip_invariants:` takes the ids" in info.value.render()


def test_a_batavia_position_that_loses_a_bond_fails(tmp_path):
    path = script(str(tmp_path), """\
        game: batavia
        players: 3
        position: |
          players[0].bonds -= 1
        actions:
          - pass
        """)
    exc = failure(path)
    assert exc.code == "RK5026" and "`bonds_conserved`" in str(exc)
    assert "its `==` compares 44 with 45" in exc.render()


# ------------------------------------------------------------------ sees

def test_batavia_hands_are_secret_but_their_counts_are_not(tmp_path):
    """Batavia p. 3: a hand's cards are secret, its count is not; bonds are secret too."""
    path = script(str(tmp_path), """\
        game: batavia
        players: 3
        seed: 7
        pins:
          top: {deck: [ship-dutch-1, ship-dutch-2]}
        actions:
          - sees: {player: p2, "p1.hand": {count: 10}, "p1.bonds": hidden, "p2.bonds": 15, "p2.hand": shown,
                   "p1.fleet": [], deck: hidden, "p1.gold": 0}
          - sees: {player: p1, "p1.hand": shown, "p1.bonds": shown, "p2.hand": hidden, "route[1]": shown,
                   "route[20]": hidden}
        """)
    result = run_script(path)
    assert result.transcript[-2:] == ["  sees ok: p2: p1.hand, p1.bonds, p2.bonds, p2.hand, p1.fleet, deck, p1.gold",
                                      "  sees ok: p1: p1.hand, p1.bonds, p2.hand, route[1], route[20]"]


def test_a_sees_step_says_what_the_player_was_shown(tmp_path):
    path = script(str(tmp_path), """\
        game: batavia
        players: 3
        seed: 7
        pins:
          top: {deck: [ship-dutch-1, ship-dutch-2]}
        actions:
          - sees:
              player: p2
              "p1.hand": [ship-dutch-1, ship-dutch-2]
              "p1.bonds": 15
              "p2.bonds": hidden
              "p3.hand": {count: 9}
        """)
    exc = failure(path)
    got = [(e.code, e.span.line, str(e)) for e in (exc, *exc.more)]
    assert got == [
        ("RK5028", line_of(path, '"p1.hand"'), "p2 is shown `p1.hand` as only a count (10), not 2 items "
                                               "[ship-dutch-1, ship-dutch-2]"),
        ("RK5028", line_of(path, '"p1.bonds"'), "p2 is shown `p1.bonds` as hidden, not 15"),
        ("RK5028", line_of(path, '"p2.bonds"'), "p2 is shown `p2.bonds` as 15, not hidden"),
        ("RK5028", line_of(path, '"p3.hand"'), "p2 is shown `p3.hand` as only a count (10), not only a count (9)"),
    ]


def test_the_owner_is_shown_the_items_and_not_only_a_count(tmp_path):
    path = script(str(tmp_path), """\
        game: batavia
        players: 3
        actions:
          - sees: {player: p1, "p1.hand": {count: 10}}
        """)
    exc = failure(path)
    assert exc.code == "RK5028" and str(exc).startswith("p1 is shown `p1.hand` as 10 items [")
    assert str(exc).endswith("], not only a count (10)")


HIDDEN_GAME = os.path.join(os.path.dirname(__file__), "games", "hidden")


def test_sees_reads_every_kind_of_visibility(tmp_path):
    """tests/games/hidden: face-up items by name, `?` for the others; hidden globals; families."""
    path = script(str(tmp_path), f"""\
        game: {HIDDEN_GAME}
        players: 2
        pins:
          shuffles: {{deck: [[red-1, red-2, red-3, blue-1, blue-2, blue-3, green-1, green-2, green-3]]}}
        actions:
          - sees: {{player: p2, table: ["?", blue-1], discard: [], "slot[1]": {{count: 1}}, "slot[2]": hidden,
                   pot: 4, secret: hidden, "p1.coins": hidden, "p2.coins": 2, "p1.mystery": hidden, "p1.vp": 0,
                   "p1.vault": {{count: 0}}, "p2.hand": [green-1, blue-3], round: 1}}
        """)
    assert run_script(path).transcript[-1].startswith("  sees ok: p2: table, discard,")


@pytest.mark.parametrize("entry, message, help_text", [
    ('"p1.hnd": 3', "`p1.hnd` is no zone or variable of Hidden Cards", "did you mean `p1.hand`?"),
    ('"p5.hand": hidden', "no player `p5` in this game (p1, p2)", None),
    ('slot: hidden', "`slot` is a family of zones: name one of its spaces, as `slot[KEY]`", None),
    ('"slot[9]": hidden', "`slot` has no space `9`", "its spaces: 1, 2"),
    ('"deck[1]": hidden', "`deck` is no family of zones: leave out the `[1]`", None),
    ('pot: [red-1]', "`pot` is a variable: expect its value, `hidden` or `shown`", None),
    ('deck: 3', "`deck` is a zone: expect its items (a list), `{count: N}`, `hidden` or `shown`, not 3", None),
])
def test_a_sees_entry_that_names_nothing_the_game_shows_is_refused(tmp_path, entry, message, help_text):
    path = script(str(tmp_path), f"""\
        game: {HIDDEN_GAME}
        players: 2
        actions:
          - sees: {{player: p1, {entry}}}
        """)
    exc = failure(path)
    assert (exc.code, str(exc), exc.help) == ("RK5029", message, help_text)
    assert exc.span.line == 4


def test_sees_names_a_player_of_the_game(tmp_path):
    path = script(str(tmp_path), f"""\
        game: {HIDDEN_GAME}
        players: 2
        actions:
          - sees: {{player: p3, pot: 4}}
        """)
    exc = failure(path)
    assert (exc.code, str(exc)) == ("RK5029", "no player `p3` in this game (p1, p2)")


def test_a_sees_step_of_the_wrong_shape_is_refused_by_the_schema(tmp_path):
    path = script(str(tmp_path), f"""\
        game: {HIDDEN_GAME}
        actions:
          - sees: {{pot: 4}}
          - sees: {{player: p1, deck: {{size: 3}}}}
        """)
    with pytest.raises(DiagnosticReport) as info:
        run_script(path)
    found = {(d.span.line, d.message) for d in info.value.diagnostics}
    assert found == {(3, "`player` is a required property"), (4, "`count` is a required property"),
                     (4, "unknown key `size`")}


def test_absent_says_a_family_has_no_such_space(tmp_path):
    """A board's extent is a rule (Batavia's route has spaces 1 to 35): naming a space the family
    lacks is a typo (RK5029) unless the entry expects it `absent`; a space it has fails (RK5028)."""
    path = script(str(tmp_path), f"""\
        game: {HIDDEN_GAME}
        players: 2
        actions:
          - sees: {{player: p1, "slot[0]": absent, "slot[3]": absent}}
          - sees: {{player: p1, "slot[2]": absent, deck: absent, "p1.hand": absent}}
        """)
    exc = failure(path)
    got = [(e.code, str(e)) for e in (exc, *exc.more)]
    assert got == [
        ("RK5028", "p1 is shown `slot[2]` as only a count (0), not absent (no such space)"),
        ("RK5029", "`absent` says that a family of zones has no such space (`FAMILY[KEY]`); `deck` is no space of "
                   "a family"),
        ("RK5029", "`absent` says that a family of zones has no such space (`FAMILY[KEY]`); `p1.hand` is no space "
                   "of a family"),
    ]
    assert exc.span.line == 5


# ------------------------------------------------------------------ expect

def test_none_in_an_expected_list_is_no_value(tmp_path):
    """`none` is the language's word for no value: inside a list as at the top (it was compared as
    the text "none": "expected [false, none], got [false, none]")."""
    path = script(str(tmp_path), """\
        game: batavia
        players: 3
        actions:
          - expect: {"[goal_taken, goal_taker]": [false, none], "goal_taker": none, "[goal_taker]": [null]}
        """)
    assert run_script(path).transcript[-1] == "  expect ok: [goal_taken, goal_taker], goal_taker, [goal_taker]"


def test_values_that_print_alike_say_what_each_is(tmp_path):
    path = script(str(tmp_path), """\
        game: batavia
        players: 3
        actions:
          - expect: {"[goal_taken, goal_taker]": [false, p1], "[text(1), 2]": [1, 2]}
        """)
    exc = failure(path)
    assert [str(e) for e in (exc, *exc.more)] == [
        "expected `[goal_taken, goal_taker]` to be [false, p1], got [false, none]",
        "expected `[text(1), 2]` to be [1, 2], got [1, 2] ([a text, a number], not [a number, a number])"]


# ------------------------------------------------------------------ run_script in a user's pytest

def test_a_failing_script_shows_its_file_line_and_caret_in_pytest(tmp_path):
    bad = script(str(tmp_path), """\
        game: batavia
        players: 3
        actions:
          - pass
          - expect: {"count(lot)": 99}
        """, "bad.yaml")
    typo = script(str(tmp_path), """\
        game: batavia
        players: 3
        actions:
          - expct: {round: 1}
        """, "typo.yaml")
    test = tmp_path / "test_mine.py"
    test.write_text(textwrap.dedent(f"""\
        from rulekit.testing import transcript
        from rulekit.testing.script import run_script

        def test_bad():
            assert run_script({bad!r}).transcript

        def test_typo():
            assert transcript({typo!r})
        """))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                          str(test)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert f"--> {bad}:5:14" in out and "error[RK5007]: expected `count(lot)` to be 99" in out
    assert '5 |   - expect: {"count(lot)": 99}' in out
    assert f"--> {typo}:4:5" in out and "4 |   - expct: {round: 1}" in out
    carets = [line for line in out.splitlines() if line.startswith("E") and line.rstrip().endswith("^")]
    assert len(carets) >= 2, out
    assert "rulekit/testing/steps.py" not in out       # the script's line, not rulekit's frames


def test_the_note_is_added_once_and_str_stays_the_message(tmp_path):
    path = script(str(tmp_path), """\
        game: batavia
        players: 3
        actions:
          - expect: {"count(lot)": 99}
        """)
    exc = failure(path)
    assert str(exc).startswith("expected `count(lot)` to be 99")
    assert exc.__notes__ == [exc.render()] and f"--> {path}:4:" in exc.__notes__[0]


def test_a_content_error_while_a_script_plays_shows_where_in_pytest(tmp_path, write_game):
    folder = write_game(GAME.replace("p.total += n", "p.total += n // (n - 1)"))
    path = script(folder, """\
        game: .
        actions: [add 1]
        """)
    with pytest.raises(Exception) as info:
        run_script(path)
    assert info.value.code == "RK4000" and "game.yaml:" in info.value.__notes__[0]


def test_a_passing_log_of_a_plain_script_records_no_skip(game):
    path = script(game, """\
        game: .
        actions: [add 1]
        """)
    log = run_script(path).log
    assert "skip_invariants" not in log
    assert yaml.safe_load(yaml.safe_dump(log))["actions"] == ["add 1"]
