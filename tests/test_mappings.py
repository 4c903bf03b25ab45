"""Mappings in the effect language (issue #38): `{k: v}` literals, `d[k] = v` (a new mapping, as
`xs[i] = v` makes a new list), reading, `in`, `count`, walking the keys in the order they were
added, a variable's `initial:` mapping; a missing key or a key of the wrong kind is an error on its
line, and the value survives saving a game and prints as content writes it."""
import pytest

import rulekit
from rulekit.engine import api, serialize
from rulekit.engine.view import view
from rulekit.errors import ContentRuntimeError

from conftest import ONE_DECISION, logged

GAME = """\
meta: {title: Mappings}
players: {min: 2, max: 2, default: 2}
vars:
  bids:
    initial: {x: 1, y: [a, b]}
    text: "a mapping written in YAML"
  out: none
setup: |
  log("{bids}")
  bids = {"a": 1, "b": 2, players[1]: [3]}
  bids["c"] = 3
  bids["a"] += 5
  held = bids
  held["a"] = 0
  out = [bids["a"], held["a"], bids["c"], count(bids), "a" in bids, "z" in bids, [k for k in bids],
         bids[players[1]], count({})]
  log("{bids}")
""" + ONE_DECISION


def start(write_game, text=GAME):
    return api.new_game(rulekit.load_game(write_game(text)), seed=0)


def test_a_mapping_is_written_read_and_replaced(write_game):
    s = start(write_game)
    assert s.g["out"] == [6, 0, 3, 4, True, False, ["a", "b", 1, "c"], [3], 0]
    assert logged(s) == ["{x: 1, y: [a, b]}", "{a: 6, b: 2, p2: [3], c: 3}"]


def test_a_mapping_is_a_json_object_in_views_and_survives_a_saved_game(write_game):
    s = start(write_game)
    assert view(s)["vars"]["bids"] == {"a": 6, "b": 2, "p2": [3], "c": 3}
    back = serialize.from_dict(s.game, serialize.to_dict(s))
    assert back.g["bids"] == s.g["bids"] and list(back.g["bids"]) == ["a", "b", 1, "c"]
    assert type(list(back.g["bids"])[2]) is type(players := list(s.g["bids"])[2]) and int(players) == 1


@pytest.mark.parametrize("line, message", [
    ('x = bids["aa"]', "the mapping has no key `aa` (its keys: a, b, p2, c); did you mean `a`?"),
    ("x = {[1]: 2}", "a mapping's key is a text, a number, a player, a truth value or none, not [1]"),
    ("bids[[1]] = 2", "a mapping's key is a text, a number, a player, a truth value or none, not [1]"),
])
def test_a_missing_key_or_a_key_of_the_wrong_kind_is_an_error_on_its_line(write_game, line, message):
    with pytest.raises(ContentRuntimeError) as info:
        start(write_game, GAME.replace('  log("{bids}")\n' + ONE_DECISION, f'  {line}\n' + ONE_DECISION))
    assert str(info.value) == message
    assert info.value.span.line == 17


def test_a_player_that_is_none_is_named_when_read_through(write_game):
    """Not a mapping, but the same family of runtime words: `who.score` with `who` unset says so."""
    text = ("meta: {title: Who}\nplayers: {min: 2, max: 2, default: 2}\n"
            "vars:\n  who: {initial: none, type: player}\n  out: none\n"
            "player:\n  vars:\n    score: 0\n  zones:\n    hand: {}\nsetup: |\n  out = READ\n" + ONE_DECISION)
    for read in ("who.score", "count(who.hand)"):
        with pytest.raises(ContentRuntimeError) as info:
            start(write_game, text.replace("READ", read))
        assert "read through a player that is none, as `who.score` with `who` unset?" in str(info.value)
        assert info.value.span.line == 12
