"""``xs[lo:hi]`` (issue #38): the first three, all but the last; a zone's or a text's too. Bounds
work as Python's slices (past either end is the end, negative counts from the end), and a bound
that is no whole number fails on its line."""
import pytest

import rulekit
from rulekit.errors import ContentRuntimeError

GAME = """\
meta: {title: Slices}
players: {min: 1, max: 1}
components:
  card:
    generate: {n: {range: [1, 5]}}
    start: deck
zones:
  deck: {visibility: public}
vars:
  out: none
setup: |
  xs = [1, 2, 3, 4, 5]
  out = [xs[:3], xs[2:], xs[1:-1], xs[:], count(deck[:2]), "abcdef"[1:3], xs[10:], [x * 2 for x in xs[:2]]]
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        choose players[0]:
            "take {c}" for c in deck[-2:]:
                pass
scoring:
  categories:
    - id: none
      points: "0"
"""


def test_slices(write_game, monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "cache"))
    folder = write_game(GAME)
    for _load in range(2):      # parsed afresh, then read back from the parse cache
        state = rulekit.new_game(rulekit.load_game(folder), 1)
        assert state.g["out"] == [[1, 2, 3], [3, 4, 5], [2, 3, 4], [1, 2, 3, 4, 5], 2, "bc", [], [2, 4]]
        assert rulekit.legal_actions(state) == ["take card-4", "take card-5"]


def test_a_bound_that_is_no_whole_number_fails_on_its_line(write_game):
    text = GAME.replace("  xs = [1, 2, 3, 4, 5]\n", "  xs = [1, 2, 3, 4, 5]\n  k = 'two'\n  ys = xs[k:]\n  out = ys\n")
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(write_game(text)), 1)
    assert info.value.code == "RK4002" and "a slice's bounds are whole numbers, not `two`" in str(info.value)
    assert info.value.span.line == text.splitlines().index("  ys = xs[k:]") + 1
