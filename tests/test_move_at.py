"""``move(x, to=deck, at=N)`` (issue #38): an item goes N items from the top, or with a negative N
counted from the bottom (-1 is the bottom): the "last round" card 16th from the bottom is one move."""
import pytest

import rulekit
from rulekit.errors import ContentRuntimeError

from conftest import ONE_DECISION

GAME = """\
meta: {title: At}
players: {min: 1, max: 1}
components:
  card:
    generate: {n: {range: [1, 5]}}
    id: "c{n}"
    start: deck
  marker:
    items: [{id: last}]
    start: box
zones:
  deck: {visibility: public}
  box: {visibility: public}
vars:
  out: none
setup: |
  out = []
  for at in [0, 1, 5, -1, -2, -6, "top", "bottom"]:
      move(item("last"), to=deck, at=at)
      out = out + [index_of(deck, item("last"))]
""" + ONE_DECISION


def test_at_counts_from_the_top_or_the_bottom(write_game):
    state = rulekit.new_game(rulekit.load_game(write_game(GAME)), 1)
    # deck is kept bottom first: c1..c5 then `last`; index 5 is the top of six
    assert state.g["out"] == [5, 4, 0, 0, 1, 5, 5, 0]


@pytest.mark.parametrize(("at", "code", "said"), [
    ("6", "RK4020", "`at=6` is past the bottom of `deck` (5 items besides the one moved)"),
    ("-7", "RK4020", "`at=-7` is past the top of `deck`"),
    ('"middle"', "RK4002", '`at` is "top", "bottom" or a whole number of items from the top'),
])
def test_past_the_deck_or_of_another_kind_fails_on_its_line(write_game, at, code, said):
    text = GAME.replace('[0, 1, 5, -1, -2, -6, "top", "bottom"]', f"[{at}]")
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(write_game(text)), 1)
    assert info.value.code == code and said in str(info.value)
    assert info.value.span.line == text.splitlines().index('      move(item("last"), to=deck, at=at)') + 1
