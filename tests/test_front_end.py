# SPDX-License-Identifier: MIT
"""The front end decides what is a mistake; optimisations never do.

Every game the suite knows (the test games, the examples, a corpus of broken games, and in a slow
test the shipped games with each of their variants) is validated with every pass on, all off, and
each off alone: the diagnostics (errors and warnings, with their places, helps and notes) must be
identical. tests/test_passes.py proves the passes change no game; this proves they hide no mistake.
"""
from __future__ import annotations

import shutil
import textwrap
import typing
from pathlib import Path

import pytest

from rulekit.dsl import ast, passes, resolve
from rulekit.dsl.parser import parse_expr
from rulekit.dsl.texts import parse_text
from rulekit.engine.api import new_game
from rulekit.errors import ContentRuntimeError, DiagnosticReport, RulekitError
from rulekit.games import load_game, variants_of
from rulekit.model import text_place

REPO = Path(__file__).resolve().parents[1]
SETTINGS = ["-all"] + [f"-{name}" for name in passes.NAMES]


def _folders(*roots: Path) -> list[Path]:
    return sorted(p.parent for root in roots for p in root.rglob("game.yaml") if "__snapshots__" not in p.parts)


def _said(game: str, setting: str, variants=()) -> list[str]:
    """What `rulekit validate` would say: each diagnostic whole, or the error that stopped it."""
    with passes.using(passes.parse(setting)):
        try:
            return [repr(d) for d in load_game(game, variants).warnings]
        except DiagnosticReport as report:
            return [repr(d) for d in report.diagnostics]
        except RulekitError as error:
            return [f"{type(error).__name__}: {error}"]


CORPUS = [str(p.relative_to(REPO)) for p in _folders(REPO / "tests" / "games", REPO / "examples")]


def test_the_corpus_holds_broken_games_whose_mistakes_meet_the_passes():
    said = _said("tests/games/mistakes/kinds", "")
    assert sum("RK0344" in d for d in said) == 3 and sum("RK0314" in d for d in said) == 2, said
    assert len(CORPUS) > 20


@pytest.mark.parametrize("game", CORPUS)
def test_diagnostics_are_the_same_under_every_pass_setting(game):
    variants = [()] + [(v,) for v in variants_of(str(REPO / game))]
    for chosen in variants:
        expected = _said(str(REPO / game), "", chosen)
        for setting in SETTINGS:
            assert _said(str(REPO / game), setting, chosen) == expected, (setting, chosen)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["goa", "batavia"])
def test_the_shipped_games_say_the_same_under_every_pass_setting(game):
    for chosen in [()] + [(v,) for v in variants_of(game)]:
        expected = _said(game, "", chosen)
        assert not [d for d in expected if "severity='error'" in d], expected
        for setting in SETTINGS:
            assert _said(game, setting, chosen) == expected, (setting, chosen)


# ------------------------------------------------------------------ one run reports every mistake
MANY = REPO / "tests" / "games" / "mistakes" / "many"


def _places(report: DiagnosticReport) -> list[tuple]:
    return [(d.code, Path(d.span.path).name, d.span.line) for d in report.diagnostics]


def test_nine_planted_mistakes_in_three_files_come_out_in_one_run():
    with pytest.raises(DiagnosticReport) as caught:
        load_game(str(MANY))
    assert _places(caught.value) == [      # in the order of the files and their lines, whoever found them
        ("RK0331", "cards.yaml", 6), ("RK0331", "cards.yaml", 6),     # two items share an id
        ("RK0123", "game.yaml", 2),         # schema: `max: four`
        ("RK0111", "game.yaml", 3),         # an include that does not exist: the others are still read
        ("RK0122", "game.yaml", 10),        # schema: `hiden`
        ("RK0301", "rules.yaml", 7),        # `totl`
        ("RK0305", "rules.yaml", 8),        # `shufle`
        ("RK0319", "rules.yaml", 9),        # no item `card-9`
        ("RK0341", "rules.yaml", 10),       # two phases share an id
    ]


def test_the_order_of_the_files_changes_no_finding(tmp_path):
    copy = tmp_path / "many"
    shutil.copytree(MANY, copy)
    text = (copy / "game.yaml").read_text()
    (copy / "game.yaml").write_text(text.replace("[rules.yaml, missing.yaml, cards.yaml]",
                                                 "[cards.yaml, rules.yaml, missing.yaml]"))
    found = []
    for folder in (MANY, copy):
        with pytest.raises(DiagnosticReport) as caught:
            load_game(str(folder))
        found.append(_places(caught.value))
    assert found[0] == found[1] and len(found[0]) == 9       # the same report, in the same order


