# SPDX-License-Identifier: MIT
"""Typed content: parameters and variables are checked at load, at their own line."""
from __future__ import annotations

import os
import shutil

import pytest

import rulekit
from rulekit.cli.app import main
from rulekit.errors import DiagnosticReport
from tests.conftest import codes, where

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GAME = """\
    meta: {title: Typed}
    players: {min: 2, max: 3}
    params:
      rounds: {value: 3, type: int, min: 1, max: 9}
      opener: {value: red}
      bonus: 2
      seats_used: {expr: "num_players + 1", type: int, min: 2, max: 3}
    sets:
      colours: [red, blue, green]
      shapes:
        text: "Each piece has a shape (p. 2)."
        provenance: rulebook
        circle: {}
        square: {sides: 4}
    vars:
      leader: {initial: none, type: player}
      colour: {initial: blue}
      picked: {initial: [], type: list of symbol of colours}
      note: {initial: hello, type: text}
    player:
      vars:
        coins: {initial: 3, min: 0, max: 20}
        done: false
    flow: {rounds: 2, phases: [{id: main, do: "x = opener + note + colour\\nif x == bonus:\\n    pass"}]}
    """


def load_report(write_game, files) -> DiagnosticReport:
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(files))
    return info.value


def test_a_typed_game_loads_and_sets_in_mapping_form_take_annotations(write_game):
    game = rulekit.load_game(write_game(GAME))
    assert game.components.sets["shapes"] == ("circle", "square")
    assert game.components.members["square"] == {"sides": 4}
    assert ("sets.shapes", "rulebook") in [entry[:2] for entry in game.provenance]


@pytest.mark.parametrize("overlay, code, line, column, message, help_", [
    ("params: {rounds: {value: -3}}", "RK0352", 2, 26, "parameter `rounds` is -3, below its minimum 1", None),
    ("params: {rounds: {value: three}}", "RK0351", 2, 26, "expected a whole number, got the text `three`",
     "did you mean `3`?"),
    ("params: {rounds: 12}", "RK0352", 2, 18, "above its maximum 9", None),
    ("params: {opener: {value: gren}}", "RK0353", 2, 26, "unknown symbol `gren` (not a member of `colours`)",
     "did you mean `green`?"),
    ("params: {opener: {value: circle}}", "RK0353", 2, 26, "not a member of `colours`", None),
    ("params: {bonus: {value: true}}", "RK0351", 2, 25, "expected a whole number, got `true`", None),
    ("vars: {colour: {initial: plenty}}", "RK0353", 2, 26, "unknown symbol `plenty`", None),
    ("vars: {picked: {initial: [red, blu]}}", "RK0353", 2, 32, "unknown symbol `blu`", "did you mean `blue`?"),
    ("vars: {leader: {initial: red}}", "RK0351", 2, 26, "expected a player", None),
    ("player: {vars: {coins: {initial: 21}}}", "RK0352", 2, 34, "player variable `coins` is 21", None),
    ("player: {vars: {done: 0}}", "RK0351", 2, 23, "expected true or false, got `0`", None),
    ("player: {vars: {coins: {type: integer}}}", "RK0350", 2, 31, "unknown type `integer`", "did you mean `int`?"),
    ("vars: {picked: {type: list of symbol of colors}}", "RK0350", 2, 23, "unknown set `colors`",
     "did you mean `colours`?"),
    ("params: {bonus: {value: 2, min: 5, max: 1}}", "RK0352", 2, 33, "`min` 5 is above `max` 1", None),
    ("vars: {note: {min: 0}}", "RK0352", 2, 15, "`min` applies to whole numbers", None),
])
def test_a_variant_value_of_the_wrong_type_is_reported_at_its_line(write_game, overlay, code, line, column,
                                                                    message, help_):
    folder = write_game({"game.yaml": GAME, "variants/v.yaml": f"variant: {{name: v}}\n{overlay}\n"})
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder, ["v"])
    (diagnostic,) = info.value.diagnostics
    assert (diagnostic.code, where(diagnostic)) == (code, ("v.yaml", line, column))
    assert message in diagnostic.message
    if help_:
        assert diagnostic.help == help_


def test_the_game_itself_is_checked_and_every_problem_is_reported(write_game):
    text = GAME.replace("colour: {initial: blue}", "colour: {initial: plenty}").replace(
        "rounds: {value: 3,", "rounds: {value: -3,")
    report = load_report(write_game, text)
    assert codes(report) == ["RK0352", "RK0353"]
    assert [where(d)[1:] for d in report.diagnostics] == [(4, 19), (17, 21)]
    assert report.diagnostics[1].help == "Declare `type: text` for free text"


def test_a_bare_variant_value_keeps_the_games_declaration(write_game):
    folder = write_game({"game.yaml": GAME, "variants/v.yaml": "variant: {name: v}\nparams: {rounds: 0}\n"})
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder, ["v"])
    (diagnostic,) = info.value.diagnostics
    assert where(diagnostic) == ("v.yaml", 2, 18)
    assert diagnostic.related[0][1].line == 4   # the minimum, in game.yaml


def test_types_are_reported_with_name_errors(write_game):
    text = GAME.replace("if x == bonus", "if x == bonsu").replace("colour: {initial: blue}", "colour: {initial: x}")
    assert codes(load_report(write_game, text)) == ["RK0353", "RK0301"]       # in the order of their lines


def test_a_hyphenated_item_id_written_bare_gets_the_hint_to_quote_it(write_game):
    text = GAME.replace("    flow:", "    components: {card: {items: [{id: card-7}]}}\n    flow:").replace(
        "x = opener + note + colour", "x = card-7")
    (diagnostic,) = load_report(write_game, text).diagnostics
    assert diagnostic.code == "RK0301"
    assert diagnostic.help == 'an item id with `-` is one word only in quotes: write item("card-7") or "card-7"'


def test_validate_reports_a_broken_variant_of_a_shipped_game(tmp_path, capsys):
    folder = tmp_path / "goa"
    shutil.copytree(os.path.join(ROOT, "games", "goa"), folder)
    (folder / "variants" / "short.yaml").write_text("variant: {name: short}\nparams:\n  rounds_total: -3\n")
    assert main(["validate", str(folder), "--format", "concise"]) == 1
    out = capsys.readouterr().out
    assert "short.yaml:3:17: error[RK0352]: parameter `rounds_total` is -3, below its minimum 1" in out


@pytest.mark.parametrize("name", ["goa", "batavia"])
def test_every_parameter_and_variable_of_the_shipped_games_declares_its_type(name):
    game = rulekit.load_game(os.path.join(ROOT, "games", name))
    data = game.data
    sections = [data["params"], data["vars"], data["player"]["vars"]]
    untyped = [n for section in sections for n, spec in section.items() if "type" not in spec]
    assert untyped == []
    numbers = [n for section in sections for n, spec in section.items() if spec["type"] == "int"]
    assert [n for n in numbers if "min" not in data["params"].get(n, {}) and n in data["params"]] == []
