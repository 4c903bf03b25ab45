"""`flow.rounds` from a parameter or an expression, and a content name for a round (issue #55):
`rounds: epochs` was refused by the schema with no hint; now the flow stops after the round whose
number reaches the value (or when `end_after_round_if` holds, whichever comes first), and
`flow.round_name` is what screens call a round."""
import subprocess
import sys

import pytest

import rulekit
from rulekit.errors import ContentRuntimeError, DiagnosticReport

GAME = """\
meta: {title: Epochs}
players: {min: 1, max: 2, default: 1}
params:
  epochs: {value: 3, min: 1, max: 9}
vars:
  tally: 0
flow:
  rounds: ROUNDS
  round_name: epoch
  phases:
    - id: p
      do: |
        tally += 1
        choose players[0]:
            "go":
                pass
  END
scoring:
  categories:
    - id: tally
      points: "tally"
"""


def _game(write_game, rounds, end=""):
    return rulekit.load_game(write_game(GAME.replace("ROUNDS", rounds).replace("END", end)))


def _rounds_played(game) -> int:
    state = rulekit.new_game(game, 1)
    while not state.over:
        rulekit.apply_index(state, 0)
    return state.g["round"]


@pytest.mark.parametrize("rounds, end, played", [
    ("epochs", "", 3),
    ("2 * epochs + 1", "", 7),
    ("epochs", "end_after_round_if: \"tally == 2\"", 2),       # whichever comes first
    ("4", "", 4),                                              # a number as ever
])
def test_rounds_from_a_parameter_or_an_expression(write_game, rounds, end, played):
    assert _rounds_played(_game(write_game, rounds, end)) == played


def test_a_variant_changing_the_parameter_changes_the_rounds(write_game):
    folder = write_game({"game.yaml": GAME.replace("ROUNDS", "epochs").replace("END", ""),
                         "variants/long.yaml": "variant: {name: long, title: Long}\nparams:\n  epochs: {value: 5}\n"})
    assert _rounds_played(rulekit.load_game(folder, ["long"])) == 5


def test_an_unknown_name_is_located_with_a_hint(write_game):
    with pytest.raises(DiagnosticReport) as caught:
        _game(write_game, "epoch")
    assert "RK0301" in str(caught.value) and "did you mean `epochs`" in str(caught.value)


def test_a_value_that_is_no_number_stops_on_its_line(write_game):
    game = _game(write_game, "\"'three'\"")
    with pytest.raises(ContentRuntimeError) as caught:
        _rounds_played(game)
    assert caught.value.span.line == 8


def test_screens_say_the_game_s_name_for_a_round(write_game):
    folder = write_game(GAME.replace("ROUNDS", "epochs").replace("END", ""))
    assert rulekit.load_game(folder).round_name == "epoch"
    run = subprocess.run([sys.executable, "-m", "rulekit", "autoplay", folder, "--players", "1", "--seed", "1"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "epoch 3:" in run.stdout and "round 3" not in run.stdout
