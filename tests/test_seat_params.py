"""A procedure's parameter that every call in the game gives a player is read as one (#54, the
`typed` pass; dsl/signatures.py): its code tests no class, and a script that calls it with
anything else is refused on the call's line, never misread."""
import os

import pytest

from rulekit.dsl import passes
from rulekit.errors import RulekitError
from rulekit.games import load_game
from rulekit.testing.script import run_script

GAME = """\
meta: {title: Seats}
players: {min: 2, max: 3, default: 2}
player:
  vars:
    points: {initial: 0}
    note: {initial: "", type: text}
procedures:
  give:
    params: [p, n]
    do: |
      p.points += n
      p.note = text(p)
  countdown:
    params: [p, n]
    do: |
      if n > 0:
          p.points += 1
          countdown(p, n - 1)
  loose:
    params: [p]
    do: |
      p.note = text(p)
  turn:
    params: [p]
    do: |
      choose p:
          "go":
              give(p, 1)
flow:
  rounds: 1
  phases:
    - id: all
      do: |
        for q in players:
            give(q, 2)
            countdown(q, 2)
        for q in others(players[0]):
            turn(q)
        loose(players[0])
scoring:
  categories:
    - {id: points, points: "p.points"}
"""


@pytest.fixture
def game(write_game):
    return load_game(write_game(GAME))


def test_a_parameter_every_call_gives_a_player_is_one(game):
    found = game.program.vocab.seat_params
    assert found == {"give": {"p"}, "countdown": {"p"}, "turn": {"p"}}     # `loose` is given `players[0]`


def test_its_code_reads_it_as_a_player(game):
    source = game.program.module.source()
    give = source[source.index("def call_give"):source.index("\ndef ", source.index("def call_give") + 1)]
    assert "SEATS[l_p]" in give and "PLAYER" not in give
    loose = source[source.index("def call_loose"):source.index("\ndef ", source.index("def call_loose") + 1)]
    assert "__class__ is PLAYER" in loose      # nothing says what `loose` is given: its test stays


def test_without_the_typed_pass_nothing_is_taken_for_granted(write_game):
    with passes.using(passes.parse("-typed")):
        source = load_game(write_game(GAME, name="off")).program.module.source()
    give = source[source.index("def call_give"):source.index("\ndef ", source.index("def call_give") + 1)]
    assert "__class__ is PLAYER" in give


def _position(write_game, text: str) -> str:
    folder = write_game(GAME, name="scripted")
    path = os.path.join(folder, "s.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("game: .\nposition: |\n" + "".join(f"  {line}\n" for line in text.splitlines()) + "actions: []\n")
    return path


def test_a_script_giving_it_anything_else_is_refused_on_its_line(write_game):
    path = _position(write_game, 'x = 1\ngive("p1", 3)')
    with pytest.raises(RulekitError) as caught:
        run_script(path)
    assert "procedure `give` takes a player as `p`" in str(caught.value)
    assert "'p1'" in str(caught.value)


def test_a_script_giving_it_a_player_runs(write_game):
    result = run_script(_position(write_game, "for q in players:\n    give(q, 3)"))
    # 3 from the position, then the flow's 2 (give) and 2 (countdown) before the first decision
    assert [result.state.p[k]["points"] for k in range(2)] == [7, 7]
