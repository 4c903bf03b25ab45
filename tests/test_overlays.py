# SPDX-License-Identifier: MIT
"""Strict overlays (issue #36): every name a variant changes is in the game, every name it adds
(under `add:`) is new; a misspelt name is an error at its line with "did you mean", never a
variant that validates and does nothing."""
from __future__ import annotations

import textwrap

import pytest

import rulekit
from rulekit.errors import DiagnosticReport
from rulekit.view.diff import diff_game, render
from tests.conftest import codes, run_cli, where


def _variant(tmp_path, body: str, name: str = "v") -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"variant: {{name: {name}}}\n" + textwrap.dedent(body), encoding="utf-8")
    return str(path)


def _validate(capsys, game: str, variant: str) -> tuple[int, str]:
    code, out, err = run_cli(capsys, "validate", game, "--variant", variant, "--format", "concise")
    return code, out + err


# ------------------------------------------------------------------ the reproducers, on Goa

@pytest.mark.parametrize("body, line, column, code, message, meant", [
    ("params:\n  start_ducat: {value: 14}\n", 3, 3, "RK0130", "no `start_ducat` in the game's `params`",
     "start_ducats"),
    ("flow:\n  phases:\n    - id: auctionz\n      do: pass\n", 4, 11, "RK0130",
     "no `auctionz` in the game's `flow.phases`", "auctions"),
    ("invariants:\n  - {id: tiles_conserve, remove: true}\n", 3, 10, "RK0131",
     "`remove: true` removes nothing: no `tiles_conserve` in the game's `invariants`", "tiles_conserved"),
    ("procedures:\n  setup_choice:\n    do: pass\n", 3, 3, "RK0130", "no `setup_choice` in the game's `procedures`",
     "setup_choices"),
], ids=["param", "phase", "removed-invariant", "procedure"])
def test_a_misspelt_name_in_a_variant_fails_validate_at_its_line(tmp_path, capsys, body, line, column, code,
                                                                  message, meant):
    path = _variant(tmp_path, body)
    status, said = _validate(capsys, "goa", path)
    assert status == 1, said
    assert f"{path}:{line}:{column}: error[{code}]: {message}" in said, said
    assert f"did you mean `{meant}`?" in said


def test_the_help_says_where_a_new_name_goes(tmp_path, capsys):
    status, said = _validate(capsys, "goa", _variant(tmp_path, "params:\n  start_ducat: {value: 14}\n"))
    assert status == 1 and "if `start_ducat` is meant to be new, write it under `add:`" in said


def test_every_problem_of_a_variant_is_reported_together(tmp_path, capsys):
    path = _variant(tmp_path, """\
        params:
          start_ducat: 14
          sell_prize: null
        zones: {gird: {capacity: 3}}
        narrate: {set: {ducat: "{player} has {new}"}}
        """)
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game("goa", [path])
    assert codes(info.value) == ["RK0130", "RK0131", "RK0130", "RK0130"]
    assert [where(d)[1:] for d in info.value.diagnostics] == [(3, 3), (4, 3), (5, 9), (6, 17)]
    assert [d.help.split("?")[0] for d in info.value.diagnostics] == [
        "did you mean `start_ducats`", "did you mean `sell_price`", "did you mean `grid`", "did you mean `ducats`"]


# ------------------------------------------------------------------ a small game for the rest

GAME = """\
    meta: {title: T}
    players: {min: 2, max: 2}
    params:
      bonus: {value: 1}
    player:
      vars:
        score: 0
    zones:
      pile: {capacity: 3}
    flow:
      rounds: 1
      phases:
        - {id: first, do: "log('first')"}
        - {id: second, do: "log('second')"}
        - {id: third, do: "log('third')"}
    invariants:
      - {id: nonneg, expr: "all(p.score >= 0 for p in players)"}
    """


def _game(write_game, variant: str) -> str:
    return write_game({"game.yaml": GAME, "variants/v.yaml": "variant: {name: v}\n" + textwrap.dedent(variant)})


def _problems(write_game, variant: str) -> list:
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(_game(write_game, variant), ["v"])
    return [(d.code, where(d)[1:], d.message, d.help) for d in info.value.diagnostics]


