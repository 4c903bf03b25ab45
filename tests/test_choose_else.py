"""``choose p: ... else:`` (issue #38): "place it if you can, else discard it" is one rule, written
once. The `else:` block runs at once, asking nobody, when no option is listed; otherwise the player
chooses as ever. An `else:` that can never run is refused where it is written."""
import pytest

import rulekit
from rulekit.errors import DiagnosticReport

from conftest import codes

GAME = """\
meta: {title: Place or discard}
players: {min: 1, max: 2, default: 1}
sets:
  cells: [a, b]
components:
  tile:
    generate: {n: {range: [1, 3]}}
    id: "t{n}"
    start: bag
zones:
  bag: {visibility: public}
  discard: {visibility: public}
  board:
    keys: cells
    visibility: public
vars:
  placed: {initial: 0}
  discarded: {initial: 0}
procedures:
  place:
    params: [p, tile]
    do: |
      choose p:
          "place {tile} on {c}" for c in cells if count(board[c]) == 0:
              move(tile, to=board[c])
              placed += 1
          else:
              move(tile, to=discard)
              discarded += 1
flow:
  rounds: 3
  phases:
    - id: draw
      do: |
        place(players[0], top(bag))
scoring:
  categories:
    - id: placed
      points: "placed"
"""


def test_the_player_chooses_while_there_are_options_and_else_runs_when_none(write_game):
    game = rulekit.load_game(write_game(GAME))
    state = rulekit.new_game(game, 1, record=True)
    assert rulekit.legal_actions(state) == ["place t3 on a", "place t3 on b"]
    rulekit.apply(state, "place t3 on a")
    assert rulekit.legal_actions(state) == ["place t2 on b"]
    rulekit.apply(state, "place t2 on b")
    assert state.over and (state.g["placed"], state.g["discarded"]) == (2, 1)   # the third tile: no cell left


def test_a_bot_and_random_play_take_the_else_too(write_game):
    from rulekit.testing.random_play import play_random
    game = rulekit.load_game(write_game(GAME))
    for seed in range(3):
        state, actions = play_random(game, 1, seed)
        assert (actions, state.g["placed"], state.g["discarded"]) == (2, 2, 1)


def test_an_else_that_can_never_run_is_refused(write_game):
    text = GAME.replace('''          else:
              move(tile, to=discard)''', '''          "keep it":
              pass
          else:
              move(tile, to=discard)''')
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text))
    assert codes(info.value) == ["RK0347"]
    diagnostic = info.value.diagnostics[0]
    assert "always has the option 'keep it'" in diagnostic.message
    assert diagnostic.span.line == text.splitlines().index("              move(tile, to=discard)") + 1
