# SPDX-License-Identifier: MIT
"""Partial pins: `pins: {top: {zone: [ids]}}` fix a zone's next draws, the rest keeps its seeded order."""
from __future__ import annotations

import pytest

from rulekit import load_game
from rulekit.engine import api
from rulekit.testing.script import pins_from, run_script, write_log
from rulekit.testing.steps import ScriptError

HEAD = "game: batavia\nplayers: 3\nseed: 7\n"


def script(tmp_path, pins: str, actions: str = "actions: []\n", name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(HEAD + "pins:\n" + pins + actions)
    return str(path)


def failure(path: str) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        run_script(path)
    return info.value


def test_the_pinned_items_come_first_and_the_rest_keeps_its_seeded_order():
    game = load_game("batavia")
    plain = api.new_game(game, 3, 7)
    first = ["ship-dutch-1", "ship-swedish-22", "ship-english-3"]
    pinned = api.new_game(game, 3, 7, pins_from({"top": {"deck": first}}))
    dealt = [e[1] for e in pinned.events if e[0] == "move" and e[2] == "deck"]
    assert dealt[:3] == first                                     # the first listed is drawn first
    seeded = [e[1] for e in plain.events if e[0] == "move" and e[2] == "deck"]
    assert [x for x in dealt if x not in first] == [x for x in seeded if x not in first][:len(dealt) - 3]
    assert pinned.rng == plain.rng                                # the random streams are untouched


def test_a_script_with_a_partial_pin_runs_and_its_log_replays(tmp_path):
    path = script(tmp_path, "  top: {deck: [ship-dutch-1, ship-dutch-2]}\n",
                  "actions:\n  - expect: {\"item('ship-dutch-2') in p1.hand\": true}\n  - p2: pass\n")
    result = run_script(path)
    assert "  move ship-dutch-1: deck -> p1.hand" in result.transcript
    assert result.log["pins"] == {"top": {"deck": ["ship-dutch-1", "ship-dutch-2"]}}
    log = str(tmp_path / "s.log.yaml")
    write_log(log, result.log)
    assert run_script(log).state.events == result.state.events


def test_an_unknown_item_gets_did_you_mean_on_its_line(tmp_path):
    exc = failure(script(tmp_path, "  top: {deck: [ship-dutch-1, ship-duch-2]}\n"))
    assert exc.code == "RK5023" and "`ship-duch-2` is no item of Batavia" in str(exc)
    assert (exc.span.line, exc.span.column) == (5, 30) and "did you mean `ship-dutch-2`" in exc.render()


def test_an_item_listed_twice_is_refused(tmp_path):
    exc = failure(script(tmp_path, "  top:\n    deck:\n      - ship-dutch-1\n      - ship-dutch-1\n"))
    assert exc.code == "RK5023" and "listed twice" in str(exc) and exc.span.line == 8


def test_an_unknown_zone_gets_did_you_mean(tmp_path):
    exc = failure(script(tmp_path, "  top: {dek: [ship-dutch-1]}\n"))
    assert exc.code == "RK5022" and "did you mean `deck`" in exc.render() and exc.span.line == 5


def test_an_item_not_in_the_zone_when_it_is_shuffled_is_named_on_the_script_line(tmp_path):
    exc = failure(script(tmp_path, "  top:\n    deck: [ship-dutch-1, goal]\n"))
    assert exc.code == "RK5023" and (exc.span.line, exc.span.column) == (6, 26)
    assert "`goal` is not in `deck` when it is shuffled" in str(exc)
