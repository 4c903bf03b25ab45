"""Zone families sized by the game (issue #38): `range: [1, PARAM]` declares the zones of the largest
game and plays the keys up to the parameter's value, so walking, counting, indexing and views see
only the spaces of this game; a bound that is no whole-number parameter is a located content error."""
import pytest

import rulekit
from rulekit.engine import api
from rulekit.engine.view import view
from rulekit.errors import ContentRuntimeError, DiagnosticReport

from conftest import ONE_DECISION, codes, where

GAME = """\
meta: {title: Displays}
players: {min: 2, max: 4, default: 2}
params:
  displays:
    expr: "2 * num_players + 1"
    max: 9
    text: "5 displays with 2 players, 7 with 3, 9 with 4."
components:
  tile: {generate: {n: {range: [1, 40]}}, id: "t{n}", start: bag}
zones:
  bag: {visibility: public}
  display: {range: [1, displays], visibility: public}
vars:
  walked: none
  counted: 0
  indexed: 0
setup: |
  for d in display:
      draw(bag, to=d)
      draw(bag, to=d)
  walked = [count(d) for d in display]
  counted = count(display)
  indexed = count(display[displays])
""" + ONE_DECISION


@pytest.mark.parametrize("players, used", [(2, 5), (3, 7), (4, 9)])
def test_a_game_plays_the_spaces_its_parameter_says(write_game, players, used):
    game = rulekit.load_game(write_game(GAME))
    s = api.new_game(game, players=players, seed=1)
    assert s.g["walked"] == [2] * used
    assert s.g["counted"] == used
    assert s.g["indexed"] == 2
    assert len(s.zones[game.board.zones["bag"]]) == 40 - 2 * used
    assert list(view(s)["zones"]["display"]) == [str(k) for k in range(1, used + 1)]


def test_a_space_of_larger_games_only_is_a_located_error(write_game):
    game = rulekit.load_game(write_game(GAME.replace("indexed = count(display[displays])",
                                                     "indexed = count(display[9])")))
    assert api.new_game(game, players=4).g["indexed"] == 2
    with pytest.raises(ContentRuntimeError) as info:
        api.new_game(game, players=2)
    assert "`display` has no space `9` in this game (`displays` is 5)" in str(info.value)
    assert info.value.span.line == 23     # indexed = count(display[9])


def test_a_bound_past_the_declared_max_is_refused_when_the_game_starts(write_game):
    game = rulekit.load_game(write_game(GAME.replace('"2 * num_players + 1"', '"3 * num_players"')))
    assert api.new_game(game, players=3).g["counted"] == 9
    with pytest.raises(ContentRuntimeError, match=r"sized by `displays`, which is 12 with 4 players: more than "
                                                  r"the 9 zones it has"):
        api.new_game(game, players=4)


@pytest.mark.parametrize("bound, message", [
    ("dispays", "`display` is sized by `dispays`, which is no parameter"),
    ("title", "`display` is sized by `title`, which holds no whole number"),
])
def test_a_bound_that_is_no_whole_number_parameter_is_a_content_error(write_game, bound, message):
    text = GAME.replace("range: [1, displays]", f"range: [1, {bound}]").replace(
        "params:\n", "params:\n  title: {value: hello}\n")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text))
    found = [d for d in info.value.diagnostics if d.code == "RK0348"]
    assert found and found[0].message == message, codes(info.value)
    assert where(found[0]) == ("game.yaml", 13, 20)      # the range
    if bound == "dispays":
        assert "did you mean `displays`" in found[0].help


def test_a_computed_bound_needs_a_max(write_game):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(GAME.replace("    max: 9\n", "")))
    found = [d for d in info.value.diagnostics if d.code == "RK0348"]
    assert "computed when a game starts and declares no `max:`" in found[0].message
    assert found[0].help == "give `displays` a `max:`: the most zones `display` can have"


def test_a_player_family_can_be_sized_too(write_game):
    text = GAME.replace("  display: {range: [1, displays], visibility: public}\n", "").replace(
        "vars:\n", "player:\n  zones:\n    line: {range: [1, displays], visibility: public}\nvars:\n", 1).replace(
        "for d in display:", "for d in players[0].line:").replace(
        "walked = [count(d) for d in display]", "walked = [count(d) for d in players[0].line]").replace(
        "counted = count(display)", "counted = count(players[1].line)").replace(
        "indexed = count(display[displays])", "indexed = count(players[0].line[displays])")
    game = rulekit.load_game(write_game(text))
    s = api.new_game(game, players=3, seed=0)
    assert (s.g["walked"], s.g["counted"], s.g["indexed"]) == ([2] * 7, 7, 2)
    assert list(view(s)["players"]["p2"]["line"]) == [str(k) for k in range(1, 8)]


def test_cells_of_a_sized_family_are_the_keys_in_play(write_game):
    text = GAME.replace("counted = count(display)", "counted = cells(display)").replace(
        "counted: 0", "counted: {initial: none, type: list}")
    game = rulekit.load_game(write_game(text))
    assert api.new_game(game, players=2).g["counted"] == [1, 2, 3, 4, 5]
