"""A procedure's parameter that every call in the game gives a player is read as one (#54, the
`typed` pass; dsl/signatures.py): its code tests no class, and a script that calls it with
anything else is refused on the call's line, never misread."""
import os

import pytest

from rulekit.dsl import passes
from rulekit.engine import api
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


LISTS = """\
meta: {title: Orders}
players: {min: 2, max: 3, default: 2}
player:
  vars:
    note: {initial: "", type: text}
procedures:
  rotate:
    params: [p]
    do: |
      p.note = text(p)
  mixed:
    params: [p]
    do: |
      p.note = text(p)
flow:
  rounds: 1
  phases:
    - id: all
      do: |
        order = players_from(players[1])
        i = 0
        while i < 2:
            who = order[i]
            i += 1
            rotate(who)
        bag = players_from(players[0])
        if count(bag) > 5:
            bag = [1, 2]
        w = bag[0]
        mixed(w)
scoring:
  categories:
    - {id: notes, points: "0"}
"""


def test_an_element_of_a_local_list_of_players_is_one(write_game):
    """``order = players_from(p)`` then ``who = order[i]``: ``who`` is a player wherever it is read, so
    ``rotate`` is given one at every call; ``bag``, given another list as well, types nothing."""
    game = load_game(write_game(LISTS, name="lists"))
    assert game.program.vocab.seat_params == {"rotate": {"p"}}
    state = api.new_game(game, 2, seed=1)      # no decision: the flow runs to its end
    assert [state.p[k]["note"] for k in range(2)] == ["p1", "p2"]
