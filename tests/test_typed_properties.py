# SPDX-License-Identifier: MIT
"""Typed item properties (issue 36): a property's type is declared under its kind's
`properties:` or inferred from the game's own items; a wrong value is an error at its line, in
the game and in a variant; a property the rules read that some items of a kind lack is reported
once with the kind, or reads a declared default."""
from __future__ import annotations

import os
import shutil

import pytest

import rulekit
from rulekit.engine import api
from rulekit.errors import DiagnosticReport
from tests.conftest import codes, logged, run_cli, where

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GAME = """\
meta: {title: Props}
players: {min: 2, max: 2}
sets:
  spices: [ginger, pepper, clove]
components:
  tile:
    props: {spice: none, label: plain}
    items:
      - {id: t1, fields: 1, spice: ginger}
      - {id: t2, fields: 2, spice: pepper, label: 3}
      - {id: t3, fields: 3, spice: clove, label: fancy}
      - {id: t4, fields: 1}
    start: row
  card:
    items: [{id: c1, worth: 3}, {id: c2, worth: 4}, {id: c3}, {id: c4}]
    start: row
  coin: {generate: {spice: spices}, props: {value: 2}, start: row}
zones:
  row: {}
flow:
  rounds: 1
  phases:
    - id: only
      do: |
        total = sum(t.fields for t in row if kind_of(t) == "tile")
        log("fields {total}")
"""

READS_WORTH = GAME + """\
        log("worth {sum(c.worth for c in row if kind_of(c) == 'card')}")
        log("again {[c.worth for c in row if kind_of(c) == 'card']}")
"""


def report_of(write_game, files, variants=()) -> DiagnosticReport:
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(files), variants)
    return info.value


def test_a_game_whose_values_agree_loads(write_game):
    """Free text (`label`: a word and a number) is not checked; `worth` is never read."""
    game = rulekit.load_game(write_game(GAME))
    assert logged(api.new_game(game, 2, 0)) == ["fields 7"]


def test_a_word_among_numbers_is_refused_at_its_line(write_game, capsys):
    folder = write_game(GAME.replace("fields: 2,", "fields: plenty,"))
    code, out, err = run_cli(capsys, "validate", folder)
    err += out
    assert code == 1 and "ok:" not in out
    assert "error[RK0354]: `t2` (kind `tile`) property `fields`: expected a whole number, got the text `plenty`" in err
    assert "game.yaml:10:26" in err and "3 of 4 values of `fields` are a whole number" in err


@pytest.mark.parametrize("written, code, message, help_", [
    ("spice: peper", "RK0355", "`t2` (kind `tile`) property `spice`: unknown symbol `peper` (not a member of `spices`)",
     "did you mean `pepper`?"),
    ("fields: 1.5", "RK0354", "`t2` (kind `tile`) property `fields`: expected an integer, found 1.5",
     "rulekit counts in whole numbers: write `1` or `2`"),
    ("fields: true", "RK0354", "`t2` (kind `tile`) property `fields`: expected a whole number, got `true`", None),
])
def test_a_value_of_the_wrong_type_says_what_was_expected(write_game, written, code, message, help_):
    text = GAME.replace("spice: pepper", "spice: peper") if written.startswith("spice") else \
        GAME.replace("fields: 2,", written + ",")
    report = report_of(write_game, text)
    assert codes(report) == [code]
    found = report.diagnostics[0]
    assert (found.message, found.help, where(found)[:2]) == (message, help_, ("game.yaml", 10))


def test_free_words_beside_members_are_not_a_typo(write_game):
    """Goa's tile `type`s mix set members with other words: a word far from every member is free text."""
    rulekit.load_game(write_game(GAME.replace("spice: pepper", "spice: plantation")))


def test_a_variant_is_held_to_the_type_the_game_gives(write_game):
    """All of the game's `fields` are numbers: a variant writing words into most of them still breaks it."""
    variant = """\
        variant: {name: words, title: Words}
        components:
          tile:
            items:
              - {id: t1, fields: plenty}
              - {id: t2, fields: lots}
              - {id: t3, fields: loads}
        """
    report = report_of(write_game, {"game.yaml": GAME, "variants/words.yaml": variant}, ["words"])
    assert codes(report) == ["RK0354"] * 3
    assert [where(d) for d in report.diagnostics] == [("words.yaml", n, 26) for n in (5, 6, 7)]
    assert "the game's own `tile` items (4 of 4 values of `fields`" in report.diagnostics[0].notes[0]


