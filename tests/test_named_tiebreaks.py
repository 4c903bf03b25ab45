"""Named tie-breaks (issue #38): `{id: most ships, expr: ...}` heads its score-table column with the
name (not `tie-break 1`), an error in it names it, and unnamed ones keep their numbers."""
import pytest

import rulekit
from rulekit.cli.app import main
from rulekit.errors import ContentRuntimeError

from conftest import ONE_DECISION

GAME = """\
meta: {title: Ties}
players: {min: 2, max: 2}
player:
  vars:
    ships: {initial: 1}
    money: {initial: 2}
""" + ONE_DECISION + """\
  tiebreak:
    - {id: "most ships [bold]", expr: "p.ships", text: "the player with more ships wins the tie"}
    - "p.money"
"""


def test_a_named_tiebreak_heads_its_column(write_game, capsys):
    assert main(["autoplay", write_game(GAME)]) == 0
    out = capsys.readouterr().out
    assert "most ships [bold]" in out and "tie-break 2" in out and "tie-break 1" not in out


def test_the_result_keeps_every_tiebreak_value(write_game):
    state = rulekit.new_game(rulekit.load_game(write_game(GAME)), 2)
    rulekit.apply(state, "go")
    assert state.result["scores"]["p1"]["tiebreak"] == [1, 2]


def test_an_error_in_a_named_tiebreak_names_it(write_game):
    text = GAME.replace('expr: "p.ships"', 'expr: "p.ships // 0"')
    state = rulekit.new_game(rulekit.load_game(write_game(text)), 2)
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.apply(state, "go")
    assert "tie-break `most ships [bold]`" in str(info.value) or "most ships" in info.value.render()