def _phases(game) -> list[str]:
    return [p["id"] for p in game.data["flow"]["phases"]]


def test_add_brings_a_new_parameter_and_a_phase_placed_after_another(write_game):
    folder = _game(write_game, """\
        params:
          bonus: {value: 2}
        add:
          params:
            extra: {value: 5}
          zones:
            spare:
          flow:
            phases:
              - {id: middle, after: first, do: "log('middle')"}
              - {id: opening, before: first, do: "log('opening')"}
              - {id: last, do: "log('last')"}
        """)
    game = rulekit.load_game(folder, ["v"])
    assert game.data["params"]["bonus"]["value"] == 2 and game.data["params"]["extra"] == {"value": 5}
    assert _phases(game) == ["opening", "first", "middle", "second", "third", "last"]
    assert "spare" in game.data["zones"]        # null under `add:` is a zone with its defaults, as in a game
    assert all("after" not in p and "before" not in p for p in game.data["flow"]["phases"])


def test_an_entry_outside_add_can_be_moved(write_game):
    game = rulekit.load_game(_game(write_game, "flow:\n  phases:\n    - {id: third, before: first}\n"), ["v"])
    assert _phases(game) == ["third", "first", "second"]


def test_adding_a_name_the_game_has_fails(write_game):
    found = _problems(write_game, """\
        add:
          params:
            bonus: {value: 3}
          flow:
            phases:
              - {id: second, do: pass}
        """)
    assert found == [
        ("RK0132", (4, 13), "`value` is already in the game's `params.bonus`",
         "`add:` only adds; to change it, write it outside `add:`"),
        ("RK0132", (7, 22), "`do` is already in the game's `flow.phases.second`",
         "`add:` only adds; to change it, write it outside `add:`"),
    ]


def test_adding_an_entry_that_exists_with_nothing_new_fails(write_game):
    found = _problems(write_game, "add:\n  invariants:\n    - {id: nonneg}\n")
    assert [(c, at, m) for c, at, m, _ in found] == [
        ("RK0132", (4, 12), "`nonneg` is already in the game's `invariants`")]


def test_null_for_an_absent_key_removes_nothing(write_game):
    found = _problems(write_game, "zones:\n  pile: {layout: null}\n  piles: null\n")
    assert [(c, at) for c, at, _, _ in found] == [("RK0131", (3, 10)), ("RK0131", (4, 3))]
    assert found[1][2] == "`piles: null` removes nothing: no `piles` in the game's `zones`"
    assert found[1][3] == "did you mean `pile`?"


def test_a_placement_naming_no_entry_fails_with_did_you_mean(write_game):
    found = _problems(write_game, "add:\n  flow:\n    phases:\n      - {id: middle, after: frist, do: pass}\n")
    assert found == [("RK0133", (5, 29), "`after: frist` names no entry of this list", "did you mean `first`?")]


def test_add_neither_removes_nor_replaces(write_game):
    found = _problems(write_game, "add:\n  invariants:\n    - {id: nonneg, remove: true}\n")
    assert [(c, at) for c, at, _, _ in found] == [("RK0134", (4, 20))]


def test_fixed_fields_are_not_names(write_game):
    """A field the schema fixes (`flow.end_after_round_if`, a zone's `visibility`) may be set
    where the game leaves it out: it is no name, and the schema types it."""
    folder = _game(write_game, "flow: {end_after_round_if: 'true'}\nzones: {pile: {visibility: hidden}}\n")
    game = rulekit.load_game(folder, ["v"])
    assert game.data["flow"]["end_after_round_if"] == "true"


def test_a_variant_applied_after_another_sees_what_it_added(write_game):
    folder = write_game({
        "game.yaml": GAME,
        "variants/one.yaml": "variant: {name: one}\nadd: {params: {extra: 1}}\n",
        "variants/two.yaml": "variant: {name: two}\nparams: {extra: 2}\n",
    })
    assert rulekit.load_game(folder, ["one", "two"]).data["params"]["extra"] == 2
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder, ["two"])
    assert codes(info.value) == ["RK0130"]