def test_a_schema_error_hides_no_mistake_of_the_rules_in_the_same_file(write_game):
    folder = write_game("""\
meta: {title: One file}
players: {min: 2, max: four}
vars:
  total: 0
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        totl += 1
        total += cont(players)
""")
    with pytest.raises(DiagnosticReport) as caught:
        load_game(str(folder))
    assert [(d.code, d.span.line) for d in caught.value.diagnostics] == \
        [("RK0123", 2), ("RK0301", 10), ("RK0305", 11)]


# ------------------------------------------------------------------ values have types
TYPED = """\
meta: {title: Typed}
players: {min: 2, max: 3}
vars:
  total: 0
  flag: false
player:
  vars:
    banked: 0
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        for p in players:
            p.banked += "3"
            flag = p.banked
            totl += 1
            count_up = 0
            count_up += 1
            total += count_up
"""


def test_a_value_of_the_wrong_type_is_refused_at_its_own_line_under_every_setting(write_game):
    folder = write_game(TYPED)
    for setting in SETTINGS + [""]:
        with passes.using(passes.parse(setting)), pytest.raises(DiagnosticReport) as caught:
            load_game(folder)
        found = [(d.code, d.span.line, d.span.column, d.message, d.help) for d in caught.value.diagnostics]
        assert found == [
            ("RK0323", 15, 25, "`p.banked` holds whole numbers; `+=` gives it a text",
             "write the number without quotes: 3"),
            ("RK0323", 16, 20, "`flag` holds true or false; `=` gives it a number",
             "its type is inferred from its initial value; if it holds a number too, declare "
             "`flag: {initial: ..., type: any}` under `vars`"),
            ("RK0301", 17, 13, "unknown name `totl`", "did you mean `total`?"),
        ], setting


def _variant(tmp_path, text: str) -> str:
    path = tmp_path / "variant.yaml"
    path.write_text("variant:\n  name: tried\n" + text)
    return str(path)


def test_a_variant_gives_players_within_the_games_own_range(tmp_path):
    with pytest.raises(DiagnosticReport) as caught:
        load_game("goa", (_variant(tmp_path, "players: {min: 5}\n"),))
    [found] = caught.value.diagnostics
    assert (found.code, Path(found.span.path).name, found.span.line) == ("RK0360", "variant.yaml", 3)
    assert found.message == "`players.min` is 5, outside the game's own 2-4 players"


def test_a_variant_keeps_a_table_of_numbers_numbers_and_says_so_at_its_own_line(tmp_path):
    with pytest.raises(DiagnosticReport) as caught:
        load_game("goa", (_variant(tmp_path, 'tables:\n  colony_vp: [0, "one", 3, 6, 10]\n'),))
    [found] = caught.value.diagnostics
    assert (found.code, Path(found.span.path).name, found.span.line, found.span.column) == \
        ("RK0358", "variant.yaml", 4, 18)
    assert found.message == 'table `colony_vp` holds numbers here; `"one"` is a text'
    assert Path(found.related[0][1].path).name == "game.yaml"


def test_a_variant_that_shortens_a_table_the_rules_index_is_warned(tmp_path):
    game = load_game("goa", (_variant(tmp_path, "tables:\n  colony_vp: [0, 1]\n"),))
    assert [(d.code, d.span.line) for d in game.warnings] == [("RK0359", 4)]
    assert load_game("goa", (_variant(tmp_path, "tables:\n  colony_vp: [0, 2, 4, 8, 12]\n"),)).warnings == ()


# ------------------------------------------------------------------ one table of where texts are, one resolver
@pytest.mark.parametrize("game", ["goa", "batavia", *(g for g in CORPUS if "broken" not in g and "mistakes" not in g)])
def test_every_text_the_builder_parses_is_in_the_one_table_of_text_places(game):
    texts = load_game(game if "/" not in game else str(REPO / game)).texts
    assert texts
    strays = [path for path in texts if text_place(path) is None]
    assert strays == []


def test_a_name_is_the_texts_own_by_the_languages_scope_rules():
    tree = parse_text(textwrap.dedent("""\
        hand = 3
        for p in players:
            choose p:
                "take {c}" for c in p.hand if c.cost <= hand:
                    total += sum(x for x in cards if x == c) + count(hand)
        """), None)
    said = [(node.id, meaning) for node, meaning in resolve.names(tree, (), {"total"})]
    assert sorted(set(said)) == [("c", "own"), ("cards", "game"), ("hand", "own"), ("p", "own"),
                                 ("players", "game"), ("total", "game"), ("x", "own")]
    expression = parse_expr("sum(x for x in pile) + x + p.score")
    assert [(n.id, m) for n, m in resolve.names(expression, ("p",), statements=False)] == \
        [("pile", "game"), ("x", "own"), ("x", "game"), ("p", "own")]


