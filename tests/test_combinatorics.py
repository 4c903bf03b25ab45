"""`combinations`, `permutations` and `product` (issue #38): scoring that asks for "the best three
colours" is one `max` over them, with no nested loops and no sentinel; a call past the bound is a
located content error."""
import pytest

import rulekit
from rulekit.errors import ContentRuntimeError

GAME = """\
meta: {title: C}
players: {min: 1, max: 1}
sets:
  colours: [red, blue, green, white]
tables:
  worth: {red: 5, blue: 1, green: 3, white: 4}
vars:
  out: none
setup: |
  best = max(sum(worth[c] for c in three) for three in combinations(colours, 3))
  out = [combinations([1, 2, 3], 2), permutations([1, 2, 3], 2), count(permutations(colours)),
         product(['a', 'b'], [1, 2]), combinations([1, 2], 3), best]
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        choose players[0]:
            "order {join(o)}" for o in permutations(['x', 'y']):
                out = o
scoring:
  categories:
    - id: none
      points: "0"
"""


def test_what_each_lists(write_game):
    state = rulekit.new_game(rulekit.load_game(write_game(GAME)), 1)
    assert state.g["out"] == [[[1, 2], [1, 3], [2, 3]], [[1, 2], [1, 3], [2, 1], [2, 3], [3, 1], [3, 2]], 24,
                              [["a", 1], ["a", 2], ["b", 1], ["b", 2]], [], 12]
    assert rulekit.legal_actions(state) == ["order x, y", "order y, x"]


@pytest.mark.parametrize(("call", "code", "said"), [
    ("combinations(range(40), 20)", "RK4015", "`combinations` would list 137,846,528,820 choices"),
    ("permutations(range(12))", "RK4015", "`permutations` would list 479,001,600 choices"),
    ("product(range(2000), range(2000))", "RK4015", "`product` would list 4,000,000 choices"),
    ("combinations(colours, out)", "RK4002", "`combinations`'s size is a whole number, not none"),
])
def test_past_the_bound_or_of_the_wrong_kind_fails_on_its_line(write_game, call, code, said):
    text = GAME.replace("  best = max(", f"  big = {call}\n  best = max(")
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(write_game(text)), 1)
    assert info.value.code == code and said in str(info.value)
    assert info.value.span.line == text.splitlines().index(f"  big = {call}") + 1


def test_a_size_of_an_evidently_wrong_kind_is_refused_where_it_is_written(write_game):
    from rulekit.errors import DiagnosticReport
    text = GAME.replace("combinations(colours, 3)", "combinations(colours, 'three')")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text))
    assert [d.code for d in info.value.diagnostics] == ["RK0321"]