def test_a_variant_changing_a_generated_kind_default_is_checked(write_game):
    variant = "variant: {name: v, title: V}\ncomponents: {coin: {props: {value: lots}}}\n"
    report = report_of(write_game, {"game.yaml": GAME, "variants/v.yaml": variant}, ["v"])
    assert codes(report) == ["RK0354"] and where(report.diagnostics[0]) == ("v.yaml", 2, 36)


def test_a_property_some_items_lack_is_reported_once_with_the_kind(write_game, capsys):
    code, out, err = run_cli(capsys, "validate", write_game(READS_WORTH))
    err += out
    assert code == 1 and err.count("RK0356") == 1
    assert "error[RK0356]: `c.worth`: 2 of 4 `card` items have no `worth` (first: `c3` at " in err
    assert "game.yaml:27:25" in err          # the first reading, not an item
    assert "declare a default under `card`: `properties: {worth: {default: ...}}`" in err


def test_a_declared_default_is_read(write_game):
    text = READS_WORTH.replace("  card:\n", "  card:\n    properties: {worth: {type: int, default: 0}}\n")
    game = rulekit.load_game(write_game(text))
    assert logged(api.new_game(game, 2, 0)) == ["fields 7", "worth 7", "again [3, 4, 0, 0]"]


def test_a_property_asked_with_has_is_optional(write_game):
    text = READS_WORTH.replace("if kind_of(c) == 'card')}", "if has(c, 'worth'))}").replace(
        "if kind_of(c) == 'card']}", "if has(c, 'worth')]}")
    game = rulekit.load_game(write_game(text))
    assert logged(api.new_game(game, 2, 0)) == ["fields 7", "worth 7", "again [3, 4]"]


def test_a_declared_type_is_checked(write_game):
    text = GAME.replace("  tile:\n", "  tile:\n    properties: {label: {type: symbol of spices}}\n")
    report = report_of(write_game, text)
    assert codes(report) == ["RK0355", "RK0354", "RK0355"]      # props `plain`, t2's 3, t3's `fancy`
    assert report.diagnostics[1].message == "`t2` (kind `tile`) property `label`: expected a member of `spices`, " \
                                            "got `3`" and not report.diagnostics[1].notes


@pytest.mark.parametrize("declared, code, message", [
    ("{fields: {type: integer}}", "RK0350", "unknown type `integer`"),
    ("{spice: {default: ginger}}", "RK0357", "`tile` gives `spice` a default twice, under `props:` and under "
                                             "`properties:`"),
    ("{used: {type: bool}}", "RK0357", "`tile` declares `used` under `properties:`, but it is a state property"),
    ("{fields: {default: many}}", "RK0354", "`tile` default `fields`: expected a whole number, got the text `many`"),
])
def test_a_declaration_that_contradicts_its_kind(write_game, declared, code, message):
    text = GAME.replace("  tile:\n", f"  tile:\n    state: {{used: false}}\n    properties: {declared}\n")
    report = report_of(write_game, text)
    assert codes(report) == [code] and report.diagnostics[0].message == message


@pytest.mark.parametrize("game", ["goa", "batavia", *sorted(
    os.path.join("examples", d) for d in os.listdir(os.path.join(ROOT, "examples"))
    if os.path.isfile(os.path.join(ROOT, "examples", d, "game.yaml")))])
def test_shipped_games_and_examples_still_validate(capsys, game):
    code, out, _ = run_cli(capsys, "validate", os.path.join(ROOT, game) if "/" in game else game)
    assert code == 0 and out.startswith("ok:")


def test_goa_with_a_word_for_a_number_fails(tmp_path, capsys):
    """The issue's reproducer: one tile's `fields: 1` changed to `fields: plenty` in a copy of Goa."""
    folder = tmp_path / "goa"
    shutil.copytree(os.path.join(ROOT, "games", "goa"), folder)
    path = folder / "components.yaml"
    text = path.read_text(encoding="utf-8")
    line = text[:text.index("fields: 1\n")].count("\n") + 1
    path.write_text(text.replace("fields: 1\n", "fields: plenty\n", 1), encoding="utf-8")
    code, out, err = run_cli(capsys, "validate", str(folder))
    err += out
    assert code == 1 and f"components.yaml:{line}:17" in err
    assert "property `fields`: expected a whole number, got the text `plenty`" in err
