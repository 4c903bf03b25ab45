# SPDX-License-Identifier: MIT
"""The JSON Schemas and the diagnostics made from their errors."""
from __future__ import annotations

import json
import os
import textwrap

import jsonschema
import pytest

import rulekit
from rulekit.content import schema
from rulekit.content.loader import load_yaml
from rulekit.errors import DiagnosticReport

from conftest import GAMES, game_dir, where


def check(text: str, kind: str, path: str = "doc.yaml"):
    return schema.check(load_yaml(path, textwrap.dedent(text)), kind)


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the (dedented) document where ``needle`` occurs."""
    lines = textwrap.dedent(text).splitlines()
    (found,) = [i + 1 for i, line in enumerate(lines) if needle in line]
    return found


def one(text: str, kind: str):
    diags = check(text, kind)
    assert len(diags) == 1, [d.concise() for d in diags]
    return diags[0]


@pytest.mark.parametrize("kind", schema.KINDS)
def test_schema_files_are_valid_json_schemas(kind):
    path = os.path.join(schema.schemas_dir(), f"{kind}.schema.json")
    with open(path, encoding="utf-8") as handle:
        doc = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(doc)
    assert doc["$id"].endswith(f"/{kind}.schema.json")


# ------------------------------------------------------------------ game

VALID_GAME = """\
    meta: {title: Valid}
    players: {min: 1, max: 4, default: 2}
    params:
      limit: 3
      computed: {expr: "limit * num_players", text: "computed at start"}
    sets:
      colors: [red, blue]
      goods: {tea: {value: 1}, silk: null}
    vars:
      total: {initial: 0, min: 0, visibility: hidden}
    player:
      vars: {coins: 2}
      zones: {hand: {visibility: owner}, pile: null}
    zones:
      deck: {visibility: hidden, capacity: 10}
      row: {range: [1, 3], visibility: face_up}
    components:
      card: {generate: {color: colors}, copies: 2, start: deck, state: {face_up: false}}
    functions:
      twice: {params: [x], expr: "x * 2"}
    procedures:
      turn: {params: [p], do: "p.coins += 1", provenance: ruling, ruling: "why"}
    flow:
      rounds: 2
      phases:
        - {id: main, do: "pass", when: "round > 0"}
      finish: "pass"
    scoring:
      categories: [{id: coins, points: "p.coins"}]
      tiebreak: ["0"]
    invariants:
      - {id: never_negative, expr: "total >= 0"}
    """


def test_game_schema_accepts_a_valid_document():
    assert check(VALID_GAME, "game") == []


@pytest.mark.parametrize("name", ["auction", "counter", "hidden"])
def test_test_games_are_schema_valid(name):
    from rulekit.content.loader import flatten
    from rulekit.games import load_tree
    data, smap = flatten(load_tree(game_dir(name)))
    assert schema.check_data(data, smap, "game") == []


def test_unknown_top_level_key_gets_did_you_mean():
    text = VALID_GAME.replace("    meta: {title: Valid}", "    meta: {title: Valid}\n    metta: {title: x}")
    diag = one(text, "game")
    assert diag.code == "RK0120"
    assert diag.message == "unknown key `metta`"
    assert diag.help == "did you mean `meta`?"
    assert (diag.span.line, diag.span.column) == (2, 1)


def test_misspelled_nested_key_points_at_the_key():
    text = VALID_GAME.replace('- {id: main, do: "pass", when: "round > 0"}',
                              '- {id: main, do: "pass", wehn: "round > 0"}')
    diag = one(text, "game")
    assert diag.code == "RK0120"
    assert "`wehn`" in diag.message and diag.help == "did you mean `when`?"
    assert diag.span.line == line_of(text, "wehn")
    assert diag.notes == ("at $.flow.phases[0]",)


def test_unknown_key_without_a_close_match_lists_the_allowed_ones():
    diag = one(VALID_GAME.replace("    meta: {title: Valid}", "    meta: {title: Valid, zzz: 1}"), "game")
    assert diag.code == "RK0120"
    assert diag.help.startswith("allowed here: ") and "designer" in diag.help


def test_wrong_type():
    diag = one(VALID_GAME.replace("players: {min: 1,", "players: {min: one,"), "game")
    assert diag.code == "RK0123"
    assert diag.message == "expected an integer, got a string"
    assert (diag.span.line, diag.span.column) == (2, 16)


def test_bad_enum_value_with_suggestion():
    diag = one(VALID_GAME.replace("deck: {visibility: hidden,", "deck: {visibility: hiden,"), "game")
    assert diag.code == "RK0122"
    assert diag.message == "`hiden` is not one of public, owner, hidden, face_up"
    assert diag.help == "did you mean `hidden`?"
    assert (diag.span.line, diag.span.column) == (line_of(VALID_GAME, "deck:"), 22)


def test_bad_provenance_enum():
    text = VALID_GAME.replace("provenance: ruling", "provenance: guess")
    diag = one(text, "game")
    assert diag.code == "RK0122"
    assert diag.span.line == line_of(text, "guess")


def test_missing_required_key():
    diag = one(VALID_GAME.replace("    players: {min: 1, max: 4, default: 2}\n", ""), "game")
    assert diag.code == "RK0121"
    assert diag.message == "`players` is a required property"


def test_range_constraint():
    diag = one(VALID_GAME.replace("capacity: 10", "capacity: -1"), "game")
    assert diag.code == "RK0124"
    assert "minimum of 0" in diag.message
    assert diag.span.line == line_of(VALID_GAME, "capacity")


def test_every_failing_place_gets_one_diagnostic():
    text = (VALID_GAME.replace("players: {min: 1,", "players: {min: one,")
            .replace("deck: {visibility: hidden,", "deck: {visibility: hiden,"))
    diags = check(text, "game")
    assert sorted(d.span.line for d in diags) == [2, line_of(VALID_GAME, "deck:")]


def test_schema_errors_through_load_game():
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(game_dir("broken/unknown_key"))
    (diag,) = info.value.diagnostics
    assert (diag.code, where(diag)) == ("RK0120", ("game.yaml", 4, 10))
    assert diag.help == "did you mean `visibility`?"


def test_schema_errors_in_an_included_file_name_that_file(write_game):
    folder = write_game({
        "game.yaml": """\
            meta: {title: T}
            players: {min: 1, max: 2}
            include: [parts.yaml]
            flow: {rounds: 1, phases: [{id: main, do: pass}]}
            """,
        "parts.yaml": "vars:\n  n: {initial: 0, minimum: 0}\n",
    })
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0120" and diag.help == "did you mean `min`?"
    assert where(diag) == ("parts.yaml", 2, 19)


# ------------------------------------------------------------------ variant

def test_variant_schema_accepts_a_valid_overlay():
    assert check("""\
        variant: {name: rich, title: "More money", provenance: rulebook}
        player:
          vars: {money: {initial: 9}}
        """, "variant") == []


def test_variant_schema_requires_the_variant_header():
    diag = one("player: {vars: {money: 9}}\n", "variant")
    assert diag.code == "RK0121"
    assert "`variant`" in diag.message


def test_variant_schema_misspelled_key():
    diag = one("variant:\n  nmae: rich\n  name: rich\n", "variant")
    assert diag.code == "RK0120"
    assert diag.help == "did you mean `name`?"
    assert (diag.span.line, diag.span.column) == (2, 3)


def test_a_bad_variant_file_stops_load_game(write_game):
    folder = write_game({
        "game.yaml": """\
            meta: {title: T}
            players: {min: 1, max: 2}
            flow: {rounds: 1, phases: [{id: main, do: pass}]}
            """,
        "variants/bad.yaml": "variant: {name: 3}\n",
    })
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder, ("bad",))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0123"
    assert where(diag) == ("bad.yaml", 1, 17)


def test_a_variant_that_breaks_the_game_schema_points_into_the_variant(write_game):
    folder = write_game({
        "game.yaml": """\
            meta: {title: T}
            players: {min: 1, max: 2}
            flow: {rounds: 1, phases: [{id: main, do: pass}]}
            """,
        "variants/worse.yaml": "variant: {name: worse}\nflow:\n  rounds: 0\n",
    })
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder, ("worse",))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0124"
    assert where(diag) == ("worse.yaml", 3, 11)


# ------------------------------------------------------------------ script

VALID_SCRIPT = """\
    title: a script
    game: auction
    variants: [rich]
    players: 3
    seed: 4
    pins:
      rolls: {dice: [1, 2]}
      shuffles: {deck: [[a, b]]}
    position: |
      total = 1
    actions:
      - bid 1
      - p2: pass
      - expect: {"count(lot)": 1}
      - checkpoint: here
    """


def test_script_schema_accepts_a_valid_script():
    assert check(VALID_SCRIPT, "script") == []


def test_script_schema_misspelled_key():
    diag = one(VALID_SCRIPT.replace("    players: 3", "    playres: 3"), "script")
    assert (diag.code, diag.help) == ("RK0120", "did you mean `players`?")
    assert (diag.span.line, diag.span.column) == (4, 1)


def test_script_schema_wrong_types():
    diags = check(VALID_SCRIPT.replace("seed: 4", "seed: four").replace("[1, 2]", "[1, two]"), "script")
    assert sorted((d.code, d.span.line) for d in diags) == [("RK0123", 5), ("RK0123", 7)]


def test_script_schema_bad_action_entry():
    diag = one(VALID_SCRIPT.replace("- p2: pass", "- {p2: pass, p3: pass}"), "script")
    assert diag.code == "RK0124"
    assert diag.span.line == line_of(VALID_SCRIPT, "p2: pass")


@pytest.mark.parametrize("step,code,says", [
    ("- expect: 3", "RK0123", "`expect:` takes a mapping"),
    ("- refuse: {actoin: pass}", "RK0121", "`refuse:` takes the action that must be refused"),
    ("- refuse: [pass]", "RK0123", "`refuse:` takes the action that must be refused"),
    ("- legal: 3", "RK0123", "`legal:` takes a list of action patterns"),
    ("- score: {p1: many}", "RK0123", "a player's score is a total"),
    ("- over: maybe", "RK0123", "`over:` takes true or false"),
    ("- checkpoint: [a]", "RK0123", "`checkpoint:` takes a name"),
    ("- p2: [pass]", "RK0123", "`pN:` takes the action that player plays"),
    ("- bid 2: now", "RK0120", "a step is an action in notation"),
    ("- 3", "RK0123", "a step is an action in notation"),
])
def test_a_step_of_the_wrong_shape_says_what_its_kind_takes(step, code, says):
    """The help is the schema's ``errorMessage``: an editor shows the same words."""
    text = VALID_SCRIPT.replace("- p2: pass", step)
    diags = check(text, "script")
    assert [(d.code, d.span.line) for d in diags if d.help and says in d.help] == [(code, line_of(text, step))], \
        [d.concise() for d in diags]


def test_a_misspelt_step_key_still_gets_did_you_mean():
    diag = one(VALID_SCRIPT.replace("- p2: pass", "- refuse: {action: pass, becaus: RK3001}"), "script")
    assert (diag.code, diag.help) == ("RK0120", "did you mean `because`?")


def test_script_schema_requires_game():
    diag = one("actions: [pass]\n", "script")
    assert diag.code == "RK0121" and "`game`" in diag.message


def test_every_script_under_tests_games_is_schema_valid():
    from rulekit.content.loader import flatten
    paths = sorted(GAMES.glob("*/scripts/*.yaml"))
    assert paths, "the test games ship scripts"
    for path in paths:
        data, smap = flatten(load_yaml(str(path)))
        assert schema.check_data(data, smap, "script") == [], path