def test_the_variant_schema_types_add(tmp_path):
    from rulekit.content import schema
    from rulekit.content.loader import load_yaml
    path = _variant(tmp_path, "add:\n  flow:\n    phases:\n      - {id: x, aftr: y}\n")
    found = schema.check(load_yaml(path), "variant")
    assert [(d.code, d.span.line, d.help) for d in found] == [("RK0120", 5, "did you mean `after`?")]


# ------------------------------------------------------------------ rulekit diff

def test_diff_lists_additions_changes_and_removals_apart(write_game):
    folder = _game(write_game, """\
        params:
          bonus: {value: 2}
        invariants:
          - {id: nonneg, remove: true}
        add:
          params:
            extra: 5
          flow:
            phases:
              - {id: middle, after: first, do: pass}
        """)
    changes = diff_game(folder, ["v"])
    text = render(changes)
    lines = text.splitlines()
    rules = lines[lines.index("## rules") + 1:]
    assert rules[0].startswith("+ flow.phases.middle (after first):") and "v.yaml:11:9)" in rules[0]
    values = lines[lines.index("## values") + 1:]
    marks = [line[0] for line in values[:values.index("")]]
    assert marks == ["+", "~"], text          # added, then changed
    assert "+ params.extra: 5" in text and "~ params.bonus.value: 1 -> 2" in text
    assert "## checks\n- invariants.nonneg:" in text
    assert {c["kind"] for c in changes} == {"added", "changed", "removed"}
    added = next(c for c in changes if c["path"] == "flow.phases.middle")
    assert (added["kind"], added["note"]) == ("added", "after first")     # JSON keeps the path plain


def test_diff_shows_a_moved_phase(write_game):
    text = render(diff_game(_game(write_game, "flow:\n  phases:\n    - {id: third, after: first}\n"), ["v"]))
    assert "~ flow.phases (order): ['first', 'second', 'third'] -> ['first', 'third', 'second']" in text


# ------------------------------------------------------------------ a parameter nothing reads (RK0345)

def test_a_parameter_nothing_reads_is_a_warning_at_its_line(tmp_path, capsys):
    """A variant that changes such a parameter would change nothing: validate says so of the game."""
    path = _variant(tmp_path, "add:\n  params:\n    spare: {value: 3}\n")
    status, said = _validate(capsys, "goa", path)
    assert status == 0, said
    assert f"{path}:4:5: warning[RK0345]: parameter `spare` is never read" in said, said


def test_a_parameter_only_a_variant_reads_lives_in_that_variant():
    """Goa's Pro parameters are declared by variants/pro.yaml: neither the game nor the variant warns."""
    assert not [w for w in rulekit.load_game("goa").warnings if w.code == "RK0345"]
    pro = rulekit.load_game("goa", ["pro"])
    assert not pro.warnings
    assert {"pro_columns", "pro_ducats"} <= set(pro.data["params"])
    assert "pro_columns" not in rulekit.load_game("goa").data["params"]


def test_an_unread_parameter_is_not_told_beside_errors(tmp_path):
    """`targt` for `target` is an error that says `did you mean`; `target` unread would say it twice."""
    path = _variant(tmp_path, "add:\n  params:\n    spare: {value: 3}\nprocedures:\n  setup_choices:\n"
                              "    do: p.ducats += spar\n")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game("goa", [path])
    assert "RK0345" not in codes(info.value)


def test_a_plain_list_under_add_is_new_in_its_turn(write_game):
    """A new function under a variant's `add:` with `params: [p, k, c]` (a plain list, no ids) once
    recursed without end (RK9999); each entry of such a list is new in its turn."""
    folder = write_game({"game.yaml": """\
        meta: {title: V}
        players: {min: 1, max: 2}
        vars:
          out: none
        setup: |
          out = 0
        flow:
          rounds: 1
          phases:
            - id: p
              do: |
                choose players[0]:
                    "go":
                        out = 1
        scoring:
          categories:
            - id: none
              points: "0"
        """, "variants/more.yaml": """\
        variant: {name: more}
        add:
          functions:
            three: {params: [p, k, c], expr: "k + c"}
          tables:
            nested: [[1, 2], [3, {id: x, v: 1}]]
        """})
    import rulekit
    game = rulekit.load_game(folder, ("more",))
    assert "three" in game.program.functions and game.variants == ("more",)
