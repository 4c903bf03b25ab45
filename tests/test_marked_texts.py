# SPDX-License-Identifier: MIT
"""A template with a hole that prints a hidden value is a Marked text (engine/redact.py, issue
52); stored in a variable it behaves exactly as the plain text: sliced, indexed, joined,
compared, a mapping's key, an attribute's object, saved and restored."""
from __future__ import annotations

import json

import pytest

from rulekit.engine import api, serialize
from rulekit.engine.redact import Marked, plain
from rulekit.errors import ContentRuntimeError
from rulekit.games import load_game

GAME = """\
meta: {title: Marks}
players: {min: 2, max: 2}
components:
  gem:
    props: {worth: 0}
    items:
      - {id: amber, worth: 7013}
      - {id: jade, worth: 7027}
    start: pool
zones:
  pool: {visibility: hidden}
vars:
  note: {initial: "", type: text}
  notes: {initial: [], type: list}
  table: {initial: {}, type: any}
  pot: {initial: 5501, visibility: hidden}
player:
  vars:
    coins: {initial: 0, visibility: owner}
    memo: {initial: "", type: text}
setup: |
  for p in players:
      p.coins = 10000 * seat(p) + 101
  p = first(players)
  note = "{p} has {p.coins}"
  p.memo = "pot {pot}"
  notes = [note, "{p.coins}"]
  table[note] = 1
  table["pot {pot}"] = 2
  table = {"{p.coins}": 3, "x": table["p1 has 10101"]}
  STEPS
flow:
  rounds: 1
  phases:
    - id: keep
      do: |
        choose first(players):
            "keep {note}":
                note = note[0:3]
            "pass":
                pass
scoring:
  categories:
    - {id: none, points: "0"}
"""

CHECKS = [
    'note == "p1 has 10101"', 'note != "p1 has 1010"', 'note[0:2] == "p1"', 'note[3:] == "has 10101"',
    'note[3] == "h"', 'note[-1] == "1"', '"has" in note', 'note in ["p1 has 10101"]', 'note < "z"',
    '"a" < note', 'p.memo == "pot 5501"', 'table["10101"] == 3', 'table["x"] == 1',
    'join(notes, "/") == "p1 has 10101/10101"', 'join(notes) == "p1 has 10101, 10101"',
    'text(note) == note', 'note + "!" == "p1 has 10101!"', 'note * 2 == "p1 has 10101p1 has 10101"',
    'index_of(notes, "p1 has 10101") == 0', 'count(without(notes, "10101")) == 1',
    'sorted(notes)[0] == "10101"', 'count(distinct([note, "p1 has 10101"])) == 1',
    '"{note}" == note', '"{p.coins}"[0:2] == "10"', '"{p.coins}"[4] == "1"',
    'join(["a", "b"], "{p.coins}") == "a10101b"',
]


def _game(tmp_path, steps: str):
    folder = tmp_path / "marks"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.replace("STEPS", steps))
    return load_game(str(folder), ())


@pytest.fixture
def marks(tmp_path):
    lines = "\n  ".join(f'assert {check}, "{check.replace(chr(34), chr(39))}"' for check in CHECKS)
    return _game(tmp_path, lines + '\n  log(note)\n  log("{note} / {p.memo}")')


def test_a_variable_keeps_a_marked_text_plain_and_a_list_as_written(marks):
    # (engine/mutate.py: a variable set to a marked text keeps its plain text; the elements of a
    # list are kept as written, so the checks below meet marked texts there)
    s = api.new_game(marks, 2, 1)
    assert s.g["note"].__class__ is str and s.p[0]["memo"].__class__ is str
    assert [text.__class__ for text in s.g["notes"]] == [str, Marked]     # [note, "{p.coins}"]


def test_a_marked_text_behaves_as_the_plain_one(marks):
    s = api.new_game(marks, 2, 1)       # every check is a content assert: one false fails the game
    assert s.pending is not None
    logged = [event[1] for event in s.events if event[0] == "log"]
    assert logged[-2:] == ["p1 has 10101", "p1 has 10101 / pot 5501"]


def test_a_mapping_keeps_a_marked_key_as_plain_text(marks):
    s = api.new_game(marks, 2, 1)
    assert {key: key.__class__ for key in s.g["table"]} == {"10101": str, "x": str}


def test_slicing_past_the_end_is_the_contents_error(tmp_path):
    game = _game(tmp_path, 'x = note[40]')
    with pytest.raises(ContentRuntimeError, match="past the end of the text"):
        api.new_game(game, 2, 1)


def test_a_state_holding_marked_texts_is_saved_as_plain_text(marks):
    s = api.new_game(marks, 2, 1)
    api.apply(s, s.pending.labels[0])       # `keep p1 has 10101`: a marked label, the action kept
    data = serialize.to_dict(s)

    def walk(value):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from walk(k)
                yield from walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from walk(v)
        else:
            yield value
    assert not [value for value in walk(data) if value.__class__ is Marked]
    again = serialize.from_dict(marks, json.loads(json.dumps(data)))
    assert again.g == s.g and again.p == s.p and again.actions == s.actions
    assert again.over and again.result == s.result
    assert again.g["note"] == "p1 "


def test_plain_is_the_plain_text():
    text = Marked("p1 has 10101")
    text.marks = ((7, 12, frozenset(), ()),)
    assert plain(text).__class__ is str and plain(text) == text
    assert plain(3) == 3 and plain("x") == "x"


def test_a_marked_separator_joins(tmp_path):
    game = _game(tmp_path, 'assert join(notes, p.memo) == "p1 has 10101pot 550110101", "join"')
    api.new_game(game, 2, 1)


def test_a_marked_text_repeated_past_the_limit_is_refused(tmp_path):
    game = _game(tmp_path, 'big = note * 100000')       # 1,200,000 characters, past MAX_SIZE
    with pytest.raises(ContentRuntimeError, match="too long|more than"):
        api.new_game(game, 2, 1)
