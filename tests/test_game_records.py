# SPDX-License-Identifier: MIT
"""A built game is one frozen record per section of its content (issue 15): each holds what its
section declares, none can be changed after building, and the flow's finish is a label."""
from __future__ import annotations

import attrs
import pytest
import yaml

import rulekit
from rulekit import model
from rulekit.builder import board, bots, components, program, scoring, variables
from rulekit.engine.state import Family, ZoneKey

from conftest import game_dir, load_test_game, logged
from probes import Calls

RECORDS = {"components": model.Components, "variables": model.Variables, "board": model.Board,
           "program": model.Program, "scoring": model.Scoring, "bots": model.Bots, "memo": model.Memo}


def _content(name: str) -> dict:
    """The auction game's YAML files merged by hand (its sections are split across files)."""
    folder = game_dir(name)
    data: dict = {}
    for file in ("game.yaml", "rules.yaml", "scoring.yaml"):
        with open(f"{folder}/{file}", encoding="utf-8") as handle:
            data.update(yaml.safe_load(handle))
    return data


def test_every_section_is_a_frozen_record_and_so_is_the_game():
    game = load_test_game("auction")
    for field, kind in RECORDS.items():
        record = getattr(game, field)
        assert type(record) is kind, field
        for attribute in attrs.fields(kind):
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                setattr(record, attribute.name, None)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        game.components = game.components
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        game.title = "another"
    assert game.title == "Tiny Auction" and type(game.components.items) is dict


def test_each_record_holds_what_its_section_declares():
    game = load_test_game("auction")
    data = _content("auction")
    c = game.components
    assert set(c.items) == {f"gem-{n}" for n in range(1, data["components"]["gem"]["copies"] + 1)}
    assert c.kinds == {"gem": tuple(c.items)} and set(c.item_kind.values()) == {"gem"}
    assert set(c.item_start.values()) == {data["components"]["gem"]["start"]}
    v = game.variables
    assert v.pvars == {name: spec["initial"] for name, spec in data["player"]["vars"].items()}
    assert v.pbounds == {"money": (0, None)} and v.pvis["money"] == "owner" and v.pvis["lots_won"] == "public"
    assert v.gvars == {"starter": 0, "round": 0}
    b = game.board
    assert {name: (type(key), key.name) for name, key in b.zones.items()} == {
        name: (ZoneKey, name) for name in ("box", *data["zones"])}
    assert set(b.pzones) == set(data["player"]["zones"]) and all(k.name == "gems" for k in b.pzones["gems"])
    assert b.zone_vis == {"box": "hidden", "bank": "public", "lot": "public", "gems": "public"}
    assert b.families == {} and b.dealt_from == {}
    p = game.program
    assert p.params == {"gem_value": 3, "lot_die": 3}
    assert {"auction", "pay", "$setup", "$finish", "$main"} <= set(p.procedures)
    assert set(p.functions) == set(data["functions"]) and p.functions["gem_points"] is not None
    assert p.main is p.procedures["$main"] and p.module.codes is p.procedures
    assert p.roll_streams == frozenset({"dice"})
    s = game.scoring
    assert [cid for cid, _text, _fn in s.categories] == [cat["id"] for cat in data["scoring"]["categories"]]
    assert len(s.tiebreak) == len(data["scoring"]["tiebreak"]) and s.eligible is None
    assert s.invariants == () and s.estimate is None
    assert game.bots.rules == {} and game.bots.search == {}
    # gem_points reads the zones and a constant: forgotten when a zone changes, never remembered per game
    assert "gem_points" in game.memo.deps[("zone", "gems")] and "gem_points" not in game.memo.static


def test_a_game_with_families_bots_and_an_estimate():
    game = rulekit.load_game("batavia")
    assert set(game.bots.rules) == {"trader"} and game.bots.search["rollout_bot"] == "trader"
    assert game.scoring.estimate is not None and len(game.scoring.invariants) >= 10
    families = game.board.families
    assert families and all(type(f) is Family and f.name == name for name, f in families.items())


def test_the_finish_pc_is_the_label_of_the_block_that_runs_finish():
    """`end_game()` jumps to ``finish_pc``: the flow's block that calls the finish (the number
    writing the flow gave it, not one counted on lines or instructions). From a procedure two
    calls deep (tests/games/counter), the finish runs once, the game is scored, and no other
    turn is taken."""
    game = load_test_game("counter")
    state = rulekit.new_game(game, 2)
    for action in ("skip", "add 2", "add 1", "bonus 1"):
        rulekit.apply(state, action)
    asked = len(state.actions)
    with Calls() as calls:
        rulekit.apply(state, "quit")
    assert calls[game.program.procedures["$finish"].direct] == 1 and logged(state)[-1] == "final total 3"
    assert state.over and state.result is not None and len(state.actions) == asked + 1


def test_the_builder_returns_the_records_the_game_holds(monkeypatch):
    """Each section builder returns its record, and the game holds that very record (the board,
    the program and the scoring are completed as later texts compile: the rest of them is kept)."""
    returned = {}
    for module, part in ((components, "components"), (variables, "variables"), (board, "board"),
                         (program, "program"), (scoring, "scoring"), (bots, "bots")):
        original = getattr(module, part)

        def spy(*args, _original=original, _part=part):
            returned[_part] = _original(*args)
            return returned[_part]
        monkeypatch.setattr(module, part, spy)
    game = rulekit.load_game(game_dir("auction"))
    assert game.components is returned["components"] and game.variables is returned["variables"]
    assert game.bots is returned["bots"]
    for record, part, later in ((game.board, "board", ("dealt_from",)),
                                (game.program, "program", ("roll_streams", "props_named")),
                                (game.scoring, "scoring", ("estimate",))):
        for field in attrs.fields(type(record)):
            if field.name not in later:
                assert getattr(record, field.name) is getattr(returned[part], field.name), (part, field.name)