def test_every_node_class_has_its_writer_in_one_table_made_when_the_module_loads():
    from rulekit.dsl import codegen, compiler
    from rulekit.dsl.visit import methods
    assert set(compiler._WRITERS) == set(typing.get_args(ast.Expr))
    assert set(codegen._BLOCKS) == {ast.Assign, ast.CallStmt, ast.Choose, ast.ChooseAll}

    class Partial:
        def x_Num(self, node, scope):
            return "1"
    with pytest.raises(TypeError, match="Partial has no x_Str, x_Template"):
        methods(Partial, "x_", ast.Expr)


def test_an_index_a_table_cannot_hold_names_the_line_that_set_the_table(write_game, tmp_path):
    folder = write_game({"game.yaml": """\
        meta: {title: Short table}
        players: {min: 2, max: 2}
        tables:
          vp: [0, 1, 3, 6]
        vars:
          total: 0
        flow:
          rounds: 1
          phases:
            - id: main
              do: |
                total += vp[3]
        scoring:
          categories:
            - {id: total, points: "vp[2]"}
        """, "variants/short.yaml": "variant: {name: short}\ntables:\n  vp: [0, 1]\n"})
    game = load_game(folder, ("short",))
    assert [(d.code, d.span.line) for d in game.warnings] == [("RK0359", 3)]
    with pytest.raises(ContentRuntimeError) as caught:
        new_game(game, 2, seed=1)
    error = caught.value
    assert (error.code, error.span.line) == ("RK4020", 12)
    [(what, where)] = error.related
    assert what == "table `vp` (2 entries) is set here"
    assert (Path(where.path).name, where.line) == ("short.yaml", 3)
    assert "short.yaml:3" in error.render()


def test_a_declaration_the_schema_refuses_keeps_its_name_so_its_readers_say_nothing_more(write_game):
    folder = write_game("""\
meta: {title: Cascade}
players: {min: 2, max: 2}
vars:
  counted: []
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        counted = [1]
        totl += 1
""")
    with pytest.raises(DiagnosticReport) as caught:
        load_game(folder)
    assert [(d.code, d.span.line) for d in caught.value.diagnostics] == [("RK0124", 4), ("RK0301", 11)]


def _operators_game(write_game, body: str) -> str:
    return write_game(f"""\
meta: {{title: Operators}}
players: {{min: 2, max: 2}}
vars:
  total: 0
  out: {{initial: 0, type: any}}
flow:
  rounds: 1
  phases:
    - id: main
      do: |
{textwrap.indent(body, " " * 8)}""")


@pytest.mark.parametrize("expr, said", [
    ('1 + "a"', "RK0324 `+` cannot take a number and a text"),
    ('"bid " + total', "RK0324 `+` cannot take a text and a number"),
    ("[1] + 1", "RK0324 `+` cannot take a list and a number"),
    ("none - 1", "RK0324 `-` cannot take none and a number"),
    ('total == "3"', "RK0325 `==` compares a number with a text: they are never equal"),
])
def test_an_operator_given_values_it_cannot_take_is_refused_where_it_is_written(write_game, expr, said):
    folder = _operators_game(write_game, f"""\
for x in [1]:
    out = {expr}
    out = x + "fine: x is the loop's own, its kind only running tells"
""")
    try:
        found = load_game(folder).warnings
    except DiagnosticReport as report:
        found = report.diagnostics
    assert [f"{d.code} {d.message}" for d in found if d.code != "RK0340"] == [said]
    assert [d.span.line for d in found if d.code != "RK0340"] == [12]


@pytest.mark.parametrize("expr", ['"a" + "b"', "[1] + [2]", '"ab" * 2', "true + 1", "total - 1"])
def test_what_an_operator_takes_is_not_refused(write_game, expr):
    assert load_game(_operators_game(write_game, f"out = {expr}\n")).warnings == ()


def test_a_built_ins_argument_whose_kind_a_variables_type_tells_is_checked(write_game):
    folder = _operators_game(write_game, "out = count(total) + abs(total)\nout = abs(count([total]))\n")
    with pytest.raises(DiagnosticReport) as caught:
        load_game(folder)
    assert [(d.code, d.span.line, d.message) for d in caught.value.diagnostics] == [
        ("RK0321", 11, "argument `items` of `count` must be a list or a zone, got a number")]
